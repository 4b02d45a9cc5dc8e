//! The constructive solver on thousands of random boards, every solution replayed.

use tilespace::puzzle::construct::solve;
use tilespace::puzzle::moves::verify;
use tilespace::puzzle::random::{solvable_board, Rng};
use tilespace::{Board, Cell, Shape};

/// Calabro's bound is O((R+C)·R·C); this constant holds with room on every shape tried.
const MOVES_PER_UNIT: f64 = 3.0;

fn run(shapes: &[(usize, usize)], boards_per_shape: usize, seed: u64) -> (usize, f64) {
    let mut rng = Rng::new(seed);
    let mut solved = 0;
    let mut worst: f64 = 0.0;
    for &(r, c) in shapes {
        let shape = Shape::new(r, c).unwrap();
        let unit = ((r + c) * r * c) as f64;
        for i in 0..boards_per_shape {
            // The default goal half the time, else a random goal blank cell.
            let goal = if i % 2 == 0 {
                Cell(shape.cells() - 1)
            } else {
                Cell(rng.below(shape.cells() as u64) as usize)
            };
            let board = solvable_board(shape, goal, &mut rng);
            let found = solve(&board, goal).unwrap_or_else(|e| panic!("{board}: {e}"));
            verify(&board, &found.moves, &Board::goal(shape, goal))
                .unwrap_or_else(|e| panic!("{shape} goal {goal:?}: {e}"));
            assert!(found.moves.len() >= found.lower_bound);
            let ratio = found.moves.len() as f64 / unit;
            assert!(
                ratio <= MOVES_PER_UNIT,
                "{board}: {} moves is {ratio:.2} (R+C)RC",
                found.moves.len()
            );
            worst = worst.max(ratio);
            solved += 1;
        }
    }
    (solved, worst)
}

#[test]
fn squares_from_2x2_to_20x20() {
    let shapes: Vec<(usize, usize)> = (2..=20).map(|n| (n, n)).collect();
    let (solved, worst) = run(&shapes, 120, 1);
    assert_eq!(solved, 19 * 120);
    eprintln!("squares: {solved} boards, at most {worst:.3} (R+C)RC moves");
}

#[test]
fn non_square_boards_and_lines() {
    let shapes = [
        (2, 3),
        (3, 2),
        (2, 7),
        (7, 2),
        (2, 20),
        (20, 2),
        (3, 8),
        (8, 3),
        (4, 9),
        (9, 4),
        (5, 13),
        (13, 5),
        (6, 17),
        (17, 6),
        (1, 2),
        (1, 9),
        (9, 1),
    ];
    let (solved, worst) = run(&shapes, 100, 2);
    assert_eq!(solved, shapes.len() * 100);
    eprintln!("non-square: {solved} boards, at most {worst:.3} (R+C)RC moves");
}

#[test]
fn a_50x50_board() {
    let shape = Shape::new(50, 50).unwrap();
    let goal = Cell(1275);
    let board = solvable_board(shape, goal, &mut Rng::new(50));
    let found = solve(&board, goal).unwrap();
    verify(&board, &found.moves, &Board::goal(shape, goal)).unwrap();
    assert!(found.moves.len() as f64 <= MOVES_PER_UNIT * (100 * 2500) as f64);
}

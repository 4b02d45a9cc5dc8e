//! Pattern databases and IDA* against independent references: a plain BFS over explicit
//! boards, saved tables of the engine, and a plain 0-1 BFS over abstract states.

use std::collections::{HashMap, VecDeque};

use crate::boards::{reference, saved};
use rayon::prelude::*;
use tilespace::optimal::build::{build, UNREACHED};
use tilespace::optimal::database::Database;
use tilespace::optimal::heuristic::Heuristic;
use tilespace::optimal::ida::{solve, Limits};
use tilespace::optimal::pattern::{split, Pattern};
use tilespace::puzzle::random::{solvable_board, Rng};
use tilespace::{Board, Cell, Shape};

fn built(patterns: Vec<Pattern>) -> Vec<Database> {
    patterns
        .into_iter()
        .map(|p| {
            let built = build(&p, &|_| {}, None).unwrap();
            Database::new(p, built).unwrap()
        })
        .collect()
}

fn databases(patterns: Vec<Pattern>) -> Heuristic {
    Heuristic::new(built(patterns)).unwrap()
}

/// A partition given as lists of tiles.
fn lists(shape: Shape, goal: Cell, tiles: &[&[u32]]) -> Vec<Pattern> {
    tiles
        .iter()
        .map(|t| Pattern::new(shape, goal, t).unwrap())
        .collect()
}

fn shape(s: &str) -> Shape {
    s.parse().unwrap()
}

/// A pattern's abstract distances by the simplest 0-1 BFS: states are the pattern tiles'
/// cells and the blank's cell, explicitly, in a map; a blank move over a pattern tile costs 1,
/// over any other cell 0. A placement's distance is the least over its blank cells.
fn abstract_reference(p: &Pattern) -> HashMap<Vec<u8>, u32> {
    let start: (Vec<u8>, usize) = (p.goal_cells(), p.goal.0);
    let mut dist = HashMap::from([(start.clone(), 0u32)]);
    let mut deque = VecDeque::from([(start, 0u32)]);
    while let Some(((at, blank), d)) = deque.pop_front() {
        if dist[&(at.clone(), blank)] < d {
            continue;
        }
        for n in p.shape.neighbours(Cell(blank)) {
            let mut next = at.clone();
            let cost = match at.iter().position(|&c| usize::from(c) == n.0) {
                Some(i) => {
                    next[i] = blank as u8;
                    1
                }
                None => 0,
            };
            let key = (next, n.0);
            if dist.get(&key).is_none_or(|&old| old > d + cost) {
                dist.insert(key.clone(), d + cost);
                if cost == 0 {
                    deque.push_front((key, d));
                } else {
                    deque.push_back((key, d + 1));
                }
            }
        }
    }
    let mut best: HashMap<Vec<u8>, u32> = HashMap::new();
    for ((at, _), d) in dist {
        let e = best.entry(at).or_insert(d);
        *e = (*e).min(d);
    }
    best
}

/// Every entry of databases of patterns of 2x3, 3x3, 2x4, 3x6, 4x5 and 5x5 equals the plain 0-1 BFS's distance,
/// and placements it never reaches are marked unreached.
#[test]
fn databases_equal_a_plain_abstract_search() {
    let cases = [
        ("2x3", 5, vec![1, 2]),
        ("2x3", 0, vec![1, 2, 3, 4]),
        ("3x3", 8, vec![1, 2, 3, 4]),
        ("3x3", 4, vec![2, 5, 7]),
        ("3x3", 0, vec![8]),
        ("2x4", 3, vec![1, 4, 5, 6, 7]),
        ("3x3", 8, vec![1, 2, 3, 4, 5, 6, 7]),
        // Past 16 cells (5 bits a cell in the layers' lists) and past 24 (64-bit words).
        ("3x6", 17, vec![1, 9, 16]),
        ("4x5", 0, vec![1, 2, 3]),
        ("5x5", 12, vec![7, 13, 24]),
    ];
    for (s, goal, tiles) in cases {
        let p = Pattern::new(shape(s), Cell(goal), &tiles).unwrap();
        let want = abstract_reference(&p);
        let db = Database::new(p.clone(), build(&p, &|_| {}, None).unwrap()).unwrap();
        assert_eq!(db.reached, want.len() as u64, "{s} {p}");
        let k = tiles.len();
        let a = tilespace::index::partial::Arrangements::new(p.shape.cells(), k).unwrap();
        let mut at = vec![0u8; k];
        for r in 0..a.count() {
            a.unrank(r, &mut at);
            let got = db.get(&at);
            match want.get(&at) {
                Some(&d) => assert_eq!(u32::from(got), d, "{s} {p} at {at:?}"),
                None => assert_eq!(got, UNREACHED, "{s} {p} at {at:?}"),
            }
        }
    }
}

/// Every state of 2x3 (three goals) and 3x3 (three goals): IDA*'s length equals the reference
/// distance, for several partitions.
#[test]
fn every_small_state_is_solved_optimally() {
    let cases = [
        ("2x3", 5, "2-3"),
        ("2x3", 0, "1-1-3"),
        ("2x3", 2, "5"),
        ("3x3", 8, "4-4"),
        ("3x3", 0, "3-5"),
        ("3x3", 4, "2-2-2-2"),
    ];
    for (s, goal, partition) in cases {
        let (shape, goal) = (shape(s), Cell(goal));
        let h = databases(split(shape, goal, partition).unwrap());
        let want = reference(shape, goal);
        want.par_iter().for_each(|(board, &d)| {
            let solved = solve(&h, board, Limits::default()).unwrap();
            assert_eq!(solved.moves.len() as u32, d, "{s} {partition}: {board}");
            assert!(
                h.value(board).unwrap() <= d,
                "{board}: heuristic above the distance"
            );
        });
    }
}

/// Several partitions: the heuristic is the largest of their sums (and of their mirror
/// images' where the goal blank is on the diagonal) on every state of 3x3, and IDA* with it is exact;
/// more sums than are looked up per move, or partitions of different goals, are refused.
#[test]
fn several_partitions_take_the_largest_sum() {
    for goal in [Cell(8), Cell(2)] {
        let s = shape("3x3");
        let rows = split(s, goal, "4-4").unwrap();
        let columns = lists(s, goal, &[&[1, 4, 7], &[2, 5, 8], &[3, 6]]);
        let (a, b) = (databases(rows.clone()), databases(columns.clone()));
        let both =
            Heuristic::of_partitions(vec![built(rows.clone()), built(columns.clone())]).unwrap();
        assert_eq!(both.partitions(), 2);
        assert_eq!(both.mirrored(), goal == Cell(8));
        let want = reference(s, goal);
        let mut larger = 0;
        for (board, &d) in &want {
            let (x, y) = (a.value(board).unwrap(), b.value(board).unwrap());
            assert_eq!(both.value(board).unwrap(), x.max(y), "{board}");
            larger += usize::from(x != y);
            let solved = solve(&both, board, Limits::default()).unwrap();
            assert_eq!(solved.moves.len() as u32, d, "{board}");
            assert_eq!(solved.start_bound, x.max(y), "{board}");
        }
        assert!(
            larger > want.len() / 10,
            "the partitions differ on {larger} boards"
        );
        if goal == Cell(8) {
            let three = vec![
                built(rows.clone()),
                built(columns.clone()),
                built(rows.clone()),
            ];
            let e = Heuristic::of_partitions(three).unwrap_err().to_string();
            assert!(e.contains("at most 4"), "{e}");
        }
    }
    let other = split(shape("3x3"), Cell(0), "4-4").unwrap();
    let last = split(shape("3x3"), Cell(8), "4-4").unwrap();
    let e = Heuristic::of_partitions(vec![built(other), built(last)])
        .unwrap_err()
        .to_string();
    assert!(e.contains("one board and goal"), "{e}");
}

/// Random states of 2x5, 3x4 and 2x6: IDA*'s length equals the saved table's distance, for
/// several partitions and goal blanks.
#[test]
fn random_states_of_twelve_cells_are_solved_optimally() {
    let tmp = tempfile::tempdir().unwrap();
    let cases = [
        ("2x5", 9, "4-5", 300),
        ("2x5", 0, "3-3-3", 300),
        ("3x4", 11, "6-5", 150),
        ("3x4", 5, "4-4-3", 60),
        ("2x6", 0, "5-6", 100),
        ("2x6", 11, "6-5", 100),
    ];
    for (s, goal, partition, count) in cases {
        let (shape, goal) = (shape(s), Cell(goal));
        let table = saved(shape, goal, tmp.path());
        let h = databases(split(shape, goal, partition).unwrap());
        let mut rng = Rng::new(17);
        let boards: Vec<Board> = (0..count)
            .map(|_| solvable_board(shape, goal, &mut rng))
            .collect();
        boards.par_iter().for_each(|board| {
            let d = table.distance(board).unwrap();
            let solved = solve(&h, board, Limits::default()).unwrap();
            assert_eq!(solved.moves.len() as u32, d, "{s} {partition}: {board}");
        });
    }
}

/// On 3x4 each database's entry, and the partitions' sums, are at most the true distance (the
/// saved table's), on random states; the sum is exactly 0 at the goal only.
#[test]
fn entries_and_their_sums_are_lower_bounds() {
    let tmp = tempfile::tempdir().unwrap();
    let (shape, goal) = (shape("3x4"), Cell(11));
    let table = saved(shape, goal, tmp.path());
    for partition in ["6-5", "4-4-3", "3-3-3-2"] {
        let h = databases(split(shape, goal, partition).unwrap());
        let mut rng = Rng::new(5);
        for _ in 0..20_000 {
            let board = solvable_board(shape, goal, &mut rng);
            let d = table.distance(&board).unwrap();
            let mut pos = [0u8; 12];
            for (c, &t) in board.cells().iter().enumerate() {
                pos[t as usize] = c as u8;
            }
            let mut sum = 0;
            for db in &h.databases {
                let at: Vec<u8> = db.pattern.tiles.iter().map(|&t| pos[t as usize]).collect();
                let e = u32::from(db.get(&at));
                assert!(e <= d, "{partition} {}: {e} > {d} at {board}", db.pattern);
                sum += e;
            }
            assert!(sum <= d, "{partition}: sum {sum} > {d} at {board}");
            assert_eq!(sum == 0, board == Board::goal(shape, goal));
        }
    }
}

/// A pattern of every tile is the whole puzzle: on 2x5 its entries are the saved table's
/// distances, and the other class's placements are never reached.
#[test]
fn a_pattern_of_every_tile_is_the_distance_table() {
    let tmp = tempfile::tempdir().unwrap();
    let (shape, goal) = (shape("2x5"), Cell(9));
    let table = saved(shape, goal, tmp.path());
    let h = databases(split(shape, goal, "9").unwrap());
    assert_eq!(h.databases[0].reached, 1_814_400, "10!/2");
    let mut rng = Rng::new(9);
    for _ in 0..5_000 {
        let board = solvable_board(shape, goal, &mut rng);
        assert_eq!(
            h.value(&board).unwrap(),
            table.distance(&board).unwrap(),
            "{board}"
        );
    }
}

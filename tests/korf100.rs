//! Korf's 100 random 15-puzzle instances (Korf 1985, "Depth-first iterative-deepening: an
//! optimal admissible tree search", Artificial Intelligence 27:97-109, Table 1), with their
//! published optimal lengths, in `tests/data/korf100.csv`. The data are checked against what
//! every optimal length must satisfy (each board a solvable 4x4, goal blank first; each length
//! at least the Manhattan distance and of its parity, as every move changes it by exactly one),
//! and IDA* with pattern databases must find exactly those lengths.

use std::path::Path;

use tilespace::puzzle::construct::manhattan;
use tilespace::{solvability, Board, GoalBlank, Shape};

/// The instances of the data file: (index, published length, board), in order.
fn instances() -> Vec<(usize, usize, Board)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/korf100.csv");
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .skip(1)
        .map(|line| {
            let f: Vec<&str> = line.splitn(3, ',').collect();
            let shape = Some("4x4".parse().unwrap());
            (
                f[0].parse().unwrap(),
                f[1].parse().unwrap(),
                Board::parse(f[2], shape).unwrap(),
            )
        })
        .collect()
}

#[test]
fn korfs_instances_are_solvable_and_their_lengths_admissible() {
    let shape: Shape = "4x4".parse().unwrap();
    let goal = GoalBlank::First.resolve(shape).unwrap();
    let mut seen = 0;
    let mut boards = std::collections::HashSet::new();
    for (index, length, b) in instances() {
        seen += 1;
        assert_eq!(index, seen, "instances in order");
        assert!(boards.insert(b.to_string()), "instance {index} repeated");
        assert!(
            solvability(&b, goal).solvable,
            "instance {index} is not solvable"
        );
        let bound = manhattan(&b, goal);
        assert!(
            length >= bound,
            "instance {index}: {length} < Manhattan {bound}"
        );
        assert_eq!(
            length % 2,
            bound % 2,
            "instance {index}: parity of {length} and {bound}"
        );
        // Korf's table: the lengths run from 41 to 66.
        assert!((41..=66).contains(&length), "instance {index}: {length}");
    }
    assert_eq!(seen, 100);
}

/// All 100 solved optimally by IDA* with the 6-6-3 databases (built here in about 2 s; the 7-8
/// ones take minutes and are run by `scripts/korf100.sh`): every length equals Korf's.
#[test]
fn idastar_reproduces_every_published_length() {
    use rayon::prelude::*;
    use tilespace::optimal::build::build;
    use tilespace::optimal::database::Database;
    use tilespace::optimal::heuristic::Heuristic;
    use tilespace::optimal::ida::{solve, Limits};
    use tilespace::optimal::pattern::split;

    let shape: Shape = "4x4".parse().unwrap();
    let goal = GoalBlank::First.resolve(shape).unwrap();
    let databases = split(shape, goal, "6-6-3")
        .unwrap()
        .into_iter()
        .map(|p| {
            let built = build(&p, &|_| {}, None).unwrap();
            Database::new(p, built).unwrap()
        })
        .collect();
    let h = Heuristic::new(databases).unwrap();
    assert!(h.mirrored(), "4x4 with the blank first has a mirror");
    let instances = instances();
    assert_eq!(instances.len(), 100);
    instances.par_iter().for_each(|(index, length, board)| {
        let solved = solve(&h, board, Limits::default()).unwrap();
        assert_eq!(solved.moves.len(), *length, "instance {index}");
        assert!(solved.start_bound as usize <= *length);
    });
}

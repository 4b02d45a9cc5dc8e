//! Korf's 100 random 15-puzzle instances (Korf 1985, "Depth-first iterative-deepening: an
//! optimal admissible tree search", Artificial Intelligence 27:97-109, Table 1), with their
//! published optimal lengths, in `tests/data/korf100.csv`. Until `solve --optimal` can check
//! the lengths themselves (issue 17), the data are checked against what every optimal length
//! must satisfy: each board is a solvable 4x4 (goal: blank first), and each length is at least
//! the Manhattan distance and of its parity (every move changes it by exactly one).

use std::path::Path;

use tilespace::puzzle::construct::manhattan;
use tilespace::{solvability, Board, GoalBlank, Shape};

#[test]
fn korfs_instances_are_solvable_and_their_lengths_admissible() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/korf100.csv");
    let text = std::fs::read_to_string(path).unwrap();
    let shape: Shape = "4x4".parse().unwrap();
    let goal = GoalBlank::First.resolve(shape).unwrap();
    let mut seen = 0;
    let mut boards = std::collections::HashSet::new();
    for line in text.lines().filter(|l| !l.starts_with('#')).skip(1) {
        let mut fields = line.splitn(3, ',');
        let (index, length, board) = (
            fields.next().unwrap().parse::<usize>().unwrap(),
            fields.next().unwrap().parse::<usize>().unwrap(),
            fields.next().unwrap(),
        );
        seen += 1;
        assert_eq!(index, seen, "instances in order");
        let b = Board::parse(board, Some(shape)).unwrap();
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

//! Library-level helpers of the tests that compare with distances: a plain BFS over explicit
//! boards (the reference) and saved tables of the engine.
#![allow(dead_code)]

use std::collections::{HashMap, VecDeque};
use std::path::Path;

use tilespace::store::saved::SavedTable;
use tilespace::{analyze, AnalyzeOptions, Board, Cell, Shape};

/// Distances from the goal by a plain BFS over explicit boards.
pub fn reference(shape: Shape, goal: Cell) -> HashMap<Board, u32> {
    let start = Board::goal(shape, goal);
    let mut depth = HashMap::from([(start.clone(), 0u32)]);
    let mut queue = VecDeque::from([start]);
    while let Some(b) = queue.pop_front() {
        let d = depth[&b];
        for n in b.neighbours() {
            if !depth.contains_key(&n) {
                depth.insert(n.clone(), d + 1);
                queue.push_back(n);
            }
        }
    }
    depth
}

/// The engine's saved table of `shape` with goal blank `goal`, written to `dir` and opened.
pub fn saved(shape: Shape, goal: Cell, dir: &Path) -> SavedTable {
    let path = dir.join(format!("{shape}-{}.tst", goal.0));
    let options = AnalyzeOptions {
        save_table: Some(&path),
        ..Default::default()
    };
    analyze(
        &tilespace::Puzzle::board(shape, goal, tilespace::Metric::Single).unwrap(),
        options,
        &|_| {},
    )
    .unwrap();
    SavedTable::open(&path).unwrap()
}

//! The scans of a kind of moves, as one table of functions: instantiated for single tiles on
//! 2, 3 and 4 columns (the engine's orientations of boards up to 17 cells), for multi-tile
//! moves on 2, 3 and 4 rows, and for moves on a graph.

use super::graph::{
    list_graph, list_graph_shard, pull_graph, pull_graph_shard, push_graph, push_graph_shard,
    GraphTables,
};
use super::multi::{
    list_multi, list_multi_shard, pull_multi, pull_multi_shard, push_multi, push_multi_shard,
};
use super::scan::{Found, LayerScan, SlideTables};
use super::turn::BlankMoves;
use super::{expand_list, expand_list_shard, expand_pull, expand_scan, expand_shard, pull_shard};
use crate::bfs::schedule::Task;

/// A pull on a shard, appending (state, neighbour) queries for other shards.
pub type PullShard<T> = fn(&LayerScan<T>, Task, &mut Vec<(u64, u64)>) -> Found;

/// The scans of one kind of moves, whose tables are `T`: on one table and on a shard (where
/// the targets or queries for other shards are appended to the vector).
pub struct Kernels<T: ?Sized> {
    /// Push over a task of the table.
    pub push: fn(&LayerScan<T>, Task) -> Found,
    /// Pull over a task of the table.
    pub pull: fn(&LayerScan<T>, Task) -> Found,
    /// Expansion of part of a listed frontier.
    pub list: fn(&LayerScan<T>, &[u64]) -> Found,
    /// Push on a shard.
    pub push_shard: fn(&LayerScan<T>, Task, &mut Vec<u64>) -> Found,
    /// Pull on a shard: (state, neighbour) queries for other shards.
    pub pull_shard: PullShard<T>,
    /// List expansion on a shard.
    pub list_shard: fn(&LayerScan<T>, &[u64], &mut Vec<u64>) -> Found,
}

// Function pointers: copied whatever `T` is.
impl<T: ?Sized> Clone for Kernels<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T: ?Sized> Copy for Kernels<T> {}

impl Kernels<[BlankMoves]> {
    /// The single-tile scans compiled for `cols` columns: 2 to 4, the fewer of a board's rows
    /// and columns (`StateSpace::prefers_transposed`) on the boards the index covers (at most
    /// 17 cells; a line has no table). No scan is compiled for more columns: one that no
    /// board runs would be code no test checks.
    pub fn single(cols: usize) -> Kernels<[BlankMoves]> {
        match cols {
            2 => Self::single_of::<2>(),
            3 => Self::single_of::<3>(),
            4 => Self::single_of::<4>(),
            _ => panic!("the single-tile engine has 2 to 4 columns, not {cols}"),
        }
    }

    fn single_of<const COLS: usize>() -> Kernels<[BlankMoves]> {
        Kernels {
            push: expand_scan::<COLS>,
            pull: expand_pull::<COLS>,
            list: expand_list::<COLS>,
            push_shard: expand_shard::<COLS>,
            pull_shard: pull_shard::<COLS>,
            list_shard: expand_list_shard::<COLS>,
        }
    }
}

impl Kernels<SlideTables> {
    /// The multi-tile scans for `rows` rows (any column count): instantiated for the R-1
    /// vertical slides of a state, 1 to 3.
    pub fn multi(rows: usize) -> Kernels<SlideTables> {
        match rows {
            2 => Self::multi_of::<1>(),
            3 => Self::multi_of::<2>(),
            4 => Self::multi_of::<3>(),
            _ => panic!("the multi-tile engine has 2 to 4 rows, not {rows}"),
        }
    }

    fn multi_of<const PER: usize>() -> Kernels<SlideTables> {
        Kernels {
            push: push_multi::<PER>,
            pull: pull_multi::<PER>,
            list: list_multi::<PER>,
            push_shard: push_multi_shard::<PER>,
            pull_shard: pull_multi_shard::<PER>,
            list_shard: list_multi_shard::<PER>,
        }
    }
}

impl Kernels<GraphTables> {
    /// The scans of a puzzle on a graph.
    pub fn graph() -> Kernels<GraphTables> {
        Kernels {
            push: push_graph,
            pull: pull_graph,
            list: list_graph,
            push_shard: push_graph_shard,
            pull_shard: pull_graph_shard,
            list_shard: list_graph_shard,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::puzzle::Puzzle;
    use crate::index::rank::MAX_TILES;
    use crate::index::space::StateSpace;
    use crate::puzzle::board::{Cell, Shape};
    use crate::puzzle::metric::Metric;

    /// Every board with a table (two rows and two columns at least, at most `MAX_TILES + 1`
    /// cells) has, in the engine's orientation of each metric, the columns or rows for which
    /// the kernels are compiled: `single` and `multi` never reach their panics.
    #[test]
    fn every_board_with_a_table_has_compiled_kernels() {
        let mut boards = 0;
        for rows in 2..=MAX_TILES + 1 {
            for cols in 2..=(MAX_TILES + 1) / rows {
                let shape = Shape::new(rows, cols).unwrap();
                for metric in [Metric::Single, Metric::Multi] {
                    let space = StateSpace::new(&Puzzle::board(shape, Cell(0), metric).unwrap(), 0)
                        .unwrap();
                    let engine = space.shape();
                    match metric {
                        Metric::Single => {
                            assert!((2..=4).contains(&engine.cols), "{shape}: {engine}");
                            Kernels::single(engine.cols);
                        }
                        Metric::Multi => {
                            assert!((2..=4).contains(&engine.rows), "{shape}: {engine}");
                            Kernels::multi(engine.rows);
                        }
                    }
                }
                boards += 1;
            }
        }
        // 2x2 to 2x8, 3x2 to 3x5, 4x2 to 4x4, 5x2 and 5x3, 6x2, 7x2, 8x2.
        assert_eq!(boards, 7 + 4 + 3 + 2 + 1 + 1 + 1);
    }
}

//! The one dispatch on the column count: every way to build a layer, instantiated for 2, 3
//! and 4 columns (the engine's orientations of boards up to 17 cells) and for any other.

use super::multi::{list_multi, pull_multi, push_multi};
use super::multi_shard::{list_multi_shard, pull_multi_shard, push_multi_shard};
use super::{expand_list, expand_list_shard, expand_pull, expand_scan, expand_shard, pull_shard};
use super::{Found, LayerScan};
use crate::bfs::schedule::Task;

/// The scans of one column count: on one table and on a shard (where the targets or queries
/// for other shards are appended to the vector).
#[derive(Clone, Copy)]
pub struct Kernels {
    /// Push over a task of the table.
    pub push: fn(&LayerScan, Task) -> Found,
    /// Pull over a task of the table.
    pub pull: fn(&LayerScan, Task) -> Found,
    /// Expansion of part of a listed frontier.
    pub list: fn(&LayerScan, &[u64]) -> Found,
    /// Push on a shard.
    pub push_shard: fn(&LayerScan, Task, &mut Vec<u64>) -> Found,
    /// Pull on a shard: (state, neighbour) queries for other shards.
    pub pull_shard: fn(&LayerScan, Task, &mut Vec<(u64, u64)>) -> Found,
    /// List expansion on a shard.
    pub list_shard: fn(&LayerScan, &[u64], &mut Vec<u64>) -> Found,
}

impl Kernels {
    /// The scans compiled for `cols` columns.
    pub fn new(cols: usize) -> Kernels {
        match cols {
            2 => Kernels::of::<2>(),
            3 => Kernels::of::<3>(),
            4 => Kernels::of::<4>(),
            _ => Kernels::of::<0>(),
        }
    }

    /// The scans of the multi-tile metric, on one table and on a shard, for `rows` rows (any
    /// column count): instantiated for the R-1 vertical slides of a state, 1 to 3.
    pub fn multi(rows: usize) -> Kernels {
        match rows {
            2 => Kernels::multi_of::<1>(),
            3 => Kernels::multi_of::<2>(),
            4 => Kernels::multi_of::<3>(),
            _ => panic!("the multi-tile engine has 2 to 4 rows, not {rows}"),
        }
    }

    fn multi_of<const PER: usize>() -> Kernels {
        Kernels {
            push: push_multi::<PER>,
            pull: pull_multi::<PER>,
            list: list_multi::<PER>,
            push_shard: push_multi_shard::<PER>,
            pull_shard: pull_multi_shard::<PER>,
            list_shard: list_multi_shard::<PER>,
        }
    }

    /// The scans of `space`: its metric's, and in the single-tile metric its column count's.
    pub fn of_space(space: &crate::index::space::StateSpace) -> Kernels {
        match space.metric {
            crate::puzzle::metric::Metric::Single => Kernels::new(space.shape.cols),
            crate::puzzle::metric::Metric::Multi => Kernels::multi(space.shape.rows),
        }
    }

    fn of<const COLS: usize>() -> Kernels {
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

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

    /// The scans of the multi-tile metric, on one table and on a shard (any column count).
    pub fn multi() -> Kernels {
        Kernels {
            push: push_multi,
            pull: pull_multi,
            list: list_multi,
            push_shard: push_multi_shard,
            pull_shard: pull_multi_shard,
            list_shard: list_multi_shard,
        }
    }

    /// The scans of `space`: its metric's, and in the single-tile metric its column count's.
    pub fn of_space(space: &crate::index::space::StateSpace) -> Kernels {
        match space.metric {
            crate::puzzle::metric::Metric::Single => Kernels::new(space.shape.cols),
            crate::puzzle::metric::Metric::Multi => Kernels::multi(),
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

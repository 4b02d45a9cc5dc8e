//! The engine: layer-synchronous parallel breadth-first search from the goal over a 2-bit table.
//!
//! Layer d+1 is built from layer d alone (bipartite graph: neighbours of depth d lie at d±1,
//! and depth d-1 is told apart by its code). Only blocks whose blank has the colour of depth d
//! can hold layer d, so each layer scans half the table. The work is split into chunks of
//! consecutive states handed to rayon; the result does not depend on the thread count.

pub mod layer;
pub mod table;

use std::time::Instant;

use rayon::prelude::*;

use crate::space::StateSpace;
use table::{code, Table};

/// States per parallel task: large enough to amortise scheduling, small enough to balance.
const CHUNK: u64 = 1 << 16;

/// What the engine tells its caller after each layer.
#[derive(Clone, Copy, Debug)]
pub struct LayerDone {
    pub depth: u32,
    /// States at this depth.
    pub states: u64,
    /// States at this depth or less.
    pub seen: u64,
}

/// The raw outcome of a search: per-depth counts and the states of the last layer.
#[derive(Clone, Debug)]
pub struct Search {
    pub layers: Vec<u64>,
    /// Indices of the states at the maximum depth, ascending.
    pub antipodes: Vec<u64>,
    /// States found marked in the table at the end, counted independently of the layers.
    pub table_seen: u64,
    pub table_bytes: u64,
    pub seconds: f64,
    pub threads: usize,
}

/// Largest layer whose indices are kept while searching (8 bytes each). The code in the table
/// gives depth mod 3 and the blank's colour depth mod 2, which cannot tell the last layer from
/// the one 6 deeper in, so the last layer is recorded as it is found.
const RECORD_CAP: u64 = 1 << 22;

/// Runs the BFS on the current rayon pool, calling `progress` after each layer.
pub fn search(space: &StateSpace, progress: &(dyn Fn(LayerDone) + Sync)) -> Search {
    search_recording(space, progress, RECORD_CAP)
}

/// `search`, keeping layers of at most `cap` states on the way.
fn search_recording(space: &StateSpace, progress: &(dyn Fn(LayerDone) + Sync), cap: u64) -> Search {
    let start = Instant::now();
    let first = run(space, progress, cap, None);
    let mut found = match first.last_layer {
        Some(_) => first,
        // The last layer was too large to record on the way: search again, recording it. The
        // first table is released before the second is allocated, so memory never doubles.
        None => {
            let radius = first.layers.len() as u32 - 1;
            drop(first);
            run(space, &|_| {}, cap, Some(radius))
        }
    };
    let mut antipodes = found
        .last_layer
        .take()
        .expect("the last layer was recorded");
    antipodes.par_sort_unstable();
    Search {
        layers: found.layers,
        antipodes,
        table_seen: found.table.seen(),
        table_bytes: found.table.bytes(),
        seconds: start.elapsed().as_secs_f64(),
        threads: rayon::current_num_threads(),
    }
}

struct Run {
    layers: Vec<u64>,
    /// The indices of the last layer, if it was recorded.
    last_layer: Option<Vec<u64>>,
    table: Table,
}

/// One BFS from the goal. Records a layer's indices when the layer before it is small enough
/// that it cannot exceed `cap` (a state has at most 4 neighbours), or when it is at
/// `record_depth`.
fn run(
    space: &StateSpace,
    progress: &(dyn Fn(LayerDone) + Sync),
    cap: u64,
    record_depth: Option<u32>,
) -> Run {
    let table = Table::new(space.states());
    let moves = layer::moves(space);
    let goal = space.goal_index();
    table.visit(goal, code(0));
    let mut layers = vec![1u64];
    let mut last_layer = Some(vec![goal]);
    let mut seen = 1u64;
    progress(LayerDone {
        depth: 0,
        states: 1,
        seen,
    });
    let goal_colour = space.shape.colour(space.goal);
    loop {
        let depth = layers.len() as u32 - 1;
        let colour = goal_colour ^ (depth as usize & 1);
        let record = 4 * layers[depth as usize] <= cap || record_depth == Some(depth + 1);
        let codes = (code(depth), code(depth + 1));
        let results: Vec<layer::Found> = match &mut last_layer {
            // A recorded frontier is expanded from its list instead of scanning the table.
            Some(frontier) => {
                frontier.par_sort_unstable();
                frontier
                    .par_chunks(LIST_CHUNK)
                    .map(|part| {
                        let list = match space.shape.cols {
                            2 => layer::expand_list::<2>,
                            3 => layer::expand_list::<3>,
                            4 => layer::expand_list::<4>,
                            _ => layer::expand_list::<0>,
                        };
                        list(space, &moves, &table, part, codes.1, record)
                    })
                    .collect()
            }
            None => tasks(space)
                .into_par_iter()
                .map(|task| {
                    let scan = match space.shape.cols {
                        2 => layer::expand_scan::<2>,
                        3 => layer::expand_scan::<3>,
                        4 => layer::expand_scan::<4>,
                        _ => layer::expand_scan::<0>,
                    };
                    scan(space, &moves, &table, task, colour, codes, record)
                })
                .collect(),
        };
        let found: u64 = results.iter().map(|r| r.0).sum();
        if found == 0 {
            break;
        }
        last_layer = record.then(|| results.into_iter().flat_map(|r| r.1).collect());
        layers.push(found);
        seen += found;
        progress(LayerDone {
            depth: depth + 1,
            states: found,
            seen,
        });
    }
    Run {
        layers,
        last_layer,
        table,
    }
}

/// Frontier states per parallel task when the frontier is a list.
const LIST_CHUNK: usize = 1 << 12;

/// The table split into chunks of `CHUNK` slots, each inside one region: (region, lo, hi).
fn tasks(space: &StateSpace) -> Vec<(u8, u64, u64)> {
    (0..2u8)
        .flat_map(|p| {
            let region = &space.regions[p as usize];
            let (lo, hi) = (region.offset, region.offset + space.half * region.width());
            (lo..hi)
                .step_by(CHUNK as usize)
                .map(move |s| (p, s, (s + CHUNK).min(hi)))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Cell, Shape};

    /// With nothing recorded on the way, the second search finds the same antipodes.
    #[test]
    fn unrecorded_last_layer_is_found_by_a_second_search() {
        for (r, c) in [(2, 3), (3, 3)] {
            let shape = Shape::new(r, c).unwrap();
            let space = StateSpace::new(shape, Cell(shape.cells() - 1)).unwrap();
            let recorded = search_recording(&space, &|_| {}, RECORD_CAP);
            let rerun = search_recording(&space, &|_| {}, 0);
            assert_eq!(rerun.layers, recorded.layers);
            assert_eq!(rerun.antipodes, recorded.antipodes);
            assert_eq!(rerun.table_seen, space.states());
        }
    }
}

//! The engine: layer-synchronous parallel breadth-first search from a start state over a
//! 2-bit table.
//!
//! Layer d+1 is built from layer d alone (bipartite graph: neighbours of depth d lie at d±1,
//! and the table's code, depth mod 3, tells d-1 from d+1). Three ways to build a layer, the
//! cheapest chosen each time; all give the same layer:
//! - **list**: a layer small enough to have been recorded (its indices kept as it was found) is
//!   expanded from its list, sorted so that consecutive states share their unranking work;
//! - **push**: scan the table for states holding the code of d whose blank has the colour of d,
//!   and claim their unseen neighbours. Code and colour give depth mod 6, so states 6, 12, …
//!   layers back are expanded again: harmless (their neighbours are all seen) but work;
//! - **pull**: scan for unseen states of the next colour and mark those with a neighbour
//!   holding the code of d. Exact (an unseen state's neighbours are at depth d or more), and
//!   its cost is the number of unseen states, so it takes over once they are fewer than the
//!   push's frontier with its aliases. On 2x6 this halved the time (13.7 s to 6.5 s).
//!
//! The work is split into chunks of consecutive states handed to rayon; the result does not
//! depend on the thread count.

pub mod layer;
pub mod table;

use std::time::Instant;

use rayon::prelude::*;

use crate::board::Cell;
use crate::error::Error;
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
#[derive(Debug)]
pub struct Search {
    pub layers: Vec<u64>,
    /// Indices of the states at the maximum depth, ascending.
    pub antipodes: Vec<u64>,
    pub seconds: f64,
    pub threads: usize,
    /// The finished table: every state of the class holds 1 + its depth mod 3. Its marked
    /// states (`Table::seen`) are counted independently of the layers.
    pub table: Table,
}

/// Largest layer whose indices are kept while searching (8 bytes each). The code in the table
/// gives depth mod 3 and the blank's colour depth mod 2, which cannot tell the last layer from
/// the one 6 deeper in, so the last layer is recorded as it is found.
const RECORD_CAP: u64 = 1 << 22;

/// How layers too large to have been recorded are built (tests force each way).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Scan {
    /// Push while it is cheaper, then pull.
    Auto,
    #[cfg_attr(not(test), allow(dead_code))]
    Push,
    Pull,
}

/// The search's state at a layer boundary: everything needed to go on exactly as if it had
/// not stopped. `checkpoint` saves it; `Resume` is the same read back.
pub struct Boundary<'a> {
    pub start: u64,
    /// Set when this is the second search, which records the last layer (see `search_with`).
    pub record_depth: Option<u32>,
    pub layers: &'a [u64],
    /// The last layer's indices, if it was recorded.
    pub frontier: Option<&'a [u64]>,
    /// The scans have switched to pull (they never switch back).
    pub pulling: bool,
    pub table: &'a Table,
}

/// A search state read back from a checkpoint.
pub struct Resume {
    pub start: u64,
    pub record_depth: Option<u32>,
    pub layers: Vec<u64>,
    pub frontier: Option<Vec<u64>>,
    pub pulling: bool,
    pub table: Table,
}

/// Called after every layer but the last, with the state at that boundary; `Ok(true)` stops
/// the search there.
pub type Hook<'a> = &'a (dyn Fn(&Boundary) -> Result<bool, Error> + Sync);

/// How a search with a hook ended.
pub enum Outcome {
    Done(Search),
    /// The hook asked to stop after this depth.
    Stopped {
        depth: u32,
    },
}

/// Runs the BFS from the goal on the current rayon pool, calling `progress` after each layer.
pub fn search(space: &StateSpace, progress: &(dyn Fn(LayerDone) + Sync)) -> Search {
    search_from(space, space.goal_index(), progress)
}

/// Runs the BFS from the state `start` (an index of `space`): the layers are its distances.
pub fn search_from(
    space: &StateSpace,
    start: u64,
    progress: &(dyn Fn(LayerDone) + Sync),
) -> Search {
    match search_with(space, start, progress, RECORD_CAP, Scan::Auto, None, None) {
        Ok(Outcome::Done(s)) => s,
        _ => unreachable!("without a hook a search neither fails nor stops"),
    }
}

/// `search_from` with a `hook` at every layer boundary (checkpoints, interruption), continuing
/// from `resume` if given (its start must be `start`).
pub fn search_resumable(
    space: &StateSpace,
    start: u64,
    progress: &(dyn Fn(LayerDone) + Sync),
    hook: Hook,
    resume: Option<Resume>,
) -> Result<Outcome, Error> {
    search_with(
        space,
        start,
        progress,
        RECORD_CAP,
        Scan::Auto,
        Some(hook),
        resume,
    )
}

/// `search_from`, keeping layers of at most `cap` states on the way.
fn search_with(
    space: &StateSpace,
    start: u64,
    progress: &(dyn Fn(LayerDone) + Sync),
    cap: u64,
    scan: Scan,
    hook: Option<Hook>,
    resume: Option<Resume>,
) -> Result<Outcome, Error> {
    let clock = Instant::now();
    let plan = Plan {
        start,
        cap,
        scan,
        record_depth: resume.as_ref().and_then(|r| r.record_depth),
    };
    let first = match run(space, plan, progress, hook, resume)? {
        Ran::Done(r) => r,
        Ran::Stopped(depth) => return Ok(Outcome::Stopped { depth }),
    };
    let mut found = match first.last_layer {
        Some(_) => first,
        // The last layer was too large to record on the way: search again, recording it. The
        // first table is released before the second is allocated, so memory never doubles.
        None => {
            let radius = first.layers.len() as u32 - 1;
            drop(first);
            let plan = Plan {
                record_depth: Some(radius),
                ..plan
            };
            match run(space, plan, &|_| {}, hook, None)? {
                Ran::Done(r) => r,
                Ran::Stopped(depth) => return Ok(Outcome::Stopped { depth }),
            }
        }
    };
    let mut antipodes = found
        .last_layer
        .take()
        .expect("the last layer was recorded");
    antipodes.par_sort_unstable();
    Ok(Outcome::Done(Search {
        layers: found.layers,
        antipodes,
        seconds: clock.elapsed().as_secs_f64(),
        threads: rayon::current_num_threads(),
        table: found.table,
    }))
}

/// What one run of the BFS does: where it starts, which layers it records and how it scans.
#[derive(Clone, Copy, Debug)]
struct Plan {
    start: u64,
    cap: u64,
    scan: Scan,
    record_depth: Option<u32>,
}

struct Run {
    layers: Vec<u64>,
    /// The indices of the last layer, if it was recorded.
    last_layer: Option<Vec<u64>>,
    table: Table,
}

enum Ran {
    Done(Run),
    Stopped(u32),
}

/// One BFS from `plan.start`, or from where `resume` left it. Records a layer's indices when
/// the layer before it is small enough that it cannot exceed `plan.cap` (a state has at most 4
/// neighbours), or when it is at `plan.record_depth`.
fn run(
    space: &StateSpace,
    plan: Plan,
    progress: &(dyn Fn(LayerDone) + Sync),
    hook: Option<Hook>,
    resume: Option<Resume>,
) -> Result<Ran, Error> {
    let moves = layer::moves(space);
    let (table, mut layers, mut last_layer, mut pulling) = match resume {
        Some(r) => (r.table, r.layers, r.frontier, r.pulling),
        None => {
            let table = Table::new(space.states());
            table.visit(plan.start, code(0));
            (
                table,
                vec![1u64],
                Some(vec![plan.start]),
                plan.scan == Scan::Pull,
            )
        }
    };
    let start_colour = space.shape.colour(space.split(plan.start).0);
    let mut seen: u64 = layers.iter().sum();
    // Layer d has the colour of the start's blank flipped d times.
    let mut seen_by_colour = [0u64; 2];
    for (d, n) in layers.iter().enumerate() {
        seen_by_colour[start_colour ^ (d & 1)] += n;
    }
    progress(LayerDone {
        depth: layers.len() as u32 - 1,
        states: *layers.last().expect("a layer"),
        seen,
    });
    // States whose blank has each colour: m!/2 per cell.
    let mut colour_states = [0u64; 2];
    for b in 0..space.shape.cells() {
        colour_states[space.shape.colour(Cell(b))] += space.half;
    }
    loop {
        let depth = layers.len() as u32 - 1;
        let colour = start_colour ^ (depth as usize & 1);
        let record = 4 * layers[depth as usize] <= plan.cap || plan.record_depth == Some(depth + 1);
        let codes = (code(depth), code(depth + 1));
        let results: Vec<layer::Found> = match &mut last_layer {
            // A recorded frontier is expanded from its list instead of scanning the table, when
            // it is small next to the table: a scan reads a word per 32 states in a few
            // nanoseconds, a listed state costs a sort and an unranking from scratch.
            Some(frontier) if frontier.len() as u64 * LIST_RATIO < table.bytes() / 8 => {
                frontier.par_sort_unstable();
                frontier
                    .par_chunks(LIST_CHUNK)
                    .map(|part| {
                        lister(space.shape.cols)(space, &moves, &table, part, codes.1, record)
                    })
                    .collect()
            }
            _ => {
                // Push costs the frontier with its aliases 6, 12, … layers back; pull costs the
                // unseen states of the next layer's colour. Once pull wins it keeps winning.
                let aliased: u64 = layers.iter().rev().step_by(6).sum();
                let next_colour = colour ^ 1;
                let unseen = colour_states[next_colour] - seen_by_colour[next_colour];
                pulling |= plan.scan == Scan::Auto && unseen < aliased;
                let expand = expander(space.shape.cols, pulling);
                let side = if pulling { next_colour } else { colour };
                tasks(space)
                    .into_par_iter()
                    .map(|task| expand(space, &moves, &table, task, side, codes, record))
                    .collect()
            }
        };
        let found: u64 = results.iter().map(|r| r.0).sum();
        if found == 0 {
            break;
        }
        last_layer = record.then(|| results.into_iter().flat_map(|r| r.1).collect());
        layers.push(found);
        seen += found;
        seen_by_colour[colour ^ 1] += found;
        progress(LayerDone {
            depth: depth + 1,
            states: found,
            seen,
        });
        if let Some(hook) = hook {
            let here = Boundary {
                start: plan.start,
                record_depth: plan.record_depth,
                layers: &layers,
                frontier: last_layer.as_deref(),
                pulling,
                table: &table,
            };
            if hook(&here)? {
                return Ok(Ran::Stopped(depth + 1));
            }
        }
    }
    Ok(Ran::Done(Run {
        layers,
        last_layer,
        table,
    }))
}

/// A scan of one task of the table: push or pull.
type Expand = fn(
    &StateSpace,
    &[Vec<layer::Move>],
    &Table,
    (u8, u64, u64),
    usize,
    (u64, u64),
    bool,
) -> layer::Found;

/// The scan for this column count (instantiated for 2, 3 and 4 columns, the engine's
/// orientations of boards up to 17 cells).
fn expander(cols: usize, pull: bool) -> Expand {
    match (cols, pull) {
        (2, false) => layer::expand_scan::<2>,
        (3, false) => layer::expand_scan::<3>,
        (4, false) => layer::expand_scan::<4>,
        (_, false) => layer::expand_scan::<0>,
        (2, true) => layer::expand_pull::<2>,
        (3, true) => layer::expand_pull::<3>,
        (4, true) => layer::expand_pull::<4>,
        (_, true) => layer::expand_pull::<0>,
    }
}

/// An expansion of part of a listed frontier.
type ExpandList = fn(&StateSpace, &[Vec<layer::Move>], &Table, &[u64], u64, bool) -> layer::Found;

/// The list expansion for this column count.
fn lister(cols: usize) -> ExpandList {
    match cols {
        2 => layer::expand_list::<2>,
        3 => layer::expand_list::<3>,
        4 => layer::expand_list::<4>,
        _ => layer::expand_list::<0>,
    }
}

/// A recorded layer is expanded from its list if it has fewer states than table words over this.
const LIST_RATIO: u64 = 8;

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

    fn searched(space: &StateSpace, start: u64, cap: u64, scan: Scan) -> Search {
        match search_with(space, start, &|_| {}, cap, scan, None, None) {
            Ok(Outcome::Done(s)) => s,
            _ => unreachable!(),
        }
    }

    /// Push only, pull only and the automatic choice, with nothing recorded on the way (so the
    /// scans build every layer and a second search records the last), all give the layers and
    /// antipodes of the search that expands recorded lists, from any goal and either class.
    #[test]
    fn every_way_of_building_layers_agrees() {
        for (r, c) in [(2, 3), (3, 2), (2, 4), (3, 3)] {
            let shape = Shape::new(r, c).unwrap();
            for goal in [0, shape.cells() / 2, shape.cells() - 1] {
                for class in [0, 1] {
                    let space = StateSpace::with_class(shape, Cell(goal), class).unwrap();
                    let start = if class == 0 {
                        space.goal_index()
                    } else {
                        space.states() / 3
                    };
                    let listed = searched(&space, start, RECORD_CAP, Scan::Auto);
                    assert_eq!(listed.layers.iter().sum::<u64>(), space.states());
                    for scan in [Scan::Auto, Scan::Push, Scan::Pull] {
                        let scanned = searched(&space, start, 0, scan);
                        let what = format!("{shape} goal {goal} class {class} {scan:?}");
                        assert_eq!(scanned.layers, listed.layers, "{what}");
                        assert_eq!(scanned.antipodes, listed.antipodes, "{what}");
                        assert_eq!(scanned.table.seen(), space.states(), "{what}");
                    }
                }
            }
        }
    }
}

//! The engine: layer-synchronous parallel breadth-first search from a start state over a
//! 2-bit table.
//!
//! Layer d+1 is built from layer d alone (bipartite graph: neighbours of depth d lie at d±1).
//! The table marks the frontier exactly (`table`: `FRONTIER` with the layer's blank colour;
//! expanded states are settled), so no state is expanded twice. Three ways to build a layer,
//! the cheapest chosen each time; all give the same layer:
//! - **list**: a layer small enough to have been recorded (its indices kept as it was found) is
//!   expanded from its list, sorted so that consecutive states share their unranking work;
//! - **push**: scan the table for the frontier and claim its unseen neighbours, settling the
//!   frontier as it goes;
//! - **pull**: scan for unseen states of the next colour and mark those with a neighbour in the
//!   frontier. Exact (an unseen state's neighbours are at depth d or more), and its cost is the
//!   number of unseen states (about 21 ns each at 1 thread against 19 ns for a push
//!   expansion), so it takes over once they are fewer than the frontier. Every task reads the
//!   frontier, so a pull leaves it unsettled: the next pull settles it in each task's own slots
//!   before marking there, and a list or push layer after a pull settles it in one pass first.
//!
//! The search ends when every state of the next layer's colour is seen; the last layer then
//! still holds `FRONTIER`, and one pass lists it (the antipodes) and settles it.
//!
//! The work is split into chunks of consecutive states handed to rayon; the result does not
//! depend on the thread count. `TILESPACE_TRACE=1` prints each layer's way and time to stderr.

pub mod layer;
pub mod table;

use std::time::Instant;

use rayon::prelude::*;

use crate::board::Cell;
use crate::error::Error;
use crate::space::StateSpace;
use table::{Table, FRONTIER};

/// States per parallel task: large enough to amortise scheduling, small enough to balance
/// (2^14 to 2^20 gave the same 2x6 times within noise).
const CHUNK: u64 = 1 << 18;

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
    /// The finished table: every state of the class is settled, holding its depth mod 4 with
    /// its blank's colour (see `table`). Its marked states (`Table::seen`) are counted
    /// independently of the layers.
    pub table: Table,
}

/// Largest layer whose indices are kept while searching (8 bytes each), to be expanded from
/// the list rather than by scanning the table.
const RECORD_CAP: u64 = 1 << 22;

/// How one layer is built (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Way {
    List,
    Push,
    Pull,
}

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
    pub layers: &'a [u64],
    /// The last layer's indices, if it was recorded.
    pub frontier: Option<&'a [u64]>,
    /// The scans have switched to pull (they never switch back).
    pub pulling: bool,
    /// The last layer was built by pull, so the layer before it still holds `FRONTIER`.
    pub unsettled: bool,
    pub table: &'a Table,
}

/// A search state read back from a checkpoint.
pub struct Resume {
    pub start: u64,
    pub layers: Vec<u64>,
    pub frontier: Option<Vec<u64>>,
    pub pulling: bool,
    pub unsettled: bool,
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

/// Runs the BFS from the state `start` (an index of `space`) on the current rayon pool, calling
/// `progress` after each layer: the layers are its distances.
pub fn search_from(
    space: &StateSpace,
    start: u64,
    progress: &(dyn Fn(LayerDone) + Sync),
) -> Result<Search, Error> {
    match search_with(space, start, progress, RECORD_CAP, Scan::Auto, None, None)? {
        Outcome::Done(s) => Ok(s),
        Outcome::Stopped { .. } => unreachable!("without a hook a search never stops"),
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

/// Pull is chosen once the unseen states of the next colour, times this, are fewer than the
/// frontier times `PUSH_COST`. Measured at 1 thread, less the scan both pay: a push expansion
/// costs 19 ns on 2x6 and a pull test 21 ns; 10:10 and 21:19 gave the same times, 2x6 3.23 s and
/// 3x4 3.55–3.64 s at 2 threads, against 3.29 s and 3.70 s with the 10:16 of the aliased engine.
const PULL_COST: u64 = 10;
const PUSH_COST: u64 = 10;

/// One BFS from `start`, or from where `resume` left it, keeping layers of at most `cap` states
/// on the way. A layer's indices are recorded when the layer before it is small enough that it
/// cannot exceed `cap` (a state has at most 4 neighbours).
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
    let moves = layer::moves(space);
    let (table, mut layers, mut last_layer, mut pulling, mut unsettled) = match resume {
        Some(r) => (r.table, r.layers, r.frontier, r.pulling, r.unsettled),
        None => {
            let table = Table::new(space.states());
            table.visit(start, FRONTIER);
            (
                table,
                vec![1u64],
                Some(vec![start]),
                scan == Scan::Pull,
                false,
            )
        }
    };
    let start_colour = space.shape.colour(space.split(start).0);
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
    let trace = std::env::var_os("TILESPACE_TRACE").is_some();
    let mut depth = layers.len() as u32 - 1;
    loop {
        let layer_clock = Instant::now();
        let colour = start_colour ^ (depth as usize & 1);
        let next_colour = colour ^ 1;
        let unseen = colour_states[next_colour] - seen_by_colour[next_colour];
        if unseen == 0 {
            // Every state of the next layer's colour is seen: this is the last layer.
            break;
        }
        let record = 4 * layers[depth as usize] <= cap;
        let codes = layer::Codes::at(depth);
        let frontier_states = layers[depth as usize];
        let listed = last_layer
            .as_ref()
            .is_some_and(|f| f.len() as u64 * LIST_RATIO < table.bytes() / 8);
        // Push costs the frontier, pull the unseen states of the next colour; once pull wins
        // it keeps winning.
        pulling |=
            scan == Scan::Auto && !listed && unseen * PULL_COST < frontier_states * PUSH_COST;
        let way = if listed {
            Way::List
        } else if pulling {
            Way::Pull
        } else {
            Way::Push
        };
        if unsettled && way != Way::Pull {
            // The layer before this one was left holding FRONTIER by a pull; claims are about
            // to write that colour, so it is settled first.
            settle(space, &table, next_colour, codes.before, false);
        }
        let results: Vec<layer::Found> = match (way, &mut last_layer) {
            // A recorded frontier is expanded from its list instead of scanning the table, when
            // it is small next to the table: a scan reads a word per 32 states in a few
            // nanoseconds, a listed state costs a sort and an unranking from scratch.
            (Way::List, Some(frontier)) => {
                frontier.par_sort_unstable();
                frontier
                    .par_chunks(LIST_CHUNK)
                    .map(|part| {
                        lister(space.shape.cols)(space, &moves, &table, part, codes, record)
                    })
                    .collect()
            }
            _ => {
                let expand = expander(space.shape.cols, pulling);
                let side = if pulling { next_colour } else { colour };
                each_task(space, |task| {
                    expand(space, &moves, &table, task, side, codes, record)
                })
            }
        };
        let found: u64 = results.iter().map(|r| r.0).sum();
        if trace {
            eprintln!(
                "trace depth {} {} found {found} {:.1} ms",
                depth + 1,
                format!("{way:?}").to_lowercase(),
                layer_clock.elapsed().as_secs_f64() * 1e3
            );
        }
        if found == 0 {
            // Only a class the moves do not connect could leave unseen states behind, and the
            // engine only sees connected ones (R, C ≥ 2); the frontier has been settled.
            return Err(Error::Check(format!(
                "the search from {start} stopped at depth {depth} with {unseen} states unseen"
            )));
        }
        unsettled = way == Way::Pull;
        last_layer = record.then(|| results.into_iter().flat_map(|r| r.1).collect());
        layers.push(found);
        depth += 1;
        seen += found;
        seen_by_colour[next_colour] += found;
        progress(LayerDone {
            depth,
            states: found,
            seen,
        });
        if let Some(hook) = hook {
            let here = Boundary {
                start,
                layers: &layers,
                frontier: last_layer.as_deref(),
                pulling,
                unsettled,
                table: &table,
            };
            if hook(&here)? {
                return Ok(Outcome::Stopped { depth });
            }
        }
    }
    // The last layer still holds FRONTIER (and the one before it, after a pull): settle both,
    // listing the last.
    let colour = start_colour ^ (depth as usize & 1);
    let codes = layer::Codes::at(depth);
    if unsettled {
        settle(space, &table, colour ^ 1, codes.before, false);
    }
    let (count, mut antipodes) = settle(space, &table, colour, codes.done, true);
    debug_assert_eq!(count, layers[depth as usize]);
    antipodes.par_sort_unstable();
    Ok(Outcome::Done(Search {
        layers,
        antipodes,
        seconds: clock.elapsed().as_secs_f64(),
        threads: rayon::current_num_threads(),
        table,
    }))
}

/// Settles every state holding `FRONTIER` whose blank has colour `colour` with `code`; counts
/// them and, if `record`, lists them.
fn settle(
    space: &StateSpace,
    table: &Table,
    colour: usize,
    code: u64,
    record: bool,
) -> (u64, Vec<u64>) {
    let parts = each_task(space, |task| {
        layer::settle_scan(space, table, task, colour, code, record)
    });
    let count = parts.iter().map(|p| p.0).sum();
    (count, parts.into_iter().flat_map(|p| p.1).collect())
}

/// A scan of one task of the table: push or pull.
type Expand = fn(
    &StateSpace,
    &[layer::BlankMoves],
    &Table,
    (u8, u64, u64),
    usize,
    layer::Codes,
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
type ExpandList =
    fn(&StateSpace, &[layer::BlankMoves], &Table, &[u64], layer::Codes, bool) -> layer::Found;

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

/// Tables of at most this many states are scanned on one thread: a scan of 3x3 (181,440 states)
/// takes microseconds, less than waking another thread for it (3x3 at 2 threads took 6.2 ms
/// against 4.9 ms at 1).
const SEQUENTIAL_STATES: u64 = 1 << 20;

/// `f` applied to every task of `tasks(space)`, in parallel unless the table is small.
fn each_task<R: Send>(space: &StateSpace, f: impl Fn((u8, u64, u64)) -> R + Sync + Send) -> Vec<R> {
    if space.states() <= SEQUENTIAL_STATES {
        tasks(space).into_iter().map(f).collect()
    } else {
        tasks(space).into_par_iter().map(f).collect()
    }
}

/// The table split into chunks of `CHUNK` slots, each inside one region: (region, lo, hi).
///
/// Region 0 comes in ascending order and region 1 in descending order. Rayon's first split
/// gives one thread each region, so with ascending orders the two would sit at the same offset
/// in their regions all layer long. A vertical move crosses to the other region and jumps by
/// multiples of a Lehmer weight, so their far claims then landed in the very lines the other
/// thread was scanning and settling, and cache lines went back and forth between the cores:
/// reversing one region took 2x6 at 2 threads from 3.9 s to 3.4 s (push efficiency 0.80 to
/// 0.93).
fn tasks(space: &StateSpace) -> Vec<(u8, u64, u64)> {
    let mut all: Vec<(u8, u64, u64)> = vec![];
    for p in 0..2u8 {
        let region = &space.regions[p as usize];
        let (lo, hi) = (region.offset, region.offset + space.half * region.width());
        let mut part: Vec<(u8, u64, u64)> = (lo..hi)
            .step_by(CHUNK as usize)
            .map(move |s| (p, s, (s + CHUNK).min(hi)))
            .collect();
        if p == 1 {
            part.reverse();
        }
        all.extend(part);
    }
    all
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Cell, Shape};

    fn searched(space: &StateSpace, start: u64, cap: u64, scan: Scan) -> Search {
        match search_with(space, start, &|_| {}, cap, scan, None, None) {
            Ok(Outcome::Done(s)) => s,
            _ => panic!("the search failed"),
        }
    }

    /// Push only, pull only and the automatic choice, with nothing recorded on the way (so the
    /// scans build every layer and the last is read off the table), all give the layers and
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

    /// A search stopped at any layer boundary and resumed from a copy of its state gives the
    /// layers, antipodes and final table of the search that never stopped: whatever was
    /// building that layer (list, push or pull, and with the layer before it left unsettled by
    /// a pull or not).
    #[test]
    fn stopping_and_resuming_at_every_layer_changes_nothing() {
        use std::sync::atomic::Ordering::Relaxed;
        for (r, c, cap, scan) in [
            (3, 3, RECORD_CAP, Scan::Auto),
            (2, 4, RECORD_CAP, Scan::Auto),
            (3, 3, 0, Scan::Pull),
            (2, 4, 0, Scan::Push),
        ] {
            let shape = Shape::new(r, c).unwrap();
            let space = StateSpace::new(shape, Cell(shape.cells() - 1)).unwrap();
            let start = space.goal_index();
            let whole = searched(&space, start, cap, scan);
            let words = |t: &Table| {
                t.words()
                    .iter()
                    .map(|w| w.load(Relaxed))
                    .collect::<Vec<_>>()
            };
            let radius = whole.layers.len() as u32 - 1;
            let mut unsettled_seen = false;
            for stop in 1..radius {
                let saved: std::sync::Mutex<Option<Resume>> = Default::default();
                let hook = |b: &Boundary| -> Result<bool, Error> {
                    if b.layers.len() as u32 - 1 < stop {
                        return Ok(false);
                    }
                    *saved.lock().unwrap() = Some(Resume {
                        start: b.start,
                        layers: b.layers.to_vec(),
                        frontier: b.frontier.map(<[u64]>::to_vec),
                        pulling: b.pulling,
                        unsettled: b.unsettled,
                        table: Table::from_words(words(b.table)),
                    });
                    Ok(true)
                };
                let first = search_with(&space, start, &|_| {}, cap, scan, Some(&hook), None);
                assert!(matches!(first, Ok(Outcome::Stopped { depth }) if depth == stop));
                let resume = saved.lock().unwrap().take().unwrap();
                unsettled_seen |= resume.unsettled;
                let rest = search_with(&space, start, &|_| {}, cap, scan, None, Some(resume));
                let Ok(Outcome::Done(rest)) = rest else {
                    panic!("{shape} resumed at {stop} failed");
                };
                assert_eq!(rest.layers, whole.layers, "{shape} stop {stop}");
                assert_eq!(rest.antipodes, whole.antipodes, "{shape} stop {stop}");
                assert_eq!(
                    words(&rest.table),
                    words(&whole.table),
                    "{shape} stop {stop}"
                );
            }
            if scan == Scan::Pull {
                assert!(
                    unsettled_seen,
                    "{shape}: no stop after a pull layer was tried"
                );
            }
        }
    }
}

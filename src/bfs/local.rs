//! The search on one table in this process, its tasks on the rayon pool: the `Place` of a
//! search that is not sharded.

use std::time::Instant;

use rayon::prelude::*;

use crate::bfs::driver::{self, Driver, Finished, Outcome};
use crate::bfs::layer::{Deferred, Found, Kernels, LayerScan};
use crate::bfs::moves::coding;
use crate::bfs::place::{keep, Place, Recording};
use crate::bfs::policy::{Scan, Way};
use crate::bfs::recount::residues;
use crate::bfs::schedule::Schedule;
use crate::bfs::searched::Search;
use crate::bfs::shard::Mine;
use crate::bfs::state::SearchState;
use crate::bfs::table::{Table, FRONTIER};
use crate::bfs::LayerDone;
use crate::error::Error;
use crate::index::space::StateSpace;

/// One table holding every state, its layers built by tasks on the rayon pool.
struct Local {
    spans: [(u64, u64); 1],
    /// Where pushes defer their claims (`layer::deferred`).
    deferred: Deferred,
}

impl Place for Local {
    type Telemetry = ();

    fn spans(&self) -> &[(u64, u64)] {
        &self.spans
    }

    fn mine(&self) -> Mine {
        Mine::all()
    }

    fn keeps_aids(&self) -> bool {
        true
    }

    fn telemetry(&self, _work: std::time::Duration) {}

    fn build<T: ?Sized + Sync>(
        &self,
        scan: &LayerScan<T>,
        kernels: &Kernels<T>,
        way: Way,
        list: Option<&mut Vec<u64>>,
        recording: Option<&Recording>,
        schedule: &Schedule,
    ) -> Result<Vec<Found>, Error> {
        Ok(match (way, list) {
            (Way::List, Some(frontier)) => {
                frontier.par_sort_unstable();
                let expand = kernels.list;
                frontier
                    .par_chunks(schedule.list_chunk.max(1))
                    .map(|part| keep(recording, expand(scan, part)))
                    .collect()
            }
            (Way::Pull, _) => {
                let expand = kernels.pull;
                schedule.each_task_scattered(scan.space, |task| keep(recording, expand(scan, task)))
            }
            _ => {
                // The claims deferred are made once every task is done (`layer::deferred`).
                let here = LayerScan {
                    defer: Some(&self.deferred),
                    ..*scan
                };
                let expand = kernels.push;
                let mut found = schedule
                    .each_task_scattered(scan.space, |task| keep(recording, expand(&here, task)));
                let made = self
                    .deferred
                    .apply(scan.table, scan.codes.next, scan.record);
                found.extend(made.into_iter().map(|f| keep(recording, f)));
                found
            }
        })
    }
}

/// Runs the BFS from the state `start` (an index of `space`) on the current rayon pool: the
/// layers are its distances. Continues from `resume` if given (its start must be `start`).
pub(crate) fn search(
    space: &StateSpace,
    start: u64,
    driver: Driver,
    resume: Option<SearchState>,
) -> Result<Outcome<Search>, Error> {
    search_with(space, start, driver, Scan::Auto, resume)
}

/// `search` without a hook, which always runs to the end: the table of distances in memory,
/// without the analysis's checks and reports. The library's one entry below the analysis
/// (`analysis::analyze`), for a caller who wants the table itself (the lookup benchmark); every
/// other search of the engine is reached through the analysis.
pub fn search_from(
    space: &StateSpace,
    start: u64,
    schedule: Schedule,
    progress: &(dyn Fn(LayerDone) + Sync),
) -> Result<Search, Error> {
    let driver = Driver {
        schedule,
        progress,
        hook: None,
        aid_bytes: None,
    };
    match search_with(space, start, driver, Scan::Auto, None)? {
        Outcome::Done(s) => Ok(s),
        Outcome::Stopped { .. } => unreachable!("without a hook a search never stops"),
    }
}

/// One BFS from `start`, or from where `resume` left it, building unrecorded layers as `scan`
/// says (see `driver::run`).
fn search_with(
    space: &StateSpace,
    start: u64,
    driver: Driver,
    scan: Scan,
    resume: Option<SearchState>,
) -> Result<Outcome<Search>, Error> {
    let states = space.states();
    let threads = rayon::current_num_threads();
    let deferred = Deferred::new(states, threads, driver.schedule.chunk);
    search_deferring(space, start, driver, scan, resume, deferred)
}

/// `search_with`, the pushes' claims deferred to `deferred`.
fn search_deferring(
    space: &StateSpace,
    start: u64,
    driver: Driver,
    scan: Scan,
    resume: Option<SearchState>,
    deferred: Deferred,
) -> Result<Outcome<Search>, Error> {
    let clock = Instant::now();
    let state = resume.unwrap_or_else(|| SearchState::begin(space, start));
    let place = Local {
        spans: [(0, space.states())],
        deferred,
    };
    let schedule = driver.schedule;
    let Finished { state, antipodes } = match driver::run(space, &place, driver, scan, state)? {
        Outcome::Done(finished) => finished,
        Outcome::Stopped { depth } => return Ok(Outcome::Stopped { depth }),
    };
    let seconds = clock.elapsed().as_secs_f64();
    let table = state.table;
    let colour = space.colour(space.split(start).0);
    let residues = residues(
        space,
        &table,
        &place.spans,
        colour,
        coding(space),
        &schedule,
    );
    Ok(Outcome::Done(Search {
        layers: state.layers,
        antipodes,
        seen: table.seen(),
        residues,
        seconds,
        threads: rayon::current_num_threads(),
        table_bytes: table.bytes(),
        table,
    }))
}

impl SearchState {
    /// The state before the first layer: the start alone, recorded, holding `FRONTIER`.
    fn begin(space: &StateSpace, start: u64) -> SearchState {
        let table = Table::new(space.states());
        table.visit(start, FRONTIER);
        SearchState {
            start,
            layers: vec![1],
            frontier: Some(vec![start]),
            pulling: false,
            unsettled: false,
            table,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::puzzle::Puzzle;
    use crate::puzzle::board::{Cell, Shape};
    use crate::puzzle::metric::Metric;

    const RECORD_CAP: u64 = 1 << 22;

    fn recording(cap: u64) -> Schedule {
        Schedule {
            record_cap: cap,
            ..Schedule::default()
        }
    }

    /// Tasks of `chunk` states, every table scanned in parallel, nothing recorded.
    fn unrecorded(chunk: u64) -> Schedule {
        Schedule {
            chunk,
            sequential_states: 0,
            list_chunk: 2,
            record_cap: 0,
        }
    }

    fn searched(space: &StateSpace, start: u64, cap: u64, scan: Scan) -> Search {
        let driver = Driver {
            schedule: recording(cap),
            ..Driver::new(&|_| {})
        };
        match search_with(space, start, driver, scan, None) {
            Ok(Outcome::Done(s)) => s,
            _ => panic!("the search failed"),
        }
    }

    /// Caps that recorded layers outgrow (given up mid-layer, over many small tasks: 3x3 gives
    /// up layers at caps 5, 37 and 177, its table's words over `LIST_RATIO`) and caps they fit
    /// give the layers and antipodes of a search that records nothing.
    #[test]
    fn recordings_given_up_or_kept_give_the_same_search() {
        for (r, c) in [(3, 3), (2, 5)] {
            let shape = Shape::new(r, c).unwrap();
            let space = StateSpace::new(
                &Puzzle::board(shape, Cell(shape.cells() - 1), Metric::Single).unwrap(),
                0,
            )
            .unwrap();
            let start = space.goal_index();
            let scanned = searched(&space, start, 0, Scan::Auto);
            for cap in [1, 5, 37, 200, 1500] {
                let driver = Driver {
                    schedule: Schedule {
                        chunk: 64,
                        sequential_states: 0,
                        list_chunk: 2,
                        record_cap: cap,
                    },
                    ..Driver::new(&|_| {})
                };
                let Ok(Outcome::Done(s)) = search_with(&space, start, driver, Scan::Auto, None)
                else {
                    panic!("{shape} cap {cap}: the search failed");
                };
                assert_eq!(s.layers, scanned.layers, "{shape} cap {cap}");
                assert_eq!(s.antipodes, scanned.antipodes, "{shape} cap {cap}");
            }
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
                    let space = StateSpace::new(
                        &Puzzle::board(shape, Cell(goal), Metric::Single).unwrap(),
                        class,
                    )
                    .unwrap();
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

    /// Distances from `start` by a plain BFS over the boards of `space`'s class, moves made by
    /// `Board::neighbours_in(metric)` and ranked from scratch (nothing of the engine's scans):
    /// the layers and the last layer's indices, ascending, and every state's depth.
    fn plain(space: &StateSpace, start: u64, metric: Metric) -> (Vec<u64>, Vec<u64>, Vec<u32>) {
        let mut depth = vec![u32::MAX; space.states() as usize];
        depth[start as usize] = 0;
        let mut layer = vec![start];
        let mut layers = vec![];
        loop {
            layers.push(layer.len() as u64);
            let mut next = vec![];
            for &i in &layer {
                for b in space.board(i).neighbours_in(metric) {
                    let n = space.index(&b).expect("a move keeps the class");
                    if depth[n as usize] == u32::MAX {
                        depth[n as usize] = layers.len() as u32;
                        next.push(n);
                    }
                }
            }
            if next.is_empty() {
                layer.sort_unstable();
                return (layers, layer, depth);
            }
            layer = next;
        }
    }

    /// The multi-tile engine gives the plain BFS's layers and antipodes on every board up to 9
    /// cells, from every goal cell, in either class, by push, pull or the automatic choice,
    /// with lists or without, on one thread or two; its finished table holds 1 + depth mod 3
    /// for every state.
    #[test]
    fn the_multi_tile_engine_matches_a_plain_search() {
        for (r, c) in [(2, 2), (2, 3), (3, 2), (2, 4), (4, 2), (3, 3)] {
            multi_matches_plain(Shape::new(r, c).unwrap(), &[0, 1]);
        }
    }

    /// The multi-tile push's bit a row (`layer::rows`) over tasks of 37, 64 and 1000 states
    /// (rows of 3, 4 and 5 slots cut by words and by tasks, some mid-word), every layer pushed,
    /// on two threads, with a bit for every row and for the first 64 × 8 only: the layers and
    /// antipodes of the plain search, in both classes.
    #[test]
    fn row_bits_over_small_tasks_match_a_plain_search() {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        for (r, c) in [(3, 3), (2, 4), (2, 5)] {
            let shape = Shape::new(r, c).unwrap();
            for class in [0, 1] {
                let space = StateSpace::new(
                    &Puzzle::board(shape, Cell(1), Metric::Multi).unwrap(),
                    class,
                )
                .unwrap();
                let start = match class {
                    0 => space.goal_index(),
                    _ => space.states() / 3,
                };
                let (layers, last, _) = plain(&space, start, Metric::Multi);
                for (chunk, row_bytes) in [37, 64, 1000]
                    .into_iter()
                    .flat_map(|chunk| [(chunk, None), (chunk, Some(64))])
                {
                    let what = format!("{shape} class {class} tasks of {chunk}, {row_bytes:?} B");
                    let s = pool.install(|| {
                        let driver = Driver {
                            schedule: unrecorded(chunk),
                            aid_bytes: row_bytes,
                            ..Driver::new(&|_| {})
                        };
                        match search_with(&space, start, driver, Scan::Push, None) {
                            Ok(Outcome::Done(s)) => s,
                            _ => panic!("{what}: the search failed"),
                        }
                    });
                    assert_eq!(s.layers, layers, "{what}");
                    assert_eq!(s.antipodes, last, "{what}");
                }
            }
        }
    }

    /// Pushes whose sinks fill mid-layer (rooms of 0 to 50,000 claims) make the rest of their
    /// claims atomically, which stops the plain settling of the tasks under way; with room for
    /// every claim, they settle plainly throughout. On one thread or two, over tasks of whole
    /// words (which settle plainly) and of 37 states (which never do), every layer pushed, both
    /// metrics give the plain search's layers and antipodes.
    #[test]
    fn claims_made_atomically_mid_layer_match_a_plain_search() {
        for metric in [Metric::Single, Metric::Multi] {
            for (r, c) in [(3, 3), (2, 5)] {
                let shape = Shape::new(r, c).unwrap();
                let space =
                    StateSpace::new(&Puzzle::board(shape, Cell(1), metric).unwrap(), 0).unwrap();
                let start = space.goal_index();
                let (layers, last, _) = plain(&space, start, metric);
                for threads in [1, 2] {
                    let pool = rayon::ThreadPoolBuilder::new()
                        .num_threads(threads)
                        .build()
                        .unwrap();
                    for (chunk, room) in [37, 1024]
                        .into_iter()
                        .flat_map(|chunk| [0, 2_000, 50_000, 1 << 24].map(|room| (chunk, room)))
                    {
                        let what = format!("{shape} {metric:?} {threads} threads {chunk} {room}");
                        let s = pool.install(|| {
                            let deferred =
                                Deferred::with_room(space.states(), threads, room).tasks_of(chunk);
                            let driver = Driver {
                                schedule: unrecorded(chunk),
                                ..Driver::new(&|_| {})
                            };
                            let found =
                                search_deferring(&space, start, driver, Scan::Push, None, deferred);
                            match found {
                                Ok(Outcome::Done(s)) => s,
                                _ => panic!("{what}: the search failed"),
                            }
                        });
                        assert_eq!(s.layers, layers, "{what}");
                        assert_eq!(s.antipodes, last, "{what}");
                    }
                }
            }
        }
    }

    /// As `the_multi_tile_engine_matches_a_plain_search`, on 2x5 (and 5x2, which the engine
    /// turns into 2x5, from one goal).
    #[test]
    fn the_multi_tile_engine_matches_a_plain_search_on_ten_cells() {
        multi_matches_plain(Shape::new(2, 5).unwrap(), &[0, 1]);
        multi_matches_plain(Shape::new(5, 2).unwrap(), &[0]);
    }

    /// The multi-tile engine against `plain` on `shape`, from every goal cell (the first
    /// of the classes `classes` only) in those classes.
    fn multi_matches_plain(shape: Shape, classes: &[u8]) {
        let pools: Vec<rayon::ThreadPool> = [1, 2]
            .map(|t| {
                rayon::ThreadPoolBuilder::new()
                    .num_threads(t)
                    .build()
                    .unwrap()
            })
            .into();
        {
            let goals = if classes.len() == 1 { 1 } else { shape.cells() };
            for goal in 0..goals {
                for &class in classes {
                    let space = StateSpace::new(
                        &Puzzle::board(shape, Cell(goal), Metric::Multi).unwrap(),
                        class,
                    )
                    .unwrap();
                    let start = if class == 0 {
                        space.goal_index()
                    } else {
                        (space.states() / 3 + goal as u64) % space.states()
                    };
                    let (layers, last, depth) = plain(&space, start, Metric::Multi);
                    for (k, scan) in [Scan::Auto, Scan::Push, Scan::Pull].into_iter().enumerate() {
                        let cap = if (goal + k) % 2 == 0 { 0 } else { RECORD_CAP };
                        let pool = &pools[(goal + class as usize + k) % 2];
                        let s = pool.install(|| searched(&space, start, cap, scan));
                        let what = format!("{shape} goal {goal} class {class} {scan:?} cap {cap}");
                        assert_eq!(s.layers, layers, "{what}");
                        assert_eq!(s.antipodes, last, "{what}");
                        if goal == 0 && class == 0 && k == 0 {
                            for (i, &d) in depth.iter().enumerate() {
                                assert_eq!(s.table.get(i as u64), 1 + u64::from(d % 3), "{what}");
                            }
                        }
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
        use crate::puzzle::metric::Metric::{Multi, Single};
        use std::sync::atomic::Ordering::Relaxed;
        for (r, c, cap, scan, metric) in [
            (3, 3, RECORD_CAP, Scan::Auto, Single),
            (2, 4, RECORD_CAP, Scan::Auto, Single),
            (3, 3, 0, Scan::Pull, Single),
            (2, 4, 0, Scan::Push, Single),
            (3, 3, RECORD_CAP, Scan::Auto, Multi),
            (2, 4, 0, Scan::Push, Multi),
            (3, 3, 0, Scan::Pull, Multi),
        ] {
            let shape = Shape::new(r, c).unwrap();
            let space = StateSpace::new(
                &Puzzle::board(shape, Cell(shape.cells() - 1), metric).unwrap(),
                0,
            )
            .unwrap();
            let start = space.goal_index();
            let whole = searched(&space, start, cap, scan);
            let words = |t: &Table| {
                t.words()
                    .iter()
                    .map(|w| w.load(Relaxed))
                    .collect::<Vec<_>>()
            };
            let eccentricity = whole.layers.len() as u32 - 1;
            let mut unsettled_seen = false;
            for stop in 1..eccentricity {
                let saved: std::sync::Mutex<Option<SearchState>> = Default::default();
                let hook = |b: &SearchState| -> Result<bool, Error> {
                    if b.depth() < stop {
                        return Ok(false);
                    }
                    *saved.lock().unwrap() = Some(SearchState {
                        start: b.start,
                        layers: b.layers.to_vec(),
                        frontier: b.frontier.clone(),
                        pulling: b.pulling,
                        unsettled: b.unsettled,
                        table: Table::from_words(words(&b.table)),
                    });
                    Ok(true)
                };
                let driver = Driver {
                    schedule: recording(cap),
                    progress: &|_| {},
                    hook: Some(&hook),
                    aid_bytes: None,
                };
                let first = search_with(&space, start, driver, scan, None);
                assert!(matches!(first, Ok(Outcome::Stopped { depth }) if depth == stop));
                let resume = saved.lock().unwrap().take().unwrap();
                unsettled_seen |= resume.unsettled;
                let driver = Driver {
                    schedule: recording(cap),
                    ..Driver::new(&|_| {})
                };
                let rest = search_with(&space, start, driver, scan, Some(resume));
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
            if scan == Scan::Pull && metric == Single {
                assert!(
                    unsettled_seen,
                    "{shape}: no stop after a pull layer was tried"
                );
            }
        }
    }
}

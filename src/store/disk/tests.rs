//! The search on disk against the search in memory.

use crate::index::puzzle::Puzzle;
use std::sync::atomic::{AtomicBool, Ordering};

use super::*;
use crate::bfs::search_from;
use crate::puzzle::board::{Cell, Shape};
use crate::puzzle::metric::Metric;

/// A scratch directory in memory where there is one (/dev/shm: a sync there costs nothing, and
/// the tests sync after every shard), else in the temporary directory.
fn scratch() -> tempfile::TempDir {
    tempfile::tempdir_in("/dev/shm")
        .or_else(|_| tempfile::tempdir())
        .unwrap()
}

fn schedule() -> Schedule {
    Schedule {
        chunk: 64,
        sequential_states: 0,
        list_chunk: 2,
        record_cap: 1 << 22,
    }
}

fn on_disk(
    space: &StateSpace,
    start: u64,
    dir: &Path,
    shift: u32,
    resume: bool,
    stop: Option<&AtomicBool>,
    at: u32,
) -> Outcome<Search<DiskShards>> {
    let options = DiskOptions {
        dir,
        memory: 64 << 20,
        shift: Some(shift),
        resume,
        stop,
    };
    let progress = |d: LayerDone| {
        if let Some(s) = stop {
            if d.depth >= at {
                s.store(true, Ordering::Relaxed);
            }
        }
    };
    search_on_disk(space, start, options, schedule(), &progress).expect("the search on disk")
}

/// The boards the tests of stopped searches on disk run: both metrics, and one board whose
/// engine works transposed.
const STOPPED: [(usize, usize, Metric); 3] = [
    (3, 3, Metric::Single),
    (3, 3, Metric::Multi),
    (2, 4, Metric::Multi),
];

/// A search on disk of `space` from `start` in a new scratch directory, cut into shards of
/// 2^`shift` states, stopped at the boundary after `stop_at` (at once for 0).
fn stopped_on_disk(space: &StateSpace, start: u64, shift: u32, stop_at: u32) -> tempfile::TempDir {
    let dir = scratch();
    let stop = AtomicBool::new(stop_at == 0);
    let first = on_disk(space, start, dir.path(), shift, false, Some(&stop), stop_at);
    assert!(
        matches!(first, Outcome::Stopped { .. }),
        "stopped at {stop_at}"
    );
    dir
}

/// The search from the corner goal (blank on the first cell) of each (rows, cols, metric), in
/// memory: its space, start and search, and a shift that cuts its table into about 32 shards.
fn corner_searches(boards: &[(usize, usize, Metric)]) -> Vec<(StateSpace, u64, Search, u32)> {
    boards
        .iter()
        .map(|&(r, c, metric)| {
            let shape = Shape::new(r, c).unwrap();
            let space =
                StateSpace::new(&Puzzle::board(shape, Cell(0), metric).unwrap(), 0).unwrap();
            let start = space.goal_index();
            let whole = search_from(&space, start, schedule(), &|_| {}).unwrap();
            let shift = 64 - space.states().leading_zeros() - 5;
            (space, start, whole, shift)
        })
        .collect()
}

/// Every board up to 9 cells and 2x5, in both metrics and both classes, from a corner and
/// another cell, in one shard, about 8 and about 64, on one thread and two: the layers and
/// antipodes of the search in memory, every state counted once in the shards, the residues of
/// the layers, and no file left once removed.
#[test]
fn a_search_on_disk_is_the_search_in_memory() {
    let pools: Vec<rayon::ThreadPool> = [1, 2]
        .map(|t| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(t)
                .build()
                .unwrap()
        })
        .into();
    let mut n = 0;
    for (r, c) in [(2, 2), (2, 3), (3, 2), (2, 4), (3, 3), (2, 5)] {
        let shape = Shape::new(r, c).unwrap();
        for metric in [Metric::Single, Metric::Multi] {
            for (goal, class) in [(shape.cells() - 1, 0), (1, 1)] {
                let space =
                    StateSpace::new(&Puzzle::board(shape, Cell(goal), metric).unwrap(), class)
                        .unwrap();
                let start = match class {
                    0 => space.goal_index(),
                    _ => space.states() / 3,
                };
                let memory = search_from(&space, start, schedule(), &|_| {}).unwrap();
                // From one shard to about 60 (the journal is rewritten after each).
                let whole = 64 - space.states().leading_zeros();
                for shift in [whole, whole.saturating_sub(3), whole.saturating_sub(6)] {
                    let shift = shift.max(5);
                    n += 1;
                    let what =
                        format!("{shape} {metric:?} goal {goal} class {class} shift {shift}");
                    let dir = scratch();
                    let pool = &pools[n % 2];
                    let Outcome::Done(d) =
                        pool.install(|| on_disk(&space, start, dir.path(), shift, false, None, 0))
                    else {
                        panic!("{what}: stopped");
                    };
                    assert_eq!(d.layers, memory.layers, "{what}");
                    assert_eq!(d.antipodes, memory.antipodes, "{what}");
                    assert_eq!(d.seen, space.states(), "{what}");
                    let residues = crate::bfs::residues(
                        &space,
                        &memory.table,
                        &[(0, space.states())],
                        space.colour(space.split(start).0),
                        crate::bfs::moves::coding(&space),
                        &schedule(),
                    );
                    assert_eq!(d.residues, residues, "{what}");
                    remove(dir.path()).unwrap();
                    assert!(!dir.path().exists(), "{what}: files left");
                }
            }
        }
    }
}

/// A search on disk stopped at every layer boundary and resumed goes on to the layers and
/// antipodes of the search that never stopped, in both metrics.
#[test]
fn a_search_on_disk_stopped_at_any_layer_goes_on() {
    for (space, start, whole, shift) in corner_searches(&STOPPED) {
        let (shape, metric) = (space.user_shape(), space.metric());
        for stop_at in 1..whole.layers.len() as u32 - 1 {
            let what = format!("{shape} {metric:?} stopped at {stop_at}");
            let dir = scratch();
            let stop = AtomicBool::new(false);
            let first = on_disk(
                &space,
                start,
                dir.path(),
                shift,
                false,
                Some(&stop),
                stop_at,
            );
            assert!(matches!(first, Outcome::Stopped { .. }), "{what}");
            let Outcome::Done(d) = on_disk(&space, start, dir.path(), shift, true, None, 0) else {
                panic!("{what}: stopped again");
            };
            assert_eq!(d.layers, whole.layers, "{what}");
            assert_eq!(d.antipodes, whole.antipodes, "{what}");
            assert_eq!(d.seen, space.states(), "{what}");
        }
    }
}

/// A search on disk stopped at any layer boundary, read into memory (`load_whole`), goes on
/// there to the search that never stopped: its layers, antipodes and every word of its table,
/// in both metrics, from the first boundary to the last but one.
#[test]
fn a_search_on_disk_stopped_at_any_layer_goes_on_in_memory() {
    use crate::bfs::{search, Driver};
    for (space, start, whole, shift) in corner_searches(&STOPPED) {
        let (shape, metric) = (space.user_shape(), space.metric());
        for stop_at in 0..whole.layers.len() as u32 - 1 {
            let what = format!("{shape} {metric:?} stopped at {stop_at}");
            let dir = stopped_on_disk(&space, start, shift, stop_at);
            let loaded = whole::load_whole(dir.path(), &space, start).expect(&what);
            assert_eq!(
                loaded.state.layers[..],
                whole.layers[..loaded.state.layers.len()]
            );
            let driver = Driver {
                schedule: schedule(),
                ..Driver::new(&|_| {})
            };
            let Outcome::Done(m) = search(&space, start, driver, Some(loaded.state)).unwrap()
            else {
                panic!("{what}: stopped again");
            };
            assert_eq!(m.layers, whole.layers, "{what}");
            assert_eq!(m.antipodes, whole.antipodes, "{what}");
            let words = (space.states().div_ceil(32)) as usize;
            let differ = (0..words).find(|&w| m.table.word(w) != whole.table.word(w));
            assert_eq!(differ, None, "{what}: a word of the table differs");
        }
    }
}

/// A search on disk stopped at a layer boundary goes on on 1 to 3 ranks (threads), each rank
/// reading its share of the shard files and of the claims waiting (`resume::load_rank`), to the
/// search that never stopped: its layers, antipodes and seen states, in both metrics; a search
/// stopped in the middle of a pass is refused on every rank.
#[test]
fn a_search_on_disk_stopped_at_a_layer_goes_on_on_ranks() {
    use crate::bfs::shard::Partition;
    use crate::bfs::Driver;
    use crate::dist::{search_sharded_with, threads, Budget, Group};
    use crate::store::{resume, shards::ShardOf};
    for (space, start, whole, shift) in corner_searches(&STOPPED) {
        let (shape, metric) = (space.user_shape(), space.metric());
        let last = whole.layers.len() as u32 - 2;
        for stop_at in [0, 1, last / 2, last] {
            let dir = stopped_on_disk(&space, start, shift, stop_at);
            let load = |g: &dyn Group| {
                let partition = Partition::new(&space, g.size());
                let of = ShardOf {
                    space: &space,
                    start,
                    rank: g.rank(),
                    partition: &partition,
                };
                resume::load_rank(g, dir.path(), of)
            };
            for ranks in 1..=3 {
                let what = format!("{shape} {metric:?} stopped at {stop_at}, on {ranks} ranks");
                let got = threads::run(ranks, |g| {
                    let (state, seconds) = load(g)?;
                    let depth = state.layers.len();
                    assert_eq!(
                        state.layers,
                        whole.layers[..depth],
                        "{what}: the layers read"
                    );
                    let driver = Driver {
                        schedule: schedule(),
                        ..Driver::new(&|_| {})
                    };
                    let budget = Budget::default();
                    search_sharded_with(&space, start, g, budget, driver, Some(state))
                        .map(|o| (o, seconds))
                });
                for r in got {
                    let (Outcome::Done(s), _) = r.unwrap_or_else(|e| panic!("{what}: {e}")) else {
                        panic!("{what}: stopped again");
                    };
                    assert_eq!(s.layers, whole.layers, "{what}");
                    assert_eq!(s.antipodes, whole.antipodes, "{what}");
                    assert_eq!(s.seen, space.states(), "{what}");
                }
            }
            // The same journal in the middle of its pass.
            let mut j = open(dir.path(), &space, start).unwrap();
            j.done = 1;
            j.commit(dir.path()).unwrap();
            let got = threads::run(2, |g| load(g).map(|_| ()));
            for r in got {
                let err = r.expect_err("refused").to_string();
                assert!(err.contains("middle of layer"), "{err}");
            }
        }
    }
}

/// A journal in the middle of a pass (a run killed, not stopped) is not read into memory.
#[test]
fn a_search_on_disk_mid_pass_is_not_read_into_memory() {
    let shape = Shape::new(2, 4).unwrap();
    let space =
        StateSpace::new(&Puzzle::board(shape, Cell(7), Metric::Single).unwrap(), 0).unwrap();
    let start = space.goal_index();
    let dir = scratch();
    let stop = AtomicBool::new(false);
    let first = on_disk(&space, start, dir.path(), 8, false, Some(&stop), 5);
    assert!(matches!(first, Outcome::Stopped { .. }));
    let mut j = open(dir.path(), &space, start).unwrap();
    j.done = 1;
    j.commit(dir.path()).unwrap();
    let err = whole::load_whole(dir.path(), &space, start)
        .err()
        .expect("refused");
    let err = err.to_string();
    assert!(err.contains("middle of layer 6's pass"), "{err}");
}

/// A search in memory checkpointed at any layer boundary (pulled layers leave it unsettled),
/// written as a search on disk (`begin_from`) and gone on with there, gives the layers and
/// antipodes of the search that never stopped, in both metrics; a directory holding a search
/// already is refused.
#[test]
fn a_checkpoint_goes_on_on_disk() {
    use crate::bfs::{search, Driver};
    use crate::store::{checkpoint, resume};
    for (space, start, whole, shift) in corner_searches(&[
        (3, 3, Metric::Single),
        (3, 3, Metric::Multi),
        (2, 4, Metric::Single),
    ]) {
        let (shape, metric) = (space.user_shape(), space.metric());
        let mut unsettled = 0;
        for stop_at in 1..whole.layers.len() as u32 - 1 {
            let what = format!("{shape} {metric:?} stopped at {stop_at}");
            let ck = scratch();
            let hook = |s: &SearchState| -> Result<bool, Error> {
                if s.depth() < stop_at {
                    return Ok(false);
                }
                checkpoint::save(ck.path(), &space, s, 2.5)?;
                Ok(true)
            };
            let driver = Driver {
                schedule: schedule(),
                hook: Some(&hook),
                ..Driver::new(&|_| {})
            };
            let stopped = search(&space, start, driver, None).unwrap();
            assert!(matches!(stopped, Outcome::Stopped { .. }), "{what}");
            let loaded = resume::load_one(ck.path(), &space, start).unwrap();
            unsettled += usize::from(loaded.state.unsettled);
            let dir = scratch();
            let options = DiskOptions {
                dir: dir.path(),
                memory: 64 << 20,
                shift: Some(shift),
                resume: false,
                stop: None,
            };
            begin_from(&space, loaded, options).expect(&what);
            let again = resume::load_one(ck.path(), &space, start).unwrap();
            let err = begin_from(&space, again, options).expect_err("refused");
            assert!(
                err.to_string().contains("holds a search on disk already"),
                "{err}"
            );
            let Outcome::Done(d) = on_disk(&space, start, dir.path(), shift, true, None, 0) else {
                panic!("{what}: stopped again");
            };
            assert_eq!(d.layers, whole.layers, "{what}");
            assert_eq!(d.antipodes, whole.antipodes, "{what}");
            assert_eq!(d.seen, space.states(), "{what}");
            assert!(
                d.seconds >= 2.5,
                "{what}: the seconds before the move are counted"
            );
        }
        if metric == Metric::Single {
            assert!(
                unsettled > 0,
                "{shape}: no checkpoint left a pulled layer unsettled"
            );
        }
    }
}

//! One complete analysis of a puzzle (a board or a graph): search, verify against the theorems, summarise; the table
//! in this process's memory or on disk (`analysis::sharded`: over ranks).

use crate::analysis::job::{claim_checkpoint_dir, report_then_save, Job};
use crate::analysis::memory;
use crate::analysis::{Analysis, AnalyzeOptions, OnDisk, TableAt};
use crate::bfs::{search, search_from, Driver, LayerDone, Outcome, Schedule, Search, SearchState};
use crate::error::Error;
use crate::index::puzzle::Puzzle;
use crate::index::space::StateSpace;
use crate::puzzle::board::Board;
use crate::puzzle::metric::Metric;
use crate::store::checkpoint;

/// Enumerates every state of `puzzle` reachable from its goal, with one table in this
/// process's memory on the current rayon pool, calling `progress` after each layer
/// (`analyze_at` with no start and `TableAt::Memory`).
pub fn analyze(
    puzzle: &Puzzle,
    options: AnalyzeOptions,
    progress: &(dyn Fn(LayerDone) + Sync),
) -> Result<Analysis, Error> {
    analyze_at(puzzle, None, TableAt::Memory, options, progress)
}

/// Enumerates every state of `puzzle` reachable from `start` (the goal if `None`), solvable or
/// not, with the table where `table_at` says: the search covers the start's parity class, and
/// the layers are distances from the start. The one entry of every analysis, of a board or a
/// graph (whose table lives in memory: its index covers graphs of up to 17 vertices, and
/// 13 vertices' table takes 1.6 GB).
pub fn analyze_at(
    puzzle: &Puzzle,
    start: Option<&Board>,
    table_at: TableAt,
    options: AnalyzeOptions,
    progress: &(dyn Fn(LayerDone) + Sync),
) -> Result<Analysis, Error> {
    if puzzle.graph_of().is_some() && !matches!(table_at, TableAt::Memory) {
        return Err(Error::Argument(
            "a graph's puzzle is searched in this process's memory, not on disk or on ranks".into(),
        ));
    }
    match table_at {
        TableAt::Memory => in_memory(puzzle, start, &options, progress),
        TableAt::Disk(disk) => {
            if options.checkpoint.is_some() {
                return Err(Error::Argument(
                    "a search on disk keeps its own files to go on from: it takes no checkpoints"
                        .into(),
                ));
            }
            let job = match Job::new(puzzle, start)? {
                Ok(job) => job,
                Err(line) => return report_then_save(line, &options, |r| r, |_, _| Ok(())),
            };
            on_disk(&job, disk, &options, progress)
        }
        TableAt::Ranks { group, budget } => {
            let ranks = crate::analysis::sharded::OnRanks { group, budget };
            crate::analysis::sharded::on_ranks(puzzle, start, options, ranks, progress)
        }
    }
}

/// `analyze_at` with one table in this process's memory.
fn in_memory(
    puzzle: &Puzzle,
    start: Option<&Board>,
    options: &AnalyzeOptions,
    progress: &(dyn Fn(LayerDone) + Sync),
) -> Result<Analysis, Error> {
    memory::check_puzzle(puzzle, options.max_memory)?;
    let job = match Job::new(puzzle, start)? {
        Ok(job) => job,
        Err(line) => return report_then_save(line, options, |r| r, |_, _| Ok(())),
    };
    let space = &job.space;
    let found = match (options.checkpoint, options.stop) {
        (None, None) => search_from(space, job.start_index, options.schedule, progress)?,
        (None, Some(stop)) => stoppable(space, job.start_index, stop, options.schedule, progress)?,
        (Some(ck), _) => {
            search_checkpointed(space, job.start_index, ck, options.schedule, progress)?
        }
    };
    let analysis = job.conclude(&found, 1);
    report_then_save(
        analysis,
        options,
        |r| r,
        |path, layers| crate::store::saved::save(path, space, &found.table, layers),
    )
}

/// The analysis of `job` with its table on disk: searched (or gone on with), reported, its
/// table saved if asked (the shards streamed into the table file), and its files removed.
fn on_disk(
    job: &Job,
    disk: OnDisk,
    options: &AnalyzeOptions,
    progress: &(dyn Fn(LayerDone) + Sync),
) -> Result<Analysis, Error> {
    use crate::store::disk;
    let space = &job.space;
    let memory = options
        .max_memory
        .or_else(memory::available_bytes)
        .unwrap_or(1 << 30);
    let run = disk::DiskOptions {
        dir: disk.dir,
        memory,
        shift: disk.shift,
        resume: disk.resume || disk.from.is_some(),
        stop: disk.stop,
    };
    if let Some(from) = disk.from {
        // The checkpoint is read whole into memory to be cut into shards (which keep no bits
        // a row).
        memory::check(job.shape(), &[Metric::Single], None)?;
        let loaded = crate::store::resume::load_one(from, space, job.start_index)?;
        disk::begin_from(
            space,
            loaded,
            disk::DiskOptions {
                resume: false,
                ..run
            },
        )?;
    }
    let found = match disk::search_on_disk(space, job.start_index, run, options.schedule, progress)?
    {
        Outcome::Done(found) => found,
        Outcome::Stopped { depth } => {
            return Err(Error::Interrupted {
                depth,
                dir: disk.dir.to_path_buf(),
            })
        }
    };
    let analysis = job.conclude(&found, 1);
    let analysis = report_then_save(
        analysis,
        options,
        |r| r,
        |path, layers| {
            crate::store::saved::save_stream(path, space, layers, |sink| {
                disk::stream_table(disk.dir, space, sink)
                    .map_err(|e| std::io::Error::other(e.to_string()))
            })
        },
    )?;
    disk::remove(disk.dir)?;
    Ok(analysis)
}

/// The search without checkpoints that stops at the layer boundary after `stop` is set, with
/// `Error::Stopped`.
fn stoppable(
    space: &StateSpace,
    start_index: u64,
    stop: &std::sync::atomic::AtomicBool,
    schedule: Schedule,
    progress: &(dyn Fn(LayerDone) + Sync),
) -> Result<Search, Error> {
    let hook = |_: &SearchState| Ok(stop.load(std::sync::atomic::Ordering::SeqCst));
    let driver = Driver {
        schedule,
        progress,
        hook: Some(&hook),
        aid_bytes: None,
    };
    match search(space, start_index, driver, None)? {
        Outcome::Done(s) => Ok(s),
        Outcome::Stopped { depth } => Err(Error::Stopped(format!(
            "the search of {} stopped after depth {depth}",
            space.shape()
        ))),
    }
}

/// The search with checkpoints: resumed if asked, saved at layer boundaries, stopped on
/// request with `Error::Interrupted`.
pub(crate) fn search_checkpointed(
    space: &StateSpace,
    start_index: u64,
    ck: checkpoint::Options,
    schedule: Schedule,
    progress: &(dyn Fn(LayerDone) + Sync),
) -> Result<Search, Error> {
    let _lock = claim_checkpoint_dir(ck.dir, ck.resume)?;
    let (resume, before) = match ck.source() {
        Some(dir) => {
            let loaded = crate::store::resume::load_one(dir, space, start_index)?;
            (Some(loaded.state), loaded.seconds)
        }
        None => (None, 0.0),
    };
    let clock = std::time::Instant::now();
    let last_save = std::sync::Mutex::new(std::time::Instant::now());
    let hook = |b: &SearchState| -> Result<bool, Error> {
        let stop = ck.stop.load(std::sync::atomic::Ordering::SeqCst);
        let mut last = last_save.lock().expect("not poisoned");
        if stop || last.elapsed() >= ck.every {
            let t = std::time::Instant::now();
            checkpoint::save(ck.dir, space, b, before + clock.elapsed().as_secs_f64())?;
            // What the search resumed from, if ranks saved it, can go.
            crate::store::resume::remove_others(ck.dir, None, Some(b.depth()))?;
            (ck.saved)(b.depth(), t.elapsed().as_secs_f64());
            *last = std::time::Instant::now();
        }
        Ok(stop)
    };
    let driver = Driver {
        schedule,
        progress,
        hook: Some(&hook),
        aid_bytes: None,
    };
    match search(space, start_index, driver, resume)? {
        Outcome::Done(mut s) => {
            s.seconds += before;
            Ok(s)
        }
        Outcome::Stopped { depth } => Err(Error::Interrupted {
            depth,
            dir: ck.dir.to_path_buf(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::board::Cell;
    use crate::puzzle::board::Shape;

    /// A goal cell outside the board is refused with the blank's error, never a panic (the
    /// command line resolves cells first; library callers may not).
    #[test]
    fn a_goal_outside_the_board_is_refused() {
        let shape = Shape::new(2, 4).unwrap();
        for goal in [8, 9, usize::MAX] {
            let err = Puzzle::board(shape, Cell(goal), Metric::Single).unwrap_err();
            assert!(matches!(err, Error::Blank(_)), "{goal}: {err}");
            assert!(err.to_string().contains("outside the 2x4 board"), "{err}");
        }
    }

    /// A search in memory stops at the layer boundary after its flag is set, with
    /// `Error::Stopped`, and saves nothing.
    #[test]
    fn a_search_stops_when_asked() {
        use std::sync::atomic::{AtomicBool, Ordering};
        let stop = AtomicBool::new(false);
        let dir = tempfile::tempdir().unwrap();
        let table = dir.path().join("t.tst");
        let options = AnalyzeOptions {
            stop: Some(&stop),
            save_table: Some(&table),
            ..AnalyzeOptions::default()
        };
        let shape = Shape::new(3, 3).unwrap();
        let layers = std::sync::atomic::AtomicU32::new(0);
        let progress = |done: LayerDone| {
            layers.fetch_max(done.depth, Ordering::SeqCst);
            if done.depth == 5 {
                stop.store(true, Ordering::SeqCst);
            }
        };
        let puzzle = Puzzle::board(shape, Cell(8), Metric::Single).unwrap();
        let err = analyze(&puzzle, options, &progress).unwrap_err();
        assert!(matches!(err, Error::Stopped(_)), "{err}");
        assert!(err.to_string().contains("after depth"), "{err}");
        // 3x3 has 31 layers past the goal: the search stopped long before them.
        assert!(layers.load(Ordering::SeqCst) < 10);
        assert!(!table.exists());
    }

    /// Wherever the table lives (memory, shard files on disk, shards on 1 to 3 ranks), the one
    /// entry gives the same analysis, checked; a search on disk refuses checkpoints.
    #[test]
    fn every_place_gives_the_same_analysis() {
        use crate::dist::{threads, Budget};
        use crate::puzzle::metric::Metric;
        for (r, c, metric) in [(2, 3, Metric::Single), (2, 4, Metric::Multi)] {
            let shape = Shape::new(r, c).unwrap();
            let puzzle = &Puzzle::board(shape, Cell(1), metric).unwrap();
            let options = AnalyzeOptions::default();
            let want = analyze_at(puzzle, None, TableAt::Memory, options, &|_| {}).unwrap();
            assert!(want.verified, "{shape} {metric:?}");
            let same = |a: &Analysis, place: &str| {
                assert!(a.verified, "{shape} {metric:?} {place}");
                assert_eq!(a.distribution.layers, want.distribution.layers, "{place}");
                assert_eq!(a.antipodes, want.antipodes, "{shape} {metric:?} {place}");
            };
            let dir = tempfile::tempdir().unwrap();
            let disk = OnDisk {
                dir: &dir.path().join("table"),
                resume: false,
                from: None,
                stop: None,
                // Several shards: 6 of 2x3's 360 states, 20 of 2x4's 20,160.
                shift: Some(if shape.cells() == 6 { 6 } else { 10 }),
            };
            let a = analyze_at(puzzle, None, TableAt::Disk(disk), options, &|_| {}).unwrap();
            same(&a, "on disk");
            for ranks in 1..=3 {
                let found = threads::run(ranks, |group| {
                    let budget = Budget::default();
                    let at = TableAt::Ranks { group, budget };
                    analyze_at(puzzle, None, at, options, &|_| {}).unwrap()
                });
                for a in &found {
                    same(a, &format!("on {ranks} ranks"));
                    assert_eq!(a.ranks, ranks);
                }
            }
        }
        let stop = std::sync::atomic::AtomicBool::new(false);
        let dir = tempfile::tempdir().unwrap();
        let options = AnalyzeOptions {
            checkpoint: Some(checkpoint::Options {
                dir: dir.path(),
                every: std::time::Duration::ZERO,
                resume: false,
                from: None,
                stop: &stop,
                saved: &|_, _| {},
            }),
            ..AnalyzeOptions::default()
        };
        let disk = OnDisk {
            dir: dir.path(),
            resume: false,
            from: None,
            stop: None,
            shift: None,
        };
        let shape = Shape::new(2, 3).unwrap();
        let at = TableAt::Disk(disk);
        let puzzle = Puzzle::board(shape, Cell(5), Metric::Single).unwrap();
        let err = analyze_at(&puzzle, None, at, options, &|_| {}).unwrap_err();
        assert!(err.to_string().contains("takes no checkpoints"), "{err}");
    }
}

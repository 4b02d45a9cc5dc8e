//! One analysis run by the ranks of a group, each holding a shard of the table: the same
//! `Analysis`, on every rank, as one machine gives.

use std::cell::Cell as Slot;
use std::time::Instant;

use crate::analysis::job::{claim_checkpoint_dir, report_then_save, Job};
use crate::analysis::memory;
use crate::analysis::{Analysis, AnalyzeOptions};
use crate::bfs::shard::Partition;
use crate::bfs::{Driver, LayerDone, Outcome, Search, SearchState};
use crate::dist::{agreed, search_sharded, search_sharded_with, Budget, Group, RankShard};
use crate::error::Error;
use crate::index::puzzle::Puzzle;
use crate::puzzle::board::Board;
use crate::store::checkpoint::Options as CheckpointOptions;
use crate::store::resume;
use crate::store::shards::{self, ShardOf};

/// The ranks of a group that hold a search's table in shards, and each rank's buffers.
#[derive(Clone, Copy)]
pub(crate) struct OnRanks<'a> {
    /// The ranks.
    pub group: &'a dyn Group,
    /// Each rank's buffers.
    pub budget: Budget,
}

/// `analyze_at` over the ranks of `group` (`TableAt::Ranks`), each with `budget`'s buffers:
/// every rank calls it with the same arguments, and every rank gets the same analysis. Each
/// rank checks its memory (its share of the table and the buffers against
/// `options.max_memory`, per rank, and the memory its node has for each of its ranks) before
/// any rank allocates, and all refuse together.
pub(crate) fn on_ranks(
    puzzle: &Puzzle,
    start: Option<&Board>,
    options: AnalyzeOptions,
    ranks: OnRanks,
    progress: &(dyn Fn(LayerDone) + Sync),
) -> Result<Analysis, Error> {
    let OnRanks { group, budget } = ranks;
    let shape = puzzle.shape();
    let limit = memory::rank_limit(options.max_memory, group.node_ranks());
    let mine = match limit {
        None => 1,
        Some(l) => memory::ranks_needed(shape, l, budget.bytes()).unwrap_or(u64::MAX),
    };
    let needed = if shape.is_line() { 1 } else { group.max(mine) };
    memory::check_sharded(shape, group.size(), limit, budget.bytes(), needed)?;
    let job = match Job::new(puzzle, start)? {
        Ok(job) => job,
        Err(line) => return report_then_save(line, &options, agree_reports(group), |_, _| Ok(())),
    };
    let driver = Driver {
        schedule: options.schedule,
        progress,
        hook: None,
        aid_bytes: None,
    };
    let found = match options.checkpoint {
        None => search_sharded(
            &job.space,
            job.start_index,
            group,
            options.schedule,
            budget,
            progress,
        )?,
        Some(ck) => checkpointed(&job, group, ck, budget, driver)?,
    };
    let analysis = job.conclude(&found, group.size());
    report_then_save(analysis, &options, agree_reports(group), |path, layers| {
        gather_table(group, &job.space, &found.table, path, layers)
    })
}

/// The reports' outcome, agreed by every rank (only rank 0 writes them).
fn agree_reports(group: &dyn Group) -> impl FnOnce(Result<(), Error>) -> Result<(), Error> + '_ {
    move |written| agreed(group, "writing the reports", written)
}

/// Writes the finished table to `path` on rank 0 (`store::saved`, the file one process
/// writes), every block sent there by its rank in index order, a part of at most 2^20 words
/// (8 MB) per round. Every rank takes part in every round whatever happens to the file, so
/// that none waits for another; a failure on rank 0 is then every rank's error.
fn gather_table(
    group: &dyn Group,
    space: &crate::index::space::StateSpace,
    found: &RankShard,
    path: &std::path::Path,
    layers: &[u64],
) -> Result<(), Error> {
    const PART: u64 = 1 << 20;
    let (rank, ranks) = (group.rank(), group.size());
    // The rounds: each part of each block, with the rank that holds it.
    let rounds = || {
        found.partition.blocks().flat_map(|(k, lo, hi)| {
            let (a, b) = (lo / 32, hi.div_ceil(32));
            (a..b)
                .step_by(PART as usize)
                .map(move |w| (k, w, (w + PART).min(b)))
        })
    };
    // Rank k sends the words a..b to rank 0; every other rank sends nothing.
    let round = |(k, a, b): (usize, u64, u64)| -> Vec<u64> {
        let mut out = vec![vec![]; ranks];
        if rank == k {
            out[0] = (a..b).map(|w| found.table.word(w as usize)).collect();
        }
        group.exchange(out).concat()
    };
    let saved = if rank == 0 {
        let mut in_step = false;
        let saved = crate::store::saved::save_stream(path, space, layers, |sink| {
            in_step = true;
            let mut failed = None;
            for r in rounds() {
                let part = round(r);
                if failed.is_none() {
                    failed = sink(&part).err();
                }
            }
            failed.map_or(Ok(()), Err)
        });
        if !in_step {
            // The file could not even be started: take part in the rounds all the same.
            rounds().for_each(|r| drop(round(r)));
        }
        saved
    } else {
        rounds().for_each(|r| drop(round(r)));
        Ok(())
    };
    agreed(group, "saving the table", saved)
}

/// The sharded search with checkpoints (`store::shards`): resumed if asked, saved at layer
/// boundaries when every rank agrees it is time (rank 0's clock, or a stop requested on any
/// rank), stopped on request with `Error::Interrupted`.
fn checkpointed(
    job: &Job,
    group: &dyn Group,
    ck: CheckpointOptions,
    budget: Budget,
    driver: Driver,
) -> Result<Search<RankShard>, Error> {
    let space = &job.space;
    let (rank, ranks) = (group.rank(), group.size());
    let partition = Partition::new(space, ranks);
    let of = ShardOf {
        space,
        start: job.start_index,
        rank,
        partition: &partition,
    };
    // Rank 0 holds the directory for the search (its lock).
    let claimed = match rank {
        0 => claim_checkpoint_dir(ck.dir, ck.resume).map(Some),
        _ => Ok(None),
    };
    let _lock = agreed(group, "claiming the checkpoint directory", claimed)?;
    let (resume, before) = match ck.source() {
        Some(dir) => {
            let (shard, seconds) = resume::load_rank(group, dir, of)?;
            (Some(shard), seconds)
        }
        None => (None, 0.0),
    };
    let clock = Instant::now();
    let last_save = Slot::new(Instant::now());
    let hook = |state: &SearchState| -> Result<bool, Error> {
        let stop = group.max(u64::from(ck.stop.load(std::sync::atomic::Ordering::SeqCst))) != 0;
        let due = stop || last_save.get().elapsed() >= ck.every;
        if group.max(u64::from(due)) == 0 {
            return Ok(false);
        }
        let t = Instant::now();
        let seconds = before + clock.elapsed().as_secs_f64();
        let depth = state.layers.len() as u32 - 1;
        let sum = shards::save_shard(ck.dir, of, state, seconds);
        let sum = agreed(group, "saving its shard", sum)?;
        let sums = group.all_gather(vec![sum]);
        let manifest = match rank {
            0 => shards::save_manifest(ck.dir, space, job.start_index, depth, &sums, seconds),
            _ => Ok(()),
        };
        agreed(group, "saving the manifest", manifest)?;
        // The manifest names the new shards: the older ones (and what the search resumed
        // from) can go.
        let cleaned = resume::remove_others(ck.dir, Some((rank, ranks)), Some(depth));
        agreed(group, "removing old shards", cleaned)?;
        (ck.saved)(depth, t.elapsed().as_secs_f64());
        last_save.set(Instant::now());
        Ok(stop)
    };
    let driver = Driver {
        hook: Some(&hook),
        ..driver
    };
    match search_sharded_with(space, job.start_index, group, budget, driver, resume)? {
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
    use crate::puzzle::board::{Cell, Shape};
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::Duration;

    use std::path::{Path, PathBuf};

    use super::*;
    use crate::analysis::{analyze_at, TableAt};
    use crate::bfs::table::Table;
    use crate::dist::threads;
    use crate::puzzle::metric::Metric;

    /// The analysis of `shape` from its goal with blank on `goal`, over the ranks of `group`.
    fn ranked(
        group: &dyn Group,
        puzzle: &Puzzle,
        options: AnalyzeOptions,
        progress: &(dyn Fn(LayerDone) + Sync),
    ) -> Result<Analysis, Error> {
        let at = TableAt::Ranks {
            group,
            budget: Budget::default(),
        };
        analyze_at(puzzle, None, at, options, progress)
    }

    /// Checkpoints in `dir`, saved only when `stop` is set (or resumed).
    fn ck_in<'a>(dir: &'a Path, stop: &'a AtomicBool, resume: bool) -> CheckpointOptions<'a> {
        CheckpointOptions {
            dir,
            every: Duration::from_secs(3600),
            resume,
            from: None,
            stop,
            saved: &|_, _| {},
        }
    }

    fn run_on(
        ranks: usize,
        shape: Shape,
        checkpoint: Option<CheckpointOptions>,
        progress: &(dyn Fn(LayerDone) + Sync),
    ) -> Vec<Result<Analysis, Error>> {
        run_as(Some(ranks), shape, Metric::Single, checkpoint, progress)
    }

    /// A run of `shape` to its last cell on `ranks` ranks (threads), or in one process (`None`).
    fn run_as(
        ranks: Option<usize>,
        shape: Shape,
        metric: Metric,
        checkpoint: Option<CheckpointOptions>,
        progress: &(dyn Fn(LayerDone) + Sync),
    ) -> Vec<Result<Analysis, Error>> {
        let options = AnalyzeOptions {
            checkpoint,
            ..AnalyzeOptions::default()
        };
        let puzzle = &Puzzle::board(shape, Cell(shape.cells() - 1), metric).unwrap();
        match ranks {
            None => vec![crate::analysis::analyze(puzzle, options, progress)],
            Some(ranks) => threads::run(ranks, |g| ranked(g, puzzle, options, progress)),
        }
    }

    /// Runs `shape` with checkpoints in `dir` on `ranks`, resumed if `resume`, stopped (and
    /// saved) after layer `stop_at` if given; returns the results and the first depth built.
    fn leg(
        ranks: Option<usize>,
        shape: Shape,
        metric: Metric,
        dir: &Path,
        resume: bool,
        stop_at: Option<u32>,
    ) -> (Vec<Result<Analysis, Error>>, u32) {
        let stop = AtomicBool::new(false);
        let first = std::sync::atomic::AtomicU32::new(u32::MAX);
        let watch = |l: LayerDone| {
            first.fetch_min(l.depth, Ordering::SeqCst);
            if Some(l.depth) == stop_at {
                stop.store(true, Ordering::SeqCst);
            }
        };
        let ck = Some(ck_in(dir, &stop, resume));
        let results = run_as(ranks, shape, metric, ck, &watch);
        (results, first.load(Ordering::SeqCst))
    }

    /// A run stopped after one of several depths, saved by one process or by 1 to 3 ranks,
    /// goes on in one process and on 1 to 4 ranks, from the saved depth, with the analysis of
    /// a run never stopped; in both metrics.
    #[test]
    fn checkpoints_resume_on_any_number_of_ranks_and_in_one_process() {
        let shape = Shape::new(3, 3).unwrap();
        for (metric, depths) in [(Metric::Single, [3, 20]), (Metric::Multi, [2, 15])] {
            let whole = run_as(None, shape, metric, None, &|_| {})
                .remove(0)
                .unwrap();
            for saved_by in [None, Some(1), Some(2), Some(3)] {
                for stop_at in depths {
                    for resumed_on in [None, Some(1), Some(2), Some(3), Some(4)] {
                        let what = format!(
                            "{metric:?}: stopped at {stop_at} on {saved_by:?}, resumed on \
                             {resumed_on:?}"
                        );
                        let dir = tempfile::tempdir().unwrap();
                        let (stopped, _) =
                            leg(saved_by, shape, metric, dir.path(), false, Some(stop_at));
                        for r in stopped {
                            assert!(
                                matches!(r, Err(Error::Interrupted { depth, .. }) if depth == stop_at),
                                "{what}: {r:?}"
                            );
                        }
                        let (resumed, first) =
                            leg(resumed_on, shape, metric, dir.path(), true, None);
                        for r in resumed {
                            let a = r.unwrap_or_else(|e| panic!("{what}: {e}"));
                            assert_eq!(a.distribution.layers, whole.distribution.layers, "{what}");
                            assert_eq!(a.antipodes, whole.antipodes, "{what}");
                            assert!(a.verified, "{what}");
                        }
                        // The first layer reported is the one expanded first: the saved one.
                        assert_eq!(first, stop_at, "{what}: resumed at the saved depth");
                    }
                }
            }
        }
    }

    /// The names of the files in `dir` but its lock, sorted.
    fn files_in(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n != ".checkpoint.lock")
            .collect();
        names.sort();
        names
    }

    /// One search moved between layouts: saved by 2 ranks, then by 3, then by one process,
    /// then by 4 ranks, and finished on 2; each save leaves exactly its own files (what the
    /// leg resumed from removed), and the analysis is that of a run never stopped.
    #[test]
    fn a_search_moved_between_layouts_leaves_only_its_last_checkpoint() {
        let shape = Shape::new(3, 3).unwrap();
        let whole = run_as(None, shape, Metric::Single, None, &|_| {});
        let dir = tempfile::tempdir().unwrap();
        let shards = |ranks: usize, depth: u32| -> Vec<String> {
            let mut names: Vec<String> = (0..ranks)
                .map(|k| format!("shard-{k}-of-{ranks}-depth-{depth}.tss"))
                .chain(["manifest.tsm".to_string()])
                .collect();
            names.sort();
            names
        };
        let legs = [
            (Some(2), 5, shards(2, 5)),
            (Some(3), 9, shards(3, 9)),
            (None, 14, vec!["checkpoint.tsc".to_string()]),
            (Some(4), 21, shards(4, 21)),
        ];
        for (i, (ranks, stop_at, left)) in legs.into_iter().enumerate() {
            let (r, _) = leg(
                ranks,
                shape,
                Metric::Single,
                dir.path(),
                i > 0,
                Some(stop_at),
            );
            assert!(
                r.iter()
                    .all(|r| matches!(r, Err(Error::Interrupted { .. }))),
                "{r:?}"
            );
            assert_eq!(files_in(dir.path()), left, "after the save on {ranks:?}");
        }
        let (done, first) = leg(Some(2), shape, Metric::Single, dir.path(), true, None);
        assert_eq!(first, 21, "resumed at the saved depth");
        let want = &whole[0].as_ref().unwrap().distribution.layers;
        for r in done {
            assert_eq!(&r.unwrap().distribution.layers, want);
        }
    }

    /// The files of `dir` but its lock, with their bytes.
    fn snapshot(dir: &Path) -> Vec<(String, Vec<u8>)> {
        files_in(dir)
            .into_iter()
            .map(|n| (n.clone(), std::fs::read(dir.join(&n)).unwrap()))
            .collect()
    }

    /// A checkpoint of 2 ranks with a shard missing, cut short, or taken from another search
    /// (another goal blank, the other metric, another depth of this one) is refused with the
    /// reason by 3 ranks, by 2 and by one process, and every file is left as it was.
    #[test]
    fn a_missing_damaged_or_foreign_shard_is_refused_and_nothing_is_written() {
        let shape = Shape::new(3, 3).unwrap();
        let save = |metric, goal: usize, stop_at: u32| {
            let dir = tempfile::tempdir().unwrap();
            let stop = AtomicBool::new(false);
            let stopper = |l: LayerDone| stop.store(l.depth == stop_at, Ordering::SeqCst);
            let options = AnalyzeOptions {
                checkpoint: Some(ck_in(dir.path(), &stop, false)),
                ..AnalyzeOptions::default()
            };
            let puzzle = &Puzzle::board(shape, Cell(goal), metric).unwrap();
            threads::run(2, |g| ranked(g, puzzle, options, &stopper));
            dir
        };
        let dir = save(Metric::Single, 8, 7);
        let shard = dir.path().join("shard-1-of-2-depth-7.tss");
        let good = std::fs::read(&shard).unwrap();
        let other_goal = std::fs::read(
            save(Metric::Single, 4, 7)
                .path()
                .join("shard-1-of-2-depth-7.tss"),
        )
        .unwrap();
        let other_metric = std::fs::read(
            save(Metric::Multi, 8, 7)
                .path()
                .join("shard-1-of-2-depth-7.tss"),
        )
        .unwrap();
        let other_depth = std::fs::read(
            save(Metric::Single, 8, 6)
                .path()
                .join("shard-1-of-2-depth-6.tss"),
        )
        .unwrap();
        let cases: [(&str, Option<Vec<u8>>, &str); 5] = [
            ("missing", None, "a shard the manifest names is missing"),
            (
                "cut short",
                Some(good[..good.len() - 8].to_vec()),
                "truncated or padded",
            ),
            ("of another goal", Some(other_goal), "its goal blank is"),
            (
                "of the other metric",
                Some(other_metric),
                "multi-tile metric",
            ),
            (
                "of another depth",
                Some(other_depth),
                "its depth is not the manifest's",
            ),
        ];
        for (what, bytes, why) in cases {
            match &bytes {
                None => std::fs::remove_file(&shard).unwrap(),
                Some(b) => std::fs::write(&shard, b).unwrap(),
            }
            let before = snapshot(dir.path());
            for ranks in [Some(3), Some(2), None] {
                let stop = AtomicBool::new(false);
                let ck = Some(ck_in(dir.path(), &stop, true));
                let results = run_as(ranks, shape, Metric::Single, ck, &|_| {});
                let all: Vec<String> = results.iter().map(|r| format!("{r:?}")).collect();
                assert!(
                    results.iter().all(Result::is_err),
                    "{what} on {ranks:?}: accepted"
                );
                assert!(
                    all.iter().any(|e| e.contains(why)),
                    "{what} on {ranks:?}: {all:?}"
                );
                assert!(
                    snapshot(dir.path()) == before,
                    "{what} on {ranks:?}: files changed"
                );
            }
            std::fs::write(&shard, &good).unwrap();
        }
    }

    /// Rewrites rank `rank`'s shard of `depth` in `dir` (of 2 ranks) by `edit` of its layer
    /// counts and words, and recomputes every checksum that covers it (shard and manifest), as
    /// a forger would.
    fn forge(dir: &Path, rank: usize, depth: u32, edit: impl FnOnce(&mut Vec<u64>, &mut [u64])) {
        use crate::store::header::le_words;
        let shard = dir.join(format!("shard-{rank}-of-2-depth-{depth}.tss"));
        let bytes = std::fs::read(&shard).unwrap();
        let n = u32::from_le_bytes(bytes[64..68].try_into().unwrap()) as usize;
        let mut layers: Vec<u64> = le_words(&bytes[96..96 + 8 * n]).collect();
        let mut words: Vec<u64> = le_words(&bytes[96 + 8 * n..]).collect();
        edit(&mut layers, &mut words);
        let mut forged = bytes[..96].to_vec();
        forged[64..68].copy_from_slice(&(layers.len() as u32).to_le_bytes());
        forged.extend(layers.iter().chain(&words).flat_map(|w| w.to_le_bytes()));
        let data = shards::reseal_shard(&mut forged).unwrap();
        std::fs::write(&shard, forged).unwrap();
        let manifest = shards::manifest_file(dir);
        let mut m = std::fs::read(&manifest).unwrap();
        m[72 + 8 * rank..80 + 8 * rank].copy_from_slice(&data.to_le_bytes());
        shards::reseal_manifest(&mut m);
        std::fs::write(&manifest, m).unwrap();
    }

    /// Shards changed and their checksums recomputed (a crafted directory) are refused, with
    /// the reason, when they cannot be one search's state at a layer boundary: a state marked
    /// on one rank that no layer counts, a layer count changed on one rank, one changed on
    /// both; and a shard claiming 2^32 - 1 layers is refused before they are allocated.
    #[test]
    fn crafted_shards_are_refused() {
        let shape = Shape::new(3, 3).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let stop = AtomicBool::new(false);
        let ck = |resume| ck_in(dir.path(), &stop, resume);
        let stopper = |l: LayerDone| stop.store(l.depth == 7, Ordering::SeqCst);
        let _ = run_on(2, shape, Some(ck(false)), &stopper);
        stop.store(false, Ordering::SeqCst);
        let files: Vec<(PathBuf, Vec<u8>)> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| !p.file_name().unwrap().to_string_lossy().starts_with('.'))
            .map(|p| (p.clone(), std::fs::read(&p).unwrap()))
            .collect();
        assert_eq!(files.len(), 3, "two shards and the manifest");
        let refused = |why: &str| {
            let results = run_on(2, shape, Some(ck(true)), &|_| {});
            let all: Vec<String> = results.iter().map(|r| format!("{r:?}")).collect();
            assert!(results.iter().all(Result::is_err), "{why}: accepted");
            assert!(all.iter().any(|e| e.contains(why)), "{why}: {all:?}");
            for (p, bytes) in &files {
                std::fs::write(p, bytes).unwrap();
            }
        };
        // Untouched, it resumes.
        assert!(run_on(2, shape, Some(ck(true)), &|_| {})
            .iter()
            .all(Result::is_ok));
        // One more state marked settled on rank 1.
        forge(dir.path(), 1, 7, |_, words| {
            let i = words
                .iter()
                .position(|&w| Table::matching(w, 0) != 0)
                .unwrap();
            words[i] |= 3 << Table::matching(words[i], 0).trailing_zeros();
        });
        refused("table does not hold the states");
        forge(dir.path(), 0, 7, |layers, _| layers[3] += 1);
        refused("different layer counts");
        for rank in 0..2 {
            forge(dir.path(), rank, 7, |layers, _| layers[3] += 1);
        }
        refused("table does not hold the states");
        // 2^32 - 1 layers claimed by the manifest and both shards (renamed to match), their
        // header checksums recomputed: refused by the length before anything is allocated.
        let depth = u32::MAX - 1;
        use crate::store::header::reseal_header;
        for rank in 0..2 {
            let from = dir.path().join(format!("shard-{rank}-of-2-depth-7.tss"));
            let mut bytes = std::fs::read(&from).unwrap();
            bytes[64..68].copy_from_slice(&(depth + 1).to_le_bytes());
            reseal_header(&mut bytes, 88);
            let to = dir
                .path()
                .join(format!("shard-{rank}-of-2-depth-{depth}.tss"));
            std::fs::write(to, bytes).unwrap();
        }
        let manifest = shards::manifest_file(dir.path());
        let mut m = std::fs::read(&manifest).unwrap();
        m[32..36].copy_from_slice(&depth.to_le_bytes());
        reseal_header(&mut m, 64);
        std::fs::write(&manifest, m).unwrap();
        refused("truncated or padded");
    }

    /// A table saved across 1, 2 and 3 ranks (gathered on rank 0) is byte for byte the file one
    /// process saves, for two boards and goal blanks.
    #[test]
    fn tables_saved_across_ranks_equal_one_process_tables() {
        let dir = tempfile::tempdir().unwrap();
        for (r, c, goal) in [(3, 3, 8), (2, 4, 0)] {
            let shape = Shape::new(r, c).unwrap();
            let one = dir.path().join(format!("{shape}-one.tst"));
            let options = AnalyzeOptions {
                save_table: Some(&one),
                ..AnalyzeOptions::default()
            };
            crate::analysis::analyze(
                &Puzzle::board(shape, Cell(goal), Metric::Single).unwrap(),
                options,
                &|_| {},
            )
            .unwrap();
            let want = std::fs::read(&one).unwrap();
            for ranks in [1, 2, 3] {
                let path = dir.path().join(format!("{shape}-{ranks}.tst"));
                let options = AnalyzeOptions {
                    save_table: Some(&path),
                    ..AnalyzeOptions::default()
                };
                threads::run(ranks, |g| {
                    let puzzle = &Puzzle::board(shape, Cell(goal), Metric::Single).unwrap();
                    ranked(g, puzzle, options, &|_| {}).unwrap()
                });
                assert!(
                    std::fs::read(&path).unwrap() == want,
                    "{shape} on {ranks} ranks"
                );
            }
        }
    }
}

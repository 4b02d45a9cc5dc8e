//! What an analysis is asked (`AnalyzeOptions`, where the table lives: `TableAt`) and what it
//! gives (`Analysis`); the search it runs (`Job`), concluded and reported the same way wherever
//! the table lived.

use std::path::Path;

use crate::analysis::distribution::Distribution;
use crate::bfs::group::Group;
use crate::bfs::moves::coding;
use crate::bfs::{Schedule, Search};
use crate::dist::Budget;
use crate::error::{Damage, Error};
use crate::index::puzzle::{Ground, Puzzle};
use crate::index::space::StateSpace;
use crate::puzzle::board::{Board, Cell, Shape};
use crate::puzzle::count::reachable_u64;
use crate::puzzle::metric::Metric;
use crate::puzzle::parity::solvability;
use crate::store::checkpoint;

/// What writes the reports of an analysis (on every rank of a group, which agree on the outcome).
pub type Reports<'a> = &'a (dyn Fn(&Analysis) -> Result<(), Error> + Sync);

/// What a caller may set for one analysis.
#[derive(Clone, Copy, Default)]
pub struct AnalyzeOptions<'a> {
    /// Refuse boards whose table needs more bytes than this.
    pub max_memory: Option<u64>,
    /// Save the finished table here (`saved`), for `distance` and `solve`: after `reports`,
    /// and only if the search passed every check.
    pub save_table: Option<&'a std::path::Path>,
    /// Called with the checked analysis before the table is saved, so that the reports are on
    /// disk before the longest write and are kept if it fails (a full disk, a kill).
    pub reports: Option<Reports<'a>>,
    /// Save checkpoints at layer boundaries (and resume from one); stop at the next boundary
    /// once its `stop` flag is set.
    pub checkpoint: Option<checkpoint::Options<'a>>,
    /// The engine's granularity (speed only; results do not depend on it).
    pub schedule: Schedule,
    /// Once set, a search in memory without checkpoints stops at the next layer boundary with
    /// `Error::Stopped`, saving nothing (with checkpoints, their own `stop` governs; on disk,
    /// `OnDisk::stop`).
    pub stop: Option<&'a std::sync::atomic::AtomicBool>,
}

/// Where the table of an analysis lives (`analyze_at`); the analysis is the same wherever it
/// is.
#[derive(Clone, Copy, Default)]
pub enum TableAt<'a> {
    /// One table in this process's memory, its tasks on the current rayon pool.
    #[default]
    Memory,
    /// In shard files on disk (`store::disk`), in at most `max_memory` (or the memory
    /// available) of RAM: the search keeps its files to go on from, so `checkpoint` does not
    /// apply.
    Disk(OnDisk<'a>),
    /// In shards over the ranks of `group`, each with `budget`'s buffers: every rank calls
    /// with the same arguments and gets the same analysis (`analysis::sharded`).
    Ranks {
        /// The ranks.
        group: &'a dyn Group,
        /// Each rank's buffers.
        budget: Budget,
    },
}

/// Where a search keeps its table on disk.
#[derive(Clone, Copy, Debug)]
pub struct OnDisk<'a> {
    /// The directory of its files.
    pub dir: &'a Path,
    /// Go on from the search the directory holds.
    pub resume: bool,
    /// Go on from the search saved in this other directory instead (a checkpoint of one
    /// process or of ranks, read into memory, which must hold its table, and written into
    /// `dir` as a new search on disk: `store::disk::begin_from`).
    pub from: Option<&'a Path>,
    /// Once set (by a signal handler, say), the search stops at the next layer boundary with
    /// `Error::Interrupted`, its files kept.
    pub stop: Option<&'a std::sync::atomic::AtomicBool>,
    /// Shards of 2^shift states instead of the largest the memory allows (tests).
    pub shift: Option<u32>,
}

/// Everything `analyze` reports about one (board, goal blank).
#[derive(Clone, Debug)]
pub struct Analysis {
    /// The board, in the user's orientation.
    pub shape: Shape,
    /// The goal's blank cell: the reference that decides which boards are solvable.
    pub goal: Cell,
    /// Where the search started: `None` for the goal, else a board (of either class).
    pub start: Option<Board>,
    /// 0 if the start is solvable (the goal's class), 1 otherwise.
    pub class: u8,
    /// How moves were counted.
    pub metric: Metric,
    /// States at each depth from the start.
    pub distribution: Distribution,
    /// The states at the maximum depth, in the user's orientation, ordered by their cells
    /// (reading order, lexicographically), so reports do not depend on the engine's layout.
    pub antipodes: Vec<Board>,
    /// (RC)!/2, from the counting theorem.
    pub expected: u64,
    /// Every check passed: layers sum to (RC)!/2, the table holds that many marked states, the
    /// table's states at each depth mod 4 (recounted from their codes) are the layers' there,
    /// and every antipode is in the start's class by the solvability test.
    pub verified: bool,
    /// Processes (MPI ranks) the search ran on: 1 for one process.
    pub ranks: usize,
    /// Threads the search ran on, summed over the ranks.
    pub threads: usize,
    /// Wall time of the search, from allocating the table to the last layer.
    pub seconds: f64,
    /// Bytes of the table(s), summed over the ranks.
    pub table_bytes: u64,
}

impl Analysis {
    /// States reached: the distribution's total.
    pub fn states(&self) -> u64 {
        self.distribution.total()
    }

    /// States reached per second of search.
    pub fn states_per_second(&self) -> f64 {
        self.states() as f64 / self.seconds.max(1e-9)
    }
}

/// Hands the checked analysis to `options.reports` (whose outcome `agree` makes the group's),
/// then saves the table with `save` (given its layer counts) if asked: only the table of a search
/// that passed every check, as a table is trusted for optimal answers.
pub(crate) fn report_then_save(
    analysis: Analysis,
    options: &AnalyzeOptions,
    agree: impl FnOnce(Result<(), Error>) -> Result<(), Error>,
    save: impl FnOnce(&Path, &[u64]) -> Result<(), Error>,
) -> Result<Analysis, Error> {
    agree(options.reports.map_or(Ok(()), |write| write(&analysis)))?;
    if let Some(path) = options.save_table {
        if !analysis.verified {
            return Err(Error::Check(format!(
                "the search of {} failed its checks (see the reports): {} not saved",
                analysis.shape,
                path.display()
            )));
        }
        save(path, &analysis.distribution.layers)?;
    }
    Ok(analysis)
}

/// One search to run: the board, its goal, where it starts, and the class it covers.
pub(crate) struct Job {
    pub start: Option<Board>,
    pub class: u8,
    pub space: StateSpace,
    pub start_index: u64,
}

impl Job {
    /// The search from `start` (the goal if `None`); a line is analysed at once (`Err` holds its
    /// analysis: it needs no table).
    pub fn new(puzzle: &Puzzle, start: Option<&Board>) -> Result<Result<Job, Analysis>, Error> {
        let (goal, metric) = (puzzle.goal(), puzzle.metric());
        let Ground::Board(shape) = *puzzle.ground() else {
            return Err(Error::Argument(
                "a puzzle on a graph is analysed by analysis::graph_analysis::analyze_graph".into(),
            ));
        };
        if let Some(b) = start {
            if b.shape() != shape {
                return Err(Error::Board(format!(
                    "the start board is {}, not {shape}",
                    b.shape()
                )));
            }
        }
        let class = match start {
            Some(b) if !solvability(b, goal).solvable => 1,
            _ => 0,
        };
        if shape.is_line() {
            return Ok(Err(analyze_line(shape, goal, start, class, metric)));
        }
        let space = StateSpace::new(puzzle, class)?;
        let start_index = match start {
            Some(b) => space
                .index(b)
                .expect("a board is in the class its parity says"),
            None => space.goal_index(),
        };
        Ok(Ok(Job {
            start: start.cloned(),
            class,
            space,
            start_index,
        }))
    }

    /// The board, in the user's orientation.
    pub fn shape(&self) -> Shape {
        self.space.user_shape()
    }

    /// The goal's blank cell (user orientation).
    pub fn goal(&self) -> Cell {
        self.space.user_goal()
    }

    /// The analysis of what the search found, on `ranks` processes, checked against the
    /// counting theorem.
    pub fn conclude<T>(&self, found: &Search<T>, ranks: usize) -> Analysis {
        let expected =
            reachable_u64(self.shape()).expect("boards that fit in memory have a u64 count");
        let space = &self.space;
        let mut antipodes: Vec<Board> = found.antipodes.iter().map(|&i| space.board(i)).collect();
        antipodes.sort_by(|a, b| a.cells().cmp(b.cells()));
        let distribution = Distribution {
            layers: found.layers.clone(),
        };
        let verified = distribution.total() == expected
            && found.seen == expected
            && coding(space).residues_agree(&distribution.layers, found.residues)
            && antipodes
                .iter()
                .all(|b| solvability(b, self.goal()).solvable == (self.class == 0));
        Analysis {
            shape: self.shape(),
            goal: self.goal(),
            start: self.start.clone(),
            class: self.class,
            metric: space.metric(),
            distribution,
            antipodes,
            expected,
            verified,
            ranks,
            threads: found.threads,
            seconds: found.seconds,
            table_bytes: found.table_bytes,
        }
    }
}

/// Holds `dir` for this search (its lock) while the search runs: refused if another run holds
/// it, or, unless resuming, if it holds a checkpoint (one process's or a distributed run's)
/// already, which a new search would overwrite and then remove.
pub(crate) fn claim_checkpoint_dir(
    dir: &Path,
    resume: bool,
) -> Result<crate::store::lock::Lock, Error> {
    let refused = |why: &str| Error::Write {
        path: dir.to_path_buf(),
        source: std::io::Error::other(why.to_string()),
    };
    // A directory to resume from is not created (by the checks below) when it is missing.
    if resume && !dir.is_dir() {
        return Err(Error::Checkpoint {
            path: dir.to_path_buf(),
            damage: Damage::missing(
                "no checkpoint there (no such directory; start a run with --checkpoint DIR)",
            ),
        });
    }
    crate::store::atomic::check_writable(dir)?;
    let lock = crate::store::lock::try_exclusive(&dir.join("checkpoint"))?
        .ok_or_else(|| refused("another run is using this checkpoint directory"))?;
    let saved = [
        checkpoint::file(dir),
        crate::store::shards::manifest_file(dir),
    ];
    if crate::store::disk::holds_search(dir) {
        return Err(refused(
            "it holds a search on disk (its files are the search's table): continue that \
             search with --resume, or use another directory",
        ));
    }
    if !resume && saved.iter().any(|f| f.exists()) {
        return Err(refused(
            "it holds a checkpoint already: continue that search with --resume, or remove it",
        ));
    }
    Ok(lock)
}

/// A line: n reachable configurations, searched explicitly.
fn analyze_line(
    shape: Shape,
    goal: Cell,
    start: Option<&Board>,
    class: u8,
    metric: Metric,
) -> Analysis {
    let clock = std::time::Instant::now();
    let from = start.cloned().unwrap_or_else(|| Board::goal(shape, goal));
    let reached = crate::puzzle::line::reach(&from, metric);
    let eccentricity = reached.iter().map(|r| r.1).max().unwrap_or(0);
    let mut layers = vec![0u64; eccentricity as usize + 1];
    for (_, d) in &reached {
        layers[*d as usize] += 1;
    }
    let mut antipodes: Vec<Board> = reached
        .iter()
        .filter(|r| r.1 == eccentricity)
        .map(|r| r.0.clone())
        .collect();
    antipodes.sort_by(|a, b| a.cells().cmp(b.cells()));
    let expected = shape.cells() as u64;
    let verified = reached.len() as u64 == expected
        && reached
            .iter()
            .all(|(b, _)| solvability(b, goal).solvable == (class == 0));
    Analysis {
        shape,
        goal,
        start: start.cloned(),
        class,
        metric,
        distribution: Distribution { layers },
        antipodes,
        expected,
        verified,
        ranks: 1,
        threads: 1,
        seconds: clock.elapsed().as_secs_f64(),
        table_bytes: 0,
    }
}

//! What an analysis is asked (`AnalyzeOptions`, where the table lives: `TableAt`) and what it
//! gives (`Analysis`); the search it runs (`Job`), concluded and reported the same way wherever
//! the table lived.

use std::path::Path;

use crate::analysis::distribution::Distribution;
use crate::bfs::group::Group;
use crate::bfs::moves::coding;
use crate::bfs::walk::goal_component;
use crate::bfs::{Schedule, Search};
use crate::dist::Budget;
use crate::error::{Damage, Error};
use crate::index::puzzle::{Ground, Puzzle, MIN_VERTICES};
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

/// Everything `analyze` reports about one puzzle searched from one start: a board and goal
/// blank, or a graph and goal vertex.
#[derive(Clone, Debug)]
pub struct Analysis {
    /// The puzzle, a board in the user's orientation.
    pub puzzle: Puzzle,
    /// Where the search started: `None` for the goal, else a board (of either class).
    pub start: Option<Board>,
    /// 0 if the start is solvable (the goal's class), 1 otherwise.
    pub class: u8,
    /// States at each depth from the start.
    pub distribution: Distribution,
    /// The states at the maximum depth, in the user's orientation (a graph's configurations
    /// as one row of its vertices), ordered by their cells (reading order,
    /// lexicographically), so reports do not depend on the engine's layout.
    pub antipodes: Vec<Board>,
    /// The states a theorem says the start reaches: (RC)!/2 on a board (the counting
    /// theorem), the component's size on a graph where Wilson's or a tree's applies.
    pub expected: Option<u64>,
    /// Every check passed: the layers start with one state, none is empty, the last holds the
    /// antipodes, the table holds as many marked states as the layers, its states at each
    /// depth mod 4 (recounted from their codes) are the layers' there, the layers sum to what
    /// the theorem predicts, and on a board every antipode is in the start's class by the
    /// solvability test.
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
    /// The board (a graph's vertices as one row), in the user's orientation.
    pub fn shape(&self) -> Shape {
        self.puzzle.shape()
    }

    /// The goal's blank cell (vertex): the reference that decides which boards are solvable.
    pub fn goal(&self) -> Cell {
        self.puzzle.goal()
    }

    /// How moves were counted.
    pub fn metric(&self) -> Metric {
        self.puzzle.metric()
    }

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
                analysis.puzzle,
                path.display()
            )));
        }
        save(path, &analysis.distribution.layers)?;
    }
    Ok(analysis)
}

/// One search to run: the puzzle, where it starts, and the class it covers.
pub(crate) struct Job {
    pub start: Option<Board>,
    pub class: u8,
    pub space: StateSpace,
    pub start_index: u64,
}

impl Job {
    /// The search from `start` (the goal if `None`); a puzzle too small for the index (a line,
    /// a graph of fewer than `MIN_VERTICES` vertices) is walked at once (`Err` holds its
    /// analysis: it needs no table).
    pub fn new(puzzle: &Puzzle, start: Option<&Board>) -> Result<Result<Job, Analysis>, Error> {
        let goal = puzzle.goal();
        if let Some(b) = start {
            if puzzle.graph_of().is_some() {
                return Err(Error::Argument(
                    "a search of a graph's puzzle starts from its goal".into(),
                ));
            }
            if b.shape() != puzzle.shape() {
                return Err(Error::Board(format!(
                    "the start board is {}, not {}",
                    b.shape(),
                    puzzle.shape()
                )));
            }
        }
        let class = match start {
            Some(b) if !solvability(b, goal).solvable => 1,
            _ => 0,
        };
        if let Some(walked) = walked(puzzle, start, class)? {
            return Ok(Err(walked));
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

    /// The analysis of what the search found, on `ranks` processes, checked against the
    /// theorems.
    pub fn conclude<T>(&self, found: &Search<T>, ranks: usize) -> Analysis {
        let space = &self.space;
        let antipodes = found.antipodes.iter().map(|&i| space.board(i)).collect();
        let recounted = found.seen == found.layers.iter().sum::<u64>()
            && coding(space).residues_agree(&found.layers, found.residues);
        let mut a = Analysis {
            puzzle: space.puzzle().clone(),
            start: self.start.clone(),
            class: self.class,
            distribution: Distribution {
                layers: found.layers.clone(),
            },
            antipodes,
            expected: None,
            verified: false,
            ranks,
            threads: found.threads,
            seconds: found.seconds,
            table_bytes: found.table_bytes,
        };
        a.check(recounted);
        a
    }
}

impl Analysis {
    /// Orders the antipodes, sets what the theorems predict and whether every check passed
    /// (`recounted`: the table agrees with the layers).
    fn check(&mut self, recounted: bool) {
        self.antipodes.sort_by(|a, b| a.cells().cmp(b.cells()));
        self.expected = match self.puzzle.ground() {
            Ground::Board(shape) if shape.is_line() => Some(shape.cells() as u64),
            Ground::Board(shape) => {
                Some(reachable_u64(*shape).expect("boards that fit in memory have a u64 count"))
            }
            Ground::Graph(graph) => crate::graph::wilson::predict(graph).map(|p| p.size),
        };
        let layers = &self.distribution.layers;
        let (goal, class) = (self.goal(), self.class);
        // The solvability test of a board decides its class; a graph's search has one.
        let in_class = |b: &Board| {
            self.puzzle.graph_of().is_some() || solvability(b, goal).solvable == (class == 0)
        };
        self.verified = recounted
            && layers.first() == Some(&1)
            && layers.iter().all(|&n| n > 0)
            && layers.last() == Some(&(self.antipodes.len() as u64))
            && self.expected.is_none_or(|e| e == self.states())
            && self.antipodes.iter().all(in_class);
    }
}

/// The analysis of a puzzle too small for the index, walked whole: a line (n configurations
/// in the single-tile and multi-tile metrics) or a graph of fewer than `MIN_VERTICES`
/// vertices; `None` for any other.
fn walked(puzzle: &Puzzle, start: Option<&Board>, class: u8) -> Result<Option<Analysis>, Error> {
    let clock = std::time::Instant::now();
    let (layers, antipodes, agrees) = match puzzle.ground() {
        Ground::Board(shape) if shape.is_line() => {
            let from = start
                .cloned()
                .unwrap_or_else(|| Board::goal(*shape, puzzle.goal()));
            let reached = crate::puzzle::line::reach(&from, puzzle.metric());
            // A line keeps its start's class: every state the walk reached is in it by the
            // solvability test.
            let goal = puzzle.goal();
            let agrees = reached
                .iter()
                .all(|(b, _)| solvability(b, goal).solvable == (class == 0));
            let eccentricity = reached.iter().map(|r| r.1).max().unwrap_or(0);
            let mut layers = vec![0u64; eccentricity as usize + 1];
            for (_, d) in &reached {
                layers[*d as usize] += 1;
            }
            let antipodes = reached.into_iter().filter(|r| r.1 == eccentricity);
            (layers, antipodes.map(|r| r.0).collect(), agrees)
        }
        Ground::Graph(graph) if graph.vertices() < MIN_VERTICES => {
            let found = goal_component(graph, puzzle.goal().0, &|_| {})?;
            let row = puzzle.shape();
            let boards = found.antipodes.iter().map(|c| {
                let tiles = c.iter().map(|&t| u32::from(t)).collect();
                Board::new(row, tiles).expect("a walk's configurations are boards of its row")
            });
            (found.depths, boards.collect(), true)
        }
        _ => return Ok(None),
    };
    let mut a = Analysis {
        puzzle: puzzle.clone(),
        start: start.cloned(),
        class,
        distribution: Distribution { layers },
        antipodes,
        expected: None,
        verified: false,
        ranks: 1,
        threads: 1,
        seconds: clock.elapsed().as_secs_f64(),
        table_bytes: 0,
    };
    a.check(agrees);
    Ok(Some(a))
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

//! `tilespace analyze`: enumerate boards or graphs' puzzles, print a summary on stdout, write
//! the CSV reports (a board's `summary.csv`, a graph's `graph-summary.csv`, and each one's
//! `depths.csv` and `antipodes.csv`).

use std::io::Write;
use std::path::Path;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::{bail, Result};
use clap::Args;
use tilespace::analysis::memory;
use tilespace::analysis::{analyze_at, TableAt};
use tilespace::graph::spec::NamedGraph;
use tilespace::report::gong::{self, GongComparison, GONG_FIGURES};
use tilespace::report::graph_summary::{self, GraphSummaryRow};
use tilespace::report::runs::RunRow;
use tilespace::report::{self, ReportPaths, SummaryRow};
use tilespace::GoalBlank;
use tilespace::{Analysis, AnalyzeOptions, Board, ErrorKind, Metric, Puzzle, Shape};

use super::groups::RunArgs;
use super::progress::Progress;
use super::Stopped;
use super::{counted, BadArgument};

#[derive(Args, Debug)]
pub struct AnalyzeArgs {
    /// Board sizes, e.g. 3x3 2x5 (rows x columns): as memory allows (2x7 needs 11 GB), or any line 1xN
    #[arg(value_name = "RxC", required_unless_present_any = ["gong_figures", "graph"])]
    pub boards: Vec<Shape>,
    /// A graph to play on instead of a board (repeatable): grid:RxC, torus:RxC, cylinder:RxC,
    /// cycle:N, path:N, complete:N, complete:A,B, theta:A,B,C, theta0, petersen, hypercube:D,
    /// graph6:STRING, or a file (graph6 or an edge list `u v` a line); 4 to 16 vertices as
    /// memory allows (13 take 1.6 GB), fewer walked
    #[arg(long, value_name = "SPEC", conflicts_with_all = [
        "boards", "gong_figures", "from", "disk"
    ])]
    pub graph: Vec<String>,
    /// Goal blank cell: last, first, center, R,C or a cell number (1-based); repeat for several goals
    #[arg(long, value_name = "CELL", default_value = "last")]
    pub blank: Vec<GoalBlank>,
    /// The goal's tokens instead of tiles 1, 2, … around one blank: on a board a board string
    /// whose labels may repeat (equal labels are tokens of one colour) and that may hold
    /// several blanks (0), e.g. "1 1 1 1/2 2 2 2/3 3 3 3/4 4 4 0"; on a --graph the token on
    /// each vertex in its order. Every arrangement that reaches it is searched (pebble motion)
    #[arg(long, value_name = "TOKENS", conflicts_with_all = [
        "blank", "gong_figures", "from", "disk"
    ])]
    pub goal: Option<String>,
    /// How moves are counted: single (a move slides one tile one cell) or multi (the blank
    /// slides any distance along its row or column, the tiles between following: one move)
    #[arg(long, value_name = "METRIC", default_value = "single")]
    pub metric: Metric,
    #[command(flatten)]
    pub run: RunArgs,
    /// Analyse the boards of Gong's table (2x2 2x3 2x4 2x5 3x3) and compare with his figures
    #[arg(long = "gong-figures", conflicts_with = "boards")]
    pub gong_figures: bool,
    /// Save the distance table (2 bits per state) to FILE, for `distance` and `solve` (a board's,
    /// or with --goal a board's or a graph's tokens)
    #[arg(long, value_name = "FILE")]
    pub save_table: Option<PathBuf>,
    /// Search from this board instead of the goal (either parity class), e.g. "1 2 3/4 5 6/8 7 0"
    #[arg(long, value_name = "BOARD", conflicts_with = "gong_figures")]
    pub from: Option<String>,
    /// Print one JSON document on stdout instead of text
    #[arg(long)]
    pub json: bool,
    /// Save checkpoints in DIR at layer boundaries; Ctrl-C, SIGTERM or SIGUSR1 then saves one and stops (exit 75). With --resume OLD: go on from OLD's search, saving here
    #[arg(long, value_name = "DIR", conflicts_with = "disk")]
    pub checkpoint: Option<PathBuf>,
    /// Continue the run whose checkpoint is in DIR (and keep checkpointing there), whatever
    /// number of MPI ranks or one process saved it; or the search on disk DIR holds. With
    /// --checkpoint NEW or --disk NEW: go on from DIR's search in memory or on disk, saving in NEW
    #[arg(long, value_name = "DIR")]
    pub resume: Option<PathBuf>,
    /// Keep the table in files under DIR, with at most --max-memory (or the memory available)
    /// of it in RAM: boards past this machine's memory. A stop (Ctrl-C, SIGTERM, SIGUSR1: exit
    /// 75), a crash or a full disk loses at most a shard's work: go on with --resume DIR
    #[arg(long, value_name = "DIR")]
    pub disk: Option<PathBuf>,
    /// Least time between checkpoints, e.g. 5m, 90s, 1h, 0 (every layer)
    #[arg(long, value_name = "DURATION", default_value = "5m", value_parser = memory::parse_duration)]
    pub checkpoint_every: Duration,
}

/// At most this many antipodes of a board are printed, and of a graph (whose configurations
/// are longer); all of them go to antipodes.csv.
const SHOWN_ANTIPODES: usize = 8;
const SHOWN_GRAPH_ANTIPODES: usize = 5;

pub fn run(args: AnalyzeArgs, ranks: super::Ranks) -> Result<super::Status> {
    // Every argument is checked before anything is written (the same on every rank).
    let (jobs, start) = checked(&args, ranks.is_some())?;
    // Only the first rank of a distributed run writes and prints.
    let first = ranks.is_none_or(|g| g.rank() == 0);
    let writable = if first {
        writable_outputs(&args, &jobs, start.as_ref()).map_err(anyhow::Error::from)
    } else {
        Ok(())
    };
    super::agree(ranks, writable)?;
    let pool = pool(ranks, args.run.threads)?;
    let disk_dir = disk_dir(&args);
    let checkpoint_dir = match disk_dir {
        Some(_) => None,
        None => args.checkpoint.as_deref().or(args.resume.as_deref()),
    };
    let moved_from = moved_from(&args);
    // The bar of the board being searched, for the messages of checkpoints saved.
    let current = std::sync::Mutex::new(None::<Progress>);
    let saved = |depth: u32, seconds: f64| {
        let current = current.lock().expect("not poisoned");
        if let (Some(p), Some(dir)) = (current.as_ref(), checkpoint_dir) {
            p.message(&format!(
                "checkpoint after depth {depth} saved in {} ({seconds:.1} s)",
                dir.display()
            ));
        }
    };
    let checkpoint = checkpointing(&args, checkpoint_dir, &saved)?;
    let disk = on_disk(&args, disk_dir)?;
    let mut done = vec![];
    let mut json_analyses = vec![];
    for job in &jobs {
        let puzzle = &job.puzzle;
        let label = job
            .graph
            .clone()
            .unwrap_or_else(|| puzzle.shape().to_string());
        let mut progress = Progress::new(args.run.quiet, job.most_states(), &label);
        if !first {
            progress = progress.muted();
        }
        *current.lock().expect("not poisoned") = Some(progress.clone());
        // The reports are written (by the first rank) as soon as the analysis is checked,
        // before the table is saved.
        let reports_written = std::sync::Mutex::new(None);
        let write_reports = |a: &Analysis| {
            if first {
                let paths = job.write_reports(&args.run.results, a)?;
                *reports_written.lock().expect("not poisoned") = Some(paths);
            }
            Ok(())
        };
        let options = AnalyzeOptions {
            max_memory: args.run.max_memory,
            save_table: args.save_table.as_deref(),
            reports: Some(&write_reports),
            checkpoint,
            ..AnalyzeOptions::default()
        };
        let on_layer = &|l| progress.layer(l);
        let start = start.as_ref();
        let a = match (ranks, &pool) {
            (None, Some(pool)) => {
                let at = || disk.map_or(TableAt::Memory, TableAt::Disk);
                pool.install(|| analyze_at(puzzle, start, at(), options, on_layer))
            }
            // On this thread, the only one that calls MPI; the engine's parallel work goes to
            // the global pool.
            (Some(group), _) => {
                let budget = tilespace::dist::Budget::default();
                let at = TableAt::Ranks { group, budget };
                analyze_at(puzzle, start, at, options, on_layer)
            }
            (None, None) => unreachable!("one process has a pool of its own"),
        };
        progress.finish();
        let a = a.map_err(|e| {
            let resumable = Resumable {
                job,
                start,
                ranks,
                disk: disk_dir,
            };
            resumable.error(e)
        })?;
        for dir in checkpoint_dir.into_iter().chain(moved_from) {
            remove_checkpoint(dir, ranks)?;
        }
        let written = reports_written.lock().expect("not poisoned").take();
        if let Some(paths) = written {
            show(&args, job, &a, &paths, &mut json_analyses)?;
            done.push(a);
        }
    }
    if !first {
        // Rank 0 prints the summary, the JSON document or the seed table, and sets the status.
        return Ok(super::Status::Done);
    }
    finish(&args, &done, json_analyses)
}

/// Where a search on disk keeps its table (`None` in memory), stopped by a signal at the end
/// of a layer.
fn on_disk<'a>(
    args: &'a AnalyzeArgs,
    dir: Option<&'a std::path::Path>,
) -> Result<Option<tilespace::analysis::OnDisk<'a>>> {
    let Some(dir) = dir else {
        return Ok(None);
    };
    let from = moved_from(args);
    Ok(Some(tilespace::analysis::OnDisk {
        dir,
        resume: args.resume.is_some() && from.is_none(),
        from,
        stop: Some(super::stop_on_signal(
            "at the end of this layer, the table kept on disk (signal again to stop at once)",
        )?),
        shift: None,
    }))
}

/// One process: a pool of its own. Ranks: the global pool sized, and none of its own (the
/// search runs on the main thread, the only one that calls MPI).
fn pool(ranks: super::Ranks, threads: Option<usize>) -> Result<Option<rayon::ThreadPool>> {
    match ranks {
        None => Ok(Some(super::thread_pool(threads)?)),
        Some(_) => {
            super::global_pool(threads)?;
            Ok(None)
        }
    }
}

/// Prints one analysis's summary, or keeps its JSON for the document printed at the end.
fn show(
    args: &AnalyzeArgs,
    job: &Job,
    a: &Analysis,
    paths: &ReportPaths,
    json_analyses: &mut Vec<serde_json::Value>,
) -> Result<()> {
    let mut written = vec![
        paths.summary.as_path(),
        paths.depths.as_path(),
        paths.antipodes.as_path(),
    ];
    written.extend(args.save_table.as_deref());
    // Only what is there at the end (a report can be removed by another run meanwhile).
    written.retain(|p| p.is_file());
    match (&job.graph, args.json) {
        (_, true) => {
            json_analyses.push(analysis_json(job, a, &written));
            Ok(())
        }
        (None, false) => print_summary(a, &written),
        (Some(spec), false) => print_graph_summary(a, spec, &written),
    }
}

/// The checkpoints of a search saved in `dir` (if any) as `args` ask: resumed with `--resume`,
/// saved once `--checkpoint-every` has passed, and at the end of the layer a signal comes in.
pub(super) fn checkpointing<'a>(
    args: &'a AnalyzeArgs,
    dir: Option<&'a Path>,
    saved: &'a (dyn Fn(u32, f64) + Sync),
) -> Result<Option<tilespace::store::checkpoint::Options<'a>>> {
    let Some(dir) = dir else {
        return Ok(None);
    };
    let from = moved_from(args);
    Ok(Some(tilespace::store::checkpoint::Options {
        dir,
        every: args.checkpoint_every,
        resume: args.resume.is_some() && from.is_none(),
        from,
        stop: super::stop_on_signal(
            "saving a checkpoint at the end of this layer (signal again to stop without saving)",
        )?,
        saved,
    }))
}

/// Removes the checkpoint in `dir` once the reports are written: one process's file, or on
/// each rank its share of the shards (and on rank 0 the manifest); or the search on disk a
/// search in memory went on from.
fn remove_checkpoint(dir: &Path, ranks: super::Ranks) -> Result<(), tilespace::Error> {
    if tilespace::store::disk::holds_search(dir) {
        // Read by every rank, removed by one.
        return match ranks.is_none_or(|g| g.rank() == 0) {
            true => tilespace::store::disk::remove(dir),
            false => Ok(()),
        };
    }
    let who = ranks.map(|g| (g.rank(), g.size()));
    tilespace::store::resume::remove_others(dir, who, None)
}

/// One search to run: the puzzle, and for a graph's the SPEC it was named by (its reports'
/// name).
struct Job {
    puzzle: Puzzle,
    graph: Option<String>,
}

impl Job {
    /// The most states the search can reach (its progress bar's length): what the counting
    /// theorem or Wilson's says, else all n! configurations of a graph.
    fn most_states(&self) -> u64 {
        let n = self.puzzle.cells() as u64;
        match self.puzzle.graph_of() {
            None => {
                tilespace::puzzle::count::reachable_u64(self.puzzle.shape()).unwrap_or(u64::MAX)
            }
            Some(g) => tilespace::graph::wilson::predict(g)
                .map_or(tilespace::graph::wilson::factorial(n), |p| p.size),
        }
    }

    /// Where the reports of this search go under `results`, before it runs.
    fn paths(&self, results: &Path, start: Option<&Board>) -> ReportPaths {
        let p = &self.puzzle;
        match (&self.graph, p.graph_of()) {
            (Some(spec), Some(g)) => graph_summary::paths(results, spec, g, p.goal().0),
            _ => report::paths_named(
                results,
                &report::report_name_of(p.shape(), p.goal(), start, p.metric()),
            ),
        }
    }

    /// Writes the reports of `a`, this job's analysis, under `results`.
    fn write_reports(&self, results: &Path, a: &Analysis) -> Result<ReportPaths, tilespace::Error> {
        match &self.graph {
            None => report::write_all(results, a),
            Some(spec) => graph_summary::write_graph_reports(results, spec, a),
        }
    }
}

/// The searches to run.
type Jobs = Vec<Job>;

/// The searches the arguments ask for, and the start board, once every combination of
/// arguments has been checked.
fn checked(args: &AnalyzeArgs, sharded: bool) -> Result<(Jobs, Option<Board>)> {
    let jobs = jobs(args, sharded)?;
    let start = match &args.from {
        None => None,
        Some(text) => {
            let [shape] = args.boards[..] else {
                bail!(BadArgument(
                    "--from takes exactly one board size, the start board's".into()
                ));
            };
            Some(Board::parse_for(text, Some(shape), "the size analyzed is")?)
        }
    };
    if args.save_table.is_some() && !args.graph.is_empty() {
        bail!(BadArgument(
            "--save-table with --graph saves a table of tokens: give the goal's tokens (--goal)"
                .into()
        ));
    }
    if args.save_table.is_some() && (jobs.len() != 1 || start.is_some()) {
        bail!(BadArgument(
            "--save-table saves one search from the goal: give one board size and one --blank, \
             without --from"
                .into()
        ));
    }
    let lines = jobs.iter().any(|j| j.puzzle.is_walked());
    let files = args.save_table.is_some() || args.checkpoint.is_some() || args.resume.is_some();
    if lines && files {
        bail!(BadArgument(
            "a line (1xN) or a graph of fewer than 4 vertices is walked without a table: \
             --save-table, --checkpoint and --resume do not apply"
                .into()
        ));
    }
    if args.metric != tilespace::report::gong::METRIC && args.gong_figures {
        bail!(BadArgument(format!(
            "--gong-figures are {}: they do not take --metric {}",
            tilespace::report::gong::METRIC.adjective(),
            args.metric
        )));
    }
    if args.disk.is_some() && sharded {
        bail!(BadArgument(
            "--disk runs in one process: start it without mpirun or srun".into()
        ));
    }
    if let (Some(dir), true) = (disk_dir(args), sharded) {
        bail!(BadArgument(format!(
            "{} holds a search on disk, which runs in one process: resume it without mpirun or \
             srun, or move it into the ranks' memory with --checkpoint NEWDIR",
            dir.display()
        )));
    }
    if args.disk.is_some() && lines {
        bail!(BadArgument(
            "a line (1xN) is searched without a table: --disk does not apply".into()
        ));
    }
    if args.disk.is_some() && jobs.len() != 1 {
        bail!(BadArgument(
            "--disk follows one run: give one board size and one --blank".into()
        ));
    }
    if (args.checkpoint.is_some() || args.resume.is_some()) && jobs.len() != 1 {
        bail!(BadArgument(
            "--checkpoint and --resume follow one run: give one board size (or --graph) and one \
             --blank"
                .into()
        ));
    }
    Ok((jobs, start))
}

/// Fails before the search, naming the path, if a report or the table could not be written:
/// two outputs on one file (the table saved as the checkpoint or the summary), the output
/// directory, and `--save-table`'s file (a regular file or none) and directory.
fn writable_outputs(
    args: &AnalyzeArgs,
    jobs: &Jobs,
    start: Option<&Board>,
) -> Result<(), tilespace::Error> {
    use tilespace::store::atomic::{check_target, check_writable};
    let mut roles = tilespace::store::roles::Roles::new();
    let out = &args.run.results;
    roles
        .writes("the summary report", &out.join("summary.csv"))
        .writes("the runs report", &report::runs_path(out));
    if jobs.iter().any(|j| j.graph.is_some()) {
        roles.writes("the graph summary report", &out.join("graph-summary.csv"));
    }
    for job in jobs {
        let p = job.paths(out, start);
        roles
            .writes("a depths report", &p.depths)
            .writes("an antipodes report", &p.antipodes);
    }
    if let Some(path) = &args.save_table {
        roles.writes("the table (--save-table)", path);
    }
    if let Some(dir) = disk_dir(args) {
        let owns = tilespace::store::disk::layout::owns;
        roles.writes_names("a file of the search on disk", dir, owns);
    } else if let Some(dir) = args.checkpoint.as_deref().or(args.resume.as_deref()) {
        let owns = tilespace::store::checkpoint::owns;
        roles.writes_names("a file of the checkpoint", dir, owns);
    }
    if let Some(from) = moved_from(args) {
        // The search moved from here is removed once the run is done.
        roles.writes_names("a file of the search resumed", from, |n| {
            tilespace::store::checkpoint::owns(n) || tilespace::store::disk::layout::owns(n)
        });
    }
    roles.check()?;
    if let Some(path) = args.save_table.as_deref() {
        check_target(path)?;
        let dir = path.parent().filter(|d| !d.as_os_str().is_empty());
        let dir = dir.unwrap_or(Path::new("."));
        // A typo in a directory is not made a directory: a table goes where one exists, or
        // into a directory the run makes (the reports', the checkpoint's, the disk's).
        let made = [
            Some(args.run.results.as_path()),
            args.checkpoint.as_deref(),
            args.disk.as_deref(),
        ];
        if !dir.is_dir() && !made.contains(&Some(dir)) {
            return Err(tilespace::Error::Write {
                path: path.to_path_buf(),
                source: std::io::Error::new(
                    std::io::ErrorKind::NotFound,
                    format!("its directory {} does not exist", dir.display()),
                ),
            });
        }
        check_writable(dir)?;
    }
    check_writable(&args.run.results)?;
    Ok(())
}

/// The JSON document (or the seed table) after the boards; `No` if a check failed.
fn finish(
    args: &AnalyzeArgs,
    done: &[Analysis],
    json_analyses: Vec<serde_json::Value>,
) -> Result<super::Status> {
    let all_verified = done.iter().all(|a| a.verified);
    let seeds_agree = if args.json {
        /// `analyze --json`; with `--gong-figures`, our figures beside Gong's.
        #[derive(serde::Serialize)]
        struct Document {
            analyses: Vec<serde_json::Value>,
            verified: bool,
            #[serde(skip_serializing_if = "Option::is_none")]
            gong_figures: Option<Vec<GongComparison>>,
            #[serde(skip_serializing_if = "Option::is_none")]
            gong_agree: Option<bool>,
        }
        let (agree, rows) = gong_comparison(done);
        super::print_json(&Document {
            analyses: json_analyses,
            verified: all_verified,
            gong_figures: args.gong_figures.then_some(rows),
            gong_agree: args.gong_figures.then_some(agree),
        })?;
        !args.gong_figures || agree
    } else {
        !args.gong_figures || print_gong_figures(done)?
    };
    Ok(super::Status::of(all_verified && seeds_agree))
}

/// The puzzles to search, each once: every board of the arguments (or of Gong's table) from
/// each goal blank, or every graph of `--graph` from each; each checked against the memory guard
/// of one process (a sharded search checks each rank's share when it starts).
fn jobs(args: &AnalyzeArgs, sharded: bool) -> Result<Jobs> {
    let shapes: Vec<Shape> = if args.gong_figures {
        GONG_FIGURES
            .iter()
            .map(|g| g.board.parse())
            .collect::<Result<_, _>>()?
    } else {
        args.boards.clone()
    };
    let mut jobs: Jobs = vec![];
    let mut add = |job: Job| {
        if !jobs
            .iter()
            .any(|j| j.puzzle == job.puzzle && j.graph == job.graph)
        {
            jobs.push(job);
        }
    };
    for shape in shapes {
        for blank in &args.blank {
            let puzzle = Puzzle::board(shape, blank.resolve(shape)?, args.metric)?;
            add(Job {
                puzzle,
                graph: None,
            });
        }
    }
    for spec in &args.graph {
        let named = NamedGraph::parse(spec)?;
        for &blank in &args.blank {
            let vertex = tilespace::graph::blank_vertex(blank, named.graph.vertices())?;
            add(Job {
                puzzle: Puzzle::graph(named.graph.clone(), vertex, args.metric)?,
                graph: Some(named.spec.clone()),
            });
        }
    }
    // A table on disk takes what memory it is given.
    if !sharded && disk_dir(args).is_none() {
        for job in &jobs {
            memory::check_puzzle(&job.puzzle, args.run.max_memory)?;
        }
    }
    Ok(jobs)
}

/// The directory a search is moved from: `--resume`'s, where `--checkpoint` or `--disk` names
/// another directory to go on in (in memory or on disk).
pub(super) fn moved_from(args: &AnalyzeArgs) -> Option<&Path> {
    let elsewhere = args.checkpoint.is_some() || args.disk.is_some();
    args.resume.as_deref().filter(|_| elsewhere)
}

/// The directory of the table on disk: `--disk`'s, or `--resume`'s if it holds a search on
/// disk rather than a checkpoint and no `--checkpoint` moves it into memory.
fn disk_dir(args: &AnalyzeArgs) -> Option<&Path> {
    let holds = |d: &&Path| tilespace::store::disk::holds_search(d);
    let stays = args.resume.as_deref().filter(|_| args.checkpoint.is_none());
    args.disk.as_deref().or(stays.filter(holds))
}

/// What a stopped or failed run needs to be gone on with.
struct Resumable<'a> {
    job: &'a Job,
    start: Option<&'a Board>,
    ranks: super::Ranks<'a>,
    /// The table on disk, if the run keeps it there.
    disk: Option<&'a Path>,
}

impl Resumable<'_> {
    /// A run interrupted after its checkpoint was saved (or with its table on disk kept)
    /// becomes `Stopped`, with the command that continues it; a search on disk that failed
    /// (a full disk, say) says how to go on; any other error is passed on.
    fn error(&self, err: tilespace::Error) -> anyhow::Error {
        let (puzzle, ranks) = (&self.job.puzzle, self.ranks);
        let (shape, goal) = (puzzle.shape(), puzzle.goal());
        let mut command = match &self.job.graph {
            None => format!("tilespace analyze {shape}"),
            Some(spec) => format!("tilespace analyze --graph {spec}"),
        };
        let mut anywhere = "";
        if let Some(g) = ranks {
            // The command keeps this job's shape, started as this job was (by srun in a Slurm
            // job, else by mpirun); any other number of ranks, or one process, goes on as well.
            anywhere = " (or on any number of ranks, or in one process)";
            let launcher = if std::env::var_os("SLURM_JOB_ID").is_some() {
                "srun -n"
            } else {
                "mpirun -np"
            };
            command = format!("{launcher} {} {command}", g.size());
        }
        if goal.0 != puzzle.cells() - 1 {
            command += &match self.job.graph {
                None => format!(" --blank {}", shape.cell_label(goal)),
                Some(_) => format!(" --blank {}", goal.0 + 1),
            };
        }
        if let Some(b) = self.start {
            command += &format!(" --from \"{b}\"");
        }
        if puzzle.metric().note().is_some() {
            command += &format!(" --metric {}", puzzle.metric());
        }
        if matches!(err, tilespace::Error::Interrupted { .. }) {
            super::signals_settled();
        }
        match (&err, self.disk) {
            (tilespace::Error::Interrupted { depth, dir }, None) => {
                let dir = dir.display();
                Stopped(format!(
                    "interrupted after depth {depth}: checkpoint saved in {dir}; continue with: \
                     {command} --resume {dir}{anywhere}"
                ))
                .into()
            }
            (tilespace::Error::Interrupted { depth, dir }, Some(_)) => {
                let dir = dir.display();
                Stopped(format!(
                    "interrupted after depth {depth}: the table is kept on disk in {dir}; \
                     continue with: {command} --resume {dir} (or in memory, in one process or on \
                     ranks, checkpointed in a new directory: add --checkpoint NEWDIR)"
                ))
                .into()
            }
            (_, Some(dir))
                if matches!(err.kind(), ErrorKind::Io)
                    && tilespace::store::disk::layout::journal_file(dir).exists() =>
            {
                let dir = dir.display();
                anyhow::anyhow!(
                    "{err}; the search on disk is kept up to its last completed shard: when \
                     the cause is fixed, continue with: {command} --resume {dir}"
                )
            }
            _ => err.into(),
        }
    }
}

/// One analysis of `analyze --json`: the summary row's fields (a board's or a graph's), the
/// run, the distribution (states per depth from 0), every antipode, and the files written.
fn analysis_json(job: &Job, a: &Analysis, paths: &[&Path]) -> serde_json::Value {
    let mut v = match &job.graph {
        None => serde_json::to_value(SummaryRow::from_analysis(a)),
        Some(spec) => serde_json::to_value(GraphSummaryRow::of(a, spec)),
    }
    .expect("plain fields");
    // A number, not the CSV's text (the exact mean stays a string: "568/45").
    v["mean_depth"] = a.distribution.mean().to_f64().into();
    v["run"] = serde_json::to_value(RunRow::from_analysis(a)).expect("plain fields");
    v["distribution"] = a.distribution.layers.clone().into();
    v["antipode_states"] = a
        .antipodes
        .iter()
        .map(|b| b.to_string())
        .collect::<Vec<_>>()
        .into();
    v["reports"] = paths
        .iter()
        .map(|p| p.display().to_string())
        .collect::<Vec<_>>()
        .into();
    v
}

/// Our figures beside Gong's for the boards of his table; true if every board of it was
/// analysed and agrees.
fn gong_comparison(done: &[Analysis]) -> (bool, Vec<GongComparison>) {
    let rows = gong::compare(done);
    let all = rows.len() == GONG_FIGURES.len() && rows.iter().all(|r| r.agree);
    (all, rows)
}

fn print_summary(a: &Analysis, paths: &[&Path]) -> Result<()> {
    let row = SummaryRow::from_analysis(a);
    let mut out = std::io::stdout().lock();
    let check = if row.verified && a.shape().is_line() {
        format!(
            "= {} (a line: the blank's positions), verified",
            a.shape().cells()
        )
    } else if row.verified {
        format!("= {}!/2, verified", a.shape().cells())
    } else {
        let expected = row.expected_states.unwrap_or_default();
        format!("NOT VERIFIED (expected {expected})")
    };
    let metric = a
        .metric()
        .note()
        .map(|n| format!(", {n}"))
        .unwrap_or_default();
    match &a.start {
        None => writeln!(
            out,
            "{} (goal blank {}{metric}): {} states {check}",
            row.board, row.goal_blank, row.states
        )?,
        Some(b) => writeln!(
            out,
            "{} from {b} ({} class for goal blank {}{metric}): {} states {check}",
            row.board, row.class, row.goal_blank, row.states
        )?,
    }
    figures_line(&mut out, a)?;
    super::output::print_antipodes(&mut out, &a.antipodes, SHOWN_ANTIPODES)?;
    writeln!(
        out,
        "  {:.3} s on {} thread{}, {:.1} M states/s, table {}",
        a.seconds,
        a.threads,
        if a.threads == 1 { "" } else { "s" },
        a.states_per_second() / 1e6,
        tilespace::units::human_bytes(a.table_bytes as f64),
    )?;
    let shown: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    writeln!(out, "  wrote: {}", shown.join(", "))?;
    Ok(())
}

/// Prints our figures beside the seeds'; true if every one agrees.
fn print_gong_figures(done: &[Analysis]) -> Result<bool> {
    let (all, rows) = gong_comparison(done);
    let mut out = std::io::stdout().lock();
    writeln!(out)?;
    // Two heading rows: what is compared, then whose figure each column is.
    writeln!(
        out,
        "{:<6} {:<12} {:^11} {:^32}",
        "", "", "eccentricity", "mean"
    )?;
    writeln!(
        out,
        "{:<6} {:<12} {:>5} {:>5} {:>16} {:>7} {:>7}  agree",
        "board", "Gong's board", "ours", "Gong", "ours (exact)", "ours", "Gong"
    )?;
    for r in rows {
        writeln!(
            out,
            "{:<6} {:<12} {:>5} {:>5} {:>16} {:>7} {:>7}  {}",
            r.board,
            r.gong_name,
            r.eccentricity,
            r.gong_eccentricity,
            r.mean_exact,
            r.mean,
            r.gong_mean,
            if r.agree { "yes" } else { "NO" }
        )?;
    }
    Ok(all)
}

/// Prints one graph's summary: its states beside what a theorem predicts, its figures, the
/// antipodes (configurations: the tokens on vertices 1..n, 0 the blank), the run and the files.
fn print_graph_summary(a: &Analysis, spec: &str, paths: &[&Path]) -> Result<()> {
    let row = GraphSummaryRow::of(a, spec);
    let mut out = std::io::stdout().lock();
    let check = match (row.verified, a.expected) {
        (true, Some(_)) => "as the theorem predicts, verified".to_string(),
        (true, None) => "verified (no theorem predicts this graph's components)".to_string(),
        (false, Some(e)) => format!("NOT VERIFIED (the theorem predicts {e})"),
        (false, None) => "NOT VERIFIED".to_string(),
    };
    writeln!(
        out,
        "{spec} (graph6 {}, goal blank on vertex {}): {} states, {check}",
        row.graph6, row.goal_blank, row.states
    )?;
    figures_line(&mut out, a)?;
    super::output::print_antipodes(&mut out, &a.antipodes, SHOWN_GRAPH_ANTIPODES)?;
    writeln!(
        out,
        "  {:.3} s on {}, {:.1} M states/s",
        a.seconds,
        counted(a.threads as u64, "thread"),
        a.states_per_second() / 1e6
    )?;
    let shown: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    writeln!(out, "  wrote: {}", shown.join(", "))?;
    Ok(())
}

/// The line of figures under an analysis's first line: eccentricity, antipodes, mean, median
/// and the widest layer.
fn figures_line(out: &mut impl Write, a: &Analysis) -> Result<()> {
    super::output::figures_line(out, &a.distribution, a.antipodes.len(), "state")
}

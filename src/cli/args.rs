//! Command-line arguments (clap derive). Values are parsed and checked here, by clap's value
//! parsers (board sizes, goal blanks, sizes, durations, thread counts); what depends on several
//! arguments together is checked by each command before it does anything.

use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, Parser, Subcommand};
use tilespace::analysis::memory;
use tilespace::{GoalBlank, Metric, Shape};

/// A count of at least 1 (threads, runs).
fn at_least_one(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(0) => Err("must be at least 1".into()),
        Ok(n) => Ok(n),
        Err(_) => Err(format!("'{text}' is not a whole number")),
    }
}

/// A disk's rate in gigabytes a second: from a megabyte a second to ten terabytes (no disk
/// or array is outside that; a rate beyond it makes a projection of no use).
fn disk_rate(text: &str) -> Result<f64, String> {
    rate_within(text, 1e-3, 1e4)
}

/// A network's rate in gigabits a second: from a megabit a second to a hundred terabits.
fn network_rate(text: &str) -> Result<f64, String> {
    rate_within(text, 1e-3, 1e5)
}

fn rate_within(text: &str, least: f64, most: f64) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(r) if (least..=most).contains(&r) => Ok(r),
        Ok(_) => Err(format!("must be from {least} to {most}")),
        Err(_) => Err(format!("'{text}' is not a number")),
    }
}

/// Threads of a planned machine (not this one): at least 1, at most 8 a core of the largest
/// machine Linux runs (8192 cores), as `analyze` allows 8 a core of this one.
fn planned_threads(text: &str) -> Result<usize, String> {
    let n = at_least_one(text)?;
    if n > 8 * 8192 {
        return Err(format!(
            "{n} is too many: at most 65536 (8 a core of 8192 cores)"
        ));
    }
    Ok(n)
}

/// Layers of a planned search: at least 1 (the start), at most 10,000 (the boards the index
/// holds have a few hundred at most).
fn layer_count(text: &str) -> Result<u32, String> {
    let n = at_least_one(text)?;
    if n > 10_000 {
        return Err(format!("{n} is too many: at most 10000"));
    }
    Ok(n as u32)
}

/// The metrics a command runs in (`atlas`, `bench`): one, or both, single first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MetricChoice {
    One(Metric),
    Both,
}

impl MetricChoice {
    /// The metrics named, single first.
    pub fn metrics(self) -> Vec<Metric> {
        match self {
            MetricChoice::One(m) => vec![m],
            MetricChoice::Both => Metric::ALL.to_vec(),
        }
    }
}

/// As typed: `single`, `multi` or `both`.
impl std::fmt::Display for MetricChoice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MetricChoice::One(m) => f.write_str(m.name()),
            MetricChoice::Both => f.write_str("both"),
        }
    }
}

/// `single`, `multi` or `both`, in any case, spaces around it ignored.
fn metric_choice(text: &str) -> Result<MetricChoice, String> {
    match text.trim().to_ascii_lowercase().as_str() {
        "both" => Ok(MetricChoice::Both),
        other => other
            .parse::<Metric>()
            .map(MetricChoice::One)
            .map_err(|e| format!("{e}, or both")),
    }
}

/// A rank count of a planned run: at least 1, at most `MAX_RANKS`.
fn rank_count(text: &str) -> Result<usize, String> {
    let n = at_least_one(text)?;
    let most = tilespace::bfs::shard::MAX_RANKS;
    if n > most {
        return Err(format!("{n} is too many: at most {most}"));
    }
    Ok(n)
}

/// A sample size of `plan`: at least 1, at most 10^8 (about a minute).
fn plan_samples(text: &str) -> Result<usize, String> {
    let n = at_least_one(text)?;
    if n > 100_000_000 {
        return Err(format!("{n} is too many: at most 100000000"));
    }
    Ok(n)
}

/// A count of at least 1 (u64).
fn at_least_one_u64(text: &str) -> Result<u64, String> {
    match text.parse::<u64>() {
        Ok(0) => Err("must be at least 1".into()),
        Ok(n) => Ok(n),
        Err(_) => Err(format!("'{text}' is not a whole number")),
    }
}

/// A thread count: at least 1, and at most 8 per core of this machine (more only slows a
/// memory-bound search down, and thousands of threads take minutes to start).
fn thread_count(text: &str) -> Result<usize, String> {
    let n = at_least_one(text)?;
    let cores = std::thread::available_parallelism().map_or(1, |c| c.get());
    if n > 8 * cores {
        return Err(format!(
            "{n} is too many: at most {} (8 per core; this machine has {cores})",
            8 * cores
        ));
    }
    Ok(n)
}

#[derive(Parser, Debug)]
#[command(
    name = "tilespace",
    version = concat!(env!("CARGO_PKG_VERSION"), " (git ", env!("TILESPACE_GIT_REVISION"), ")"),
    propagate_version = true,
    about = "Enumerate every reachable state of R×C sliding-tile puzzles and report exact facts",
    after_help = "Boards: rows separated by '/' or newlines, tiles by spaces or commas, blank 0 or _\n\
                  (\"1 2 3/4 5 6/7 8 0\"). Sizes are RxC: rows x columns (the 15-puzzle is 4x4).\n\
                  Exit status: 0 ok, 1 a failed check (or 'not solvable'), 2 bad input or a file that\n\
                  cannot be read or written, 75 stopped by a signal after saving a checkpoint (go on\n\
                  with the command printed), 130 stopped by a signal with nothing to resume, 70 a\n\
                  bug in tilespace (please report it)."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Enumerate boards completely and write summary.csv, depths.csv, antipodes.csv
    Analyze(AnalyzeArgs),
    /// Say whether a board can reach the goal, and why (any size)
    Solvable(SolvableArgs),
    /// Print the exact number of configurations of an RxC board (any size)
    Count(CountArgs),
    /// Time the standard boards at several thread counts (median of N runs)
    Bench(BenchArgs),
    /// Verify the counting theorem by enumerating both parity classes; writes theorem.csv
    Theorem(TheoremArgs),
    /// Exact optimal number of moves to the goal, from a saved table or pattern databases
    #[command(mut_arg("table", |a| a
        .required_unless_present("pdb")
        .help("The table written by `analyze RxC --save-table FILE` (or give --pdb DIR)")))]
    Distance(QueryArgs),
    /// A solution verified by replay: optimal with --table or --pdb, else constructive (any size)
    Solve(QueryArgs),
    /// Build pattern databases (additive, disjoint) for optimal solving with `solve --pdb`
    Pdb(PdbArgs),
    /// Solve uniformly random boards optimally: the estimated distribution and mean (95% CI)
    Sample(SampleArgs),
    /// Uniformly random solvable boards (any size), reproducible with --seed
    Random(RandomArgs),
    /// Draw the depth distributions in results/ as charts, SVG or pgfplots (no enumeration)
    Plot(PlotArgs),
    /// Print the analysed boards as tables for papers: summary, distributions, theorem
    Table(TableArgs),
    /// Compare every analysed board with the published figures (OEIS): agree or disagree
    Check(CheckArgs),
    /// The worst configurations' structure, and Gong's question on 2xn boards
    Antipodes(AntipodesArgs),
    /// Every goal cell of a board: eccentricities, the diameter, the radius, the mean distance
    Atlas(AtlasArgs),
    /// Plan a run across MPI ranks: memory per rank, ranks a memory size needs, exchange volume
    Plan(PlanArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell)
    Completions(CompletionsArgs),
    /// Print the man page (roff), e.g. `tilespace man > tilespace.1`
    Man(ManArgs),
}

#[derive(Args, Debug)]
pub struct AnalyzeArgs {
    /// Board sizes, e.g. 3x3 2x5 (rows x columns): as memory allows (2x7 needs 11 GB), or any line 1xN
    #[arg(value_name = "RxC", required_unless_present = "seed_table")]
    pub boards: Vec<Shape>,
    /// Goal blank cell: last, first, center or R,C (1-based); repeat for several goals
    #[arg(long, value_name = "CELL", default_value = "last")]
    pub blank: Vec<GoalBlank>,
    /// How moves are counted: single (a move slides one tile one cell) or multi (the blank
    /// slides any distance along its row or column, the tiles between following: one move)
    #[arg(long, value_name = "METRIC", default_value = "single")]
    pub metric: Metric,
    #[command(flatten)]
    pub run: RunArgs,
    /// Analyse the boards of Gong's table (2x2 2x3 2x4 2x5 3x3) and compare with his figures
    /// (`--seed-table`, its former name, is still taken)
    #[arg(long = "gong-figures", conflicts_with = "boards", alias = "seed-table")]
    pub seed_table: bool,
    /// Save the distance table (2 bits per state) to FILE, for `distance` and `solve`
    #[arg(long, value_name = "FILE")]
    pub save_table: Option<PathBuf>,
    /// Search from this board instead of the goal (either parity class), e.g. "1 2 3/4 5 6/8 7 0"
    #[arg(long, value_name = "BOARD", conflicts_with = "seed_table")]
    pub from: Option<String>,
    /// Print one JSON document on stdout instead of text
    #[arg(long)]
    pub json: bool,
    /// Save checkpoints in DIR at layer boundaries; Ctrl-C, SIGTERM or SIGUSR1 then saves one and stops (exit 75)
    #[arg(long, value_name = "DIR", conflicts_with_all = ["resume", "disk"])]
    pub checkpoint: Option<PathBuf>,
    /// Continue the run whose checkpoint is in DIR (and keep checkpointing there), whatever
    /// number of MPI ranks or one process saved it; or the search on disk DIR holds (--disk)
    #[arg(long, value_name = "DIR")]
    pub resume: Option<PathBuf>,
    /// Keep the table in files under DIR, with at most --max-memory (or the memory available)
    /// of it in RAM: boards past this machine's memory. A stop (Ctrl-C, SIGTERM, SIGUSR1: exit
    /// 75), a crash or a full disk loses at most a shard's work: go on with --resume DIR
    #[arg(long, value_name = "DIR", conflicts_with = "resume")]
    pub disk: Option<PathBuf>,
    /// Least time between checkpoints, e.g. 5m, 90s, 1h, 0 (every layer)
    #[arg(long, value_name = "DURATION", default_value = "5m", value_parser = memory::parse_duration)]
    pub checkpoint_every: Duration,
}

#[derive(Args, Debug)]
pub struct AtlasArgs {
    /// Board sizes, e.g. 3x3 2x5 (as memory allows: each cell class is one full search)
    #[arg(value_name = "RxC", required = true)]
    pub boards: Vec<Shape>,
    /// How moves are counted: single, multi or both (see `analyze --metric`)
    #[arg(long, value_name = "METRIC", default_value = "both", value_parser = metric_choice)]
    pub metric: MetricChoice,
    #[command(flatten)]
    pub run: RunArgs,
    /// Read a cell whose search is already in --results (its summary row, verified, and its
    /// depths.csv, both checked) instead of searching it again: an atlas stopped between
    /// cells goes on where it was
    #[arg(long)]
    pub reuse: bool,
    /// Print one JSON document on stdout instead of text
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct SolvableArgs {
    /// The board, e.g. "8 6 7/2 5 4/3 0 1", or a flat list with --shape
    pub board: String,
    /// The board's size when it is given as one flat list
    #[arg(long, value_name = "RxC")]
    pub shape: Option<Shape>,
    /// Goal blank cell: last, first, center or R,C (1-based)
    #[arg(long, value_name = "CELL", default_value = "last")]
    pub blank: GoalBlank,
    /// Print one JSON document on stdout instead of text
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct CountArgs {
    /// Board size, e.g. 4x4 or 10x10
    #[arg(value_name = "RxC")]
    pub board: Shape,
    /// Print one JSON document on stdout instead of text
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Boards to time, comma-separated
    #[arg(
        long,
        value_name = "RxC,...",
        value_delimiter = ',',
        default_value = "3x3,2x5,2x6,3x4"
    )]
    pub boards: Vec<Shape>,
    /// Thread counts to time, comma-separated (default: 1, each power of two below the core
    /// count, and every core: the efficiency curve)
    #[arg(long, short = 'j', value_name = "N,...", value_delimiter = ',', value_parser = thread_count)]
    pub threads: Vec<usize>,
    /// Runs per board and thread count; the median is reported
    #[arg(long, value_name = "N", default_value = "3", value_parser = at_least_one)]
    pub runs: usize,
    /// How moves are counted: single, multi or both (each board in each, single first)
    #[arg(long, value_name = "METRIC", default_value = "single", value_parser = metric_choice)]
    pub metric: MetricChoice,
    /// Directory of the reports, where bench.csv, bench.json and bench-machine.txt go
    #[arg(long, value_name = "DIR", default_value = "results", alias = "out")]
    pub results: PathBuf,
    /// No progress display on stderr
    #[arg(long, short)]
    pub quiet: bool,
    /// Print the record (bench.json) on stdout instead of the table
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct TheoremArgs {
    /// Board sizes, e.g. 2x3 3x3 (as memory allows)
    #[arg(value_name = "RxC", required = true)]
    pub boards: Vec<Shape>,
    /// Goal blank cell: last, first, center or R,C (1-based)
    #[arg(long, value_name = "CELL", default_value = "last")]
    pub blank: GoalBlank,
    #[command(flatten)]
    pub run: RunArgs,
    /// Print one JSON document instead of text
    #[arg(long)]
    pub json: bool,
}

/// `--out`, a word of two meanings before 2026-11-27 (the reports' folder in `analyze`, the
/// charts' in `plot`, the databases' in `pdb`): taken, hidden, where it meant another folder
/// than the reports', only to say which word to use now.
#[derive(Args, Debug)]
pub struct OldOut {
    #[arg(long = "out", value_name = "DIR", hide = true)]
    pub old_out: Option<PathBuf>,
}

impl OldOut {
    /// An error saying where `what` goes now (`--charts DIR`), if `--out` was given.
    pub fn refuse(&self, what: &str) -> Result<(), super::BadArgument> {
        match &self.old_out {
            Some(_) => Err(super::BadArgument(format!(
                "--out names no folder here: {what}; --results DIR is the reports' folder in \
                 every command"
            ))),
            None => Ok(()),
        }
    }
}

/// Options shared by the commands that enumerate boards.
#[derive(Args, Debug)]
pub struct RunArgs {
    /// Directory of the reports, written here and read back (as `plot`, `table` and `check`
    /// read them); `--out`, its former name, is still taken
    #[arg(
        long = "results",
        value_name = "DIR",
        default_value = "results",
        alias = "out"
    )]
    pub out: PathBuf,
    /// Worker threads (default: all cores; at most 8 per core)
    #[arg(long, short = 'j', value_name = "N", value_parser = thread_count)]
    pub threads: Option<usize>,
    /// No progress display on stderr
    #[arg(long, short)]
    pub quiet: bool,
    /// Refuse boards whose search (table and working memory) needs more than SIZE (e.g. 12G, 500M)
    #[arg(long, value_name = "SIZE", value_parser = memory::parse_size)]
    pub max_memory: Option<u64>,
}

#[derive(Args, Debug)]
pub struct QueryArgs {
    /// Boards, e.g. "8 6 7/2 5 4/3 0 1" (or read them with --input)
    #[arg(value_name = "BOARD")]
    pub boards: Vec<String>,
    /// The table written by `analyze RxC --save-table FILE` (optimal answers). Without it,
    /// `solve` builds a solution row by row for any size (not optimal)
    #[arg(long, value_name = "FILE")]
    pub table: Option<PathBuf>,
    /// The boards' size when each is given as one flat list
    #[arg(long, value_name = "RxC")]
    pub shape: Option<Shape>,
    /// Goal blank cell: last, first, center or R,C (1-based); a table knows its own
    #[arg(long, value_name = "CELL")]
    pub blank: Option<GoalBlank>,
    /// Also read boards from FILE, one per line ('-' for stdin); a .csv file gives its `board`
    /// column, and its `optimal` column (if any) is checked against the answers
    #[arg(long, value_name = "FILE")]
    pub input: Option<PathBuf>,
    /// Pattern databases built by `tilespace pdb` in DIR: optimal answers by IDA* (any board
    /// the databases are for), with the nodes and time each took; repeat for several
    /// partitions (the largest of their sums is taken)
    #[arg(long, value_name = "DIR", conflicts_with = "table")]
    pub pdb: Vec<PathBuf>,
    /// How moves are counted (default: the table's; single otherwise): multi needs a table saved
    /// by `analyze --metric multi --save-table`
    #[arg(long, value_name = "METRIC")]
    pub metric: Option<Metric>,
    /// Only optimal answers: needs --pdb DIR or --table FILE (without it `solve` may build a
    /// solution that is not optimal)
    #[arg(long)]
    pub optimal: bool,
    /// With --pdb: boards solved at once (default: all cores)
    #[arg(long, short = 'j', value_name = "N", value_parser = thread_count, requires = "pdb")]
    pub threads: Option<usize>,
    /// With --pdb: give up on a board after N nodes (an error for that board)
    #[arg(long, value_name = "N", value_parser = at_least_one_u64, requires = "pdb")]
    pub max_nodes: Option<u64>,
    /// A bad board (of --input or the command line), or one given up on at --max-nodes, is
    /// reported on stderr and skipped, and the others answered; the exit status is then 2
    #[arg(long)]
    pub keep_going: bool,
    /// One CSV row per board instead of text
    #[arg(long, conflicts_with = "json")]
    pub csv: bool,
    /// One JSON document with every answer instead of text
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
#[command(group(
    clap::ArgGroup::new("tiles").required(true).args(["partition", "pattern", "verify"])
))]
pub struct PdbArgs {
    /// Board size, e.g. 4x4 (at most 32 cells)
    #[arg(value_name = "RxC")]
    pub board: Shape,
    /// Group sizes of the tiles in reading order of the goal, e.g. 7-8 or 5-5-5 (4x4), 6-5
    /// (3x4), 4-4 (3x3)
    #[arg(long, value_name = "SIZES", conflicts_with = "pattern")]
    pub partition: Option<String>,
    /// One pattern's tiles, e.g. 1,2,5,6; repeat it for each pattern (together every tile once)
    #[arg(long, value_name = "TILES")]
    pub pattern: Vec<String>,
    /// Goal blank cell: last, first, center or R,C (1-based)
    #[arg(long, value_name = "CELL", default_value = "last")]
    pub blank: GoalBlank,
    /// Directory for the databases (created if missing; databases already there are kept),
    /// the directory `solve --pdb DIR` and `sample --pdb DIR` read
    #[arg(long = "pdb", value_name = "DIR", required_unless_present = "old_out")]
    pub dir: Option<PathBuf>,
    #[command(flatten)]
    pub old_out: OldOut,
    /// Worker threads (default: all cores; at most 8 per core)
    #[arg(long, short = 'j', value_name = "N", value_parser = thread_count)]
    pub threads: Option<usize>,
    /// No progress display on stderr
    #[arg(long, short)]
    pub quiet: bool,
    /// Refuse a build that needs more than SIZE (e.g. 4G)
    #[arg(long, value_name = "SIZE", value_parser = memory::parse_size)]
    pub max_memory: Option<u64>,
    /// One CSV row per database instead of text (pattern, placements, max, mean, built,
    /// seconds, file)
    #[arg(long, conflicts_with_all = ["json", "verify"])]
    pub csv: bool,
    /// One JSON document instead of text
    #[arg(long)]
    pub json: bool,
    /// Check every entry of every database in --pdb DIR against its neighbours' instead of
    /// building (a load checks a sample; see the guide for what this catches)
    #[arg(long, conflicts_with_all = ["partition", "pattern"])]
    pub verify: bool,
}

#[derive(Args, Debug)]
pub struct SampleArgs {
    /// Board size, e.g. 4x4
    #[arg(value_name = "RxC")]
    pub board: Shape,
    /// Pattern databases for the board, built by `tilespace pdb RxC ... --out DIR`; repeat for
    /// several partitions (the largest of their sums is taken)
    #[arg(long, value_name = "DIR", required = true)]
    pub pdb: Vec<PathBuf>,
    /// How many random boards
    #[arg(long, value_name = "N", value_parser = at_least_one_u64)]
    pub count: u64,
    /// How moves are counted: single only (pattern databases are not admissible in the
    /// multi-tile metric)
    #[arg(long, value_name = "METRIC", default_value = "single")]
    pub metric: Metric,
    /// Seed: the same seed gives the same boards and estimate (default: from the clock)
    #[arg(long, value_name = "SEED")]
    pub seed: Option<u64>,
    /// Boards solved at once (default: all cores)
    #[arg(long, short = 'j', value_name = "N", value_parser = thread_count)]
    pub threads: Option<usize>,
    /// Give up on a board after N nodes (the sample then fails: a sample without its hardest
    /// boards is biased)
    #[arg(long, value_name = "N", value_parser = at_least_one_u64)]
    pub max_nodes: Option<u64>,
    /// Write every board with its distance, nodes and seconds to FILE (CSV), each as soon as
    /// it is solved (a stopped or crashed sample keeps them)
    #[arg(long, value_name = "FILE")]
    pub positions: Option<PathBuf>,
    /// Go on from the boards already in the --positions FILE (same board, seed and count)
    #[arg(long, requires = "positions")]
    pub resume: bool,
    /// No progress display on stderr
    #[arg(long, short)]
    pub quiet: bool,
    /// Print one JSON document instead of text
    #[arg(long, conflicts_with = "csv")]
    pub json: bool,
    /// Print the boards with their distances as CSV instead of the summary
    #[arg(long)]
    pub csv: bool,
}

#[derive(Args, Debug)]
pub struct RandomArgs {
    /// Board size, e.g. 4x4 or 20x20
    #[arg(value_name = "RxC")]
    pub board: Shape,
    /// Seed: the same seed gives the same boards (default: from the clock)
    #[arg(long, value_name = "SEED")]
    pub seed: Option<u64>,
    /// How many boards, one per line
    #[arg(long, value_name = "N", default_value = "1", value_parser = at_least_one_u64)]
    pub count: u64,
    /// Goal blank cell the boards must be able to reach: last, first, center or R,C
    #[arg(long, value_name = "CELL", default_value = "last")]
    pub blank: GoalBlank,
    /// Print one JSON document (board, goal blank, seed, boards) instead of lines
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct PlotArgs {
    /// Directory holding summary.csv and the boards' depths.csv
    #[arg(long, value_name = "DIR", default_value = "results")]
    pub results: PathBuf,
    /// Directory for the charts (default: RESULTS/plots)
    #[arg(long, value_name = "DIR")]
    pub charts: Option<PathBuf>,
    #[command(flatten)]
    pub old_out: OldOut,
    /// svg: SVG files (plotters); pgfplots: LaTeX code (a tikzpicture per file, for \input
    /// in a paper with the pgfplots package), which LaTeX typesets as vector graphics
    #[arg(long, value_enum, default_value_t = PlotFormat::Svg)]
    pub format: PlotFormat,
    /// Draw the overlay of all boards on a log scale too (overlay-log.svg)
    #[arg(long)]
    pub log: bool,
    #[command(flatten)]
    pub selection: Selection,
    /// Draw the atlas (atlas.csv, written by `tilespace atlas`) instead: each board and metric
    /// as a grid of its goal cells shaded by eccentricity and by mean (atlas-RxC-METRIC.svg)
    #[arg(long, conflicts_with_all = ["log", "blank", "reports"])]
    pub atlas: bool,
}

/// Which of the analysed searches `plot` and `table` show: the words `analyze` and `atlas`
/// take (`--boards` the sizes, `--metric`, `--blank`), each narrowing the others; or
/// `--reports`, the searches' report folders.
#[derive(Args, Debug)]
pub struct Selection {
    /// Board sizes to show, comma-separated, in that order: every search of each that
    /// --metric and --blank keep [default: all]
    #[arg(long, value_name = "RxC,...", value_delimiter = ',', value_parser = clap::value_parser!(Shape))]
    pub boards: Vec<Shape>,
    /// The searches to show, by their report folders, comma-separated, in that order
    /// (2x3,3x3-blank-1-1,3x3-multi)
    #[arg(long, value_name = "FOLDER,...", value_delimiter = ',', conflicts_with_all = ["boards", "metric", "blank"])]
    pub reports: Vec<String>,
    /// How moves are counted: single, multi or both (see `analyze --metric`)
    #[arg(long, value_name = "METRIC", default_value = "both", value_parser = metric_choice)]
    pub metric: MetricChoice,
    /// Only the searches toward this goal blank cell: last, first, center or R,C (1-based);
    /// repeat for several [default: every one]
    #[arg(long, value_name = "CELL")]
    pub blank: Vec<GoalBlank>,
}

/// The formats of `tilespace plot`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlotFormat {
    Svg,
    Pgfplots,
}

/// The formats of `tilespace table`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableFormat {
    Markdown,
    Latex,
    Csv,
    Json,
}

#[derive(Args, Debug)]
pub struct TableArgs {
    /// Directory holding summary.csv (and theorem.csv, the boards' depths.csv)
    #[arg(long, value_name = "DIR", default_value = "results")]
    pub results: PathBuf,
    /// Output format (LaTeX: a table float that fits a one-column article page, with booktabs
    /// and siunitx)
    #[arg(long, value_enum, default_value_t = TableFormat::Markdown)]
    pub format: TableFormat,
    /// The same as --format json
    #[arg(long, conflicts_with = "format")]
    pub json: bool,
    /// Columns of the summary, comma-separated, or all: the fields of summary.csv, which CSV
    /// headers and JSON keys repeat: board, goal_blank, start, class, metric, states, verified,
    /// eccentricity, antipodes, depth_sum, mean_depth_exact, mean_depth, median_depth,
    /// max_width, depth_of_max_width [default: board,goal_blank,states,eccentricity,antipodes,
    /// mean_depth_exact,mean_depth; CSV and JSON: all]
    #[arg(long, value_name = "LIST", conflicts_with_all = ["distribution", "theorem"])]
    pub columns: Option<String>,
    #[command(flatten)]
    pub selection: Selection,
    /// The states at each depth, one column per board, instead of the summary
    #[arg(long)]
    pub distribution: bool,
    /// The counting theorem (theorem.csv) instead of the summary
    #[arg(long, conflicts_with_all = ["distribution", "boards", "metric", "blank", "reports"])]
    pub theorem: bool,
    /// The atlas (atlas-summary.csv, written by `tilespace atlas`): each board's diameter,
    /// radius and mean distance in each metric, instead of the summary
    #[arg(long, conflicts_with_all = ["distribution", "theorem", "columns", "blank", "reports"])]
    pub atlas: bool,
    /// With --atlas: each class of goal cells (atlas.csv), its eccentricity and mean
    #[arg(long, requires = "atlas")]
    pub cells: bool,
}

#[derive(Args, Debug)]
pub struct ManArgs {
    /// The page of this subcommand (default: the main page, tilespace.1)
    #[arg(value_name = "SUBCOMMAND")]
    pub subcommand: Option<String>,
    /// Write every page (tilespace.1, tilespace-analyze.1, ...) to this directory instead
    #[arg(long, value_name = "DIR", conflicts_with = "subcommand")]
    pub dir: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct CheckArgs {
    /// Directory holding summary.csv and the boards' depths.csv
    #[arg(long, value_name = "DIR", default_value = "results")]
    pub results: PathBuf,
    /// Print one JSON document instead of the table
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct AntipodesArgs {
    /// Board sizes (default: every board in the reports' summary.csv searched from the goal);
    /// a board not analysed yet is analysed first
    #[arg(value_name = "RxC")]
    pub boards: Vec<Shape>,
    /// Goal blank cell: last, first, center or R,C (1-based)
    #[arg(long, value_name = "CELL", default_value = "last")]
    pub blank: GoalBlank,
    #[command(flatten)]
    pub run: RunArgs,
    /// Print one JSON document instead of text
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct PlanArgs {
    /// Board sizes, e.g. 3x5 4x4 2x8
    #[arg(value_name = "RxC", required = true)]
    pub boards: Vec<Shape>,
    /// Ranks of the planned run (several: comma-separated)
    #[arg(long, value_name = "P,...", value_delimiter = ',', default_value = "16", value_parser = rank_count)]
    pub ranks: Vec<usize>,
    /// Memory of one rank (e.g. 64G): also say how many such ranks each board needs
    #[arg(long, value_name = "SIZE", value_parser = memory::parse_size)]
    pub mem_per_rank: Option<u64>,
    /// Random states sampled to measure the moves that cross ranks
    #[arg(long, value_name = "N", default_value = "1000000", value_parser = plan_samples)]
    pub samples: usize,
    /// Measure this machine's engine rates first (a one-rank search of --calibration-board) and
    /// save them to the calibration file
    #[arg(long)]
    pub calibrate: bool,
    /// The board --calibrate searches (2x6: 3 s; 2x7: a 10.9 GB table, memory-bound, 15 min)
    #[arg(long, value_name = "RxC", default_value = "2x6")]
    pub calibration_board: Shape,
    /// The calibration file the projection reads (and --calibrate writes)
    #[arg(long, value_name = "FILE", default_value = "results/calibration.csv")]
    pub calibration: PathBuf,
    /// Threads of each rank of the planned run (with --disk: of its one process)
    #[arg(long, visible_alias = "threads", value_name = "N", default_value = "32", value_parser = planned_threads)]
    pub threads_per_rank: usize,
    /// Plan a search with its table on disk in one process (`analyze --disk`): the shards, the
    /// disk it needs, the bytes it moves and its time at --disk-gbps
    #[arg(long, conflicts_with_all = ["sbatch", "mem_per_rank", "ranks", "network_gbits"])]
    pub disk: bool,
    /// With --disk: the memory the search may hold (default: this machine's available memory)
    #[arg(long, value_name = "SIZE", value_parser = memory::parse_size, requires = "disk")]
    pub max_memory: Option<u64>,
    /// With --disk: what the disk reads and writes per second, in gigabytes
    #[arg(long, value_name = "GB", default_value = "3", requires = "disk", value_parser = disk_rate)]
    pub disk_gbps: f64,
    /// Layers of the search (the goal's eccentricity + 1): 4x4 has 81 (Korf and Schultze 2005)
    #[arg(long, value_name = "N", default_value = "100", value_parser = layer_count)]
    pub layers: u32,
    /// What each rank sends per second, in gigabits (the interconnect)
    #[arg(long, value_name = "GBIT", default_value = "100", value_parser = network_rate)]
    pub network_gbits: f64,
    /// Print a Slurm job script for the board on --ranks ranks (docs/slurm/analyze.sbatch with
    /// its #SBATCH lines filled in: memory, time limit, threads), instead of the plan
    #[arg(long, conflicts_with = "json")]
    pub sbatch: bool,
    /// The job's time limit (with --sbatch), e.g. 24h, 2d
    #[arg(long, value_name = "DURATION", default_value = "24h", value_parser = memory::parse_duration)]
    pub time_limit: Duration,
    /// Ranks on one node (with --sbatch)
    #[arg(long, value_name = "N", default_value = "1", value_parser = at_least_one)]
    pub ranks_per_node: usize,
    /// Print one JSON document on stdout instead of text
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct CompletionsArgs {
    /// The shell
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

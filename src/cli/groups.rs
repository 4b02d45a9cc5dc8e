//! Groups of options several commands take, flattened into their arguments: the run of an
//! enumeration (`RunArgs`) and the choice of analysed searches (`Selection`).

use std::path::PathBuf;

use clap::Args;
use tilespace::analysis::memory;
use tilespace::{GoalBlank, Shape};

use super::values::{metric_choice, thread_count, MetricChoice};

/// Options shared by the commands that enumerate boards.
#[derive(Args, Debug)]
pub struct RunArgs {
    /// Directory of the reports, written here and read back (as `plot`, `table` and `check`
    /// read them)
    #[arg(long = "results", value_name = "DIR", default_value = "results")]
    pub results: PathBuf,
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
    /// Only the searches toward this goal blank cell: last, first, center, R,C or a cell number (1-based);
    /// repeat for several [default: every one]
    #[arg(long, value_name = "CELL")]
    pub blank: Vec<GoalBlank>,
}

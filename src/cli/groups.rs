//! Groups of options several commands take, flattened into their arguments: the run of an
//! enumeration (`RunArgs`), the choice of analysed searches (`Selection`) and the former
//! `--out` (`OldOut`).

use std::path::PathBuf;

use clap::Args;
use tilespace::analysis::memory;
use tilespace::{GoalBlank, Shape};

use super::outcome::BadArgument;
use super::values::{metric_choice, thread_count, MetricChoice};

/// `--out`, formerly a word of three meanings (the reports' folder in `analyze`, the
/// charts' in `plot`, the databases' in `pdb`): taken, hidden, where it meant another folder
/// than the reports', only to say which word to use now.
#[derive(Args, Debug)]
pub struct OldOut {
    #[arg(long = "out", value_name = "DIR", hide = true)]
    pub old_out: Option<PathBuf>,
}

impl OldOut {
    /// An error saying where `what` goes now (`--charts DIR`), if `--out` was given.
    pub fn refuse(&self, what: &str) -> Result<(), BadArgument> {
        match &self.old_out {
            Some(_) => Err(BadArgument(format!(
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

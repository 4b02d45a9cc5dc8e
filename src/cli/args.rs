//! The command line (clap derive): the commands, each with its arguments beside it
//! (`cmd_*.rs`), their values parsed and checked by clap's value parsers (`values`); what
//! depends on several arguments together is checked by each command before it does anything.

use clap::{Parser, Subcommand};

use super::cmd_analyze::AnalyzeArgs;
use super::cmd_antipodes::AntipodesArgs;
use super::cmd_atlas::AtlasArgs;
use super::cmd_bench::BenchArgs;
use super::cmd_check::CheckArgs;
use super::cmd_count::CountArgs;
use super::cmd_docs::{CompletionsArgs, ManArgs};
use super::cmd_pdb::PdbArgs;
use super::cmd_plan::PlanArgs;
use super::cmd_plot::PlotArgs;
use super::cmd_query::QueryArgs;
use super::cmd_random::RandomArgs;
use super::cmd_sample::SampleArgs;
use super::cmd_solvable::SolvableArgs;
use super::cmd_table::TableArgs;
use super::cmd_theorem::TheoremArgs;

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
        .help("The table written by `analyze RxC --save-table FILE` (or give --pdb DIR)")),
        // `solve`'s option: the answers of `distance` are always optimal (given, it is
        // refused with that reason).
        mut_arg("optimal", |a| a.hide(true)))]
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

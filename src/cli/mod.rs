//! The thin command-line layer: each subcommand turns its arguments into library calls.
//!
//! The command list is `args`; each command's file is named for it (`cmd_analyze` with
//! `analyze_tokens` for a goal of tokens,
//! `cmd_antipodes`, `cmd_atlas` (boards and graphs), `cmd_bench`, `cmd_check`,
//! `cmd_count`, `cmd_docs`, `cmd_pdb`, `cmd_plan`, `cmd_plot`, `cmd_query` for `distance` and
//! `solve` with `query_tokens` for a table of tokens, `cmd_random`, `cmd_sample`, `cmd_solvable`, `cmd_table`, `cmd_theorem` with
//! `theorem_graph` for graphs). What several share: option groups (`groups`) and values
//! (`values`), which searches `plot` and `table` show (`selection`), what commands read from
//! files (`input`), advice for refused arguments (`advice`), how a command ends (`outcome`), what it prints (`output`), progress
//! bars (`progress`), signals (`signals`), threads and seeds (`setup`), and the ranks of a
//! distributed run (`ranks`).

mod advice;
mod analyze_tokens;
pub mod args;
mod cmd_analyze;
mod cmd_antipodes;
mod cmd_atlas;
mod cmd_bench;
mod cmd_check;
mod cmd_count;
mod cmd_docs;
mod cmd_pdb;
mod cmd_plan;
mod cmd_plot;
mod cmd_query;
mod cmd_random;
mod cmd_sample;
mod cmd_solvable;
mod cmd_table;
mod cmd_theorem;
mod groups;
mod input;
mod outcome;
mod output;
mod progress;
mod query_tokens;
mod ranks;
mod selection;
mod setup;
mod signals;
mod theorem_graph;
mod values;

use anyhow::Result;

use args::{Cli, Command};
use clap::CommandFactory;

pub use advice::advice;
pub use outcome::{BadArgument, Status, Stopped};
pub use output::{counted, print_json, printable};
pub use ranks::{agree, Ranks};
pub use selection::analysed;
pub use setup::{check_address_space, global_pool, seed_or_clock, thread_pool};
#[cfg(feature = "mpi")]
pub use signals::mpi_launched;
pub use signals::{signals_settled, stop_on_signal};

/// Runs a parsed command line. Under an MPI launcher (`ranks` is some group), `analyze` runs
/// across the ranks; the other commands are refused, since each rank would do the same work.
pub fn run(cli: Cli, ranks: Ranks) -> Result<Status> {
    if let (Some(group), false) = (ranks, matches!(cli.command, Command::Analyze(_))) {
        if group.size() > 1 {
            anyhow::bail!(BadArgument(
                "only `analyze` runs across MPI ranks: run the other commands without mpirun"
                    .into()
            ));
        }
    }
    match cli.command {
        Command::Analyze(a) => match a.goal.clone() {
            Some(goal) => analyze_tokens::run(&a, &goal, ranks),
            None => cmd_analyze::run(a, ranks),
        },
        Command::Solvable(a) => cmd_solvable::run(a),
        Command::Count(a) => cmd_count::run(a),
        Command::Bench(a) => cmd_bench::run(a),
        Command::Theorem(a) => cmd_theorem::run(a),
        Command::Distance(a) if query_tokens::asked(&a) => query_tokens::run(&a, false),
        Command::Solve(a) if query_tokens::asked(&a) => query_tokens::run(&a, true),
        Command::Distance(a) => cmd_query::run(a, false),
        Command::Solve(a) => cmd_query::run(a, true),
        Command::Random(a) => cmd_random::run(a),
        Command::Plot(a) => cmd_plot::run(a),
        Command::Pdb(a) => cmd_pdb::run(a),
        Command::Sample(a) => cmd_sample::run(a),
        Command::Plan(a) => cmd_plan::run(a),
        Command::Table(a) => cmd_table::run(a),
        Command::Check(a) => cmd_check::run(a),
        Command::Antipodes(a) => cmd_antipodes::run(a),
        Command::Atlas(a) => cmd_atlas::run(a),
        Command::Completions(a) => cmd_docs::completions(a, Cli::command()),
        Command::Man(a) => cmd_docs::man(a, Cli::command()),
    }
}

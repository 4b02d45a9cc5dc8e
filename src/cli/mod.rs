//! The thin command-line layer: each subcommand turns its arguments into library calls.

pub mod args;
mod cmd_analyze;
mod cmd_bench;
mod cmd_count;
mod cmd_solvable;
mod progress;

use anyhow::Result;

use args::{Cli, Command};

/// Runs a parsed command line; returns the exit status.
pub fn run(cli: Cli) -> Result<i32> {
    match cli.command {
        Command::Analyze(a) => cmd_analyze::run(a),
        Command::Solvable(a) => cmd_solvable::run(a),
        Command::Count(a) => cmd_count::run(a),
        Command::Bench(a) => cmd_bench::run(a),
    }
}

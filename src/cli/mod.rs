//! The thin command-line layer: each subcommand turns its arguments into library calls.

pub mod args;
mod cmd_analyze;
mod cmd_antipodes;
mod cmd_bench;
mod cmd_count;
mod cmd_docs;
mod cmd_plot;
mod cmd_query;
mod cmd_random;
mod cmd_solvable;
mod cmd_table;
mod cmd_theorem;
mod progress;

use anyhow::Result;

use args::{Cli, Command};

/// How a command ended without an error: `Done`, or `No` for a negative answer (a board not
/// solvable, a check that did not hold). `main` turns it into the exit status.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Done,
    No,
}

impl Status {
    /// `Done` if `ok`, else `No`.
    pub fn of(ok: bool) -> Status {
        if ok {
            Status::Done
        } else {
            Status::No
        }
    }
}

/// A run stopped on request after saving a checkpoint: what to type to go on.
#[derive(Debug)]
pub struct Stopped(pub String);

impl std::fmt::Display for Stopped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Stopped {}

/// Runs a parsed command line.
pub fn run(cli: Cli) -> Result<Status> {
    match cli.command {
        Command::Analyze(a) => cmd_analyze::run(a),
        Command::Solvable(a) => cmd_solvable::run(a),
        Command::Count(a) => cmd_count::run(a),
        Command::Bench(a) => cmd_bench::run(a),
        Command::Theorem(a) => cmd_theorem::run(a),
        Command::Distance(a) => cmd_query::run(a, false),
        Command::Solve(a) => cmd_query::run(a, true),
        Command::Random(a) => cmd_random::run(a),
        Command::Plot(a) => cmd_plot::run(a),
        Command::Table(a) => cmd_table::run(a),
        Command::Antipodes(a) => cmd_antipodes::run(a),
        Command::Completions(a) => cmd_docs::completions(a),
        Command::Man => cmd_docs::man(),
    }
}

/// A worker pool of `threads` threads (all cores if `None`).
pub fn thread_pool(threads: Option<usize>) -> Result<rayon::ThreadPool> {
    let threads =
        threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    use anyhow::Context;
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .context("cannot start the worker threads")
}

/// Prints one JSON document on stdout (the `--json` output of every command).
pub fn print_json(doc: &impl serde::Serialize) -> Result<()> {
    // Rendered first, so that a closed pipe reaches `main` as the io::Error it is.
    let text = serde_json::to_string_pretty(doc)? + "\n";
    use std::io::Write;
    std::io::stdout().lock().write_all(text.as_bytes())?;
    Ok(())
}

/// The rows of `results/summary.csv`; an error saying what to run if there are none.
pub fn analysed(results: &std::path::Path) -> Result<Vec<tilespace::report::SummaryRow>> {
    let summary = results.join("summary.csv");
    let rows = tilespace::report::read_summary(&summary)?;
    if rows.is_empty() {
        anyhow::bail!(tilespace::Error::Argument(format!(
            "no boards in {}: run `tilespace analyze RxC --out {}` first",
            summary.display(),
            results.display()
        )));
    }
    Ok(rows)
}

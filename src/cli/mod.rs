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

/// Runs a parsed command line; returns the exit status.
pub fn run(cli: Cli) -> Result<i32> {
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

/// A worker pool of `threads` threads (all cores if `None`); 0 is refused.
pub fn thread_pool(threads: Option<usize>) -> Result<rayon::ThreadPool> {
    let threads = match threads {
        Some(0) => anyhow::bail!(tilespace::Error::Argument(
            "--threads must be at least 1".into()
        )),
        Some(n) => n,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    use anyhow::Context;
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .context("cannot start the worker threads")
}

/// Board sizes as given on the command line.
pub fn shapes(names: &[String]) -> Result<Vec<tilespace::Shape>, tilespace::Error> {
    names.iter().map(|b| b.parse()).collect()
}

/// The `--max-memory` value in bytes.
pub fn max_memory(text: Option<&str>) -> Result<Option<u64>, tilespace::Error> {
    text.map(tilespace::memory::parse_size)
        .transpose()
        .map_err(|e| tilespace::Error::Argument(format!("--max-memory: {e}")))
}

/// Prints one JSON document on stdout (the `--json` output of every command).
pub fn print_json(doc: &impl serde::Serialize) -> Result<()> {
    // Rendered first, so that a closed pipe reaches `main` as the io::Error it is.
    let text = serde_json::to_string_pretty(doc)? + "\n";
    use std::io::Write;
    std::io::stdout().lock().write_all(text.as_bytes())?;
    Ok(())
}

/// Parses `5m`, `90s`, `1h`, `250ms` or `0` (seconds without a unit).
pub fn parse_duration(text: &str) -> Result<std::time::Duration, String> {
    let t = text.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let num: f64 = num
        .parse()
        .map_err(|_| format!("'{text}' is not a duration like 5m, 90s or 1h"))?;
    let seconds = match unit.trim() {
        "" | "s" => num,
        "ms" => num / 1e3,
        "m" | "min" => num * 60.0,
        "h" => num * 3600.0,
        _ => return Err(format!("'{text}' has an unknown unit (use ms, s, m or h)")),
    };
    Ok(std::time::Duration::from_secs_f64(seconds))
}

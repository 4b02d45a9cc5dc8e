//! The thin command-line layer: each subcommand turns its arguments into library calls.

mod advice;
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
mod machine;
mod progress;
mod selection;

use anyhow::Result;

use args::{Cli, Command};

pub use advice::advice;

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

/// `n` and `noun`, in the plural unless `n` is 1: `1 move`, `2 moves`, `0 moves`.
pub fn counted(n: u64, noun: &str) -> String {
    match n {
        1 => format!("1 {noun}"),
        n => format!("{n} {noun}s"),
    }
}

/// An argument the command line refuses (exit status 2): a value out of range, options that
/// contradict each other, a file that does not fit what was asked. The library's own
/// refusals are its `Error`s; these are the tool's.
#[derive(Debug, thiserror::Error)]
#[error("bad argument: {0}")]
pub struct BadArgument(pub String);

/// The ranks this process shares a distributed run with: `None` for an ordinary run.
pub type Ranks<'a> = Option<&'a dyn tilespace::dist::Group>;

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
        Command::Analyze(a) => cmd_analyze::run(a, ranks),
        Command::Solvable(a) => cmd_solvable::run(a),
        Command::Count(a) => cmd_count::run(a),
        Command::Bench(a) => cmd_bench::run(a),
        Command::Theorem(a) => cmd_theorem::run(a),
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
        Command::Completions(a) => cmd_docs::completions(a),
        Command::Man(a) => cmd_docs::man(a),
    }
}

/// Set once the run has stopped and says how to go on: a signal then arriving (mpirun aborting
/// the job because another rank exited first with the stop status) is not announced.
static SETTLED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// The run has stopped where a signal asked: a later first signal goes unannounced.
pub fn signals_settled() {
    SETTLED.store(true, std::sync::atomic::Ordering::SeqCst);
}

/// A flag that the first stop signal sets, saying `stopping: {what}` (the work then stops
/// where it can without losing anything); a second one stops at once (exit 130). The stop
/// signals: Ctrl-C (SIGINT), SIGTERM and SIGHUP, and SIGUSR1, the one batch schedulers are
/// asked to send before a job's time limit (Slurm's `--signal=USR1@SECONDS`; mpirun forwards
/// it to every rank). One handler per process: the first caller's message stays.
pub fn stop_on_signal(what: &'static str) -> Result<&'static std::sync::atomic::AtomicBool> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM, SIGUSR1};
    use std::sync::atomic::{AtomicBool, Ordering};
    static STOP: AtomicBool = AtomicBool::new(false);
    static HANDLED: std::sync::Once = std::sync::Once::new();
    let mut failed = None;
    HANDLED.call_once(|| {
        match signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP, SIGUSR1]) {
            Ok(mut signals) => {
                std::thread::spawn(move || {
                    for _ in signals.forever() {
                        if STOP.swap(true, Ordering::SeqCst) {
                            std::process::exit(130);
                        }
                        if launcher_rank().unwrap_or(0) == 0 && !SETTLED.load(Ordering::SeqCst) {
                            eprintln!("tilespace: stopping: {what}");
                        }
                    }
                });
            }
            Err(e) => failed = Some(e),
        }
    });
    match failed {
        Some(e) => Err(anyhow::anyhow!("cannot handle stop signals: {e}")),
        None => Ok(&STOP),
    }
}

/// This process's rank in the job, as its launcher tells it (OpenMPI's mpirun, MPICH's
/// mpiexec, Slurm's srun), read from the environment before MPI is initialised: a signal
/// reaches every rank, and only the first says so.
fn launcher_rank() -> Option<u64> {
    [
        "OMPI_COMM_WORLD_RANK",
        "PMI_RANK",
        "PMIX_RANK",
        "SLURM_PROCID",
    ]
    .iter()
    .find_map(|v| std::env::var(v).ok()?.parse().ok())
}

/// Whether this process was started by an MPI launcher (mpirun, mpiexec, srun with PMI): only
/// then is MPI initialised, so that a plain `tilespace analyze` runs as usual.
#[cfg(feature = "mpi")]
pub fn mpi_launched() -> bool {
    [
        "OMPI_COMM_WORLD_SIZE",
        "PMI_SIZE",
        "PMIX_RANK",
        "PMI_RANK",
        "MPI_LOCALNRANKS",
    ]
    .iter()
    .any(|v| std::env::var_os(v).is_some())
}

/// `text` fit for one line of a terminal: control characters (escape codes, line breaks)
/// escaped, each run of more than `LONGEST_WORD` characters without a space (a 100 MB token
/// of a board file, say) cut to its start and end, and the whole to at most 1000 characters.
pub fn printable(text: &str) -> String {
    const LONGEST_WORD: usize = 120;
    let mut out = String::with_capacity(text.len().min(4096));
    for (i, word) in text.split(' ').enumerate() {
        if i > 0 {
            out.push(' ');
        }
        let chars = word.chars().count();
        let escape = |out: &mut String, s: &str| {
            for c in s.chars() {
                if c.is_control() {
                    out.extend(c.escape_default());
                } else {
                    out.push(c);
                }
            }
        };
        if chars <= LONGEST_WORD {
            escape(&mut out, word);
        } else {
            let head: String = word.chars().take(LONGEST_WORD / 2).collect();
            let tail: String = word.chars().skip(chars - 20).collect();
            escape(&mut out, &head);
            out += &format!("…[{} characters cut]…", chars - LONGEST_WORD / 2 - 20);
            escape(&mut out, &tail);
        }
    }
    // A message of many words (a board of thousands of tiles) keeps its start and its end.
    const LONGEST: usize = 1000;
    let chars = out.chars().count();
    if chars > LONGEST {
        let head: String = out.chars().take(LONGEST - 200).collect();
        let tail: String = out.chars().skip(chars - 200).collect();
        out = format!("{head}…[{} characters cut]…{tail}", chars - LONGEST);
    }
    out
}

/// Whether every rank got `Ok` (a collective: every rank must call it at the same point); a
/// rank whose own result was fine gets an error when another's was not, so that all stop.
pub fn agree<T>(ranks: Ranks, result: Result<T>) -> Result<T> {
    let Some(group) = ranks else {
        return result;
    };
    let failed = group.max(u64::from(result.is_err()));
    match result {
        Ok(_) if failed != 0 => Err(anyhow::Error::new(OtherRank)),
        r => r,
    }
}

/// Another rank of a distributed run failed (it says why); this one stops too.
#[derive(Debug)]
pub struct OtherRank;

impl std::fmt::Display for OtherRank {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("another rank failed")
    }
}

impl std::error::Error for OtherRank {}

/// `seed`, or one from the clock, which is then printed on stderr (so that the run can be
/// repeated with `--seed`).
pub fn seed_or_clock(seed: Option<u64>) -> u64 {
    seed.unwrap_or_else(|| {
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        eprintln!("seed {seed}");
        seed
    })
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

/// Sizes rayon's global pool (`threads`, all cores if `None`): the pool of a distributed run,
/// whose search runs on the main thread (the one that calls MPI).
pub fn global_pool(threads: Option<usize>) -> Result<()> {
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(n) = threads {
        builder = builder.num_threads(n);
    }
    use anyhow::Context;
    builder
        .build_global()
        .context("cannot start the worker threads")
}

/// Prints one JSON document on stdout (the `--json` output of every command).
pub fn print_json(doc: &impl serde::Serialize) -> Result<()> {
    use std::io::Write;
    // Written as it is rendered (a long solution's document runs to gigabytes); a failed write
    // (a closed pipe) reaches `main` as the io::Error it is.
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    serde_json::to_writer_pretty(&mut out, doc).map_err(std::io::Error::from)?;
    writeln!(out)?;
    out.flush()?;
    Ok(())
}

/// The rows of `results/summary.csv`; an error saying what to run if there are none.
pub fn analysed(results: &std::path::Path) -> Result<Vec<tilespace::report::SummaryRow>> {
    let summary = results.join("summary.csv");
    let rows = tilespace::report::read_summary(&summary)?;
    if rows.is_empty() {
        anyhow::bail!(BadArgument(format!(
            "no boards in {}: run `tilespace analyze RxC --results {}` first",
            summary.display(),
            results.display()
        )));
    }
    Ok(rows)
}

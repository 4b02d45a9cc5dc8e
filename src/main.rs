//! The `tilespace` binary: parse arguments, run a command, map errors to exit codes.

mod cli;

use std::process::ExitCode;

use clap::Parser;
use tilespace::{Error, ErrorKind};

/// Exit status of a panic: EX_SOFTWARE, an internal error (sysexits.h).
const BUG: i32 = 70;

fn main() -> ExitCode {
    // No input may panic; should a bug panic all the same, say so in one line and exit 70 on
    // whichever thread it happens (a rayon worker's panic would otherwise surface later as a
    // second, less clear one). RUST_BACKTRACE=1 still gets the backtrace.
    std::panic::set_hook(Box::new(|info| {
        let what = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic".into());
        let at = info
            .location()
            .map_or(String::new(), |l| format!(" at {}:{}", l.file(), l.line()));
        eprintln!(
            "tilespace: internal error (a bug; please report it, with the command, this line and \
             `tilespace --version`: see the README's \"Bugs and citing\"): {what}{at}"
        );
        if std::env::var_os("RUST_BACKTRACE").is_some_and(|v| v != "0") {
            eprintln!("{}", std::backtrace::Backtrace::force_capture());
        }
        std::process::exit(BUG);
    }));
    let args = match cli::args::Cli::try_parse() {
        Ok(args) => args,
        // Arguments clap refused: one line, like every other bad input (its first line, and
        // its tip if it has one). Help and --version go where clap sends them.
        Err(e)
            if e.use_stderr()
                && e.kind() != clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand =>
        {
            let text = e.to_string();
            // The first paragraph (a missing argument is named on the line after the message).
            let head: Vec<&str> = text
                .lines()
                .take_while(|l| !l.trim().is_empty())
                .map(str::trim)
                .collect();
            let line = head.join(" ");
            let tip = text.lines().find_map(|l| l.trim().strip_prefix("tip: "));
            let argv: Vec<String> = std::env::args().collect();
            if let Some(advice) = cli::advice(&e, &argv) {
                eprintln!("tilespace: error: {advice}");
                return ExitCode::from(2);
            }
            match tip {
                Some(tip) => eprintln!("tilespace: {line} ({tip}); see --help"),
                None => eprintln!("tilespace: {line}; see --help"),
            }
            return ExitCode::from(2);
        }
        Err(e) => e.exit(),
    };
    #[cfg(feature = "mpi")]
    let group = if cli::mpi_launched() {
        match tilespace::dist::mpi::MpiGroup::init() {
            Some(g) => Some(g),
            None => {
                eprintln!("tilespace: error: cannot initialise MPI");
                return ExitCode::from(2);
            }
        }
    } else {
        None
    };
    #[cfg(feature = "mpi")]
    let ranks: cli::Ranks = group.as_ref().map(|g| g as &dyn tilespace::dist::Group);
    #[cfg(not(feature = "mpi"))]
    let ranks: cli::Ranks = None;
    let rank = ranks.map_or(0, |g| g.rank());
    // Under a tight `ulimit -v`, refused in one line before any thread or buffer is had (the
    // pools check again for their own thread counts; rayon's global pool, which some
    // parallel work uses, has a thread a core).
    if let Err(err) = cli::check_address_space(None) {
        return failed(&err, rank);
    }
    match cli::run(args, ranks) {
        Ok(cli::Status::Done) => ExitCode::SUCCESS,
        Ok(cli::Status::No) => ExitCode::from(1),
        Err(err) => failed(&err, rank),
    }
}

/// Says why the command failed on stderr, in one line, and gives the exit status. The first
/// rank of a distributed run speaks; another only of a failure of its own files (a shard it
/// could not read), prefixed with its rank: other errors are every rank's.
fn failed(err: &anyhow::Error, rank: usize) -> ExitCode {
    // A closed pipe (`tilespace ... | head`) is not an error.
    if err.chain().any(|e| {
        e.downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
    }) {
        return ExitCode::SUCCESS;
    }
    let own_files = err.downcast_ref::<Error>().and_then(Error::path).is_some();
    let prefix = if rank == 0 {
        String::new()
    } else {
        format!("rank {rank}: ")
    };
    // Errors quote what the user gave and what files hold: printed on one line, cut and
    // escaped (`cli::printable`).
    // One write a line: ranks share the launcher's stderr, and `eprintln!` writes a line in
    // pieces that another rank's can land between.
    let say = |text: String| {
        let line = format!("tilespace: {prefix}{}\n", cli::printable(&text));
        let _ = std::io::Write::write_all(&mut std::io::stderr(), line.as_bytes());
    };
    match err.downcast_ref::<cli::Stopped>() {
        _ if rank != 0 && !own_files => {}
        // Not a failure: the run stopped where asked and says how to go on.
        Some(stopped) => say(stopped.to_string()),
        // The library's errors name their cause in their own line; others are chains.
        None if err.is::<Error>() => say(format!("error: {err}")),
        None => say(format!("error: {err:#}")),
    }
    ExitCode::from(exit_code(err))
}

/// 2 for input the user can correct or a file that cannot be read or written, 1 for a failed
/// check or an unsolvable board, 75 for a run that saved its checkpoint when a signal asked it
/// to stop (sysexits' EX_TEMPFAIL: a job script requeues on it, and the run goes on with the
/// command printed), 130 for work a signal stopped without anything to resume (128 + SIGINT, as
/// a shell reports it); 70 (set by the panic hook) for a bug.
fn exit_code(err: &anyhow::Error) -> u8 {
    if err.downcast_ref::<cli::Stopped>().is_some() {
        return 75;
    }
    match err.downcast_ref::<Error>().map(Error::kind) {
        Some(ErrorKind::Bug | ErrorKind::Unsolvable) => 1,
        Some(ErrorKind::Stopped) => 130,
        _ => 2,
    }
}

//! The `tilespace` binary: parse arguments, run a command, map errors to exit codes.

mod cli;

use std::io::ErrorKind;
use std::process::ExitCode;

use clap::Parser;
use tilespace::Error;

fn main() -> ExitCode {
    let args = match cli::args::Cli::try_parse() {
        Ok(args) => args,
        // A value clap's parsers refused: one line, like every other bad input.
        Err(e) if e.kind() == clap::error::ErrorKind::ValueValidation => {
            let text = e.to_string();
            let line = text.lines().next().unwrap_or_default();
            eprintln!("tilespace: {line}");
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
    // Only the first rank of a distributed run speaks; the others end with the same status.
    let speaks = ranks.map_or(true, |g| g.rank() == 0);
    match cli::run(args, ranks) {
        Ok(cli::Status::Done) => ExitCode::SUCCESS,
        Ok(cli::Status::No) => ExitCode::from(1),
        Err(err) => {
            // A closed pipe (`tilespace ... | head`) is not an error.
            if err.chain().any(|e| {
                e.downcast_ref::<std::io::Error>()
                    .is_some_and(|e| e.kind() == ErrorKind::BrokenPipe)
            }) {
                return ExitCode::SUCCESS;
            }
            match err.downcast_ref::<cli::Stopped>() {
                _ if !speaks => {}
                // Not a failure: the run stopped where asked and says how to go on.
                Some(stopped) => eprintln!("tilespace: {stopped}"),
                None => eprintln!("tilespace: error: {err:#}"),
            }
            ExitCode::from(exit_code(&err))
        }
    }
}

/// 2 for input the user can correct, 1 for a failed check or an unsolvable board, 130 for a
/// run stopped by a signal (128 + SIGINT, as a shell reports it).
fn exit_code(err: &anyhow::Error) -> u8 {
    if err.downcast_ref::<cli::Stopped>().is_some() {
        return 130;
    }
    match err.downcast_ref::<Error>() {
        Some(Error::Check(_) | Error::Unsolvable(_)) => 1,
        Some(Error::Interrupted { .. }) => 130,
        Some(_) => 2,
        None => 1,
    }
}

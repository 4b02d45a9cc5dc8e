//! The `tilespace` binary: parse arguments, run a command, map errors to exit codes.

mod cli;

use std::io::ErrorKind;
use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = cli::args::Cli::parse();
    match cli::run(cli) {
        Ok(code) => ExitCode::from(code as u8),
        Err(err) => {
            // A closed pipe (`tilespace ... | head`) is not an error.
            if err.chain().any(|e| {
                e.downcast_ref::<std::io::Error>()
                    .is_some_and(|e| e.kind() == ErrorKind::BrokenPipe)
            }) {
                return ExitCode::SUCCESS;
            }
            match err.downcast_ref::<tilespace::Error>() {
                // Not a failure: the run stopped where asked and says how to go on.
                Some(tilespace::Error::Interrupted(how)) => eprintln!("tilespace: {how}"),
                _ => eprintln!("tilespace: error: {err:#}"),
            }
            let code = err
                .downcast_ref::<tilespace::Error>()
                .map_or(1, |e| e.exit_code());
            ExitCode::from(code as u8)
        }
    }
}

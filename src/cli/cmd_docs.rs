//! `tilespace completions SHELL` and `tilespace man`: generated from the clap definitions.

use anyhow::Result;
use clap::CommandFactory;

use super::args::{Cli, CompletionsArgs};

pub fn completions(args: CompletionsArgs) -> Result<super::Status> {
    let mut cmd = Cli::command();
    // Generated into memory, then written: clap_complete panics on a failed write (a full
    // device), where this returns the error.
    let mut script = vec![];
    clap_complete::generate(args.shell, &mut cmd, "tilespace", &mut script);
    std::io::Write::write_all(&mut std::io::stdout().lock(), &script)?;
    Ok(super::Status::Done)
}

pub fn man() -> Result<super::Status> {
    let page = clap_mangen::Man::new(Cli::command());
    page.render(&mut std::io::stdout().lock())?;
    Ok(super::Status::Done)
}

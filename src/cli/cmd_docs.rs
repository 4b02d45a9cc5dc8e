//! `tilespace completions SHELL` and `tilespace man`: generated from the clap definitions.

use anyhow::Result;
use clap::CommandFactory;

use super::args::{Cli, CompletionsArgs, ManArgs};
use super::BadArgument;

pub fn completions(args: CompletionsArgs) -> Result<super::Status> {
    let mut cmd = Cli::command();
    // Generated into memory, then written: clap_complete panics on a failed write (a full
    // device), where this returns the error.
    let mut script = vec![];
    clap_complete::generate(args.shell, &mut cmd, "tilespace", &mut script);
    std::io::Write::write_all(&mut std::io::stdout().lock(), &script)?;
    Ok(super::Status::Done)
}

/// The man pages: `tilespace.1`, whose SEE ALSO names a page per subcommand, and those pages,
/// `tilespace-analyze.1` and so on. With `--dir`, all of them are written there (atomically);
/// else the page of `subcommand` (or the main one) is printed.
pub fn man(args: ManArgs) -> Result<super::Status> {
    let mut cmd = Cli::command().disable_help_subcommand(true);
    cmd.build();
    let mut pages = vec![];
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        pages.push((
            sub.get_name().to_string(),
            clap_mangen::Man::new(sub.clone()),
        ));
    }
    let main = clap_mangen::Man::new(cmd);
    let render = |page: &clap_mangen::Man| -> Result<Vec<u8>> {
        let mut roff = vec![];
        page.render(&mut roff)?;
        Ok(roff)
    };
    if let Some(dir) = args.dir {
        std::fs::create_dir_all(&dir).map_err(|e| tilespace::Error::Write {
            path: dir.clone(),
            source: e,
        })?;
        let mut out = std::io::stdout().lock();
        for page in std::iter::once(&main).chain(pages.iter().map(|(_, p)| p)) {
            let path = dir.join(page.get_filename());
            tilespace::store::atomic::write_atomic(&path, &render(page)?)?;
            std::io::Write::write_all(&mut out, format!("{}\n", path.display()).as_bytes())?;
        }
        return Ok(super::Status::Done);
    }
    let page = match args.subcommand {
        None => &main,
        Some(name) => {
            &pages
                .iter()
                .find(|(n, _)| *n == name)
                .ok_or_else(|| {
                    let names: Vec<&str> = pages.iter().map(|(n, _)| n.as_str()).collect();
                    BadArgument(format!(
                        "no subcommand {name:?}; the subcommands are {}",
                        names.join(", ")
                    ))
                })?
                .1
        }
    };
    std::io::Write::write_all(&mut std::io::stdout().lock(), &render(page)?)?;
    Ok(super::Status::Done)
}

//! `tilespace completions SHELL` and `tilespace man`: generated from the clap definitions.

use std::path::PathBuf;

use anyhow::Result;
use clap::Args;

use super::BadArgument;

#[derive(Args, Debug)]
pub struct ManArgs {
    /// The page of this subcommand (default: the main page, tilespace.1)
    #[arg(value_name = "SUBCOMMAND")]
    pub subcommand: Option<String>,
    /// Write every page (tilespace.1, tilespace-analyze.1, ...) to this directory instead
    #[arg(long, value_name = "DIR", conflicts_with = "subcommand")]
    pub dir: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct CompletionsArgs {
    /// The shell
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// The completion script of `cmd`, the whole command line (given by the dispatch, which knows
/// every command's arguments).
pub fn completions(args: CompletionsArgs, mut cmd: clap::Command) -> Result<super::Status> {
    // Generated into memory, then written: clap_complete panics on a failed write (a full
    // device), where this returns the error.
    let mut script = vec![];
    clap_complete::generate(args.shell, &mut cmd, "tilespace", &mut script);
    std::io::Write::write_all(&mut std::io::stdout().lock(), &script)?;
    Ok(super::Status::Done)
}

/// The man pages: `tilespace.1`, whose SEE ALSO names a page per subcommand, and those pages,
/// `tilespace-analyze.1` and so on. With `--dir`, all of them are written there (atomically);
/// else the page of `subcommand` (or the main one) is printed. `cmd`: the whole command line.
pub fn man(args: ManArgs, cmd: clap::Command) -> Result<super::Status> {
    let mut cmd = cmd.disable_help_subcommand(true);
    cmd.build();
    // Every page's footer names the program and its version, not the subcommand.
    let source = format!("tilespace {}", cmd.get_version().unwrap_or_default());
    let mut pages = vec![];
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        let man = clap_mangen::Man::new(sub.clone()).source(source.clone());
        pages.push((sub.get_name().to_string(), man, sub.clone()));
    }
    let main = (clap_mangen::Man::new(cmd.clone()), cmd);
    let render = |(page, cmd): (&clap_mangen::Man, &clap::Command)| -> Result<Vec<u8>> {
        let mut roff = vec![];
        page.render(&mut roff)?;
        Ok(with_synopsis(&roff, cmd))
    };
    if let Some(dir) = args.dir {
        std::fs::create_dir_all(&dir).map_err(|e| tilespace::Error::Write {
            path: dir.clone(),
            source: e,
        })?;
        let mut out = std::io::stdout().lock();
        let all = std::iter::once((&main.0, &main.1)).chain(pages.iter().map(|(_, p, c)| (p, c)));
        for page in all {
            let path = dir.join(page.0.get_filename());
            tilespace::store::atomic::write_atomic(&path, &render(page)?)?;
            std::io::Write::write_all(&mut out, format!("{}\n", path.display()).as_bytes())?;
        }
        return Ok(super::Status::Done);
    }
    let page = match args.subcommand {
        None => (&main.0, &main.1),
        Some(name) => {
            let (_, page, sub) = pages.iter().find(|(n, ..)| *n == name).ok_or_else(|| {
                let names: Vec<&str> = pages.iter().map(|(n, ..)| n.as_str()).collect();
                BadArgument(format!(
                    "no subcommand {name:?}; the subcommands are {}",
                    names.join(", ")
                ))
            })?;
            (page, sub)
        }
    };
    std::io::Write::write_all(&mut std::io::stdout().lock(), &render(page)?)?;
    Ok(super::Status::Done)
}

/// `roff` with its SYNOPSIS line replaced by one that shows each option's value
/// (`[--blank CELL]`), which clap_mangen's leaves out (`[--blank]`).
fn with_synopsis(roff: &[u8], cmd: &clap::Command) -> Vec<u8> {
    let text = String::from_utf8_lossy(roff);
    let mut out = String::with_capacity(text.len());
    let mut lines = text.split_inclusive('\n');
    while let Some(line) = lines.next() {
        out.push_str(line);
        if line.trim_end() == ".SH SYNOPSIS" && lines.next().is_some() {
            out.push_str(&synopsis(cmd));
            out.push('\n');
        }
    }
    out.into_bytes()
}

/// One roff line: the command, its options with their values, its arguments, and
/// `SUBCOMMAND` when it has some; optional parts in brackets.
fn synopsis(cmd: &clap::Command) -> String {
    let escape = |s: &str| s.replace('\\', "\\\\").replace('-', "\\-");
    let bold = |s: &str| format!("\\fB{}\\fR", escape(s));
    let italic = |s: &str| format!("\\fI{}\\fR", escape(s));
    let name = cmd.get_bin_name().unwrap_or_else(|| cmd.get_name());
    let mut words = vec![bold(name)];
    for arg in cmd.get_arguments().filter(|a| !a.is_hide_set()) {
        let flag = match (arg.get_short(), arg.get_long()) {
            (Some(s), Some(l)) => format!("{}|{}", bold(&format!("-{s}")), bold(&format!("--{l}"))),
            (Some(s), None) => bold(&format!("-{s}")),
            (None, Some(l)) => bold(&format!("--{l}")),
            (None, None) => continue,
        };
        let takes_value = arg.get_num_args().is_some_and(|n| n.takes_values());
        let value = match arg.get_value_names() {
            Some(names) if takes_value => format!(" {}", italic(&names.join(" "))),
            None if takes_value => format!(" {}", italic(&arg.get_id().to_string().to_uppercase())),
            _ => String::new(),
        };
        let repeat = if matches!(arg.get_action(), clap::ArgAction::Append) {
            "..."
        } else {
            ""
        };
        let (open, close) = if arg.is_required_set() {
            ("", "")
        } else {
            ("[", "]")
        };
        words.push(format!("{open}{flag}{value}{close}{repeat}"));
    }
    for arg in cmd.get_positionals().filter(|a| !a.is_hide_set()) {
        let names = arg.get_value_names().map(|n| n.join(" "));
        let shown = italic(&names.unwrap_or_else(|| arg.get_id().to_string()));
        let many = arg.get_num_args().is_some_and(|n| n.max_values() > 1);
        let repeat = if many { "..." } else { "" };
        let (open, close) = if arg.is_required_set() {
            ("", "")
        } else {
            ("[", "]")
        };
        words.push(format!("{open}{shown}{close}{repeat}"));
    }
    if cmd.has_subcommands() {
        words.push(italic("SUBCOMMAND"));
    }
    words.join(" ")
}

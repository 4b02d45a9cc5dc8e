//! Advice for arguments clap refuses, in the tool's words: an option the command lacks names
//! the commands that take it (clap's own tip, "use '-- --metric'", fits no command here), and a
//! board typed without quotes says to quote it (`solve` and `distance`, which take several
//! boards, say so themselves).

use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::CommandFactory;

use super::args::Cli;

/// The commands that take a board as one positional argument.
const BOARD_COMMANDS: [&str; 3] = ["solvable", "solve", "distance"];

/// The line to print for `e`, refused while parsing `argv` (the program's name first), where
/// the tool has better advice than clap's; None to keep clap's.
pub fn advice(e: &clap::Error, argv: &[String]) -> Option<String> {
    if e.kind() != ErrorKind::UnknownArgument {
        return None;
    }
    let Some(ContextValue::String(arg)) = e.get(ContextKind::InvalidArg) else {
        return None;
    };
    let command = subcommand(argv)?;
    if arg.starts_with('-') {
        let name = arg.split_once('=').map_or(arg.as_str(), |(n, _)| n);
        if let Some(ContextValue::String(like)) = e.get(ContextKind::SuggestedArg) {
            return Some(format!(
                "`{command}` takes no {name}: did you mean {like}? see `tilespace {command} --help`"
            ));
        }
        let which = match commands_taking(name).as_slice() {
            [] => String::new(),
            [one] => format!(" (`{one}` does)"),
            [first @ .., last] => format!(" ({} and {last} do)", first.join(", ")),
        };
        return Some(format!(
            "`{command}` takes no {name}{which}; see `tilespace {command} --help`"
        ));
    }
    if BOARD_COMMANDS.contains(&command.as_str()) {
        return Some(format!(
            "unexpected argument '{arg}': a board is one argument, quoted, as in `tilespace \
             {command} \"8 6 7/2 5 4/3 0 1\"`"
        ));
    }
    if arg.parse::<u64>().is_ok() || arg == "x" {
        return Some(format!(
            "unexpected argument '{arg}': a board size is one word, as in `tilespace {command} 3x3`"
        ));
    }
    None
}

/// The subcommand `argv` names: its first argument not an option.
fn subcommand(argv: &[String]) -> Option<String> {
    argv.iter().skip(1).find(|a| !a.starts_with('-')).cloned()
}

/// The commands with the option `name` (`--metric` or `-n`), in the order of `--help`.
fn commands_taking(name: &str) -> Vec<String> {
    let cli = Cli::command();
    cli.get_subcommands()
        .filter(|c| {
            c.get_arguments().filter(|a| !a.is_hide_set()).any(|a| {
                let long = a
                    .get_long()
                    .is_some_and(|l| name.strip_prefix("--") == Some(l));
                let short = a.get_short().is_some_and(|s| name == format!("-{s}"));
                long || short
            })
        })
        .map(|c| c.get_name().to_string())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_option_is_said_to_belong_to_the_commands_that_take_it() {
        assert_eq!(commands_taking("--charts"), ["plot"]);
        let metric = commands_taking("--metric");
        for c in ["analyze", "atlas", "bench", "plot", "table"] {
            assert!(metric.iter().any(|m| m == c), "{metric:?}");
        }
        assert!(!metric.iter().any(|m| m == "theorem"), "{metric:?}");
        assert!(commands_taking("--nothing").is_empty());
    }
}

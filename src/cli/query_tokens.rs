//! `tilespace distance` and `tilespace solve` with a table of tokens (`analyze --goal TOKENS
//! --save-table FILE`): the exact optimal distance of each arrangement, and an optimal way to
//! the goal, the arrangements one move apart.

use std::io::Write;

use anyhow::{bail, Result};
use tilespace::index::puzzle::Ground;
use tilespace::store::tokens::{is_token_table, TokenTable};
use tilespace::Error;

use super::cmd_query::{
    board_texts, lengths_agree, read_input, skipped_at_end, split_board, JsonAnswer, QueryArgs,
};
use super::{counted, BadArgument};

/// Whether `--table` names a table of tokens (which this command answers from).
pub fn asked(args: &QueryArgs) -> bool {
    args.table.as_deref().is_some_and(is_token_table)
}

/// Answers every arrangement of the command line and `--input` from the table of tokens of
/// `--table`: `No` if one does not reach the goal; bad input is an error (with
/// `--keep-going`, skipped).
pub fn run(args: &QueryArgs, solve: bool) -> Result<super::Status> {
    let path = args.table.as_deref().expect("asked with a table");
    if args.optimal && !solve {
        bail!(BadArgument(
            "--optimal is for `solve`: the answers of `distance` are always optimal".into()
        ));
    }
    let table = TokenTable::open(path)?;
    agrees(args, &table)?;
    if let Some(why) = split_board(&args.boards) {
        bail!(BadArgument(why));
    }
    let input = read_input(args)?;
    let texts = board_texts(args, input.as_deref())?;
    let mut printer = Printer {
        out: std::io::BufWriter::new(std::io::stdout().lock()),
        json: args.json.then(Vec::new),
        csv: args.csv,
        solve,
    };
    printer.header()?;
    let (mut skipped, mut all_solvable) = (0u64, true);
    let (mut agree, mut disagree) = (0usize, vec![]);
    for text in &texts {
        let answer = table
            .parse(&text.text)
            .map(|t| (table.written(&t), table.solve(&t)));
        let (board, way) = match answer {
            Ok(answer) => answer,
            Err(e) if args.keep_going => {
                eprintln!("tilespace: skipped: {}", located(args, text.line, e));
                skipped += 1;
                continue;
            }
            Err(e) => return Err(located(args, text.line, e)),
        };
        let way = match way {
            Ok(way) => way,
            Err(Error::Unsolvable(why)) => {
                all_solvable = false;
                printer.unsolvable(board, why)?;
                continue;
            }
            Err(e @ Error::Board(_)) if args.keep_going => {
                eprintln!("tilespace: skipped: {board}: {e}");
                skipped += 1;
                continue;
            }
            Err(e) => return Err(e.into()),
        };
        let moves = way.len() - 1;
        match text.published {
            Some(length) if length == moves => agree += 1,
            Some(length) => disagree.push(format!("{board}: {moves} moves, {length} given")),
            None => {}
        }
        printer.answer(board, way.iter().map(|t| table.written(t)).collect())?;
    }
    printer.finish()?;
    lengths_agree(args, agree, &disagree)?;
    skipped_at_end(skipped)?;
    Ok(super::Status::of(all_solvable))
}

/// `e`, naming the line of `--input` it is about, if any.
fn located(args: &QueryArgs, line: Option<usize>, e: Error) -> anyhow::Error {
    match (line, &args.input) {
        (Some(n), Some(input)) => anyhow::anyhow!("{}:{n}: {e}", input.display()),
        _ => e.into(),
    }
}

/// Prints the answers on stdout: text, CSV rows, or one JSON document at the end.
struct Printer<'a> {
    out: std::io::BufWriter<std::io::StdoutLock<'a>>,
    /// The JSON document's answers, where it is asked for.
    json: Option<Vec<JsonAnswer>>,
    csv: bool,
    solve: bool,
}

impl Printer<'_> {
    fn header(&mut self) -> Result<()> {
        if self.csv {
            let columns = if self.solve {
                "moves,optimal,path"
            } else {
                "distance"
            };
            writeln!(self.out, "board,solvable,{columns}")?;
        }
        Ok(())
    }

    fn unsolvable(&mut self, board: String, why: String) -> Result<()> {
        if let Some(json) = &mut self.json {
            json.push(JsonAnswer::Unsolvable {
                board,
                solvable: false,
                why,
            });
        } else if self.csv {
            let empty = if self.solve { ",,," } else { "," };
            writeln!(self.out, "{board},false{empty}")?;
        } else {
            writeln!(self.out, "{board}: not solvable: {why}")?;
        }
        Ok(())
    }

    /// The answer of `board`: its way to the goal, the arrangements written.
    fn answer(&mut self, board: String, way: Vec<String>) -> Result<()> {
        let moves = way.len() - 1;
        let out = &mut self.out;
        match (&mut self.json, self.csv, self.solve) {
            (Some(json), _, false) => json.push(JsonAnswer::Distance {
                board,
                solvable: true,
                distance: moves,
                search: None,
            }),
            (Some(json), _, true) => json.push(JsonAnswer::Way {
                board,
                solvable: true,
                moves,
                optimal: true,
                path: way,
            }),
            (None, true, false) => writeln!(out, "{board},true,{moves}")?,
            (None, true, true) => writeln!(out, "{board},true,{moves},true,{}", way.join(";"))?,
            (None, false, false) => writeln!(out, "{board}: {moves}")?,
            (None, false, true) => {
                writeln!(out, "{board}: {} (optimal)", counted(moves as u64, "move"))?;
                for step in &way[1..] {
                    writeln!(out, "  {step}")?;
                }
            }
        }
        Ok(())
    }

    fn finish(mut self) -> Result<()> {
        // A write that fails (a full disk, a closed pipe) is an error, not lost in a drop.
        self.out.flush()?;
        drop(self.out);
        if let Some(answers) = self.json {
            #[derive(serde::Serialize)]
            struct Document {
                answers: Vec<JsonAnswer>,
            }
            super::print_json(&Document { answers })?;
        }
        Ok(())
    }
}

/// Refuses the options a table of tokens answers otherwise: its goal, metric and board are
/// its own, and no pattern database or constructive solver takes tokens.
fn agrees(args: &QueryArgs, table: &TokenTable) -> Result<()> {
    let goal = table.written(table.goal());
    if args.blank.is_some() {
        bail!(BadArgument(format!(
            "--blank: a table of tokens has its goal, {goal}"
        )));
    }
    if let Some(m) = args.metric.filter(|&m| m != table.metric()) {
        bail!(BadArgument(format!(
            "--metric {m}, but the table counts {} moves",
            table.metric().adjective()
        )));
    }
    match (args.shape, table.ground()) {
        (Some(shape), Ground::Board(s)) if shape != *s => bail!(BadArgument(format!(
            "--shape {shape}: the table is for {s}"
        ))),
        (Some(shape), Ground::Graph(_)) => bail!(BadArgument(format!(
            "--shape {shape}: the table is of a graph's tokens"
        ))),
        _ => Ok(()),
    }
}

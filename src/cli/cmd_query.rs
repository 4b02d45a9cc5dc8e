//! `tilespace distance` and `tilespace solve`: questions about single boards. With a saved table
//! the answers are optimal; without one, `solve` builds a solution for any size.

use std::io::{BufRead, Write};

use anyhow::Result;
use tilespace::puzzle::construct;
use tilespace::puzzle::moves::{self, Moves};
use tilespace::store::saved::SavedTable;
use tilespace::{Board, Cell, Error, GoalBlank};

use super::args::QueryArgs;

/// Where the answers come from.
enum Source {
    Table(Box<SavedTable>),
    Construct { goal: GoalBlank },
}

/// One board's answer, as printed.
struct Answer {
    moves: Moves,
    optimal: bool,
    lower_bound: usize,
}

/// Answers every board: `No` if one is not solvable; bad input is an error.
pub fn run(args: QueryArgs, solve: bool) -> Result<super::Status> {
    let source = source(&args, solve)?;
    let (shape, whose) = match &source {
        Source::Table(t) => (Some(t.shape), "the table"),
        Source::Construct { .. } => (args.shape, "--shape"),
    };
    // Every board is parsed before any answer is printed; a bad line of --input is named, and
    // with --keep-going reported and skipped (the status is then 2, after the answers).
    let mut boards = vec![];
    let mut skipped = 0usize;
    for (line, text) in board_texts(&args)? {
        match Board::parse_for(&text, shape, whose) {
            Ok(b) => boards.push(b),
            Err(e) => {
                let e = match (line, &args.input) {
                    (Some(n), Some(path)) => anyhow::anyhow!("{}:{n}: {e}", path.display()),
                    _ => e.into(),
                };
                if !args.keep_going {
                    return Err(e);
                }
                eprintln!("tilespace: skipped: {e:#}");
                skipped += 1;
            }
        }
    }
    if let Source::Construct { .. } = source {
        check_memory(&boards, args.json)?;
    }
    let format = if args.json {
        Format::Json
    } else if args.csv {
        Format::Csv
    } else {
        Format::Text
    };
    let mut printer = Printer {
        out: std::io::stdout().lock(),
        format,
        solve,
        json: vec![],
    };
    printer.header()?;
    let mut all_solvable = true;
    for board in &boards {
        match answer(&source, board) {
            Ok(a) => printer.answer(board, &a)?,
            // One board alone in text gets the error (and its exit status); among several, or
            // in CSV or JSON, it gets a line of its own.
            Err(Error::Unsolvable(why)) if boards.len() > 1 || format != Format::Text => {
                all_solvable = false;
                printer.unsolvable(board, &why)?;
            }
            Err(e) => return Err(e.into()),
        }
    }
    printer.finish()?;
    if skipped > 0 {
        anyhow::bail!(Error::Argument(format!(
            "{skipped} bad board{} skipped (named above); the others were answered",
            if skipped == 1 { "" } else { "s" }
        )));
    }
    Ok(super::Status::of(all_solvable))
}

/// Refuses, before any work, boards whose constructive solutions would not fit in the memory
/// available: the largest one's, beside what the JSON document keeps of the others.
fn check_memory(boards: &[Board], json: bool) -> Result<()> {
    let largest = boards
        .iter()
        .max_by_key(|b| construct::bytes_needed(b.shape()));
    let Some(largest) = largest else {
        return Ok(());
    };
    let mut needed = construct::bytes_needed(largest.shape());
    if json {
        needed += boards
            .iter()
            .map(|b| construct::bytes_kept(b.shape()))
            .sum::<u64>();
    }
    let needed = needed as f64;
    let plural = if boards.len() == 1 { "" } else { "s" };
    tilespace::analysis::memory::room_for(needed, None).map_err(|limit| {
        anyhow::Error::new(Error::NoRoom {
            what: format!(
                "solving {} board{plural} up to {}",
                boards.len(),
                largest.shape()
            ),
            needed: tilespace::analysis::memory::human_bytes(needed),
            limit,
        })
    })
}

/// Where the answers come from: the table (checked against `--blank`), or the constructive
/// solver, which `distance` does not take.
fn source(args: &QueryArgs, solve: bool) -> Result<Source> {
    Ok(match &args.table {
        Some(path) => {
            let table = SavedTable::open(path)?;
            if let Some(shape) = args.shape.filter(|&s| s != table.shape) {
                anyhow::bail!(Error::Argument(format!(
                    "--shape {shape}: the table is for {}",
                    table.shape
                )));
            }
            if let Some(blank) = args.blank {
                if blank.resolve(table.shape)? != table.goal {
                    anyhow::bail!(Error::Argument(format!(
                        "--blank {}: the table's goal blank is {}",
                        table.shape.cell_label(blank.resolve(table.shape)?),
                        table.shape.cell_label(table.goal)
                    )));
                }
            }
            Source::Table(Box::new(table))
        }
        None if solve => Source::Construct {
            goal: args.blank.unwrap_or(GoalBlank::Last),
        },
        None => anyhow::bail!(Error::Argument(
            "distance needs --table FILE (written by `analyze RxC --save-table FILE`); \
             `solve` without a table gives a solution that is not optimal"
                .into()
        )),
    })
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Format {
    Text,
    Csv,
    Json,
}

/// Prints the answers on stdout in the chosen format (JSON: one document at the end).
struct Printer<'a> {
    out: std::io::StdoutLock<'a>,
    format: Format,
    solve: bool,
    json: Vec<JsonAnswer>,
}

/// One answer of the JSON document: typed, so that a long solution's tiles take 4 bytes each
/// until printed (a `serde_json::Value` takes 32).
#[derive(serde::Serialize)]
#[serde(untagged)]
enum JsonAnswer {
    Unsolvable {
        board: String,
        solvable: bool,
        why: String,
    },
    Distance {
        board: String,
        solvable: bool,
        distance: usize,
    },
    Solution {
        board: String,
        solvable: bool,
        moves: usize,
        optimal: bool,
        lower_bound: usize,
        tiles: Vec<u32>,
        blank_moves: String,
    },
}

/// Tile numbers separated by spaces, written as they are formatted (a 290x290 solution has
/// some 10^8 of them: no string of them all is built).
struct Spaced<'a>(&'a [u32]);

impl std::fmt::Display for Spaced<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, t) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{t}")?;
        }
        Ok(())
    }
}

impl Printer<'_> {
    fn header(&mut self) -> Result<()> {
        match (self.format, self.solve) {
            (Format::Csv, true) => writeln!(
                self.out,
                "board,solvable,moves,optimal,lower_bound,tiles,blank_moves"
            )?,
            (Format::Csv, false) => writeln!(self.out, "board,solvable,distance")?,
            _ => {}
        }
        Ok(())
    }

    fn unsolvable(&mut self, board: &Board, why: &str) -> Result<()> {
        match self.format {
            Format::Json => self.json.push(JsonAnswer::Unsolvable {
                board: board.to_string(),
                solvable: false,
                why: why.to_string(),
            }),
            // Every field after `solvable` is empty.
            Format::Csv => {
                let empty = if self.solve { ",,,,," } else { "," };
                writeln!(self.out, "{board},false{empty}")?;
            }
            Format::Text => writeln!(self.out, "{board}: not solvable: {why}")?,
        }
        Ok(())
    }

    fn answer(&mut self, board: &Board, answer: &Answer) -> Result<()> {
        let n = answer.moves.len();
        let tiles = answer.moves.tiles(board)?;
        let blank = &answer.moves;
        if self.format == Format::Json {
            let board = board.to_string();
            self.json.push(match self.solve {
                true => JsonAnswer::Solution {
                    board,
                    solvable: true,
                    moves: n,
                    optimal: answer.optimal,
                    lower_bound: answer.lower_bound,
                    tiles,
                    blank_moves: blank.to_string(),
                },
                false => JsonAnswer::Distance {
                    board,
                    solvable: true,
                    distance: n,
                },
            });
            return Ok(());
        }
        let tiles = Spaced(&tiles);
        let out = &mut self.out;
        match (self.format, self.solve) {
            (Format::Csv, true) => {
                let (lb, opt) = (answer.lower_bound, answer.optimal);
                writeln!(out, "{board},true,{n},{opt},{lb},{tiles},{blank}")?;
            }
            (Format::Csv, false) => writeln!(out, "{board},true,{n}")?,
            (_, true) => {
                let how = if answer.optimal {
                    "optimal".to_string()
                } else {
                    format!(
                        "constructive, not optimal; no solution is shorter than {} (Manhattan)",
                        answer.lower_bound
                    )
                };
                writeln!(out, "{board}: {n} moves ({how}; verified by replay)")?;
                writeln!(out, "  tiles: {tiles}")?;
                writeln!(out, "  blank: {blank}")?;
            }
            (_, false) => writeln!(out, "{board}: {n}")?,
        }
        Ok(())
    }

    fn finish(self) -> Result<()> {
        if self.format == Format::Json {
            drop(self.out);
            #[derive(serde::Serialize)]
            struct Document {
                answers: Vec<JsonAnswer>,
            }
            super::print_json(&Document { answers: self.json })?;
        }
        Ok(())
    }
}

/// The boards named on the command line, then those of `--input` (one per line; blank lines
/// and lines starting with `#` skipped), each with its line number in `--input`.
fn board_texts(args: &QueryArgs) -> Result<Vec<(Option<usize>, String)>> {
    let mut texts: Vec<(Option<usize>, String)> =
        args.boards.iter().map(|b| (None, b.clone())).collect();
    if let Some(path) = &args.input {
        let read = |e| Error::Read {
            path: path.clone(),
            source: e,
        };
        let lines: Vec<String> = if path.as_os_str() == "-" {
            std::io::stdin()
                .lock()
                .lines()
                .collect::<Result<_, _>>()
                .map_err(read)?
        } else {
            std::fs::read_to_string(path)
                .map_err(read)?
                .lines()
                .map(String::from)
                .collect()
        };
        texts.extend(
            lines
                .into_iter()
                .enumerate()
                .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
                .map(|(i, l)| (Some(i + 1), l)),
        );
    }
    if texts.is_empty() {
        anyhow::bail!(Error::Argument(
            "no boards: give BOARD or --input FILE".into()
        ));
    }
    Ok(texts)
}

/// A solution for `board`, replayed to the goal before it is returned.
fn answer(source: &Source, board: &Board) -> Result<Answer, Error> {
    let (answer, goal) = match source {
        Source::Table(table) => {
            let path = table.solve(board)?;
            let a = Answer {
                moves: Moves::of_path(&path),
                optimal: true,
                lower_bound: construct::manhattan(board, table.goal),
            };
            (a, table.goal)
        }
        Source::Construct { goal } => {
            let goal: Cell = goal.resolve(board.shape())?;
            let c = construct::solve(board, goal)?;
            let a = Answer {
                moves: c.moves,
                optimal: false,
                lower_bound: c.lower_bound,
            };
            (a, goal)
        }
    };
    moves::verify(board, &answer.moves, &Board::goal(board.shape(), goal))?;
    Ok(answer)
}

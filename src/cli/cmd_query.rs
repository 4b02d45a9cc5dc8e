//! `tilespace distance` and `tilespace solve`: questions about single boards. With a saved table
//! the answers are optimal; without one, `solve` builds a solution for any size.

use std::io::{BufRead, Write};

use anyhow::Result;
use tilespace::construct;
use tilespace::moves::{self, Moves};
use tilespace::saved::SavedTable;
use tilespace::{Board, Cell, Error, GoalBlank, Shape};

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

/// Exit status 0 if every board was answered, 1 if one is not solvable, 2 for bad input.
pub fn run(args: QueryArgs, solve: bool) -> Result<i32> {
    let source = match &args.table {
        Some(path) => {
            let table = SavedTable::open(path)?;
            if let Some(text) = &args.blank {
                let asked = text.parse::<GoalBlank>()?.resolve(table.shape)?;
                if asked != table.goal {
                    anyhow::bail!(Error::Argument(format!(
                        "--blank {text}: the table's goal blank is {}",
                        table.shape.cell_label(table.goal)
                    )));
                }
            }
            Source::Table(Box::new(table))
        }
        None if solve => Source::Construct {
            goal: args.blank.as_deref().unwrap_or("last").parse()?,
        },
        None => anyhow::bail!(Error::Argument(
            "distance needs --table FILE (written by `analyze RxC --save-table FILE`); \
             `solve` without a table gives a solution that is not optimal"
                .into()
        )),
    };
    let shape = match (&source, &args.shape) {
        (Source::Table(t), _) => Some(t.shape),
        (_, Some(text)) => Some(text.parse::<Shape>()?),
        _ => None,
    };
    let texts = board_texts(&args)?;
    // Every board is parsed before any answer is printed.
    let boards = texts
        .iter()
        .map(|t| Board::parse(t, shape))
        .collect::<Result<Vec<_>, _>>()?;
    let mut out = std::io::stdout().lock();
    if args.csv {
        if solve {
            writeln!(
                out,
                "board,solvable,moves,optimal,lower_bound,tiles,blank_moves"
            )?;
        } else {
            writeln!(out, "board,solvable,distance")?;
        }
    }
    let mut status = 0;
    let mut json = Vec::new();
    for board in &boards {
        let answer = match answer(&source, board) {
            Ok(a) => a,
            Err(Error::Unsolvable(why)) if boards.len() > 1 || args.csv || args.json => {
                status = 1;
                if args.json {
                    json.push(serde_json::json!({
                        "board": board.to_string(), "solvable": false, "why": why,
                    }));
                } else if args.csv {
                    // Every field after `solvable` is empty.
                    let empty = if solve { ",,,,," } else { "," };
                    writeln!(out, "{board},false{empty}")?;
                } else {
                    writeln!(out, "{board}: not solvable: {why}")?;
                }
                continue;
            }
            Err(e) => return Err(e.into()),
        };
        let n = answer.moves.len();
        let tiles = answer.moves.tiles(board)?;
        let blank = &answer.moves;
        if args.json {
            let mut v = serde_json::json!({ "board": board.to_string(), "solvable": true });
            if solve {
                v["moves"] = n.into();
                v["optimal"] = answer.optimal.into();
                v["lower_bound"] = answer.lower_bound.into();
                v["tiles"] = tiles.into();
                v["blank_moves"] = blank.to_string().into();
            } else {
                v["distance"] = n.into();
            }
            json.push(v);
            continue;
        }
        let tiles: Vec<String> = tiles.iter().map(|t| t.to_string()).collect();
        let tiles = tiles.join(" ");
        if args.csv {
            if solve {
                let lb = answer.lower_bound;
                let opt = answer.optimal;
                writeln!(out, "{board},true,{n},{opt},{lb},{tiles},{blank}")?;
            } else {
                writeln!(out, "{board},true,{n}")?;
            }
        } else if solve {
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
        } else {
            writeln!(out, "{board}: {n}")?;
        }
    }
    if args.json {
        drop(out);
        super::print_json(&serde_json::json!({ "answers": json }))?;
    }
    Ok(status)
}

/// The boards named on the command line, then those of `--input` (one per line).
fn board_texts(args: &QueryArgs) -> Result<Vec<String>> {
    let mut texts = args.boards.clone();
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
        texts.extend(lines.into_iter().filter(|l| !l.trim().is_empty()));
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

//! `tilespace distance` and `tilespace solve`: questions about single boards, answered from a
//! saved table.

use std::io::{BufRead, Write};

use anyhow::Result;
use tilespace::saved::SavedTable;
use tilespace::{Board, Error};

use super::args::QueryArgs;

/// Exit status 0 if every board was answered, 1 if one is not solvable, 2 for bad input.
pub fn run(args: QueryArgs, solve: bool) -> Result<i32> {
    let table = SavedTable::open(&args.table)?;
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
    // Every board is parsed before any answer is printed.
    let boards = texts
        .iter()
        .map(|t| Board::parse(t, Some(table.shape)))
        .collect::<Result<Vec<_>, _>>()?;
    let mut out = std::io::stdout().lock();
    if args.csv {
        writeln!(out, "board,distance,tiles,blank_moves")?;
    }
    let mut status = 0;
    for board in &boards {
        let path = match table.solve(board) {
            Ok(p) => p,
            Err(Error::Unsolvable(why)) if boards.len() > 1 || args.csv => {
                status = 1;
                if args.csv {
                    writeln!(out, "{board},unsolvable,,")?;
                } else {
                    writeln!(out, "{board}: not solvable: {why}")?;
                }
                continue;
            }
            Err(e) => return Err(e.into()),
        };
        let (tiles, blank) = moves(&path);
        verify_replay(board, &blank, &path, &Board::goal(table.shape, table.goal))?;
        let d = path.len() - 1;
        let tiles_text: Vec<String> = tiles.iter().map(|t| t.to_string()).collect();
        if args.csv {
            let (t, b) = if solve {
                (tiles_text.join(" "), blank.clone())
            } else {
                (String::new(), String::new())
            };
            writeln!(out, "{board},{d},{t},{b}")?;
        } else if solve {
            writeln!(out, "{board}: {d} moves (optimal, verified by replay)")?;
            writeln!(out, "  tiles: {}", tiles_text.join(" "))?;
            writeln!(out, "  blank: {blank}")?;
        } else {
            writeln!(out, "{board}: {d}")?;
        }
    }
    Ok(status)
}

/// The tile moved at each step, and the blank's moves as U/D/L/R.
fn moves(path: &[Board]) -> (Vec<u32>, String) {
    let cols = path[0].shape().cols;
    path.windows(2)
        .map(|w| {
            let (from, to) = (w[0].blank().0, w[1].blank().0);
            let dir = if to + cols == from {
                'U'
            } else if to == from + cols {
                'D'
            } else if to + 1 == from {
                'L'
            } else {
                'R'
            };
            (w[0].cells()[to], dir)
        })
        .unzip()
}

/// Replays the blank moves from `start`: every move legal, every board as on the path, and the
/// end is the goal of the table.
fn verify_replay(start: &Board, blank: &str, path: &[Board], goal: &Board) -> Result<(), Error> {
    let shape = start.shape();
    let mut here = start.clone();
    for (i, m) in blank.chars().enumerate() {
        let z = here.blank().0;
        let (r, c) = (shape.row(here.blank()), shape.col(here.blank()));
        let to = match m {
            'U' if r > 0 => z - shape.cols,
            'D' if r + 1 < shape.rows => z + shape.cols,
            'L' if c > 0 => z - 1,
            'R' if c + 1 < shape.cols => z + 1,
            _ => return Err(Error::Check(format!("move {m} is illegal from {here}"))),
        };
        here = here.slide(tilespace::Cell(to));
        if here != path[i + 1] {
            return Err(Error::Check(format!("replay diverges at move {}", i + 1)));
        }
    }
    if &here != goal || blank.len() + 1 != path.len() {
        return Err(Error::Check("replay does not end at the goal".into()));
    }
    Ok(())
}

//! `tilespace solvable BOARD`: the verdict with its reasons, by both methods.

use std::io::Write;

use anyhow::Result;
use clap::Args;
use tilespace::GoalBlank;
use tilespace::Shape;
use tilespace::{solvability, Board};

use super::counted;

#[derive(Args, Debug)]
pub struct SolvableArgs {
    /// The board, e.g. "8 6 7/2 5 4/3 0 1", or a flat list with --shape
    pub board: String,
    /// The board's size when it is given as one flat list
    #[arg(long, value_name = "RxC")]
    pub shape: Option<Shape>,
    /// Goal blank cell: last, first, center, R,C or a cell number (1-based)
    #[arg(
        long,
        value_name = "CELL",
        default_value = "last",
        conflicts_with = "goal"
    )]
    pub blank: GoalBlank,
    /// The goal's tokens, a board string whose labels may repeat and that may hold several
    /// blanks (0); the board is then read as tokens too, e.g. "1 2 1/2 0 0" against
    /// "1 1 2/2 0 0"
    #[arg(long, value_name = "TOKENS")]
    pub goal: Option<String>,
    /// Print one JSON document on stdout instead of text
    #[arg(long)]
    pub json: bool,
}

/// Exit status 0 if solvable, 1 if not (like `test`), 2 for bad input.
pub fn run(args: SolvableArgs) -> Result<super::Status> {
    if let Some(goal) = &args.goal {
        return run_tokens(&args, goal);
    }
    let board = Board::parse(&args.board, args.shape)?;
    let goal = args.blank.resolve(board.shape())?;
    let s = solvability(&board, goal);
    let status = super::Status::of(s.solvable);
    if args.json {
        let mut doc = serde_json::to_value(&s)?;
        doc["board"] = board.to_string().into();
        doc["shape"] = board.shape().to_string().into();
        doc["goal_blank"] = board.shape().cell_label(goal).into();
        super::print_json(&doc)?;
        return Ok(status);
    }
    let parity = |n: u64| if n.is_multiple_of(2) { "even" } else { "odd" };
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "{}",
        if s.solvable {
            "solvable"
        } else {
            "not solvable"
        }
    )?;
    writeln!(
        out,
        "board: {} ({}), goal blank {}",
        board,
        board.shape(),
        board.shape().cell_label(goal)
    )?;
    writeln!(
        out,
        "inversions: {} ({})",
        s.inversions,
        parity(s.inversions)
    )?;
    writeln!(
        out,
        "blank row from the bottom: {} (goal blank's: {})",
        s.blank_row_from_bottom, s.goal_row_from_bottom
    )?;
    writeln!(out, "rule: {}", s.rule)?;
    writeln!(
        out,
        "check by permutation sign: the board is an {} permutation of cells and the blank is {} \
         from its goal cell ({}): {}",
        parity(s.sign_parity as u64),
        counted(s.blank_distance as u64, "move"),
        parity(s.blank_distance as u64),
        match (
            board.shape().is_line(),
            s.sign_parity % 2 == s.blank_distance % 2
        ) {
            (true, agree) => {
                if agree {
                    "parities agree (necessary only: on a line the tile order decides)"
                } else {
                    "parities differ, not solvable"
                }
            }
            (false, _) if s.solvable => "parities agree, solvable",
            (false, _) => "parities differ, not solvable",
        }
    )?;
    Ok(status)
}

/// `solvable START --goal TOKENS`: the theorems' verdict on tokens (any size, linear time).
fn run_tokens(args: &SolvableArgs, goal: &str) -> Result<super::Status> {
    use tilespace::puzzle::tokens::Tokens;
    let shape = match args.shape {
        Some(shape) => shape,
        None => Tokens::shape_of(&args.board)?,
    };
    let start = Tokens::parse(&args.board, shape.cells())?;
    let goal = Tokens::parse(goal, shape.cells())?;
    let solvable = tilespace::graph::pebbles::reaches_on_board(shape, &start, &goal)?;
    let status = super::Status::of(solvable);
    let verdict = if solvable { "solvable" } else { "not solvable" };
    if args.json {
        super::print_json(&serde_json::json!({
            "solvable": solvable,
            "board": start.to_string(),
            "shape": shape.to_string(),
            "goal": goal.to_string(),
            "tokens": goal.notation(),
        }))?;
        return Ok(status);
    }
    let mut out = std::io::stdout().lock();
    writeln!(out, "{verdict}")?;
    writeln!(
        out,
        "tokens {} on {shape}, {}",
        goal.notation(),
        super::counted(goal.blanks() as u64, "blank")
    )?;
    Ok(status)
}

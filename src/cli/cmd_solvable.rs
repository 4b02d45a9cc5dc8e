//! `tilespace solvable BOARD`: the verdict with its reasons, by both methods.

use std::io::Write;

use anyhow::Result;
use clap::Args;
use tilespace::puzzle::tokens::Tokens;
use tilespace::GoalBlank;
use tilespace::Shape;
use tilespace::{solvability, Board};

use super::counted;

#[derive(Args, Debug)]
pub struct SolvableArgs {
    /// The board, e.g. "8 6 7/2 5 4/3 0 1", or a flat list with --shape; on a --graph the
    /// token on each vertex in its order; @FILE reads it from FILE (@- standard input)
    pub board: String,
    /// The board's size when it is given as one flat list
    #[arg(long, value_name = "RxC")]
    pub shape: Option<Shape>,
    /// A graph instead of a board, of up to 1048576 vertices (as `count --graph`): the
    /// theorems' verdict in time linear in its vertices and edges
    #[arg(long, value_name = "SPEC", conflicts_with_all = ["shape", "blank"])]
    pub graph: Option<String>,
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
    /// "1 1 2/2 0 0". On a --graph, the token on each vertex in its order (by default tiles
    /// 1, 2, … and the blank on the last vertex). @FILE reads them from FILE
    #[arg(long, value_name = "TOKENS")]
    pub goal: Option<String>,
    /// Print one JSON document on stdout instead of text
    #[arg(long)]
    pub json: bool,
}

/// Exit status 0 if solvable, 1 if not (like `test`), 2 for bad input.
pub fn run(mut args: SolvableArgs) -> Result<super::Status> {
    args.board = super::input::tokens_text(args.board)?;
    args.goal = args.goal.map(super::input::tokens_text).transpose()?;
    if let Some(spec) = &args.graph {
        return run_graph(&args, spec);
    }
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
    let shape = match args.shape {
        Some(shape) => shape,
        None => Tokens::shape_of(&args.board)?,
    };
    let start = Tokens::parse_board(&args.board, shape)?;
    let goal = Tokens::parse_board(goal, shape)?;
    let solvable = tilespace::graph::pebbles::reaches_on_board(shape, &start, &goal)?;
    let tokens = Verdict {
        solvable,
        start: &start,
        goal: &goal,
    };
    tokens.print(args.json, "shape", &shape.to_string())
}

/// `solvable START --graph SPEC [--goal TOKENS]`: the theorems' verdict on a graph, or a
/// one-line refusal where none decides it.
fn run_graph(args: &SolvableArgs, spec: &str) -> Result<super::Status> {
    use tilespace::graph::pebbles;
    use tilespace::graph::Adjacency;
    let g = tilespace::graph::spec::sparse(spec)?;
    let n = g.vertices();
    let start = Tokens::parse(&args.board, n)?;
    let goal = match &args.goal {
        Some(goal) => Tokens::parse(goal, n)?,
        None => Tokens::distinct(n, n - 1),
    };
    let Some(solvable) = pebbles::reaches(&g, &start, &goal)? else {
        let why = pebbles::undecided(&goal);
        anyhow::bail!(super::BadArgument(format!("{spec}: {why}")));
    };
    let tokens = Verdict {
        solvable,
        start: &start,
        goal: &goal,
    };
    tokens.print(args.json, "graph", spec)
}

/// The theorems' verdict on a start of tokens.
struct Verdict<'a> {
    solvable: bool,
    start: &'a Tokens,
    goal: &'a Tokens,
}

impl Verdict<'_> {
    /// Prints it, `key` (`shape` or `graph`) naming where the tokens sit, `on`.
    fn print(&self, json: bool, key: &str, on: &str) -> Result<super::Status> {
        let Verdict {
            solvable,
            start,
            goal,
        } = *self;
        let status = super::Status::of(solvable);
        let verdict = if solvable { "solvable" } else { "not solvable" };
        if json {
            let mut doc = serde_json::json!({
                "solvable": solvable,
                "board": start.to_string(),
            });
            doc[key] = on.into();
            doc["goal"] = goal.to_string().into();
            doc["tokens"] = goal.notation().into();
            super::print_json(&doc)?;
            return Ok(status);
        }
        let mut out = std::io::stdout().lock();
        writeln!(out, "{verdict}")?;
        writeln!(
            out,
            "tokens {} on {}, {}",
            goal.notation(),
            on,
            super::counted(goal.blanks() as u64, "blank")
        )?;
        Ok(status)
    }
}

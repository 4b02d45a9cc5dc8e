//! `tilespace count RxC`: the exact number of configurations, reachable and not.

use std::io::Write;

use anyhow::Result;
use clap::Args;
use tilespace::puzzle::count::{decimal_counts, DecimalCounts};
use tilespace::Shape;

#[derive(Args, Debug)]
pub struct CountArgs {
    /// Board size, e.g. 4x4 or 10x10
    #[arg(value_name = "RxC")]
    pub board: Shape,
    /// The goal's tokens, a board string whose labels may repeat (one colour) and that may
    /// hold several blanks (0), e.g. "1 1 1 1/2 2 2 2/3 3 3 3/4 4 4 0": count its arrangements
    /// and those the theorems of pebble motion say reach it
    #[arg(long, value_name = "TOKENS")]
    pub goal: Option<String>,
    /// Print one JSON document on stdout instead of text
    #[arg(long)]
    pub json: bool,
}

/// `count RxC --goal TOKENS`, as JSON: counts as decimal strings.
#[derive(serde::Serialize)]
struct TokenCounts {
    board: String,
    cells: usize,
    tokens: String,
    blanks: usize,
    arrangements: String,
    reachable: String,
    classes: String,
    theorem: tilespace::graph::pebbles::Source,
}

fn run_tokens(shape: tilespace::Shape, goal: &str, json: bool) -> Result<super::Status> {
    let tokens = tilespace::puzzle::tokens::Tokens::parse(goal, shape.cells())?;
    let classes = tilespace::graph::pebbles::predict_board(shape, &tokens)
        .expect("every board is a path, a cycle or 2-connected and bipartite");
    let counts = TokenCounts {
        board: shape.to_string(),
        cells: shape.cells(),
        tokens: tokens.notation(),
        blanks: tokens.blanks(),
        arrangements: tokens.arrangements().to_string(),
        reachable: classes.goal.to_string(),
        classes: classes.count().to_string(),
        theorem: classes.theorem,
    };
    if json {
        super::print_json(&counts)?;
        return Ok(super::Status::Done);
    }
    let mut out = std::io::stdout().lock();
    writeln!(out, "board        {shape} ({} cells)", counts.cells)?;
    writeln!(out, "tokens       {}", counts.tokens)?;
    writeln!(out, "arrangements {}", counts.arrangements)?;
    writeln!(
        out,
        "reachable    {}   (from the goal, as {} says)",
        counts.reachable,
        classes.theorem.statement()
    )?;
    writeln!(out, "classes      {}", counts.classes)?;
    Ok(super::Status::Done)
}

pub fn run(args: CountArgs) -> Result<super::Status> {
    let shape = args.board;
    if let Some(goal) = &args.goal {
        return run_tokens(shape, goal, args.json);
    }
    let n = shape.cells();
    let (total, reachable, unreachable) = decimal_counts(shape);
    if args.json {
        super::print_json(&DecimalCounts::of(shape))?;
        return Ok(super::Status::Done);
    }
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "board        {shape} ({n} cells, {} tiles and the blank)",
        n - 1
    )?;
    writeln!(out, "total        {}   ({n}!)", total)?;
    if shape.is_line() {
        writeln!(
            out,
            "reachable    {}   (n: the blank's positions among the tiles in goal order)",
            reachable
        )?;
        writeln!(out, "unreachable  {}   ({n}! - {n})", unreachable)?;
        writeln!(
            out,
            "note: the {n}!/2 of the theorem needs R, C >= 2: on a line no tile can pass \
             another, so every tile order is its own component of {n} configurations."
        )?;
        return Ok(super::Status::Done);
    }
    writeln!(
        out,
        "reachable    {}   ({n}!/2: the goal's parity class)",
        reachable
    )?;
    writeln!(out, "unreachable  {}   (the other class)", unreachable)?;
    Ok(super::Status::Done)
}

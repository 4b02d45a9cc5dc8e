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
    /// Print one JSON document on stdout instead of text
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: CountArgs) -> Result<super::Status> {
    let shape = args.board;
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

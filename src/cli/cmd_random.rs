//! `tilespace random RxC`: uniformly random solvable boards, one per line.

use std::io::Write;

use anyhow::Result;
use clap::Args;
use tilespace::puzzle::random::{solvable_board, Rng};
use tilespace::GoalBlank;
use tilespace::Shape;

use super::values::at_least_one_u64;

#[derive(Args, Debug)]
pub struct RandomArgs {
    /// Board size, e.g. 4x4 or 20x20
    #[arg(value_name = "RxC")]
    pub board: Shape,
    /// Seed: the same seed gives the same boards (default: from the clock)
    #[arg(long, value_name = "SEED")]
    pub seed: Option<u64>,
    /// How many boards, one per line
    #[arg(long, value_name = "N", default_value = "1", value_parser = at_least_one_u64)]
    pub count: u64,
    /// Goal blank cell the boards must be able to reach: last, first, center or R,C
    #[arg(long, value_name = "CELL", default_value = "last")]
    pub blank: GoalBlank,
    /// Print one JSON document (board, goal blank, seed, boards) instead of lines
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: RandomArgs) -> Result<super::Status> {
    let shape = args.board;
    let goal = args.blank.resolve(shape)?;
    let seed = super::seed_or_clock(args.seed);
    let mut rng = Rng::new(seed);
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    if args.json {
        // Streamed: --count may ask for more boards than memory holds.
        write!(
            out,
            "{{\n  \"board\": \"{shape}\",\n  \"goal_blank\": \"{}\",\n  \"seed\": {seed},\n  \"boards\": [",
            shape.cell_label(goal)
        )?;
        for i in 0..args.count {
            let sep = if i == 0 { "" } else { "," };
            write!(
                out,
                "{sep}\n    \"{}\"",
                solvable_board(shape, goal, &mut rng)
            )?;
        }
        writeln!(out, "\n  ]\n}}")?;
    } else {
        for _ in 0..args.count {
            writeln!(out, "{}", solvable_board(shape, goal, &mut rng))?;
        }
    }
    out.flush()?;
    Ok(super::Status::Done)
}

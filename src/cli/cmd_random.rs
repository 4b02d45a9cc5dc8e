//! `tilespace random RxC`: uniformly random solvable boards, one per line.

use std::io::Write;

use anyhow::Result;
use tilespace::puzzle::random::{solvable_board, Rng};

use super::args::RandomArgs;

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

//! Analyse a board from code: every state of the 2x4 puzzle, with the figures `tilespace
//! analyze 2x4` reports, and its distribution as a table.
//!
//! `cargo run --release --example analyze [RxC]` (default 2x4; as memory allows).

use tilespace::{analyze, AnalyzeOptions, GoalBlank, Metric, Puzzle, Shape};

fn main() -> Result<(), tilespace::Error> {
    let board = std::env::args().nth(1).unwrap_or_else(|| "2x4".into());
    let shape: Shape = board.parse()?;
    let goal = GoalBlank::Last.resolve(shape)?;
    // Progress arrives after each layer; this example does not show it.
    let puzzle = Puzzle::board(shape, goal, Metric::Single)?;
    let a = analyze(&puzzle, AnalyzeOptions::default(), &|_| {})?;
    let d = &a.distribution;
    println!(
        "{shape}: {} states ({}), eccentricity {}, {} antipodes, mean {}",
        a.states(),
        if a.verified {
            "verified: (RC)!/2"
        } else {
            "NOT verified"
        },
        d.eccentricity(),
        a.antipodes.len(),
        d.mean().with_decimal(6)
    );
    for b in &a.antipodes {
        println!("antipode: {b}");
    }
    println!("depth,states");
    for (depth, states) in d.layers.iter().enumerate() {
        println!("{depth},{states}");
    }
    Ok(())
}

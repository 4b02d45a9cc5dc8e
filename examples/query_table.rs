//! Query a saved table from code: analyse the 8-puzzle once, save its table, then answer
//! boards with their optimal distance and an optimal solution, as `tilespace distance` and
//! `tilespace solve --table` do.
//!
//! `cargo run --release --example query_table [TABLE]` (default: a file in a temporary
//! directory, removed at the end).

use tilespace::store::saved::SavedTable;
use tilespace::{analyze, AnalyzeOptions, Board, GoalBlank, Metric, Puzzle, Shape};

fn main() -> Result<(), tilespace::Error> {
    // Without a path, the table goes to a directory removed when `scratch` is dropped.
    let scratch = tempfile::tempdir().map_err(|source| tilespace::Error::Write {
        path: std::env::temp_dir(),
        source,
    })?;
    let path = std::env::args()
        .nth(1)
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| scratch.path().join("3x3.tst"));
    let shape: Shape = "3x3".parse()?;
    let goal = GoalBlank::Last.resolve(shape)?;
    let options = AnalyzeOptions {
        save_table: Some(&path),
        ..AnalyzeOptions::default()
    };
    analyze(
        &Puzzle::board(shape, goal, Metric::Single)?,
        options,
        &|_| {},
    )?;

    // The table is checked when opened (header, checksum, the layer counts it holds).
    let table = SavedTable::open(&path)?;
    for text in [
        "8 6 7/2 5 4/3 0 1",
        "1 2 3/4 5 6/0 7 8",
        "1 2 3/4 5 6/8 7 0",
    ] {
        let board = Board::parse(text, Some(shape))?;
        match table.distance(&board) {
            Ok(d) => {
                // One board per move, from the board to the goal, each a move from the last.
                let path = table.solve(&board)?;
                println!(
                    "{board}: {d} moves; the first step: {}",
                    path[1.min(path.len() - 1)]
                );
            }
            Err(e) => println!("{board}: {e}"),
        }
    }
    Ok(())
}

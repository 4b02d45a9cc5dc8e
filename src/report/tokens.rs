//! The reports of a goal of tokens (pebble motion, `analyze --goal`): `depths.csv` (as a
//! board's) and `antipodes.csv` (`antipode,tokens`) in a folder named for the puzzle and the
//! goal, under `RESULTS/tokens/`.

use std::path::{Path, PathBuf};

use crate::analysis::distribution::Distribution;
use crate::error::Error;
use crate::puzzle::metric::Metric;
use crate::puzzle::tokens::Tokens;

/// The folder of the reports of `goal` on the puzzle named `puzzle` (a board's `RxC`, a
/// graph's folder name) in `metric`: `RESULTS/tokens/<puzzle>-<the goal's tokens, by '-'>`,
/// and `-multi` in the multi-tile metric (as a board's reports, `Metric::note`).
pub fn token_dir(results: &Path, puzzle: &str, goal: &Tokens, metric: Metric) -> PathBuf {
    let cells: Vec<String> = goal.cells().iter().map(u32::to_string).collect();
    let name = format!("{puzzle}-{}", cells.join("-"));
    let name = match metric.note() {
        None => name,
        Some(_) => format!("{name}-{metric}"),
    };
    results.join("tokens").join(name)
}

/// Writes `depths.csv` and `antipodes.csv` (each antipode as `--goal` takes it) in `dir`;
/// returns their paths.
pub fn write_token_reports(
    dir: &Path,
    distribution: &Distribution,
    antipodes: &[String],
) -> Result<[PathBuf; 2], Error> {
    let depths = dir.join("depths.csv");
    let listed = dir.join("antipodes.csv");
    super::summary::write_distribution(&depths, distribution)?;
    super::rows::write_csv(&listed, |w| {
        w.write_record(["antipode", "tokens"])?;
        for (i, a) in antipodes.iter().enumerate() {
            w.write_record([(i + 1).to_string(), a.clone()])?;
        }
        Ok(())
    })?;
    Ok([depths, listed])
}

//! The reports of a goal of tokens (pebble motion, `analyze --goal`): `depths.csv` (as a
//! board's) and `antipodes.csv` (`antipode,tokens`) in a folder named for the puzzle and the
//! goal, under `RESULTS/tokens/`; and a row a run in `RESULTS/tokens-summary.csv`, which
//! `table --tokens` shows.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::analysis::arrangements::ArrangementAnalysis;
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

/// One run of `analyze --goal`, as `tokens-summary.csv` holds it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TokensSummaryRow {
    /// The board (`RxC`) or the graph as `--graph` named it.
    pub puzzle: String,
    /// The folder of its reports under `RESULTS/tokens/`.
    pub report: String,
    /// The goal's multiset, `1^4 2^4 3^4 4^3 0`.
    pub tokens: String,
    /// The goal as `--goal` takes it.
    pub goal: String,
    /// Its blanks.
    pub blanks: usize,
    /// How moves are counted.
    pub metric: Metric,
    /// Every arrangement of the tokens.
    pub arrangements: u64,
    /// The arrangements that reach the goal.
    pub reachable: u64,
    /// The arrangements the theorems say reach it, where one decides (empty otherwise).
    pub predicted: Option<String>,
    /// Every check of the run passed.
    pub verified: bool,
    /// The most moves from the goal.
    pub eccentricity: u32,
    /// Arrangements at that depth.
    pub antipodes: u64,
    /// The mean depth, exactly.
    pub mean_depth_exact: String,
    /// The mean depth, to six places.
    pub mean_depth: String,
}

impl TokensSummaryRow {
    /// The row of `a`, a search of the puzzle named `puzzle` whose goal `--goal` wrote as
    /// `goal`, its reports in `RESULTS/tokens/<report>`.
    pub fn of(a: &ArrangementAnalysis, puzzle: &str, goal: &str, report: &str) -> TokensSummaryRow {
        let d = &a.distribution;
        TokensSummaryRow {
            puzzle: puzzle.to_string(),
            report: report.to_string(),
            tokens: a.goal.notation(),
            goal: goal.to_string(),
            blanks: a.goal.blanks(),
            metric: a.metric,
            arrangements: a.arrangements,
            reachable: d.total(),
            predicted: a.predicted.as_ref().map(|p| p.goal.to_string()),
            verified: a.verified,
            eccentricity: d.eccentricity(),
            antipodes: *d.layers.last().expect("a layer"),
            mean_depth_exact: d.mean().to_string(),
            mean_depth: d.mean().decimal(6).0,
        }
    }
}

/// The arrangements at each depth of `row`'s run under `results` (its `depths.csv`), checked
/// against the row: as many in all as it reached, as many layers as its eccentricity says.
pub fn read_token_depths(results: &Path, row: &TokensSummaryRow) -> Result<Vec<u64>, Error> {
    let path = results.join("tokens").join(&row.report).join("depths.csv");
    let layers: Vec<u64> = super::summary::read_depths(&path)?
        .iter()
        .map(|d| d.states)
        .collect();
    if layers.iter().sum::<u64>() != row.reachable
        || layers.len() as u64 != u64::from(row.eccentricity) + 1
    {
        return Err(Error::damaged(
            &path,
            format!(
                "its layers are not those of {} {} in tokens-summary.csv (analyse it again)",
                row.puzzle, row.tokens
            ),
        ));
    }
    Ok(layers)
}

/// `RESULTS/tokens-summary.csv`.
pub fn summary_path(results: &Path) -> PathBuf {
    results.join("tokens-summary.csv")
}

/// Adds `row` to `tokens-summary.csv` under `results`, replacing the row of the same puzzle,
/// goal and metric (under the file's lock: concurrent runs keep every row).
pub fn upsert_tokens_summary(results: &Path, row: TokensSummaryRow) -> Result<PathBuf, Error> {
    let path = summary_path(results);
    super::rows::upsert_rows(&path, vec![row], |r| {
        (r.puzzle.clone(), r.goal.clone(), r.metric)
    })?;
    Ok(path)
}

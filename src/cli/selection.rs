//! Which analysed searches `plot` and `table` show: `--boards` (sizes), `--metric` and
//! `--blank`, the words `analyze` and `atlas` take for the same things; or `--reports`, the
//! searches' report folders.

use anyhow::Result;
use tilespace::report::SummaryRow;
use tilespace::{Metric, Shape};

use super::groups::Selection;
use super::outcome::BadArgument;
use super::values::MetricChoice;

impl Selection {
    /// Whether `--metric` keeps a report of `metric`.
    fn keeps_metric(&self, metric: Metric) -> bool {
        match self.metric {
            MetricChoice::Both => true,
            MetricChoice::One(m) => m == metric,
        }
    }

    /// Whether `--metric` and `--blank` keep `row`.
    fn keeps(&self, row: &SummaryRow) -> bool {
        let goal_kept = || {
            let (Ok(shape), Ok(goal)) = (row.shape(), row.goal_cell()) else {
                return false;
            };
            self.blank
                .iter()
                .any(|b| b.resolve(shape).is_ok_and(|c| c == goal))
        };
        self.keeps_metric(row.metric) && (self.blank.is_empty() || goal_kept())
    }

    /// The rows chosen: those of `--reports`, in that order; or for each of `--boards` in turn
    /// the rows of that size that `--metric` and `--blank` keep, in the reports' order; every
    /// row they keep if no board is named. A choice that keeps nothing is refused, saying what
    /// the reports have.
    pub fn rows(&self, rows: Vec<SummaryRow>) -> Result<Vec<SummaryRow>> {
        let have = || -> String {
            let names: Vec<String> = rows.iter().filter_map(|r| r.report_dir().ok()).collect();
            names.join(", ")
        };
        if !self.reports.is_empty() {
            let mut out = vec![];
            for name in &self.reports {
                let found = rows
                    .iter()
                    .find(|r| r.report_dir().is_ok_and(|d| d == *name))
                    .ok_or_else(|| {
                        BadArgument(format!(
                            "--reports: {name} is not in the results (they have {})",
                            have()
                        ))
                    })?;
                out.push(found.clone());
            }
            return Ok(out);
        }
        let sizes: Vec<Option<Shape>> = match self.boards.as_slice() {
            [] => vec![None],
            named => named.iter().copied().map(Some).collect(),
        };
        let mut out: Vec<SummaryRow> = vec![];
        for size in sizes {
            let sized = |r: &SummaryRow| size.is_none_or(|s| r.shape().is_ok_and(|t| t == s));
            let found: Vec<&SummaryRow> =
                rows.iter().filter(|r| sized(r) && self.keeps(r)).collect();
            if found.is_empty() {
                let of = size.map_or(String::new(), |s| format!(" of {s}"));
                anyhow::bail!(BadArgument(format!(
                    "no search{of} in the results{} (they have {})",
                    self.narrowed(),
                    have()
                )));
            }
            for r in found {
                if !out.contains(r) {
                    out.push(r.clone());
                }
            }
        }
        // Each board's runs together, its single-tile ones before its multi-tile ones (the
        // reports keep them alphabetically: "multi" first; `Metric` orders single first).
        let board_at = |board: &str| out.iter().position(|r| r.board == board);
        let mut keyed: Vec<_> = out
            .iter()
            .map(|r| ((board_at(&r.board), r.metric), r.clone()))
            .collect();
        keyed.sort_by_key(|(key, _)| *key);
        Ok(keyed.into_iter().map(|(_, r)| r).collect())
    }

    /// ` in the single-tile metric toward blank 1,1` where `--metric` or `--blank` narrow.
    fn narrowed(&self) -> String {
        let mut said = String::new();
        if let MetricChoice::One(m) = self.metric {
            said.push_str(&format!(" in the {m} metric"));
        }
        if !self.blank.is_empty() {
            let blanks: Vec<String> = self.blank.iter().map(ToString::to_string).collect();
            said.push_str(&format!(" toward blank {}", blanks.join(" or ")));
        }
        said
    }

    /// Whether an atlas report of `board` (`RxC`) in `metric` is shown; an atlas covers every
    /// goal cell, so `--blank` does not apply to it (clap refuses the two together).
    pub fn keeps_atlas(&self, board: &str, metric: Metric) -> bool {
        let sized = |s: &Shape| s.to_string() == board;
        self.keeps_metric(metric) && (self.boards.is_empty() || self.boards.iter().any(sized))
    }

    /// Refuses `--boards` naming a size the atlas does not have (`have`, its boards).
    pub fn check_atlas(&self, have: &[String]) -> Result<()> {
        for size in &self.boards {
            if !have.contains(&size.to_string()) {
                let mut names = have.to_vec();
                names.dedup();
                anyhow::bail!(BadArgument(format!(
                    "--boards: {size} is not in the atlas (it has {})",
                    names.join(", ")
                )));
            }
        }
        Ok(())
    }

    /// Where `board` comes in `--boards` (0 if it is not named): atlas rows in that order.
    pub fn rank(&self, board: &str) -> usize {
        self.boards
            .iter()
            .position(|s| s.to_string() == board)
            .unwrap_or(0)
    }
}

/// The rows of `results/summary.csv`; an error saying what to run if there are none.
pub fn analysed(results: &std::path::Path) -> Result<Vec<tilespace::report::SummaryRow>> {
    let summary = results.join("summary.csv");
    let rows = tilespace::report::read_summary(&summary)?;
    if rows.is_empty() {
        anyhow::bail!(BadArgument(format!(
            "no boards in {}: run `tilespace analyze RxC --results {}` first",
            summary.display(),
            results.display()
        )));
    }
    Ok(rows)
}

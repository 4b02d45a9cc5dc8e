//! The atlas reports: `atlas.csv`, one row per board, metric and class of goal cells, and
//! `atlas-summary.csv`, one row per board and metric (diameter, radius, mean distance).

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::puzzle::metric::Metric;

use super::graph_summary::report_dir;
use super::rows::upsert_rows;
use super::summary::{read_depths_of, read_summary, report_name_of, SummaryRow};
use crate::analysis::atlas::{Atlas, Kept};
use crate::error::Error;
use crate::index::puzzle::{Ground, Puzzle};
use crate::puzzle::board::{Cell, Shape};

/// One class of goal cells of a board in one metric (`atlas.csv`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AtlasRow {
    /// `RxC`.
    pub board: String,
    /// Its cells (rows are sorted by board size).
    pub cells_on_board: usize,
    /// `single` or `multi`.
    pub metric: Metric,
    /// The goal's blank cell searched, `R,C` 1-based.
    pub cell: String,
    /// The cells of its class (the same distribution), space-separated `R,C`.
    pub cells: String,
    /// The most moves from that goal.
    pub eccentricity: u32,
    /// Configurations at that distance.
    pub antipodes: usize,
    /// The exact mean distance to the goal (a reduced fraction).
    pub mean_exact: String,
    /// The same to 6 decimals.
    pub mean: String,
    /// The smallest depth with at least half the states at or below it.
    pub median: u32,
}

/// One board in one metric over all its goal cells (`atlas-summary.csv`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AtlasSummaryRow {
    /// `RxC`.
    pub board: String,
    /// Its cells (rows are sorted by board size).
    pub cells_on_board: usize,
    /// `single` or `multi`.
    pub metric: Metric,
    /// The largest eccentricity over the goal cells (the state graph's diameter).
    pub diameter: u32,
    /// The cells attaining it.
    pub diameter_cells: String,
    /// The smallest (the graph's radius).
    pub radius: u32,
    /// The cells attaining it.
    pub radius_cells: String,
    /// The exact mean distance between two configurations of one class.
    pub mean_distance_exact: String,
    /// The same to 6 decimals.
    pub mean_distance: String,
}

/// `R,C` of each cell, space-separated.
fn labels(shape: Shape, cells: &[Cell]) -> String {
    let all: Vec<String> = cells.iter().map(|&c| shape.cell_label(c)).collect();
    all.join(" ")
}

impl AtlasRow {
    /// The rows of `atlas`, one per class of cells.
    pub fn of(atlas: &Atlas) -> Vec<AtlasRow> {
        let shape = atlas.shape();
        atlas
            .classes
            .iter()
            .map(|k| AtlasRow {
                board: shape.to_string(),
                cells_on_board: shape.cells(),
                metric: atlas.puzzle.metric(),
                cell: shape.cell_label(k.cells[0]),
                cells: labels(shape, &k.cells),
                eccentricity: k.eccentricity,
                antipodes: k.antipodes,
                mean_exact: k.mean().to_string(),
                mean: k.mean().decimal(6).0,
                median: k.median,
            })
            .collect()
    }
}

impl AtlasSummaryRow {
    /// The summary of `atlas`.
    pub fn of(atlas: &Atlas) -> AtlasSummaryRow {
        let shape = atlas.shape();
        let ((diameter, far), (radius, near)) = (atlas.diameter(), atlas.radius());
        let mean = atlas.mean_distance();
        AtlasSummaryRow {
            board: shape.to_string(),
            cells_on_board: shape.cells(),
            metric: atlas.puzzle.metric(),
            diameter,
            diameter_cells: labels(shape, &far),
            radius,
            radius_cells: labels(shape, &near),
            mean_distance_exact: mean.to_string(),
            mean_distance: mean.decimal(6).0,
        }
    }
}

/// The folder under a results folder of an atlas's checkpoints, one folder a cell (named as
/// its reports' folder), while a cell is in progress.
pub const CHECKPOINTS: &str = "atlas-checkpoints";

/// An atlas's searches kept under a results folder: each cell's reports (its row of
/// summary.csv, verified, and its depths.csv, both checked as `table` checks them) and the
/// checkpoint of the cell in progress (`CHECKPOINTS`).
pub struct KeptIn<'a> {
    results: &'a Path,
    rows: Vec<SummaryRow>,
}

impl<'a> KeptIn<'a> {
    /// The searches under `results`, their summary read if `read` (else none is read).
    pub fn new(results: &'a Path, read: bool) -> Result<KeptIn<'a>, Error> {
        let rows = match read {
            true => read_summary(&results.join("summary.csv"))?,
            false => vec![],
        };
        Ok(KeptIn { results, rows })
    }
}

impl Kept for KeptIn<'_> {
    fn searched(&self, goal: &Puzzle) -> Result<Option<(String, Vec<u64>)>, Error> {
        let Ground::Board(shape) = goal.ground() else {
            return Ok(None);
        };
        let found = self.rows.iter().find(|r| {
            r.verified
                && r.start == "goal"
                && r.shape().is_ok_and(|s| s == *shape)
                && r.goal_cell().is_ok_and(|g| g == goal.goal())
                && r.metric == goal.metric()
        });
        let Some(row) = found else {
            return Ok(None);
        };
        let depths = read_depths_of(self.results, row)?;
        let dir = self.results.join(row.report_dir()?);
        Ok(Some((
            dir.display().to_string(),
            depths.iter().map(|d| d.states).collect(),
        )))
    }

    fn checkpoint(&self, goal: &Puzzle) -> PathBuf {
        let dir = self.results.join(CHECKPOINTS);
        match goal.ground() {
            Ground::Board(shape) => {
                dir.join(report_name_of(*shape, goal.goal(), None, goal.metric()))
            }
            Ground::Graph(graph) => report_dir(&dir, "graph6:", graph, goal.goal().0),
        }
    }
}

/// `atlas.csv` and `atlas-summary.csv` under `dir`.
pub fn atlas_paths(dir: &Path) -> [PathBuf; 2] {
    [dir.join("atlas.csv"), dir.join("atlas-summary.csv")]
}

/// Writes `atlas`'s rows into both reports under `dir` (replacing the rows of the same board,
/// metric and cell), sorted by board size, board, metric (single first) and cell.
pub fn write_atlas(dir: &Path, atlas: &Atlas) -> Result<[PathBuf; 2], Error> {
    let [cells, summary] = atlas_paths(dir);
    // Single-tile rows before multi-tile ones, as every table shows them (`Metric`'s order).
    upsert_rows(&cells, AtlasRow::of(atlas), |r: &AtlasRow| {
        (r.cells_on_board, r.board.clone(), r.metric, r.cell.clone())
    })?;
    upsert_rows(&summary, vec![AtlasSummaryRow::of(atlas)], |r| {
        (r.cells_on_board, r.board.clone(), r.metric)
    })?;
    Ok([cells, summary])
}

/// One board in one metric read back from `atlas.csv`: every cell's figures, in reading order.
#[derive(Clone, Debug, PartialEq)]
pub struct CellMap {
    /// The board.
    pub shape: Shape,
    /// `single` or `multi`.
    pub metric: Metric,
    /// The most moves from a goal with its blank in each cell.
    pub eccentricity: Vec<u32>,
    /// The mean distance to that goal (to 6 decimals, as in `atlas.csv`).
    pub mean: Vec<String>,
}

impl CellMap {
    /// The mean of `cell` as a number.
    pub fn mean_of(&self, cell: usize) -> f64 {
        self.mean[cell].parse().unwrap_or(f64::NAN)
    }
}

/// Both atlas reports of a folder, read and checked against each other (`read_atlas`).
#[derive(Clone, Debug)]
pub struct AtlasReports {
    /// The rows of `atlas-summary.csv`.
    pub summary: Vec<AtlasSummaryRow>,
    /// The rows of `atlas.csv`.
    pub cells: Vec<AtlasRow>,
    /// Each board and metric of `atlas.csv` as a map of its cells, in the rows' order.
    pub maps: Vec<CellMap>,
}

/// The rows of `atlas.csv` and `atlas-summary.csv` under `dir` (none where both are missing),
/// each checked as a row the tool could have written (a board, a metric, cells on the board,
/// the first the one searched, an exact mean whose decimal is the one beside it), and the two
/// checked against each other: each board and metric's classes cover its cells once
/// (`cell_maps`), and its summary row is what those classes give (`summarised`).
pub fn read_atlas(dir: &Path) -> Result<AtlasReports, Error> {
    let [cells_path, summary_path] = atlas_paths(dir);
    let again = "run `tilespace atlas` on the board again";
    let cells = super::rows::read_checked(&cells_path, AtlasRow::check, |r| &r.board, again)?;
    let summary =
        super::rows::read_checked(&summary_path, AtlasSummaryRow::check, |r| &r.board, again)?;
    if cells.is_empty() && !summary.is_empty() {
        return Err(Error::damaged(
            &cells_path,
            format!(
                "no rows (missing or empty), while {} has {}: run `tilespace atlas` on its \
                 boards again",
                summary_path.display(),
                summary.len()
            ),
        ));
    }
    let maps = cell_maps(&cells_path, &cells)?;
    for (i, row) in summary.iter().enumerate() {
        let damaged = |why: String| {
            Error::damaged(
                &summary_path,
                format!(
                    "row {} ({} {}): {why} ({again})",
                    i + 1,
                    row.board,
                    row.metric
                ),
            )
        };
        let map = maps
            .iter()
            .find(|m| m.shape.to_string() == row.board && m.metric == row.metric)
            .ok_or_else(|| damaged(format!("{} has no row of it", cells_path.display())))?;
        if summary[..i]
            .iter()
            .any(|r| r.board == row.board && r.metric == row.metric)
        {
            return Err(damaged("a second row of it".into()));
        }
        let want = summarised(map, &cells).map_err(damaged)?;
        if let Some(field) = want.differs(row) {
            return Err(damaged(format!(
                "its {field} is not what the rows of {} give",
                cells_path.display()
            )));
        }
    }
    let summarised = |m: &&CellMap| {
        !summary
            .iter()
            .any(|r| r.board == m.shape.to_string() && r.metric == m.metric)
    };
    if let Some(m) = maps.iter().find(summarised) {
        return Err(Error::damaged(
            &summary_path,
            format!(
                "{} {} of {} has no row here ({again})",
                m.shape,
                m.metric,
                cells_path.display()
            ),
        ));
    }
    Ok(AtlasReports {
        summary,
        cells,
        maps,
    })
}

/// The summary row the classes of `map` (rows of `cells`) give: the extreme eccentricities and
/// their cells, and the mean of every cell's exact mean.
fn summarised(map: &CellMap, cells: &[AtlasRow]) -> Result<AtlasSummaryRow, String> {
    let shape = map.shape;
    let extreme = |best: u32| {
        let at: Vec<Cell> = (0..shape.cells())
            .map(Cell)
            .filter(|c| map.eccentricity[c.0] == best)
            .collect();
        labels(shape, &at)
    };
    let diameter = *map.eccentricity.iter().max().expect("a board has cells");
    let radius = *map.eccentricity.iter().min().expect("a board has cells");
    // Every cell's mean has the class's states as its denominator's multiple: their sum over
    // the cells is taken over the least common denominator, checked (a forged report may hold
    // any fraction).
    let board = shape.to_string();
    let rows = cells
        .iter()
        .filter(|r| r.board == board && r.metric == map.metric);
    let too_large = || "its cells' means are too large to add up".to_string();
    let (mut num, mut den) = (0u128, 1u128);
    for r in rows {
        let mean: crate::analysis::distribution::Fraction = r.mean_exact.parse()?;
        let n = r.cells.split(' ').count() as u128;
        let lcm = den / crate::analysis::distribution::gcd(den, mean.den) * mean.den;
        let scaled = |a: u128, d: u128| a.checked_mul(lcm / d);
        let add = mean.num.checked_mul(n).and_then(|m| scaled(m, mean.den));
        num = scaled(num, den)
            .zip(add)
            .and_then(|(a, b)| a.checked_add(b))
            .ok_or_else(too_large)?;
        den = lcm;
    }
    let cells_on_board = den
        .checked_mul(shape.cells() as u128)
        .ok_or_else(too_large)?;
    let mean = crate::analysis::distribution::Fraction::new(num, cells_on_board);
    Ok(AtlasSummaryRow {
        board,
        cells_on_board: shape.cells(),
        metric: map.metric,
        diameter,
        diameter_cells: extreme(diameter),
        radius,
        radius_cells: extreme(radius),
        mean_distance_exact: mean.to_string(),
        mean_distance: mean.decimal(6).0,
    })
}

impl AtlasSummaryRow {
    /// The first field in which `other` differs from this row, by its column's name.
    fn differs(&self, other: &AtlasSummaryRow) -> Option<&'static str> {
        let fields = [
            ("diameter", self.diameter == other.diameter),
            (
                "diameter_cells",
                self.diameter_cells == other.diameter_cells,
            ),
            ("radius", self.radius == other.radius),
            ("radius_cells", self.radius_cells == other.radius_cells),
            (
                "mean_distance_exact",
                self.mean_distance_exact == other.mean_distance_exact,
            ),
            (
                "cells_on_board",
                self.cells_on_board == other.cells_on_board,
            ),
        ];
        fields.into_iter().find(|f| !f.1).map(|f| f.0)
    }
}

/// `R,C` (1-based) as a cell of `shape`.
fn parse_cell(shape: Shape, label: &str) -> Result<Cell, String> {
    let bad = || format!("{label:?} is not a cell R,C of {shape}");
    let (r, c) = label.split_once(',').ok_or_else(bad)?;
    let (r, c): (usize, usize) = (
        r.trim().parse().map_err(|_| bad())?,
        c.trim().parse().map_err(|_| bad())?,
    );
    if r == 0 || c == 0 || r > shape.rows || c > shape.cols {
        return Err(bad());
    }
    Ok(shape.cell(r - 1, c - 1))
}

/// The board and the exact mean with its decimal, as `check`s share them.
fn check_common(board: &str, exact: &str, decimal: &str) -> Result<Shape, String> {
    let shape: Shape = board.parse().map_err(|e: Error| e.to_string())?;
    let mean: crate::analysis::distribution::Fraction = exact.parse()?;
    if mean.decimal(6).0 != decimal {
        return Err(format!("the mean {decimal} is not {exact}"));
    }
    Ok(shape)
}

impl AtlasRow {
    /// Why this row cannot be one the tool wrote, if it cannot.
    pub fn check(&self) -> Result<(), String> {
        let shape = check_common(&self.board, &self.mean_exact, &self.mean)?;
        let cells = self
            .cells
            .split(' ')
            .map(|l| parse_cell(shape, l))
            .collect::<Result<Vec<_>, _>>()?;
        if cells.first() != Some(&parse_cell(shape, &self.cell)?) {
            return Err(format!(
                "the cell {} is not the first of {}",
                self.cell, self.cells
            ));
        }
        if self.cells_on_board != shape.cells() {
            return Err(format!("{} has {} cells", self.board, shape.cells()));
        }
        Ok(())
    }
}

impl AtlasSummaryRow {
    /// Why this row cannot be one the tool wrote, if it cannot.
    pub fn check(&self) -> Result<(), String> {
        let shape = check_common(&self.board, &self.mean_distance_exact, &self.mean_distance)?;
        for list in [&self.diameter_cells, &self.radius_cells] {
            for label in list.split(' ') {
                parse_cell(shape, label)?;
            }
        }
        if self.radius > self.diameter {
            return Err(format!(
                "the radius {} is over the diameter {}",
                self.radius, self.diameter
            ));
        }
        Ok(())
    }
}

/// Every board and metric of `rows` as a map of its cells, in the rows' order; a board whose
/// classes do not cover each of its cells exactly once is refused (a damaged `atlas.csv`, or
/// one whose board was not finished).
fn cell_maps(path: &Path, rows: &[AtlasRow]) -> Result<Vec<CellMap>, Error> {
    let mut maps: Vec<CellMap> = vec![];
    let mut filled: Vec<Vec<bool>> = vec![];
    for r in rows {
        let shape: Shape = r.board.parse()?;
        let at = match maps
            .iter()
            .position(|m| m.shape == shape && m.metric == r.metric)
        {
            Some(at) => at,
            None => {
                maps.push(CellMap {
                    shape,
                    metric: r.metric,
                    eccentricity: vec![0; shape.cells()],
                    mean: vec![String::new(); shape.cells()],
                });
                filled.push(vec![false; shape.cells()]);
                maps.len() - 1
            }
        };
        for label in r.cells.split(' ') {
            let cell = parse_cell(shape, label).map_err(|why| Error::damaged(path, why))?;
            if std::mem::replace(&mut filled[at][cell.0], true) {
                return Err(Error::damaged(
                    path,
                    format!("{} {}: the cell {label} is in two rows", r.board, r.metric),
                ));
            }
            maps[at].eccentricity[cell.0] = r.eccentricity;
            maps[at].mean[cell.0] = r.mean.clone();
        }
    }
    for (m, f) in maps.iter().zip(&filled) {
        if let Some(missing) = f.iter().position(|&done| !done) {
            return Err(Error::damaged(
                path,
                format!(
                    "{} {}: no row has the cell {} (run `tilespace atlas {} --metric {}` again)",
                    m.shape,
                    m.metric,
                    m.shape.cell_label(Cell(missing)),
                    m.shape,
                    m.metric
                ),
            ));
        }
    }
    Ok(maps)
}

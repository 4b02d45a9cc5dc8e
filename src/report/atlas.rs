//! The atlas reports: `atlas.csv`, one row per board, metric and class of goal cells, and
//! `atlas-summary.csv`, one row per board and metric (diameter, radius, mean distance).

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::rows::upsert_rows;
use crate::analysis::atlas::Atlas;
use crate::error::Error;
use crate::puzzle::board::{Cell, Shape};

/// One class of goal cells of a board in one metric (`atlas.csv`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AtlasRow {
    /// `RxC`.
    pub board: String,
    /// Its cells (rows are sorted by board size).
    pub cells_on_board: usize,
    /// `single` or `multi`.
    pub metric: String,
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
    pub metric: String,
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
        let shape = atlas.shape;
        atlas
            .classes
            .iter()
            .map(|k| AtlasRow {
                board: shape.to_string(),
                cells_on_board: shape.cells(),
                metric: atlas.metric.name().into(),
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
        let shape = atlas.shape;
        let ((diameter, far), (radius, near)) = (atlas.diameter(), atlas.radius());
        let mean = atlas.mean_distance();
        AtlasSummaryRow {
            board: shape.to_string(),
            cells_on_board: shape.cells(),
            metric: atlas.metric.name().into(),
            diameter,
            diameter_cells: labels(shape, &far),
            radius,
            radius_cells: labels(shape, &near),
            mean_distance_exact: mean.to_string(),
            mean_distance: mean.decimal(6).0,
        }
    }
}

/// `atlas.csv` and `atlas-summary.csv` under `dir`.
pub fn atlas_paths(dir: &Path) -> [PathBuf; 2] {
    [dir.join("atlas.csv"), dir.join("atlas-summary.csv")]
}

/// Writes `atlas`'s rows into both reports under `dir` (replacing the rows of the same board,
/// metric and cell), sorted by board size, board, metric and cell.
pub fn write_atlas(dir: &Path, atlas: &Atlas) -> Result<[PathBuf; 2], Error> {
    let [cells, summary] = atlas_paths(dir);
    upsert_rows(&cells, AtlasRow::of(atlas), |r: &AtlasRow| {
        (
            r.cells_on_board,
            r.board.clone(),
            r.metric.clone(),
            r.cell.clone(),
        )
    })?;
    upsert_rows(&summary, vec![AtlasSummaryRow::of(atlas)], |r| {
        (r.cells_on_board, r.board.clone(), r.metric.clone())
    })?;
    Ok([cells, summary])
}

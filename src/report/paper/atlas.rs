//! The atlas as tables for papers (`tilespace table --atlas`): per board and metric the
//! diameter, the radius and the mean distance between two configurations (from
//! `atlas-summary.csv`), or with `--cells` each class of goal cells (from `atlas.csv`).

use serde::Serialize;

use super::grid::{Grid, GridCell, Heading, Kind};
use super::{fitted, plain, Format, Rendered, LATEX_MEAN_PLACES, MEAN_PLACES};
use crate::analysis::distribution::Fraction;
use crate::error::Error;
use crate::puzzle::metric::Metric;
use crate::report::atlas::{AtlasRow, AtlasSummaryRow};

/// The metrics that some row has, single first, and their LaTeX group headings.
fn metrics(names: impl Iterator<Item = Metric>) -> Vec<(Metric, String)> {
    let names: Vec<Metric> = names.collect();
    Metric::ALL
        .into_iter()
        .filter(|m| names.contains(m))
        .map(|m| {
            let words = format!("{} moves", m.adjective());
            (m, words[..1].to_uppercase() + &words[1..])
        })
        .collect()
}

/// The cells attaining a figure, or `every cell` when they are all the board's.
fn attaining(cells: &str, on_board: usize) -> String {
    if cells.split(' ').count() == on_board {
        "every cell".into()
    } else {
        cells.into()
    }
}

/// An exact mean: the fraction, in math mode in LaTeX.
fn exact(text: &str) -> GridCell {
    GridCell::with_tex(text, format!("${text}$"))
}

/// A mean to `places` decimals, `≈` before it in Markdown when rounded.
fn rounded(exact: &str, places: u32) -> GridCell {
    let (decimal, is_exact) = exact
        .parse::<Fraction>()
        .map_or((String::new(), true), |f| f.decimal(places));
    let mut c = GridCell::decimal(&decimal);
    if !is_exact {
        c.text = format!("≈ {decimal}");
    }
    c
}

fn heading(text: &str, tex: &str, kind: Kind, group: &str) -> Heading {
    let mut h = Heading::new(text, tex, kind);
    h.group = group.into();
    h
}

/// The rows as JSON (an array) or CSV (the report's columns).
fn data<T: Serialize>(rows: &[T], format: Format) -> Result<Rendered, Error> {
    let bad = |e: String| Error::Argument(e);
    let text = if format == Format::Json {
        serde_json::to_string_pretty(rows).map_err(|e| bad(e.to_string()))? + "\n"
    } else {
        let mut w = csv::Writer::from_writer(Vec::new());
        for r in rows {
            w.serialize(r).map_err(|e| bad(e.to_string()))?;
        }
        let bytes = w.into_inner().map_err(|e| bad(e.to_string()))?;
        String::from_utf8(bytes).map_err(|e| bad(e.to_string()))?
    };
    Ok(plain(text))
}

/// A Markdown table of `headings` (text and kind) and `rows`.
fn markdown(headings: &[(&str, Kind)], rows: impl Iterator<Item = Vec<GridCell>>) -> Rendered {
    let grid = Grid {
        headings: headings
            .iter()
            .map(|&(t, k)| Heading::new(t, "", k))
            .collect(),
        rows: rows.collect(),
        ..Grid::default()
    };
    plain(grid.markdown())
}

/// The summary of each board and metric in `format`: Markdown a row each, with the cells that
/// attain the diameter and the radius; LaTeX a row per board, a group of columns per metric.
pub fn render(rows: &[AtlasSummaryRow], format: Format) -> Result<Rendered, Error> {
    match format {
        Format::Json | Format::Csv => data(rows, format),
        Format::Markdown => Ok(markdown(
            &[
                ("board", Kind::Text),
                ("metric", Kind::Text),
                ("diameter", Kind::Count),
                ("at cells", Kind::Text),
                ("radius", Kind::Count),
                ("at cells", Kind::Text),
                ("mean distance (exact)", Kind::Fraction),
                ("mean distance", Kind::Decimal),
            ],
            rows.iter().map(|r| {
                vec![
                    GridCell::text(&r.board),
                    GridCell::text(r.metric.name()),
                    GridCell::count(r.diameter),
                    GridCell::text(&attaining(&r.diameter_cells, r.cells_on_board)),
                    GridCell::count(r.radius),
                    GridCell::text(&attaining(&r.radius_cells, r.cells_on_board)),
                    exact(&r.mean_distance_exact),
                    rounded(&r.mean_distance_exact, MEAN_PLACES),
                ]
            }),
        )),
        Format::Latex => Ok(summary_latex(rows)),
    }
}

/// A row per board, a group of three columns (diameter, radius, mean) per metric.
fn summary_latex(rows: &[AtlasSummaryRow]) -> Rendered {
    let metrics = metrics(rows.iter().map(|r| r.metric));
    let mut headings = vec![Heading::new("board", "Board", Kind::Text)];
    for (_, group) in &metrics {
        headings.push(heading("diameter", "Diameter", Kind::Count, group));
        headings.push(heading("radius", "Radius", Kind::Count, group));
        headings.push(heading("mean", "Mean", Kind::Decimal, group));
    }
    let mut boards: Vec<&str> = vec![];
    for r in rows {
        if !boards.contains(&r.board.as_str()) {
            boards.push(&r.board);
        }
    }
    let body = boards
        .iter()
        .map(|&board| {
            let mut cells = vec![GridCell::with_tex(board, super::grid::tex_board(board))];
            for (metric, _) in &metrics {
                match rows
                    .iter()
                    .find(|r| r.board == board && &r.metric == metric)
                {
                    Some(r) => cells.extend([
                        GridCell::count(r.diameter),
                        GridCell::count(r.radius),
                        rounded(&r.mean_distance_exact, LATEX_MEAN_PLACES),
                    ]),
                    None => cells.extend([
                        GridCell::default(),
                        GridCell::default(),
                        GridCell::default(),
                    ]),
                }
            }
            cells
        })
        .collect();
    let grid = Grid {
        headings,
        rows: body,
        caption: "The state graphs of sliding-tile puzzles over every goal cell, enumerated \
                  by breadth-first search from a goal in each class of cells under the \
                  board's symmetries (tilespace). Diameter: the most moves between two \
                  configurations of one parity class (the largest eccentricity over the goal \
                  cells); radius: the smallest eccentricity; mean: the mean distance between \
                  two configurations of one class."
            .into(),
        label: "tab:tilespace-atlas".into(),
        ..Grid::default()
    };
    fitted(grid.latex("tilespace table --atlas --format latex"), &grid)
}

/// Each class of goal cells in `format`: Markdown a row per board, metric and class; LaTeX a
/// row per board and class, a group of columns (eccentricity, mean) per metric.
pub fn render_cells(rows: &[AtlasRow], format: Format) -> Result<Rendered, Error> {
    match format {
        Format::Json | Format::Csv => data(rows, format),
        Format::Markdown => Ok(markdown(
            &[
                ("board", Kind::Text),
                ("metric", Kind::Text),
                ("cell", Kind::Text),
                ("cells of its class", Kind::Text),
                ("eccentricity", Kind::Count),
                ("antipodes", Kind::Count),
                ("mean moves (exact)", Kind::Fraction),
                ("mean moves", Kind::Decimal),
                ("median", Kind::Count),
            ],
            rows.iter().map(|r| {
                vec![
                    GridCell::text(&r.board),
                    GridCell::text(r.metric.name()),
                    GridCell::text(&r.cell),
                    GridCell::text(&r.cells),
                    GridCell::count(r.eccentricity),
                    GridCell::count(r.antipodes as u64),
                    exact(&r.mean_exact),
                    rounded(&r.mean_exact, MEAN_PLACES),
                    GridCell::count(r.median),
                ]
            }),
        )),
        Format::Latex => Ok(cells_latex(rows)),
    }
}

/// A row per board and class of cells, a group of two columns per metric.
fn cells_latex(rows: &[AtlasRow]) -> Rendered {
    let metrics = metrics(rows.iter().map(|r| r.metric));
    let mut headings = vec![
        Heading::new("board", "Board", Kind::Text),
        Heading::new("cells", "Goal cells", Kind::Text),
    ];
    for (_, group) in &metrics {
        headings.push(heading("eccentricity", "Most", Kind::Count, group));
        headings.push(heading("mean", "Mean", Kind::Decimal, group));
    }
    let mut classes: Vec<(&str, &str)> = vec![];
    for r in rows {
        if !classes.contains(&(r.board.as_str(), r.cells.as_str())) {
            classes.push((&r.board, &r.cells));
        }
    }
    let body: Vec<Vec<GridCell>> = classes
        .iter()
        .map(|&(board, cells)| {
            let mut line = vec![
                GridCell::with_tex(board, super::grid::tex_board(board)),
                GridCell::text(cells),
            ];
            for (metric, _) in &metrics {
                let found = rows
                    .iter()
                    .find(|r| r.board == board && r.cells == cells && &r.metric == metric);
                match found {
                    Some(r) => line.extend([
                        GridCell::count(r.eccentricity),
                        rounded(&r.mean_exact, LATEX_MEAN_PLACES),
                    ]),
                    None => line.extend([GridCell::default(), GridCell::default()]),
                }
            }
            line
        })
        .collect();
    let grid = Grid {
        headings,
        long: body.len() > 24,
        rows: body,
        caption: "The goal cells of sliding-tile puzzles, one row per class of cells under the \
                  board's symmetries (cells as row,column from the top left), enumerated by \
                  breadth-first search (tilespace). Most: the most moves any configuration \
                  needs to reach a goal with its blank in those cells (the cells' \
                  eccentricity); mean: the mean number of moves."
            .into(),
        label: "tab:tilespace-atlas-cells".into(),
        ..Grid::default()
    };
    fitted(
        grid.latex("tilespace table --atlas --cells --format latex"),
        &grid,
    )
}

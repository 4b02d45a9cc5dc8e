//! Tables for papers, from the reports alone: the summary of every analysed board
//! (`summary`), the depth distributions side by side (`depths`), the counting theorem
//! (`theorem`), the atlas (`atlas`), the named graphs (`graphs`) and the goals of tokens
//! (`tokens`), built as a `grid` and
//! rendered as Markdown, LaTeX (booktabs and siunitx, in a `table` float that fits a
//! one-column `article` page), CSV or JSON.

pub mod atlas;
pub mod depths;
pub mod graphs;
pub mod grid;
pub mod theorem;
pub mod tokens;

use serde_json::{Map, Value};

use crate::analysis::distribution::Fraction;
use crate::error::Error;
use crate::report::SummaryRow;
use grid::{Grid, GridCell, Heading, Kind};

/// The output formats of `tilespace table`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// A GitHub Markdown table.
    Markdown,
    /// LaTeX (booktabs and siunitx).
    Latex,
    /// CSV with a header.
    Csv,
    /// JSON.
    Json,
}

/// A table ready to print, and what its reader should know (for stderr): a LaTeX table wider
/// than an article's text, say.
#[derive(Clone, Debug, PartialEq)]
pub struct Rendered {
    /// What to print on stdout.
    pub text: String,
    /// What to tell on stderr.
    pub warnings: Vec<String>,
}

/// Decimal places of rounded means: 6 in Markdown, CSV and JSON as in `summary.csv`; 4 in
/// LaTeX, where the exact mean stands beside it and width is short.
pub const MEAN_PLACES: u32 = 6;
pub(crate) const LATEX_MEAN_PLACES: u32 = 4;

/// A column of the summary table, as `--columns` names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Column {
    /// `board`: the size.
    Board,
    /// `blank`: the goal's blank cell.
    Blank,
    /// `start`: `goal` or the board searched from.
    Start,
    /// `class`: solvable or unsolvable.
    Class,
    /// `states`: states reached.
    States,
    /// `verified`: the count is (RC)!/2 and every check passed.
    Verified,
    /// `eccentricity`: the most moves any state needs.
    Eccentricity,
    /// `antipodes`: the states that need that many.
    Antipodes,
    /// `depth-sum`: the sum of all depths.
    DepthSum,
    /// `mean-exact`: the mean depth as a fraction.
    MeanExact,
    /// `mean`: the mean depth, rounded.
    Mean,
    /// `median`: the median depth.
    Median,
    /// `widest`: the states of the widest layer.
    Widest,
    /// `widest-depth`: its depth.
    WidestDepth,
    /// `metric`: how moves were counted (single or multi).
    Metric,
}

impl Column {
    /// Every column, in the order of `--columns all` and of CSV and JSON by default.
    pub const ALL: [Column; 15] = [
        Column::Board,
        Column::Blank,
        Column::Start,
        Column::Class,
        Column::Metric,
        Column::States,
        Column::Verified,
        Column::Eccentricity,
        Column::Antipodes,
        Column::DepthSum,
        Column::MeanExact,
        Column::Mean,
        Column::Median,
        Column::Widest,
        Column::WidestDepth,
    ];

    /// The Markdown and LaTeX tables by default: what fits a one-column page. A start column
    /// (Markdown) or note (LaTeX) is added when some search did not start at the goal, a
    /// verified column when some row was not verified, and a metric column when some row
    /// counts multi-tile moves.
    pub const DEFAULT: [Column; 7] = [
        Column::Board,
        Column::Blank,
        Column::States,
        Column::Eccentricity,
        Column::Antipodes,
        Column::MeanExact,
        Column::Mean,
    ];

    /// The name `--columns` takes, the header of its CSV column and the key of its JSON
    /// field: the field of `summary.csv` it shows.
    pub fn name(self) -> &'static str {
        match self {
            Column::Board => "board",
            Column::Blank => "goal_blank",
            Column::Start => "start",
            Column::Class => "class",
            Column::States => "states",
            Column::Verified => "verified",
            Column::Eccentricity => "eccentricity",
            Column::Antipodes => "antipodes",
            Column::DepthSum => "depth_sum",
            Column::MeanExact => "mean_depth_exact",
            Column::Mean => "mean_depth",
            Column::Median => "median_depth",
            Column::Widest => "max_width",
            Column::WidestDepth => "depth_of_max_width",
            Column::Metric => "metric",
        }
    }

    /// `board,eccentricity,mean`, or `all`.
    pub fn parse_list(text: &str) -> Result<Vec<Column>, Error> {
        if text.trim() == "all" {
            return Ok(Column::ALL.to_vec());
        }
        let mut out = vec![];
        for name in text.split(',').map(str::trim) {
            let col = Column::ALL
                .into_iter()
                .find(|c| c.name() == name)
                .ok_or_else(|| {
                    let names: Vec<&str> = Column::ALL.iter().map(|c| c.name()).collect();
                    Error::Argument(format!(
                        "--columns: no column {name:?}; the columns are {} (or all)",
                        names.join(", ")
                    ))
                })?;
            if out.contains(&col) {
                return Err(Error::Argument(format!("--columns: {name} given twice")));
            }
            out.push(col);
        }
        Ok(out)
    }

    /// Its heading: Markdown's text, LaTeX's under a group heading (worst case: moves and
    /// boards; mean moves: exact and rounded; widest layer: states and depth).
    fn heading(self) -> Heading {
        let (text, tex, kind, group) = match self {
            Column::Board => ("board", "Board", Kind::Text, ""),
            Column::Blank => ("goal blank", "Blank", Kind::Text, ""),
            Column::Start => ("from", "From", Kind::Text, ""),
            Column::Class => ("class", "Class", Kind::Text, ""),
            Column::States => ("states", "States", Kind::Count, ""),
            Column::Verified => ("= (RC)!/2, verified", "Verified", Kind::Text, ""),
            Column::Eccentricity => ("eccentricity", "moves", Kind::Count, "Worst case"),
            Column::Antipodes => ("antipodes", "boards", Kind::Count, "Worst case"),
            Column::DepthSum => ("sum of depths", "Sum of depths", Kind::Count, ""),
            Column::MeanExact => ("mean moves (exact)", "exact", Kind::Fraction, "Mean moves"),
            Column::Mean => ("mean moves", "rounded", Kind::Decimal, "Mean moves"),
            Column::Median => ("median", "Median", Kind::Count, ""),
            Column::Widest => ("widest layer", "states", Kind::Count, "Widest layer"),
            Column::WidestDepth => ("at depth", "depth", Kind::Count, "Widest layer"),
            Column::Metric => ("metric", "Metric", Kind::Text, ""),
        };
        let mut h = Heading::new(text, tex, kind);
        h.group = group.into();
        h
    }

    /// What the caption says of this column.
    fn described(self) -> &'static str {
        match self {
            Column::Board => "",
            Column::Blank => "Blank: the goal's blank cell (row, column), from the top left.",
            Column::Start => "From: the board the search started at.",
            Column::Class => "Class: the parity class searched (solvable: the goal's).",
            Column::Metric => {
                "Metric: single, a move slides one tile one cell; multi, a move slides the blank \
                 any distance along its row or column."
            }
            Column::States => "States: the states reached.",
            Column::Verified => "Verified: the count equals $(RC)!/2$ and every check passed.",
            Column::Eccentricity | Column::Antipodes => "Worst case: the most moves any state needs (the eccentricity), and how many states need that many (the antipodes).",
            Column::DepthSum => "Sum of depths: the optimal solution lengths of all states, added.",
            Column::MeanExact | Column::Mean => {
                "Mean moves: the average number of moves over all states, exact, and rounded to 4 \
                 places where not exact."
            }
            Column::Median => "Median: the least depth with half the states at or below it.",
            Column::Widest | Column::WidestDepth => {
                "Widest layer: the most states at one depth, and that depth (the shallowest if \
                 tied)."
            }
        }
    }

    fn cell(self, r: &SummaryRow, places: u32) -> GridCell {
        match self {
            Column::Board => GridCell::with_tex(&r.board, grid::tex_board(&r.board)),
            Column::Blank => {
                GridCell::with_tex(&r.goal_blank, format!("({})", grid::tex(&r.goal_blank)))
            }
            Column::Start => {
                if r.start == "goal" {
                    GridCell::text("goal")
                } else {
                    GridCell::with_tex(&r.start, format!("\\texttt{{{}}}", grid::tex(&r.start)))
                }
            }
            Column::Class => GridCell::text(r.class.name()),
            Column::Metric => GridCell::text(r.metric.name()),
            Column::States => GridCell::count(r.states),
            Column::Verified => GridCell::text(if verified(r) { "yes" } else { "no" }),
            Column::Eccentricity => GridCell::count(r.eccentricity),
            Column::Antipodes => GridCell::count(r.antipodes as u64),
            Column::DepthSum => GridCell::count(r.depth_sum),
            Column::MeanExact => {
                let exact = mean(r).to_string();
                GridCell::with_tex(&exact, format!("${exact}$"))
            }
            Column::Mean => {
                let (decimal, exact) = mean(r).decimal(places);
                let mut c = GridCell::decimal(&decimal);
                if !exact {
                    c.text = format!("≈ {decimal}");
                }
                c
            }
            Column::Median => GridCell::count(r.median_depth),
            Column::Widest => GridCell::count(r.max_width),
            Column::WidestDepth => GridCell::count(r.depth_of_max_width),
        }
    }

    /// The row's value as JSON: numbers as numbers (the exact mean, a fraction, as a string).
    fn json(self, r: &SummaryRow) -> Value {
        match self {
            Column::Board => r.board.clone().into(),
            Column::Blank => r.goal_blank.clone().into(),
            Column::Start => r.start.clone().into(),
            Column::Class => r.class.name().into(),
            Column::Metric => r.metric.name().into(),
            Column::States => r.states.into(),
            Column::Verified => verified(r).into(),
            Column::Eccentricity => r.eccentricity.into(),
            Column::Antipodes => (r.antipodes as u64).into(),
            // Past 2^53 a JSON number loses digits in most readers; the sum stays exact as text
            // there.
            Column::DepthSum => match u64::try_from(r.depth_sum) {
                Ok(n) if n < 1 << 53 => n.into(),
                _ => r.depth_sum.to_string().into(),
            },
            Column::MeanExact => mean(r).to_string().into(),
            Column::Mean => mean(r).to_f64().into(),
            Column::Median => r.median_depth.into(),
            Column::Widest => r.max_width.into(),
            Column::WidestDepth => r.depth_of_max_width.into(),
        }
    }
}

/// The row's count is the theorem's and every check passed.
fn verified(r: &SummaryRow) -> bool {
    r.verified && Some(r.states) == r.expected_states
}

/// The exact mean (rows are checked when read: `SummaryRow::check`).
fn mean(r: &SummaryRow) -> Fraction {
    Fraction::new(r.depth_sum, u128::from(r.states.max(1)))
}

/// The summary of `rows` in `format`, with `columns` (by default: `Column::DEFAULT` for
/// Markdown and LaTeX, every column for CSV and JSON).
pub fn render(
    rows: &[SummaryRow],
    format: Format,
    columns: Option<&[Column]>,
) -> Result<Rendered, Error> {
    let chosen = columns.is_some();
    let mut cols: Vec<Column> = match (columns, format) {
        (Some(c), _) => c.to_vec(),
        (None, Format::Markdown | Format::Latex) => Column::DEFAULT.to_vec(),
        (None, _) => Column::ALL.to_vec(),
    };
    let from_elsewhere = rows.iter().any(|r| r.start != "goal");
    let all_verified = rows.iter().all(verified);
    if !chosen && !all_verified && !cols.contains(&Column::Verified) {
        cols.insert(cols.len().min(3), Column::Verified);
    }
    // A search from another board: a column in Markdown, a note in LaTeX (a board is too wide
    // for a column there).
    if !chosen && format == Format::Markdown && from_elsewhere {
        cols.insert(cols.len().min(2), Column::Start);
    }
    // A multi-tile row: a column, but in LaTeX a mark on its board (a column is too wide for
    // a page there).
    let multi = rows.iter().any(|r| r.metric.note().is_some());
    if !chosen && multi && !cols.contains(&Column::Metric) && format != Format::Latex {
        cols.insert(cols.len().min(2), Column::Metric);
    }
    if format == Format::Json {
        let list: Vec<Value> = rows
            .iter()
            .map(|r| {
                let m: Map<String, Value> = cols
                    .iter()
                    .map(|c| (c.name().to_string(), c.json(r)))
                    .collect();
                Value::Object(m)
            })
            .collect();
        let text =
            serde_json::to_string_pretty(&list).map_err(|e| Error::Argument(e.to_string()))?;
        return Ok(Rendered {
            text: text + "\n",
            warnings: vec![],
        });
    }
    let places = if format == Format::Latex {
        LATEX_MEAN_PLACES
    } else {
        MEAN_PLACES
    };
    let mut grid = Grid {
        headings: cols.iter().map(|c| c.heading()).collect(),
        rows: rows
            .iter()
            .map(|r| cols.iter().map(|c| c.cell(r, places)).collect())
            .collect(),
        label: "tab:tilespace-boards".into(),
        ..Grid::default()
    };
    match format {
        Format::Csv => {
            // The values of the JSON rows, for programs: `true`, `12.622222`, no grouping.
            for (h, c) in grid.headings.iter_mut().zip(&cols) {
                h.text = c.name().into();
            }
            for (cells, r) in grid.rows.iter_mut().zip(rows) {
                for (cell, c) in cells.iter_mut().zip(&cols) {
                    cell.text = match c.json(r) {
                        Value::String(s) => s,
                        _ if *c == Column::Mean => mean(r).decimal(MEAN_PLACES).0,
                        v => v.to_string(),
                    };
                }
            }
            Ok(plain(grid.csv()))
        }
        Format::Markdown => Ok(plain(grid.markdown())),
        Format::Latex => {
            grid.caption = caption(&cols, all_verified);
            if !cols.contains(&Column::Start) {
                mark_starts(&mut grid, rows, &cols);
            }
            if !cols.contains(&Column::Metric) {
                mark_metric(&mut grid, rows, &cols);
            }
            let command = "tilespace table --format latex";
            Ok(fitted(grid.latex(command), &grid))
        }
        Format::Json => unreachable!("returned above"),
    }
}

pub(crate) fn plain(text: String) -> Rendered {
    Rendered {
        text,
        warnings: vec![],
    }
}

/// A LaTeX table, with a warning if it is wider than an article's text.
/// `grid` in `format`, its JSON being `rows` (the reports' rows, not the grid's text):
/// LaTeX made by `command` and checked for width (`fitted`).
pub(crate) fn rendered<T: serde::Serialize>(
    grid: &Grid,
    format: Format,
    command: &str,
    rows: &T,
) -> Result<Rendered, Error> {
    let text = match format {
        Format::Markdown => grid.markdown(),
        Format::Csv => grid.csv(),
        Format::Latex => return Ok(fitted(grid.latex(command), grid)),
        Format::Json => {
            serde_json::to_string_pretty(rows).map_err(|e| Error::Argument(e.to_string()))? + "\n"
        }
    };
    Ok(Rendered {
        text,
        warnings: vec![],
    })
}

pub(crate) fn fitted(text: String, grid: &Grid) -> Rendered {
    let width = grid.latex_width_pt();
    let mut warnings = vec![];
    if width > grid::ARTICLE_WIDTH_PT {
        warnings.push(format!(
            "the LaTeX table is about {width:.0} pt wide, more than the {:.0} pt of a one-column \
             article page: choose fewer columns (--columns) or boards (--boards)",
            grid::ARTICLE_WIDTH_PT
        ));
    }
    Rendered { text, warnings }
}

fn caption(cols: &[Column], all_verified: bool) -> String {
    let mut parts = vec![
        "Sliding-tile puzzles on $R\\times C$ boards, every state enumerated by breadth-first \
         search from the goal (tilespace)."
            .to_string(),
    ];
    if all_verified && cols.contains(&Column::States) {
        parts.push("Every count of states equals $(RC)!/2$ and passed every check.".into());
    }
    for c in cols {
        let d = c.described();
        if !d.is_empty() && !parts.iter().any(|p| p == d) {
            parts.push(d.into());
        }
    }
    parts.join(" ")
}

/// Marks the board of each search that started elsewhere than the goal, with a note under
/// the table naming its start.
/// Marks the board of each multi-tile row with a dagger, explained in a note under the table.
fn mark_metric(grid: &mut Grid, rows: &[SummaryRow], cols: &[Column]) {
    let Some(board) = cols.iter().position(|c| *c == Column::Board) else {
        return;
    };
    let mut any = false;
    for (cells, r) in grid.rows.iter_mut().zip(rows) {
        if r.metric.note().is_some() {
            cells[board].tex.push_str("\\textsuperscript{\\textdagger}");
            any = true;
        }
    }
    if any {
        grid.notes.push(
            "\\textsuperscript{\\textdagger}Moves counted in the multi-tile metric: the blank \
             slides any distance along its row or column in one move."
                .into(),
        );
    }
}

fn mark_starts(grid: &mut Grid, rows: &[SummaryRow], cols: &[Column]) {
    let Some(board) = cols.iter().position(|c| *c == Column::Board) else {
        return;
    };
    let mut mark = 0;
    for (cells, r) in grid.rows.iter_mut().zip(rows) {
        if r.start == "goal" {
            continue;
        }
        let letter = char::from(b'a' + (mark % 26) as u8);
        mark += 1;
        cells[board]
            .tex
            .push_str(&format!("\\textsuperscript{{{letter}}}"));
        grid.notes.push(format!(
            "\\textsuperscript{{{letter}}}Searched from \\texttt{{{}}} ({} class), not from the goal.",
            grid::tex(&r.start),
            grid::tex(r.class.name())
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_are_named_as_documented() {
        let all = Column::parse_list("all").unwrap();
        assert_eq!(all, Column::ALL);
        let names: Vec<&str> = all.iter().map(|c| c.name()).collect();
        assert_eq!(Column::parse_list(&names.join(",")).unwrap(), Column::ALL);
        assert_eq!(
            Column::parse_list("board, mean_depth").unwrap(),
            [Column::Board, Column::Mean]
        );
        // The names of summary.csv's header, which CSV and JSON tables write.
        let header = "board,rows,cols,goal_blank,start,class,metric,states,expected_states,\
                      verified,eccentricity,antipodes,depth_sum,mean_depth,mean_depth_exact,\
                      median_depth,max_width,depth_of_max_width";
        assert!(
            names.iter().all(|n| header.split(',').any(|h| h == *n)),
            "{names:?}"
        );
        for bad in [
            "",
            "board,,mean",
            "eccentricity,eccentricity",
            "mean_depth,mean_depth",
            "radius",
            "mean",
            "Board",
        ] {
            let e = Column::parse_list(bad).unwrap_err().to_string();
            assert!(e.contains("--columns: "), "{e}");
        }
    }
}

//! The reports of one analysis as CSV: `summary.csv` (one row per board, goal blank and start),
//! and per board `depths.csv` and `antipodes.csv`; the run itself (time, threads, build) goes to
//! `runs.csv` (`report::runs`), so that these figures reproduce byte for byte. Every file is
//! written through `store::atomic`, so an interrupted run never leaves a half-written report.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::rows::{read_rows, upsert_rows, write_csv};
use crate::analysis::distribution::Fraction;
use crate::analysis::Analysis;
use crate::error::Error;
use crate::puzzle::metric::Metric;
use crate::puzzle::parity::Class;

/// One row of `summary.csv`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SummaryRow {
    /// `RxC` in the user's orientation.
    pub board: String,
    /// R.
    pub rows: usize,
    /// C.
    pub cols: usize,
    /// The goal's blank cell, `R,C` 1-based.
    pub goal_blank: String,
    /// Where the search started: `goal`, or the board given with `--from`.
    pub start: String,
    /// `solvable` (the goal's class) or `unsolvable` (the other half).
    pub class: Class,
    /// How moves are counted: `single` or `multi`.
    pub metric: Metric,
    /// States reached from the goal.
    pub states: u64,
    /// (RC)!/2 from the counting theorem.
    pub expected_states: Option<u64>,
    /// All checks passed (see `Analysis::verified`).
    pub verified: bool,
    /// The start's eccentricity: the most moves any reached state needs (from the goal, God's
    /// number for the board and goal cell); `atlas` calls the least eccentricity over goal
    /// cells the radius.
    pub eccentricity: u32,
    /// Number of states at that distance (the antipodes).
    pub antipodes: usize,
    /// Σ depth · states.
    pub depth_sum: u128,
    /// depth_sum / states, 6 decimals.
    pub mean_depth: String,
    /// depth_sum / states in lowest terms.
    pub mean_depth_exact: String,
    /// Smallest depth with at least half of the states at or below it.
    pub median_depth: u32,
    /// States in the widest layer.
    pub max_width: u64,
    /// Depth of the widest layer (the shallowest if tied).
    pub depth_of_max_width: u32,
}

impl SummaryRow {
    /// The row of `a`.
    pub fn from_analysis(a: &Analysis) -> SummaryRow {
        let d = &a.distribution;
        let mean = d.mean();
        let (depth_of_max_width, max_width) = d.widest();
        SummaryRow {
            board: a.shape().to_string(),
            rows: a.shape().rows,
            cols: a.shape().cols,
            goal_blank: a.shape().cell_label(a.goal()),
            start: a.start.as_ref().map_or("goal".into(), |b| b.to_string()),
            class: Class::of(a.class),
            metric: a.metric(),
            states: d.total(),
            expected_states: a.expected,
            verified: a.verified,
            eccentricity: d.eccentricity(),
            antipodes: a.antipodes.len(),
            depth_sum: d.depth_sum(),
            mean_depth: mean.decimal(6).0,
            mean_depth_exact: mean.to_string(),
            median_depth: d.median(),
            max_width,
            depth_of_max_width,
        }
    }

    /// The board size, read back from `rows` and `cols`.
    pub fn shape(&self) -> Result<crate::puzzle::board::Shape, Error> {
        crate::puzzle::board::Shape::new(self.rows, self.cols)
    }

    /// The goal blank cell, read back from `goal_blank` (`R,C`).
    pub fn goal_cell(&self) -> Result<crate::puzzle::board::Cell, Error> {
        self.goal_blank
            .parse::<crate::puzzle::board::GoalBlank>()?
            .resolve(self.shape()?)
    }

    /// The start board of a `--from` search, None for a search from the goal.
    pub fn start_board(&self) -> Result<Option<crate::puzzle::board::Board>, Error> {
        if self.start == "goal" {
            return Ok(None);
        }
        crate::puzzle::board::Board::parse(&self.start, Some(self.shape()?)).map(Some)
    }

    /// The row's name for people: `2x3`, `3x3 blank 1,1` for another goal blank,
    /// `3x3 from 1 2 3/4 5 6/8 7 0` for a search from a board; ` multi-tile` after it in
    /// that metric.
    pub fn label(&self) -> String {
        let default_blank = self
            .shape()
            .ok()
            .map(|s| s.cell_label(crate::puzzle::board::Cell(s.cells() - 1)));
        let name = if self.start != "goal" {
            format!("{} from {}", self.board, self.start)
        } else if default_blank.as_deref() == Some(self.goal_blank.as_str()) {
            self.board.clone()
        } else {
            format!("{} blank {}", self.board, self.goal_blank)
        };
        match self.metric.note() {
            Some(note) => format!("{name} {note}"),
            None => name,
        }
    }

    /// The name of this row's report directory (as `report_name` gives for its analysis).
    pub fn report_dir(&self) -> Result<String, Error> {
        let shape = self.shape()?;
        let start = self.start_board()?;
        Ok(report_name_of(
            shape,
            self.goal_cell()?,
            start.as_ref(),
            self.metric,
        ))
    }

    /// Why this row cannot be an analysis's, if so: what the tables and plots print must
    /// agree with the counting theorem and with itself (the exact mean is the depth sum over
    /// the states, the median and the widest layer lie within the eccentricity, a verified search
    /// reached (RC)!/2 states).
    pub fn check(&self) -> Result<(), String> {
        let shape = self.shape().map_err(|e| e.to_string())?;
        self.report_dir().map_err(|e| e.to_string())?;
        if self.board != shape.to_string() {
            return Err(format!("board {} but rows x cols {shape}", self.board));
        }
        let theorem = crate::puzzle::count::reachable_u64(shape);
        if theorem != self.expected_states {
            let said = self.expected_states.map_or("no".into(), |e| e.to_string());
            return Err(format!("{said} expected states"));
        }
        if self.verified && Some(self.states) != self.expected_states {
            return Err("verified with states other than (RC)!/2".into());
        }
        let mean: Fraction = self.mean_depth_exact.parse()?;
        let states = u128::from(self.states);
        if mean.num.checked_mul(states) != self.depth_sum.checked_mul(mean.den) {
            return Err("a mean that is not its depth sum over its states".into());
        }
        let mean = self.depth_sum as f64 / states.max(1) as f64;
        if self
            .mean_depth
            .parse::<f64>()
            .map_or(true, |m| (m - mean).abs() > 1e-6)
        {
            return Err("a mean that is not its depth sum over its states".into());
        }
        let eccentricity = self.eccentricity;
        if self.states == 0
            || self.antipodes == 0
            || self.median_depth > eccentricity
            || self.depth_of_max_width > eccentricity
            || self.max_width > self.states
            || self.antipodes as u64 > self.states
        {
            return Err("depths or counts outside its distribution".into());
        }
        Ok(())
    }

    fn key(&self) -> (usize, usize, usize, String, bool, String, String) {
        (
            self.rows * self.cols,
            self.rows,
            self.cols,
            self.goal_blank.clone(),
            self.start != "goal",
            self.start.clone(),
            self.metric.to_string(),
        )
    }
}

/// Name of an analysis's report directory: `RxC`, `RxC-blank-R-C` for another goal blank, and
/// `RxC-from-T-T-…` (the start's cells in reading order, 0 the blank) for a search from a board;
/// `-multi` after it in the multi-tile metric, so that both metrics of a board sit side by side.
pub fn report_name(a: &Analysis) -> String {
    report_name_of(a.shape(), a.goal(), a.start.as_ref(), a.metric())
}

/// `report_name` of the search of `shape` from `start` (the goal if `None`) to `goal` in
/// `metric`, before it runs.
pub fn report_name_of(
    shape: crate::puzzle::board::Shape,
    goal: crate::puzzle::board::Cell,
    start: Option<&crate::puzzle::board::Board>,
    metric: Metric,
) -> String {
    let name = match start {
        None => shape.report_name(goal),
        Some(b) => dir_from(shape, b),
    };
    match metric.note() {
        None => name,
        Some(_) => format!("{name}-{metric}"),
    }
}

fn dir_from(shape: crate::puzzle::board::Shape, start: &crate::puzzle::board::Board) -> String {
    let cells: Vec<String> = start.cells().iter().map(|t| t.to_string()).collect();
    format!("{shape}-from-{}", cells.join("-"))
}

/// One row of `depths.csv`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DepthRow {
    /// The depth.
    pub depth: u32,
    /// States at it.
    pub states: u64,
    /// States at it or shallower.
    pub cumulative: u64,
    /// `states` over all states.
    pub fraction: f64,
}

/// The rows of a `depths.csv`; a missing file is an error (the board was not analysed), and so
/// is one that cannot be a distribution: no rows, depths not 0, 1, 2, … in order, a start layer
/// other than 1 state, an empty layer, or cumulative counts that do not add up.
pub fn read_depths(path: &Path) -> Result<Vec<DepthRow>, Error> {
    require(path)?;
    let rows: Vec<DepthRow> = read_rows(path)?;
    let bad = |why: &str| Error::damaged(path, why.to_string());
    if rows.is_empty() {
        return Err(bad("no layers (a damaged report: analyse the board again)"));
    }
    let mut cumulative = 0u64;
    for (d, row) in rows.iter().enumerate() {
        cumulative = cumulative.saturating_add(row.states);
        let fine = row.depth as usize == d
            && row.states > 0
            && (d > 0 || row.states == 1)
            && row.cumulative == cumulative;
        if !fine {
            return Err(bad(&format!(
                "row {} is not layer {d} of a distribution (a damaged report: analyse the board again)",
                d + 1
            )));
        }
    }
    Ok(rows)
}

/// The `depths.csv` of `row`'s board under `results`, checked against the row: the states
/// summed, the eccentricity, the antipodes (the last layer), the depth sum and the widest layer must
/// be the row's, or the board is named with what disagrees.
pub fn read_depths_of(results: &Path, row: &SummaryRow) -> Result<Vec<DepthRow>, Error> {
    let path = results.join(row.report_dir()?).join("depths.csv");
    let depths = read_depths(&path)?;
    let d = crate::analysis::distribution::Distribution {
        layers: depths.iter().map(|d| d.states).collect(),
    };
    let states = d.total();
    let last = d.layers[d.layers.len() - 1];
    let (widest_depth, widest) = d.widest();
    let disagreement = if states != row.states {
        Some(format!(
            "it sums to {states} states, the row says {}",
            row.states
        ))
    } else if d.eccentricity() != row.eccentricity {
        Some(format!(
            "its eccentricity is {}, the row says {}",
            d.eccentricity(),
            row.eccentricity
        ))
    } else if last != row.antipodes as u64 {
        Some(format!(
            "its last layer holds {last} states, the row says {} antipodes",
            row.antipodes
        ))
    } else if d.depth_sum() != row.depth_sum {
        Some(format!(
            "its depths sum to {}, the row says {}",
            d.depth_sum(),
            row.depth_sum
        ))
    } else if (widest, widest_depth) != (row.max_width, row.depth_of_max_width) {
        Some(format!(
            "its widest layer is {widest} states at depth {widest_depth}, the row says {} at {}",
            row.max_width, row.depth_of_max_width
        ))
    } else {
        None
    };
    match disagreement {
        None => Ok(depths),
        Some(why) => Err(Error::damaged(path, format!(
                    "the distribution of {} disagrees with its row in summary.csv: {why} (a damaged report: analyse the board again)",
                    row.label()
                ))),
    }
}

#[derive(Deserialize)]
struct AntipodeRow {
    #[allow(dead_code)]
    antipode: usize,
    board: String,
}

/// The boards of an `antipodes.csv` of a `shape` board; a missing file is an error.
pub fn read_antipodes(
    path: &Path,
    shape: crate::puzzle::board::Shape,
) -> Result<Vec<crate::puzzle::board::Board>, Error> {
    require(path)?;
    read_rows::<AntipodeRow>(path)?
        .into_iter()
        .map(|r| crate::puzzle::board::Board::parse(&r.board, Some(shape)))
        .collect()
}

fn require(path: &Path) -> Result<(), Error> {
    if path.exists() {
        Ok(())
    } else {
        Err(Error::Read {
            path: path.to_path_buf(),
            source: std::io::Error::new(
                std::io::ErrorKind::NotFound,
                "not found (run `tilespace analyze` for this board first)",
            ),
        })
    }
}

/// The paths one analysis writes under `dir`.
pub struct ReportPaths {
    /// `DIR/summary.csv`.
    pub summary: PathBuf,
    /// `DIR/<board>/depths.csv`.
    pub depths: PathBuf,
    /// `DIR/<board>/antipodes.csv`.
    pub antipodes: PathBuf,
}

/// Where `write_all` puts the reports of `a` under `dir`.
pub fn paths(dir: &Path, a: &Analysis) -> ReportPaths {
    paths_named(dir, &report_name(a))
}

/// Where `write_all` puts the reports of the analysis whose `report_name` is `name`.
pub fn paths_named(dir: &Path, name: &str) -> ReportPaths {
    let board_dir = dir.join(name);
    ReportPaths {
        summary: dir.join("summary.csv"),
        depths: board_dir.join("depths.csv"),
        antipodes: board_dir.join("antipodes.csv"),
    }
}

/// `runs.csv` under `dir`, which `write_all` appends each run to.
pub fn runs_path(dir: &Path) -> PathBuf {
    dir.join("runs.csv")
}

/// Writes all three reports for `a` under `dir`, and adds the run to `runs.csv` there; returns
/// the reports' paths.
pub fn write_all(dir: &Path, a: &Analysis) -> Result<ReportPaths, Error> {
    let p = paths(dir, a);
    write_depths(&p.depths, a)?;
    write_antipodes(&p.antipodes, a)?;
    upsert_summary(&p.summary, SummaryRow::from_analysis(a))?;
    super::runs::append_run(&runs_path(dir), super::runs::RunRow::from_analysis(a))?;
    Ok(p)
}

/// `depth,states,cumulative,fraction`, one row per depth from 0 to the eccentricity.
pub fn write_depths(path: &Path, a: &Analysis) -> Result<(), Error> {
    write_distribution(path, &a.distribution)
}

/// `depths.csv` of a distribution.
pub fn write_distribution(
    path: &Path,
    distribution: &crate::analysis::distribution::Distribution,
) -> Result<(), Error> {
    let total = distribution.total() as f64;
    write_csv(path, |w| {
        w.write_record(["depth", "states", "cumulative", "fraction"])?;
        for (d, n, cum) in distribution.cumulative() {
            w.write_record([
                d.to_string(),
                n.to_string(),
                cum.to_string(),
                format!("{:.12}", n as f64 / total),
            ])?;
        }
        Ok(())
    })
}

/// `antipode,board`: every state at the maximum depth, in the text form the tool reads.
pub fn write_antipodes(path: &Path, a: &Analysis) -> Result<(), Error> {
    write_csv(path, |w| {
        w.write_record(["antipode", "board"])?;
        for (i, b) in a.antipodes.iter().enumerate() {
            w.write_record([(i + 1).to_string(), b.to_string()])?;
        }
        Ok(())
    })
}

/// Replaces the row of the same board, goal blank and start in `summary.csv`, or adds it; rows
/// are kept sorted by cells, rows, columns, goal blank, then searches from the goal first.
pub fn upsert_summary(path: &Path, row: SummaryRow) -> Result<(), Error> {
    upsert_rows(path, vec![row], SummaryRow::key)
}

/// The rows of a `summary.csv`; none if the file does not exist. Two rows of one search (a
/// file the tool did not write: it replaces a search's row) are refused.
pub fn read_summary(path: &Path) -> Result<Vec<SummaryRow>, Error> {
    let rows = super::rows::read_checked(
        path,
        SummaryRow::check,
        |r| &r.board,
        "analyse the board again",
    )?;
    let mut seen = std::collections::HashMap::new();
    for (i, r) in rows.iter().enumerate() {
        if let Some(first) = seen.insert(r.key(), i) {
            return Err(Error::damaged(path, format!(
                        "rows {} and {} are both of {} (a damaged report: remove one, or analyse the board again)",
                        first + 1,
                        i + 1,
                        r.label()
                    )));
        }
    }
    Ok(rows)
}

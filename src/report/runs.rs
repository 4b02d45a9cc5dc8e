//! `runs.csv`: one row per analysis run, with when it finished, what it ran on and how long it
//! took. Timings live here, apart from `summary.csv`, so that the figures reproduce byte for
//! byte while the log of runs grows.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::puzzle::metric::Metric;

use super::provenance::BUILD;
use super::rows::{read_rows, write_rows};
use crate::analysis::Analysis;
use crate::error::Error;

/// One run of `analyze`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunRow {
    /// When the search finished, UTC (RFC 3339, seconds).
    pub finished: String,
    /// `RxC`, or a graph's `graph6:STRING`.
    pub board: String,
    /// The goal's blank cell, `R,C`, or a graph's vertex.
    pub goal_blank: String,
    /// `goal`, or the board searched from.
    pub start: String,
    /// `single` or `multi`.
    pub metric: Metric,
    /// Processes (MPI ranks), and threads summed over them.
    pub ranks: usize,
    /// Threads, summed over the ranks.
    pub threads: usize,
    /// Engine wall time.
    pub seconds: f64,
    /// States reached per second.
    pub states_per_second: u64,
    /// Bytes of the table(s), summed over the ranks.
    pub table_bytes: u64,
    /// The binary: version and git revision (see `report::provenance`).
    pub tilespace: String,
}

impl RunRow {
    /// The row of `a`, finished now, by this binary.
    pub fn from_analysis(a: &Analysis) -> RunRow {
        RunRow {
            finished: humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string(),
            board: a.puzzle.to_string(),
            goal_blank: a.puzzle.goal_label(),
            start: a.start.as_ref().map_or("goal".into(), |b| b.to_string()),
            metric: a.metric(),
            ranks: a.ranks,
            threads: a.threads,
            seconds: (a.seconds * 1e4).round() / 1e4,
            states_per_second: a.states_per_second().round() as u64,
            table_bytes: a.table_bytes,
            tilespace: BUILD.short(),
        }
    }
}

/// Adds `row` at the end of `path`'s runs, under the file's lock (concurrent runs keep every
/// row), atomically.
pub fn append_run(path: &Path, row: RunRow) -> Result<(), Error> {
    let _lock = crate::store::lock::exclusive(path)?;
    let mut rows: Vec<RunRow> = read_rows(path)?;
    rows.push(row);
    write_rows(path, &rows)
}

//! `analyze`: one complete search of a board, its facts as Python values and numpy arrays.

use std::path::PathBuf;

use numpy::IntoPyArray;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use tilespace::{analyze as search, AnalyzeOptions, Metric};

use crate::boards::{blank as goal_cell, boards_to, shape as parse_shape};
use crate::errors::{input, stoppable, to_py};

/// Enumerates every state reachable from the goal, on `threads` threads (all cores if `None`),
/// with the GIL released; Ctrl-C stops it at the next layer. The table is saved to
/// `save_table` if given (for `Table.open`). Returns a dict of its facts,
/// which `tilespace.Analysis` wraps.
#[pyfunction]
#[pyo3(signature = (shape, metric="single", blank=None, threads=None, save_table=None))]
pub fn analyze<'py>(
    py: Python<'py>,
    shape: &str,
    metric: &str,
    blank: Option<&Bound<PyAny>>,
    threads: Option<usize>,
    save_table: Option<PathBuf>,
) -> PyResult<Bound<'py, PyDict>> {
    let shape = parse_shape(py, shape)?;
    let goal = goal_cell(py, shape, blank)?;
    let metric: Metric = metric.parse().map_err(|e| to_py(py, &e))?;
    if threads == Some(0) {
        return Err(input(py, "threads must be at least 1".into()));
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(0))
        .build()
        .map_err(|e| input(py, format!("cannot start {threads:?} threads: {e}")))?;
    let analysis = stoppable(py, |stop| {
        let options = AnalyzeOptions {
            metric,
            stop: Some(stop),
            save_table: save_table.as_deref(),
            ..AnalyzeOptions::default()
        };
        pool.install(|| search(shape, goal, options, &|_| {}))
    })?;
    let d = &analysis.distribution;
    let mean = d.mean();
    let out = PyDict::new(py);
    out.set_item("shape", shape.to_string())?;
    out.set_item("metric", metric.name())?;
    out.set_item("blank", goal.0)?;
    out.set_item("states", analysis.states())?;
    out.set_item("eccentricity", d.eccentricity())?;
    out.set_item("antipodes", boards_to(py, shape, &analysis.antipodes)?)?;
    out.set_item("mean", (mean.num, mean.den))?;
    out.set_item("depths", d.layers.clone().into_pyarray(py))?;
    out.set_item("verified", analysis.verified)?;
    out.set_item("threads", analysis.threads)?;
    out.set_item("seconds", analysis.seconds)?;
    Ok(out)
}

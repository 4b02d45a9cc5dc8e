//! `analyze`: one complete search of a board, its facts as Python values and numpy arrays.

use std::path::PathBuf;

use numpy::{IntoPyArray, PyArray1};
use pyo3::prelude::*;
use tilespace::{analyze as search, AnalyzeOptions, Metric, Puzzle};

use crate::boards::{blank as goal_cell, boards_to, shape as parse_shape};
use crate::errors::{stoppable, to_py, ResourceError};

/// The facts of one search, as `tilespace.Analysis` takes them (`mean` as numerator and
/// denominator).
#[pyclass(module = "tilespace._native", frozen, get_all)]
pub struct Found {
    shape: String,
    metric: &'static str,
    blank: usize,
    states: u64,
    eccentricity: u32,
    antipodes: PyObject,
    mean_numerator: u128,
    mean_denominator: u128,
    depths: Py<PyArray1<u64>>,
    verified: bool,
    threads: usize,
    seconds: f64,
}

/// Enumerates every state reachable from the goal, on `threads` threads (all cores if `None`;
/// the caller has checked the count), with the GIL released; Ctrl-C stops it at the next
/// layer. The table is saved to `save_table` if given (for `Table.open`).
#[pyfunction]
#[pyo3(signature = (shape, metric, blank, threads, save_table))]
pub fn analyze(
    py: Python,
    shape: &str,
    metric: &str,
    blank: Option<&Bound<PyAny>>,
    threads: Option<usize>,
    save_table: Option<PathBuf>,
) -> PyResult<Found> {
    let shape = parse_shape(shape)?;
    let goal = goal_cell(shape, blank)?;
    let metric: Metric = metric.parse().map_err(|e| to_py(&e))?;
    let puzzle = Puzzle::board(shape, goal, metric).map_err(|e| to_py(&e))?;
    tilespace::analysis::memory::check(shape, &[metric], None).map_err(|e| to_py(&e))?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(0))
        .build()
        .map_err(|e| ResourceError::new_err(format!("cannot start threads: {e}")))?;
    let analysis = stoppable(py, |stop| {
        let options = AnalyzeOptions {
            stop: Some(stop),
            save_table: save_table.as_deref(),
            ..AnalyzeOptions::default()
        };
        pool.install(|| search(&puzzle, options, &|_| {}))
    })?;
    let d = &analysis.distribution;
    let mean = d.mean();
    Ok(Found {
        shape: shape.to_string(),
        metric: metric.name(),
        blank: goal.0,
        states: analysis.states(),
        eccentricity: d.eccentricity(),
        antipodes: boards_to(py, shape, &analysis.antipodes)?.unbind(),
        mean_numerator: mean.num,
        mean_denominator: mean.den,
        depths: d.layers.clone().into_pyarray(py).unbind(),
        verified: analysis.verified,
        threads: analysis.threads,
        seconds: analysis.seconds,
    })
}

//! Goals of tokens (pebble motion: labels that repeat, several blanks) on boards: their
//! analysis, and their saved tables. Arrangements go in and come out as the boards do (one a
//! row, `uint8`, 0 a blank), with labels that may repeat.

use std::path::PathBuf;

use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray1};
use pyo3::prelude::*;
use tilespace::analysis::arrangements::{analyze_tokens as search, TokenOptions};
use tilespace::index::puzzle::Ground;
use tilespace::puzzle::tokens::Tokens;
use tilespace::store::tokens::TokenTable as Saved;
use tilespace::{Error, Metric, Shape};

use crate::boards::{shape as parse_shape, Rows};
use crate::errors::{input, stoppable, to_py, ResourceError};
use crate::table::{distances, row_error};

/// The facts of one search of a goal of tokens, as `tilespace.TokenAnalysis` takes them.
#[pyclass(module = "tilespace._native", frozen, get_all)]
pub struct FoundTokens {
    shape: String,
    metric: &'static str,
    tokens: String,
    goal: PyObject,
    arrangements: u64,
    reachable: u64,
    predicted: Option<String>,
    eccentricity: u32,
    antipodes: PyObject,
    mean_numerator: u128,
    mean_denominator: u128,
    depths: Py<PyArray1<u64>>,
    verified: bool,
    threads: usize,
    seconds: f64,
}

/// Searches every arrangement of `goal`'s tokens (the token on each cell of `shape`, 0 a
/// blank) that reaches it, on `threads` threads (all cores if `None`), with the GIL released;
/// Ctrl-C stops it at the next layer. The depths are saved to `save_table` if given (for
/// `TokenTable.open`).
#[pyfunction]
#[pyo3(signature = (shape, goal, metric, threads, save_table))]
pub fn analyze_tokens(
    py: Python,
    shape: &str,
    goal: Rows,
    metric: &str,
    threads: Option<usize>,
    save_table: Option<PathBuf>,
) -> PyResult<FoundTokens> {
    let shape = parse_shape(shape)?;
    let goal = tokens_from(goal, shape)?
        .pop()
        .ok_or_else(|| input("no goal".into()))?;
    let metric: Metric = metric.parse().map_err(|e| to_py(&e))?;
    let ground = Ground::Board(shape);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(0))
        .build()
        .map_err(|e| ResourceError::new_err(format!("cannot start threads: {e}")))?;
    let a = stoppable(py, |stop| {
        let options = TokenOptions {
            save_table: save_table.as_deref(),
            stop: Some(stop),
            ..TokenOptions::default()
        };
        pool.install(|| search(&ground, &goal, metric, options, &|_, _| {}))
    })?;
    let d = &a.distribution;
    let mean = d.mean();
    Ok(FoundTokens {
        shape: shape.to_string(),
        metric: metric.name(),
        tokens: goal.notation(),
        goal: rows_to(py, shape, std::slice::from_ref(&goal)).unbind(),
        arrangements: a.arrangements,
        reachable: d.total(),
        predicted: a.predicted.as_ref().map(|p| p.goal.to_string()),
        eccentricity: d.eccentricity(),
        antipodes: rows_to(py, shape, &a.antipodes).unbind(),
        mean_numerator: mean.num,
        mean_denominator: mean.den,
        depths: d.layers.clone().into_pyarray(py).unbind(),
        verified: a.verified,
        threads: a.threads,
        seconds: a.seconds,
    })
}

/// The arrangements of `rows` (one a row of `shape`'s cells; labels as given, 0 a blank).
fn tokens_from(rows: Rows, shape: Shape) -> PyResult<Vec<Tokens>> {
    let cells: Vec<u32> = match &rows {
        Rows::Narrow(a) => a.as_array().iter().map(|&t| u32::from(t)).collect(),
        Rows::Wide(a) => a.as_array().iter().map(|&t| u32::from(t)).collect(),
    };
    let width = match &rows {
        Rows::Narrow(a) => a.as_array().dim().1,
        Rows::Wide(a) => a.as_array().dim().1,
    };
    if width != shape.cells() {
        return Err(input(format!(
            "arrangements must be an (N, {}) array for {shape}, not (N, {width})",
            shape.cells()
        )));
    }
    if let Some(label) = cells.iter().find(|&&l| l > u32::from(u8::MAX)) {
        return Err(input(format!("token {label}: labels here are 0 to 255")));
    }
    cells
        .chunks(width.max(1))
        .enumerate()
        .map(|(i, row)| Tokens::new(row.to_vec()).map_err(|e| input(format!("row {i}: {e}"))))
        .collect()
}

/// `arrangements` as an (N, cells) uint8 array (a board of tokens has at most 32 cells; the
/// caller has kept labels below 256).
fn rows_to<'py>(py: Python<'py>, shape: Shape, arrangements: &[Tokens]) -> Bound<'py, PyAny> {
    let cells: Vec<u8> = arrangements
        .iter()
        .flat_map(|t| t.cells().iter().map(|&l| l as u8))
        .collect();
    Array2::from_shape_vec((arrangements.len(), shape.cells()), cells)
        .expect("cells an arrangement")
        .into_pyarray(py)
        .into_any()
}

/// A saved table of a board's tokens (`analyze ... --goal TOKENS --save-table FILE`).
#[pyclass(module = "tilespace._native", frozen)]
pub struct TokenTable {
    table: Saved,
    path: PathBuf,
    shape: Shape,
}

#[pymethods]
impl TokenTable {
    /// Opens and checks the table at `path` (a board's: a graph's is refused).
    #[staticmethod]
    fn open(py: Python, path: PathBuf) -> PyResult<TokenTable> {
        let table = py
            .allow_threads(|| Saved::open(&path))
            .map_err(|e| to_py(&e))?;
        let Ground::Board(shape) = *table.ground() else {
            return Err(input(format!(
                "{} is a table of a graph's tokens: the command line answers for it \
                 (`tilespace distance --table FILE`)",
                path.display()
            )));
        };
        if table.goal().cells().iter().any(|&l| l > u32::from(u8::MAX)) {
            return Err(input(format!(
                "{} has labels past 255: the command line answers for it",
                path.display()
            )));
        }
        Ok(TokenTable { table, path, shape })
    }

    #[getter]
    fn path(&self) -> PathBuf {
        self.path.clone()
    }

    #[getter]
    fn shape(&self) -> String {
        self.shape.to_string()
    }

    #[getter]
    fn metric(&self) -> &'static str {
        self.table.metric().name()
    }

    #[getter]
    fn tokens(&self) -> String {
        self.table.goal().notation()
    }

    #[getter]
    fn goal<'py>(&self, py: Python<'py>) -> Bound<'py, PyAny> {
        rows_to(py, self.shape, std::slice::from_ref(self.table.goal()))
    }

    #[getter]
    fn eccentricity(&self) -> u32 {
        self.table.layers().len() as u32 - 1
    }

    #[getter]
    fn depths<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u64>> {
        self.table.layers().to_vec().into_pyarray(py)
    }

    /// The exact distance of each arrangement (one a row), with the GIL released: uint8
    /// (uint16 past 255 moves). An arrangement of other tokens, or one the goal does not
    /// reach, is an error naming its row.
    fn distance<'py>(&self, py: Python<'py>, rows: Rows) -> PyResult<Bound<'py, PyAny>> {
        let starts = tokens_from(rows, self.shape)?;
        let found: Result<Vec<u32>, Error> = py.allow_threads(|| {
            starts
                .iter()
                .enumerate()
                .map(|(i, t)| self.table.distance(t).map_err(|e| row_error(i, e)))
                .collect()
        });
        let found = found.map_err(|e| to_py(&e))?;
        let eccentricity = self.table.layers().len() as u32 - 1;
        Ok(distances(py, eccentricity, &found))
    }

    /// An optimal way from the arrangement (one row) to the goal: the arrangements it passes,
    /// both ends included.
    fn solve<'py>(&self, py: Python<'py>, row: Rows) -> PyResult<Bound<'py, PyAny>> {
        let start = tokens_from(row, self.shape)?;
        let way = py
            .allow_threads(|| self.table.solve(&start[0]))
            .map_err(|e| to_py(&e))?;
        Ok(rows_to(py, self.shape, &way))
    }

    fn __repr__(&self) -> String {
        format!(
            "<tilespace.TokenTable {:?}: shape='{}', metric='{}', tokens='{}', eccentricity={}>",
            self.path,
            self.shape,
            self.table.metric().name(),
            self.table.goal().notation(),
            self.table.layers().len() - 1
        )
    }
}

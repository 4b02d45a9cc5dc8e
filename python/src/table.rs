//! `Table`: a saved table (`tilespace analyze --save-table`, or `tilespace.analyze(...,
//! save_table=...)`) open for exact distances, optimal solutions and training sets.

use std::path::PathBuf;

use numpy::IntoPyArray;
use pyo3::prelude::*;
use rayon::prelude::*;
use tilespace::store::saved::SavedTable;
use tilespace::Error;

use crate::boards::{boards_from, boards_to, Rows};
use crate::errors::{stoppable, to_py};

/// Boards looked up between two checks for Ctrl-C.
const PART: usize = 1 << 18;

/// A saved table, its words in memory where they fit (else read from the file a probe at a time).
#[pyclass(module = "tilespace._native", frozen)]
pub struct Table {
    table: SavedTable,
}

#[pymethods]
impl Table {
    /// Opens and checks the table at `path` (every word's checksum, and the states by depth
    /// recounted against its layers).
    #[staticmethod]
    fn open(py: Python, path: PathBuf) -> PyResult<Table> {
        let table = py.allow_threads(|| SavedTable::open(&path));
        Ok(Table {
            table: table.map_err(|e| to_py(&e))?,
        })
    }

    /// The table's file.
    #[getter]
    fn path(&self) -> PathBuf {
        self.table.path.clone()
    }

    /// The board size, `RxC`.
    #[getter]
    fn shape(&self) -> String {
        self.table.shape.to_string()
    }

    /// `single` or `multi`.
    #[getter]
    fn metric(&self) -> &'static str {
        self.table.metric().name()
    }

    /// The goal's blank cell (0-based, a position of the flat board).
    #[getter]
    fn blank(&self) -> usize {
        self.table.goal.0
    }

    /// The most moves any board of the table needs.
    #[getter]
    fn eccentricity(&self) -> u32 {
        self.table.eccentricity
    }

    /// Boards at each depth.
    #[getter]
    fn depths<'py>(&self, py: Python<'py>) -> Bound<'py, numpy::PyArray1<u64>> {
        self.table.layers.clone().into_pyarray(py)
    }

    /// Whether the table's words are in memory.
    #[getter]
    fn in_memory(&self) -> bool {
        self.table.in_memory()
    }

    /// The exact distance of each board (one a row), in parallel with the GIL released: uint8
    /// (uint16 past 255 moves).
    fn distance<'py>(&self, py: Python<'py>, boards: Rows) -> PyResult<Bound<'py, PyAny>> {
        let boards = boards_from(py, self.table.shape, boards)?;
        let found = stoppable(py, |stop| {
            let mut out = Vec::with_capacity(boards.len());
            for (k, part) in boards.chunks(PART).enumerate() {
                if stop.load(std::sync::atomic::Ordering::SeqCst) {
                    return Err(Error::Stopped("distances".into()));
                }
                let answers = self.table.distances(part);
                for (i, answer) in answers.into_iter().enumerate() {
                    out.push(answer.map_err(|e| row_error(k * PART + i, e))?);
                }
            }
            Ok(out)
        })?;
        Ok(distances(py, self.table.eccentricity, &found))
    }

    /// An optimal solution of the board (one row; the caller has checked there is one): its moves as the command line writes them
    /// (U/D/L/R, the way the blank goes; a count after a multi-tile slide), and its boards
    /// from the board to the goal.
    fn solve<'py>(&self, py: Python<'py>, board: Rows) -> PyResult<(String, Bound<'py, PyAny>)> {
        let board = boards_from(py, self.table.shape, board)?;
        let path = py
            .allow_threads(|| self.table.solve(&board[0]))
            .map_err(|e| to_py(&e))?;
        let moves = match self.table.metric().path_moves(&path) {
            (_, Some(slides)) => slides.to_string(),
            (steps, None) => steps.to_string(),
        };
        Ok((moves, boards_to(py, self.table.shape, &path)?))
    }

    /// `n` uniformly random boards of the table's class with their distances, the same for the
    /// same seed; only boards `depth` moves from the goal if given.
    #[pyo3(signature = (n, seed, depth=None))]
    fn sample<'py>(
        &self,
        py: Python<'py>,
        n: usize,
        seed: u64,
        depth: Option<u32>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        let sample = stoppable(py, |stop| self.table.sample(n, seed, depth, Some(stop)))?;
        let d = distances(py, self.table.eccentricity, &sample.distances);
        Ok((boards_to(py, self.table.shape, &sample.boards)?, d))
    }

    /// The table as `tilespace.Table` shows it: its attributes, the blank 0-based as `blank`
    /// is.
    fn __repr__(&self) -> String {
        format!(
            "<tilespace.Table {:?}: shape='{}', metric='{}', blank={}, eccentricity={}>",
            self.table.path,
            self.table.shape,
            self.table.metric().name(),
            self.table.goal.0,
            self.table.eccentricity
        )
    }
}

/// Distances as numpy wants them: uint8, or uint16 where the table's eccentricity passes 255.
pub(crate) fn distances<'py>(
    py: Python<'py>,
    eccentricity: u32,
    found: &[u32],
) -> Bound<'py, PyAny> {
    if eccentricity <= u32::from(u8::MAX) {
        let d: Vec<u8> = found.par_iter().map(|&d| d as u8).collect();
        d.into_pyarray(py).into_any()
    } else {
        let d: Vec<u16> = found.par_iter().map(|&d| d as u16).collect();
        d.into_pyarray(py).into_any()
    }
}

/// A board's error with its row: bad input stays bad input.
pub(crate) fn row_error(row: usize, error: Error) -> Error {
    match error {
        Error::Board(why) => Error::Board(format!("row {row}: {why}")),
        Error::Unsolvable(why) => Error::Unsolvable(format!("row {row}: {why}")),
        other => other,
    }
}

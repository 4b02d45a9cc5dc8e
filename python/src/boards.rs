//! Boards between numpy and the library: shapes and blank cells from Python values, arrays of
//! boards (one a row, 0 the blank) checked row by row, and the vectorised board functions.

use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray1, PyReadonlyArray2};
use pyo3::prelude::*;
use rayon::prelude::*;
use tilespace::puzzle::count::decimal_counts;
use tilespace::puzzle::parity::{solvability, solvable_by_sign};
use tilespace::puzzle::random::{solvable_board, Rng};
use tilespace::{Board, Cell, GoalBlank, Shape};

use crate::errors::{input, to_py};

/// `text` (`RxC`) as a board size.
pub fn shape(py: Python, text: &str) -> PyResult<Shape> {
    text.parse().map_err(|e| to_py(py, &e))
}

/// The goal's blank cell: `None` for the last cell (the tool's default), an int as a 0-based
/// cell (a position of the flat board), a string as the command line takes it (`first`,
/// `last`, `center`, `R,C` or a cell number, 1-based).
pub fn blank(py: Python, shape: Shape, blank: Option<&Bound<PyAny>>) -> PyResult<Cell> {
    let goal = match blank {
        None => GoalBlank::Last,
        Some(value) => match value.extract::<i64>() {
            Ok(cell) if (0..shape.cells() as i64).contains(&cell) => return Ok(Cell(cell as usize)),
            Ok(cell) => {
                return Err(input(
                    py,
                    format!(
                        "blank cell {cell} is outside the {shape} board (cells 0..{} of the flat board)",
                        shape.cells()
                    ),
                ))
            }
            Err(_) => {
                let text: String = value.extract().map_err(|_| {
                    input(py, "blank must be None, a cell (int) or a string such as 'first'".into())
                })?;
                text.parse().map_err(|e| to_py(py, &e))?
            }
        },
    };
    goal.resolve(shape).map_err(|e| to_py(py, &e))
}

/// An array of boards as Python gives it: one board a row, tiles as uint8 or (past 255 cells)
/// uint16.
#[derive(FromPyObject)]
pub enum Rows<'py> {
    /// Tiles below 256.
    Narrow(PyReadonlyArray2<'py, u8>),
    /// Tiles below 65,536.
    Wide(PyReadonlyArray2<'py, u16>),
}

/// The boards of `rows` (one a row of `shape.cells()` entries), checked in parallel: the first
/// bad row's error names it.
pub fn boards_from(py: Python, shape: Shape, rows: Rows) -> PyResult<Vec<Board>> {
    match rows {
        Rows::Narrow(a) => boards_of(py, shape, a),
        Rows::Wide(a) => boards_of(py, shape, a),
    }
}

/// `boards_from` for one type of tile.
fn boards_of<T>(py: Python, shape: Shape, array: PyReadonlyArray2<T>) -> PyResult<Vec<Board>>
where
    T: numpy::Element + Copy + Into<u32> + Sync,
{
    let (rows, cols) = array.as_array().dim();
    if cols != shape.cells() {
        return Err(input(
            py,
            format!(
                "boards must be an (N, {}) array for {shape}, not ({rows}, {cols})",
                shape.cells()
            ),
        ));
    }
    if rows == 0 {
        return Ok(Vec::new());
    }
    let owned;
    let cells: &[T] = match array.as_slice() {
        Ok(cells) => cells,
        Err(_) => {
            owned = array.as_array().iter().copied().collect::<Vec<T>>();
            &owned
        }
    };
    let boards: Vec<Result<Board, String>> = py.allow_threads(|| {
        cells
            .par_chunks(cols)
            .enumerate()
            .map(|(i, row)| {
                let row = row.iter().map(|&t| t.into()).collect();
                Board::new(shape, row).map_err(|e| format!("row {i}: {e}"))
            })
            .collect()
    });
    boards
        .into_iter()
        .map(|b| b.map_err(|why| input(py, why)))
        .collect()
}

/// `boards` as an (N, cells) array: int8, or int16 where the tiles pass 127.
pub fn boards_to<'py>(
    py: Python<'py>,
    shape: Shape,
    boards: &[Board],
) -> PyResult<Bound<'py, PyAny>> {
    let dim = (boards.len(), shape.cells());
    let flat = boards.iter().flat_map(|b| b.cells().iter().copied());
    if shape.cells() <= 128 {
        let cells: Vec<i8> = flat.map(|t| t as i8).collect();
        Ok(Array2::from_shape_vec(dim, cells)
            .expect("cells a board")
            .into_pyarray(py)
            .into_any())
    } else {
        let cells: Vec<i16> = flat.map(|t| t as i16).collect();
        Ok(Array2::from_shape_vec(dim, cells)
            .expect("cells a board")
            .into_pyarray(py)
            .into_any())
    }
}

/// `n` uniformly random boards of `shape` that reach the goal with its blank on `blank`.
#[pyfunction]
#[pyo3(signature = (shape, n, seed, blank=None))]
pub fn random_boards<'py>(
    py: Python<'py>,
    shape: &str,
    n: usize,
    seed: u64,
    blank: Option<&Bound<PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let shape = self::shape(py, shape)?;
    let goal = self::blank(py, shape, blank)?;
    let boards: Vec<Board> = py.allow_threads(|| {
        let mut rng = Rng::new(seed);
        (0..n)
            .map(|_| solvable_board(shape, goal, &mut rng))
            .collect()
    });
    boards_to(py, shape, &boards)
}

/// Whether each board reaches the goal with its blank on `blank`.
#[pyfunction]
#[pyo3(signature = (boards, shape, blank=None))]
pub fn solvable<'py>(
    py: Python<'py>,
    boards: Rows,
    shape: &str,
    blank: Option<&Bound<PyAny>>,
) -> PyResult<Bound<'py, PyArray1<bool>>> {
    let shape = self::shape(py, shape)?;
    let goal = self::blank(py, shape, blank)?;
    let boards = boards_from(py, shape, boards)?;
    let answers: Vec<bool> = py.allow_threads(|| {
        boards
            .par_iter()
            .map(|b| match shape.is_line() {
                // On a line no tile passes another: parity is not enough.
                true => solvability(b, goal).solvable,
                false => solvable_by_sign(b, goal),
            })
            .collect()
    });
    Ok(answers.into_pyarray(py))
}

/// The number of boards of `shape` that reach a goal, in decimal: (RC)!/2 (RC on a line).
#[pyfunction]
pub fn count(py: Python, shape: &str) -> PyResult<String> {
    let shape = self::shape(py, shape)?;
    Ok(decimal_counts(shape).1)
}

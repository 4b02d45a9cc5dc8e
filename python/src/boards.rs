//! Boards between numpy and the library: shapes and blank cells from Python values, arrays of
//! boards (one a row, 0 the blank) checked row by row, and the vectorised board functions.
//!
//! Boards go in and come out in one dtype: `uint8`, or `uint16` on boards of more than 256
//! cells (`tilespace.board_dtype`); `tilespace/__init__.py` converts other integer arrays.

use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray1, PyReadonlyArray2};
use pyo3::prelude::*;
use pyo3::types::PyBool;
use rayon::prelude::*;
use tilespace::puzzle::count::counts;
use tilespace::puzzle::parity::{solvability, solvable_by_sign};
use tilespace::puzzle::random::{solvable_board, Rng};
use tilespace::{Board, Cell, GoalBlank, Shape};

use crate::errors::{input, room_for, to_py, InputTypeError};

/// The most cells of a board whose tiles fit `uint8`.
const NARROW_CELLS: usize = 256;

/// `text` (`RxC`) as a board size.
pub fn shape(text: &str) -> PyResult<Shape> {
    text.parse().map_err(|e| to_py(&e))
}

/// The goal's blank cell: `None` for the last cell (the tool's default), an int as a 0-based
/// cell (a position of the flat board), a string as the command line takes it (`first`,
/// `last`, `center`, `R,C` or a cell number, 1-based). A bool is refused (a `TypeError`).
pub fn blank(shape: Shape, blank: Option<&Bound<PyAny>>) -> PyResult<Cell> {
    let Some(value) = blank else {
        return GoalBlank::Last.resolve(shape).map_err(|e| to_py(&e));
    };
    if value.is_instance_of::<PyBool>() {
        return Err(InputTypeError::new_err(
            "blank must be None, a cell (int) or a string such as 'first', not a bool",
        ));
    }
    if let Ok(cell) = value.extract::<i128>() {
        if (0..shape.cells() as i128).contains(&cell) {
            return Ok(Cell(cell as usize));
        }
        return Err(input(format!(
            "blank cell {cell} is outside the {shape} board (cells 0..{} of the flat board)",
            shape.cells()
        )));
    }
    let text: String = value.extract().map_err(|_| {
        InputTypeError::new_err(format!(
            "blank must be None, a cell (int) or a string such as 'first', not {}",
            value
                .get_type()
                .name()
                .map_or("?".into(), |n| n.to_string())
        ))
    })?;
    let goal: GoalBlank = text.parse().map_err(|e| to_py(&e))?;
    goal.resolve(shape).map_err(|e| to_py(&e))
}

/// An array of boards as `tilespace` passes it: one board a row, tiles as uint8 or (past 256
/// cells) uint16.
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
        return Err(input(format!(
            "boards must be an (N, {}) array for {shape}, not ({rows}, {cols})",
            shape.cells()
        )));
    }
    if rows == 0 {
        return Ok(Vec::new());
    }
    room_for(
        &format!("{rows} {shape} boards"),
        rows as f64 * Board::bytes(shape),
    )?;
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
    boards.into_iter().map(|b| b.map_err(input)).collect()
}

/// `boards` as an (N, cells) array of the boards' dtype: uint8, or uint16 past 256 cells.
pub fn boards_to<'py>(
    py: Python<'py>,
    shape: Shape,
    boards: &[Board],
) -> PyResult<Bound<'py, PyAny>> {
    let dim = (boards.len(), shape.cells());
    let flat = boards.iter().flat_map(|b| b.cells().iter().copied());
    if shape.cells() <= NARROW_CELLS {
        let cells: Vec<u8> = flat.map(|t| t as u8).collect();
        Ok(Array2::from_shape_vec(dim, cells)
            .expect("cells a board")
            .into_pyarray(py)
            .into_any())
    } else {
        let cells: Vec<u16> = flat.map(|t| t as u16).collect();
        Ok(Array2::from_shape_vec(dim, cells)
            .expect("cells a board")
            .into_pyarray(py)
            .into_any())
    }
}

/// `n` uniformly random boards of `shape` that reach the goal with its blank on `blank`,
/// refused before anything is drawn if they would not fit in memory.
#[pyfunction]
#[pyo3(signature = (shape, n, seed, blank))]
pub fn random_boards<'py>(
    py: Python<'py>,
    shape: &str,
    n: usize,
    seed: u64,
    blank: Option<&Bound<PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let shape = self::shape(shape)?;
    let goal = self::blank(shape, blank)?;
    // The boards drawn, and the array they are copied into.
    room_for(
        &format!("{n} random {shape} boards"),
        n as f64 * (Board::bytes(shape) + 2.0 * shape.cells() as f64),
    )?;
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
#[pyo3(signature = (boards, shape, blank))]
pub fn solvable<'py>(
    py: Python<'py>,
    boards: Rows,
    shape: &str,
    blank: Option<&Bound<PyAny>>,
) -> PyResult<Bound<'py, PyArray1<bool>>> {
    let shape = self::shape(shape)?;
    let goal = self::blank(shape, blank)?;
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

/// The number of boards of `shape` that reach a goal, as a Python int of any size: (RC)!/2
/// (RC on a line). Built from its bytes, not from decimal text (which Python refuses past
/// 4,300 digits).
#[pyfunction]
pub fn count(shape: &str) -> PyResult<num_bigint::BigUint> {
    let shape = self::shape(shape)?;
    Ok(counts(shape).reachable)
}

/// The numpy dtype name of `shape`'s boards: `uint8`, or `uint16` past 256 cells.
#[pyfunction]
pub fn board_dtype(shape: &str) -> PyResult<&'static str> {
    let shape = self::shape(shape)?;
    Ok(if shape.cells() <= NARROW_CELLS {
        "uint8"
    } else {
        "uint16"
    })
}

/// The rows and columns of `shape`.
#[pyfunction]
pub fn dims(shape: &str) -> PyResult<(usize, usize)> {
    let shape = self::shape(shape)?;
    Ok((shape.rows, shape.cols))
}

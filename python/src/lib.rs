//! The extension module `tilespace._native`: the library's analyses, saved tables and board
//! functions over numpy arrays. `tilespace/__init__.py` wraps it in the API users import (each
//! argument checked there, once: types, ranges and the caps the command line sets; dtypes and
//! shapes of arrays; `Fraction`, pandas), and `tilespace/_native.pyi` types it. What is checked
//! here is what only the library can tell: boards, shapes, goal cells, and the memory work of a
//! caller's size would take.

mod analyze;
mod boards;
mod errors;
mod table;
mod tokens;

use pyo3::prelude::*;

/// The native half of the `tilespace` package.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("MOST_THREADS", tilespace::analysis::threads::most())?;
    m.add_function(wrap_pyfunction!(analyze::analyze, m)?)?;
    m.add_function(wrap_pyfunction!(boards::random_boards, m)?)?;
    m.add_function(wrap_pyfunction!(boards::solvable, m)?)?;
    m.add_function(wrap_pyfunction!(boards::count, m)?)?;
    m.add_function(wrap_pyfunction!(boards::board_dtype, m)?)?;
    m.add_function(wrap_pyfunction!(boards::dims, m)?)?;
    m.add_class::<analyze::Found>()?;
    m.add_class::<table::Table>()?;
    m.add_function(wrap_pyfunction!(tokens::analyze_tokens, m)?)?;
    m.add_class::<tokens::FoundTokens>()?;
    m.add_class::<tokens::TokenTable>()?;
    Ok(())
}

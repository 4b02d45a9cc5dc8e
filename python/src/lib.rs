//! The extension module `tilespace._native`: the library's analyses, saved tables and board
//! functions over numpy arrays. `tilespace/__init__.py` wraps it in the API users import
//! (argument checks, dtypes, `Fraction`, pandas), and `tilespace/_native.pyi` types it.

mod analyze;
mod boards;
mod errors;
mod table;

use pyo3::prelude::*;

/// The native half of the `tilespace` package.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(analyze::analyze, m)?)?;
    m.add_function(wrap_pyfunction!(boards::random_boards, m)?)?;
    m.add_function(wrap_pyfunction!(boards::solvable, m)?)?;
    m.add_function(wrap_pyfunction!(boards::count, m)?)?;
    m.add_class::<table::Table>()?;
    Ok(())
}

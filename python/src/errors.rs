//! The library's errors as the package's exceptions (`tilespace/_errors.py`), and long work
//! run with the GIL released and stopped by Ctrl-C.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use pyo3::prelude::*;
use pyo3::types::PyType;
use tilespace::{Error, ErrorKind};

/// The exception class of `tilespace._errors` named `name`.
fn class<'py>(py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyType>> {
    let module = py.import("tilespace._errors")?;
    Ok(module.getattr(name)?.downcast_into::<PyType>()?)
}

/// The exception `name` of the package with `message`.
pub fn raise(py: Python, name: &str, message: String) -> PyErr {
    match class(py, name) {
        Ok(class) => PyErr::from_type(class, message),
        Err(e) => e,
    }
}

/// `error` as the package's exception: its one-line message, its class by its kind (bad input
/// a `ValueError`, files an `OSError`, memory a `MemoryError`; `tilespace.Error` is the base of
/// all).
pub fn to_py(py: Python, error: &Error) -> PyErr {
    let name = match error.kind() {
        ErrorKind::Input | ErrorKind::Unsolvable => "InputError",
        ErrorKind::Io | ErrorKind::Damaged => "FileError",
        ErrorKind::Resources => "ResourceError",
        _ => "Error",
    };
    raise(py, name, error.to_string())
}

/// A `ValueError` of the package (`InputError`).
pub fn input(py: Python, message: String) -> PyErr {
    raise(py, "InputError", message)
}

/// Runs `work` on a thread of its own while this one waits without the GIL, so other Python
/// threads run. A signal (Ctrl-C) is handled as Python handles it: `work`'s `stop` flag is
/// set, it is awaited, and the handler's exception (`KeyboardInterrupt`) is raised. A panic
/// is a `tilespace.Error`, never a crash of the interpreter.
pub fn stoppable<T: Send>(
    py: Python,
    work: impl FnOnce(&AtomicBool) -> Result<T, Error> + Send,
) -> PyResult<T> {
    let stop = AtomicBool::new(false);
    let outcome = std::thread::scope(|scope| {
        let worker = scope.spawn(|| work(&stop));
        loop {
            py.allow_threads(|| {
                for _ in 0..10 {
                    if worker.is_finished() {
                        break;
                    }
                    std::thread::sleep(Duration::from_millis(5));
                }
            });
            if worker.is_finished() {
                return Ok(worker.join());
            }
            if let Err(signalled) = py.check_signals() {
                stop.store(true, Ordering::SeqCst);
                // The work stops at its next boundary; what it gives then is dropped.
                let _ = py.allow_threads(|| worker.join());
                return Err(signalled);
            }
        }
    })?;
    match outcome {
        Ok(result) => result.map_err(|e| to_py(py, &e)),
        Err(panic) => {
            let why = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "no message".into());
            Err(raise(py, "Error", format!("internal error (a bug): {why}")))
        }
    }
}

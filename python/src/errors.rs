//! The library's errors as the package's exceptions, and long work run with the GIL released
//! and stopped by Ctrl-C.
//!
//! The exception classes are defined in Python (`tilespace/_errors.py`: each is both a
//! `tilespace.Error` and the built-in exception a caller expects, `ValueError`, `TypeError`,
//! `OSError` or `MemoryError`, which one base class of `create_exception!` cannot give) and
//! imported here once, by `import_exception!`: the type object is cached on first use.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use pyo3::prelude::*;
use tilespace::{Error as LibError, ErrorKind};

pyo3::import_exception!(tilespace._errors, Error);
pyo3::import_exception!(tilespace._errors, InputError);
pyo3::import_exception!(tilespace._errors, InputTypeError);
pyo3::import_exception!(tilespace._errors, FileError);
pyo3::import_exception!(tilespace._errors, ResourceError);

/// `error` as the package's exception: its one-line message, its class by its kind (bad input
/// an `InputError`, files a `FileError`, memory a `ResourceError`; `tilespace.Error` the base
/// of all).
pub fn to_py(error: &LibError) -> PyErr {
    let message = error.to_string();
    match error.kind() {
        ErrorKind::Input | ErrorKind::Unsolvable => InputError::new_err(message),
        ErrorKind::Io | ErrorKind::Damaged => FileError::new_err(message),
        ErrorKind::Resources => ResourceError::new_err(message),
        _ => Error::new_err(message),
    }
}

/// An `InputError` (a `ValueError`) with `message`.
pub fn input(message: String) -> PyErr {
    InputError::new_err(message)
}

/// Refuses work of `needed` bytes, sized by the caller (`what`), that would not fit in the
/// memory available now: a `ResourceError` before anything is allocated, never an abort of the
/// interpreter.
pub fn room_for(what: &str, needed: f64) -> PyResult<()> {
    tilespace::analysis::memory::room_for(needed, None).map_err(|limit| {
        to_py(&LibError::NoRoom {
            what: what.to_string(),
            needed: needed.min(u64::MAX as f64) as u64,
            limit,
        })
    })
}

/// Runs `work` on a thread of its own while this one waits without the GIL, so other Python
/// threads run. A signal (Ctrl-C) is handled as Python handles it: `work`'s `stop` flag is
/// set, it is awaited, and the handler's exception (`KeyboardInterrupt`) is raised. A thread
/// that cannot be started is a `ResourceError`, and a panic a `tilespace.Error`: never a crash
/// of the interpreter.
pub fn stoppable<T: Send>(
    py: Python,
    work: impl FnOnce(&AtomicBool) -> Result<T, LibError> + Send,
) -> PyResult<T> {
    let stop = AtomicBool::new(false);
    let outcome = std::thread::scope(|scope| {
        let worker = std::thread::Builder::new()
            .spawn_scoped(scope, || work(&stop))
            .map_err(|e| ResourceError::new_err(format!("cannot start a thread: {e}")))?;
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
        Ok(result) => result.map_err(|e| to_py(&e)),
        Err(panic) => {
            let why = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "no message".into());
            Err(Error::new_err(format!("internal error (a bug): {why}")))
        }
    }
}

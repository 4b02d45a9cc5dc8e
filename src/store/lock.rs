//! Advisory locks (the standard library's `File::lock`, `flock` on Unix) that keep concurrent
//! runs from losing each other's work: a report's rows are read, changed and written under an
//! exclusive lock, and a checkpoint directory belongs to one running search.
//!
//! A lock is a file beside what it guards, `.NAME.lock`; it stays on disk (empty) and is
//! released when the holding process ends, however it ends.

use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};

use crate::error::Error;

/// A held lock, released on drop.
#[derive(Debug)]
pub struct Lock {
    _file: File,
}

/// The lock file of `path`: `.NAME.lock` beside it.
fn lock_file(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("tilespace");
    path.with_file_name(format!(".{name}.lock"))
}

fn open(path: &Path) -> Result<(PathBuf, File), Error> {
    let lock = lock_file(path);
    if let Some(dir) = lock.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|source| Error::Write {
            path: dir.to_path_buf(),
            source,
        })?;
    }
    let file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock)
        .map_err(|source| Error::Write {
            path: lock.clone(),
            source,
        })?;
    Ok((lock, file))
}

/// Waits for, then holds, the exclusive lock of `path`.
pub fn exclusive(path: &Path) -> Result<Lock, Error> {
    let (lock, file) = open(path)?;
    file.lock()
        .map_err(|source| Error::Write { path: lock, source })?;
    Ok(Lock { _file: file })
}

/// The exclusive lock of `path` if no one holds it, `None` if another process (or another
/// handle of this one) does.
pub fn try_exclusive(path: &Path) -> Result<Option<Lock>, Error> {
    let (lock, file) = open(path)?;
    match file.try_lock() {
        Ok(()) => Ok(Some(Lock { _file: file })),
        Err(std::fs::TryLockError::WouldBlock) => Ok(None),
        Err(std::fs::TryLockError::Error(source)) => Err(Error::Write { path: lock, source }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A held lock refuses a second holder until it is dropped.
    #[test]
    fn a_lock_has_one_holder() {
        let dir = tempfile::tempdir().unwrap();
        let guarded = dir.path().join("ck");
        let first = try_exclusive(&guarded).unwrap();
        assert!(first.is_some());
        assert!(try_exclusive(&guarded).unwrap().is_none());
        drop(first);
        assert!(try_exclusive(&guarded).unwrap().is_some());
        let _held = exclusive(&guarded).unwrap();
        assert!(try_exclusive(&guarded).unwrap().is_none());
    }
}

//! Files written so that a crash, a full disk or a concurrent run never leaves a half-written
//! one: a temporary file beside the target, synced, renamed over it, and the directory synced.

use std::fs;
use std::io::Write;
use std::path::Path;

use crate::error::Error;

/// Fails early, naming the path, if files cannot be written under `dir` (before a long run).
pub fn check_writable(dir: &Path) -> Result<(), Error> {
    let probe = dir.join(".tilespace-write-test");
    write_atomic(&probe, b"")?;
    let _ = fs::remove_file(probe);
    Ok(())
}

/// Writes `bytes` to `path` through a temporary file and a rename.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    write_atomic_with(path, |w| w.write_all(bytes))
}

/// `write_atomic`, with the contents streamed by `fill` (for files too large to build in
/// memory first, such as saved tables).
pub fn write_atomic_with(
    path: &Path,
    fill: impl FnOnce(&mut std::io::BufWriter<fs::File>) -> std::io::Result<()>,
) -> Result<(), Error> {
    let err = |source| Error::Write {
        path: path.to_path_buf(),
        source,
    };
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    fs::create_dir_all(dir).map_err(err)?;
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("report");
    let tmp = dir.join(format!(".{name}.tmp-{}", std::process::id()));
    let result = (|| {
        let mut w = std::io::BufWriter::with_capacity(1 << 20, fs::File::create(&tmp)?);
        fill(&mut w)?;
        let f = w.into_inner().map_err(|e| e.into_error())?;
        f.sync_all()?;
        fs::rename(&tmp, path)?;
        // The rename itself is durable once the directory is synced.
        fs::File::open(dir)?.sync_all()
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result.map_err(err)
}

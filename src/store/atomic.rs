//! Files written so that a crash, a full disk or a concurrent run never leaves a half-written
//! one: a temporary file beside the target, synced, renamed over it, and the directory synced.
//!
//! The temporary is created exclusively (never through an existing file or a planted symlink)
//! under a name no other process can predict, `.NAME.tmp-PID-RANDOM` (the `tempfile` crate),
//! with the permissions of the file it replaces, or those a plain `File::create` would give.
//! The temporaries of a process that died (killed while writing a 10.9 GB table, say) are
//! removed by the next write of the same name. A target that exists and is not a regular file
//! (a device, a FIFO, a directory, a symlink), or is read-only, is refused rather than replaced
//! by a file.

use std::fs;
use std::io::Write;
use std::path::Path;

use crate::error::Error;

/// Fails early, naming the path, if files cannot be written under `dir` (before a long run).
pub fn check_writable(dir: &Path) -> Result<(), Error> {
    let probe = dir.join(".tilespace-write-test");
    write_atomic(&probe, b"").map_err(|e| match e {
        Error::Write { source, .. } => Error::Write {
            path: dir.to_path_buf(),
            source,
        },
        e => e,
    })?;
    let _ = fs::remove_file(probe);
    Ok(())
}

/// Fails, naming the path, if `path` exists and is not a regular file (writing it would
/// replace a device, a FIFO, a directory or a symlink with a file), or is read-only (a rename
/// would replace it where a write is refused).
pub fn check_target(path: &Path) -> Result<(), Error> {
    let refuse = |kind, why: &str| Error::Write {
        path: path.to_path_buf(),
        source: std::io::Error::new(kind, why.to_string()),
    };
    match fs::symlink_metadata(path) {
        Ok(m) if !m.file_type().is_file() => Err(refuse(
            std::io::ErrorKind::Other,
            "it is not a regular file (a device, FIFO, directory or symlink): not replaced",
        )),
        Ok(m) if m.permissions().readonly() => Err(refuse(
            std::io::ErrorKind::PermissionDenied,
            "it is read-only: not replaced (make it writable, or give another path)",
        )),
        _ => Ok(()),
    }
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
    check_target(path)?;
    let dir = parent_dir(path);
    match fs::metadata(dir) {
        Ok(m) if !m.is_dir() => {
            return Err(Error::Write {
                path: dir.to_path_buf(),
                source: std::io::Error::other("not a directory"),
            })
        }
        _ => fs::create_dir_all(dir).map_err(err)?,
    }
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("report");
    remove_dead(dir, name);
    let prefix = format!(".{name}.tmp-{}-", std::process::id());
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix);
    // The permissions `File::create` gives, 0o666 less the umask (tempfile's default is 0o600).
    // A file replaced keeps its permissions.
    #[cfg(unix)]
    builder.permissions(match fs::metadata(path) {
        Ok(m) => m.permissions(),
        Err(_) => std::os::unix::fs::PermissionsExt::from_mode(0o666),
    });
    // tempfile names the temporary in its errors; the target's name says enough.
    let unnamed = |e: std::io::Error| {
        let text = e.to_string();
        let cause = text.split(" at path ").next().unwrap_or_default();
        std::io::Error::new(e.kind(), cause.to_string())
    };
    let tmp = builder.tempfile_in(dir).map_err(|e| err(unnamed(e)))?;
    let _listed = InFlight::list(tmp.path());
    let result = (|| {
        let mut w = std::io::BufWriter::with_capacity(1 << 20, tmp.as_file().try_clone()?);
        fill(&mut w)?;
        let f = w.into_inner().map_err(|e| e.into_error())?;
        f.sync_all()
    })();
    // On failure the temporary is removed when `tmp` drops.
    result.map_err(err)?;
    tmp.persist(path).map_err(|e| err(e.error))?;
    // The rename itself is durable once the directory is synced.
    fs::File::open(dir).and_then(|d| d.sync_all()).map_err(err)
}

/// The temporaries being written now, for `remove_in_flight`.
static IN_FLIGHT: std::sync::Mutex<Vec<std::path::PathBuf>> = std::sync::Mutex::new(Vec::new());

/// A temporary's place in `IN_FLIGHT`, for as long as it is written.
struct InFlight(std::path::PathBuf);

impl InFlight {
    fn list(path: &Path) -> InFlight {
        if let Ok(mut all) = IN_FLIGHT.lock() {
            all.push(path.to_path_buf());
        }
        InFlight(path.to_path_buf())
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        if let Ok(mut all) = IN_FLIGHT.lock() {
            all.retain(|p| *p != self.0);
        }
    }
}

/// Removes the temporaries of the writes under way (a best effort): for a process about to
/// exit at once (a second Ctrl-C), whose destructors, which would remove them, do not run.
/// The targets are untouched: a write is a rename of its finished temporary.
pub fn remove_in_flight() {
    remove_listed(|_| true);
}

/// Removes the temporaries under way that `which` picks.
fn remove_listed(which: impl Fn(&Path) -> bool) {
    let all = match IN_FLIGHT.lock() {
        Ok(all) => all.clone(),
        Err(poisoned) => poisoned.into_inner().clone(),
    };
    for path in all.iter().filter(|p| which(p)) {
        let _ = fs::remove_file(path);
    }
}

/// Opens `path` for reading if it is a regular file: a FIFO planted where a table, checkpoint
/// or report is expected would block the reader forever, and a device would feed it without
/// end. The error says what the path is instead.
pub fn open_regular(path: &Path) -> std::io::Result<fs::File> {
    let not_regular = |what: fs::FileType| {
        let kind = if what.is_dir() {
            "a directory"
        } else {
            "not a regular file"
        };
        std::io::Error::new(std::io::ErrorKind::InvalidInput, kind)
    };
    // Checked before opening (opening a FIFO blocks until a writer comes) and after.
    let before = fs::metadata(path)?.file_type();
    if !before.is_file() {
        return Err(not_regular(before));
    }
    let file = fs::File::open(path)?;
    let after = file.metadata()?.file_type();
    if !after.is_file() {
        return Err(not_regular(after));
    }
    Ok(file)
}

/// Opens `path` for reading if it is a regular file or a pipe (a FIFO, or `<(…)`'s
/// `/dev/fd/N`): for input a user streams in, as from stdin. A directory or a device (whose
/// bytes may not end) is refused, saying what it is.
pub fn open_readable(path: &Path) -> std::io::Result<fs::File> {
    use std::os::unix::fs::FileTypeExt;
    let what = fs::metadata(path)?.file_type();
    let refused = if what.is_dir() {
        Some("a directory")
    } else if what.is_char_device() || what.is_block_device() {
        Some("a device, not a file or a pipe")
    } else if what.is_socket() {
        Some("a socket, not a file or a pipe")
    } else {
        None
    };
    match refused {
        Some(kind) => Err(std::io::Error::new(std::io::ErrorKind::InvalidInput, kind)),
        None => fs::File::open(path),
    }
}

/// The contents of `path` if it is a regular file (`open_regular`).
pub fn read_regular(path: &Path) -> std::io::Result<Vec<u8>> {
    let mut bytes = vec![];
    std::io::Read::read_to_end(&mut open_regular(path)?, &mut bytes)?;
    Ok(bytes)
}

/// Removes the temporaries of writes of `path` whose process no longer runs (a killed run's),
/// as every write of it does first: for files a run removes without writing them again (a
/// finished run's checkpoint).
pub fn remove_dead_temporaries(path: &Path) {
    if let Some(name) = path.file_name().and_then(|n| n.to_str()) {
        remove_dead(parent_dir(path), name);
    }
}

/// The directory `path` is in (`.` for a bare name).
fn parent_dir(path: &Path) -> &Path {
    path.parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
}

/// Removes the temporaries `.NAME.tmp-PID…` in `dir` whose process no longer runs (Linux,
/// where `/proc/PID` tells); best effort, as another run may remove them first.
fn remove_dead(dir: &Path, name: &str) {
    if !Path::new("/proc/self").exists() {
        return;
    }
    let prefix = format!(".{name}.tmp-");
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let file = entry.file_name();
        let Some(rest) = file.to_str().and_then(|f| f.strip_prefix(&prefix)) else {
            continue;
        };
        let pid = rest.split('-').next().unwrap_or("");
        if !pid.is_empty()
            && pid.bytes().all(|b| b.is_ascii_digit())
            && !Path::new("/proc").join(pid).exists()
        {
            let _ = fs::remove_file(entry.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A write under way is listed until it ends, and its temporary can be removed (as a
    /// second Ctrl-C does before exiting) while the target stays as it was.
    #[test]
    fn writes_under_way_are_listed_and_their_temporaries_removable() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("t.csv");
        write_atomic(&target, b"before").unwrap();
        let seen = std::cell::RefCell::new(None);
        write_atomic_with(&target, |w| {
            let listed = IN_FLIGHT.lock().unwrap().clone();
            let ours: Vec<_> = listed
                .into_iter()
                .filter(|p| p.starts_with(dir.path()))
                .collect();
            assert_eq!(ours.len(), 1, "{ours:?}");
            assert!(ours[0].exists());
            // Only this test's: other tests write at the same time.
            remove_listed(|p| p.starts_with(dir.path()));
            *seen.borrow_mut() = Some(ours[0].clone());
            w.write_all(b"after")
        })
        .unwrap_err();
        assert!(!seen.into_inner().unwrap().exists());
        assert_eq!(fs::read(&target).unwrap(), b"before");
        assert!(IN_FLIGHT
            .lock()
            .unwrap()
            .iter()
            .all(|p| !p.starts_with(dir.path())));
    }

    /// A write replaces a file, refuses a symlink or a directory in its place, and removes the
    /// temporaries of dead processes but not those of live ones.
    #[test]
    fn writes_replace_files_only_and_clean_up_after_the_dead() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("summary.csv");
        write_atomic(&path, b"one").unwrap();
        write_atomic(&path, b"two").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"two");

        #[cfg(unix)]
        {
            let victim = dir.path().join("victim");
            fs::write(&victim, b"keep").unwrap();
            let link = dir.path().join("link.csv");
            std::os::unix::fs::symlink(&victim, &link).unwrap();
            assert!(write_atomic(&link, b"x").is_err());
            assert_eq!(fs::read(&victim).unwrap(), b"keep");
            assert!(fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink());
        }
        let sub = dir.path().join("sub");
        fs::create_dir(&sub).unwrap();
        assert!(write_atomic(&sub, b"x").is_err());
        assert!(sub.is_dir());

        if Path::new("/proc/self").exists() {
            // PIDs above the kernel's maximum (2^22) never run.
            let dead = dir.path().join(".summary.csv.tmp-99999999-abc");
            let old_style = dir.path().join(".summary.csv.tmp-99999998");
            let live = dir
                .path()
                .join(format!(".summary.csv.tmp-{}-xyz", std::process::id()));
            for f in [&dead, &old_style, &live] {
                fs::write(f, b"partial").unwrap();
            }
            write_atomic(&path, b"three").unwrap();
            assert!(!dead.exists() && !old_style.exists());
            assert!(live.exists());
        }
        let left: Vec<String> = fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .filter(|n| n.contains(".tmp-") && !n.ends_with("-xyz"))
            .collect();
        assert!(left.is_empty(), "{left:?}");
    }
}

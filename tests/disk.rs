//! The table on disk, end to end (release build): a search on disk killed (SIGKILL) at random
//! moments and resumed writes the reports of the committed in-memory runs and leaves no file
//! behind; a disk too small is refused before the start, and a disk that fills stops the run,
//! which goes on once there is room.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant, SystemTime};

use crate::common::{stderr, tilespace};

/// The committed reports of `name` (depths and antipodes), which in-memory runs wrote.
fn committed(name: &str) -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("docs/results")
        .join(name);
    reports(&dir)
}

fn reports(dir: &Path) -> Vec<String> {
    ["depths.csv", "antipodes.csv"]
        .iter()
        .map(|f| std::fs::read_to_string(dir.join(f)).unwrap())
        .collect()
}

/// The search on disk under `dir/d` wrote the committed reports of `name` under `dir/r` and
/// left none of its files.
fn finished_as_in_memory(dir: &Path, name: &str, what: &str) {
    assert_eq!(
        reports(&dir.join("r").join(name)),
        committed(name),
        "{what}"
    );
    assert!(
        !dir.join("d").exists(),
        "{what}: the search's files are left"
    );
}

/// A scratch directory in memory where there is one (/dev/shm), else in the temporary one.
fn scratch() -> tempfile::TempDir {
    tempfile::tempdir_in("/dev/shm")
        .or_else(|_| tempfile::tempdir())
        .unwrap()
}

/// Pseudo-random fractions from the clock (printed with any failure).
struct Moments(u64);

impl Moments {
    fn new() -> Moments {
        let nanos = SystemTime::now()
            .duration_since(SystemTime::UNIX_EPOCH)
            .unwrap()
            .subsec_nanos();
        Moments(u64::from(nanos) | 1)
    }

    fn next(&mut self) -> f64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// 3x4 (single-tile) with 8 MB of memory (29 shards of 2 MB) killed three times at random
/// moments (each run after 0.5 to 4 s), and 2x5 (multi-tile) with 800 kB (2 shards) killed
/// three times after 0.05 to 0.4 s, each resumed every time: the reports of the uninterrupted
/// in-memory runs (committed in docs/results/), and no file of the search left.
#[test]
fn a_search_on_disk_killed_at_random_moments_goes_on_identically() {
    let mut moments = Moments::new();
    let seed = moments.0;
    let cases = [
        ("3x4", "single", "8M", "3x4", (0.5, 4.0)),
        ("2x5", "multi", "800k", "2x5-multi", (0.05, 0.4)),
    ];
    for (board, metric, memory, name, (least, most)) in cases {
        let tmp = scratch();
        let dir = tmp.path();
        let args = |resume: bool| -> Vec<String> {
            let mut a: Vec<String> = ["analyze", board, "--metric", metric, "--max-memory", memory]
                .map(String::from)
                .into();
            a.extend([
                (if resume { "--resume" } else { "--disk" }).to_string(),
                "d".into(),
                "--results".into(),
                "r".into(),
                "-q".into(),
            ]);
            a
        };
        let mut kills = vec![];
        for k in 0..3 {
            let wait = Duration::from_secs_f64(least + (most - least) * moments.next());
            let mut child = Command::new(env!("CARGO_BIN_EXE_tilespace"))
                .args(args(k > 0 && dir.join("d").exists()))
                .current_dir(dir)
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .unwrap();
            let clock = Instant::now();
            while clock.elapsed() < wait && child.try_wait().unwrap().is_none() {
                std::thread::sleep(Duration::from_millis(2));
            }
            child.kill().unwrap();
            child.wait().unwrap();
            kills.push(wait);
        }
        let what = format!("{board} {metric}: seed {seed}, killed after {kills:?}");
        // A run may have finished before its kill (nothing to resume), or all may have been
        // killed before the search began (nothing to resume either: it starts again).
        let finished = dir.join("r").join(name).join("depths.csv").exists();
        if dir.join("d").exists() || !finished {
            let a = args(dir.join("d").exists());
            let a: Vec<&str> = a.iter().map(String::as_str).collect();
            let o = tilespace(&a, dir);
            assert!(o.status.success(), "{what}: {}", stderr(&o));
        }
        finished_as_in_memory(dir, name, &what);
    }
}

/// The 12-cell boards on disk with a few megabytes of memory (15 to 29 shards), in both
/// metrics, on one thread and two: the reports of the committed in-memory runs, and no file of
/// the search left. (3x4 single-tile, on two threads, is the kill test's.)
#[test]
fn twelve_cells_on_disk_write_the_reports_of_a_search_in_memory() {
    let cases = [
        ("2x6", "single", "8M", "1", "2x6"),
        ("2x6", "multi", "16M", "2", "2x6-multi"),
        ("3x4", "multi", "16M", "1", "3x4-multi"),
    ];
    for (board, metric, memory, threads, name) in cases {
        let tmp = scratch();
        let dir = tmp.path();
        let args = [
            "analyze",
            board,
            "--metric",
            metric,
            "--max-memory",
            memory,
            "-j",
            threads,
            "--disk",
            "d",
            "--results",
            "r",
            "-q",
        ];
        let o = tilespace(&args, dir);
        let what = format!("{board} {metric} in {memory} on {threads} threads");
        assert!(o.status.success(), "{what}: {}", stderr(&o));
        finished_as_in_memory(dir, name, &what);
    }
}

/// A tmpfs of `mb` megabytes mounted on a new directory, unmounted when dropped; `None` where
/// this process may not mount (not root, or a container without the right), unless
/// `TILESPACE_REQUIRE_MOUNT` is set (CI sets it: there the test must run).
struct Tmpfs {
    path: PathBuf,
    _dir: tempfile::TempDir,
}

impl Tmpfs {
    fn new(mb: u32) -> Option<Tmpfs> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("fs");
        std::fs::create_dir(&path).unwrap();
        let ok = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={mb}M"), "tmpfs"])
            .arg(&path)
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !ok {
            assert!(
                std::env::var_os("TILESPACE_REQUIRE_MOUNT").is_none(),
                "cannot mount a tmpfs, and TILESPACE_REQUIRE_MOUNT is set"
            );
            eprintln!("no tmpfs could be mounted here: the full-disk test did not run");
            return None;
        }
        Some(Tmpfs { path, _dir: dir })
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.path).status();
    }
}

/// On a disk too small for 3x4's table (60 MB) the search is refused before it starts, with
/// the figures; on one that fills during the search (a file written beside it takes the
/// room), the search stops with the command that goes on, which, once there is room again,
/// writes the committed reports.
#[test]
fn a_full_disk_is_refused_before_the_start_or_stops_the_search_cleanly() {
    let Some(small) = Tmpfs::new(16) else { return };
    let tmp = scratch();
    let dir = tmp.path();
    let d = small.path.join("d");
    let d = d.to_str().unwrap();
    let o = tilespace(
        &["analyze", "3x4", "--disk", d, "--max-memory", "8M", "-q"],
        dir,
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    // Twice the table (12!/2 states at 2 bits: 59.9 MB), for the table and its claims, and a
    // shard of at most half of the 8 MB.
    let needs: f64 = err
        .split("needs about ")
        .nth(1)
        .and_then(|t| t.split(" MB").next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no figure: {err}"));
    assert!((119.7..=123.9).contains(&needs), "{err}");
    assert!(err.contains("is free on the disk"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    drop(small);

    let Some(fs) = Tmpfs::new(140) else { return };
    let d = fs.path.join("d");
    let d = d.to_str().unwrap();
    let args = [
        "analyze",
        "3x4",
        "--max-memory",
        "8M",
        "--results",
        "r",
        "-q",
    ];
    let child = Command::new(env!("CARGO_BIN_EXE_tilespace"))
        .args(args)
        .args(["--disk", d])
        .current_dir(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Once the search has written a few shards, a file takes the room left.
    let clock = Instant::now();
    while std::fs::read_dir(d).map_or(0, |e| e.count()) < 8 {
        assert!(
            clock.elapsed() < Duration::from_secs(60),
            "no shard written"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    let ballast = fs.path.join("ballast");
    let _ = Command::new("dd")
        .args(["if=/dev/zero", "bs=1M", "count=200"])
        .arg(format!("of={}", ballast.display()))
        .stderr(Stdio::null())
        .status();
    let o = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("No space left on device")
            && err.contains(&format!(
                "continue with: tilespace analyze 3x4 --resume {d}"
            )),
        "{err}"
    );
    std::fs::remove_file(&ballast).unwrap();
    let o = tilespace(&[&args[..], &["--resume", d]].concat(), dir);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(reports(&dir.join("r").join("3x4")), committed("3x4"));
    assert!(!Path::new(d).exists(), "the search's files are left");
}

/// A search on disk builds every layer by push, a shard at a time, whatever the policy chose:
/// its trace says so, layer by layer (it said "list" for the layers after the start, issue 48),
/// in both metrics, and the search still writes the committed reports.
#[test]
fn a_search_on_disk_traces_the_way_it_built_each_layer() {
    for (metric, name) in [("single", "2x4"), ("multi", "2x4-multi")] {
        let tmp = scratch();
        let args = [
            "analyze",
            "2x4",
            "--metric",
            metric,
            "--disk",
            "d",
            "--max-memory",
            "300k",
            "--results",
            "r",
        ];
        let o = Command::new(env!("CARGO_BIN_EXE_tilespace"))
            .args(args)
            .current_dir(tmp.path())
            .env("TILESPACE_TRACE", "1")
            .output()
            .unwrap();
        let err = stderr(&o);
        assert!(o.status.success(), "{metric}: {err}");
        let ways: Vec<&str> = err
            .lines()
            .filter_map(|l| l.strip_prefix("trace depth "))
            .map(|l| l.split(' ').nth(1).unwrap())
            .collect();
        assert!(ways.len() > 10, "{metric}: {ways:?}");
        assert!(ways.iter().all(|&w| w == "push"), "{metric}: {ways:?}");
        finished_as_in_memory(tmp.path(), name, metric);
    }
}

/// Runs `analyze 3x4` in `metric` with `first` in `dir`, stops it by SIGINT once `saved` (a
/// path under `dir`) is there (exit 75, with a message holding `says`), goes on with `moved`,
/// and checks the reports are the committed ones of `name` (`finished_as_in_memory`) and no
/// checkpoint is left in `dir/c` (its lock stays, as after any run with checkpoints).
fn stop_then_move(
    dir: &Path,
    metric: &str,
    name: &str,
    first: &[&str],
    saved: &str,
    says: &str,
    moved: &[&str],
) {
    let run = ["analyze", "3x4", "--metric", metric, "--results", "r", "-q"];
    let out = crate::common::signalled_when(&[&run[..], first].concat(), dir, "INT", || {
        dir.join(saved).exists()
    });
    let said = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(75), "{metric}: {said}");
    assert!(said.contains(says), "{metric}: {said}");
    let o = tilespace(&[&run[..], moved].concat(), dir);
    assert!(o.status.success(), "{metric}: {}", stderr(&o));
    finished_as_in_memory(dir, name, metric);
    let left: Vec<_> = std::fs::read_dir(dir.join("c"))
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .filter(|n| n != ".checkpoint.lock")
        .collect();
    assert!(
        left.is_empty(),
        "{metric}: {left:?} left in the checkpoint directory"
    );
}

/// 3x4 in both metrics on disk (8 MB of memory), stopped by SIGINT at a layer boundary (exit
/// 75) once its journal is there, then moved into memory (`--resume d --checkpoint c`): the
/// reports of the uninterrupted in-memory runs (committed in docs/results/), the search on
/// disk removed, no checkpoint left.
#[test]
fn a_search_on_disk_stopped_goes_on_in_memory() {
    for (metric, name) in [("single", "3x4"), ("multi", "3x4-multi")] {
        let tmp = scratch();
        let first = ["--disk", "d", "--max-memory", "8M"];
        let moved = ["--resume", "d", "--checkpoint", "c"];
        let says = "--checkpoint NEWDIR";
        stop_then_move(
            tmp.path(),
            metric,
            name,
            &first,
            "d/search.tsj",
            says,
            &moved,
        );
    }
}

/// 3x4 in both metrics checkpointed after every layer in memory, stopped by SIGINT once a
/// checkpoint is there (exit 75), then moved onto disk with 8 MB of memory (`--resume c --disk
/// d`): the committed reports, and neither the checkpoint nor the search on disk left.
#[test]
fn a_checkpoint_goes_on_on_disk() {
    for (metric, name) in [("single", "3x4"), ("multi", "3x4-multi")] {
        let tmp = scratch();
        let first = ["--checkpoint", "c", "--checkpoint-every", "0"];
        let moved = ["--resume", "c", "--disk", "d", "--max-memory", "8M"];
        let says = "--resume c";
        stop_then_move(
            tmp.path(),
            metric,
            name,
            &first,
            "c/checkpoint.tsc",
            says,
            &moved,
        );
    }
}

//! Helpers shared by the end-to-end tests: run the binary, read its output and its CSVs.
#![allow(dead_code)]

use std::collections::HashMap;
use std::path::Path;
use std::process::{Command, Output};

pub fn tilespace(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tilespace"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the binary runs")
}

/// The binary run in `dir` with `input` on its standard input.
pub fn tilespace_reading(args: &[&str], dir: &Path, input: &[u8]) -> Output {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_tilespace"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut stdin = child.stdin.take().expect("a pipe");
    stdin.write_all(input).expect("the input written");
    drop(stdin);
    child.wait_with_output().expect("the binary ends")
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

pub fn read_csv(path: &Path) -> (Vec<String>, Vec<HashMap<String, String>>) {
    let mut r = csv::Reader::from_path(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let header: Vec<String> = r.headers().unwrap().iter().map(String::from).collect();
    let rows = r
        .records()
        .map(|rec| {
            header
                .iter()
                .cloned()
                .zip(rec.unwrap().iter().map(String::from))
                .collect()
        })
        .collect();
    (header, rows)
}

/// Builds 3x3's 4-4 pattern databases into `dir/p`.
pub fn pdb_3x3(dir: &Path) {
    let o = tilespace(
        &["pdb", "3x3", "--partition", "4-4", "--pdb", "p", "-q"],
        dir,
    );
    assert!(o.status.success(), "{}", stderr(&o));
}

/// Starts `tilespace args...` in `dir`, waits until `ready` holds (a minute at most, the run
/// still going), then kills it (SIGKILL): a run cut at a chosen point.
pub fn killed_when(args: &[&str], dir: &Path, ready: impl Fn() -> bool) {
    use std::time::{Duration, Instant};
    let mut child = Command::new(env!("CARGO_BIN_EXE_tilespace"))
        .args(args)
        .current_dir(dir)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("the binary runs");
    let clock = Instant::now();
    while !ready() {
        assert!(
            clock.elapsed() < Duration::from_secs(60),
            "{args:?}: not ready in a minute"
        );
        assert!(child.try_wait().unwrap().is_none(), "{args:?} ended first");
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap();
    child.wait().unwrap();
}

/// Runs `tilespace args...` in `dir`, waits until `ready` holds (half a minute at most), then
/// sends it `signal` (`INT`, `TERM`) and returns what it printed and its status: a run stopped
/// by a signal at a chosen point.
pub fn signalled_when(args: &[&str], dir: &Path, signal: &str, ready: impl Fn() -> bool) -> Output {
    use std::time::{Duration, Instant};
    let child = Command::new(env!("CARGO_BIN_EXE_tilespace"))
        .args(args)
        .current_dir(dir)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let clock = Instant::now();
    while !ready() && clock.elapsed() < Duration::from_secs(30) {
        std::thread::sleep(Duration::from_millis(2));
    }
    signal_and_wait(child, signal)
}

/// Runs `tilespace args...` in `dir` held at `step` (`TILESPACE_TEST_HOLD`: a search's layer,
/// `sample`'s board), sends it SIGINT once it is held there, and returns what it printed and
/// its status: a run stopped at a chosen point on any machine, however fast.
pub fn interrupted_at(args: &[&str], dir: &Path, step: u32) -> Output {
    signalled_at(args, dir, step, "INT")
}

/// `interrupted_at` with another stop signal (`TERM`, `USR1`, …); `step` may name the time it
/// is reached too (`"10@2"`: the second time, an atlas's second cell).
pub fn signalled_at(
    args: &[&str],
    dir: &Path,
    step: impl std::fmt::Display,
    signal: &str,
) -> Output {
    use std::time::{Duration, Instant};
    let held = dir.join(".held");
    let _ = std::fs::remove_file(&held);
    let mut child = Command::new(env!("CARGO_BIN_EXE_tilespace"))
        .args(args)
        .env("TILESPACE_TEST_HOLD", format!("{step}:{}", held.display()))
        .current_dir(dir)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let clock = Instant::now();
    while !held.exists() {
        assert!(
            child.try_wait().unwrap().is_none(),
            "{args:?} ended before step {step}"
        );
        // Only a hung run takes this long: no machine is this slow to a held step.
        assert!(
            clock.elapsed() < Duration::from_secs(600),
            "{args:?}: no step {step}"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    signal_and_wait(child, signal)
}

/// A search of 3x4 on disk in `dir/d` (8 MB: 29 shards of 2 MB), killed once its journal
/// commits claims: a stopped search with a journal, shards and claim files.
pub fn stopped_disk_search(dir: &Path) -> std::path::PathBuf {
    let d = dir.join("d");
    let args = [
        "analyze",
        "3x4",
        "--max-memory",
        "8M",
        "--disk",
        "d",
        "--results",
        "r",
        "-q",
    ];
    killed_when(&[&args[..], &["-j", "1"]].concat(), dir, || {
        commits_claims(&claim_files(&d))
    });
    d
}

/// Whether the claim files `files` (`claims-PASS-WAY-SHARD.tsc`) show a journal committing
/// claims: one written in a pass before another's. A pass's claim files are named in the
/// journal by the end of that pass, and a later pass writes its own only after that. (A count
/// of files is not enough: at the start of a pass, all there may be the new pass's, written
/// before the journal names them.)
pub fn commits_claims(files: &[std::path::PathBuf]) -> bool {
    let passes: Vec<u32> = files
        .iter()
        .filter_map(|f| f.file_name()?.to_str()?.split('-').nth(1)?.parse().ok())
        .collect();
    let (lo, hi) = (passes.iter().min(), passes.iter().max());
    matches!((lo, hi), (Some(lo), Some(hi)) if lo < hi)
}

pub fn claim_files(d: &Path) -> Vec<std::path::PathBuf> {
    let Ok(entries) = std::fs::read_dir(d) else {
        return vec![];
    };
    entries
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "tsc"))
        .collect()
}

/// Sends `child` `signal` (`INT`, `TERM`, …) and returns what it printed and its status.
fn signal_and_wait(child: std::process::Child, signal: &str) -> Output {
    let pid = child.id().to_string();
    let sent = Command::new("kill")
        .args([&format!("-{signal}"), &pid])
        .status();
    assert!(sent.unwrap().success(), "kill -{signal} {pid}");
    child.wait_with_output().unwrap()
}

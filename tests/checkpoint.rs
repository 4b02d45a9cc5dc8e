//! Checkpoint and resume, end to end on 3x4 (release build: seconds): a run killed (SIGKILL) or
//! interrupted (SIGINT) mid-run and resumed writes exactly the reports of an uninterrupted run;
//! damaged and mismatched checkpoints are refused; the memory guard refuses boards that do not
//! fit before allocating.

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::{interrupted_at, read_csv, stderr, stdout, tilespace};

fn spawn(args: &[&str], dir: &Path) -> Child {
    Command::new(env!("CARGO_BIN_EXE_tilespace"))
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs")
}

/// Depth of the checkpoint in `dir`, if there is one (the layer count in its header, minus 1).
fn checkpoint_depth(dir: &Path) -> Option<u32> {
    let bytes = std::fs::read(dir.join("checkpoint.tsc")).ok()?;
    Some(u32::from_le_bytes(bytes[48..52].try_into().unwrap()) - 1)
}

/// SIGKILLs `child` as soon as the checkpoint in `ck` is at `depth` or deeper; that depth.
fn kill_at_depth(child: &mut Child, ck: &Path, depth: u32) -> u32 {
    let clock = Instant::now();
    let killed_at = loop {
        if let Some(d) = checkpoint_depth(ck).filter(|&d| d >= depth) {
            child.kill().unwrap();
            break d;
        }
        assert!(
            child.try_wait().unwrap().is_none(),
            "finished before a checkpoint at depth {depth}"
        );
        assert!(clock.elapsed() < Duration::from_secs(120));
        std::thread::sleep(Duration::from_millis(5));
    };
    child.wait().unwrap();
    killed_at
}

/// The reports of `out` that must not depend on interruptions: the summary's figures (not its
/// timings), the depth distribution and the antipodes.
fn reports(out: &Path) -> Vec<String> {
    reports_of(out, "3x4")
}

/// `reports` of the board whose reports are in `out/name`.
fn reports_of(out: &Path, name: &str) -> Vec<String> {
    let (_, rows) = read_csv(&out.join("summary.csv"));
    let mut all: Vec<String> = rows
        .iter()
        .map(|r| {
            let mut keys: Vec<&String> = r.keys().collect();
            keys.sort();
            keys.iter()
                .filter(|k| !["threads", "seconds", "states_per_second"].contains(&k.as_str()))
                .map(|k| format!("{k}={}", r[*k]))
                .collect::<Vec<_>>()
                .join(",")
        })
        .collect();
    for f in ["depths.csv", "antipodes.csv"] {
        all.push(std::fs::read_to_string(out.join(name).join(f)).unwrap());
    }
    all
}

fn uninterrupted(dir: &Path) -> Vec<String> {
    let o = tilespace(&["analyze", "3x4", "--results", "plain", "-q"], dir);
    assert!(o.status.success(), "{}", stderr(&o));
    reports(&dir.join("plain"))
}

fn resume(dir: &Path, ck: &str, out: &str) {
    let o = tilespace(
        &["analyze", "3x4", "--resume", ck, "--results", out, "-q"],
        dir,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        !dir.join(ck).join("checkpoint.tsc").exists(),
        "a finished run removes its checkpoint"
    );
}

#[test]
fn killed_mid_run_then_resumed_gives_the_same_reports() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let want = uninterrupted(dir);
    let mut child = spawn(
        &[
            "analyze",
            "3x4",
            "--checkpoint",
            "ck",
            "--checkpoint-every",
            "0",
            "--results",
            "r",
            "-q",
        ],
        dir,
    );
    // Kill it as soon as a checkpoint deep in the search exists (past the widest layers).
    let killed_at = kill_at_depth(&mut child, &dir.join("ck"), 30);
    assert!(
        !dir.join("r/summary.csv").exists(),
        "killed before any report"
    );
    // The checkpoint left by the kill is a complete one (never half-written).
    assert!(checkpoint_depth(&dir.join("ck")).unwrap() >= killed_at);
    resume(dir, "ck", "r");
    assert_eq!(reports(&dir.join("r")), want);
}

/// The multi-tile metric: a run killed mid-search and resumed writes the reports of an
/// uninterrupted one; a checkpoint of one metric is refused by a run in the other, with the
/// reason, before anything is written.
#[test]
fn multi_tile_run_killed_then_resumed_gives_the_same_reports() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let multi = ["--metric", "multi", "-q"];
    let o = tilespace(
        &[&["analyze", "3x4", "--results", "plain"][..], &multi].concat(),
        dir,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let want = reports_of(&dir.join("plain"), "3x4-multi");
    let args = [
        "analyze",
        "3x4",
        "--checkpoint",
        "ck",
        "--checkpoint-every",
        "0",
        "--results",
        "r",
    ];
    let mut child = spawn(&[&args[..], &multi].concat(), dir);
    kill_at_depth(&mut child, &dir.join("ck"), 20);
    // The single-tile metric refuses it, and leaves it.
    let o = tilespace(
        &["analyze", "3x4", "--resume", "ck", "--results", "r", "-q"],
        dir,
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("multi-tile metric, not the single-tile"),
        "{}",
        stderr(&o)
    );
    assert!(dir.join("ck/checkpoint.tsc").exists());
    let o = tilespace(
        &[
            &["analyze", "3x4", "--resume", "ck", "--results", "r"][..],
            &multi,
        ]
        .concat(),
        dir,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(reports_of(&dir.join("r"), "3x4-multi"), want);
}

#[test]
fn sigint_saves_a_checkpoint_and_says_how_to_resume() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let want = uninterrupted(dir);
    // Held after depth 20 until the signal comes: mid-run on any machine, however fast; no
    // periodic checkpoint.
    let o = interrupted_at(
        &[
            "analyze",
            "3x4",
            "--checkpoint",
            "ck",
            "--checkpoint-every",
            "1h",
            "--results",
            "r",
        ],
        dir,
        20,
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(75), "{err}");
    assert!(err.contains("tilespace analyze 3x4 --resume ck"), "{err}");
    let depth = checkpoint_depth(&dir.join("ck")).unwrap();
    assert_eq!(depth, 20, "stopped where it was held");
    assert!(!dir.join("r/summary.csv").exists());

    // Damaged or foreign checkpoints are refused, never used.
    let good = std::fs::read(dir.join("ck/checkpoint.tsc")).unwrap();
    let refused = |bytes: &[u8], args: &[&str], why: &str| {
        std::fs::create_dir_all(dir.join("bad")).unwrap();
        std::fs::write(dir.join("bad/checkpoint.tsc"), bytes).unwrap();
        let mut all = vec!["analyze"];
        all.extend_from_slice(args);
        all.extend_from_slice(&["--resume", "bad", "--results", "r2", "-q"]);
        let o = tilespace(&all, dir);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(why), "{args:?}: {}", stderr(&o));
        assert!(!dir.join("r2/summary.csv").exists(), "nothing written");
    };
    refused(&good, &["2x6"], "checkpoint of 3x4, not of 2x6");
    refused(
        &good,
        &["3x4", "--blank", "first"],
        "goal blank is 3,4, not 1,1",
    );
    refused(
        &good,
        &["3x4", "--from", "1 2 3 4/5 6 7 8/9 11 10 0"],
        "another start",
    );
    let mut flipped = good.clone();
    let at = good.len() - 1000;
    flipped[at] ^= 0x10;
    refused(&flipped, &["3x4"], "data is corrupted");
    let mut version = good.clone();
    version[8] = 9;
    refused(
        &version,
        &["3x4"],
        "format version 9 (this tilespace reads version ",
    );
    let mut header = good.clone();
    header[64] ^= 1; // the seconds so far: only the header checksum can tell
    refused(&header, &["3x4"], "header is corrupted");
    refused(&good[..good.len() - 8], &["3x4"], "truncated");
    refused(b"not a checkpoint at all, clearly", &["3x4"], "truncated");
    let o = tilespace(&["analyze", "3x4", "--resume", "nowhere", "-q"], dir);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no checkpoint there"), "{}", stderr(&o));

    resume(dir, "ck", "r");
    assert_eq!(reports(&dir.join("r")), want);
}

/// Boards beyond this machine are refused with what they need, before anything is allocated:
/// the address space is limited to 2 GB, so an attempt would fail differently.
#[test]
fn memory_guard_refuses_with_figures_without_allocating() {
    let tmp = tempfile::tempdir().unwrap();
    let bin = env!("CARGO_BIN_EXE_tilespace");
    // 15!/8 bytes of table (163.459 GB), 14!/8 (10.897 GB), 16!/8 (2.615 TB), each with two
    // lists of 2^24 indices (0.268 GB), 64 MB of buffers and 2^25 deferred claims of 4 bytes
    // (0.134 GB): 163.926 GB, 11.364 GB and 2.616 TB single-tile. Multi-tile, a bit a row
    // besides, a bit per C states: 3x5 16.346 GB (180.272 GB in all), 2x7 0.778 GB (12.142).
    for (args, needs) in [
        ("analyze 3x5", "163.9 GB"),
        ("analyze 3x5 --metric multi", "180.3 GB"),
        ("analyze 4x4", "2.6 TB"),
        ("analyze 2x8", "2.6 TB"),
        ("analyze 2x7 --max-memory 1G", "11.4 GB"),
        ("analyze 2x7 --metric multi --max-memory 1G", "12.1 GB"),
        ("atlas 2x7 --max-memory 1G", "12.1 GB"),
        ("theorem 3x5", "163.9 GB"),
    ] {
        let o = Command::new("sh")
            .arg("-c")
            .arg(format!("ulimit -v 2000000; exec {bin} {args} -q"))
            .current_dir(tmp.path())
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{args}: {}", stderr(&o));
        let err = stderr(&o);
        assert!(
            err.contains("too large") && err.contains(needs),
            "{args}: {err}"
        );
        assert_eq!(err.lines().count(), 1, "one line: {err}");
        assert!(stdout(&o).is_empty());
    }
}

/// A search of tokens (3x3 with two blanks, its depths saved) stopped by SIGINT at depth 10
/// saves its checkpoint, says how to go on, and goes on to the reports and the table of an
/// uninterrupted run, byte for byte; moved to another directory on the way. Checkpoints of
/// another search, damaged or forged, are refused in one line.
#[test]
fn a_search_of_tokens_stopped_goes_on_identically() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let goal = "1 2 3/4 5 6/7 0 0";
    let run = |extra: &[&'static str], out: &'static str, table: &'static str| {
        let mut args = vec!["analyze", "3x3", "--goal", goal, "-q"];
        args.extend(["--results", out, "--save-table", table]);
        args.extend_from_slice(extra);
        args
    };
    let o = tilespace(&run(&[], "whole", "whole.tst"), dir);
    assert!(o.status.success(), "{}", stderr(&o));
    let files = |out: &str| -> Vec<Vec<u8>> {
        let reports = dir.join(out).join("tokens/3x3-1-2-3-4-5-6-7-0-0");
        ["depths.csv", "antipodes.csv"]
            .iter()
            .map(|f| std::fs::read(reports.join(f)).unwrap())
            .collect()
    };
    let want = (
        files("whole"),
        std::fs::read(dir.join("whole.tst")).unwrap(),
    );

    let args = run(
        &["--checkpoint", "ck", "--checkpoint-every", "1h"],
        "r",
        "r.tst",
    );
    let o = interrupted_at(&args, dir, 10);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(75), "{err}");
    let said = "continue with: tilespace analyze 3x3 --goal \"1 2 3/4 5 6/7 0 0\" --save-table \
                r.tst --resume ck";
    assert!(err.contains(said), "{err}");
    let saved = std::fs::read(dir.join("ck/checkpoint.tsc")).unwrap();
    assert_eq!(&saved[..8], b"TSTOKCKP");
    assert_eq!(u32::from_le_bytes(saved[24..28].try_into().unwrap()), 10);
    assert!(!dir.join("r").join("tokens-summary.csv").exists());
    assert!(!dir.join("r.tst").exists());

    // Refused, each in one line and exit 2, nothing written: another goal, the depths not
    // asked for, a checkpoint of tiles, and the file damaged or forged.
    let refused = |bytes: &[u8], extra: &[&str], why: &str| {
        std::fs::create_dir_all(dir.join("bad")).unwrap();
        std::fs::write(dir.join("bad/checkpoint.tsc"), bytes).unwrap();
        let mut args = vec!["analyze", "3x3", "--resume", "bad", "--results", "r2", "-q"];
        args.extend_from_slice(extra);
        let o = tilespace(&args, dir);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{extra:?}: {err}");
        assert!(err.contains(why), "{extra:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            !dir.join("r2/tokens-summary.csv").exists(),
            "nothing written"
        );
    };
    let table = ["--save-table", "r2.tst"];
    refused(
        &saved,
        &["--goal", "1 2 3/4 5 6/0 7 0", "--save-table", "r2.tst"],
        "not of this search",
    );
    refused(&saved, &["--goal", goal], "saved with --save-table");
    refused(&saved, &[], "a checkpoint of a puzzle of tokens");
    let mut flipped = saved.clone();
    *flipped.last_mut().unwrap() ^= 1;
    refused(
        &flipped,
        &[&["--goal", goal][..], &table].concat(),
        "checksum",
    );
    // A code of the table changed, its checksums made again: the counts give it away. The
    // search's table is the first of the two after the preamble (9 tokens, the graph6's
    // length, 11 layer counts).
    let mut forged = saved.clone();
    let at = 64 + 8 * (9 + 1 + 11);
    forged[at] ^= 0b11;
    tilespace::store::token_checkpoint::reseal(&mut forged);
    refused(
        &forged,
        &[&["--goal", goal][..], &table].concat(),
        "not its layers'",
    );
    let o = interrupted_at(&["analyze", "3x3", "--checkpoint", "tiles", "-q"], dir, 5);
    assert_eq!(o.status.code(), Some(75), "{}", stderr(&o));
    let tiles = std::fs::read(dir.join("tiles/checkpoint.tsc")).unwrap();
    refused(
        &tiles,
        &[&["--goal", goal][..], &table].concat(),
        "a checkpoint of a search of tiles",
    );

    // Gone on with in another directory: the first one's checkpoint is removed at the end,
    // and so is the second's.
    let o = tilespace(
        &run(&["--resume", "ck", "--checkpoint", "ck2"], "r", "r.tst"),
        dir,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        (files("r"), std::fs::read(dir.join("r.tst")).unwrap()),
        want
    );
    for ck in ["ck", "ck2"] {
        assert!(!dir.join(ck).join("checkpoint.tsc").exists(), "{ck}");
    }
}

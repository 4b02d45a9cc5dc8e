//! Nothing lost under concurrency, signals, planted files or files in the way: the binary
//! end to end in temporary directories.

// A test that walks one scenario through every step reads best whole: the 100-line limit
// (clippy.toml) holds for src/, not for these.
#![allow(clippy::too_many_lines)]

use std::fs;
use std::process::{Command, Stdio};

use crate::common::{read_csv, stderr, tilespace};

/// Runs `script` with `sh -c` in `dir`, `BIN` in it replaced by the binary's path.
fn shell(dir: &std::path::Path, script: &str) -> std::process::Output {
    let bin = env!("CARGO_BIN_EXE_tilespace");
    Command::new("sh")
        .args(["-c", &script.replace("BIN", &format!("'{bin}'"))])
        .current_dir(dir)
        .output()
        .unwrap()
}

/// Twelve runs writing one `--results` at once keep all twelve summary rows (the rows are read,
/// changed and written under a lock; without it most such races lose a row).
#[test]
fn concurrent_runs_into_one_directory_keep_every_row() {
    let tmp = tempfile::tempdir().unwrap();
    let runs: Vec<(&str, String)> = (1..=2)
        .flat_map(|r| (1..=3).map(move |c| ("2x3", format!("{r},{c}"))))
        .chain((1..=3).flat_map(|r| (1..=2).map(move |c| ("3x2", format!("{r},{c}")))))
        .collect();
    assert_eq!(runs.len(), 12);
    let children: Vec<_> = runs
        .iter()
        .map(|(board, blank)| {
            Command::new(env!("CARGO_BIN_EXE_tilespace"))
                .args([
                    "analyze",
                    board,
                    "--blank",
                    blank,
                    "--results",
                    "out",
                    "--quiet",
                ])
                .current_dir(tmp.path())
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let (_, rows) = read_csv(&tmp.path().join("out/summary.csv"));
    let mut got: Vec<(String, String)> = rows
        .iter()
        .map(|r| (r["board"].clone(), r["goal_blank"].clone()))
        .collect();
    got.sort();
    let mut want: Vec<(String, String)> = runs
        .iter()
        .map(|(b, g)| (b.to_string(), g.clone()))
        .collect();
    want.sort();
    assert_eq!(got, want);
}

/// A checkpoint directory in use by a running search, or holding a checkpoint, is refused by a
/// new search (not resuming) with the reason, and what it holds is left intact.
#[test]
fn a_checkpoint_directory_belongs_to_one_search() {
    let tmp = tempfile::tempdir().unwrap();
    let ck = tmp.path().join("ck");
    fs::create_dir(&ck).unwrap();
    // Another search holds the directory: its lock is taken.
    let held = fs::File::create(ck.join(".checkpoint.lock")).unwrap();
    held.lock().unwrap();
    let out = tilespace(
        &["analyze", "3x3", "--checkpoint", "ck", "--quiet"],
        tmp.path(),
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("another run is using this checkpoint directory"));
    held.unlock().unwrap();
    // A checkpoint of another search is there: not overwritten, not removed.
    fs::write(ck.join("checkpoint.tsc"), b"another search's checkpoint").unwrap();
    let out = tilespace(
        &["analyze", "2x3", "--checkpoint", "ck", "--quiet"],
        tmp.path(),
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("holds a checkpoint already"),
        "{}",
        stderr(&out)
    );
    assert_eq!(
        fs::read(ck.join("checkpoint.tsc")).unwrap(),
        b"another search's checkpoint"
    );
    assert!(!tmp.path().join("results/summary.csv").exists());
}

/// Outputs that are not regular files (a symlink planted in the way, a directory) are refused
/// before the search, and the file a symlink points to is left alone; a line, searched
/// without a table, refuses the table options.
#[test]
fn files_in_the_way_are_refused_before_the_search() {
    let tmp = tempfile::tempdir().unwrap();
    let victim = tmp.path().join("victim");
    fs::write(&victim, b"keep me").unwrap();
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(&victim, tmp.path().join("link.tst")).unwrap();
        let out = tilespace(&["analyze", "2x3", "--save-table", "link.tst"], tmp.path());
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        assert!(
            stderr(&out).contains("not a regular file"),
            "{}",
            stderr(&out)
        );
        assert_eq!(fs::read(&victim).unwrap(), b"keep me");
    }
    fs::create_dir(tmp.path().join("dir.tst")).unwrap();
    let out = tilespace(&["analyze", "2x3", "--save-table", "dir.tst"], tmp.path());
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        !tmp.path().join("results/summary.csv").exists(),
        "refused before the search"
    );
    let out = tilespace(&["analyze", "1x5", "--save-table", "line.tst"], tmp.path());
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("a line (1xN)"), "{}", stderr(&out));
    assert!(!tmp.path().join("line.tst").exists());
}

/// The memory guard counts the address-space limit (`ulimit -v`): a board that does not fit
/// under it is refused with that reason before anything is allocated (2x7's 10.9 GB table would
/// otherwise fail to allocate and abort the process).
#[cfg(target_os = "linux")]
#[test]
fn the_memory_guard_counts_the_address_space_limit() {
    let tmp = tempfile::tempdir().unwrap();
    let out = shell(tmp.path(), "ulimit -v 400000 && exec BIN analyze 2x7 -q");
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("left under the address-space limit (ulimit -v)"),
        "{}",
        stderr(&out)
    );
}

/// `solve` without a table on the largest boards it takes (290x290: some 10^8 moves) is refused
/// at once, with the figure, when their solutions would not fit under the memory limit (it
/// took 5.6 GB unguarded once; now about 0.5 GB, estimated at 0.78 GB).
#[cfg(target_os = "linux")]
#[test]
fn the_constructive_solver_is_guarded_too() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tilespace(&["random", "290x290", "--seed", "3"], tmp.path());
    assert!(out.status.success(), "{}", stderr(&out));
    fs::write(tmp.path().join("b.txt"), &out.stdout).unwrap();
    let out = shell(
        tmp.path(),
        "ulimit -v 400000 && exec BIN solve --input b.txt",
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(out.stdout.len(), 0);
    let why = stderr(&out);
    assert!(
        why.contains("solving 1 board up to 290x290 needs about 780.4 MB, but only")
            && why.contains("(ulimit -v)"),
        "{why}"
    );
}

/// A damaged `depths.csv` (no layers, a layer skipped, counts that do not add up) is refused by
/// `antipodes` with the reason, exit 2; it printed "1 antipode at 18446744073709551615 moves"
/// with exit 0 once. A damaged summary row is refused by `table` and `plot`.
#[test]
fn damaged_reports_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tilespace(&["analyze", "2x3", "-q"], tmp.path());
    assert!(out.status.success(), "{}", stderr(&out));
    let depths = tmp.path().join("results/2x3/depths.csv");
    let good = fs::read_to_string(&depths).unwrap();
    let header = good.lines().next().unwrap();
    let skipped: Vec<&str> = good
        .lines()
        .enumerate()
        .filter(|&(i, _)| i != 3)
        .map(|(_, l)| l)
        .collect();
    for (damaged, why) in [
        (format!("{header}\n"), "no layers"),
        (skipped.join("\n") + "\n", "is not layer 2"),
        (good.replacen("\n0,1,1,", "\n0,2,2,", 1), "is not layer 0"),
    ] {
        fs::write(&depths, damaged).unwrap();
        let out = tilespace(&["antipodes", "2x3"], tmp.path());
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        assert!(stderr(&out).contains(why), "{why}: {}", stderr(&out));
    }
    // A summary row that disagrees with the counting theorem (6!/2 = 360) or with itself is
    // refused by the commands that print it, not put in a paper's table.
    let summary = tmp.path().join("results/summary.csv");
    let good = fs::read_to_string(&summary).unwrap();
    assert!(
        good.contains(",360,360,true,") && good.contains(",568/45,"),
        "{good}"
    );
    for (damaged, why) in [
        (
            good.replace(",360,360,true,", ",361,360,true,"),
            "verified with states",
        ),
        (
            good.replace(",360,360,true,", ",360,361,true,"),
            "361 expected states",
        ),
        (good.replace(",568/45,", ",569/45,"), "a mean that is not"),
    ] {
        fs::write(&summary, damaged).unwrap();
        for command in ["table", "plot"] {
            let out = tilespace(&[command], tmp.path());
            assert_eq!(out.status.code(), Some(2), "{command}: {}", stderr(&out));
            assert!(stderr(&out).contains(why), "{why}: {}", stderr(&out));
        }
    }
}

/// A table write that fails part way (here the file-size limit, `ulimit -f`, with SIGXFSZ
/// ignored, so a write fails with EFBIG as on a full disk) loses neither the reports, which are
/// written first, nor leaves a partial table or a temporary; the error names the table.
#[cfg(target_os = "linux")]
#[test]
fn a_table_that_cannot_be_written_keeps_the_reports() {
    let tmp = tempfile::tempdir().unwrap();
    // 3x3's table is 45 kB (181,440 states at 2 bits); the reports are under 2 kB; the limit
    // is 32 kB.
    let out = shell(
        tmp.path(),
        "ulimit -f 64 && trap '' XFSZ && exec BIN analyze 3x3 -q --results out --save-table t.bin",
    );
    assert_ne!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).contains("t.bin"), "{}", stderr(&out));
    assert_eq!(stderr(&out).lines().count(), 1, "{}", stderr(&out));
    // Gong's Table 1: 3x3 has 181,440 states in 32 layers (radius 31, 2 antipodes).
    let (_, depths) = read_csv(&tmp.path().join("out/3x3/depths.csv"));
    assert_eq!(depths.len(), 32);
    let total: u64 = depths
        .iter()
        .map(|r| r["states"].parse::<u64>().unwrap())
        .sum();
    assert_eq!(total, 181_440);
    let (_, summary) = read_csv(&tmp.path().join("out/summary.csv"));
    assert_eq!(summary.len(), 1);
    let names: Vec<String> = fs::read_dir(tmp.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n != "out")
        .collect();
    assert!(names.iter().all(|n| n.ends_with(".lock")), "{names:?}");
}

/// The files of a run of `sigkill_at_random_moments_loses_nothing`, as (name, path).
fn run_files(dir: &std::path::Path) -> Vec<(&'static str, std::path::PathBuf)> {
    vec![
        ("summary.csv", dir.join("out/summary.csv")),
        ("depths.csv", dir.join("out/2x5/depths.csv")),
        ("antipodes.csv", dir.join("out/2x5/antipodes.csv")),
        ("table", dir.join("t.tst")),
        ("checkpoint", dir.join("ck/checkpoint.tsc")),
    ]
}

/// A file's contents and inode, if it is there.
#[cfg(unix)]
fn version(path: &std::path::Path) -> Option<(Vec<u8>, u64)> {
    use std::os::unix::fs::MetadataExt;
    let inode = fs::metadata(path).ok()?.ino();
    Some((fs::read(path).ok()?, inode))
}

/// Temporaries (`.NAME.tmp-PID-RANDOM`) anywhere under `dir`.
fn temporaries(dir: &std::path::Path) -> Vec<String> {
    let mut found = vec![];
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            found.extend(temporaries(&path));
        } else if path.to_string_lossy().contains(".tmp-") {
            found.push(path.display().to_string());
        }
    }
    found
}

/// SIGKILL at random moments (30 kills) of runs of 2x5 that save a checkpoint after every
/// layer, then
/// write the reports and a table (about 0.2 s a run; a run resumes the checkpoint a killed one
/// left). After every kill, each file is absent, unchanged (the previous complete version), or
/// complete: reports and table byte for byte those of an uninterrupted run, a summary whose
/// every row is 2x5's, a checkpoint that loads. Once a later run finishes, its files are the
/// uninterrupted run's and no temporary is left. The counts are printed (`--nocapture`).
#[cfg(unix)]
#[test]
fn sigkill_at_random_moments_loses_nothing() {
    use std::collections::BTreeMap;
    use std::time::{Duration, Instant};
    use tilespace::store::checkpoint;
    use tilespace::{Cell, Shape, StateSpace};

    let run_args = |resume: bool| -> Vec<&'static str> {
        let mut args = vec![
            "analyze",
            "2x5",
            "-q",
            "--results",
            "out",
            "--save-table",
            "t.tst",
        ];
        match resume {
            true => args.extend(["--resume", "ck"]),
            false => args.extend(["--checkpoint", "ck", "--checkpoint-every", "0s"]),
        }
        args
    };
    let reference = tempfile::tempdir().unwrap();
    let begun = Instant::now();
    let out = tilespace(&run_args(false), reference.path());
    assert!(out.status.success(), "{}", stderr(&out));
    let whole = begun.elapsed();
    let want: BTreeMap<&str, Vec<u8>> = run_files(reference.path())[1..4]
        .iter()
        .map(|(name, p)| (*name, fs::read(p).unwrap()))
        .collect();
    let space = StateSpace::new(
        &tilespace::Puzzle::board(
            Shape::new(2, 5).unwrap(),
            Cell(9),
            tilespace::Metric::Single,
        )
        .unwrap(),
        0,
    )
    .unwrap();

    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let mut seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos() as u64
        | 1;
    eprintln!("seed {seed}, an uninterrupted run {whole:?}");
    let mut random = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut counts: BTreeMap<(&str, &str), u32> = BTreeMap::new();
    let mut temporaries_seen = 0;
    // Kills spread over the time of a whole run, a third of them in its last quarter (reports
    // and table); a resumed run is shorter, and may finish first.
    let span = whole.as_micros() as u64;
    // Until 30 runs were killed (a resumed run is shorter, and may finish before its kill).
    let mut trial = 0;
    while counts.get(&("run", "killed")).copied().unwrap_or(0) < 30 {
        trial += 1;
        assert!(trial < 300, "too few kills landed: {counts:?}");
        // Each file's contents and inode: a file replaced (renamed over) has a new inode.
        let before: Vec<Option<(Vec<u8>, u64)>> =
            run_files(dir).iter().map(|(_, p)| version(p)).collect();
        let resume = before[4].is_some();
        let mut child = Command::new(env!("CARGO_BIN_EXE_tilespace"))
            .args(run_args(resume))
            .current_dir(dir)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let delay = match trial % 3 {
            0 => span * 3 / 4 + random() % (span / 4),
            _ => random() % span,
        };
        std::thread::sleep(Duration::from_micros(delay));
        child.kill().unwrap();
        let killed = child.wait().unwrap().code().is_none();
        temporaries_seen += temporaries(dir).len();
        for ((name, path), old) in run_files(dir).iter().zip(&before) {
            let now = version(path);
            let outcome = match (&now, old) {
                (None, _) => "absent",
                (Some(n), Some(o)) if n == o => "unchanged",
                (Some((n, _)), _) => {
                    match *name {
                        "summary.csv" => {
                            let (_, rows) = read_csv(path);
                            assert!(
                                rows.iter().all(|r| r["board"] == "2x5"
                                    && r["states"] == "1814400"
                                    && r["verified"] == "true"),
                                "trial {trial}: {}",
                                String::from_utf8_lossy(n)
                            );
                        }
                        "checkpoint" => {
                            let ck = path.parent().unwrap();
                            let loaded = checkpoint::load(ck, &space, space.goal_index());
                            assert!(loaded.is_ok(), "trial {trial}: checkpoint refused");
                        }
                        _ => assert!(n == &want[name], "trial {trial}: {name} differs"),
                    }
                    "replaced, complete"
                }
            };
            *counts.entry((name, outcome)).or_default() += 1;
        }
        *counts
            .entry(("run", if killed { "killed" } else { "finished" }))
            .or_default() += 1;
    }
    // A later run finishes, whatever the last kill left.
    let resume = dir.join("ck/checkpoint.tsc").exists();
    let out = tilespace(&run_args(resume), dir);
    assert!(out.status.success(), "{}", stderr(&out));
    for (name, path) in &run_files(dir)[1..4] {
        assert!(
            fs::read(path).unwrap() == want[name],
            "{name} after the last run"
        );
    }
    assert!(!dir.join("ck/checkpoint.tsc").exists());
    assert_eq!(temporaries(dir), Vec::<String>::new());
    eprintln!("{temporaries_seen} temporaries seen after kills; outcomes: {counts:#?}");
}

/// A board refused by the memory guard says, in fields a caller can match on, how many bytes
/// the search needs and the limit it exceeds (2x6 over a `--max-memory` of 1 MB).
#[test]
fn the_memory_guard_gives_its_figures_as_numbers() {
    use tilespace::{analyze, AnalyzeOptions, Error, ErrorKind, GoalBlank, Limit, Needed, Shape};
    let shape: Shape = "2x6".parse().unwrap();
    let goal = GoalBlank::Last.resolve(shape).unwrap();
    let options = AnalyzeOptions {
        max_memory: Some(1_000_000),
        ..AnalyzeOptions::default()
    };
    let err = analyze(
        &tilespace::Puzzle::board(shape, goal, tilespace::Metric::Single).unwrap(),
        options,
        &|_| {},
    )
    .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Resources);
    let Error::TooLarge { needed, limit, .. } = err else {
        panic!("not TooLarge: {err}")
    };
    assert_eq!(limit, Limit::MaxMemory(1_000_000));
    let Needed::Bytes(bytes) = needed else {
        panic!("not a byte count: {needed}")
    };
    // The figure the guard computes (table, recorded lists, working memory), of which the
    // table alone is 12!/2 states at 4 a byte.
    let want = tilespace::analysis::memory::needed_bytes(shape, tilespace::Metric::Single);
    assert_eq!(bytes, want.round() as u64);
    assert!(bytes > 479_001_600 / 2 / 4, "{bytes}");
}

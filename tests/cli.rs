//! The binary end to end in a temporary directory: reports, their columns and values, and the
//! one-line errors with exit status 2 for bad input.

// A test that walks one scenario through every step reads best whole: the 100-line limit
// (clippy.toml) holds for src/, not for these.
#![allow(clippy::too_many_lines)]

use std::process::Command;

use crate::common::{read_csv, stderr, stdout, tilespace};

const SUMMARY_COLUMNS: &str =
    "board,rows,cols,goal_blank,start,class,metric,states,expected_states,verified,eccentricity,\
antipodes,depth_sum,mean_depth,mean_depth_exact,median_depth,max_width,depth_of_max_width";

const RUNS_COLUMNS: &str =
    "finished,board,goal_blank,start,metric,ranks,threads,seconds,states_per_second,table_bytes,\
tilespace";

#[test]
fn analyze_writes_three_reports_with_the_documented_columns() {
    let tmp = tempfile::tempdir().unwrap();
    let o = tilespace(
        &[
            "analyze",
            "3x3",
            "2x3",
            "--results",
            "out",
            "--threads",
            "2",
            "--quiet",
        ],
        tmp.path(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    // The figures of the issue's "done when", known from the literature of the 8-puzzle.
    assert!(text.contains("181440 states"), "{text}");
    assert!(
        text.contains("eccentricity 31, 2 antipodes, mean 249167/11340"),
        "{text}"
    );
    assert!(text.contains("antipode: 8 6 7/2 5 4/3 0 1"), "{text}");

    let (header, rows) = read_csv(&tmp.path().join("out/summary.csv"));
    assert_eq!(header.join(","), SUMMARY_COLUMNS);
    assert_eq!(rows.len(), 2);
    let r = rows.iter().find(|r| r["board"] == "3x3").unwrap();
    assert_eq!(r["goal_blank"], "3,3");
    assert_eq!(r["states"], "181440");
    assert_eq!(r["expected_states"], "181440");
    assert_eq!(r["verified"], "true");
    assert_eq!(r["eccentricity"], "31");
    assert_eq!(r["antipodes"], "2");
    assert_eq!(r["mean_depth_exact"], "249167/11340");

    // The run itself is in runs.csv, with the binary's own version.
    let (header, runs) = read_csv(&tmp.path().join("out/runs.csv"));
    assert_eq!(header.join(","), RUNS_COLUMNS);
    assert_eq!(runs.len(), 2);
    let version = stdout(&tilespace(&["--version"], tmp.path()));
    for run in &runs {
        assert_eq!((run["ranks"].as_str(), run["threads"].as_str()), ("1", "2"));
        assert_eq!(format!("tilespace {}\n", run["tilespace"]), version);
        assert!(
            run["finished"].ends_with('Z') && run["finished"].len() == 20,
            "{run:?}"
        );
    }

    let (header, depths) = read_csv(&tmp.path().join("out/3x3/depths.csv"));
    assert_eq!(header, ["depth", "states", "cumulative", "fraction"]);
    assert_eq!(depths.len(), 32);
    let sum: u64 = depths
        .iter()
        .map(|d| d["states"].parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, 181440);
    assert_eq!(depths.last().unwrap()["cumulative"], "181440");
    let depth_sum: u64 = depths
        .iter()
        .map(|d| d["depth"].parse::<u64>().unwrap() * d["states"].parse::<u64>().unwrap())
        .sum();
    assert_eq!(depth_sum.to_string(), r["depth_sum"]);

    let (header, antipodes) = read_csv(&tmp.path().join("out/3x3/antipodes.csv"));
    assert_eq!(header, ["antipode", "board"]);
    let boards: Vec<&str> = antipodes.iter().map(|a| a["board"].as_str()).collect();
    assert_eq!(boards.len(), 2);
    assert!(boards.contains(&"8 6 7/2 5 4/3 0 1") && boards.contains(&"6 4 7/8 5 0/3 2 1"));
    // Antipodes are boards the tool reads back, and solvable ones.
    for b in boards {
        assert!(tilespace(&["solvable", b], tmp.path()).status.success());
    }
}

#[test]
fn rerunning_updates_the_summary_row_in_place() {
    let tmp = tempfile::tempdir().unwrap();
    for args in [
        &["analyze", "2x3", "-q"][..],
        &["analyze", "2x3", "2x2", "-q"],
        &["analyze", "2x3", "--blank", "1,1", "-q"],
    ] {
        assert!(tilespace(args, tmp.path()).status.success());
    }
    let (_, rows) = read_csv(&tmp.path().join("results/summary.csv"));
    let keys: Vec<(String, String)> = rows
        .iter()
        .map(|r| (r["board"].clone(), r["goal_blank"].clone()))
        .collect();
    assert_eq!(
        keys,
        [
            ("2x2".into(), "2,2".into()),
            ("2x3".into(), "1,1".into()),
            ("2x3".into(), "2,3".into())
        ]
    );
    assert!(tmp.path().join("results/2x3-blank-1-1/depths.csv").exists());
    // No temporary files are left behind; the lock of summary.csv stays, empty.
    let leftovers: Vec<_> = std::fs::read_dir(tmp.path().join("results"))
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with('.'))
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    assert_eq!(leftovers, [".runs.csv.lock", ".summary.csv.lock"]);
    let lock = tmp.path().join("results/.summary.csv.lock");
    assert_eq!(std::fs::metadata(lock).unwrap().len(), 0);
}

/// The reports hold figures only: the same boards analysed on 1 and on 2 threads leave the
/// same bytes (timings go to runs.csv, which gains a row per run).
#[test]
fn reports_reproduce_byte_for_byte() {
    let tmp = tempfile::tempdir().unwrap();
    let files = ["summary.csv", "2x4/depths.csv", "2x4/antipodes.csv"];
    let mut seen = vec![];
    for threads in ["1", "2"] {
        let o = tilespace(&["analyze", "2x4", "2x3", "-q", "-j", threads], tmp.path());
        assert!(o.status.success(), "{}", stderr(&o));
        let read = |f: &str| std::fs::read(tmp.path().join("results").join(f)).unwrap();
        seen.push(files.map(read));
    }
    assert_eq!(seen[0], seen[1]);
    let (_, runs) = read_csv(&tmp.path().join("results/runs.csv"));
    let threads: Vec<&str> = runs.iter().map(|r| r["threads"].as_str()).collect();
    assert_eq!(threads, ["1", "1", "2", "2"]);
}

#[test]
fn gong_figures_are_reproduced() {
    let tmp = tempfile::tempdir().unwrap();
    let o = tilespace(&["analyze", "--gong-figures", "-q"], tmp.path());
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    let table: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("board"))
        .skip(1)
        .collect();
    assert_eq!(table.len(), 5, "{text}");
    // Each column says whose figure it is: Gong's name of the board, ours and Gong's.
    let heading = text.lines().find(|l| l.starts_with("board")).unwrap();
    let heading: Vec<&str> = heading
        .split("  ")
        .filter(|w| !w.trim().is_empty())
        .collect();
    let heading: Vec<&str> = heading.iter().map(|w| w.trim()).collect();
    assert_eq!(
        heading,
        [
            "board",
            "Gong's board",
            "ours",
            "Gong",
            "ours (exact)",
            "ours",
            "Gong",
            "agree"
        ],
        "{text}"
    );
    // Gong's figures, typed from the seed document: worst case and average to one decimal.
    for (line, (board, eccentricity, mean)) in table.iter().zip([
        ("2x2", "6", "3.0"),
        ("2x3", "21", "12.6"),
        ("2x4", "36", "22.7"),
        ("2x5", "55", "34.7"),
        ("3x3", "31", "22.0"),
    ]) {
        let f: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(
            (f[0], f[2], f[3]),
            (board, eccentricity, eccentricity),
            "{line}"
        );
        let ours: f64 = f[5].parse().unwrap();
        assert_eq!(format!("{ours:.1}"), mean, "{line}");
        assert_eq!(f[7], "yes", "{line}");
    }
}

#[test]
fn solvable_explains_and_sets_the_exit_status() {
    let tmp = tempfile::tempdir().unwrap();
    // Ryan's fig. 4 (solvable, 49 inversions) and fig. 3 (last two tiles swapped).
    let o = tilespace(
        &["solvable", "12 1 10 2/7 11 4 14/5 0 9 15/8 13 6 3"],
        tmp.path(),
    );
    assert_eq!(o.status.code(), Some(0));
    let t = stdout(&o);
    assert!(
        t.starts_with("solvable\n")
            && t.contains("inversions: 49 (odd)")
            && t.contains("row 2 from the bottom"),
        "{t}"
    );
    let o = tilespace(
        &["solvable", "1 2 3 4/5 6 7 8/9 10 11 12/13 15 14 _"],
        tmp.path(),
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).starts_with("not solvable\n"));
    // Flat list with --shape, and another goal cell: the goal itself is solvable.
    let o = tilespace(
        &[
            "solvable",
            "0,1,2,3,4,5,6,7,8",
            "--shape",
            "3x3",
            "--blank",
            "first",
        ],
        tmp.path(),
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

#[test]
fn solvable_is_instant_on_a_100x100_board() {
    let tmp = tempfile::tempdir().unwrap();
    // The goal with its first row reversed: 99·100/2 = 4950 inversions, even; width even and
    // the blank on the bottom row (odd from the bottom): solvable.
    let n = 100 * 100;
    let mut tiles: Vec<u32> = (1..n as u32).collect();
    tiles[..100].reverse();
    tiles.push(0);
    let text: Vec<String> = tiles.iter().map(u32::to_string).collect();
    let o = tilespace(
        &["solvable", &text.join(" "), "--shape", "100x100"],
        tmp.path(),
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("inversions: 4950 (even)"));
}

#[test]
fn count_prints_exact_figures_for_any_size() {
    let tmp = tempfile::tempdir().unwrap();
    let o = tilespace(&["count", "4x4"], tmp.path());
    let t = stdout(&o);
    // 16! = 20922789888000 (Gong: 2.092279 x 10^13).
    assert!(
        t.contains("total        20922789888000") && t.contains("reachable    10461394944000"),
        "{t}"
    );
    let o = tilespace(&["count", "10x10"], tmp.path());
    // 100!, a published constant.
    let f100 = "93326215443944152681699238856266700490715968264381621468592963895217599993229915608941463976156518286253697920827223758251185210916864000000000000000000000000";
    let t = stdout(&o);
    assert!(t.contains(f100), "{t}");
    let half = "46663107721972076340849619428133350245357984132190810734296481947608799996614957804470731988078259143126848960413611879125592605458432000000000000000000000000";
    assert!(t.contains(half), "{t}");
}

/// `count --goal`: the arrangements of tokens that repeat or leave several cells empty, and
/// those that reach the goal. The figures are the issue's (72), by arithmetic: 16! / (4!·4!·4!·3!)
/// = 20922789888000 / 82944 = 252,252,000, every one reachable (a repeated label frees the
/// parity, Wilson); 12!/2 = 239,500,800 with two blanks, all of them (Kornhauser, Miller and
/// Spirakis); bad goals are one line and status 2.
#[test]
fn count_of_tokens() {
    let tmp = tempfile::tempdir().unwrap();
    let o = tilespace(
        &["count", "4x4", "--goal", "1 1 1 1/2 2 2 2/3 3 3 3/4 4 4 0"],
        tmp.path(),
    );
    let t = stdout(&o);
    assert!(o.status.success(), "{}", stderr(&o));
    for line in [
        "tokens       1^4 2^4 3^4 4^3 0",
        "arrangements 252252000",
        "reachable    252252000",
        "classes      1",
    ] {
        assert!(t.contains(line), "{t}");
    }
    let o = tilespace(
        &[
            "count",
            "3x4",
            "--goal",
            "1 2 3 4/5 6 7 8/9 10 0 0",
            "--json",
        ],
        tmp.path(),
    );
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["arrangements"], "239500800");
    assert_eq!(v["reachable"], "239500800");
    assert_eq!(
        (v["blanks"].as_u64(), v["theorem"].as_str()),
        (Some(2), Some("kms"))
    );
    for (goal, says) in [
        ("1 2 3 4/5 6 7 8/9 10 11 12", "no blank"),
        ("1 0", "names 2 tokens"),
        ("1 a 0 2/3 4 5 6/7 8 9 10", "'a'"),
    ] {
        let o = tilespace(&["count", "3x4", "--goal", goal], tmp.path());
        let e = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{goal}: {e}");
        assert!(
            e.contains(says) && e.trim().lines().count() == 1,
            "{goal}: {e}"
        );
        assert!(stdout(&o).is_empty());
    }
}

/// `solvable --goal`: tokens that repeat, several blanks, on a line, on 2x2 (a cycle) and on
/// larger boards; the exit status says the verdict.
#[test]
fn solvable_of_tokens() {
    let tmp = tempfile::tempdir().unwrap();
    for (start, goal, want) in [
        // Two blanks on 2x3 (2-connected, not a cycle): everything (Kornhauser, Miller, Spirakis).
        ("1 2 1/2 0 0", "1 1 2/2 0 0", Some(0)),
        // One blank, distinct tiles: the parity test, as without --goal.
        ("2 1 3/4 5 6/7 8 0", "1 2 3/4 5 6/7 8 0", Some(1)),
        // The same swap with a repeated label: nothing to undo.
        ("1 1 3/4 5 6/7 8 0", "1 1 3/4 5 6/7 8 0", Some(0)),
        ("3 1 1/4 5 6/7 8 0", "1 1 3/4 5 6/7 8 0", Some(0)),
        // A line keeps the order; 2x2 the cyclic order (cells 1 2 4 3 round it).
        ("1 2 0 3 0", "1 2 3 0 0", Some(0)),
        ("1 3 0 2 0", "1 2 3 0 0", Some(1)),
        ("2 3/0 1", "1 2/0 3", Some(0)),
        ("2 1/0 3", "1 2/0 3", Some(1)),
        // Different tokens: bad input.
        ("1 2/0 3", "1 2/4 0", Some(2)),
    ] {
        let o = tilespace(&["solvable", start, "--goal", goal], tmp.path());
        assert_eq!(
            o.status.code(),
            want,
            "{start} -> {goal}: {}{}",
            stdout(&o),
            stderr(&o)
        );
    }
}

/// Each bad input: exit status 2 and one line on stderr naming the problem, nothing on stdout.
#[test]
fn bad_input_gets_a_one_line_error_and_status_2() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("a-file"), "").unwrap();
    let cases: &[(&[&str], &str)] = &[
        (
            &["solvable", "1 2 3/4 5 5/7 8 0"],
            "tile 5 appears 2 times and tile 6 is missing",
        ),
        (
            &["solvable", "1 2 3/4 5 6/0 8 0"],
            "the blank (0 or _) appears 2 times and tile 7 is missing",
        ),
        (&["solvable", "1 2 3/4 5 6/7 9 0"], "tile 9 is out of range"),
        (
            &["analyze", "--gong-figures", "--metric", "multi"],
            "single-tile: they do not take --metric multi",
        ),
        (&["analyze", "2x3", "--metric", "triple"], "is not a metric"),
        (
            &[
                "solve",
                "1 2 3/4 5 6/7 0 8",
                "--metric",
                "multi",
                "--pdb",
                "a-file",
            ],
            "not admissible in the multi-tile one",
        ),
        (
            &["solve", "1 2 3/4 5 6/7 0 8", "--metric", "multi"],
            "the constructive solver counts single-tile moves",
        ),
        (
            &[
                "sample", "3x3", "--pdb", "a-file", "--count", "2", "--metric", "multi",
            ],
            "not admissible in the multi-tile",
        ),
        (
            &["solvable", "1 2 3/4 5/6 7 0"],
            "ragged rows: row 2 has 2 tiles, row 1 has 3",
        ),
        (
            &["solvable", "1 2 3/4 five 6/7 8 0"],
            "'five' is not a tile number",
        ),
        (&["solvable", "1 2 3 4 5 6 7 8 0"], "give --shape"),
        (
            &["solvable", "1 2 3 4 5 6 7 0", "--shape", "3x3"],
            "has 9 cells, got 8",
        ),
        (
            &["solvable", "1 2 3/4 5 6/7 8 0", "--blank", "4,1"],
            "outside the 3x3 board",
        ),
        (
            &["solvable", "1 2 3/4 5 6/7 8 0", "--blank", "middle"],
            "not a blank cell",
        ),
        (&["analyze", "4x4", "-q"], "needs 2.6 TB"),
        // Never 2x7 itself here: it fits a 24 GiB machine and would run for minutes. 14!/8
        // bytes of table, two lists of 2^24 8-byte indices, 64 MB of buffers and 2^25 deferred
        // claims of 4 bytes: 11.36 GB.
        (
            &["analyze", "2x7", "--max-memory", "10G", "-q"],
            "needs 11.4 GB, over --max-memory 10.0 GB",
        ),
        (&["analyze", "3x3x3", "-q"], "not a board size"),
        (&["analyze", "1x1", "-q"], "a board needs at least 2 cells"),
        (
            &["analyze", "3x3", "--from", "1 2 3/4 5 6/7 8 8", "-q"],
            "tile 8 appears 2 times and the blank",
        ),
        (
            &["analyze", "3x3", "2x3", "--from", "1 2 3/4 5 6/7 8 0", "-q"],
            "--from takes exactly one board size",
        ),
        (&["theorem", "4x4", "-q"], "needs 2.6 TB"),
        (
            &["analyze", "3x3", "--threads", "0", "-q"],
            "'--threads <N>': must be at least 1",
        ),
        (
            &["analyze", "3x3", "--max-memory", "1k", "-q"],
            "over --max-memory",
        ),
        (
            &["analyze", "3x3", "--max-memory", "lots", "-q"],
            "not a size",
        ),
        (
            &["analyze", "2x2", "--results", "a-file/sub", "-q"],
            "cannot write",
        ),
        (&["count", "0x4"], "a board needs at least 2 cells"),
        (
            &["bench", "--runs", "0", "-q"],
            "'--runs <N>': must be at least 1",
        ),
        (
            &["bench", "--threads", "0,2", "-q"],
            "'--threads <N,...>': must be at least 1",
        ),
        (&["bench", "--boards", "4x4", "-q"], "needs 2.6 TB"),
        // Both metrics: what the multi-tile search needs, its row bits besides (16!/64 bytes).
        (
            &["bench", "--boards", "4x4", "--metric", "both", "-q"],
            "needs 2.9 TB",
        ),
        // Each of these panicked once (issue 15).
        (&["theorem", "1x2", "-q"], "fewer than two tiles"),
        (
            &[
                "analyze",
                "2x2",
                "--checkpoint-every",
                "99999999999999h",
                "-q",
            ],
            "out of range (0 to a year)",
        ),
        (
            &["analyze", "2x3", "--threads", "20000", "-q"],
            "20000 threads is too many: at most",
        ),
        (
            &["analyze", "1000x1000", "-q"],
            "the index handles at most 17 cells",
        ),
        // The OS cause is said once.
        (
            &["analyze", "2x2", "--results", "/proc/no/such", "-q"],
            "cannot write /proc/no/such: No such file or directory (os error 2)",
        ),
        // An option the command lacks names the commands that take it (clap's tip, "use '--
        // --metric'", suits none); a typo gets clap's guess; a board typed without quotes is
        // told to be quoted.
        (
            &["theorem", "3x3", "--metric", "multi"],
            "`theorem` takes no --metric (analyze, bench,",
        ),
        (
            &["atlas", "2x4", "--blank", "1,1"],
            "`atlas` takes no --blank (analyze,",
        ),
        (
            &["random", "3x3", "-n", "3"],
            "`random` takes no -n; see `tilespace random --help`",
        ),
        (
            &["analyze", "3x3", "--metrc", "multi"],
            "did you mean --metric?",
        ),
        (
            &["solvable", "8", "6", "7/2", "5", "4/3", "0", "1"],
            "unexpected argument '6': a board is one argument, quoted",
        ),
        (
            &["solve", "1", "2", "3/4", "5", "6/7", "8", "0"],
            "'1' is one tile, not a board: a board is one argument, quoted",
        ),
    ];
    for (args, message) in cases {
        let o = tilespace(args, tmp.path());
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(message), "{args:?}: {err}");
        assert_eq!(
            err.trim_end().lines().count(),
            1,
            "{args:?}: one line, got {err}"
        );
        assert!(stdout(&o).is_empty(), "{args:?}");
        assert!(!err.contains("'-- "), "{args:?}: {err}");
        assert!(
            !err.contains("(os error") || err.matches("(os error").count() == 1,
            "{err}"
        );
    }
    #[cfg(target_os = "linux")]
    {
        // Completions written to a full device: an error, not a panic.
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_tilespace"))
            .args(["completions", "bash"])
            .stdout(full)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(
            stderr(&o).contains("No space left on device"),
            "{}",
            stderr(&o)
        );
    }
}

/// Arguments that conflict are refused before anything is written: the output directory is
/// not even created.
#[test]
fn conflicting_arguments_leave_no_trace() {
    let tmp = tempfile::tempdir().unwrap();
    let cases: &[&[&str]] = &[
        &[
            "analyze",
            "3x3",
            "2x3",
            "--save-table",
            "t.tst",
            "--results",
            "fresh",
        ],
        &[
            "analyze",
            "3x3",
            "2x3",
            "--checkpoint",
            "ck",
            "--results",
            "fresh",
        ],
        &[
            "analyze",
            "3x3",
            "2x3",
            "--from",
            "1 2 3/4 5 6/7 8 0",
            "--results",
            "fresh",
        ],
        &["analyze", "3x3", "--blank", "9,9", "--results", "fresh"],
    ];
    for args in cases {
        let o = tilespace(args, tmp.path());
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(
            !tmp.path().join("fresh").exists(),
            "{args:?} created the directory"
        );
        assert!(
            !tmp.path().join("ck").exists(),
            "{args:?} created the checkpoint"
        );
    }
}

#[test]
fn bench_writes_the_table_and_the_machine() {
    let tmp = tempfile::tempdir().unwrap();
    let o = tilespace(
        &[
            "bench",
            "--boards",
            "2x3,2x2",
            "--threads",
            "2,1",
            "--runs",
            "3",
            "-q",
        ],
        tmp.path(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let (header, rows) = read_csv(&tmp.path().join("results/bench.csv"));
    assert_eq!(
        header.join(","),
        "board,metric,threads,runs,median_seconds,min_seconds,mean_seconds,stddev_seconds,\
states_per_second,teps,speedup,efficiency"
    );
    let keys: Vec<(&str, &str)> = rows
        .iter()
        .map(|r| (r["board"].as_str(), r["threads"].as_str()))
        .collect();
    assert_eq!(
        keys,
        [("2x3", "1"), ("2x3", "2"), ("2x2", "1"), ("2x2", "2")]
    );
    for r in &rows {
        assert_eq!(r["runs"], "3");
        let (median, min): (f64, f64) = (
            r["median_seconds"].parse().unwrap(),
            r["min_seconds"].parse().unwrap(),
        );
        assert!(min <= median);
        // TEPS over states/s is the mean degree over 2: 2x3 has 14 degrees on 6 cells, 2x2 8
        // on 4 (a 12-cycle: as many edges as states). Both are written rounded to integers,
        // so they agree to within the rounding of each, however fast the machine (a ratio
        // within 1e-6 failed at 45,386 states a second).
        let (teps, states) = (
            r["teps"].parse::<f64>().unwrap(),
            r["states_per_second"].parse::<f64>().unwrap(),
        );
        let want = if r["board"] == "2x3" {
            14.0 / 12.0
        } else {
            1.0
        };
        assert!(states >= 1.0, "{r:?}");
        assert!((teps - want * states).abs() <= 0.5 + 0.5 * want, "{r:?}");
    }
    assert_eq!(rows[0]["speedup"], "1.0");
    let machine = std::fs::read_to_string(tmp.path().join("results/bench-machine.txt")).unwrap();
    for key in [
        "compiler:",
        "cores:",
        "numa nodes:",
        "memory:",
        "load average before:",
        "started:",
        "random reads (1.1 GB, one thread): ",
    ] {
        assert!(machine.contains(key), "{machine}");
    }
    // The record names the binary that ran, not the directory it ran in (a temporary one,
    // outside any git checkout): the revision --version prints.
    let record: serde_json::Value =
        serde_json::from_slice(&std::fs::read(tmp.path().join("results/bench.json")).unwrap())
            .unwrap();
    let version = stdout(&tilespace(&["--version"], tmp.path()));
    let build = &record["build"];
    assert_eq!(
        format!(
            "tilespace {} (git {})\n",
            build["version"].as_str().unwrap(),
            build["revision"].as_str().unwrap()
        ),
        version
    );
    assert!(build["rustc"].as_str().unwrap().starts_with("rustc "));
    assert_eq!(record["rows"].as_array().unwrap().len(), 4);
    // A gigabyte read at random: some reads a second, however slow the machine.
    for key in ["random_reads_before", "random_reads_after"] {
        let reads = record[key].as_u64().unwrap();
        assert!(reads > 0, "{key} {reads}");
    }
    assert!(record["machine"]["logical_cores"].as_u64().unwrap() >= 1);
    assert!(record["kernels"].as_str().is_some_and(|k| !k.is_empty()));
    // Every key of the record, and of its machine and build, is in the guide's table of them.
    let guide =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/GUIDE.md")).unwrap();
    let table = &guide[guide
        .find("The keys of `bench.json`")
        .expect("the keys' table")..];
    let table = &table[..table.find("\n\n###").unwrap_or(table.len())];
    let mut keys: Vec<String> = record.as_object().unwrap().keys().cloned().collect();
    for part in ["machine", "build"] {
        keys.extend(record[part].as_object().unwrap().keys().cloned());
    }
    for key in keys {
        assert!(
            table.contains(&format!("`{key}`")),
            "{key} is not in the guide's table"
        );
    }
    assert!(
        machine.contains("kernels: ") && machine.contains("during the runs: "),
        "{machine}"
    );
}

/// `analyze --from` an unsolvable board searches the other class; `theorem` checks both classes
/// of the seed boards and a line, writes theorem.csv, and exits 0.
#[test]
fn analyze_from_and_theorem_end_to_end() {
    let tmp = tempfile::tempdir().unwrap();
    let o = tilespace(
        &[
            "analyze",
            "3x3",
            "--from",
            "1 2 3/4 5 6/8 7 0",
            "--results",
            "out",
            "-q",
        ],
        tmp.path(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("unsolvable class"), "{text}");
    assert!(text.contains("181440 states = 9!/2, verified"), "{text}");
    let (_, rows) = read_csv(&tmp.path().join("out/summary.csv"));
    assert_eq!(rows[0]["class"], "unsolvable");
    assert_eq!(rows[0]["start"], "1 2 3/4 5 6/8 7 0");
    assert!(tmp
        .path()
        .join("out/3x3-from-1-2-3-4-5-6-8-7-0/depths.csv")
        .exists());

    let o = tilespace(
        &["theorem", "2x3", "3x3", "1x6", "--results", "out", "-q"],
        tmp.path(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert_eq!(text.matches("theorem: holds").count(), 3, "{text}");
    let (header, rows) = read_csv(&tmp.path().join("out/theorem.csv"));
    assert_eq!(
        header.join(","),
        "board,class,start,states,expected,component,parity_test_agrees,goal_blank,eccentricity"
    );
    assert_eq!(rows.len(), 6);
    for r in &rows {
        assert_eq!(r["states"], r["expected"], "{r:?}");
        assert_eq!(r["component"], "true");
        assert_eq!(r["parity_test_agrees"], "true");
    }
    let r = rows
        .iter()
        .find(|r| r["board"] == "3x3" && r["class"] == "unsolvable")
        .unwrap();
    assert_eq!(r["states"], "181440");
    assert_eq!(r["start"], "1 2 3/4 5 6/8 7 0");
    let r = rows
        .iter()
        .find(|r| r["board"] == "1x6" && r["class"] == "solvable")
        .unwrap();
    assert_eq!(
        (r["states"].as_str(), r["eccentricity"].as_str()),
        ("6", "5")
    );
}

/// Save the 3x3 table, ask the distance of an antipode (31) and an optimal solution; several
/// boards from stdin as CSV; a damaged table and an unsolvable board are refused.
#[test]
fn save_table_then_distance_and_solve() {
    let tmp = tempfile::tempdir().unwrap();
    let o = tilespace(
        &[
            "analyze",
            "3x3",
            "--save-table",
            "t.tst",
            "--results",
            "out",
            "-q",
        ],
        tmp.path(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let o = tilespace(
        &["distance", "8 6 7/2 5 4/3 0 1", "--table", "t.tst"],
        tmp.path(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "8 6 7/2 5 4/3 0 1: 31\n");
    let o = tilespace(
        &["solve", "8 6 7/2 5 4/3 0 1", "--table", "t.tst"],
        tmp.path(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        text.contains("31 moves (optimal; verified by replay)"),
        "{text}"
    );
    let blank = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("blank: "))
        .unwrap();
    assert_eq!(blank.len(), 31);

    let o = crate::common::tilespace_reading(
        &["solve", "--table", "t.tst", "--input", "-", "--csv"],
        tmp.path(),
        b"1 2 3/4 5 6/7 0 8\n1 2 3/4 5 6/8 7 0\n",
    );
    assert_eq!(o.status.code(), Some(1), "one board is unsolvable");
    assert_eq!(
        stdout(&o),
        "board,solvable,moves,optimal,lower_bound,tiles,blank_moves\n\
         1 2 3/4 5 6/7 0 8,true,1,true,1,8,R\n\
         1 2 3/4 5 6/8 7 0,false,,,,,\n"
    );

    let mut bytes = std::fs::read(tmp.path().join("t.tst")).unwrap();
    bytes.truncate(bytes.len() - 100);
    std::fs::write(tmp.path().join("short.tst"), bytes).unwrap();
    let o = tilespace(
        &["distance", "1 2 3/4 5 6/7 8 0", "--table", "short.tst"],
        tmp.path(),
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("truncated"), "{}", stderr(&o));
    let o = tilespace(
        &["distance", "1 2 3/4 5 6/8 7 0", "--table", "t.tst"],
        tmp.path(),
    );
    // One unsolvable board is an answer on stdout, as among several, with exit status 1.
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stdout(&o).starts_with("1 2 3/4 5 6/8 7 0: not solvable: "),
        "{}",
        stdout(&o)
    );
    assert!(stderr(&o).is_empty(), "{}", stderr(&o));
    // The size comes from the table: an error says so, and a --shape that disagrees is refused.
    for (args, why) in [
        (
            &["distance", "1 2/3 0", "--table", "t.tst"][..],
            "but the table is for 3x3",
        ),
        (
            &["distance", "1 2 3 0", "--table", "t.tst", "--shape", "2x2"][..],
            "--shape 2x2: the table is for 3x3",
        ),
    ] {
        let o = tilespace(args, tmp.path());
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(stderr(&o).contains(why), "{why}: {}", stderr(&o));
    }
}

/// `solve` without a table: random boards from `random` (20x20, and 3x5 with the blank's goal
/// in the centre) are solved, and the printed moves, replayed here, reach the goal.
#[test]
fn constructive_solve_of_random_boards() {
    use tilespace::puzzle::moves::{verify, Moves};
    use tilespace::{Board, GoalBlank, Shape};
    let tmp = tempfile::tempdir().unwrap();
    for (shape, blank) in [("20x20", "last"), ("3x5", "center"), ("7x2", "1,1")] {
        let o = tilespace(
            &[
                "random", shape, "--seed", "9", "--count", "5", "--blank", blank,
            ],
            tmp.path(),
        );
        assert!(o.status.success(), "{}", stderr(&o));
        std::fs::write(tmp.path().join("boards.txt"), stdout(&o)).unwrap();
        let o = tilespace(
            &["solve", "--input", "boards.txt", "--csv", "--blank", blank],
            tmp.path(),
        );
        assert!(o.status.success(), "{}", stderr(&o));
        let text = stdout(&o);
        let mut rows = csv::Reader::from_reader(text.as_bytes());
        let mut n = 0;
        for row in rows.records() {
            let row = row.unwrap();
            let board = Board::parse(&row[0], None).unwrap();
            let s: Shape = shape.parse().unwrap();
            let goal = blank.parse::<GoalBlank>().unwrap().resolve(s).unwrap();
            let moves = Moves::parse(&row[6]).unwrap();
            assert_eq!(moves.len().to_string(), &row[2]);
            // Optimal only when as short as the lower bound, which proves it.
            let bound = row[4].parse::<usize>().unwrap();
            assert!(moves.len() >= bound);
            assert_eq!(row[3] == *"true", moves.len() == bound, "{row:?}");
            verify(&board, &moves, &Board::goal(s, goal)).unwrap();
            n += 1;
        }
        assert_eq!(n, 5);
    }
    let o = tilespace(&["solve", "1 2 3/4 5 6/8 7 0"], tmp.path());
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("not solvable"), "{}", stdout(&o));
    assert!(stdout(&o).contains("inversion"), "{}", stdout(&o));
    // A board one move from the goal: the construction is as short as its bound, so optimal.
    let o = tilespace(&["solve", "1 2 3/4 5 6/7 0 8"], tmp.path());
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).contains(": 1 move (optimal;"), "{}", stdout(&o));
    // The goal itself: no moves, and no empty lines of them.
    let o = tilespace(&["solve", "1 2 3/4 5 6/7 8 0"], tmp.path());
    assert_eq!(stdout(&o).lines().count(), 1, "{}", stdout(&o));
    let o = tilespace(&["distance", "1 2 3/4 5 6/7 8 0"], tmp.path());
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--table"), "{}", stderr(&o));
}

/// Batch input skips blank lines and `#` comments and names the line of a bad board (and with
/// `--keep-going` answers the others); `-j` is
/// `--threads`; `distance` without `--table` is refused by clap in one line.
#[test]
fn batch_input_and_short_options() {
    let tmp = tempfile::tempdir().unwrap();
    let input = "# boards\n8 6 7/2 5 4/3 0 1\n\n   # indented comment\n1 2 3/4 5 6/7 0 8\n";
    std::fs::write(tmp.path().join("in.txt"), input).unwrap();
    let o = tilespace(&["solve", "--input", "in.txt", "--csv"], tmp.path());
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o).lines().count(), 3, "{}", stdout(&o));
    std::fs::write(tmp.path().join("in.txt"), format!("{input}1 2/3 0 4\n")).unwrap();
    let o = tilespace(&["solve", "--input", "in.txt"], tmp.path());
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("in.txt:6: bad board"), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "",
        "nothing answered before every board is read"
    );
    // --keep-going: the bad line named and skipped, the two good boards answered, status 2.
    let o = tilespace(
        &["solve", "--input", "in.txt", "--csv", "--keep-going"],
        tmp.path(),
    );
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stdout(&o).lines().count(), 3, "{}", stdout(&o));
    let err = stderr(&o);
    assert!(err.contains("skipped: in.txt:6: bad board"), "{err}");
    assert!(err.contains("1 board skipped (named above)"), "{err}");

    let o = tilespace(&["analyze", "2x3", "-j", "1", "-q"], tmp.path());
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("on 1 thread"), "{}", stdout(&o));
    let o = tilespace(&["distance", "1 2 3/4 5 6/7 0 8"], tmp.path());
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stderr(&o).lines().count(), 1, "{}", stderr(&o));
    assert!(stderr(&o).contains("--table <FILE>"), "{}", stderr(&o));
}

/// The reports directory has one name, `--results`, for the commands that write reports and
/// for those that read them; the charts' folder is `--charts`, the databases' `--pdb`.
#[test]
fn the_reports_directory_is_named_results_everywhere() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let o = tilespace(&["analyze", "2x3", "-q", "--results", "r"], dir);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = tilespace(&["theorem", "2x2", "-q", "--results", "r"], dir);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = tilespace(&["antipodes", "2x3", "-q", "--results", "r"], dir);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(dir.join("r/2x3/antipode-patterns.csv").exists());
    for args in [
        &["table", "--results", "r"][..],
        &["table", "--results", "r", "--theorem"],
        &["check", "--results", "r"],
    ] {
        let o = tilespace(args, dir);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        assert!(stdout(&o).contains("2x"), "{args:?}: {}", stdout(&o));
    }
    let o = tilespace(&["plot", "--results", "r", "--charts", "c"], dir);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(dir.join("c/2x3.svg").exists());
    // No command takes `--out`: one word, `--results`, for the reports.
    for args in [
        &["plot", "--out", "r"][..],
        &["pdb", "2x2", "--partition", "3", "--out", "p"],
        &["analyze", "2x2", "--out", "r"],
    ] {
        let o = tilespace(args, dir);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = stderr(&o);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains("--out"), "{err}");
    }
    assert!(!dir.join("p").exists());
}

/// Every command that writes files names them after one word, `wrote:`, and every file it
/// names is there.
#[test]
fn written_files_are_announced_alike() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    for args in [
        &[
            "analyze",
            "2x2",
            "-q",
            "--results",
            "r",
            "--save-table",
            "t.tst",
        ][..],
        &["theorem", "2x2", "-q", "--results", "r"],
        &["antipodes", "2x2", "-q", "--results", "r"],
        &["atlas", "2x2", "-q", "--results", "r"],
        &[
            "bench",
            "--boards",
            "2x2",
            "--threads",
            "1",
            "--runs",
            "1",
            "-q",
            "--results",
            "b",
        ],
    ] {
        let o = tilespace(args, dir);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        let text = stdout(&o);
        let named: Vec<&str> = text
            .lines()
            .filter_map(|l| l.trim_start().strip_prefix("wrote: "))
            .flat_map(|l| l.split(", "))
            .collect();
        assert!(!named.is_empty(), "{args:?}: {text}");
        for path in named {
            assert!(dir.join(path).is_file(), "{args:?}: {path}");
        }
        for other in ["reports:", "report:", "written:"] {
            assert!(!text.contains(other), "{args:?}: {text}");
        }
    }
}

/// `plan --disk` cuts the table as `analyze --disk` does in that memory (shards of the largest
/// power of two of states whose 2-bit table takes at most half of it) and asks for the disk
/// that run checks for; options of the other plans are refused with it, and it needs a memory.
#[test]
fn plan_disk_gives_the_shards_and_disk_of_the_search() {
    let tmp = tempfile::tempdir().unwrap();
    let args = [
        "plan",
        "3x4",
        "--disk",
        "--max-memory",
        "16M",
        "--samples",
        "1000",
    ];
    let o = tilespace(&args, tmp.path());
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    // 12!/2 states at 2 bits: 59,875,200 bytes. Half of 16 MB is 8,000,000 bytes, which holds
    // 2^24 states (4,194,304 bytes) and not 2^25: 15 shards. The disk: the table twice and a
    // shard, 123,944,704 bytes.
    assert!(
        text.contains("table 59.9 MB in 15 shards of 4.2 MB"),
        "{text}"
    );
    assert!(text.contains("disk needed: 123.9 MB"), "{text}");
    assert!(text.contains("no projected time"), "{text}");
    for bad in [
        &["plan", "3x4", "--disk", "--sbatch"][..],
        &["plan", "3x4", "--disk", "--ranks", "4"],
        &["plan", "3x4", "--disk", "--network-gbits", "10"],
        &["plan", "3x4", "--max-memory", "1G"],
        &["plan", "3x4", "--disk", "--disk-gbps", "-1"],
        &["plan", "3x4", "--disk", "--max-memory", "100k"],
    ] {
        let o = tilespace(bad, tmp.path());
        assert_eq!(o.status.code(), Some(2), "{bad:?}");
        assert_eq!(stderr(&o).lines().count(), 1, "{bad:?}: {}", stderr(&o));
    }
}

/// `plan --sbatch` prints the documented job script (docs/slurm/analyze.sbatch, the one CI
/// submits to Slurm) with its #SBATCH settings and board filled in, its body unchanged, and
/// refuses what cannot make one job.
#[test]
fn plan_sbatch_fills_in_the_documented_job_script() {
    let tmp = tempfile::tempdir().unwrap();
    let args = [
        "plan",
        "3x4",
        "--ranks",
        "4",
        "--ranks-per-node",
        "2",
        "--threads-per-rank",
        "2",
        "--mem-per-rank",
        "1G",
        "--time-limit",
        "2d",
        "--samples",
        "1000",
        "--sbatch",
    ];
    let o = tilespace(&args, tmp.path());
    assert!(o.status.success(), "{}", stderr(&o));
    let script = stdout(&o);
    assert!(script.starts_with("#!/bin/bash\n"), "{script}");
    // 1G is 10^9 bytes: 954 MiB a rank, over 2 CPUs.
    let mem = (1e9f64 / (1u64 << 20) as f64).ceil() as u64;
    for want in [
        "#SBATCH --nodes=2 ".to_string(),
        "#SBATCH --ntasks-per-node=2 ".into(),
        "#SBATCH --cpus-per-task=2 ".into(),
        format!("#SBATCH --mem-per-cpu={}M ", mem.div_ceil(2)),
        "#SBATCH --time=48:00:00 ".into(),
        "#SBATCH --signal=USR1@600 ".into(),
        "BOARD=${BOARD:-3x4} ".into(),
    ] {
        assert!(
            script.lines().any(|l| l.starts_with(&want)),
            "{want}: {script}"
        );
    }
    // The rest is the documented script's, line for line.
    let documented = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/slurm/analyze.sbatch"),
    )
    .unwrap();
    let kept = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|l| !l.starts_with("#SBATCH --") || l.starts_with("#SBATCH --job-name"))
            .filter(|l| !l.starts_with("BOARD=") && !l.starts_with("# `tilespace plan"))
            .filter(|l| !l.starts_with("# Expected") && !l.starts_with("# No expected"))
            .map(String::from)
            .collect()
    };
    assert_eq!(kept(&script), kept(&documented));
    let settings = |text: &str| text.lines().filter(|l| l.starts_with("#SBATCH")).count();
    assert_eq!(settings(&script), settings(&documented));
    std::fs::write(tmp.path().join("job.sbatch"), &script).unwrap();
    let syntax = Command::new("bash")
        .args(["-n", "job.sbatch"])
        .current_dir(tmp.path())
        .status()
        .unwrap();
    assert!(syntax.success(), "bash -n: {script}");

    for (bad, why) in [
        (
            &["3x4", "2x6", "--ranks", "2"][..],
            "give one board and one --ranks",
        ),
        (
            &["3x4", "--ranks", "2,4"][..],
            "give one board and one --ranks",
        ),
        (
            &["3x4", "--ranks", "3", "--ranks-per-node", "2"][..],
            "do not fill nodes",
        ),
        (
            &["3x4", "--ranks", "2", "--time-limit", "10m"][..],
            "leaves no time to work",
        ),
        (
            &["3x4", "--ranks", "2", "--mem-per-rank", "10M"][..],
            "is less than a rank",
        ),
    ] {
        let mut all = vec!["plan", "--sbatch", "--samples", "100"];
        all.extend_from_slice(bad);
        let o = tilespace(&all, tmp.path());
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{bad:?}: {err}");
        assert!(err.contains(why), "{bad:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{bad:?}: {err}");
        assert!(o.stdout.is_empty(), "{bad:?}");
    }
}

/// Boards that a table or pattern databases for the blank last find unsolvable, but that reach
/// the goal with the blank first (as Korf's instances do, on 4x4), are answered "not solvable"
/// with a hint on stderr naming the goal the source is for and how to make one for the other;
/// a solvable board gets none. (2x4: width even, so the class depends on
/// the blank's row; "0 1 2 3/4 5 6 7" has no inversion and its blank a row from 2,4.)
#[test]
fn a_source_for_the_other_goal_blank_is_named() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    for args in [
        &[
            "analyze",
            "2x4",
            "--save-table",
            "t.tst",
            "--results",
            "r",
            "-q",
        ][..],
        &["pdb", "2x4", "--partition", "3-4", "--pdb", "p", "-q"],
    ] {
        let o = tilespace(args, dir);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    for (source, value, build) in [
        (
            "--table",
            "t.tst",
            "tilespace analyze 2x4 --blank 1,1 --save-table FILE",
        ),
        ("--pdb", "p", "tilespace pdb 2x4 --blank 1,1 --pdb DIR"),
    ] {
        let o = tilespace(&["solve", "0 1 2 3/4 5 6 7", source, value], dir);
        assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
        assert!(stdout(&o).contains("not solvable"), "{}", stdout(&o));
        let err = stderr(&o);
        assert!(err.contains("for the goal with the blank at 2,4"), "{err}");
        assert!(err.contains("with the blank at 1,1"), "{err}");
        assert!(err.contains(build), "{err}");
        // Two tiles swapped: solvable here, and no hint.
        let o = tilespace(&["solve", "0 2 1 3/4 5 6 7", source, value], dir);
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(!stderr(&o).contains("hint"), "{}", stderr(&o));
    }
}

/// `--save-table` into a directory that does not exist is refused before the search (a typo
/// is not made a directory), as other outputs refuse a missing parent.
#[test]
fn a_table_into_a_missing_directory_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let o = tilespace(
        &["analyze", "2x3", "--save-table", "no/such/x.tst", "-q"],
        tmp.path(),
    );
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("its directory no/such does not exist"),
        "{err}"
    );
    assert!(!tmp.path().join("no").exists());
    assert!(!tmp.path().join("results").exists());
}

/// A chart of a multi-tile search says so in its title and on its depth axis (SVG and
/// pgfplots), and a single-tile one says single-tile.
#[test]
fn charts_name_their_metric() {
    let tmp = tempfile::tempdir().unwrap();
    for metric in ["single", "multi"] {
        let o = tilespace(&["analyze", "2x3", "--metric", metric, "-q"], tmp.path());
        assert!(o.status.success(), "{}", stderr(&o));
    }
    for format in ["svg", "pgfplots"] {
        let o = tilespace(
            &["plot", "--format", format, "--charts", format],
            tmp.path(),
        );
        assert!(o.status.success(), "{}", stderr(&o));
        let ext = if format == "svg" { "svg" } else { "tex" };
        for (file, words) in [("2x3", "single-tile"), ("2x3-multi", "multi-tile")] {
            let text =
                std::fs::read_to_string(tmp.path().join(format).join(format!("{file}.{ext}")))
                    .unwrap();
            let axis = match format {
                "svg" => format!("depth (optimal {words} moves from the goal)"),
                _ => format!("depth ({words} moves)"),
            };
            assert!(text.contains(&axis), "{format} {file}: no {axis:?}");
            let other = if words == "single-tile" {
                "multi-tile"
            } else {
                "single-tile"
            };
            assert!(!text.contains(other), "{format} {file} says {other}");
            if format == "svg" {
                assert!(
                    text.contains(&format!("2x3 board, {words} moves")),
                    "{file}"
                );
            }
        }
    }
}

/// Each command's help offers only what that command does: `--optimal` is `solve`'s.
#[test]
fn help_offers_only_the_commands_own_options() {
    let tmp = tempfile::tempdir().unwrap();
    let distance = stdout(&tilespace(&["distance", "--help"], tmp.path()));
    assert!(
        distance.contains("--table") && !distance.contains("--optimal"),
        "{distance}"
    );
    let solve = stdout(&tilespace(&["solve", "--help"], tmp.path()));
    assert!(solve.contains("--optimal"), "{solve}");
}

/// A graph's runs print as a board's do: the time with its threads and rate, and an atlas's
/// classes of blank vertices named by their first vertex, their count and their members.
#[test]
fn graph_runs_print_as_boards_do() {
    let tmp = tempfile::tempdir().unwrap();
    let o = tilespace(
        &["analyze", "--graph", "cycle:5", "-j", "1", "-q"],
        tmp.path(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    let timed = text
        .lines()
        .find(|l| l.contains(" s on "))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(
        timed.contains(" s on 1 thread, ") && timed.ends_with(" M states/s"),
        "{text}"
    );
    let o = tilespace(&["atlas", "--graph", "cycle:5", "-q"], tmp.path());
    assert!(o.status.success(), "{}", stderr(&o));
    // Every vertex of a cycle is like every other: one class. On a cycle the tiles keep their
    // cyclic order: 5 places of the blank times 4 rotations (Wilson 1974).
    assert!(
        stdout(&o).contains("  vertex 1 (5 vertices: 1 2 3 4 5): 20 states, "),
        "{}",
        stdout(&o)
    );
}

/// A graph's checkpoint of another goal names the vertices, as the user numbers them.
#[test]
fn a_graph_checkpoint_of_another_blank_names_vertices() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    // Held after depth 5 and stopped there: a checkpoint is left.
    let args = [
        "analyze",
        "--graph",
        "theta:1,2,2",
        "--checkpoint",
        "ck",
        "-q",
    ];
    let o = crate::common::interrupted_at(&args, dir, 5);
    assert_eq!(o.status.code(), Some(75), "stopped with its checkpoint");
    let o = tilespace(
        &[
            "analyze",
            "--graph",
            "theta:1,2,2",
            "--blank",
            "1",
            "--resume",
            "ck",
            "-q",
        ],
        dir,
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("its goal blank is vertex 7, not vertex 1"),
        "{}",
        stderr(&o)
    );
}

/// A graph6 list that names a graph twice walks it once: one row of graphs.csv, counted once,
/// with a note of the repeats; and its memory is that of as many walks as there are graphs,
/// not of a walk a thread (`-j 2` with one graph fits where two walks would not).
#[test]
fn a_graph6_list_counts_each_graph_once() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::write(dir.join("c5.g6"), "Dhc\nDhc\n\nDhc\n").unwrap();
    let o = tilespace(
        &[
            "theorem",
            "--graph6",
            "c5.g6",
            "-j",
            "2",
            "--max-memory",
            "100M",
            "--results",
            "r",
        ],
        dir,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("the theorems hold on all 1 graphs they predict, of 1 read"),
        "{}",
        stdout(&o)
    );
    assert!(
        stderr(&o).contains("2 lines of c5.g6 repeated a graph"),
        "{}",
        stderr(&o)
    );
    let (_, rows) = read_csv(&dir.join("r/graphs.csv"));
    assert_eq!(rows.len(), 1);
}

/// `--input` and `--graph6` read a pipe (a FIFO, or a shell's `<(…)`) as they read stdin.
#[test]
fn input_files_may_be_pipes() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let o = tilespace(&["analyze", "2x3", "-q", "--save-table", "t.tst"], dir);
    assert!(o.status.success(), "{}", stderr(&o));
    let fifo = dir.join("boards");
    let feed = |text: &'static str| {
        let _ = std::fs::remove_file(&fifo);
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        let path = fifo.clone();
        std::thread::spawn(move || {
            let _ = std::fs::write(path, text);
        })
    };
    // The writer waits for a reader: a command that refused the pipe leaves it waiting, so a
    // reader that does not wait (O_NONBLOCK) is opened after the command, and the writer ends.
    let done = |writer: std::thread::JoinHandle<()>| {
        use std::os::unix::fs::OpenOptionsExt;
        let reader = std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(0o4000)
            .open(&fifo);
        writer.join().unwrap();
        drop(reader);
    };
    let writer = feed("1 2 3/4 0 5\n1 2 3/4 5 0\n");
    let o = tilespace(&["distance", "--table", "t.tst", "--input", "boards"], dir);
    done(writer);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "1 2 3/4 0 5: 1\n1 2 3/4 5 0: 0\n");
    let writer = feed("Dhc\n");
    let o = tilespace(
        &["theorem", "--graph6", "boards", "-q", "--results", "r"],
        dir,
    );
    done(writer);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("of 1 read"), "{}", stdout(&o));
}

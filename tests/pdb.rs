//! `tilespace pdb`, `solve --pdb` and `sample` end to end: the databases on disk, refusal of
//! damaged or mismatched ones, checked lengths from a CSV, and sampled means against the
//! exact means of complete enumerations.

// A test that walks one scenario through every step reads best whole: the 100-line limit
// (clippy.toml) holds for src/, not for these.
#![allow(clippy::too_many_lines)]

use crate::common::{pdb_3x3, stderr, stdout, tilespace};
use tilespace::optimal::database::{reseal, Database};
use tilespace::{analyze, AnalyzeOptions, Cell, Shape};

/// Builds, keeps what is built, answers with nodes and seconds, and agrees with a saved table.
#[test]
fn databases_are_built_kept_and_answer_like_a_table() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    pdb_3x3(dir);
    let again = tilespace(
        &[
            "pdb",
            "3x3",
            "--partition",
            "4-4",
            "--pdb",
            "p",
            "-q",
            "--csv",
        ],
        dir,
    );
    assert!(stdout(&again).contains(",false,,"), "{}", stdout(&again));
    // The text lines say the same: the two databases were kept, not built again.
    let text = tilespace(
        &["pdb", "3x3", "--partition", "4-4", "--pdb", "p", "-q"],
        dir,
    );
    let text = stdout(&text);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(
        lines.iter().all(|l| l.contains("kept (built before)")),
        "{text}"
    );
    let o = tilespace(
        &[
            "analyze",
            "3x3",
            "-q",
            "--results",
            "r",
            "--save-table",
            "t.tst",
        ],
        dir,
    );
    assert!(o.status.success());
    let boards = tilespace(&["random", "3x3", "--seed", "3", "--count", "40"], dir);
    std::fs::write(dir.join("boards.txt"), stdout(&boards)).unwrap();
    let by_table = tilespace(
        &[
            "distance",
            "--input",
            "boards.txt",
            "--table",
            "t.tst",
            "--csv",
        ],
        dir,
    );
    let by_pdb = tilespace(
        &["distance", "--input", "boards.txt", "--pdb", "p", "--csv"],
        dir,
    );
    assert!(by_pdb.status.success(), "{}", stderr(&by_pdb));
    let table: Vec<String> = stdout(&by_table)
        .lines()
        .skip(1)
        .map(String::from)
        .collect();
    // A second partition (the columns, with the first's databases kept apart).
    let columns = tilespace(
        &[
            "pdb",
            "3x3",
            "--pattern",
            "1,4,7",
            "--pattern",
            "2,5,8",
            "--pattern",
            "3,6",
            "--pdb",
            "q",
            "-q",
        ],
        dir,
    );
    assert!(columns.status.success(), "{}", stderr(&columns));
    let by_both = tilespace(
        &[
            "distance",
            "--input",
            "boards.txt",
            "--pdb",
            "p",
            "--pdb",
            "q",
            "--csv",
        ],
        dir,
    );
    assert!(by_both.status.success(), "{}", stderr(&by_both));
    assert_eq!(table.len(), 40);
    for by in [&by_pdb, &by_both] {
        let pdb: Vec<String> = stdout(by).lines().skip(1).map(String::from).collect();
        assert_eq!(pdb.len(), 40);
        for (t, p) in table.iter().zip(&pdb) {
            // board,solvable,distance then nodes,seconds.
            assert!(p.starts_with(&format!("{t},")), "{t} / {p}");
            assert_eq!(p.split(',').count(), 5, "{p}");
        }
    }
    let solve = tilespace(
        &["solve", "8 6 7/2 5 4/3 0 1", "--optimal", "--pdb", "p"],
        dir,
    );
    assert!(
        stdout(&solve).contains("31 moves (optimal: IDA*"),
        "{}",
        stdout(&solve)
    );
}

/// A CSV with an `optimal` column is checked: a wrong length is a failed check (exit 1).
#[test]
fn published_lengths_are_checked() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    pdb_3x3(dir);
    // 31 moves (Reinefeld's hardest 3x3 positions are 31 moves from the goal).
    let right = "# a comment\nindex,optimal,board\n1,31,8 6 7/2 5 4/3 0 1\n2,0,1 2 3/4 5 6/7 8 0\n";
    std::fs::write(dir.join("right.csv"), right).unwrap();
    let o = tilespace(
        &["solve", "--input", "right.csv", "--pdb", "p", "--csv"],
        dir,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("2 of 2 lengths agree"),
        "{}",
        stderr(&o)
    );
    std::fs::write(dir.join("wrong.csv"), right.replace("1,31,", "1,29,")).unwrap();
    let o = tilespace(
        &["solve", "--input", "wrong.csv", "--pdb", "p", "--csv"],
        dir,
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("31 moves, 29 given"), "{}", stderr(&o));
    std::fs::write(dir.join("bad.csv"), "optimal,board\nx,8 6 7/2 5 4/3 0 1\n").unwrap();
    let o = tilespace(&["solve", "--input", "bad.csv", "--pdb", "p"], dir);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("not a number of moves"),
        "{}",
        stderr(&o)
    );
}

/// A database's file names its goal blank's cell as report folders do (row and column from
/// 1); a database of another pattern in the folder is refused, not read beside it.
#[test]
fn database_files_name_the_blank_as_reports_do() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let args = |extra: &[&'static str]| {
        let mut args = vec![
            "pdb",
            "2x3",
            "--partition",
            "2-3",
            "--blank",
            "1,2",
            "--pdb",
            "p",
        ];
        args.extend_from_slice(extra);
        args
    };
    let build = |extra: &[&'static str]| {
        let o = tilespace(&args(extra), dir);
        assert!(o.status.success(), "{extra:?}: {}", stderr(&o));
        o
    };
    let o = build(&["-q"]);
    let r = tilespace(
        &["analyze", "2x3", "--blank", "1,2", "-q", "--results", "r"],
        dir,
    );
    assert!(r.status.success(), "{}", stderr(&r));
    assert!(dir.join("r/2x3-blank-1-2").is_dir());
    // 2x3 with the blank on row 1, column 2: cell index 1 from 0; tiles in reading order of
    // the goal, the blank skipped: 1 at 1,1, 2 at 1,3, 3 at 2,1, ...
    let new = dir.join("p/2x3-blank-1-2-tiles-1-2.pdb");
    assert!(new.exists(), "{}", stdout(&o));
    assert!(
        stdout(&o).contains("p/2x3-blank-1-2-tiles-3-4-5.pdb"),
        "{}",
        stdout(&o)
    );
    // Built once: a second run keeps them.
    let again = build(&["-q", "--csv"]);
    assert!(!stdout(&again).contains(",true,"), "{}", stdout(&again));
    std::fs::rename(&new, dir.join("p/2x3-blank1-1-2.pdb")).unwrap();
    let o = tilespace(&args(&["-q"]), dir);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("2x3-blank1-1-2.pdb, of another board"),
        "{}",
        stderr(&o)
    );
}

/// Damaged, forged, foreign and mismatched databases are refused with one line and exit 2.
#[test]
fn bad_databases_and_arguments_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    pdb_3x3(dir);
    let file = dir.join("p/3x3-blank-3-3-tiles-1-2-3-4.pdb");
    let good = std::fs::read(&file).unwrap();
    let board = "8 6 7/2 5 4/3 0 1";
    let refused = |args: &[&str], says: &str| {
        let o = tilespace(args, dir);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        let e = stderr(&o);
        assert!(e.contains(says), "{args:?}: {e}");
        assert_eq!(e.trim().lines().count(), 1, "{args:?}: {e}");
        assert!(!e.contains("panicked"));
    };
    let mut bad = good.clone();
    bad[200] ^= 1;
    std::fs::write(&file, &bad).unwrap();
    refused(&["solve", board, "--pdb", "p"], "checksum mismatch");
    std::fs::write(&file, &good[..good.len() - 8]).unwrap();
    refused(&["solve", board, "--pdb", "p"], "truncated");
    // A forger who recomputes the checksums: a second placement at 0 is still refused.
    let mut forged = good.clone();
    let at = forged[128..].iter().position(|&e| e == 1).unwrap();
    forged[128 + at] = 0;
    reseal(&mut forged);
    std::fs::write(&file, &forged).unwrap();
    refused(
        &["solve", board, "--pdb", "p"],
        "not the only one at distance 0",
    );
    std::fs::write(&file, &good).unwrap();
    assert!(Database::from_bytes(&good).is_ok());
    // Another board's database in the same directory.
    let o = tilespace(&["pdb", "2x3", "--partition", "5", "--pdb", "q", "-q"], dir);
    assert!(o.status.success(), "{}", stderr(&o));
    std::fs::copy(
        dir.join("q/2x3-blank-2-3-tiles-1-2-3-4-5.pdb"),
        dir.join("p/2x3.pdb"),
    )
    .unwrap();
    refused(
        &["solve", board, "--pdb", "p"],
        "keep one board and goal per directory",
    );
    refused(
        &["pdb", "3x3", "--partition", "4-4", "--pdb", "p"],
        "of another board, goal or partition",
    );
    std::fs::remove_file(dir.join("p/2x3.pdb")).unwrap();
    std::fs::remove_file(&file).unwrap();
    refused(
        &["solve", board, "--pdb", "p"],
        "tiles are 1, 2, 3, 4 in no pattern",
    );
    refused(&["solve", board, "--pdb", "nowhere"], "nowhere");
    pdb_3x3(dir);
    refused(
        &["solve", board, "--pdb", "p", "--blank", "first"],
        "goal blank is 3,3",
    );
    refused(&["solve", "1 2/3 0", "--pdb", "p"], "the pattern databases");
    refused(&["solve", board, "--optimal"], "--optimal needs --pdb DIR");
    refused(
        &["pdb", "3x3", "--partition", "4-3", "--pdb", "x"],
        "not a partition",
    );
    refused(
        &[
            "pdb",
            "3x3",
            "--pattern",
            "1,2,3",
            "--pattern",
            "3,4,5,6,7,8",
            "--pdb",
            "x",
        ],
        "tile 3 is in two patterns",
    );
    refused(
        &["pdb", "3x3", "--pattern", "1,2,x", "--pdb", "x"],
        "not a list of tiles",
    );
    refused(
        &["pdb", "1x5", "--partition", "4", "--pdb", "x"],
        "is a line",
    );
    refused(
        &["pdb", "6x6", "--partition", "35", "--pdb", "x"],
        "at most 32",
    );
    refused(&["pdb", "4x4", "--partition", "15", "--pdb", "x"], "");
    refused(
        &["sample", "2x3", "--pdb", "p", "--count", "3"],
        "are for 3x3",
    );
    refused(
        &["sample", "3x3", "--pdb", "p", "--count", "0"],
        "at least 1",
    );
    // A board given up on at --max-nodes: an error, or with --keep-going named and skipped.
    let near = "1 2 3/4 5 6/7 0 8";
    refused(
        &["distance", board, "--pdb", "p", "--max-nodes", "50"],
        "gave up: 50 nodes",
    );
    let o = tilespace(
        &[
            "distance",
            board,
            near,
            "--pdb",
            "p",
            "--max-nodes",
            "50",
            "--keep-going",
            "--csv",
        ],
        dir,
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stdout(&o).contains(&format!("{near},true,1,")),
        "{}",
        stdout(&o)
    );
    assert!(
        stderr(&o).contains(&format!("skipped: {board}: gave up")),
        "{}",
        stderr(&o)
    );
    // Unsolvable boards get the parity rule, as an answer on stdout.
    let o = tilespace(&["solve", "1 2 3/4 5 6/8 7 0", "--pdb", "p"], dir);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("not solvable"), "{}", stdout(&o));
}

/// The exact mean, from a complete enumeration by the engine (an independent method), lies in
/// the sample's 95% interval on 3x3 and 2x5; a fixed seed gives the same sample.
#[test]
fn sampled_means_cover_the_exact_means() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    for (board, partition, count) in [("3x3", "4-4", "600"), ("2x5", "4-5", "600")] {
        let shape: Shape = board.parse().unwrap();
        let goal = Cell(shape.cells() - 1);
        let exact = analyze(
            &tilespace::Puzzle::board(shape, goal, tilespace::Metric::Single).unwrap(),
            AnalyzeOptions::default(),
            &|_| {},
        )
        .unwrap();
        let exact = exact.distribution.mean().to_f64();
        let out = format!("p-{board}");
        let o = tilespace(
            &["pdb", board, "--partition", partition, "--pdb", &out, "-q"],
            dir,
        );
        assert!(o.status.success(), "{}", stderr(&o));
        let args = [
            "sample", board, "--pdb", &out, "--count", count, "--seed", "11", "-q", "--json",
        ];
        let o = tilespace(&args, dir);
        assert!(o.status.success(), "{}", stderr(&o));
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        let (lo, hi) = (
            v["ci95"][0].as_f64().unwrap(),
            v["ci95"][1].as_f64().unwrap(),
        );
        assert!(
            lo <= exact && exact <= hi,
            "{board}: {exact} not in [{lo}, {hi}]"
        );
        assert!(hi - lo < 1.0, "{board}: [{lo}, {hi}] is wide");
        assert_eq!(v["positions"].as_array().unwrap().len(), 600);
        let again = tilespace(&args, dir);
        let w: serde_json::Value = serde_json::from_str(&stdout(&again)).unwrap();
        assert_eq!(v["positions"][7]["board"], w["positions"][7]["board"]);
        assert_eq!(v["mean"], w["mean"]);
    }
}

/// `--positions` holds each board as soon as it is solved: a file cut off mid-line (a crash)
/// and in any order resumes to exactly the uninterrupted sample, keeping the rows it holds;
/// a file of another sample or with an impossible distance is refused and left as it was.
#[test]
fn a_sample_resumes_from_its_positions_file() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    pdb_3x3(dir);
    let sample = |file: &str, seed: &str, more: &[&str]| {
        let mut args = vec![
            "sample",
            "3x3",
            "--pdb",
            "p",
            "--count",
            "400",
            "--seed",
            seed,
            "--positions",
            file,
            "-q",
            "--json",
        ];
        args.extend_from_slice(more);
        tilespace(&args, dir)
    };
    let o = sample("full.csv", "3", &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    let whole: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let full = std::fs::read_to_string(dir.join("full.csv")).unwrap();
    let lines: Vec<&str> = full.lines().collect();
    assert_eq!(lines.len(), 401);

    // 150 rows, last first, one with a node count no search gave (kept, not solved again),
    // then half a row.
    let mut cut: Vec<String> = lines[1..151].iter().rev().map(|l| l.to_string()).collect();
    let forged: Vec<String> = cut[0].split(',').map(String::from).collect();
    cut[0] = format!("{},{},987654321,{}", forged[0], forged[1], forged[3]);
    let text = format!("{}\n{}\n{}", lines[0], cut.join("\n"), &lines[151][..9]);
    std::fs::write(dir.join("cut.csv"), &text).unwrap();
    let o = sample("cut.csv", "3", &["--resume"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let resumed: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    for key in ["mean", "ci95", "std_dev", "distribution", "count"] {
        assert_eq!(whole[key], resumed[key], "{key}");
    }
    let columns = |text: &str, n: usize| -> Vec<String> {
        text.lines()
            .map(|l| l.split(',').take(n).collect::<Vec<_>>().join(","))
            .collect()
    };
    let after = std::fs::read_to_string(dir.join("cut.csv")).unwrap();
    assert_eq!(columns(&after, 2), columns(&full, 2), "in the order drawn");
    assert!(after.contains(&format!("{},{},987654321,", forged[0], forged[1])));

    // Refused, and the file left as it was: another seed's boards; a distance of the wrong
    // parity; a distance below the databases' bound; no header.
    let board = lines[1].split(',').next().unwrap();
    let distance: u32 = lines[1].split(',').nth(1).unwrap().parse().unwrap();
    for (text, seed, why) in [
        (text.clone(), "4", "not one of this sample's boards"),
        (
            format!("{}\n{board},{},1,0.1\n", lines[0], distance + 1),
            "3",
            "cannot be",
        ),
        (
            format!("{}\n{board},{},1,0.1\n", lines[0], distance % 2),
            "3",
            "cannot be",
        ),
        (
            format!("{board},{distance},1,0.1\n"),
            "3",
            "expected the header",
        ),
    ] {
        std::fs::write(dir.join("bad.csv"), &text).unwrap();
        let o = sample("bad.csv", seed, &["--resume"]);
        assert_eq!(o.status.code(), Some(2), "{text}");
        assert!(stderr(&o).contains(why), "{}", stderr(&o));
        assert_eq!(std::fs::read_to_string(dir.join("bad.csv")).unwrap(), text);
    }
}

/// Ctrl-C stops a sample with its solved boards in the positions file and the command that
/// goes on; going on completes it.
#[test]
fn a_stopped_sample_says_how_to_go_on() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    pdb_3x3(dir);
    let args = [
        "sample",
        "3x3",
        "--pdb",
        "p",
        "--count",
        "300000",
        "--seed",
        "5",
        "--positions",
        "s.csv",
        "--threads",
        "1",
        "-q",
    ];
    // Held when board 1000 is solved, then stopped: mid-sample on any machine, however fast.
    let o = crate::common::interrupted_at(&args, dir, 1000);
    // 75: stopped with what it had saved, and a command that goes on.
    assert_eq!(o.status.code(), Some(75), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("--seed 5 --positions s.csv --resume"),
        "{}",
        stderr(&o)
    );
    let kept = std::fs::read_to_string(dir.join("s.csv"))
        .unwrap()
        .lines()
        .count()
        - 1;
    assert!((1000..300000).contains(&kept), "{kept} boards kept");
    let mut more = args.to_vec();
    more.push("--resume");
    let o = tilespace(&more, dir);
    assert!(o.status.success(), "{}", stderr(&o));
    let all = std::fs::read_to_string(dir.join("s.csv"))
        .unwrap()
        .lines()
        .count()
        - 1;
    assert_eq!(all, 300000);
}

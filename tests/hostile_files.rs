//! Hostile runs and files, end to end in temporary directories: outputs of one run that would
//! destroy each other, positions files that would be emptied, absurd counts, loads that would
//! allocate what a file claims, files forged so that they pass their checksums, and messages
//! that echo untrusted text.

// A test that walks one scenario through every step reads best whole: the 100-line limit
// (clippy.toml) holds for src/, not for these.
#![allow(clippy::too_many_lines)]

use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};

use crate::common::{pdb_3x3, read_csv, stderr, stdout, tilespace};

/// Runs `args` and expects the one-line refusal of exit status 2 containing `why`.
fn refused(args: &[&str], dir: &Path, why: &str) -> String {
    let out = tilespace(args, dir);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    assert!(err.contains(why), "{args:?}: wanted `{why}` in {err}");
    err
}

/// A table saved as the checkpoint (which the run removes at its end), as a report, or as a
/// distributed run's manifest, and a positions file written over a database being read: each
/// is refused before any work, naming both roles, and what was there is left whole. (Before,
/// the first exited 0 listing a table that it had just removed.)
#[test]
fn outputs_of_one_run_never_destroy_each_other() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let err = refused(
        &[
            "analyze",
            "2x3",
            "-q",
            "--checkpoint",
            "ck",
            "--checkpoint-every",
            "0",
            "--save-table",
            "ck/checkpoint.tsc",
            "--results",
            "o",
        ],
        d,
        "is the table (--save-table) and also a file of the checkpoint",
    );
    assert!(err.contains("ck/checkpoint.tsc"), "{err}");
    assert!(!d.join("o").exists(), "refused before the search");
    refused(
        &[
            "analyze",
            "2x3",
            "-q",
            "--resume",
            "ck",
            "--save-table",
            "ck/./manifest.tsm",
        ],
        d,
        "a file of the checkpoint",
    );
    // A summary holding another board's row is not replaced by a binary table.
    let first = tilespace(&["analyze", "2x2", "-q", "--results", "R"], d);
    assert!(first.status.success(), "{}", stderr(&first));
    let summary = fs::read(d.join("R/summary.csv")).unwrap();
    refused(
        &[
            "analyze",
            "2x3",
            "-q",
            "--results",
            "R",
            "--save-table",
            "R/summary.csv",
        ],
        d,
        "is the summary report and also the table (--save-table)",
    );
    refused(
        &[
            "analyze",
            "2x3",
            "-q",
            "--results",
            "R",
            "--save-table",
            "R/x/../2x3/depths.csv",
        ],
        d,
        "is a depths report and also the table",
    );
    assert_eq!(fs::read(d.join("R/summary.csv")).unwrap(), summary);
    // A table beside the reports, or in the checkpoint's directory under its own name, is fine;
    // the reports listed are those on disk.
    let ok = tilespace(
        &[
            "analyze",
            "2x3",
            "-q",
            "--results",
            "R",
            "--checkpoint",
            "ck2",
            "--save-table",
            "ck2/t.tst",
        ],
        d,
    );
    assert!(ok.status.success(), "{}", stderr(&ok));
    assert!(stdout(&ok)
        .contains("wrote: R/summary.csv, R/2x3/depths.csv, R/2x3/antipodes.csv, ck2/t.tst"));
    assert!(d.join("ck2/t.tst").is_file());
    // A positions file on a database the sample reads.
    pdb_3x3(d);
    let db = d.join("p/3x3-blank-3-3-tiles-1-2-3-4.pdb");
    let bytes = fs::read(&db).unwrap();
    refused(
        &[
            "sample",
            "3x3",
            "--pdb",
            "p",
            "--count",
            "3",
            "--seed",
            "1",
            "-q",
            "--positions",
            "p/3x3-blank-3-3-tiles-1-2-3-4.pdb",
        ],
        d,
        "is a pattern database (--pdb) and also the positions file (--positions)",
    );
    assert_eq!(fs::read(&db).unwrap(), bytes);
}

/// A positions file holding rows is never emptied by a run without `--resume` (it was, at
/// once, by a rerun whose seed came from the clock); an empty one is taken.
#[test]
fn a_positions_file_is_never_emptied() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    pdb_3x3(d);
    let sample = |seed: &str, extra: &[&str]| {
        let mut args = vec!["sample", "3x3", "--pdb", "p", "--count", "20", "-q"];
        args.extend(["--seed", seed, "--positions", "pos.csv"]);
        args.extend(extra);
        tilespace(&args, d)
    };
    let o = sample("1", &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    let rows = fs::read(d.join("pos.csv")).unwrap();
    let o = sample("2", &[]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("continue it with --resume"),
        "{}",
        stderr(&o)
    );
    assert_eq!(fs::read(d.join("pos.csv")).unwrap(), rows);
    fs::write(d.join("pos.csv"), b"").unwrap();
    assert!(sample("2", &[]).status.success());
}

/// `plan` refuses rank counts past `MAX_RANKS` at once (2^32 divided by zero after 21 s; 2^32+3
/// planned 3 ranks), and plans the largest it takes.
#[test]
fn absurd_rank_counts_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    for ranks in ["4294967296", "4294967299", "1000000000000", "1048577", "0"] {
        let out = tilespace(
            &["plan", "4x4", "--ranks", ranks, "--samples", "10"],
            tmp.path(),
        );
        assert_eq!(out.status.code(), Some(2), "{ranks}: {}", stderr(&out));
    }
    let out = tilespace(
        &["plan", "3x4", "--ranks", "1048576", "--samples", "10"],
        tmp.path(),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("3x4 on 1048576 ranks"),
        "{}",
        stdout(&out)
    );
}

/// A database file whose header is valid and whose entries are a hole (a sparse file of the
/// length the header gives) is refused at its first part read, not after allocating it all;
/// and one that does not fit the memory left is refused before it is read.
#[cfg(target_os = "linux")]
#[test]
fn a_database_is_loaded_under_the_memory_guard() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    pdb_3x3(d);
    // The header of 3x3's 1-4 database rewritten as 4x4's 1-6 (16!/10! = 5,765,760 entries) or
    // 1-8 (518,918,400), the file extended with a hole to the length that implies.
    let header = fs::read(d.join("p/3x3-blank-3-3-tiles-1-2-3-4.pdb")).unwrap()[..128].to_vec();
    for (tiles, placements) in [(6u32, 5_765_760u64), (8, 518_918_400)] {
        let mut h = header.clone();
        h[12..16].copy_from_slice(&4u32.to_le_bytes());
        h[16..20].copy_from_slice(&4u32.to_le_bytes());
        h[20..24].copy_from_slice(&15u32.to_le_bytes());
        h[24..28].copy_from_slice(&tiles.to_le_bytes());
        h[32..40].copy_from_slice(&placements.to_le_bytes());
        for t in 0..tiles as usize {
            h[56 + t] = t as u8 + 1;
        }
        let dir = d.join(format!("forged{tiles}"));
        fs::create_dir(&dir).unwrap();
        let path = dir.join("x.pdb");
        let mut bytes = h;
        tilespace::optimal::database::reseal(&mut bytes);
        fs::write(&path, &bytes).unwrap();
        let f = fs::OpenOptions::new().write(true).open(&path).unwrap();
        f.set_len(128 + placements.div_ceil(8) * 8).unwrap();
    }
    refused(
        &[
            "distance",
            "1 2 3 4/5 6 7 8/9 10 11 12/13 14 0 15",
            "--pdb",
            "forged6",
        ],
        d,
        "placements at distance 0 in its first",
    );
    let out = Command::new("sh")
        .args([
            "-c",
            &format!(
                "ulimit -v 300000 && exec '{}' distance '1 2 3 4/5 6 7 8/9 10 11 12/13 14 0 15' --pdb forged8",
                env!("CARGO_BIN_EXE_tilespace")
            ),
        ])
        .current_dir(d)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("forged8/x.pdb needs about 518.9 MB, but only"),
        "{}",
        stderr(&out)
    );
}

/// The constructive solver prints each answer as soon as it is found and holds one at a time:
/// four 150x150 boards take about the memory of one (measured: 72.3 and 77.7 MB peak; all
/// answers were kept to the end before, 72.7 and 110.3 MB, and 83 MB more a board at 290x290).
#[cfg(target_os = "linux")]
#[test]
fn constructive_answers_are_streamed() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let peak = |count: &str| -> u64 {
        let boards = tilespace(&["random", "150x150", "--count", count, "--seed", "4"], d);
        assert!(boards.status.success());
        fs::write(d.join("b.txt"), &boards.stdout).unwrap();
        // GNU time's maximum resident set size, in KB, on stderr's last line.
        let out = Command::new("/usr/bin/time")
            .args([
                "-f",
                "%M",
                env!("CARGO_BIN_EXE_tilespace"),
                "solve",
                "--input",
                "b.txt",
            ])
            .current_dir(d)
            .stdout(Stdio::null())
            .output()
            .expect("GNU time (Debian's `time`) at /usr/bin/time");
        assert!(out.status.success(), "{}", stderr(&out));
        stderr(&out).lines().last().unwrap().trim().parse().unwrap()
    };
    let (one, four) = (peak("1"), peak("4"));
    assert!(
        four * 100 < one * 125,
        "1 board {one} KB, 4 boards {four} KB"
    );
}

/// A 3x3 database with pairs of entries swapped and its checksums recomputed is refused by
/// every command that opens it (it gave 31 moves "optimal ... verified by replay" for a board
/// at 25, and a sampled mean of 25.82 against the true 21.97), and by `pdb --verify`.
#[test]
fn a_resealed_database_with_entries_swapped_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    pdb_3x3(d);
    let path = d.join("p/3x3-blank-3-3-tiles-5-6-7-8.pdb");
    let mut bytes = fs::read(&path).unwrap();
    // Swap three pairs of entries of different values (entries start at byte 128).
    let mut swapped = 0;
    let mut i = 128;
    while swapped < 3 {
        let j = 128 + (i - 128 + 1500) % 3024;
        if bytes[i] != bytes[j] && bytes[i] != 0 && bytes[j] != 0 && bytes[j] != 255 {
            bytes.swap(i, j);
            swapped += 1;
        }
        i += 97;
    }
    tilespace::optimal::database::reseal(&mut bytes);
    fs::write(&path, &bytes).unwrap();
    let board = "8 7 6/5 4 3/2 1 0";
    for args in [
        vec!["solve", board, "--pdb", "p"],
        vec!["distance", board, "--pdb", "p"],
        vec!["sample", "3x3", "--pdb", "p", "--count", "5", "--seed", "1"],
    ] {
        refused(&args, d, "its entries contradict each other");
    }
    let out = tilespace(&["pdb", "3x3", "--pdb", "p", "--verify"], d);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("3x3-blank-3-3-tiles-5-6-7-8.pdb: REFUSED"),
        "{}",
        stdout(&out)
    );
    assert!(
        stdout(&out)
            .contains("3x3-blank-3-3-tiles-1-2-3-4.pdb: 3024 placements, every entry consistent"),
        "{}",
        stdout(&out)
    );
}

/// A positions file with a distance raised is refused on `--resume`: by 200 (past the length
/// of a solution built for the board), or by 2 (within every bound: caught by solving the rows
/// again, all of them in a sample of four).
#[test]
fn a_positions_file_with_a_distance_raised_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    pdb_3x3(d);
    let args = [
        "sample",
        "3x3",
        "--pdb",
        "p",
        "--count",
        "4",
        "--seed",
        "7",
        "-q",
        "--positions",
        "pos.csv",
    ];
    assert!(tilespace(&args, d).status.success());
    let good = fs::read_to_string(d.join("pos.csv")).unwrap();
    let raise = |by: u32| {
        let mut lines: Vec<String> = good.lines().map(String::from).collect();
        let mut f: Vec<String> = lines[2].split(',').map(String::from).collect();
        f[1] = (f[1].parse::<u32>().unwrap() + by).to_string();
        lines[2] = f.join(",");
        fs::write(d.join("pos.csv"), lines.join("\n") + "\n").unwrap();
    };
    let mut resume = args.to_vec();
    resume.push("--resume");
    raise(200);
    refused(&resume, d, "at most");
    raise(2);
    refused(&resume, d, "(solved again)");
    fs::write(d.join("pos.csv"), &good).unwrap();
    assert!(tilespace(&resume, d).status.success());
}

/// A `depths.csv` edited to another distribution (its cumulative column kept consistent) is
/// refused by `table`, `plot`, `check` and `antipodes` with the board named, where before it
/// was tabled beside a summary row saying 360 = 6!/2, verified.
#[test]
fn a_distribution_must_agree_with_its_summary_row() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    assert!(tilespace(&["analyze", "2x3", "-q"], d).status.success());
    let path = d.join("results/2x3/depths.csv");
    let (_, rows) = read_csv(&path);
    // Seven more states at depth 1 (Gong's 3x2 has 360 in all): 367, cumulative adjusted.
    let mut text = String::from("depth,states,cumulative,fraction\n");
    let mut cumulative = 0u64;
    for r in &rows {
        let mut states: u64 = r["states"].parse().unwrap();
        if r["depth"] == "1" {
            states += 7;
        }
        cumulative += states;
        text += &format!("{},{states},{cumulative},{}\n", r["depth"], r["fraction"]);
    }
    fs::write(&path, text).unwrap();
    for command in [
        vec!["table", "--distribution"],
        vec!["plot"],
        vec!["check"],
        vec!["antipodes", "2x3"],
    ] {
        let err = refused(
            &command,
            d,
            "the distribution of 2x3 disagrees with its row in summary.csv",
        );
        assert!(err.contains("367"), "{err}");
    }
}

/// Summary rows repeated (300,000 of them made `plot` run past a minute) are refused, naming
/// the two rows; a CSV with a column twice is refused instead of one of them being used.
#[test]
fn repeated_rows_and_columns_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    assert!(tilespace(&["analyze", "2x2", "-q"], d).status.success());
    let summary = d.join("results/summary.csv");
    let text = fs::read_to_string(&summary).unwrap();
    let row = text.lines().nth(1).unwrap();
    fs::write(&summary, format!("{text}{row}\n")).unwrap();
    for command in ["table", "plot", "check"] {
        refused(&[command], d, "rows 1 and 2 are both of 2x2");
    }
    let header = text.lines().next().unwrap();
    fs::write(&summary, format!("{header},board\n{row},2x2\n")).unwrap();
    refused(&["table"], d, "the column `board` appears twice");
    fs::write(d.join("b.csv"), "board,optimal,optimal\n1 2/3 0,0,5\n").unwrap();
    refused(
        &["solve", "--input", "b.csv"],
        d,
        "the column `optimal` appears twice",
    );
}

/// Untrusted text in a message is escaped and cut: an escape code reaches the terminal as
/// `\u{1b}`, a 100,000-character token as its start and end.
#[test]
fn messages_escape_and_cut_what_they_quote() {
    let tmp = tempfile::tempdir().unwrap();
    let err = refused(
        &["solvable", "1 2/3 \u{1b}[31mred"],
        tmp.path(),
        "\\u{1b}[31mred",
    );
    assert!(!err.contains('\u{1b}'), "{err}");
    let long = "7".repeat(100_000);
    let err = refused(
        &["solvable", &format!("1 2/3 {long}")],
        tmp.path(),
        "characters cut]",
    );
    assert!(err.len() < 1000, "{} bytes", err.len());
}

/// The small ones: node counts that would overflow a u64 when summed are summed exactly;
/// seconds past 10^9 (1e308 made the JSON's sum null) are refused; `pdb --pdb` on a file says
/// it is not a directory; `--resume` of a missing directory does not create it; a read-only
/// positions file is refused, its mode kept.
#[test]
fn small_defects_mended() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    pdb_3x3(d);
    let args = [
        "sample",
        "3x3",
        "--pdb",
        "p",
        "--count",
        "2",
        "--seed",
        "7",
        "-q",
        "--positions",
        "pos.csv",
    ];
    assert!(tilespace(&args, d).status.success());
    let good = fs::read_to_string(d.join("pos.csv")).unwrap();
    let with = |column: usize, value: &str| {
        let lines: Vec<String> = good
            .lines()
            .enumerate()
            .map(|(i, l)| {
                if i == 0 {
                    return l.to_string();
                }
                let mut f: Vec<&str> = l.split(',').collect();
                f[column] = value;
                f.join(",")
            })
            .collect();
        fs::write(d.join("pos.csv"), lines.join("\n") + "\n").unwrap();
    };
    let mut resume = args.to_vec();
    resume.extend(["--resume", "--json"]);
    with(2, "18446744073709551615");
    let out = tilespace(&resume, d);
    assert!(out.status.success(), "{}", stderr(&out));
    // 2 (2^64 - 1), as printed (a JSON reader may round it to a double).
    assert!(
        stdout(&out).contains("\"nodes\": 36893488147419103230,"),
        "{}",
        stdout(&out)
    );
    with(3, "1e308");
    refused(&resume, d, "is not a time");
    // A file longer than two boards' rows can be is refused before it is read into memory.
    fs::write(d.join("pos.csv"), &good).unwrap();
    let f = fs::OpenOptions::new()
        .write(true)
        .open(d.join("pos.csv"))
        .unwrap();
    f.set_len(1 << 30).unwrap();
    refused(&resume, d, "not this sample's positions file");
    fs::write(d.join("pos.csv"), &good).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(d.join("pos.csv"), fs::Permissions::from_mode(0o444)).unwrap();
        refused(&resume, d, "read-only");
        let mode = fs::metadata(d.join("pos.csv"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o444);
    }
    refused(
        &[
            "pdb",
            "3x3",
            "--partition",
            "4-4",
            "--pdb",
            "/dev/null",
            "-q",
        ],
        d,
        "not a directory",
    );
    refused(
        &["analyze", "2x3", "-q", "--resume", "nowhere"],
        d,
        "no such directory",
    );
    assert!(!d.join("nowhere").exists());
}

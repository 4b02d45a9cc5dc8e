//! The atlas: every goal cell of a board. Cells of one class under the board's symmetries give
//! identical distributions (checked by analysing every cell, not assumed); the 8-puzzle's
//! eccentricities are Dan Hoey's (quoted in OEIS A087725: single-tile corner 31 with 2
//! antipodes, edge 31 (2), centre 30 (148); multi-tile corner 24 (1), edge 24 (2), centre 24
//! (4)), and its mean distance is the mean over the cells of the published distributions
//! (`data/reference/`, O. Tarakanov's complete searches; each file names its source).

use std::collections::HashMap;
use std::path::Path;

use crate::common::{read_csv, stderr, tilespace};

/// The states by depth in a depths report.
fn depths(path: &Path) -> Vec<u64> {
    let (_, rows) = read_csv(path);
    rows.iter().map(|r| r["states"].parse().unwrap()).collect()
}

/// Analysing every cell of 3x3 and 2x4 in both metrics: the cells of each atlas class have the
/// same distribution, and cells of different classes of 3x3 do not.
#[test]
fn cells_of_one_class_give_identical_distributions() {
    let tmp = tempfile::tempdir().unwrap();
    for (board, rows, cols) in [("3x3", 3, 3), ("2x4", 2, 4)] {
        for metric in ["single", "multi"] {
            let mut args = vec![
                "analyze",
                board,
                "--metric",
                metric,
                "-q",
                "--results",
                "out",
            ];
            let cells: Vec<String> = (1..=rows)
                .flat_map(|r| (1..=cols).map(move |c| format!("{r},{c}")))
                .collect();
            for cell in &cells {
                args.extend(["--blank", cell]);
            }
            let o = tilespace(&args, tmp.path());
            assert!(o.status.success(), "{}", stderr(&o));
            let o = tilespace(
                &["atlas", board, "--metric", metric, "-q", "--results", "at"],
                tmp.path(),
            );
            assert!(o.status.success(), "{}", stderr(&o));
            let (_, classes) = read_csv(&tmp.path().join("at/atlas.csv"));
            let of_cell = |cell: &str| {
                let (r, c) = cell.split_once(',').unwrap();
                let last = format!("{rows},{cols}");
                let mut name = if cell == last {
                    board.to_string()
                } else {
                    format!("{board}-blank-{r}-{c}")
                };
                if metric == "multi" {
                    name.push_str("-multi");
                }
                depths(&tmp.path().join("out").join(name).join("depths.csv"))
            };
            let mut seen: HashMap<Vec<u64>, String> = HashMap::new();
            let mine: Vec<_> = classes
                .iter()
                .filter(|r| r["board"] == board && r["metric"] == metric)
                .collect();
            let covered: usize = mine.iter().map(|r| r["cells"].split(' ').count()).sum();
            assert_eq!(covered, cells.len(), "{board} {metric}");
            for class in mine {
                let members: Vec<&str> = class["cells"].split(' ').collect();
                let first = of_cell(members[0]);
                for m in &members {
                    assert_eq!(of_cell(m), first, "{board} {metric} cell {m}");
                }
                assert_eq!(
                    first.len() - 1,
                    class["eccentricity"].parse::<usize>().unwrap()
                );
                if board == "3x3" {
                    let other = seen.insert(first, class["cell"].clone());
                    assert!(other.is_none(), "{board} {metric}: two classes alike");
                }
            }
        }
    }
}

/// `atlas 3x3`: Hoey's eccentricities; the diameter and radius over the cells; the mean
/// distance is the cells' published means averaged over the nine cells (exact).
#[test]
fn the_eight_puzzle_atlas_is_hoeys_and_the_published_means() {
    let tmp = tempfile::tempdir().unwrap();
    let o = tilespace(&["atlas", "3x3", "-q", "--results", "at"], tmp.path());
    assert!(o.status.success(), "{}", stderr(&o));
    let (_, cells) = read_csv(&tmp.path().join("at/atlas.csv"));
    let got: Vec<(String, String, String, String)> = cells
        .iter()
        .map(|r| {
            let (m, c, e, a) = (
                &r["metric"],
                &r["cell"],
                &r["eccentricity"],
                &r["antipodes"],
            );
            (m.clone(), c.clone(), e.clone(), a.clone())
        })
        .collect();
    let want = [
        ("single", "1,1", "31", "2"),
        ("single", "1,2", "31", "2"),
        ("single", "2,2", "30", "148"),
        ("multi", "1,1", "24", "1"),
        ("multi", "1,2", "24", "2"),
        ("multi", "2,2", "24", "4"),
    ];
    let want: Vec<_> = want
        .iter()
        .map(|&(m, c, e, a)| (m.into(), c.into(), e.into(), a.into()))
        .collect();
    assert_eq!(got, want);
    let (_, summary) = read_csv(&tmp.path().join("at/atlas-summary.csv"));
    let reference = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/reference");
    for (metric, diameter, radius, tag) in
        [("single", "31", "30", "stm"), ("multi", "24", "24", "mtm")]
    {
        let row = summary.iter().find(|r| r["metric"] == metric).unwrap();
        assert_eq!(
            (row["diameter"].as_str(), row["radius"].as_str()),
            (diameter, radius)
        );
        // Σ over the 9 cells of each cell's depth sum, over 9 · 9!/2: corners and edges 4 each.
        let sum = |name: &str| -> u128 {
            let text =
                std::fs::read_to_string(reference.join(format!("{tag}_3x3_{name}.csv"))).unwrap();
            text.lines()
                .filter(|l| l.starts_with(|c: char| c.is_ascii_digit()))
                .map(|l| {
                    let (d, n) = l.split_once(',').unwrap();
                    d.parse::<u128>().unwrap() * n.trim().parse::<u128>().unwrap()
                })
                .sum()
        };
        let num = 4 * sum("corner") + 4 * sum("edge_r0c1") + sum("centre_r1c1");
        let den = 9u128 * 181_440;
        let (n, d) = row["mean_distance_exact"].split_once('/').unwrap();
        let (n, d): (u128, u128) = (n.parse().unwrap(), d.parse().unwrap());
        assert_eq!(n * den, num * d, "{metric}: {}", row["mean_distance_exact"]);
    }
}

/// `table --atlas` and `plot --atlas` from an atlas of 3x3 and 2x3: Hoey's diameter and radius
/// with the cells attaining them (corners and edges 31, the centre 30; multi-tile 24 at every
/// cell); CSV is the report itself; one map per board and metric, every cell drawn; a damaged
/// atlas.csv is refused in one line.
#[test]
fn atlas_tables_and_maps() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let o = tilespace(&["atlas", "3x3", "2x3", "-q", "--results", "at"], dir);
    assert!(o.status.success(), "{}", stderr(&o));
    let table = |args: &[&str]| {
        let mut all = vec!["table", "--atlas", "--results", "at"];
        all.extend(args);
        let o = tilespace(&all, dir);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        crate::common::stdout(&o)
    };
    let md = table(&["--boards", "3x3"]);
    let lines: Vec<&str> = md.lines().collect();
    assert_eq!(lines.len(), 4, "{md}");
    assert!(
        lines[2].starts_with("| 3x3 | single | 31 | 1,1 1,2 1,3 2,1 2,3 3,1 3,2 3,3 | 30 | 2,2 |"),
        "{md}"
    );
    assert!(
        lines[3].starts_with("| 3x3 | multi | 24 | every cell | 24 | every cell |"),
        "{md}"
    );
    let csv = table(&["--format", "csv"]);
    let report = std::fs::read_to_string(dir.join("at/atlas-summary.csv")).unwrap();
    assert_eq!(csv, report);
    let latex = table(&["--format", "latex", "--boards", "3x3"]);
    let row = latex
        .lines()
        .find(|l| l.starts_with("$3\\times3$"))
        .unwrap();
    let fields: Vec<&str> = row.trim_end_matches(" \\\\").split(" & ").collect();
    assert_eq!(
        (fields[1], fields[2], fields[4], fields[5]),
        ("31", "30", "24", "24")
    );
    let cells = table(&["--cells", "--boards", "3x3"]);
    assert!(
        cells.contains("| 3x3 | single | 2,2 | 2,2 | 30 | 148 |"),
        "{cells}"
    );
    let json: serde_json::Value = serde_json::from_str(&table(&["--cells", "--json"])).unwrap();
    assert_eq!(json.as_array().unwrap().len(), 10);

    let o = tilespace(&["plot", "--atlas", "--results", "at"], dir);
    assert!(o.status.success(), "{}", stderr(&o));
    let written: Vec<String> = crate::common::stdout(&o)
        .lines()
        .map(String::from)
        .collect();
    let names: Vec<&str> = written
        .iter()
        .map(|l| l.rsplit('/').next().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "atlas-2x3-single.svg",
            "atlas-2x3-multi.svg",
            "atlas-3x3-single.svg",
            "atlas-3x3-multi.svg"
        ]
    );
    let svg = std::fs::read_to_string(dir.join(&written[2])).unwrap();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let titles: Vec<&str> = doc
        .descendants()
        .filter(|n| n.has_tag_name("title"))
        .filter_map(|n| n.text())
        .collect();
    assert_eq!(titles.len(), 18, "two panels of nine cells");
    assert!(titles.contains(&"cell 2,2: 30") && titles.contains(&"cell 1,1: 31"));

    // Damage: a class's row gone, and a cell off the board.
    let path = dir.join("at/atlas.csv");
    let good = std::fs::read_to_string(&path).unwrap();
    let without: Vec<&str> = good
        .lines()
        .filter(|l| !(l.starts_with("3x3,9,single,\"2,2\"")))
        .collect();
    std::fs::write(&path, without.join("\n") + "\n").unwrap();
    let o = tilespace(&["plot", "--atlas", "--results", "at"], dir);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("no row has the cell 2,2"),
        "{}",
        stderr(&o)
    );
    assert_eq!(stderr(&o).lines().count(), 1, "{}", stderr(&o));
    std::fs::write(&path, good.replacen("\"2,2\"", "\"4,1\"", 2)).unwrap();
    for args in [&["table", "--atlas", "--cells"][..], &["plot", "--atlas"]] {
        let mut all = args.to_vec();
        all.extend(["--results", "at"]);
        let o = tilespace(&all, dir);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&o).contains("\"4,1\" is not a cell R,C of 3x3"),
            "{}",
            stderr(&o)
        );
    }
}

/// `atlas --reuse` reads the cells already searched (an atlas stopped between cells goes on):
/// the same reports as a fresh atlas, no cell searched again; a cell without reports is
/// searched; a damaged depths.csv is refused, not searched over.
#[test]
fn an_atlas_reuses_the_cells_already_searched() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let o = tilespace(&["atlas", "2x4", "3x3", "-q", "--results", "a"], dir);
    assert!(o.status.success(), "{}", stderr(&o));
    let fresh = std::fs::read(dir.join("a/atlas.csv")).unwrap();
    std::fs::remove_file(dir.join("a/atlas.csv")).unwrap();
    std::fs::remove_file(dir.join("a/atlas-summary.csv")).unwrap();
    // One cell's search forgotten: it is searched again, the others read.
    std::fs::remove_dir_all(dir.join("a/3x3-blank-2-2-multi")).unwrap();
    let summary = std::fs::read_to_string(dir.join("a/summary.csv")).unwrap();
    let kept: Vec<&str> = summary
        .lines()
        .filter(|l| !l.starts_with("3x3,3,3,\"2,2\",goal,solvable,multi,"))
        .collect();
    assert_eq!(kept.len() + 1, summary.lines().count(), "{summary}");
    std::fs::write(dir.join("a/summary.csv"), kept.join("\n") + "\n").unwrap();
    let o = tilespace(
        &["atlas", "2x4", "3x3", "-q", "--results", "a", "--reuse"],
        dir,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(std::fs::read(dir.join("a/atlas.csv")).unwrap(), fresh);
    let read = stderr(&o).matches("(--reuse)").count();
    // 2x4: 2 classes, 3x3: 3, in two metrics, less the one forgotten.
    assert_eq!(read, 9, "{}", stderr(&o));
    assert!(dir.join("a/3x3-blank-2-2-multi/depths.csv").exists());

    let path = dir.join("a/2x4-blank-1-1/depths.csv");
    let good = std::fs::read_to_string(&path).unwrap();
    let mut lines: Vec<String> = good.lines().map(String::from).collect();
    lines[3] = lines[3].replacen(',', ",1", 1);
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    let o = tilespace(&["atlas", "2x4", "-q", "--results", "a", "--reuse"], dir);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("2x4-blank-1-1"), "{}", stderr(&o));
}

/// `antipodes` over an atlas in both metrics answers Gong's (single-tile) question once a
/// goal cell: a multi-tile row does not bring its single-tile search in twice.
#[test]
fn antipodes_over_both_metrics_take_each_goal_once() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let o = tilespace(&["atlas", "2x3", "-q", "--results", "r"], dir);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = tilespace(&["antipodes", "-q", "--results", "r"], dir);
    assert!(o.status.success(), "{}", stderr(&o));
    let (_, rows) = read_csv(&dir.join("r/gong.csv"));
    let goals: Vec<&str> = rows.iter().map(|r| r["goal_blank"].as_str()).collect();
    // 2x3's two classes of cells, searched from 1,1 and 1,2.
    assert_eq!(goals, ["1,1", "1,2"], "{rows:?}");
}

/// Damaged atlas reports are refused by every reader (`table --atlas` in each format, with and
/// without `--cells`, and `plot --atlas`) with exit 2, naming the file: a cell in two rows, a
/// cell in no row, a board whose rows cover a few of its cells, a summary that contradicts
/// the cells' rows (a diameter above every eccentricity, a radius above a cell's
/// eccentricity, another mean), and a summary without its atlas.csv.
#[test]
fn every_reader_refuses_a_damaged_atlas() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let o = tilespace(
        &["atlas", "2x3", "--metric", "both", "--results", "a", "-q"],
        dir,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let cells = std::fs::read_to_string(dir.join("a/atlas.csv")).unwrap();
    let summary = std::fs::read_to_string(dir.join("a/atlas-summary.csv")).unwrap();
    // 2x3 single-tile: corners 1,1 (eccentricity 21) and middles 1,2 (21); diameter and
    // radius 21 (the seeds: Gong's worst case for his "3x2").
    let corner = "2x3,6,single,\"1,1\",\"1,1 1,3 2,1 2,3\",21,";
    let middle = "2x3,6,single,\"1,2\",\"1,2 2,2\",21,";
    let single = "2x3,6,single,21,\"1,1 1,2 1,3 2,1 2,2 2,3\",21,\"1,1 1,2 1,3 2,1 2,2 2,3\",";
    for line in [corner, middle, single] {
        assert!(
            cells.contains(line) || summary.contains(line),
            "{line} is not in the reports"
        );
    }
    let damaged: [(&str, String, String); 7] = [
        (
            "a cell in two rows",
            cells.replace(middle, "2x3,6,single,\"1,2\",\"1,2 2,2 2,3\",21,"),
            summary.clone(),
        ),
        (
            "a cell in no row",
            cells.replace(middle, "2x3,6,single,\"1,2\",\"1,2\",21,"),
            summary.clone(),
        ),
        (
            "a board of a few cells",
            format!("{cells}10x10,100,single,\"1,1\",\"1,1\",6,1,3,3,3\n"),
            summary.clone(),
        ),
        (
            "a diameter above every eccentricity",
            cells.clone(),
            summary.replace(single, &single.replacen(",21,", ",22,", 1)),
        ),
        (
            "a radius above a cell's eccentricity",
            cells.replace(middle, "2x3,6,single,\"1,2\",\"1,2 2,2\",20,"),
            summary.clone(),
        ),
        (
            "another mean distance",
            cells.clone(),
            summary.replace("1688/135,12.503704", "1687/135,12.496296"),
        ),
        (
            "a summary without its atlas.csv",
            String::new(),
            summary.clone(),
        ),
    ];
    for (what, cells, summary) in damaged {
        let a = dir.join("d");
        let _ = std::fs::remove_dir_all(&a);
        std::fs::create_dir(&a).unwrap();
        if !cells.is_empty() {
            std::fs::write(a.join("atlas.csv"), &cells).unwrap();
        }
        std::fs::write(a.join("atlas-summary.csv"), &summary).unwrap();
        let mut runs: Vec<Vec<&str>> = vec![vec!["plot", "--atlas", "--results", "d"]];
        for format in ["markdown", "latex", "csv", "json"] {
            for cells in [false, true] {
                let mut run = vec!["table", "--atlas", "--results", "d", "--format", format];
                if cells {
                    run.push("--cells");
                }
                runs.push(run);
            }
        }
        for run in runs {
            let o = tilespace(&run, dir);
            let err = stderr(&o);
            assert_eq!(o.status.code(), Some(2), "{what}: {run:?}: {err}");
            assert!(
                err.contains("cannot read d/atlas"),
                "{what}: {run:?}: {err}"
            );
            assert!(o.stdout.is_empty(), "{what}: {run:?} printed a table");
        }
    }
}

/// `atlas` stopped by SIGTERM, SIGUSR1 or SIGINT once a cell is done saves the cell in progress
/// and stops (exit 75), saying so and that `--reuse` goes on; `--reuse` then finishes an atlas
/// whose rows are those of the uninterrupted runs committed in docs/results/atlas.csv, and
/// leaves no checkpoint behind.
#[test]
fn a_stopped_atlas_saves_its_cell_and_goes_on() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let args = [
        "atlas",
        "3x4",
        "--metric",
        "single",
        "--results",
        "a",
        "-q",
        "-j",
        "2",
    ];
    for signal in ["USR1", "INT", "TERM"] {
        let _ = std::fs::remove_dir_all(dir.join("a"));
        // Held after depth 10 of the second cell's search (the first is done and written), on
        // any machine however fast.
        let out = crate::common::signalled_at(&args, dir, "10@2", signal);
        assert!(
            dir.join("a/3x4-blank-1-1/depths.csv").exists(),
            "the first cell written"
        );
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(75), "SIG{signal}: {err}");
        assert!(err.contains("the cell in progress is saved in"), "{err}");
        assert!(err.contains("--reuse"), "{err}");
        let saved = std::fs::read_dir(dir.join("a/atlas-checkpoints"))
            .unwrap()
            .count();
        assert_eq!(saved, 1, "SIG{signal}: {err}");
    }
    let mut again = args.to_vec();
    again.push("--reuse");
    let o = tilespace(&again, dir);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("going on from a/atlas-checkpoints/"),
        "{}",
        stderr(&o)
    );
    assert!(!dir.join("a/atlas-checkpoints").exists());
    let rows = |path: &Path| -> Vec<String> {
        let text = std::fs::read_to_string(path).unwrap();
        text.lines()
            .filter(|l| l.starts_with("3x4,12,single,"))
            .map(String::from)
            .collect()
    };
    let committed = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/results/atlas.csv");
    assert_eq!(rows(&dir.join("a/atlas.csv")), rows(&committed));
    assert_eq!(rows(&committed).len(), 4);
}

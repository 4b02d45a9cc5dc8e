//! The atlas: every goal cell of a board. Cells of one class under the board's symmetries give
//! identical distributions (checked by analysing every cell, not assumed); the 8-puzzle's
//! eccentricities are Dan Hoey's (quoted in OEIS A087725: single-tile corner 31 with 2
//! antipodes, edge 31 (2), centre 30 (148); multi-tile corner 24 (1), edge 24 (2), centre 24
//! (4)), and its mean distance is the mean over the cells of the published distributions
//! (`tests/data/reference/`, O. Tarakanov's complete searches; each file names its source).

mod common;

use std::collections::HashMap;
use std::path::Path;

use common::{read_csv, stderr, tilespace};

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
        ("multi", "1,1", "24", "1"),
        ("multi", "1,2", "24", "2"),
        ("multi", "2,2", "24", "4"),
        ("single", "1,1", "31", "2"),
        ("single", "1,2", "31", "2"),
        ("single", "2,2", "30", "148"),
    ];
    let want: Vec<_> = want
        .iter()
        .map(|&(m, c, e, a)| (m.into(), c.into(), e.into(), a.into()))
        .collect();
    assert_eq!(got, want);
    let (_, summary) = read_csv(&tmp.path().join("at/atlas-summary.csv"));
    let reference = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/reference");
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

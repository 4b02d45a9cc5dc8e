//! Both metrics by a plain breadth-first search over explicit boards, against the published
//! depth distributions (`tests/data/reference/`, copied from `../shared/reference/`: each file
//! names its source in its first line; the multi-tile and most other-cell distributions are
//! O. Tarakanov's complete searches, lightln2/SlidingTilesSolver and lightln2/PuzzleSearch at
//! the commits named there) and against Dan Hoey's 8-puzzle table (radius and antipodes of
//! every goal cell in both metrics, quoted in OEIS A087725). This checks the moves of each
//! metric (`Board::neighbours_in`) that the multi-tile engine will be tested against.

use std::collections::{HashMap, VecDeque};
use std::path::Path;

use tilespace::{Board, Cell, Metric, Shape};

mod common;
use common::{read_csv, stderr, tilespace};

/// States per depth from the goal with blank `goal`, moves counted in `metric`.
fn layers(shape: Shape, goal: Cell, metric: Metric) -> Vec<u64> {
    let start = Board::goal(shape, goal);
    let mut depth = HashMap::from([(start.clone(), 0usize)]);
    let mut queue = VecDeque::from([start]);
    let mut layers = vec![0u64];
    while let Some(b) = queue.pop_front() {
        let d = depth[&b];
        layers[d] += 1;
        for n in b.neighbours_in(metric) {
            if !depth.contains_key(&n) {
                depth.insert(n.clone(), d + 1);
                if layers.len() <= d + 1 {
                    layers.push(0);
                }
                queue.push_back(n);
            }
        }
    }
    layers
}

/// A reference file: its board, metric, goal cell and counts by depth.
fn read(path: &Path) -> (Shape, Metric, Cell, Vec<u64>) {
    let text = std::fs::read_to_string(path).unwrap();
    let name = path.file_stem().unwrap().to_str().unwrap();
    let parts: Vec<&str> = name.split('_').collect();
    let metric: Metric = parts[0].parse().unwrap();
    let shape: Shape = parts[1].parse().unwrap();
    // `corner` is row 0 column 0; other cells are named `rXcY` (0-based).
    let goal = match parts[2] {
        "corner" => Cell(0),
        _ => {
            let cell = parts[3];
            let (r, c) = cell[1..].split_once('c').unwrap();
            shape.cell(r.parse().unwrap(), c.parse().unwrap())
        }
    };
    let counts = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("depth"))
        .map(|l| l.split(',').nth(1).unwrap().trim().parse().unwrap())
        .collect();
    (shape, metric, goal, counts)
}

/// Every complete published distribution of a board up to 10 cells, in either metric, is the
/// reference search's from that goal cell.
#[test]
fn both_metrics_give_the_published_distributions() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/reference");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "csv"))
        .collect();
    files.sort();
    assert!(files.len() >= 17, "{files:?}");
    let mut multi = 0;
    for path in files {
        let (shape, metric, goal, want) = read(&path);
        let got = layers(shape, goal, metric);
        assert_eq!(got, want, "{}", path.display());
        assert_eq!(
            got.iter().sum::<u64>(),
            class_size(shape),
            "{}",
            path.display()
        );
        multi += usize::from(metric == Metric::Multi);
    }
    assert!(multi >= 11);
}

/// `analyze --metric` (the engine, through the command line) writes every complete published
/// distribution of a board up to 10 cells in its depths report, in both metrics, for the goal
/// cell the file names, on 1 and 2 threads; the summary says which metric it counted, and the
/// multi-tile reports go beside the single-tile ones.
#[test]
fn analyze_writes_the_published_distributions_in_both_metrics() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/reference");
    let tmp = tempfile::tempdir().unwrap();
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "csv"))
        .collect();
    files.sort();
    for (k, path) in files.iter().enumerate() {
        let (shape, metric, goal, want) = read(path);
        let blank = format!("{},{}", shape.row(goal) + 1, shape.col(goal) + 1);
        let (board, threads) = (shape.to_string(), if k % 2 == 0 { "1" } else { "2" });
        let args = [
            "analyze",
            &board,
            "--metric",
            metric.name(),
            "--blank",
            &blank,
            "--results",
            "out",
            "-q",
            "-j",
            threads,
        ];
        let o = tilespace(&args, tmp.path());
        assert!(o.status.success(), "{}: {}", path.display(), stderr(&o));
        let mut name = shape.report_name(goal);
        if metric == Metric::Multi {
            name.push_str("-multi");
        }
        let (_, rows) = read_csv(&tmp.path().join("out").join(name).join("depths.csv"));
        let got: Vec<u64> = rows.iter().map(|r| r["states"].parse().unwrap()).collect();
        assert_eq!(got, want, "{}", path.display());
    }
    let (_, rows) = read_csv(&tmp.path().join("out/summary.csv"));
    assert_eq!(rows.len(), files.len());
    let multi = rows.iter().filter(|r| r["metric"] == "multi").count();
    assert!(multi >= 11 && rows.iter().all(|r| r["verified"] == "true"));
}

/// (RC)!/2, the states of one class.
fn class_size(shape: Shape) -> u64 {
    (1..=shape.cells() as u64).product::<u64>() / 2
}

/// Hoey's 8-puzzle table: radius and antipodes by goal cell, single-tile corner 31 (2), edge
/// 31 (2), centre 30 (148); multi-tile corner 24 (1), edge 24 (2), centre 24 (4).
#[test]
fn hoeys_eight_puzzle_table() {
    let shape = Shape::new(3, 3).unwrap();
    for (metric, cell, radius, antipodes) in [
        (Metric::Single, 0, 31, 2),
        (Metric::Single, 1, 31, 2),
        (Metric::Single, 4, 30, 148),
        (Metric::Multi, 0, 24, 1),
        (Metric::Multi, 1, 24, 2),
        (Metric::Multi, 4, 24, 4),
    ] {
        let l = layers(shape, Cell(cell), metric);
        assert_eq!(
            (l.len() - 1, *l.last().unwrap()),
            (radius, antipodes),
            "{metric} cell {cell}"
        );
    }
}

//! Both metrics by a plain breadth-first search over explicit boards, against the published
//! depth distributions (`data/reference/`, copied from `../shared/reference/`: each file
//! names its source in its first line; the multi-tile and most other-cell distributions are
//! O. Tarakanov's complete searches, lightln2/SlidingTilesSolver and lightln2/PuzzleSearch at
//! the commits named there) and against Dan Hoey's 8-puzzle table (radius and antipodes of
//! every goal cell in both metrics, quoted in OEIS A087725). This checks the moves of each
//! metric (`Board::neighbours_in`) that the multi-tile engine will be tested against.

use std::collections::{HashMap, VecDeque};
use std::path::Path;

use tilespace::{Board, Cell, Metric, Shape};

use crate::common::{read_csv, stderr, tilespace};

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

/// The complete reference distributions of boards up to 10 cells (`data/reference/index.csv`
/// lists every file, complete or not), sorted.
fn reference_files() -> Vec<std::path::PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/reference");
    let (_, index) = read_csv(&dir.join("index.csv"));
    let mut files: Vec<_> = index
        .iter()
        .filter(|r| r["complete"] == "yes")
        .filter(|r| r["rows"].parse::<usize>().unwrap() * r["cols"].parse::<usize>().unwrap() <= 10)
        .map(|r| dir.join(&r["file"]))
        .collect();
    files.sort();
    files
}

/// A reference file: its board, metric, goal cell (as `index.csv` gives them: the names of the
/// OEIS's files say no cell) and counts by depth.
fn read(path: &Path) -> (Shape, Metric, Cell, Vec<u64>) {
    let (_, index) = read_csv(&path.with_file_name("index.csv"));
    let name = path.file_name().unwrap().to_str().unwrap();
    let row = index.iter().find(|r| r["file"] == name).unwrap();
    let n = |field: &str| row[field].parse::<usize>().unwrap();
    let shape = Shape::new(n("rows"), n("cols")).unwrap();
    let metric: Metric = row["metric"].parse().unwrap();
    let goal = shape.cell(n("goal_row"), n("goal_col"));
    let counts = std::fs::read_to_string(path)
        .unwrap()
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
    let files = reference_files();
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
    let tmp = tempfile::tempdir().unwrap();
    let files = reference_files();
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
    // The OEIS's 3x3 files give the same board, cell and metric as Tarakanov's: one row each.
    let distinct: std::collections::BTreeSet<_> = files
        .iter()
        .map(|p| {
            let (shape, metric, goal, _) = read(p);
            (shape.to_string(), metric.name(), goal)
        })
        .collect();
    assert_eq!(rows.len(), distinct.len());
    let multi = rows.iter().filter(|r| r["metric"] == "multi").count();
    assert!(multi >= 11 && rows.iter().all(|r| r["verified"] == "true"));
}

/// A multi-tile table saved by `analyze` answers every board of 2x4 (from two goal cells) and
/// a sample of 3x3 with the plain search's distance, by a path of slides from the board to the
/// goal, one metric move apart each, as long as the distance; its header says its metric.
#[test]
fn multi_tile_tables_answer_as_the_plain_search() {
    use tilespace::store::saved::SavedTable;
    let tmp = tempfile::tempdir().unwrap();
    for (r, c, goal, step) in [(2, 4, 7, 1), (2, 4, 1, 1), (3, 3, 8, 37)] {
        let shape = Shape::new(r, c).unwrap();
        let path = tmp.path().join(format!("{shape}-{goal}.tst"));
        let options = tilespace::AnalyzeOptions {
            save_table: Some(&path),
            ..Default::default()
        };
        let puzzle = tilespace::Puzzle::board(shape, Cell(goal), Metric::Multi).unwrap();
        let a = tilespace::analyze(&puzzle, options, &|_| {}).unwrap();
        assert!(a.verified);
        let table = SavedTable::open(&path).unwrap();
        assert_eq!(table.metric(), Metric::Multi);
        let depth = depths(shape, Cell(goal), Metric::Multi);
        let mut boards: Vec<(&Board, &usize)> = depth.iter().collect();
        boards.sort_by(|a, b| a.0.cells().cmp(b.0.cells()));
        for (board, &d) in boards.into_iter().step_by(step) {
            let path = table.solve(board).unwrap();
            assert_eq!(path.len() - 1, d, "{board}");
            for w in path.windows(2) {
                assert!(w[0].slides().any(|n| n == w[1]), "{} to {}", w[0], w[1]);
            }
            assert_eq!(path.last().unwrap(), &Board::goal(shape, Cell(goal)));
        }
    }
}

/// `solve` with a multi-tile table prints each slide as the blank's direction and distance and
/// the tiles it carries: "1 2 3/4 5 6/0 7 8" is one slide from the goal (the blank goes right
/// two cells, carrying 7 and 8).
#[test]
fn solve_prints_slides_from_a_multi_tile_table() {
    let tmp = tempfile::tempdir().unwrap();
    let args = [
        "analyze",
        "3x3",
        "--metric",
        "multi",
        "--save-table",
        "m.tst",
        "-q",
    ];
    let o = tilespace(&args, tmp.path());
    assert!(o.status.success(), "{}", stderr(&o));
    let o = tilespace(
        &["solve", "1 2 3/4 5 6/0 7 8", "--table", "m.tst"],
        tmp.path(),
    );
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(
        text.contains(": 1 move (optimal, multi-tile; verified by replay)"),
        "{text}"
    );
    assert!(
        text.contains("tiles: 7+8") && text.contains("blank: R2"),
        "{text}"
    );
    // The corner goal's one antipode (Hoey: 24 moves), found by the plain search.
    let depth = depths(Shape::new(3, 3).unwrap(), Cell(8), Metric::Multi);
    let far: Vec<&Board> = depth
        .iter()
        .filter(|(_, &d)| d == 24)
        .map(|(b, _)| b)
        .collect();
    assert_eq!(far.len(), 1);
    let board = far[0].to_string();
    let o = tilespace(&["distance", &board, "--table", "m.tst"], tmp.path());
    assert_eq!(
        String::from_utf8(o.stdout).unwrap().trim(),
        format!("{board}: 24")
    );
}

/// `check` compares multi-tile reports with the published multi-tile distributions of their
/// goal cell's class (each cell of 3x3, and 2x4's edge from its mirror image) and Hoey's
/// multi-tile radii, and the single-tile ones with single-tile figures only.
#[test]
fn check_compares_each_metric_with_its_own_figures() {
    let tmp = tempfile::tempdir().unwrap();
    for args in [
        &["atlas", "3x3", "-q", "--results", "r"][..],
        &[
            "analyze",
            "2x4",
            "--metric",
            "multi",
            "--blank",
            "2,3",
            "-q",
            "--results",
            "r",
        ],
    ] {
        let o = tilespace(args, tmp.path());
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let o = tilespace(&["check", "--results", "r", "--json"], tmp.path());
    assert!(o.status.success(), "{}", stderr(&o));
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let all = doc["comparisons"].as_array().unwrap();
    let multi: Vec<_> = all
        .iter()
        .filter(|c| c["compared"].as_str().unwrap().starts_with("multi-tile"))
        .collect();
    // 3x3: corner, edge, centre, each a distribution and Hoey's figures; 2x4 blank 2,3: the
    // published edge 1,2.
    assert_eq!(multi.len(), 7, "{doc}");
    // The single-tile rows (the atlas's 3x3 cells) are never compared with multi-tile figures,
    // nor the multi-tile rows with the OEIS.
    for c in all {
        let multi_tile = c["compared"].as_str().unwrap().starts_with("multi-tile");
        let oeis = c["source"].as_str().unwrap().starts_with("OEIS");
        assert!(!(multi_tile && oeis), "{c}");
    }
    assert!(all.iter().all(|c| c["agrees"] == true), "{doc}");
    assert!(multi
        .iter()
        .any(|c| c["board"] == "2x4" && c["goal_blank"] == "2,3"));
}

/// The distance of every board of its class from the goal with blank `goal`, in `metric`.
fn depths(shape: Shape, goal: Cell, metric: Metric) -> HashMap<Board, usize> {
    let start = Board::goal(shape, goal);
    let mut depth = HashMap::from([(start.clone(), 0usize)]);
    let mut queue = VecDeque::from([start]);
    while let Some(b) = queue.pop_front() {
        let d = depth[&b];
        for n in b.neighbours_in(metric) {
            depth.entry(n.clone()).or_insert_with(|| {
                queue.push_back(n);
                d + 1
            });
        }
    }
    depth
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

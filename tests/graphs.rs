//! Sliding puzzles on graphs, against references that are not our output: Wilson's theorem and
//! the cycle, path and tree formulas (mathematics), nauty's list of 2-connected graphs (OEIS
//! A002218), the published distributions of rectangles, and a plain breadth-first search over
//! explicit configurations written here.

use std::collections::{BTreeMap, HashMap, VecDeque};

use crate::common::{read_csv, stderr, stdout, tilespace};
use tilespace::analysis::graph_theorem::{read_graph6_list, sweep, verify};
use tilespace::analysis::{analyze, AnalyzeOptions};
use tilespace::bfs::walk::walk;
use tilespace::bfs::Schedule;
use tilespace::graph::wilson::{factorial, Case};
use tilespace::graph::{family, Graph};
use tilespace::Metric;

/// Every 2-connected graph on 3 to 7 vertices, as nauty lists them: one per isomorphism class
/// (OEIS A002218: 1, 3, 10, 56, 468), each with Wilson's prediction met.
#[test]
fn wilson_holds_on_every_biconnected_graph_to_seven_vertices() {
    let text = include_str!("data/biconnected-3-7.g6");
    let lines: String = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| format!("{l}\n"))
        .collect();
    let graphs = read_graph6_list(&lines).unwrap().graphs;
    let mut by_n = BTreeMap::new();
    for g in &graphs {
        *by_n.entry(g.vertices()).or_insert(0) += 1;
    }
    assert_eq!(
        by_n,
        BTreeMap::from([(3, 1), (4, 3), (5, 10), (6, 56), (7, 468)])
    );
    let classic = |g: &tilespace::graph::Graph| {
        vec![tilespace::puzzle::tokens::Tokens::distinct(
            g.vertices(),
            g.vertices() - 1,
        )]
    };
    let theorems = sweep(&graphs, &classic, &|| {}).unwrap();
    let mut theta0 = 0;
    for t in &theorems {
        assert!(
            t.biconnected,
            "{}: nauty -C lists 2-connected graphs",
            t.graph6
        );
        assert_ne!(t.case, Case::Separable);
        assert_eq!(t.agrees(), Some(true), "{}: {:?}", t.graph6, t.walk.sizes());
        theta0 += usize::from(t.case == Case::Theta0);
    }
    assert_eq!(theta0, 1, "θ0 is one graph, on 7 vertices");
}

/// On a cycle of n vertices the tiles keep their cyclic order: (n-2)! components of n(n-1).
#[test]
fn cycles_have_factorial_components() {
    for n in 3..=10 {
        let w = walk(&family::cycle(n).unwrap(), n - 1, &|_| {}).unwrap();
        let n = n as u64;
        assert_eq!(w.sizes(), BTreeMap::from([(n * (n - 1), factorial(n - 2))]));
    }
}

/// On a tree the blank's position fixes the configuration: (n-1)! components of n; from a leaf
/// of a path, one configuration at each distance.
#[test]
fn paths_and_trees_have_components_of_n() {
    for n in 1..=9 {
        let w = walk(&family::path(n).unwrap(), n - 1, &|_| {}).unwrap();
        let n = n as u64;
        assert_eq!(w.sizes(), BTreeMap::from([(n, factorial(n - 1))]));
        assert_eq!(w.goal_depths, vec![1; n as usize]);
    }
    // The star K(1,4): from the centre, four configurations one move away.
    let star = family::complete_bipartite(1, 4).unwrap();
    let w = walk(&star, 0, &|_| {}).unwrap();
    assert_eq!(w.sizes(), BTreeMap::from([(5, 24)]));
    assert_eq!(w.goal_depths, vec![1, 4]);
}

/// The rectangle as a graph: from every published goal cell of boards up to 10 cells, the
/// goal's component is the published distribution (`data/reference/`, from
/// `../shared/reference`: Tarakanov 2023 and lightln2/SlidingTilesSolver), and the two
/// components are the counting theorem's classes.
#[test]
fn grids_walk_to_the_published_distributions() {
    let mut checked = 0;
    for p in tilespace::report::published::distributions(Metric::Single) {
        let (rows, cols) = p.board;
        if rows * cols > 10 {
            continue;
        }
        let g = family::grid(rows, cols).unwrap();
        let blank = p.goal.0 * cols + p.goal.1;
        let w = walk(&g, blank, &|_| {}).unwrap();
        assert_eq!(w.goal_depths, p.terms, "{rows}x{cols} blank {:?}", p.goal);
        let half = factorial((rows * cols) as u64) / 2;
        assert_eq!(w.sizes(), BTreeMap::from([(half, 2)]));
        checked += 1;
    }
    assert!(checked >= 9, "only {checked} distributions checked");
}

/// The rectangle as a graph through the engine (the layer loop over the graph's index): from
/// every published goal cell of boards up to 10 cells, and the corners of 2x6 and 3x4, the
/// goal's component is the published distribution (`data/reference/`, from
/// `../shared/reference`: Tarakanov 2023 and lightln2/SlidingTilesSolver), its table recounted.
#[test]
fn grids_search_to_the_published_distributions() {
    let mut checked = 0;
    for p in tilespace::report::published::distributions(Metric::Single) {
        let (rows, cols) = p.board;
        let corner = p.goal == (rows - 1, cols - 1);
        if rows * cols > 12 || (rows * cols > 10 && !corner) {
            continue;
        }
        let g = family::grid(rows, cols).unwrap();
        let blank = p.goal.0 * cols + p.goal.1;
        let a = analyze(
            &tilespace::Puzzle::graph(g.clone(), blank, Metric::Single).unwrap(),
            AnalyzeOptions::default(),
            &|_| {},
        )
        .unwrap();
        assert_eq!(a.distribution.layers, p.terms, "{rows}x{cols} {:?}", p.goal);
        assert!(a.verified, "{rows}x{cols} blank {:?}", p.goal);
        assert_eq!(a.states(), factorial((rows * cols) as u64) / 2);
        checked += 1;
    }
    assert!(checked >= 11, "only {checked} distributions checked");
}

/// A plain search over explicit configurations (vectors in a hash map) on random connected
/// graphs of 4 to 7 vertices: the same components and the same distribution from the goal, by
/// the walk and by the engine (with its default schedule, and with no layer listed).
#[test]
fn walks_agree_with_a_plain_search_on_random_graphs() {
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for case in 0..40 {
        let n = 4 + (next() % 4) as usize;
        let g = random_connected(n, &mut next);
        let blank = (next() % n as u64) as usize;
        let w = walk(&g, blank, &|_| {}).unwrap();
        let (sizes, depths) = plain_search(&g, blank);
        assert_eq!(w.sizes(), sizes, "case {case}: {:?}", g.edge_list());
        assert_eq!(w.goal_depths, depths, "case {case}: {:?}", g.edge_list());
        for record_cap in [Schedule::default().record_cap, 0] {
            let options = AnalyzeOptions {
                schedule: Schedule {
                    record_cap,
                    sequential_states: 0,
                    chunk: 64,
                    list_chunk: 7,
                },
                ..AnalyzeOptions::default()
            };
            let a = analyze(
                &tilespace::Puzzle::graph(g.clone(), blank, Metric::Single).unwrap(),
                options,
                &|_| {},
            )
            .unwrap();
            let what = format!("case {case} cap {record_cap}: {:?}", g.edge_list());
            assert_eq!(a.distribution.layers, depths, "{what}");
            assert!(a.verified, "{what}");
            assert_eq!(a.antipodes.len() as u64, *depths.last().unwrap(), "{what}");
        }
    }
}

/// A search of a graph's puzzle stopped at a layer boundary with its checkpoint saved goes on
/// from it to the same distribution and antipodes as a search run through; the checkpoint is
/// refused for another graph of as many vertices, and for a board of as many cells.
#[test]
fn graph_searches_stop_and_resume_from_their_checkpoints() {
    use std::sync::atomic::{AtomicBool, Ordering::SeqCst};
    use tilespace::store::checkpoint;
    let tmp = tempfile::tempdir().unwrap();
    for spec in ["petersen", "cylinder:3x3", "cycle:8"] {
        let graph = tilespace::graph::spec::NamedGraph::parse(spec)
            .unwrap()
            .graph;
        let whole = analyze(
            &tilespace::Puzzle::graph(graph.clone(), 2, Metric::Single).unwrap(),
            AnalyzeOptions::default(),
            &|_| {},
        )
        .unwrap();
        let dir = tmp.path().join(spec.replace(':', "-"));
        let stop = AtomicBool::new(false);
        let saved = |_: u32, _: f64| {};
        let options = |resume: bool| AnalyzeOptions {
            checkpoint: Some(checkpoint::Options {
                dir: &dir,
                every: std::time::Duration::ZERO,
                resume,
                from: None,
                stop: &stop,
                saved: &saved,
            }),
            ..AnalyzeOptions::default()
        };
        let at = (whole.distribution.eccentricity() / 2).max(1);
        let stopping = |d: tilespace::bfs::LayerDone| {
            if d.depth == at {
                stop.store(true, SeqCst);
            }
        };
        let err = analyze(
            &tilespace::Puzzle::graph(graph.clone(), 2, Metric::Single).unwrap(),
            options(false),
            &stopping,
        )
        .unwrap_err();
        assert!(
            matches!(err, tilespace::Error::Interrupted { depth, .. } if depth == at),
            "{spec}: {err}"
        );
        // Another graph of as many vertices, or another goal, cannot go on from it.
        let other = family::path(graph.vertices()).unwrap();
        let err = analyze(
            &tilespace::Puzzle::graph(other.clone(), 2, Metric::Single).unwrap(),
            options(true),
            &|_| {},
        )
        .unwrap_err();
        assert!(err.to_string().contains("another"), "{spec}: {err}");
        // Nor can a board of as many cells.
        let n = graph.vertices();
        let (rows, cols) = if n.is_multiple_of(2) {
            (2, n / 2)
        } else {
            (3, n / 3)
        };
        let board = tilespace::Shape::new(rows, cols).unwrap();
        assert_eq!(board.cells(), n);
        let board_options = tilespace::analysis::AnalyzeOptions {
            checkpoint: options(true).checkpoint,
            ..Default::default()
        };
        let goal = tilespace::Cell(n - 1);
        let err = tilespace::analysis::analyze::analyze(
            &tilespace::Puzzle::board(board, goal, tilespace::Metric::Single).unwrap(),
            board_options,
            &|_| {},
        )
        .unwrap_err();
        let says = format!("a checkpoint of a graph of {n} vertices, not of {board}");
        assert!(err.to_string().contains(&says), "{spec}: {err}");
        stop.store(false, SeqCst);
        let resumed = analyze(
            &tilespace::Puzzle::graph(graph.clone(), 2, Metric::Single).unwrap(),
            options(true),
            &|_| {},
        )
        .unwrap();
        assert_eq!(resumed.distribution, whole.distribution, "{spec}");
        assert_eq!(resumed.antipodes, whole.antipodes, "{spec}");
        assert!(resumed.verified, "{spec}");
    }
}

/// A random spanning tree on `n` vertices, then each other pair joined with probability 1/3.
fn random_connected(n: usize, next: &mut impl FnMut() -> u64) -> Graph {
    let mut edges = vec![];
    for v in 1..n {
        edges.push(((next() % v as u64) as usize, v));
    }
    for v in 0..n {
        for u in 0..v {
            if !edges.contains(&(u, v)) && next().is_multiple_of(3) {
                edges.push((u, v));
            }
        }
    }
    Graph::new(n, &edges).unwrap()
}

/// Component sizes (size → count) and the goal's layer widths, by breadth-first search over
/// every configuration of `g`, kept as vectors in a hash map.
fn plain_search(g: &Graph, blank: usize) -> (BTreeMap<u64, u64>, Vec<u64>) {
    let n = g.vertices();
    let mut goal: Vec<u8> = (1..n as u8).collect();
    goal.insert(blank, 0);
    let mut all = vec![];
    permutations(&mut (0..n as u8).collect::<Vec<_>>(), 0, &mut all);
    assert_eq!(all.len() as u64, factorial(n as u64));
    let mut depth: HashMap<Vec<u8>, u32> = HashMap::new();
    let mut sizes = BTreeMap::new();
    let mut goal_depths = vec![];
    for start in std::iter::once(goal.clone()).chain(all) {
        if depth.contains_key(&start) {
            continue;
        }
        let mut queue = VecDeque::from([start.clone()]);
        depth.insert(start.clone(), 0);
        let mut widths = vec![0u64];
        while let Some(c) = queue.pop_front() {
            let d = depth[&c];
            widths.resize(widths.len().max(d as usize + 1), 0);
            widths[d as usize] += 1;
            let b = c.iter().position(|&t| t == 0).unwrap();
            for u in g.neighbours(b) {
                let mut m = c.clone();
                m.swap(b, u);
                if !depth.contains_key(&m) {
                    depth.insert(m.clone(), d + 1);
                    queue.push_back(m);
                }
            }
        }
        if start == goal {
            goal_depths = widths.clone();
        }
        *sizes.entry(widths.iter().sum()).or_insert(0) += 1;
    }
    (sizes, goal_depths)
}

fn permutations(items: &mut Vec<u8>, k: usize, out: &mut Vec<Vec<u8>>) {
    if k == items.len() {
        out.push(items.clone());
        return;
    }
    for i in k..items.len() {
        items.swap(k, i);
        permutations(items, k + 1, out);
        items.swap(k, i);
    }
}

/// `theorem --graph` and `--graph6` from the command line: the verdicts, graphs.csv, and the
/// summary of a list read from stdin.
#[test]
fn the_theorem_on_graphs_from_the_command_line() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tilespace(
        &[
            "theorem", "--graph", "theta0", "--graph", "cycle:5", "--quiet",
        ],
        tmp.path(),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("6 components of 840"), "{text}");
    assert!(text.contains("6 components of 20"), "{text}");
    let (_, rows) = read_csv(&tmp.path().join("results/graphs.csv"));
    assert_eq!(rows.len(), 2);
    let theta = rows.iter().find(|r| r["graph"] == "theta0").unwrap();
    assert_eq!(theta["case"], "theta0");
    assert_eq!(theta["components"], "6");
    assert_eq!(theta["predicted"], "6");
    assert_eq!(theta["agrees"], "true");
    assert_eq!(theta["vertices"], "7");

    // Two graphs of nauty's output on stdin, one of them a tree, one separable and not a tree.
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_tilespace"))
        .args(["theorem", "--graph6", "-", "--quiet", "--json"])
        .current_dir(tmp.path())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    // `Dhc` the 5-cycle, `DQc` a path (nauty-listg), `DJo` a triangle with a tail of two
    // (edges 0-4, 1-2, 1-3, 1-4, 2-3).
    let g6 = "Dhc\nDQc\nDJo\n";
    child
        .stdin
        .take()
        .unwrap()
        .write_all(g6.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let five = &doc["by_vertices"][0];
    assert_eq!(five["graphs"], 3);
    assert_eq!(five["cases"]["cycle"], 1);
    assert_eq!(five["cases"]["separable"], 2);
    assert_eq!(five["predicted"], 2, "the cycle and the path");
    assert_eq!(doc["agrees"], true);
    let (_, rows) = read_csv(&tmp.path().join("results/graphs.csv"));
    assert_eq!(
        rows.len(),
        4,
        "theta0, cycle:5 and its twin Dhc are one row, and two more"
    );
}

#[test]
fn bad_graphs_get_one_line_and_status_2() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("two.g6"), "Dhc\nD??\n").unwrap();
    std::fs::write(tmp.path().join("loop.txt"), "1 2\n2 2\n").unwrap();
    for (args, says) in [
        (&["--graph", "torus:5x5"][..], "at most 16"),
        (&["--graph", "torus:4x4"], "at most 12"),
        (&["--graph", "cycle:2"], "3 vertices or more"),
        (&["--graph", "graph6:D??"], "not connected"),
        (&["--graph", "graph6:Dh"], "need 2 characters"),
        (&["--graph", "nonesuch"], "neither a graph"),
        (&["--graph", "loop.txt"], "loop"),
        (&["--graph", "petersen", "--blank", "11"], "1 to 10"),
        // 12!/8 bytes of bits and 4 bytes a configuration for the frontiers: 2.0 GB.
        (
            &["--graph", "torus:3x4", "--max-memory", "1G"],
            "over --max-memory",
        ),
        (&["--graph6", "two.g6"], "line 2"),
        (&["--graph6", "missing.g6"], "missing.g6"),
    ] {
        let mut all = vec!["theorem"];
        all.extend_from_slice(args);
        let out = tilespace(&all, tmp.path());
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

/// θ0's goal component, walked from each blank vertex: 840 configurations each time.
#[test]
fn theta0_from_every_blank() {
    let g = family::theta0();
    for blank in 0..7 {
        let t = verify(&g, blank, &|_| {}).unwrap();
        assert_eq!(t.walk.goal_states(), 840);
        assert_eq!(t.agrees(), Some(true));
    }
}

/// `analyze --graph grid:RxC` writes the distributions `analyze RxC` wrote into the committed
/// results (`docs/results`, made by the board engine), from several goal blanks; the antipodes
/// of grid:3x3 are the 8-puzzle's two 31-move boards (Reinefeld 1993: 8 6 7/2 5 4/3 0 1 and
/// 6 4 7/8 5 0/3 2 1).
#[test]
fn analyze_on_grids_writes_the_boards_distributions() {
    let tmp = tempfile::tempdir().unwrap();
    let committed = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/results");
    for (board, blank, folder) in [
        ("2x3", "last", "2x3"),
        ("2x3", "1", "2x3-blank-1-1"),
        ("2x3", "2", "2x3-blank-1-2"),
        ("3x3", "last", "3x3"),
        ("3x3", "5", "3x3-blank-2-2"),
        ("2x4", "1", "2x4-blank-1-1"),
    ] {
        let spec = format!("grid:{board}");
        let out = tilespace(
            &[
                "analyze",
                "--graph",
                &spec,
                "--blank",
                blank,
                "-q",
                "--results",
                "r",
            ],
            tmp.path(),
        );
        assert!(out.status.success(), "{spec}: {}", stderr(&out));
        let suffix = if blank == "last" {
            String::new()
        } else {
            format!("-blank-{blank}")
        };
        let ours = tmp
            .path()
            .join(format!("r/graphs/grid-{board}{suffix}/depths.csv"));
        let (_, got) = read_csv(&ours);
        let (_, want) = read_csv(&committed.join(folder).join("depths.csv"));
        let states = |rows: &[HashMap<String, String>]| -> Vec<String> {
            rows.iter().map(|r| r["states"].clone()).collect()
        };
        assert_eq!(states(&got), states(&want), "{spec} blank {blank}");
    }
    let (_, antipodes) = read_csv(&tmp.path().join("r/graphs/grid-3x3/antipodes.csv"));
    let mut boards: Vec<&str> = antipodes
        .iter()
        .map(|r| r["configuration"].as_str())
        .collect();
    boards.sort_unstable();
    assert_eq!(boards, ["6 4 7 8 5 0 3 2 1", "8 6 7 2 5 4 3 0 1"]);
    let (_, summary) = read_csv(&tmp.path().join("r/graph-summary.csv"));
    assert_eq!(summary.len(), 6);
    assert!(summary.iter().all(|r| r["verified"] == "true"));
}

/// The Petersen graph, θ0 and K(3,3): the goal's component has the size Wilson's theorem gives
/// (10!, 840, 6!/2), as many antipodes as its last layer, and bad requests are refused.
#[test]
fn analyze_on_named_graphs() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tilespace(
        &[
            "analyze",
            "--graph",
            "petersen",
            "--graph",
            "theta0",
            "--graph",
            "complete:3,3",
            "-q",
            "--json",
        ],
        tmp.path(),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let states: Vec<u64> = doc["analyses"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["states"].as_u64().unwrap())
        .collect();
    assert_eq!(states, [3_628_800, 840, 360]);
    assert_eq!(doc["verified"], true);
    let (_, depths) = read_csv(&tmp.path().join("results/graphs/petersen/depths.csv"));
    let (_, antipodes) = read_csv(&tmp.path().join("results/graphs/petersen/antipodes.csv"));
    assert_eq!(
        depths.last().unwrap()["states"],
        antipodes.len().to_string()
    );
    for (args, says) in [
        (
            &["--graph", "petersen", "--metric", "multi"][..],
            "one at a time along its edges",
        ),
        (&["3x3", "--graph", "petersen"], "cannot be used with"),
        (&["--graph", "petersen", "--blank", "2,2"], "not a vertex"),
        (&["--graph", "torus:4x4", "--max-memory", "4G"], "needs"),
    ] {
        let mut all = vec!["analyze"];
        all.extend_from_slice(args);
        let out = tilespace(&all, tmp.path());
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

/// `atlas --graph grid:RxC` finds the diameter, radius and mean distance of the committed board
/// atlases (`docs/results/atlas-summary.csv`, made by the board engine over cell classes found
/// by reflection, not by the automorphism search).
#[test]
fn atlas_on_grids_agrees_with_the_board_atlas() {
    let tmp = tempfile::tempdir().unwrap();
    let committed =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/results/atlas-summary.csv");
    let (_, boards) = read_csv(&committed);
    for board in ["2x3", "3x3", "2x4", "2x5"] {
        let spec = format!("grid:{board}");
        let out = tilespace(
            &["atlas", "--graph", &spec, "-q", "--results", "r"],
            tmp.path(),
        );
        assert!(out.status.success(), "{spec}: {}", stderr(&out));
        let want = boards
            .iter()
            .find(|r| r["board"] == board && r["metric"] == "single")
            .unwrap();
        let (_, got) = read_csv(&tmp.path().join("r/graph-atlas-summary.csv"));
        let got = got.iter().find(|r| r["graph"] == spec).unwrap();
        for (ours, theirs) in [
            ("diameter", "diameter"),
            ("radius", "radius"),
            ("mean_distance_exact", "mean_distance_exact"),
        ] {
            assert_eq!(got[ours], want[theirs], "{spec}: {ours}");
        }
    }
}

/// `theorem --graph6 FILE --blanks 1..3`: every 2-connected graph of 3 to 6 vertices with each
/// number of blanks that leaves a tile, one row a (graph, tokens) in graphs.csv, all predicted
/// and all agreeing: 1·2 + 3·3 + 10·3 + 56·3 = 209 goals. With `--colours 2,2` the goals that
/// fit (four tiles or more: 2, 1 or 0 blanks on 6, 5 and 4 vertices). `--graph theta0 --goal`
/// with two blanks: one class of 7!/2.
#[test]
fn theorem_sweeps_blanks_and_colours() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let text = include_str!("data/biconnected-3-7.g6");
    let small: String = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .filter(|l| tilespace::graph::graph6::decode(l).unwrap().vertices() <= 6)
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(dir.join("small.g6"), small).unwrap();
    let args = ["theorem", "--graph6", "small.g6", "-q", "--results", "r"];
    let o = tilespace(&[&args[..], &["--blanks", "1..3"]].concat(), dir);
    assert!(o.status.success(), "{}", stderr(&o));
    let last = "the theorems hold on all 209 (graph, tokens) they predict, of 209 read";
    assert!(stdout(&o).contains(last), "{}", stdout(&o));
    let (header, rows) = read_csv(&dir.join("r/graphs.csv"));
    assert!(["blanks", "tokens", "goal"]
        .iter()
        .all(|c| header.contains(&c.to_string())));
    assert_eq!(rows.len(), 209);
    let two_blanks = rows.iter().filter(|r| r["blanks"] == "2").count();
    assert_eq!(two_blanks, 1 + 3 + 10 + 56);
    assert!(rows
        .iter()
        .filter(|r| r["blanks"] == "2" && r["case"] != "cycle")
        .all(|r| r["components"] == "1" && r["rule"] == "kms"));
    let o = tilespace(
        &[&args[..], &["--blanks", "1..2", "--colours", "2,2"]].concat(),
        dir,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    // 6 vertices: 1 and 2 blanks (56 · 2); 5: 1 blank (10); 4: none.
    let last = "the theorems hold on all 122 (graph, tokens) they predict, of 122 read";
    assert!(stdout(&o).contains(last), "{}", stdout(&o));
    let o = tilespace(
        &[
            "theorem",
            "--graph",
            "theta0",
            "--goal",
            "1 2 3 4 5 0 0",
            "-q",
            "--results",
            "r",
        ],
        dir,
    );
    let text = stdout(&o);
    assert!(
        text.contains("1 component of 2520") && text.contains("theorem: holds"),
        "{text}"
    );
    for (extra, says) in [
        (&["--blanks", "0"][..], "not a number of blanks"),
        (&["--blanks", "3..1"][..], "empty range"),
        (&["--colours", "1,2"][..], "each 2 or more"),
    ] {
        let o = tilespace(&[&args[..], extra].concat(), dir);
        assert_eq!(o.status.code(), Some(2), "{extra:?}");
        assert!(stderr(&o).contains(says), "{}", stderr(&o));
    }
}

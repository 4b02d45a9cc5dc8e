//! Pebble motion by enumeration: a plain breadth-first search over explicit arrangements (its
//! own moves: a token slides along an edge onto an empty vertex) splits every arrangement of
//! a goal's tokens into the classes the moves connect, and the classes are set beside what the
//! theorems predict (`graph::pebbles::predict`, from their statements alone): Wilson (1974),
//! Kornhauser, Miller and Spirakis (FOCS 1984), Auletta, Monti, Parente and Persiano on trees
//! (Algorithmica 1999), and the order a path and the cyclic order a cycle keep.

use std::collections::{BTreeMap, HashMap, VecDeque};

use num_bigint::BigUint;
use tilespace::graph::pebbles::predict;
use tilespace::graph::{family, graph6, Graph};
use tilespace::puzzle::tokens::Tokens;

/// Every arrangement of `tokens` (each distinct order of the multiset), by recursion over what
/// is left of each label.
fn arrangements(tokens: &[u32]) -> Vec<Vec<u32>> {
    fn go(
        left: &mut BTreeMap<u32, usize>,
        prefix: &mut Vec<u32>,
        n: usize,
        out: &mut Vec<Vec<u32>>,
    ) {
        if prefix.len() == n {
            out.push(prefix.clone());
            return;
        }
        let labels: Vec<u32> = left
            .iter()
            .filter(|(_, &c)| c > 0)
            .map(|(&l, _)| l)
            .collect();
        for l in labels {
            *left.get_mut(&l).unwrap() -= 1;
            prefix.push(l);
            go(left, prefix, n, out);
            prefix.pop();
            *left.get_mut(&l).unwrap() += 1;
        }
    }
    let mut left = BTreeMap::new();
    for &t in tokens {
        *left.entry(t).or_insert(0) += 1;
    }
    let mut out = vec![];
    go(&mut left, &mut vec![], tokens.len(), &mut out);
    out
}

/// The class of each arrangement of `tokens` on `g`, numbered from 0.
fn class_map(g: &Graph, tokens: &[u32]) -> HashMap<Vec<u32>, usize> {
    let all = arrangements(tokens);
    let mut class: HashMap<Vec<u32>, usize> = HashMap::with_capacity(all.len());
    let mut classes = 0;
    for start in &all {
        if class.contains_key(start) {
            continue;
        }
        let id = classes;
        classes += 1;
        class.insert(start.clone(), id);
        let mut queue = VecDeque::from([start.clone()]);
        while let Some(a) = queue.pop_front() {
            for b in moves(g, &a) {
                if !class.contains_key(&b) {
                    class.insert(b.clone(), id);
                    queue.push_back(b);
                }
            }
        }
    }
    class
}

/// The classes of `tokens`'s arrangements on `g`: how many classes of each size.
fn classes(g: &Graph, tokens: &[u32]) -> BTreeMap<u64, u64> {
    let mut size = HashMap::new();
    for id in class_map(g, tokens).into_values() {
        *size.entry(id).or_insert(0u64) += 1;
    }
    let mut sizes = BTreeMap::new();
    for s in size.into_values() {
        *sizes.entry(s).or_insert(0) += 1;
    }
    sizes
}

/// The arrangements that reach `goal` on `g`: its class, by the same search (`goal_class`).
fn reach(g: &Graph, goal: &[u32]) -> u64 {
    goal_class(g, goal).0
}

/// The arrangements one move from `a` on `g`: a token slides along an edge onto an empty
/// vertex.
fn moves<'a>(g: &'a Graph, a: &'a [u32]) -> impl Iterator<Item = Vec<u32>> + 'a {
    (0..a.len()).filter(|&v| a[v] == 0).flat_map(move |v| {
        g.neighbours(v).filter(|&u| a[u] != 0).map(move |u| {
            let mut b = a.to_vec();
            b.swap(u, v);
            b
        })
    })
}

/// The prediction's classes as `classes` counts them, or None where no theorem predicts.
fn predicted(g: &Graph, tokens: &[u32]) -> Option<BTreeMap<u64, u64>> {
    let c = predict(g, &Tokens::new(tokens.to_vec()).unwrap())?;
    let small = |n: &BigUint| u64::try_from(n).unwrap();
    Some(c.sizes.iter().map(|(s, n)| (small(s), small(n))).collect())
}

/// Goals of `n` tokens: for each number of blanks 1..n, distinct tiles, and every split of the
/// tiles into colours (a partition of their number, the labels 1, 1, 2, … in order).
fn goals(n: usize) -> Vec<Vec<u32>> {
    fn partitions(p: usize, most: usize) -> Vec<Vec<usize>> {
        if p == 0 {
            return vec![vec![]];
        }
        let mut out = vec![];
        for first in (1..=most.min(p)).rev() {
            for mut rest in partitions(p - first, first) {
                rest.insert(0, first);
                out.push(rest);
            }
        }
        out
    }
    let mut out = vec![];
    for blanks in 1..n {
        for parts in partitions(n - blanks, n - blanks) {
            let mut t: Vec<u32> = parts
                .iter()
                .enumerate()
                .flat_map(|(i, &m)| std::iter::repeat_n(i as u32 + 1, m))
                .collect();
            t.extend(std::iter::repeat_n(0, blanks));
            out.push(t);
        }
    }
    out
}

/// `pebbles::reaches` from every arrangement to the goal `t` is the enumeration's answer
/// wherever it decides, and it decides wherever `predict` predicts, but on θ0 with one blank
/// (its six classes are counted; which holds an arrangement is not decided here).
fn check_reaches(g: &Graph, t: &[u32]) {
    let class = class_map(g, t);
    let goal = Tokens::new(t.to_vec()).unwrap();
    let predicted = predict(g, &goal).is_some();
    for (a, id) in &class {
        let start = Tokens::new(a.clone()).unwrap();
        let decided = tilespace::graph::pebbles::reaches(g, &start, &goal).unwrap();
        if predicted {
            assert!(decided.is_some(), "{} {t:?} from {a:?}", graph6::encode(g));
        }
        if let Some(yes) = decided {
            assert_eq!(
                yes,
                *id == class[t],
                "{} {t:?} from {a:?}",
                graph6::encode(g)
            );
        }
    }
}

/// Every prediction checked against the enumeration, over `graphs` and every goal; returns
/// (predicted, checked).
fn check_all(graphs: &[Graph]) -> (usize, usize) {
    let (mut foretold, mut checked) = (0, 0);
    for g in graphs {
        for t in goals(g.vertices()) {
            checked += 1;
            check_reaches(g, &t);
            if let Some(want) = predicted(g, &t) {
                foretold += 1;
                assert_eq!(classes(g, &t), want, "{} tokens {t:?}", graph6::encode(g));
                let goal = predict(g, &Tokens::new(t.clone()).unwrap()).unwrap().goal;
                assert_eq!(
                    BigUint::from(reach(g, &t)),
                    goal,
                    "{} {t:?}",
                    graph6::encode(g)
                );
            }
        }
    }
    (foretold, checked)
}

/// The graphs of a graph6 file of `tests/data/`, its `#` lines a header.
fn graphs_in(text: &str) -> Vec<Graph> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| graph6::decode(l).unwrap())
        .collect()
}

/// The 2-connected graphs of 3 to 7 vertices (nauty's, OEIS A002218: 1, 3, 10, 56, 468), every
/// number of blanks and every colour split of the tiles: each class structure the theorems
/// predict is the enumeration's, and they predict every goal (θ0's with one blank by its
/// group).
#[test]
fn the_theorems_hold_on_every_2_connected_graph_of_up_to_7_vertices() {
    let graphs = graphs_in(include_str!("data/biconnected-3-7.g6"));
    assert_eq!(graphs.len(), 1 + 3 + 10 + 56 + 468);
    let (foretold, checked) = check_all(&graphs);
    assert_eq!(foretold, checked);
}

/// The trees of 3 to 8 vertices (nauty's, OEIS A000055: 1, 2, 3, 6, 11, 23), every number of
/// blanks and every colour split of the tiles: the classes the theorems predict (a path's
/// order, the tree formula with one blank, Auletta et al.'s exchange classes with more) are
/// the enumeration's, and they predict and decide every goal.
#[test]
fn the_theorems_hold_on_every_tree_of_up_to_8_vertices() {
    let graphs = graphs_in(include_str!("data/trees-3-8.g6"));
    assert_eq!(graphs.len(), 1 + 2 + 3 + 6 + 11 + 23);
    let (foretold, checked) = check_all(&graphs);
    assert_eq!(foretold, checked);
}

/// Paths, cycles, θ0 and the 3x3 grid with named goals: the figures the issue states.
#[test]
fn named_graphs_with_several_blanks_and_colours() {
    let theta = family::theta0();
    // θ0: one blank, 6 classes of 840 (Wilson's exception); two blanks, one of 7!/2.
    assert_eq!(
        classes(&theta, &[1, 2, 3, 4, 5, 6, 0]),
        BTreeMap::from([(840, 6)])
    );
    assert_eq!(
        classes(&theta, &[1, 2, 3, 4, 5, 0, 0]),
        BTreeMap::from([(2520, 1)])
    );
    let paths_and_cycles: Vec<Graph> = (2..=7)
        .map(|n| family::path(n).unwrap())
        .chain((3..=7).map(|n| family::cycle(n).unwrap()))
        .collect();
    let (foretold, checked) = check_all(&paths_and_cycles);
    assert_eq!(foretold, checked);
    // θ0 with distinct tiles and any blanks, and its colour splits with two blanks or more.
    for t in goals(7) {
        if let Some(want) = predicted(&theta, &t) {
            assert_eq!(classes(&theta, &t), want, "θ0 {t:?}");
        }
    }
    // 3x3 with two blanks: all 9!/2 arrangements, one class.
    let grid = family::grid(3, 3).unwrap();
    let two_blanks = [1, 2, 3, 4, 5, 6, 7, 0, 0];
    assert_eq!(classes(&grid, &two_blanks), BTreeMap::from([(181_440, 1)]));
    assert_eq!(
        predicted(&grid, &two_blanks),
        Some(BTreeMap::from([(181_440, 1)]))
    );
}

/// A board's prediction (any size, from its shape) is its grid graph's, goal class included, on
/// every board of up to 8 cells and every goal.
#[test]
fn boards_predict_as_their_grids() {
    use tilespace::graph::pebbles::predict_board;
    for (r, c) in [(1, 2), (1, 5), (2, 2), (2, 3), (3, 2), (2, 4), (1, 8)] {
        let shape = tilespace::Shape::new(r, c).unwrap();
        let g = family::grid(r, c).unwrap();
        for t in goals(r * c) {
            let tokens = Tokens::new(t.clone()).unwrap();
            let board = predict_board(shape, &tokens).unwrap();
            // The theorem named may differ (a line of one blank is a path, and a tree).
            let grid = predict(&g, &tokens).unwrap();
            assert_eq!(
                (&board.sizes, &board.goal),
                (&grid.sizes, &grid.goal),
                "{shape} {t:?}"
            );
            assert_eq!(board.goal, BigUint::from(reach(&g, &t)), "{shape} {t:?}");
        }
    }
}

/// On boards of any size: a start reaches the goal as the enumeration says on every board of
/// up to 8 cells (from every arrangement of every goal), and on 100x100 in linear time: the
/// goal with two tiles swapped is in the other class, a move from the goal in the goal's, both
/// together in the other.
#[test]
fn boards_decide_reachability_at_any_size() {
    use tilespace::graph::pebbles::reaches_on_board;
    for (r, c) in [(1, 4), (2, 2), (2, 3), (3, 2), (2, 4)] {
        let shape = tilespace::Shape::new(r, c).unwrap();
        let g = family::grid(r, c).unwrap();
        for t in goals(r * c) {
            let class = class_map(&g, &t);
            let goal = Tokens::new(t.clone()).unwrap();
            for (a, id) in &class {
                let start = Tokens::new(a.clone()).unwrap();
                let yes = reaches_on_board(shape, &start, &goal).unwrap();
                assert_eq!(yes, *id == class[&t], "{shape} {t:?} from {a:?}");
            }
        }
    }
    // 100x100, one blank: the goal with two tiles swapped is the other class; with the blank
    // moved one cell too, the same class; with two blanks, every arrangement.
    let shape = tilespace::Shape::new(100, 100).unwrap();
    let goal = Tokens::distinct(10_000, 9_999);
    let mut swapped = goal.cells().to_vec();
    swapped.swap(0, 1);
    let swapped = Tokens::new(swapped).unwrap();
    assert!(!reaches_on_board(shape, &swapped, &goal).unwrap());
    let mut moved = goal.cells().to_vec();
    moved.swap(9_998, 9_999);
    assert!(reaches_on_board(shape, &Tokens::new(moved.clone()).unwrap(), &goal).unwrap());
    moved.swap(0, 1);
    assert!(!reaches_on_board(shape, &Tokens::new(moved).unwrap(), &goal).unwrap());
    let mut two = goal.cells().to_vec();
    two[0] = 0;
    let two_goal = Tokens::new(two.clone()).unwrap();
    two.swap(1, 2);
    assert!(reaches_on_board(shape, &Tokens::new(two).unwrap(), &two_goal).unwrap());
    let other = Tokens::distinct(10_000, 0);
    let e = reaches_on_board(shape, &other, &two_goal)
        .unwrap_err()
        .to_string();
    assert!(e.contains("different") || e.contains("holds"), "{e}");
}

/// The goal's class on `g` by the plain search, layer by layer: its arrangements and its
/// eccentricity (the depth of its last layer).
fn goal_class(g: &Graph, goal: &[u32]) -> (u64, usize) {
    let (layers, _) = goal_layers(g, goal);
    (layers.iter().sum(), layers.len() - 1)
}

/// The goal's class on `g` by the plain search: the width of each layer, and the last
/// layer's arrangements in increasing order.
fn goal_layers(g: &Graph, goal: &[u32]) -> (Vec<u64>, Vec<Vec<u32>>) {
    goal_layers_by(goal, |a| moves(g, a).collect())
}

/// The multi-tile moves of an arrangement `a` of one blank on a `rows`×`cols` board (reading
/// order): the blank slides 1, 2, … cells along its row or column, the tokens between
/// shifting one cell toward where it was.
fn slides(rows: usize, cols: usize, a: &[u32]) -> Vec<Vec<u32>> {
    let blank = a.iter().position(|&x| x == 0).unwrap();
    let (r, c) = ((blank / cols) as isize, (blank % cols) as isize);
    let mut out = vec![];
    for (dr, dc) in [(-1, 0), (1, 0), (0, -1), (0, 1)] {
        let (mut b, mut at, mut rr, mut cc) = (a.to_vec(), blank, r + dr, c + dc);
        while (0..rows as isize).contains(&rr) && (0..cols as isize).contains(&cc) {
            let next = rr as usize * cols + cc as usize;
            b.swap(at, next);
            at = next;
            out.push(b.clone());
            (rr, cc) = (rr + dr, cc + dc);
        }
    }
    out
}

/// `goal_layers` by the moves `moves` gives.
fn goal_layers_by(
    goal: &[u32],
    moves: impl Fn(&[u32]) -> Vec<Vec<u32>>,
) -> (Vec<u64>, Vec<Vec<u32>>) {
    let mut seen = std::collections::HashSet::from([goal.to_vec()]);
    let (mut layer, mut widths) = (vec![goal.to_vec()], vec![1]);
    loop {
        let mut next = vec![];
        for a in &layer {
            for b in moves(a) {
                if seen.insert(b.clone()) {
                    next.push(b);
                }
            }
        }
        if next.is_empty() {
            layer.sort();
            return (widths, layer);
        }
        widths.push(next.len() as u64);
        layer = next;
    }
}

/// The graph of a puzzle as the command line names it: `RxC` (its grid) or `--graph SPEC`.
fn ground_of(puzzle: &[&str]) -> Graph {
    match puzzle {
        [board] => {
            let (r, c) = board.split_once('x').unwrap();
            family::grid(r.parse().unwrap(), c.parse().unwrap()).unwrap()
        }
        [_, spec] => {
            tilespace::graph::spec::NamedGraph::parse(spec)
                .unwrap()
                .graph
        }
        _ => unreachable!(),
    }
}

/// `analyze --goal TOKENS` on boards and graphs: every figure it prints and writes is the
/// plain search's (the layers, so the eccentricity and the mean; the antipodes), the
/// arrangements the multinomial, computed apart (`Tokens::arrangements`), and the run
/// verified.
#[test]
fn analyze_a_goal_of_tokens_as_the_plain_search_does() {
    for (puzzle, goal) in [
        (&["3x3"][..], "1 2 3/4 5 6/7 0 0"),
        (&["2x4"], "1 1 2 2/3 3 0 0"),
        (&["3x3"], "1 1 1/2 2 2/3 3 0"),
        (&["2x3"], "0 1 0/2 0 3"),
        (&["--graph", "theta0"], "1 1 2 3 4 5 0"),
        (&["--graph", "cycle:6"], "1 1 2 2 0 0"),
        (&["--graph", "petersen"], "1 1 2 2 3 3 0 0 0 0"),
        (&["--graph", "path:5"], "1 0 2 0 3"),
    ] {
        let results = tempfile::tempdir().unwrap();
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_tilespace"))
            .arg("analyze")
            .args(puzzle)
            .args(["--goal", goal, "--json", "-q", "-j", "2", "--results"])
            .arg(results.path())
            .output()
            .unwrap();
        assert!(out.status.success(), "{puzzle:?} {goal}: {out:?}");
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let g = ground_of(puzzle);
        let tokens = Tokens::parse(goal, g.vertices()).unwrap();
        let (layers, last) = goal_layers(&g, tokens.cells());
        let depths: Vec<u64> = serde_json::from_value(json["depths"].clone()).unwrap();
        assert_eq!(depths, layers, "{puzzle:?} {goal}");
        assert_eq!(json["eccentricity"], layers.len() - 1);
        assert_eq!(json["reachable"], layers.iter().sum::<u64>());
        let total = tokens.arrangements().to_string();
        assert_eq!(json["arrangements"].to_string(), total, "{goal}");
        let mut antipodes: Vec<Vec<u32>> = json["antipodes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| {
                let text = a.as_str().unwrap();
                Tokens::parse(text, g.vertices()).unwrap().cells().to_vec()
            })
            .collect();
        antipodes.sort();
        assert_eq!(antipodes, last, "{puzzle:?} {goal}");
        assert_eq!(json["verified"], true, "{goal}");
        // The reports: the layers, and the antipodes, as printed.
        let dir = std::fs::read_dir(results.path().join("tokens"))
            .unwrap()
            .next()
            .unwrap()
            .unwrap()
            .path();
        let mut rows = csv::Reader::from_path(dir.join("depths.csv")).unwrap();
        let written: Vec<u64> = rows
            .records()
            .map(|r| r.unwrap()[1].parse().unwrap())
            .collect();
        assert_eq!(written, layers, "{goal}");
        let mut rows = csv::Reader::from_path(dir.join("antipodes.csv")).unwrap();
        assert_eq!(rows.records().count(), last.len(), "{goal}");
    }
}

/// A goal of tokens that cannot be searched is refused in one line, exit 2, before any
/// search: the wrong number of tokens, no blank, a token that is not a number, rows that do
/// not draw the board, too many arrangements, more memory than allowed, the multi-tile
/// metric with several blanks or on a graph, several puzzles, a start board; and no report
/// folder is made.
#[test]
fn a_bad_goal_of_tokens_is_refused_in_one_line() {
    for (args, says) in [
        (&["3x3", "--goal", "1 2 3"][..], "names 3 tokens"),
        (&["3x3", "--goal", "1 2 3/4 5 6/7 8 9"], "no blank"),
        (
            &["3x3", "--goal", "1 x 3/4 5 6/7 8 0"],
            "'x' is not a token",
        ),
        (&["3x3", "--goal", "1 2 3 4/5 6 7 8 0"], "not a board"),
        (&["2x4", "--goal", "1 2 3/4 5 0/0 0"], "not a board"),
        (&["4x2", "--goal", "1 2 3 4/5 6 0 0"], "draw a 2x4 board"),
        (
            &["4x5", "--goal", "1 1 1 1 1/2 2 2 2 2/3 3 3 3 3/4 4 4 4 0"],
            "at most 2^32",
        ),
        (
            &[
                "4x4",
                "--goal",
                "1 1 1 1/2 2 2 2/3 3 3 3/4 4 4 0",
                "--max-memory",
                "1M",
            ],
            "over --max-memory",
        ),
        (
            &["3x3", "--goal", "1 2 3/4 5 6/7 0 0", "--metric", "multi"],
            "defined here for one blank",
        ),
        (
            &[
                "--graph",
                "cycle:5",
                "--goal",
                "1 1 2 3 0",
                "--metric",
                "multi",
            ],
            "a graph's tokens move one at a time",
        ),
        (
            &["3x3", "2x2", "--goal", "1 2 3/4 5 6/7 0 0"],
            "one board size",
        ),
        (
            &[
                "3x3",
                "--goal",
                "1 2 3/4 5 6/7 0 0",
                "--from",
                "1 2 3/4 5 6/7 8 0",
            ],
            "cannot be used with",
        ),
        (
            &["--graph", "cycle:5", "--goal", "1 2 0 0"],
            "names 4 tokens",
        ),
    ] {
        let results = tempfile::tempdir().unwrap();
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_tilespace"))
            .arg("analyze")
            .args(args)
            .arg("-q")
            .arg("--results")
            .arg(results.path())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains(says) && err.trim().lines().count() == 1,
            "{args:?}: {err}"
        );
        assert!(out.stdout.is_empty(), "{args:?}");
        // Refused before anything is written.
        assert!(!results.path().join("tokens").exists(), "{args:?}");
    }
}

/// The committed named cases (`docs/results/pebbles/graphs.csv`, made by
/// `scripts/reproduce-pebbles.sh` with the walk over multiset ranks) are the plain search's on
/// every row of up to 200,000 arrangements: the classes by size, the goal's class and its
/// eccentricity. The larger rows (Petersen with one to three blanks, the 15-puzzle's coloured
/// rows) are the walk's alone.
#[test]
fn the_committed_pebble_results_are_the_plain_search_s() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/results/pebbles/graphs.csv");
    let mut rows = csv::Reader::from_path(&path).unwrap();
    let header = rows.headers().unwrap().clone();
    let column = |name: &str| header.iter().position(|h| h == name).unwrap();
    let (g6, sizes, goal, states, eccentricity) = (
        column("graph6"),
        column("sizes"),
        column("goal"),
        column("goal_states"),
        column("eccentricity"),
    );
    let (mut checked, mut read) = (0, 0);
    for row in rows.records() {
        let row = row.unwrap();
        read += 1;
        let g = graph6::decode(&row[g6]).unwrap();
        let tokens = Tokens::parse(&row[goal], g.vertices()).unwrap();
        if tokens.arrangements() > BigUint::from(200_000u32) {
            continue;
        }
        let t = tokens.cells();
        let want: BTreeMap<u64, u64> = row[sizes]
            .split(' ')
            .map(|s| {
                let (size, count) = s.split_once('x').unwrap();
                (size.parse().unwrap(), count.parse().unwrap())
            })
            .collect();
        assert_eq!(classes(&g, t), want, "{:?}", &row);
        let (n, e) = goal_class(&g, t);
        assert_eq!(n.to_string(), &row[states], "{:?}", &row);
        assert_eq!(e.to_string(), &row[eccentricity], "{:?}", &row);
        checked += 1;
    }
    // θ0 ×5, Petersen's four blanks, the cycles ×4, the torus ×3, 2x4 ×2, 3x3 ×3, 3x4, the
    // spiders ×4.
    assert_eq!((checked, read), (23, 27));
}

/// `tilespace ARGS`: its exit code, standard output and standard error.
fn tilespace(args: &[&str]) -> (Option<i32>, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tilespace"))
        .args(args)
        .output()
        .unwrap();
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code(), text(&out.stdout), text(&out.stderr))
}

/// `count --graph` and `solvable --graph` (the graph read as adjacency lists, for graphs of
/// any size) on small graphs are the plain search's: the goal's class, the number of classes,
/// and whether each start (every arrangement, or 60 spread over them) is in the goal's class.
#[test]
fn count_and_solvable_on_graphs_as_the_plain_search_does() {
    let tree = Graph::new(6, &[(0, 1), (1, 2), (1, 3), (3, 4), (3, 5)]).unwrap();
    let tree = format!("graph6:{}", graph6::encode(&tree));
    for (spec, goal) in [
        ("cycle:5", "1 1 2 0 0"),
        ("graph6:Dhc", "1 2 3 4 0"),
        ("path:5", "1 2 0 3 0"),
        ("complete:1,3", "1 2 3 0"),
        ("theta0", "1 2 3 4 5 0 0"),
        ("theta0", "1 2 3 4 5 6 0"),
        ("theta0", "1 1 2 2 3 0 3"),
        ("grid:2x3", "1 2 3 4 5 0"),
        ("petersen", "1 1 2 2 3 3 0 0 0 0"),
        ("complete:2,3", "1 1 2 3 0"),
        ("complete:1,3", "1 1 2 0"),
        // A tree of 6 vertices that is not a star nor a path: 1-2, 2-3, 2-4, 4-5, 4-6.
        (&*tree, "1 1 2 3 0 2"),
        (&*tree, "1 2 3 4 5 0"),
        // Several blanks on the tree (Auletta et al.): distinct tiles, and colours.
        (&*tree, "1 2 3 0 4 0"),
        (&*tree, "1 1 0 2 2 0"),
        (&*tree, "1 2 0 0 3 0"),
    ] {
        let g = tilespace::graph::spec::NamedGraph::parse(spec)
            .unwrap()
            .graph;
        let t: Vec<u32> = goal.split(' ').map(|w| w.parse().unwrap()).collect();
        let class = class_map(&g, &t);
        let goal_class = class.values().filter(|&&c| c == class[&t]).count();
        let classes = class
            .values()
            .collect::<std::collections::BTreeSet<_>>()
            .len();
        let (code, out, err) = tilespace(&["count", "--graph", spec, "--goal", goal, "--json"]);
        assert_eq!(code, Some(0), "{spec} {goal}: {err}");
        let json: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(json["reachable"], goal_class.to_string(), "{spec} {goal}");
        assert_eq!(json["classes"], classes.to_string(), "{spec} {goal}");
        assert_eq!(
            json["arrangements"],
            class.len().to_string(),
            "{spec} {goal}"
        );
        let mut starts: Vec<&Vec<u32>> = class.keys().collect();
        starts.sort();
        let step = starts.len().div_ceil(60);
        for a in starts.iter().step_by(step) {
            let text: Vec<String> = a.iter().map(u32::to_string).collect();
            let args = ["solvable", &text.join(" "), "--graph", spec, "--goal", goal];
            let (code, _, err) = tilespace(&args);
            let want = if class[*a] == class[&t] { 0 } else { 1 };
            assert_eq!(code, Some(want), "{spec} {goal} from {a:?}: {err}");
        }
    }
}

/// The vertices beside `v` on the R×C torus in reading order (both sides 3 or more), by hand.
fn torus_neighbours(rows: usize, cols: usize, v: usize) -> [usize; 4] {
    let (r, c) = (v / cols, v % cols);
    [
        (r + rows - 1) % rows * cols + c,
        (r + 1) % rows * cols + c,
        r * cols + (c + cols - 1) % cols,
        r * cols + (c + 1) % cols,
    ]
}

/// On graphs of thousands of vertices, `solvable --graph` agrees with moves made by hand: a
/// start that 20,000 random moves reach from the goal is solvable; on the 100x100 torus
/// (bipartite) with one blank, that start with two tiles swapped is not (a move swaps the
/// blank with a tile and changes the blank's colour, so the permutation's parity and the
/// blank's colour change together); on a cycle of 5,000 vertices, any rotation is solvable and
/// a swap of two tokens is not (a move keeps the cyclic order); on a tree of 2,101 vertices
/// with two blanks, likewise a random walk and a swap of two tokens that cannot pass.
#[test]
fn solvable_decides_graphs_of_thousands_of_vertices() {
    let words = |t: &[u32]| t.iter().map(u32::to_string).collect::<Vec<_>>().join(" ");
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut random = move |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    let n = 100 * 100;
    let goal: Vec<u32> = (1..n as u32).chain([0]).collect();
    let mut start = goal.clone();
    let mut blank = n - 1;
    for _ in 0..20_000 {
        let to = torus_neighbours(100, 100, blank)[random(4)];
        start.swap(blank, to);
        blank = to;
    }
    let solvable = |start: &[u32], spec: &str, goal: &[u32]| {
        let (code, _, err) = tilespace(&[
            "solvable",
            &words(start),
            "--graph",
            spec,
            "--goal",
            &words(goal),
        ]);
        assert!(matches!(code, Some(0 | 1)), "{err}");
        code == Some(0)
    };
    assert!(solvable(&start, "torus:100x100", &goal));
    let tiles: Vec<usize> = (0..n).filter(|&v| start[v] != 0).take(2).collect();
    start.swap(tiles[0], tiles[1]);
    assert!(!solvable(&start, "torus:100x100", &goal));
    // Tile 1 a second blank, in the goal and the start: every arrangement is reachable
    // (Kornhauser, Miller and Spirakis), the swapped one too.
    let second =
        |t: &[u32]| -> Vec<u32> { t.iter().map(|&x| if x == 1 { 0 } else { x }).collect() };
    assert!(solvable(&second(&start), "torus:100x100", &second(&goal)));

    let n = 5_000;
    let cycle: Vec<u32> = (1..=n as u32 - 3).chain([0, 0, 0]).collect();
    let mut rotated = cycle.clone();
    rotated.rotate_left(1_234);
    let spec = format!("cycle:{n}");
    assert!(solvable(&rotated, &spec, &cycle));
    rotated.swap(20, 21);
    assert!(!solvable(&rotated, &spec, &cycle));

    // A spider of three legs of 700 vertices around vertex 1, two blanks beside it: a random
    // walk of the blanks reaches its end; the tokens at the far ends of two legs swapped do
    // not, as neither can come near the centre (the 699 tokens in front of it would need 699
    // empty vertices elsewhere, and there are 2).
    let (legs, length) = (3, 700);
    let n = 1 + legs * length;
    let edges: Vec<String> = (0..legs)
        .flat_map(|l| {
            (0..length).map(move |i| {
                let v = 2 + l * length + i;
                let u = if i == 0 { 1 } else { v - 1 };
                format!("{u} {v}")
            })
        })
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("spider.txt");
    std::fs::write(&file, edges.join("\n")).unwrap();
    let spec = file.to_str().unwrap();
    let neighbours = |v: usize| -> Vec<usize> {
        // 0-based: the centre 0; leg l's i-th vertex 1 + l * length + i.
        if v == 0 {
            return (0..legs).map(|l| 1 + l * length).collect();
        }
        let i = (v - 1) % length;
        let mut out = vec![if i == 0 { 0 } else { v - 1 }];
        if i + 1 < length {
            out.push(v + 1);
        }
        out
    };
    let mut goal: Vec<u32> = (1..=n as u32 - 2).collect();
    goal.insert(1, 0);
    goal.insert(1 + length, 0);
    let mut start = goal.clone();
    for _ in 0..20_000 {
        let blanks: Vec<usize> = (0..n).filter(|&v| start[v] == 0).collect();
        let blank = blanks[random(2)];
        let around = neighbours(blank);
        let to = around[random(around.len())];
        start.swap(blank, to);
    }
    assert!(solvable(&start, spec, &goal));
    let mut swapped = goal.clone();
    swapped.swap(length, 2 * length);
    assert!(!solvable(&swapped, spec, &goal));
}

/// On a star of 200,000 vertices with three blanks, any two leaves' tokens swap (a junction
/// with blanks in two branches), so a start with two swapped is solvable and `count` finds one
/// class (of 14 labels twice on a star of 30 too; 99,999 labels twice are too many to split);
/// a caterpillar of 100,000 vertices (a path with a leaf on each vertex but its ends:
/// 49,999 junctions) is past what the exchange classes take here, and refused in one line.
#[test]
fn trees_of_many_vertices_are_decided_or_refused() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: String| -> String {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        path.display().to_string()
    };
    let words = |t: &[u32]| t.iter().map(u32::to_string).collect::<Vec<_>>().join(" ");
    let n = 200_000u32;
    let star = write(
        "star.txt",
        (2..=n)
            .map(|v| format!("1 {v}"))
            .collect::<Vec<_>>()
            .join("\n"),
    );
    let goal: Vec<u32> = (1..n - 2).chain([0, 0, 0]).collect();
    let mut start = goal.clone();
    start.swap(10, 20_000);
    let (goal_file, start_file) = (
        write("goal.txt", words(&goal)),
        write("start.txt", words(&start)),
    );
    let goal_arg = format!("@{goal_file}");
    let on_star = |first: &[&str]| {
        let mut args = first.to_vec();
        args.extend(["--graph", &star, "--goal", &goal_arg, "--json"]);
        tilespace(&args)
    };
    let (code, _, err) = on_star(&["solvable", &format!("@{start_file}")]);
    assert_eq!(code, Some(0), "{err}");
    let (code, out, err) = on_star(&["count"]);
    assert_eq!(code, Some(0), "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["classes"], "1");
    // Every label twice: too many labels to split among the classes, refused in one line; on
    // a star of 30 vertices, 14 labels twice are one class at once.
    let pairs: Vec<u32> = (1..n / 2).flat_map(|l| [l, l]).chain([0, 0]).collect();
    let pairs_file = write("pairs.txt", words(&pairs));
    let (code, _, err) = tilespace(&[
        "count",
        "--graph",
        &star,
        "--goal",
        &format!("@{pairs_file}"),
    ]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("labels") && err.trim().lines().count() == 1,
        "{err}"
    );
    let small = write(
        "star30.txt",
        (2..=30)
            .map(|v| format!("1 {v}"))
            .collect::<Vec<_>>()
            .join("\n"),
    );
    let pairs: Vec<u32> = (1..=14).flat_map(|l| [l, l]).chain([0, 0]).collect();
    let (code, out, err) = tilespace(&[
        "count",
        "--graph",
        &small,
        "--goal",
        &words(&pairs),
        "--json",
    ]);
    assert_eq!(code, Some(0), "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["classes"], "1");

    // The caterpillar: the spine 1..=m, vertex m + v a leaf of spine vertex v (2 <= v < m).
    let m = 50_001u32;
    let edges: Vec<String> = (1..m)
        .map(|v| format!("{v} {}", v + 1))
        .chain((2..m).map(|v| format!("{v} {}", m + v - 1)))
        .collect();
    let caterpillar = write("caterpillar.txt", edges.join("\n"));
    let vertices = m + (m - 2);
    let goal: Vec<u32> = (1..vertices - 1).chain([0, 0]).collect();
    let goal_file = write("caterpillar-goal.txt", words(&goal));
    let (code, out, err) = tilespace(&[
        "count",
        "--graph",
        &caterpillar,
        "--goal",
        &format!("@{goal_file}"),
    ]);
    assert_eq!(code, Some(2), "{err}");
    assert!(out.is_empty() && err.trim().lines().count() == 1, "{err}");
    assert!(err.contains("junctions times vertices"), "{err}");
    assert!(
        err.len() < 600,
        "the tokens named in a few words: {}",
        err.len()
    );
}

/// Tokens too many for one argument (200,000 on a cycle: past the kernel's 128 KiB an
/// argument) are read from `@FILE` by `solvable` (its start and goal), `count` and `random`,
/// and from standard input by `@-`: a rotation is solvable, a swap of two tokens is not (a
/// cycle keeps the cyclic order); a file that cannot be read is one line and exit 2.
#[test]
fn tokens_too_many_for_an_argument_are_read_from_files() {
    let n = 200_000;
    let goal: Vec<u32> = (1..=n - 2).chain([0, 0]).collect();
    let mut start = goal.clone();
    start.rotate_left(77_777);
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, t: &[u32]| -> String {
        let path = dir.path().join(name);
        let words: Vec<String> = t.iter().map(u32::to_string).collect();
        std::fs::write(&path, words.join("\n")).unwrap();
        format!("@{}", path.display())
    };
    let spec = format!("cycle:{n}");
    let (goal_file, start_file) = (write("goal.txt", &goal), write("start.txt", &start));
    let solvable = |start: &str| {
        let args = [
            "solvable", start, "--graph", &spec, "--goal", &goal_file, "--json",
        ];
        let (code, out, err) = tilespace(&args);
        assert!(matches!(code, Some(0 | 1)), "{err}");
        assert!(
            out.contains("\"solvable\""),
            "{}",
            &out[..out.len().min(200)]
        );
        code == Some(0)
    };
    assert!(solvable(&start_file));
    start.swap(10, 11);
    assert!(!solvable(&write("swapped.txt", &start)));

    let (code, out, err) = tilespace(&["count", "--graph", &spec, "--goal", &goal_file, "--json"]);
    assert_eq!(code, Some(0), "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    // A class is every placement of the blanks, C(n, 2), times the n - 2 rotations.
    let placements = u64::from(n) * u64::from(n - 1) / 2;
    assert_eq!(
        json["reachable"],
        (placements * u64::from(n - 2)).to_string()
    );

    // `@-`: standard input.
    let args = [
        "random", "--graph", "cycle:5", "--goal", "@-", "--seed", "3",
    ];
    let out = crate::common::tilespace_reading(&args, dir.path(), b"1 2\n3 0 0\n");
    assert_eq!(out.status.code(), Some(0));
    let drawn = String::from_utf8(out.stdout).unwrap();
    let drawn = Tokens::parse(&drawn, 5).unwrap();
    assert_eq!(
        drawn.multiplicities(),
        Tokens::parse("1 2 3 0 0", 5).unwrap().multiplicities()
    );

    let missing = format!("@{}", dir.path().join("none.txt").display());
    let (code, out, err) = tilespace(&["count", "--graph", "cycle:5", "--goal", &missing]);
    assert_eq!(code, Some(2), "{err}");
    assert!(out.is_empty() && err.trim().lines().count() == 1, "{err}");
    assert!(err.contains("none.txt"), "{err}");
}

/// What `count --graph` and `solvable --graph` cannot answer is one line and exit 2: a graph
/// with a cut vertex that no theorem here decides, one past the size the lists take, tokens
/// that do not fit the graph, a start of other tokens; and on a board, tokens whose rows draw
/// another board.
#[test]
fn count_and_solvable_on_graphs_refuse_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    // Two triangles sharing vertex 3: a cut vertex, not a tree.
    let bowtie = dir.path().join("bowtie.txt");
    std::fs::write(&bowtie, "1 2\n2 3\n3 1\n3 4\n4 5\n5 3\n").unwrap();
    let bowtie = bowtie.to_str().unwrap();
    for (args, says) in [
        (&["count", "--graph", bowtie][..], "cut vertex"),
        (&["solvable", "1 2 0 3 4", "--graph", bowtie], "cut vertex"),
        (&["count", "--graph", "grid:2000x2000"], "at most 1048576"),
        (
            &["count", "--graph", "cycle:5", "--goal", "1 2 0"],
            "names 3 tokens",
        ),
        (
            &["solvable", "1 2 0", "--graph", "cycle:5"],
            "names 3 tokens",
        ),
        (
            &["solvable", "1 1 0 0 2", "--graph", "cycle:5"],
            "no move changes the tokens",
        ),
        (
            &["count", "--graph", "cycle:5", "--goal", "1 2 3 4 5"],
            "no blank",
        ),
        (
            &["count", "3x3", "--graph", "cycle:9"],
            "cannot be used with",
        ),
        // A board string must draw the board it is for.
        (
            &["count", "4x2", "--goal", "1 2 3 4/5 6 0 0"],
            "draw a 2x4 board",
        ),
        (
            &["random", "4x2", "--goal", "1 2 3 4/5 6 0 0"],
            "draw a 2x4 board",
        ),
        (
            &[
                "solvable",
                "1 2 3 4/5 6 0 0",
                "--shape",
                "4x2",
                "--goal",
                "1 2/3 4/5 6/0 0",
            ],
            "draw a 2x4 board",
        ),
        (
            &["solvable", "1 0", "--graph", "path:2", "--shape", "1x2"],
            "cannot be used with",
        ),
    ] {
        let (code, out, err) = tilespace(args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(
            err.contains(says) && err.trim().lines().count() == 1,
            "{args:?}: {err}"
        );
        assert!(out.is_empty(), "{args:?}");
    }
}

/// `analyze RxC --goal TOKENS --metric multi` (one blank; tokens that repeat, or distinct):
/// the layers and the antipodes are the plain search's by slides of its own (`slides`), the
/// reachable count the single-tile one's (the same arrangements), and the run verified.
#[test]
fn analyze_multi_tile_goals_as_the_plain_search_does() {
    for (rows, cols, goal) in [
        (3, 3, "1 1 1/2 2 2/3 3 0"),
        (2, 4, "1 1 2 2/3 3 4 0"),
        (3, 2, "1 1/2 2/3 0"),
        (2, 5, "1 1 1 1 1/2 2 2 2 0"),
        (1, 5, "1 2 1 2 0"),
        (2, 3, "1 2 3/4 5 0"),
        (3, 3, "0 1 2/3 4 5/6 7 8"),
    ] {
        let results = tempfile::tempdir().unwrap();
        let board = format!("{rows}x{cols}");
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_tilespace"))
            .args(["analyze", &board, "--goal", goal, "--metric", "multi"])
            .args(["--json", "-q", "--results"])
            .arg(results.path())
            .output()
            .unwrap();
        assert!(out.status.success(), "{board} {goal}: {out:?}");
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let tokens = Tokens::parse(goal, rows * cols).unwrap();
        let (layers, last) = goal_layers_by(tokens.cells(), |a| slides(rows, cols, a));
        let depths: Vec<u64> = serde_json::from_value(json["depths"].clone()).unwrap();
        assert_eq!(depths, layers, "{board} {goal}");
        let single = goal_layers(&family::grid(rows, cols).unwrap(), tokens.cells()).0;
        assert_eq!(
            json["reachable"],
            single.iter().sum::<u64>(),
            "{board} {goal}"
        );
        let mut antipodes: Vec<Vec<u32>> = json["antipodes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| {
                Tokens::parse(a.as_str().unwrap(), rows * cols)
                    .unwrap()
                    .cells()
                    .to_vec()
            })
            .collect();
        antipodes.sort();
        assert_eq!(antipodes, last, "{board} {goal}");
        assert_eq!(json["metric"], "multi-tile");
        assert_eq!(json["verified"], true, "{board} {goal}");
        let folder = results.path().join("tokens").join(format!(
            "{board}-{}-multi",
            tokens
                .cells()
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join("-")
        ));
        assert!(folder.join("depths.csv").is_file(), "{}", folder.display());
    }
}

/// `random_in_class` draws every arrangement of the goal's class (the plain search's), only
/// those, and each about as often (a chi-square of at most its degrees of freedom plus six
/// standard deviations, 100 draws an arrangement, a fixed seed): on a path, a cycle, a tree,
/// a bipartite graph with one blank (half of a shuffle's swapped), θ0 with two blanks, and on
/// boards (a line, 2x2, 2x3) by `random_in_class_on_board`.
#[test]
fn random_arrangements_are_uniform_over_the_goal_s_class() {
    use tilespace::graph::pebbles::{random_in_class, random_in_class_on_board};
    use tilespace::puzzle::random::Rng;
    let tree = Graph::new(6, &[(0, 1), (1, 2), (1, 3), (3, 4), (3, 5)]).unwrap();
    // A graph, the board it is drawn on (rows and columns) if any, the goal.
    type Case<'a> = (Graph, Option<(usize, usize)>, &'a str);
    let cases: Vec<Case> = vec![
        (family::path(5).unwrap(), None, "1 2 0 3 0"),
        (family::cycle(6).unwrap(), None, "1 2 1 2 0 0"),
        (family::cycle(5).unwrap(), None, "1 1 2 0 0"),
        (tree.clone(), None, "1 1 2 3 0 2"),
        (tree.clone(), None, "1 2 3 0 4 0"),
        (tree, None, "1 1 2 0 0 2"),
        (family::grid(2, 3).unwrap(), None, "1 2 3 4 5 0"),
        (family::theta0(), None, "1 2 3 4 5 0 0"),
        (family::theta0(), None, "1 1 2 3 4 0 5"),
        (family::grid(1, 5).unwrap(), Some((1, 5)), "1 0 2 0 3"),
        (family::grid(2, 2).unwrap(), Some((2, 2)), "1 2 3 0"),
        (family::grid(2, 3).unwrap(), Some((2, 3)), "1 1 2 2 3 0"),
    ];
    let mut rng = Rng::new(7);
    for (g, board, goal) in cases {
        let t: Vec<u32> = goal.split(' ').map(|w| w.parse().unwrap()).collect();
        let class = class_map(&g, &t);
        let members: Vec<&Vec<u32>> = class.keys().filter(|a| class[*a] == class[&t]).collect();
        let goal_tokens = Tokens::new(t.clone()).unwrap();
        let draws = 100 * members.len();
        let mut seen: HashMap<Vec<u32>, usize> = HashMap::new();
        for _ in 0..draws {
            let a = match board {
                None => random_in_class(&g, &goal_tokens, &mut rng).unwrap(),
                Some((r, c)) => {
                    let shape = tilespace::Shape::new(r, c).unwrap();
                    random_in_class_on_board(shape, &goal_tokens, &mut rng)
                }
            };
            let a = a.cells().to_vec();
            assert_eq!(
                class[&a], class[&t],
                "{goal}: {a:?} is not in the goal's class"
            );
            *seen.entry(a).or_default() += 1;
        }
        assert_eq!(
            seen.len(),
            members.len(),
            "{goal}: not every arrangement drawn"
        );
        let expected = draws as f64 / members.len() as f64;
        let chi2: f64 = seen
            .values()
            .map(|&o| (o as f64 - expected).powi(2) / expected)
            .sum();
        let free = members.len() as f64 - 1.0;
        assert!(
            chi2 <= free + 6.0 * (2.0 * free).sqrt(),
            "{goal}: chi-square {chi2:.1} over {free} degrees of freedom"
        );
    }
}

/// `random --goal` and `random --graph` through the command line: every arrangement printed is
/// in the goal's class (the plain search's), the same seed prints the same ones, and a graph
/// no theorem here decides is refused in one line before a seed is told.
#[test]
fn random_arrangements_from_the_command_line() {
    for (puzzle, goal) in [
        (&["3x3"][..], "1 1 1/2 2 2/3 0 0"),
        (&["2x3"], "1 2 3/4 5 0"),
        (&["--graph", "cycle:6"], "1 2 1 2 0 0"),
        (&["--graph", "petersen"], "1 1 2 2 3 3 0 0 0 0"),
    ] {
        let g = ground_of(puzzle);
        let t = Tokens::parse(goal, g.vertices()).unwrap().cells().to_vec();
        let class = class_map(&g, &t);
        let mut args = vec!["random"];
        args.extend(puzzle);
        args.extend(["--goal", goal, "--seed", "11", "--count", "40", "--json"]);
        let (code, out, err) = tilespace(&args);
        assert_eq!(code, Some(0), "{args:?}: {err}");
        let json: serde_json::Value = serde_json::from_str(&out).unwrap();
        let drawn = json["arrangements"].as_array().unwrap();
        assert_eq!(drawn.len(), 40);
        for a in drawn {
            let a = Tokens::parse(a.as_str().unwrap(), g.vertices()).unwrap();
            assert_eq!(class[a.cells()], class[&t], "{args:?}: {a}");
        }
        assert_eq!(
            tilespace(&args).1,
            out,
            "{args:?}: the same seed, the same arrangements"
        );
    }
    // Two triangles sharing a vertex: a cut vertex, not a tree.
    let bowtie = Graph::new(5, &[(0, 1), (1, 2), (2, 0), (2, 3), (3, 4), (4, 2)]).unwrap();
    let bowtie = format!("graph6:{}", graph6::encode(&bowtie));
    let (code, out, err) = tilespace(&["random", "--graph", &bowtie]);
    assert_eq!(code, Some(2), "{err}");
    assert!(out.is_empty() && err.trim().lines().count() == 1, "{err}");
}

/// The depth of every arrangement the goal reaches by the moves `moves` gives: the plain
/// search's.
fn depths_by(goal: &[u32], moves: impl Fn(&[u32]) -> Vec<Vec<u32>>) -> HashMap<Vec<u32>, u64> {
    let mut depth = HashMap::from([(goal.to_vec(), 0u64)]);
    let mut queue = VecDeque::from([goal.to_vec()]);
    while let Some(a) = queue.pop_front() {
        let d = depth[&a];
        for b in moves(&a) {
            if !depth.contains_key(&b) {
                depth.insert(b.clone(), d + 1);
                queue.push_back(b);
            }
        }
    }
    depth
}

/// `analyze --goal TOKENS --save-table FILE`, then `distance --table FILE` of every
/// arrangement and `solve` of a spread of them: each distance is the plain search's (its own
/// moves, single- or multi-tile), an arrangement the goal does not reach is answered not
/// solvable (exit status 1), and each way to the goal starts at the arrangement asked, ends
/// at the goal, is as long as the distance and goes one move (the plain search's) at a time.
#[test]
fn saved_tables_of_tokens_answer_as_the_plain_search_does() {
    for (puzzle, goal, metric) in [
        (&["2x4"][..], "1 1 2 2/3 3 0 0", "single"),
        (&["2x3"], "1 2 3/4 5 0", "multi"),
        (&["3x3"], "1 1 1/2 2 2/3 3 0", "multi"),
        (&["2x3"], "0 1 0/2 0 3", "single"),
        (&["--graph", "theta0"], "1 2 3 4 5 6 0", "single"),
        (&["--graph", "petersen"], "1 1 2 2 3 3 0 0 0 0", "single"),
        (&["--graph", "path:5"], "1 0 2 0 3", "single"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let table = dir.path().join("t.tst");
        let table = table.to_str().unwrap();
        let mut args = vec!["analyze"];
        args.extend(puzzle);
        let results = dir.path().join("results");
        args.extend([
            "--goal",
            goal,
            "--metric",
            metric,
            "--save-table",
            table,
            "-q",
        ]);
        args.extend(["--results", results.to_str().unwrap()]);
        let (code, _, err) = tilespace(&args);
        assert_eq!(code, Some(0), "{args:?}: {err}");
        let g = ground_of(puzzle);
        let n = g.vertices();
        let t = Tokens::parse(goal, n).unwrap().cells().to_vec();
        let cols = match puzzle {
            [board] => board.split_once('x').unwrap().1.parse().unwrap(),
            _ => 0,
        };
        let depths = match metric {
            "multi" => depths_by(&t, |a| slides(n / cols, cols, a)),
            _ => depths_by(&t, |a| moves(&g, a).collect()),
        };
        let written = |a: &[u32]| match cols {
            0 => Tokens::new(a.to_vec()).unwrap().to_string(),
            c => Tokens::new(a.to_vec()).unwrap().rows(c),
        };
        let all = arrangements(&t);
        let input = dir.path().join("all.txt");
        let lines: Vec<String> = all.iter().map(|a| written(a)).collect();
        std::fs::write(&input, lines.join("\n")).unwrap();
        let input = input.to_str().unwrap();
        let (code, out, err) =
            tilespace(&["distance", "--table", table, "--input", input, "--json"]);
        let reached = all.iter().all(|a| depths.contains_key(a));
        assert_eq!(code, Some(if reached { 0 } else { 1 }), "{goal}: {err}");
        let json: serde_json::Value = serde_json::from_str(&out).unwrap();
        let answers = json["answers"].as_array().unwrap();
        assert_eq!(answers.len(), all.len(), "{goal}");
        let opened =
            tilespace::store::tokens::TokenTable::open(std::path::Path::new(table)).unwrap();
        for (a, answer) in all.iter().zip(answers) {
            assert_eq!(answer["board"], written(a), "{goal}");
            let distance = opened.distance(&Tokens::new(a.clone()).unwrap()).ok();
            assert_eq!(distance.map(u64::from), depths.get(a).copied(), "{goal}");
            match depths.get(a) {
                Some(&d) => assert_eq!(answer["distance"], d, "{goal}: {}", written(a)),
                None => assert_eq!(answer["solvable"], false, "{goal}: {}", written(a)),
            }
        }
        let spread: Vec<&str> = lines
            .iter()
            .step_by(all.len() / 40 + 1)
            .map(|s| s.as_str())
            .collect();
        let next = |a: &[u32]| match metric {
            "multi" => slides(n / cols, cols, a),
            _ => moves(&g, a).collect(),
        };
        check_ways(table, &spread, &depths, next, &t);
    }
}

/// `solve --table TABLE` of each of `starts`: a way to the goal `t` as long as the start's
/// depth in `depths`, one move of `next` at a time; or not solvable where it has none.
fn check_ways(
    table: &str,
    starts: &[&str],
    depths: &HashMap<Vec<u32>, u64>,
    next: impl Fn(&[u32]) -> Vec<Vec<u32>>,
    t: &[u32],
) {
    let n = t.len();
    let mut args = vec!["solve", "--table", table, "--json"];
    args.extend(starts);
    let (_, out, err) = tilespace(&args);
    let json: serde_json::Value = serde_json::from_str(&out).unwrap_or_else(|_| panic!("{err}"));
    for (start, answer) in starts.iter().zip(json["answers"].as_array().unwrap()) {
        let start = Tokens::parse(start, n).unwrap().cells().to_vec();
        let Some(&d) = depths.get(&start) else {
            assert_eq!(answer["solvable"], false);
            continue;
        };
        let way: Vec<Vec<u32>> = answer["path"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| {
                Tokens::parse(s.as_str().unwrap(), n)
                    .unwrap()
                    .cells()
                    .to_vec()
            })
            .collect();
        assert_eq!(answer["moves"], d);
        assert_eq!(way.len() as u64, d + 1, "{start:?}");
        assert_eq!((&way[0], &way[way.len() - 1][..]), (&start, t));
        for step in way.windows(2) {
            assert!(
                next(&step[0]).contains(&step[1]),
                "{:?} to {:?}",
                step[0],
                step[1]
            );
        }
    }
}

/// A table of tokens whose any byte is changed, or forged past its checksums (a code changed,
/// the layers changed), is refused; so, in one line and exit status 2, are questions it does
/// not answer: other tokens, another goal blank, metric or board, and a graph's table asked
/// for without the goal's tokens.
#[test]
fn a_table_of_tokens_refuses_damage_and_other_questions() {
    use tilespace::store::tokens::{reseal, TokenTable};
    let dir = tempfile::tempdir().unwrap();
    let table = dir.path().join("t.tst");
    let results = dir.path().join("results");
    let (table_s, results_s) = (table.to_str().unwrap(), results.to_str().unwrap());
    let (code, _, err) = tilespace(&[
        "analyze",
        "--graph",
        "cycle:6",
        "--goal",
        "1 1 2 2 0 0",
        "--save-table",
        table_s,
        "-q",
        "--results",
        results_s,
    ]);
    assert_eq!(code, Some(0), "{err}");
    let good = std::fs::read(&table).unwrap();
    assert!(TokenTable::open(&table).is_ok());
    let bad = dir.path().join("bad.tst");
    for at in 0..good.len() {
        let mut bytes = good.clone();
        bytes[at] ^= 0x10;
        std::fs::write(&bad, &bytes).unwrap();
        assert!(TokenTable::open(&bad).is_err(), "byte {at} changed");
    }
    for cut in [0, 10, 64, good.len() - 1] {
        std::fs::write(&bad, &good[..cut]).unwrap();
        assert!(TokenTable::open(&bad).is_err(), "cut at {cut}");
    }
    // Forged, the checksums made again: the code of the last word's first slot changed (90
    // arrangements, 3 words); the first layer count changed.
    let last = good.len() - 8;
    let mut forged = good.clone();
    forged[last] ^= 0b11;
    reseal(&mut forged);
    std::fs::write(&bad, &forged).unwrap();
    let e = TokenTable::open(&bad)
        .err()
        .expect("a code changed")
        .to_string();
    assert!(
        e.contains("depth mod 3") || e.contains("past its last"),
        "{e}"
    );
    let layer_at = 64 + 8 * (6 + 1 + 1);
    let mut forged = good.clone();
    forged[layer_at] += 1;
    reseal(&mut forged);
    std::fs::write(&bad, &forged).unwrap();
    assert!(TokenTable::open(&bad).is_err(), "a layer count changed");
    for args in [
        &["distance", "--table", table_s, "1 2 2 0 0 0"][..],
        &["distance", "--table", table_s, "1 1 2 2 0"],
        &[
            "distance",
            "--table",
            table_s,
            "--blank",
            "1",
            "1 1 2 2 0 0",
        ],
        &[
            "distance",
            "--table",
            table_s,
            "--metric",
            "multi",
            "1 1 2 2 0 0",
        ],
        &[
            "distance",
            "--table",
            table_s,
            "--shape",
            "2x3",
            "1 1 2 2 0 0",
        ],
        &["analyze", "--graph", "cycle:6", "--save-table", table_s],
    ] {
        let (code, out, err) = tilespace(args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(
            out.is_empty() && err.trim().lines().count() == 1,
            "{args:?}: {err}"
        );
    }
    let (code, out, _) = tilespace(&["distance", "--table", table_s, "1 2 1 2 0 0"]);
    assert_eq!(code, Some(1), "a cycle keeps the tokens' cyclic order");
    assert!(out.contains("not solvable"), "{out}");
}

/// Checks each row of a `tokens-summary.csv` (as JSON rows, `table --tokens --format json`)
/// of at most 200,000 arrangements against the plain search: the reachable count, eccentricity,
/// antipodes and exact mean, and the arrangements (`arrangements`, listed one by one); how
/// many it checked.
fn check_token_rows(rows: &[serde_json::Value]) -> usize {
    let mut checked = 0;
    for row in rows {
        let puzzle = row["puzzle"].as_str().unwrap();
        let metric = row["metric"].as_str().unwrap();
        let (g, cols) = match puzzle.split_once('x') {
            Some((_, c)) if puzzle.chars().next().unwrap().is_ascii_digit() => {
                (ground_of(&[puzzle]), c.parse().unwrap())
            }
            _ => (ground_of(&["--graph", puzzle]), 0),
        };
        let n = g.vertices();
        let goal = Tokens::parse(row["goal"].as_str().unwrap(), n).unwrap();
        if goal.arrangements() > BigUint::from(200_000u32) {
            continue;
        }
        let t = goal.cells();
        let depths = match metric {
            "multi" => depths_by(t, |a| slides(n / cols, cols, a)),
            _ => depths_by(t, |a| moves(&g, a).collect()),
        };
        let eccentricity = *depths.values().max().unwrap();
        let sum: u64 = depths.values().sum();
        let at_most = depths.values().filter(|&&d| d == eccentricity).count();
        assert_eq!(row["arrangements"], arrangements(t).len(), "{row}");
        assert_eq!(row["reachable"], depths.len(), "{row}");
        assert_eq!(row["eccentricity"], eccentricity, "{row}");
        assert_eq!(row["antipodes"], at_most, "{row}");
        let (mut a, mut b) = (sum, depths.len() as u64);
        while b != 0 {
            (a, b) = (b, a % b);
        }
        let (num, den) = (sum / a, depths.len() as u64 / a);
        let mean = if den == 1 {
            num.to_string()
        } else {
            format!("{num}/{den}")
        };
        assert_eq!(row["mean_depth_exact"], mean, "{row}");
        assert_eq!(row["tokens"], goal.notation(), "{row}");
        assert_eq!(row["verified"], true, "{row}");
        checked += 1;
    }
    checked
}

/// `analyze --goal` adds a row a run to `tokens-summary.csv` (a run again replaces its row),
/// and `table --tokens` shows them: each the plain search's figures; the committed table of
/// `docs/results/pebbles` too, for every row small enough to search plainly.
#[test]
fn the_table_of_tokens_is_the_plain_search_s() {
    let dir = tempfile::tempdir().unwrap();
    let results = dir.path().to_str().unwrap();
    for (puzzle, goal, metric) in [
        (&["2x4"][..], "1 1 2 2/3 3 0 0", "single"),
        (&["3x3"], "1 1 1/2 2 2/3 3 0", "multi"),
        (&["--graph", "theta0"], "1 2 3 4 5 0 0", "single"),
        (&["2x4"], "1 1 2 2/3 3 0 0", "single"),
    ] {
        let mut args = vec!["analyze"];
        args.extend(puzzle);
        args.extend([
            "--goal",
            goal,
            "--metric",
            metric,
            "-q",
            "--results",
            results,
        ]);
        let (code, _, err) = tilespace(&args);
        assert_eq!(code, Some(0), "{args:?}: {err}");
    }
    let (code, out, err) = tilespace(&["table", "--tokens", "--json", "--results", results]);
    assert_eq!(code, Some(0), "{err}");
    let rows: Vec<serde_json::Value> = serde_json::from_str(&out).unwrap();
    assert_eq!(rows.len(), 3, "the 2x4 run twice is one row");
    assert_eq!(check_token_rows(&rows), 3);
    let committed = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/results/pebbles");
    let (code, out, err) = tilespace(&[
        "table",
        "--tokens",
        "--json",
        "--results",
        committed.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(0), "{err}");
    let rows: Vec<serde_json::Value> = serde_json::from_str(&out).unwrap();
    // 3x3 with two blanks and with coloured rows (both metrics), 3x4 with coloured rows (both),
    // θ0, Petersen, the torus; not 2x5 and 3x4 with two or three blanks, 4x4's coloured rows
    // (both metrics, and with two blanks) nor 3x5's coloured columns (both).
    assert_eq!((check_token_rows(&rows), rows.len()), (8, 16));
}

/// `plot --tokens` draws each run's layers: the coordinates of its pgfplots chart are the
/// plain search's arrangements at each depth.
#[test]
fn plot_tokens_draws_the_plain_search_s_layers() {
    for (puzzle, goal) in [
        (&["2x4"][..], "1 1 2 2/3 3 0 0"),
        (&["--graph", "cycle:6"], "1 1 2 2 0 0"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let results = dir.path().to_str().unwrap();
        let mut args = vec!["analyze"];
        args.extend(puzzle);
        args.extend(["--goal", goal, "-q", "--results", results]);
        assert_eq!(tilespace(&args).0, Some(0), "{args:?}");
        let (code, out, err) = tilespace(&[
            "plot",
            "--tokens",
            "--format",
            "pgfplots",
            "--results",
            results,
        ]);
        assert_eq!(code, Some(0), "{err}");
        let chart = out
            .lines()
            .find(|l| l.contains("tokens-"))
            .expect("a chart");
        let tex = std::fs::read_to_string(chart).unwrap();
        let coordinates = tex.split("coordinates {").nth(1).unwrap();
        let drawn: Vec<u64> = coordinates[..coordinates.find('}').unwrap()]
            .split_whitespace()
            .map(|p| {
                p.trim_matches(['(', ')'])
                    .split(',')
                    .nth(1)
                    .unwrap()
                    .parse()
                    .unwrap()
            })
            .collect();
        let g = ground_of(puzzle);
        let t = Tokens::parse(goal, g.vertices()).unwrap();
        let (layers, _) = goal_layers(&g, t.cells());
        assert_eq!(drawn, layers, "{goal}");
    }
}

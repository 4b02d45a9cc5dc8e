//! The engine against a deliberately simple reference: a HashMap/VecDeque BFS over explicit
//! boards, with its own move generation, no ranking and no tables. Also the counting theorem:
//! layers sum to (RC)!/2, and a board is reached iff it passes the solvability test.

use std::collections::{HashMap, HashSet, VecDeque};

use tilespace::{analyze, solvability, AnalyzeOptions, Board, Cell, Shape};

/// Depth of every board reachable from the goal with blank on `goal`. Boards are plain
/// vectors of tiles in reading order, 0 for the blank.
fn reference_bfs(rows: usize, cols: usize, goal: usize) -> HashMap<Vec<u32>, u32> {
    let n = rows * cols;
    let mut start = vec![0u32; n];
    let mut next = 1;
    for (i, t) in start.iter_mut().enumerate() {
        if i != goal {
            *t = next;
            next += 1;
        }
    }
    let mut depth = HashMap::from([(start.clone(), 0u32)]);
    let mut queue = VecDeque::from([start]);
    while let Some(b) = queue.pop_front() {
        let d = depth[&b];
        let z = b.iter().position(|&t| t == 0).unwrap();
        let (r, c) = (z / cols, z % cols);
        let mut targets = vec![];
        if r > 0 {
            targets.push(z - cols);
        }
        if r + 1 < rows {
            targets.push(z + cols);
        }
        if c > 0 {
            targets.push(z - 1);
        }
        if c + 1 < cols {
            targets.push(z + 1);
        }
        for t in targets {
            let mut nb = b.clone();
            nb.swap(z, t);
            if !depth.contains_key(&nb) {
                depth.insert(nb.clone(), d + 1);
                queue.push_back(nb);
            }
        }
    }
    depth
}

fn layers(depths: &HashMap<Vec<u32>, u32>) -> Vec<u64> {
    let radius = *depths.values().max().unwrap() as usize;
    let mut layers = vec![0u64; radius + 1];
    for &d in depths.values() {
        layers[d as usize] += 1;
    }
    layers
}

fn factorial(n: usize) -> u64 {
    (1..=n as u64).product()
}

fn run_engine(shape: Shape, goal: Cell, threads: usize) -> tilespace::Analysis {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    pool.install(|| analyze(shape, goal, AnalyzeOptions::default(), &|_| {}))
        .unwrap()
}

/// Every board up to 9 cells, several goal cells each, at 1 and 2 threads: the per-depth
/// counts and the antipodes equal the reference's.
#[test]
fn engine_matches_reference_bfs_on_every_board_up_to_9_cells() {
    for (rows, cols) in [(2, 2), (2, 3), (3, 2), (2, 4), (4, 2), (3, 3)] {
        let shape = Shape::new(rows, cols).unwrap();
        let n = rows * cols;
        let goals: Vec<usize> = if n <= 6 {
            (0..n).collect()
        } else {
            vec![n - 1, 0, n / 2, cols]
        };
        for goal in goals {
            let reference = reference_bfs(rows, cols, goal);
            let want_layers = layers(&reference);
            let radius = want_layers.len() as u32 - 1;
            let want_antipodes: HashSet<Vec<u32>> = reference
                .iter()
                .filter(|(_, &d)| d == radius)
                .map(|(b, _)| b.clone())
                .collect();
            for threads in [1, 2] {
                let a = run_engine(shape, Cell(goal), threads);
                assert_eq!(
                    a.distribution.layers, want_layers,
                    "{shape} goal {goal} threads {threads}"
                );
                let got: HashSet<Vec<u32>> =
                    a.antipodes.iter().map(|b| b.cells().to_vec()).collect();
                assert_eq!(got, want_antipodes, "{shape} goal {goal} antipodes");
                assert_eq!(
                    a.antipodes.len(),
                    want_antipodes.len(),
                    "antipodes listed once each"
                );
                assert!(a.verified);
            }
        }
    }
}

/// The counting theorem on every board up to 9 cells: exactly (RC)!/2 boards are reached,
/// every reached board passes the solvability test and every other board fails it.
#[test]
fn reached_iff_solvable_over_all_configurations() {
    for (rows, cols) in [(2, 2), (2, 3), (3, 2), (2, 4), (4, 2), (3, 3)] {
        let shape = Shape::new(rows, cols).unwrap();
        let n = rows * cols;
        for goal in [n - 1, 0] {
            let reached = reference_bfs(rows, cols, goal);
            assert_eq!(reached.len() as u64, factorial(n) / 2, "{shape}");
            let mut all: Vec<u32> = (0..n as u32).collect();
            let mut solvable = 0u64;
            // Heap's algorithm: every permutation of the n cells' contents.
            let mut c = vec![0usize; n];
            let mut check = |cells: &[u32]| {
                let b = Board::new(shape, cells.to_vec()).unwrap();
                let s = solvability(&b, Cell(goal)).solvable;
                assert_eq!(s, reached.contains_key(cells), "{shape} goal {goal}: {b}");
                solvable += u64::from(s);
            };
            check(&all);
            let mut i = 0;
            while i < n {
                if c[i] < i {
                    all.swap(if i % 2 == 0 { 0 } else { c[i] }, i);
                    check(&all);
                    c[i] += 1;
                    i = 0;
                } else {
                    c[i] = 0;
                    i += 1;
                }
            }
            assert_eq!(solvable, factorial(n) / 2);
        }
    }
}

/// 10-cell boards (release-speed tests): both orientations, two goals, layers sum to 10!/2 and
/// agree with the reference BFS.
#[test]
fn ten_cell_boards_match_reference() {
    for (rows, cols, goal) in [(2, 5, 9), (5, 2, 0)] {
        let shape = Shape::new(rows, cols).unwrap();
        let reference = layers(&reference_bfs(rows, cols, goal));
        let a = run_engine(shape, Cell(goal), 2);
        assert_eq!(a.distribution.layers, reference);
        assert_eq!(a.distribution.total(), factorial(10) / 2);
        assert_eq!(a.distribution.layers.iter().sum::<u64>(), a.expected);
        for b in &a.antipodes {
            assert!(solvability(b, Cell(goal)).solvable);
        }
    }
}

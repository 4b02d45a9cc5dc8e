//! The engine against a deliberately simple reference: a HashMap/VecDeque BFS over explicit
//! boards, with its own move generation, no ranking and no tables. Also the counting theorem:
//! layers sum to (RC)!/2, and a board is reached iff it passes the solvability test.

use std::collections::{HashMap, HashSet, VecDeque};

use tilespace::{analyze, analyze_at, solvability, AnalyzeOptions, Board, Cell, Schedule, Shape};

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
    reference_bfs_from(rows, cols, start)
}

/// Depth of every board reachable from `start`.
fn reference_bfs_from(rows: usize, cols: usize, start: Vec<u32>) -> HashMap<Vec<u32>, u32> {
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
    let eccentricity = *depths.values().max().unwrap() as usize;
    let mut layers = vec![0u64; eccentricity + 1];
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
    pool.install(|| {
        analyze(
            &tilespace::Puzzle::board(shape, goal, tilespace::Metric::Single).unwrap(),
            AnalyzeOptions::default(),
            &|_| {},
        )
    })
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
            let eccentricity = want_layers.len() as u32 - 1;
            let want_antipodes: HashSet<Vec<u32>> = reference
                .iter()
                .filter(|(_, &d)| d == eccentricity)
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

/// The parallel path with tasks that share table words: 8 threads on every board up to 9
/// cells (and 2x5), with chunks of 7, 45 and 100 states (32 states a word, so neighbouring tasks
/// write the same words; 999 and 1000 on 2x5), no sequential shortcut, lists cut into parts of 3, and either every
/// layer scanned (nothing recorded) or small layers listed; from the goal and from the other
/// class. Layers and antipodes equal the reference's.
#[test]
fn parallel_scans_with_tasks_sharing_words_match_reference() {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(8)
        .build()
        .unwrap();
    for (rows, cols) in [(2, 3), (3, 2), (2, 4), (4, 2), (3, 3), (2, 5)] {
        let shape = Shape::new(rows, cols).unwrap();
        let n = rows * cols;
        for goal in [n - 1, 0, n / 2] {
            let goal_board = Board::goal(shape, Cell(goal));
            // The goal with two tiles swapped: the other class.
            let mut cells = goal_board.cells().to_vec();
            let tiles: Vec<usize> = (0..n).filter(|&i| cells[i] != 0).collect();
            cells.swap(tiles[0], tiles[1]);
            let other = Board::new(shape, cells).unwrap();
            for start in [&goal_board, &other] {
                let reference = reference_bfs_from(rows, cols, start.cells().to_vec());
                let want = layers(&reference);
                let eccentricity = want.len() as u32 - 1;
                let mut want_antipodes: Vec<&[u32]> = reference
                    .iter()
                    .filter(|(_, &d)| d == eccentricity)
                    .map(|(b, _)| b.as_slice())
                    .collect();
                want_antipodes.sort();
                // 2x5 takes larger chunks (still not a whole number of words) to stay quick.
                let schedules: &[(u64, u64)] = if n < 10 {
                    &[(7, 0), (45, 0), (100, 1 << 22), (7, 1 << 22)]
                } else {
                    &[(1000, 0), (999, 1 << 22)]
                };
                for &(chunk, record_cap) in schedules {
                    let options = AnalyzeOptions {
                        schedule: Schedule {
                            chunk,
                            sequential_states: 0,
                            list_chunk: 3,
                            record_cap,
                        },
                        ..AnalyzeOptions::default()
                    };
                    let a = pool
                        .install(|| {
                            analyze_at(
                                &tilespace::Puzzle::board(
                                    shape,
                                    Cell(goal),
                                    tilespace::Metric::Single,
                                )
                                .unwrap(),
                                Some(start),
                                tilespace::TableAt::Memory,
                                options,
                                &|_| {},
                            )
                        })
                        .unwrap();
                    let what = format!("{shape} goal {goal} from {start} chunk {chunk}");
                    assert_eq!(a.distribution.layers, want, "{what}");
                    let got: Vec<&[u32]> = a.antipodes.iter().map(|b| b.cells()).collect();
                    assert_eq!(got, want_antipodes, "{what}");
                    assert!(a.verified, "{what}");
                }
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
        assert_eq!(Some(a.distribution.layers.iter().sum::<u64>()), a.expected);
        for b in &a.antipodes {
            assert!(solvability(b, Cell(goal)).solvable);
        }
    }
}

/// From random starts of both classes, on every board up to 9 cells: the engine's per-depth
/// counts and antipodes equal the reference BFS from the same start; each class is reached
/// completely; and the two classes partition all (RC)! configurations.
#[test]
fn searches_from_any_start_match_reference_and_classes_partition_everything() {
    let mut rng = tilespace::puzzle::random::Rng::new(7);
    for (rows, cols) in [(2, 2), (2, 3), (3, 2), (2, 4), (4, 2), (3, 3)] {
        let shape = Shape::new(rows, cols).unwrap();
        let n = rows * cols;
        let goal = Cell(n - 1);
        let mut classes_seen: [Option<HashSet<Vec<u32>>>; 2] = [None, None];
        for _ in 0..6 {
            let mut cells: Vec<u32> = (0..n as u32).collect();
            for i in (1..n).rev() {
                cells.swap(i, rng.below(i as u64 + 1) as usize);
            }
            let start = Board::new(shape, cells.clone()).unwrap();
            let class = usize::from(!solvability(&start, goal).solvable);
            let puzzle = tilespace::Puzzle::board(shape, goal, tilespace::Metric::Single).unwrap();
            let at = tilespace::TableAt::Memory;
            let a = analyze_at(
                &puzzle,
                Some(&start),
                at,
                AnalyzeOptions::default(),
                &|_| {},
            )
            .unwrap();
            assert!(a.verified, "{shape} from {start}");
            assert_eq!(a.class as usize, class);
            let reference = reference_bfs_from(rows, cols, cells);
            assert_eq!(
                a.distribution.layers,
                layers(&reference),
                "{shape} from {start}"
            );
            assert_eq!(a.states(), factorial(n) / 2);
            let eccentricity = a.distribution.eccentricity();
            let mut want: Vec<&Vec<u32>> = reference
                .iter()
                .filter(|(_, &d)| d == eccentricity)
                .map(|(b, _)| b)
                .collect();
            let mut got: Vec<&[u32]> = a.antipodes.iter().map(|b| b.cells()).collect();
            want.sort();
            got.sort();
            assert_eq!(got, want, "{shape} from {start}");
            // Every board reached from this start is in the start's class by the parity test.
            for b in reference.keys() {
                let b = Board::new(shape, b.clone()).unwrap();
                assert_eq!(usize::from(!solvability(&b, goal).solvable), class, "{b}");
            }
            let set: HashSet<Vec<u32>> = reference.into_keys().collect();
            if let Some(earlier) = &classes_seen[class] {
                assert_eq!(earlier, &set, "one class is one component");
            }
            classes_seen[class] = Some(set);
        }
        if let [Some(a), Some(b)] = &classes_seen {
            assert!(a.is_disjoint(b));
            assert_eq!((a.len() + b.len()) as u64, factorial(n), "{shape}");
        } else {
            panic!("{shape}: six random starts all fell in one class");
        }
    }
}

/// Lines 1×n and n×1 for n up to 8: every one of the n! configurations lies in a component of
/// exactly n (its tile order), there are (n-1)! components, and the engine's analysis and the
/// solvability test agree: exactly the n configurations in goal order are solvable.
#[test]
fn lines_split_into_tile_orders_of_n_configurations() {
    for n in 2..=8usize {
        for (rows, cols) in [(1, n), (n, 1)] {
            let shape = Shape::new(rows, cols).unwrap();
            let goal = Cell(n - 1);
            let mut component: HashMap<Vec<u32>, usize> = HashMap::new();
            let mut sizes = vec![];
            let mut cells: Vec<u32> = (0..n as u32).collect();
            let mut all = vec![];
            heap_permutations(&mut cells, n, &mut all);
            assert_eq!(all.len() as u64, factorial(n));
            for c in all {
                if component.contains_key(&c) {
                    continue;
                }
                let reached = reference_bfs_from(rows, cols, c);
                let id = sizes.len();
                sizes.push(reached.len());
                for b in reached.into_keys() {
                    assert!(component.insert(b, id).is_none());
                }
            }
            assert!(sizes.iter().all(|&s| s == n), "{shape}: {sizes:?}");
            assert_eq!(sizes.len() as u64, factorial(n - 1));
            let a = analyze(
                &tilespace::Puzzle::board(shape, goal, tilespace::Metric::Single).unwrap(),
                AnalyzeOptions::default(),
                &|_| {},
            )
            .unwrap();
            assert!(a.verified);
            assert_eq!(a.states(), n as u64);
            assert_eq!(a.distribution.eccentricity() as usize, n - 1);
            let goal_component = component[Board::goal(shape, goal).cells()];
            for (b, id) in &component {
                let board = Board::new(shape, b.clone()).unwrap();
                assert_eq!(
                    solvability(&board, goal).solvable,
                    *id == goal_component,
                    "{board}"
                );
            }
        }
    }
}

/// All permutations of `a[..k]` (Heap's algorithm), appended to `out`.
fn heap_permutations(a: &mut [u32], k: usize, out: &mut Vec<Vec<u32>>) {
    if k <= 1 {
        out.push(a.to_vec());
        return;
    }
    heap_permutations(a, k - 1, out);
    for i in 0..k - 1 {
        let j = if k.is_multiple_of(2) { i } else { 0 };
        a.swap(j, k - 1);
        heap_permutations(a, k - 1, out);
    }
}

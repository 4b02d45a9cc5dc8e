//! Criterion benches: ranking, unranking, neighbour indices (ns per state), whole searches of
//! 3x3 and 2x5, the table's visit with raw `AtomicU64` against bitvec, a pattern database's
//! build and IDA* on Korf's first 10 instances. Every timed closure
//! checks its answer. Inputs come from a fixed-seed generator, so runs are comparable.
//! Run: `cargo bench --bench engine`; figures are recorded in benches/README.md.

use std::hint::black_box;
use std::sync::atomic::{AtomicU64, Ordering};

use bitvec::prelude::*;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use tilespace::bfs::layer::{for_each_neighbour, moves};
use tilespace::bfs::table::Table;
use tilespace::index::rank::{Cursor, Indexer, MAX_TILES};
use tilespace::puzzle::random::Rng;
use tilespace::{analyze, AnalyzeOptions, Cell, Metric, Puzzle, Shape, StateSpace};

const N: u64 = 4096;

fn ranking(c: &mut Criterion) {
    let ix = Indexer::new(11); // 12-cell boards
    let mut rng = Rng::new(1);
    let ranks: Vec<u64> = (0..N).map(|_| rng.below(ix.class_size())).collect();
    let seqs: Vec<Vec<u8>> = ranks
        .iter()
        .map(|&r| {
            let (mut d, mut s) = ([0u8; MAX_TILES], [0u8; MAX_TILES]);
            ix.unrank(r, 0, &mut d, &mut s);
            s[..11].to_vec()
        })
        .collect();
    let mut g = c.benchmark_group("rank-11-tiles");
    g.throughput(Throughput::Elements(N));
    g.bench_function("rank", |b| {
        b.iter(|| {
            for (s, &r) in seqs.iter().zip(&ranks) {
                assert_eq!(ix.rank(black_box(s)), r);
            }
        })
    });
    g.bench_function("unrank-random", |b| {
        let mut cursor = Cursor::new();
        b.iter(|| {
            for (s, &r) in seqs.iter().zip(&ranks) {
                ix.seek(&mut cursor, black_box(r), 0);
                assert_eq!(cursor.seq[..11], s[..]);
            }
        })
    });
    // The engine's seek: Lehmer digits only (the tile values are never built).
    g.bench_function("digits-random", |b| {
        let mut cursor = Cursor::new();
        let mut want = [0u8; MAX_TILES];
        let digits: Vec<[u8; MAX_TILES]> = seqs
            .iter()
            .map(|s| {
                ix.lehmer(s, &mut want);
                want
            })
            .collect();
        b.iter(|| {
            for (d, &r) in digits.iter().zip(&ranks) {
                ix.seek_digits(&mut cursor, black_box(r), 0);
                assert_eq!(cursor.digits[..11], d[..11]);
            }
        })
    });
    g.bench_function("digits-sequential", |b| {
        let mut cursor = Cursor::new();
        b.iter(|| {
            let mut sum = 0u64;
            for r in 1_000_000..1_000_000 + N {
                ix.seek_digits(&mut cursor, black_box(r), 0);
                sum += u64::from(cursor.digits[9]);
            }
            // Digit 9 of an 11-tile sequence is 0 or 1.
            assert!(sum > 0 && sum < N);
        })
    });
    g.bench_function("unrank-sequential", |b| {
        let mut cursor = Cursor::new();
        b.iter(|| {
            let mut sum = 0u64;
            for r in 1_000_000..1_000_000 + N {
                ix.seek(&mut cursor, black_box(r), 0);
                sum += u64::from(cursor.seq[10]);
            }
            // Each sequence is a permutation of 0..11: its last entry averages 5.
            assert!(sum > 0 && sum < 11 * N);
        })
    });
    g.finish();
}

fn neighbours(c: &mut Criterion) {
    let mut g = c.benchmark_group("neighbour-indices");
    g.throughput(Throughput::Elements(N));
    for (r, cols) in [(2, 6), (3, 4)] {
        let shape = Shape::new(r, cols).unwrap();
        let space = StateSpace::new(
            &Puzzle::board(shape, Cell(shape.cells() - 1), Metric::Single).unwrap(),
            0,
        )
        .unwrap();
        let moves = moves(&space);
        g.bench_function(format!("{shape}-sequential"), |b| {
            let mut cursor = Cursor::new();
            b.iter(|| {
                let mut count = 0u64;
                for rank in 5_000_000..5_000_000 + N {
                    let blank = Cell(5);
                    for_each_neighbour(&space, &moves, &mut cursor, blank, rank, |n| {
                        assert!(n < space.states());
                        count += 1;
                    });
                }
                assert_eq!(count, N * space.shape().neighbours(Cell(5)).count() as u64);
            })
        });
        let mut rng = Rng::new(2);
        let states: Vec<u64> = (0..N).map(|_| rng.below(space.states())).collect();
        g.bench_function(format!("{shape}-random"), |b| {
            let mut cursor = Cursor::new();
            b.iter(|| {
                for &i in &states {
                    let (blank, rank) = space.split(i);
                    let mut count = 0;
                    for_each_neighbour(&space, &moves, &mut cursor, blank, rank, |_| count += 1);
                    assert_eq!(count, space.shape().neighbours(blank).count());
                }
            })
        });
    }
    g.finish();
}

fn searches(c: &mut Criterion) {
    let mut g = c.benchmark_group("bfs");
    g.sample_size(10);
    // Figures from the seeds: Gong's 3x3 worst case 31, 5x2 worst case 55.
    for (name, eccentricity) in [("3x3", 31), ("2x5", 55)] {
        let shape: Shape = name.parse().unwrap();
        let goal = Cell(shape.cells() - 1);
        g.throughput(Throughput::Elements(
            tilespace::puzzle::count::reachable_u64(shape).unwrap(),
        ));
        g.bench_function(name, |b| {
            b.iter(|| {
                let a = analyze(
                    &Puzzle::board(shape, goal, Metric::Single).unwrap(),
                    AnalyzeOptions::default(),
                    &|_| {},
                )
                .unwrap();
                assert_eq!(a.distribution.eccentricity(), eccentricity);
                assert!(a.verified);
            })
        });
    }
    g.finish();
}

/// Puzzles on graphs through the same engine: the 2x5 board as a graph in reading order (its
/// turns of four entries against the board's swaps: compare with bfs/2x5), and the Petersen
/// graph (10! configurations, one component).
fn graph_searches(c: &mut Criterion) {
    use tilespace::analysis::{analyze, AnalyzeOptions};
    use tilespace::graph::family;
    let mut g = c.benchmark_group("graph-bfs");
    g.sample_size(10);
    // Gong's 5x2 worst case 55; Wilson: the Petersen graph is 2-connected, neither bipartite nor
    // a cycle nor θ0, so all 10! configurations are one component.
    for (name, graph, states, eccentricity) in [
        ("grid-2x5", family::grid(2, 5).unwrap(), 1_814_400, Some(55)),
        ("petersen", family::petersen(), 3_628_800, None),
    ] {
        g.throughput(Throughput::Elements(states));
        g.bench_function(name, |b| {
            b.iter(|| {
                let last = graph.vertices() - 1;
                let a = analyze(
                    &tilespace::Puzzle::graph(graph.clone(), last, tilespace::Metric::Single)
                        .unwrap(),
                    AnalyzeOptions::default(),
                    &|_| {},
                )
                .unwrap();
                assert_eq!(a.states(), states);
                if let Some(e) = eccentricity {
                    assert_eq!(a.distribution.eccentricity(), e);
                }
                assert!(a.verified);
            })
        });
    }
    g.finish();
}

/// Puzzles of tokens (pebble motion) through the search over arrangements: 2x5 with two
/// blanks (10!/2 arrangements, one class by Kornhauser, Miller and Spirakis: compare with
/// bfs/2x5's 10!/2 states) and 3x4 with colours of 3 (12!/(3!^3·2!·1!) = 1,108,800).
fn arrangement_searches(c: &mut Criterion) {
    use tilespace::analysis::arrangements::analyze_tokens;
    use tilespace::index::puzzle::Ground;
    use tilespace::puzzle::tokens::Tokens;
    let mut g = c.benchmark_group("arrangements");
    g.sample_size(10);
    for (name, rows, cols, goal, arrangements) in [
        ("2x5-two-blanks", 2, 5, "1 2 3 4 5/6 7 8 0 0", 1_814_400),
        ("3x4-colours", 3, 4, "1 1 1 2/2 2 3 3/3 4 4 0", 1_108_800),
    ] {
        let ground = Ground::Board(tilespace::Shape::new(rows, cols).unwrap());
        let tokens = Tokens::parse(goal, rows * cols).unwrap();
        g.throughput(Throughput::Elements(arrangements));
        g.bench_function(name, |b| {
            b.iter(|| {
                let a = analyze_tokens(
                    &ground,
                    &tokens,
                    tilespace::Metric::Single,
                    Default::default(),
                    &|_, _| {},
                )
                .unwrap();
                assert_eq!(a.distribution.total(), arrangements);
                assert!(a.verified);
            })
        });
    }
    g.finish();
}

/// The hot write of the search: claim a random unseen 2-bit slot in a 2x6-sized table.
/// Raw atomics do it with one load and one `fetch_or` whose result says who claimed it; bitvec
/// reads the two bits, then sets them with `set_aliased`, which cannot report a race.
fn table_visit(c: &mut Criterion) {
    let states = 239_500_800u64;
    let mut rng = Rng::new(3);
    let targets: Vec<u64> = (0..1 << 16).map(|_| rng.below(states)).collect();
    let mut g = c.benchmark_group("table-visit-2x6");
    g.throughput(Throughput::Elements(targets.len() as u64));
    // One table each, pre-faulted; only the visits are timed, the slots are cleared after.
    let table = Table::new(states);
    for w in table.words() {
        w.store(0, Ordering::Relaxed);
    }
    let clear = |words: &[AtomicU64]| {
        for &i in &targets {
            words[(i / 32) as usize].store(0, Ordering::Relaxed);
        }
    };
    g.bench_function("raw-atomic-u64", |b| {
        b.iter_custom(|iters| {
            let mut total = std::time::Duration::ZERO;
            for _ in 0..iters {
                let start = std::time::Instant::now();
                let claimed = targets.iter().filter(|&&i| table.visit(i, 2)).count();
                total += start.elapsed();
                assert!(claimed > targets.len() * 99 / 100);
                clear(table.words());
            }
            total
        })
    });
    let words: Vec<AtomicU64> = (0..states.div_ceil(32))
        .map(|_| AtomicU64::new(0))
        .collect();
    g.bench_function("bitvec-atomic", |b| {
        b.iter_custom(|iters| {
            let mut total = std::time::Duration::ZERO;
            for _ in 0..iters {
                let start = std::time::Instant::now();
                let bits = BitSlice::<AtomicU64, Lsb0>::from_slice(&words);
                let mut claimed = 0;
                for &i in &targets {
                    let at = 2 * i as usize;
                    if !bits[at] && !bits[at + 1] {
                        bits.set_aliased(at + 1, true); // code 2 = 0b10
                        claimed += 1;
                    }
                }
                total += start.elapsed();
                assert!(claimed > targets.len() * 99 / 100);
                assert_eq!(
                    words[(targets[0] / 32) as usize].load(Ordering::Relaxed)
                        & 0x5555_5555_5555_5555,
                    0
                );
                clear(&words);
            }
            total
        })
    });
    g.finish();
}

/// Pattern databases and IDA*: the build of one 3x4 database (6 tiles, 665,280 placements,
/// about 2 M (placement, region) states), and the 10 first of Korf's 100 instances solved with
/// the 6-6-3 databases (built once, outside the timing; lengths checked against Korf's).
fn optimal(c: &mut Criterion) {
    use tilespace::optimal::build::build;
    use tilespace::optimal::database::Database;
    use tilespace::optimal::heuristic::Heuristic;
    use tilespace::optimal::ida::{solve, Limits};
    use tilespace::optimal::pattern::split;
    use tilespace::Board;

    let mut g = c.benchmark_group("optimal");
    g.sample_size(10);
    let shape: Shape = "3x4".parse().unwrap();
    let pattern = split(shape, Cell(11), "6-5").unwrap().remove(0);
    g.throughput(Throughput::Elements(665_280));
    g.bench_function("pdb-build-3x4-6-tiles", |b| {
        b.iter(|| {
            let built = build(&pattern, &|_| {}, None).unwrap();
            assert_eq!(
                built.entries.iter().filter(|&&e| e != u8::MAX).count(),
                665_280
            );
        })
    });
    let shape: Shape = "4x4".parse().unwrap();
    let databases = split(shape, Cell(0), "6-6-3")
        .unwrap()
        .into_iter()
        .map(|p| Database::new(p.clone(), build(&p, &|_| {}, None).unwrap()).unwrap())
        .collect();
    let h = Heuristic::new(databases).unwrap();
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/korf100.csv"
    ))
    .unwrap();
    let korf: Vec<(Board, usize)> = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .skip(1)
        .take(10)
        .map(|l| {
            let f: Vec<&str> = l.splitn(3, ',').collect();
            (
                Board::parse(f[2], Some(shape)).unwrap(),
                f[1].parse().unwrap(),
            )
        })
        .collect();
    g.throughput(Throughput::Elements(korf.len() as u64));
    g.bench_function("ida-korf-1-10-6-6-3", |b| {
        b.iter(|| {
            for (board, length) in &korf {
                assert_eq!(
                    solve(&h, board, Limits::default()).unwrap().moves.len(),
                    *length
                );
            }
        })
    });
    g.finish();
}

// The group's generated function has no place for a doc comment.
#[allow(missing_docs)]
mod group {
    use super::*;
    criterion_group!(
        benches,
        ranking,
        neighbours,
        searches,
        graph_searches,
        arrangement_searches,
        table_visit,
        optimal
    );
}
use group::benches;
criterion_main!(benches);

//! Criterion bench of a saved table's lookups: the exact distances of 10^6 uniformly random
//! 3x4 boards from a table in memory (`SavedTable::distances`, descents interleaved on the
//! machine's threads), and the same boards one at a time on one thread. The table is built and
//! saved in a temporary directory first (about 3 s), and the answers of the first 2,000 boards
//! are checked against `solve`'s paths, which step through boards, not indices; every timed
//! run checks the sum of its distances against those of the first.
//! Run: `cargo bench --bench lookup`; figures are recorded in benches/README.md.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use tilespace::bfs::search_from;
use tilespace::puzzle::random::{solvable_board, Rng};
use tilespace::store::saved::{save, SavedTable};
use tilespace::{Board, Cell, Metric, Puzzle, Schedule, Shape, StateSpace};

const BOARDS: usize = 1_000_000;

fn lookups(c: &mut Criterion) {
    let shape = Shape::new(3, 4).unwrap();
    let goal = Cell(shape.cells() - 1);
    let space = StateSpace::new(&Puzzle::board(shape, goal, Metric::Single).unwrap(), 0).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("3x4.tst");
    let found = search_from(&space, space.goal_index(), Schedule::default(), &|_| {}).unwrap();
    save(&path, &space, &found.table, &found.layers).unwrap();
    drop(found);
    let table = SavedTable::open(&path).unwrap();
    assert!(table.in_memory());
    let mut rng = Rng::new(1);
    let boards: Vec<Board> = (0..BOARDS)
        .map(|_| solvable_board(shape, goal, &mut rng))
        .collect();
    let first: Vec<u32> = table
        .distances(&boards)
        .into_iter()
        .map(Result::unwrap)
        .collect();
    for (b, &d) in boards.iter().zip(&first).take(2_000) {
        assert_eq!(table.solve(b).unwrap().len() as u32 - 1, d, "{b}");
    }
    let sum: u64 = first.iter().map(|&d| u64::from(d)).sum();
    let mut g = c.benchmark_group("table-lookups-3x4");
    g.sample_size(10);
    g.throughput(Throughput::Elements(BOARDS as u64));
    g.bench_function("distances (all threads)", |b| {
        b.iter(|| {
            let got: u64 = table
                .distances(&boards)
                .into_iter()
                .map(|d| u64::from(d.unwrap()))
                .sum();
            assert_eq!(got, sum);
        })
    });
    let some = &boards[..BOARDS / 10];
    let some_sum: u64 = first[..some.len()].iter().map(|&d| u64::from(d)).sum();
    g.throughput(Throughput::Elements(some.len() as u64));
    g.bench_function("distance (one board at a time, one thread)", |b| {
        b.iter(|| {
            let got: u64 = some
                .iter()
                .map(|x| u64::from(table.distance(x).unwrap()))
                .sum();
            assert_eq!(got, some_sum);
        })
    });
    g.finish();
}

// The group's generated function has no place for a doc comment.
#[allow(missing_docs)]
mod group {
    use super::*;
    criterion_group!(benches, lookups);
}
criterion_main!(group::benches);

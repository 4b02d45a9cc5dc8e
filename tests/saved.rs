//! Saved tables: distances and optimal solutions against the reference BFS, and refusal of
//! damaged or mismatched files.

use crate::boards::{reference, saved};
use rayon::prelude::*;
use tilespace::store::header::{checksum, le_words};
use tilespace::store::saved::{Keep, SavedTable};
use tilespace::{Board, Cell, DamageKind, Error, ErrorKind, Shape};

/// Every state of 2x3, 3x2 and 3x3 (several goal cells for the small ones): the table's distance
/// equals the reference, and the solution is a chain of single moves from the board to the goal
/// of exactly that length.
#[test]
fn every_state_gets_its_reference_distance_and_an_optimal_solution() {
    let tmp = tempfile::tempdir().unwrap();
    for (r, c, goals) in [(2, 3, vec![0, 2, 5]), (3, 2, vec![5]), (3, 3, vec![8])] {
        let shape = Shape::new(r, c).unwrap();
        for g in goals {
            let goal = Cell(g);
            let table = saved(shape, goal, tmp.path());
            let want = reference(shape, goal);
            let target = Board::goal(shape, goal);
            want.par_iter().for_each(|(board, &d)| {
                let path = table.solve(board).unwrap();
                assert_eq!(path.len() as u32 - 1, d, "{board}");
                assert_eq!(path.first(), Some(board));
                assert_eq!(path.last(), Some(&target));
                for w in path.windows(2) {
                    assert!(
                        w[0].neighbours().any(|n| n == w[1]),
                        "not a move: {} {}",
                        w[0],
                        w[1]
                    );
                }
            });
        }
    }
}

/// Samples of 2x5: distance from the table equals the reference's.
#[test]
fn samples_of_2x5_match_the_reference() {
    let tmp = tempfile::tempdir().unwrap();
    let shape = Shape::new(2, 5).unwrap();
    let table = saved(shape, Cell(9), tmp.path());
    let want = reference(shape, Cell(9));
    let sample: Vec<_> = want.iter().step_by(997).collect();
    assert!(sample.len() > 1000);
    sample.par_iter().for_each(|(board, &d)| {
        assert_eq!(table.distance(board).unwrap(), d, "{board}");
    });
}

/// Damaged, truncated, mismatched or foreign files are refused with a reason; a board of the
/// other class or another size is refused too.
#[test]
fn bad_tables_and_boards_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let shape = Shape::new(2, 3).unwrap();
    let table = saved(shape, Cell(5), tmp.path());
    let path = table.path.clone();
    let good = std::fs::read(&path).unwrap();
    let why = |bytes: &[u8]| -> String {
        let p = tmp.path().join("bad.tst");
        std::fs::write(&p, bytes).unwrap();
        match SavedTable::open(&p) {
            Err(e @ Error::Table { .. }) => e.to_string(),
            Err(e) => panic!("wrong kind of error: {e}"),
            Ok(_) => panic!("a bad table was accepted"),
        }
    };
    // The kind of damage, for a caller that matches instead of reading.
    let kind = |bytes: &[u8]| -> DamageKind {
        let p = tmp.path().join("bad.tst");
        std::fs::write(&p, bytes).unwrap();
        match SavedTable::open(&p) {
            Err(e @ Error::Table { .. }) if e.kind() != ErrorKind::Damaged => {
                panic!("{e} is not of kind Damaged")
            }
            Err(Error::Table { damage, .. }) => damage.kind,
            Err(e) => panic!("wrong kind of error: {e}"),
            Ok(_) => panic!("a bad table was accepted"),
        }
    };
    let mut data = good.clone();
    *data.last_mut().unwrap() ^= 0x40;
    assert!(why(&data).contains("table is corrupted"));
    assert_eq!(kind(&data), DamageKind::Checksum);
    assert_eq!(kind(&good[..good.len() - 8]), DamageKind::Length);
    assert_eq!(kind(&[&good[..], &[0u8; 8]].concat()), DamageKind::Length);
    assert_eq!(kind(b"depth,states\n0,1\n"), DamageKind::Mismatch);
    assert!(why(&good[..good.len() - 8]).contains("truncated"));
    let mut header = good.clone();
    header[13] ^= 1; // rows
    assert!(why(&header).contains("header is corrupted"));
    let mut version = good.clone();
    version[8] = 9;
    assert!(why(&version).contains("format version 9"));
    assert_eq!(kind(&version), DamageKind::Mismatch);
    assert_eq!(kind(&header), DamageKind::Checksum);
    assert!(why(b"depth,states\n0,1\n").contains("not a tilespace table"));
    // Crafted headers, their checksum recomputed: a line, the other class, the other
    // orientation, a goal off the board, a count that is not the board's.
    let crafted = |fields: &[(usize, &[u8])]| -> Vec<u8> {
        let mut bytes = good.clone();
        for &(offset, value) in fields {
            bytes[offset..offset + value.len()].copy_from_slice(value);
        }
        let sum = checksum(le_words(&bytes[..48]));
        bytes[48..56].copy_from_slice(&sum.to_le_bytes());
        bytes
    };
    let line = crafted(&[(12, &1u32.to_le_bytes()), (16, &6u32.to_le_bytes())]);
    assert!(why(&line).contains("a line"), "{}", why(&line));
    assert!(why(&crafted(&[(28, &[1])])).contains("bad class"));
    assert!(why(&crafted(&[(29, &[good[29] ^ 1])])).contains("bad orientation"));
    assert!(why(&crafted(&[(30, &[2])])).contains("bad metric"));
    // A single-tile table called multi-tile (in that metric's orientation): its codes are not
    // the depths mod 3 its layers give.
    let relabelled = why(&crafted(&[(29, &[0]), (30, &[1])]));
    assert!(
        relabelled.contains("by depth mod 3 are not its layers'"),
        "{relabelled}"
    );
    assert!(why(&crafted(&[(20, &7u32.to_le_bytes())])).contains("bad goal blank"));
    assert!(why(&crafted(&[(32, &u64::MAX.to_le_bytes())])).contains("header says"));

    // Contents changed and every checksum recomputed (`saved::reseal`, as a forger would):
    // one code's depth bit, one code's colour bit, two layer counts traded, a layer emptied, a
    // eccentricity no 2x3 board has.
    let forged = |edit: &dyn Fn(&mut Vec<u8>)| -> String {
        let mut bytes = good.clone();
        edit(&mut bytes);
        tilespace::store::saved::reseal(&mut bytes);
        why(&bytes)
    };
    let eccentricity = u32::from_le_bytes(good[24..28].try_into().unwrap()) as usize;
    let words_at = 64 + 8 * (eccentricity + 1);
    let layer = |d: usize| 64 + 8 * d;
    for bit in [1u8, 0] {
        let why = forged(&|b| b[words_at + 5] ^= 1 << (2 + bit));
        assert!(why.contains("not its layers'"), "{why}");
    }
    let traded = forged(&|b| {
        b[layer(3)] += 1;
        b[layer(4)] -= 1;
    });
    assert!(traded.contains("not its layers'"), "{traded}");
    let mut contents = good.clone();
    contents[words_at + 5] ^= 1 << 2;
    tilespace::store::saved::reseal(&mut contents);
    assert_eq!(kind(&contents), DamageKind::Contents);
    let emptied = forged(&|b| b[layer(2)..layer(3)].fill(0));
    assert!(emptied.contains("not a distribution"), "{emptied}");
    let far = forged(&|b| b[24..28].copy_from_slice(&1_000_000u32.to_le_bytes()));
    assert!(far.contains("eccentricity 1000000 is impossible"), "{far}");

    let unsolvable = Board::parse("1 2 3/5 4 0", None).unwrap();
    assert!(matches!(
        table.solve(&unsolvable),
        Err(Error::Unsolvable(_))
    ));
    let other = Board::parse("1 2/3 0", None).unwrap();
    assert!(matches!(table.distance(&other), Err(Error::Board(_))));
}

/// A table read from its file and shortened by another program while open is an error on the
/// next query that reaches past the new end (a memory-mapped table died of SIGBUS there), never
/// a wrong answer; a table kept in memory answers on from the words it read.
#[test]
fn a_table_truncated_while_open_is_an_error() {
    let tmp = tempfile::tempdir().unwrap();
    let shape = Shape::new(3, 3).unwrap();
    let kept = saved(shape, Cell(8), tmp.path());
    assert!(kept.in_memory());
    let path = kept.path.clone();
    let table = SavedTable::open_keeping(&path, Keep::File).unwrap();
    assert!(!table.in_memory());
    // One of the two states farthest from the goal (Gong's 8-puzzle figures: 31 moves).
    let far = Board::parse("8 6 7/2 5 4/3 0 1", None).unwrap();
    assert_eq!(table.distance(&far).unwrap(), 31);
    std::fs::OpenOptions::new()
        .write(true)
        .open(&path)
        .unwrap()
        .set_len(64)
        .unwrap();
    match table.distance(&far) {
        Err(Error::Table { damage, .. }) => {
            assert!(damage.what.contains("changed while in use"), "{damage}")
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(kept.distance(&far).unwrap(), 31);
}

/// Every state of 3x3 and 2x4 (goal blank on the last cell) and of 2x4 with the blank's goal on
/// the first, asked all at once in a shuffled order with boards of the other class and of
/// another size among them: from a table in memory (descents interleaved) and from one read in
/// the file, each answer in its place is the plain BFS's distance or the error `solve` gives.
#[test]
fn distances_in_memory_and_from_the_file_equal_the_reference() {
    let tmp = tempfile::tempdir().unwrap();
    for (r, c, g) in [(3, 3, 8), (2, 4, 7), (2, 4, 0)] {
        let (shape, goal) = (Shape::new(r, c).unwrap(), Cell(g));
        let kept = saved(shape, goal, tmp.path());
        let read = SavedTable::open_keeping(&kept.path, Keep::File).unwrap();
        let want = reference(shape, goal);
        let mut asked: Vec<(Board, Option<u32>)> =
            want.iter().map(|(b, &d)| (b.clone(), Some(d))).collect();
        // The other class: two tiles swapped; another size: a 3x3 board for 2x4, 2x4 for 3x3.
        let mut cells = Board::goal(shape, goal).cells().to_vec();
        let tiles: Vec<usize> = (0..shape.cells())
            .filter(|&i| i != goal.0)
            .take(2)
            .collect();
        cells.swap(tiles[0], tiles[1]);
        let odd = Board::new(shape, cells).unwrap();
        let other = if c == 3 { (2, 4) } else { (3, 3) };
        let foreign = Board::goal(Shape::new(other.0, other.1).unwrap(), Cell(0));
        for k in [0, 7, 1000] {
            asked.insert(k, (odd.clone(), None));
            asked.insert(k + 3, (foreign.clone(), None));
        }
        let mut rng = tilespace::puzzle::random::Rng::new(7);
        for i in (1..asked.len()).rev() {
            asked.swap(i, rng.below(i as u64 + 1) as usize);
        }
        let boards: Vec<Board> = asked.iter().map(|(b, _)| b.clone()).collect();
        for table in [&kept, &read] {
            let got = table.distances(&boards);
            assert_eq!(got.len(), boards.len());
            for ((board, d), answer) in asked.iter().zip(got) {
                match (d, answer) {
                    (Some(d), Ok(n)) => assert_eq!(n, *d, "{shape}: {board}"),
                    (None, Err(e)) => {
                        let solve = table.solve(board).expect_err("refused").to_string();
                        assert_eq!(e.to_string(), solve, "{shape}: {board}");
                    }
                    (d, a) => panic!("{shape}: {board}: {a:?}, want {d:?}"),
                }
            }
        }
    }
}

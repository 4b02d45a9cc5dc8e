//! One BFS layer: expand every frontier state of a range of the table into the next layer.
//!
//! A state is unranked once; its neighbours' indices are derived from its Lehmer digits
//! without re-ranking:
//! - a horizontal move keeps the sequence: same rank, neighbouring block;
//! - a vertical move rotates a window of C consecutive sequence entries (one tile moves past
//!   C-1 others), which changes only those C Lehmer digits: the new full rank is the old one
//!   plus Σ (d'ⱼ - dⱼ)·(m-1-j)! over the window, O(C) work.

use crate::bfs::table::Table;
use crate::board::Cell;
use crate::rank::Cursor;
use crate::space::StateSpace;

/// A move of the blank, precomputed per blank cell (engine orientation).
#[derive(Clone, Copy, Debug)]
pub enum Move {
    /// Left or right: the sequence is unchanged.
    Slide { to: u32 },
    /// Blank up: the tile above joins the sequence C-1 places later; the window starts at
    /// sequence position `window` and its first entry moves to its end.
    Up { to: u32, window: u32 },
    /// Blank down: the tile below moves C-1 places earlier; the window's last entry moves first.
    Down { to: u32, window: u32 },
}

/// For each engine blank cell, the moves it can make.
pub fn moves(space: &StateSpace) -> Vec<Vec<Move>> {
    let shape = space.shape;
    let c = shape.cols as u32;
    (0..shape.cells())
        .map(|b| {
            shape
                .neighbours(Cell(b))
                .map(|to| {
                    let (b, t) = (b as u32, to.0 as u32);
                    if t + c == b {
                        Move::Up { to: t, window: t }
                    } else if t == b + c {
                        Move::Down { to: t, window: b }
                    } else {
                        Move::Slide { to: t }
                    }
                })
                .collect()
        })
        .collect()
}

/// Change in full rank when the entry at `i` moves to `i + k` (the others shift left).
#[inline(always)]
fn rotate_left_delta(space: &StateSpace, d: &[u8], s: &[u8], i: usize, k: usize) -> i64 {
    let x = s[i];
    let mut below_x = 0i64;
    let mut delta = 0i64;
    for t in 1..=k {
        // y moves from i+t to i+t-1 and now has x after it.
        let x_smaller = i64::from(x < s[i + t]);
        below_x += 1 - x_smaller;
        let new = i64::from(d[i + t]) + x_smaller;
        delta += (new - i64::from(d[i + t - 1])) * space.indexer.weight(i + t - 1) as i64;
    }
    let new = i64::from(d[i]) - below_x;
    delta + (new - i64::from(d[i + k])) * space.indexer.weight(i + k) as i64
}

/// Change in full rank when the entry at `i + k` moves to `i` (the others shift right).
#[inline(always)]
fn rotate_right_delta(space: &StateSpace, d: &[u8], s: &[u8], i: usize, k: usize) -> i64 {
    let x = s[i + k];
    let mut below_x = 0i64;
    let mut delta = 0i64;
    for t in 0..k {
        // s[i+t] moves to i+t+1 and loses x from after it.
        let x_smaller = i64::from(x < s[i + t]);
        below_x += 1 - x_smaller;
        let new = i64::from(d[i + t]) - x_smaller;
        delta += (new - i64::from(d[i + t + 1])) * space.indexer.weight(i + t + 1) as i64;
    }
    let new = i64::from(d[i + k]) + below_x;
    delta + (new - i64::from(d[i])) * space.indexer.weight(i) as i64
}

/// Calls `visit` with the index of every neighbour of the state (`blank`, `rank`).
#[inline(always)]
pub fn for_each_neighbour(
    space: &StateSpace,
    moves: &[Vec<Move>],
    cursor: &mut Cursor,
    blank: Cell,
    rank: u64,
    mut visit: impl FnMut(u64),
) {
    space.indexer.seek(cursor, rank, space.parity[blank.0]);
    let (d, s) = (&cursor.digits, &cursor.seq);
    let full = (rank << 1 | u64::from(d[space.tiles() - 2])) as i64;
    let k = space.shape.cols - 1;
    for &mv in &moves[blank.0] {
        let (to, new_full) = match mv {
            Move::Slide { to } => (to, full),
            Move::Up { to, window } => (
                to,
                full + rotate_left_delta(space, d, s, window as usize, k),
            ),
            Move::Down { to, window } => (
                to,
                full + rotate_right_delta(space, d, s, window as usize, k),
            ),
        };
        visit(u64::from(to) * space.block + (new_full as u64 >> 1));
    }
}

/// Expands the states of `lo..hi` that hold `cur` into unseen neighbours marked `next`;
/// returns how many states this call marked, and their indices if `record` is set.
pub(crate) fn expand_range(
    space: &StateSpace,
    moves: &[Vec<Move>],
    table: &Table,
    (lo, hi): (u64, u64),
    (cur, next): (u64, u64),
    record: bool,
) -> (u64, Vec<u64>) {
    // A task lies inside one block: one blank cell, ranks lo - start .. hi - start.
    let (blank, _) = space.split(lo);
    let start = blank.0 as u64 * space.block;
    debug_assert!(hi <= start + space.block);
    let mut found = 0u64;
    let mut marked = vec![];
    let mut cursor = Cursor::new();
    let (first, last) = ((lo / 32) as usize, ((hi - 1) / 32) as usize);
    for w in first..=last {
        let mut mask = Table::matching(table.word(w), cur);
        // Slots of this word outside lo..hi belong to another task.
        let base = w as u64 * 32;
        if base < lo {
            mask &= !0u64 << (2 * (lo - base));
        }
        if base + 32 > hi {
            mask &= !0u64 >> (2 * (base + 32 - hi));
        }
        while mask != 0 {
            let rank = base + u64::from(mask.trailing_zeros() / 2) - start;
            mask &= mask - 1;
            for_each_neighbour(space, moves, &mut cursor, blank, rank, |n| {
                if table.visit(n, next) {
                    found += 1;
                    if record {
                        marked.push(n);
                    }
                }
            });
        }
    }
    (found, marked)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Shape;

    /// Incremental neighbour indices equal ranking the neighbouring boards from scratch.
    #[test]
    fn neighbour_indices_match_direct_ranking() {
        for (r, c) in [(2, 2), (3, 2), (2, 3), (3, 3), (4, 3), (3, 4), (4, 4)] {
            let shape = Shape::new(r, c).unwrap();
            for goal in [0, shape.cells() - 1, shape.cells() / 2] {
                let space = StateSpace::new(shape, Cell(goal)).unwrap();
                let moves = moves(&space);
                let step = (space.states() / 5000).max(1);
                for index in (0..space.states()).step_by(step as usize) {
                    let board = space.board(index);
                    let mut want: Vec<u64> = board
                        .neighbours()
                        .map(|b| space.index(&b).expect("same class"))
                        .collect();
                    let mut got = vec![];
                    let (blank, rank) = space.split(index);
                    for_each_neighbour(&space, &moves, &mut Cursor::new(), blank, rank, |n| {
                        got.push(n)
                    });
                    want.sort_unstable();
                    got.sort_unstable();
                    assert_eq!(got, want, "{shape} goal {goal} board {board}");
                }
            }
        }
    }
}

//! One BFS layer: expand frontier states into the next layer.
//!
//! The table is sequence-major (see `space`): the states sharing a tile sequence are adjacent.
//! A frontier is found by scanning the table word by word (32 states a word, matched against
//! `FRONTIER` and the blank colour of the layer in a few bit operations), or, for small layers,
//! taken from the list of their indices. A sequence's Lehmer digits are computed once for all
//! its frontier blank cells (`Indexer::seek_digits`: scans go in rank order, so it mostly adds
//! to the last digits). Neighbour indices come without re-ranking, from the digits alone:
//! - a horizontal move keeps the sequence: same rank, another slot of the same sequence, in the
//!   same cache line;
//! - a vertical move rotates a window of C consecutive sequence entries (one tile moves past
//!   C-1 others), which changes only those C Lehmer digits: the new full rank is the old one
//!   plus Σ (d'ⱼ - dⱼ)·(m-1-j)! over the window, O(C²) work with C ≤ 4. The comparisons a
//!   rotation needs (is the moving tile smaller than each tile it passes?) follow from the
//!   window's digits, so the tile values are never built (this took 2x5 from 674 M to 543 M
//!   instructions).

use crate::bfs::schedule::Task;
use crate::bfs::shard::Mine;
use crate::bfs::table::{settled, Table, FRONTIER};
use crate::index::rank::Cursor;
use crate::index::space::StateSpace;
use crate::puzzle::board::Cell;

/// A vertical move of the blank, precomputed with where its target lies in the table: it turns
/// the window of C sequence entries starting at `window` (up: the tile above joins the sequence
/// C-1 places later, the window's first entry moves to its end; down: the last entry moves
/// first). The target state is slot `slot` of the target sequence's rank, `width` (n) slots a
/// rank.
#[derive(Clone, Copy, Debug)]
pub struct Turn {
    window: u32,
    slot: u32,
    width: u32,
    /// All ones for a move the blank can make; zero for a stand-in whose "target" is the state
    /// itself (seen, so never claimed, and never in the frontier while it is pulled).
    valid: i64,
}

/// The moves of the blank from one cell: every blank has the same four, so the neighbour loop has
/// no branches on the kind of move (a mispredicted branch costs as much as a dozen
/// instructions). Moves the blank cannot make lead back to the state itself.
#[derive(Clone, Copy, Debug)]
pub struct BlankMoves {
    /// Left and right: the sequence is unchanged; the target is this slot of the same sequence.
    slides: [u32; 2],
    up: Turn,
    down: Turn,
}

/// For each engine blank cell, the moves it can make.
pub fn moves(space: &StateSpace) -> Vec<BlankMoves> {
    let shape = space.shape;
    let c = shape.cols;
    (0..shape.cells())
        .map(|b| {
            let own = u32::from(space.slot[b]);
            let width = space.width() as u32;
            let stay = Turn {
                window: 0,
                slot: own,
                width,
                valid: 0,
            };
            let mut m = BlankMoves {
                slides: [own; 2],
                up: stay,
                down: stay,
            };
            let mut slides = 0;
            for to in shape.neighbours(Cell(b)) {
                let t = to.0;
                let turn = |window: usize| Turn {
                    window: window as u32,
                    slot: u32::from(space.slot[t]),
                    width,
                    valid: -1,
                };
                if t + c == b {
                    m.up = turn(t);
                } else if t == b + c {
                    m.down = turn(b);
                } else {
                    m.slides[slides] = u32::from(space.slot[t]);
                    slides += 1;
                }
            }
            m
        })
        .collect()
}

/// Change in full rank when the entry at `i` moves to `i + k` (the others shift left), from the
/// Lehmer digits `d` alone.
///
/// A move compares the moving entry x with the k it passes, and the relative order of entries
/// follows from their digits: `d[j]` is the rank of entry j among the entries from j on, so an
/// entry's rank among the entries from i on is found by inserting the entries before it, right
/// to left, at their digits. Here x = entry i ranks `d[i]` among the entries after it, so it is
/// smaller than entry i+t exactly when `d[i]` ≤ the rank of entry i+t among the entries from
/// i+1 on.
#[inline(always)]
fn rotate_left_delta(space: &StateSpace, d: &[u8], i: usize, k: usize) -> i64 {
    let x = d[i];
    let mut below_x = 0i64;
    let mut delta = 0i64;
    for t in 1..=k {
        // The rank of entry i+t among the entries from i+1 on.
        let mut r = d[i + t];
        for u in (1..t).rev() {
            r += u8::from(r >= d[i + u]);
        }
        // Entry i+t moves to i+t-1 and now has x after it.
        let x_smaller = i64::from(x <= r);
        below_x += 1 - x_smaller;
        let new = i64::from(d[i + t]) + x_smaller;
        delta += (new - i64::from(d[i + t - 1])) * space.indexer.weight(i + t - 1) as i64;
    }
    let new = i64::from(d[i]) - below_x;
    delta + (new - i64::from(d[i + k])) * space.indexer.weight(i + k) as i64
}

/// Change in full rank when the entry at `i + k` moves to `i` (the others shift right), from the
/// Lehmer digits `d` alone (see `rotate_left_delta`).
#[inline(always)]
fn rotate_right_delta(space: &StateSpace, d: &[u8], i: usize, k: usize) -> i64 {
    // The rank of x = entry i+k among the entries from i+t+1 on, for t = k-1 down to 0.
    let mut r = d[i + k];
    let mut below_x = 0i64;
    let mut delta = 0i64;
    for t in (0..k).rev() {
        // x is smaller than entry i+t exactly when it is among the d[i+t] entries after i+t
        // that are.
        let x_smaller = i64::from(r < d[i + t]);
        below_x += 1 - x_smaller;
        r += 1 - x_smaller as u8;
        // Entry i+t moves to i+t+1 and loses x from after it.
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
    moves: &[BlankMoves],
    cursor: &mut Cursor,
    blank: Cell,
    rank: u64,
    mut visit: impl FnMut(u64),
) {
    space
        .indexer
        .seek_digits(cursor, rank, space.parity[blank.0]);
    let base = space.index_of(blank, rank) - u64::from(space.slot[blank.0]);
    let own = base + u64::from(space.slot[blank.0]);
    for n in neighbours::<0>(space, &moves[blank.0], cursor, base, rank) {
        if n != own {
            visit(n);
        }
    }
}

/// The four move targets of a state whose sequence (rank `rank`) is in `cursor` and starts at
/// table index `base`: slides first (same cache line), then up and down. A move the blank
/// cannot make gives the state's own index. `COLS` is the engine's column count, or 0 to read it
/// from `space`: a constant lets the window loops unroll (the engine is instantiated for 2, 3,
/// 4; with 2 columns there is one slide, and the second is left out).
#[inline(always)]
fn neighbours<const COLS: usize>(
    space: &StateSpace,
    moves: &BlankMoves,
    cursor: &Cursor,
    base: u64,
    rank: u64,
) -> [u64; 4] {
    let d = &cursor.digits;
    let full = (rank << 1 | u64::from(d[space.tiles() - 2])) as i64;
    let k = if COLS == 0 { space.shape.cols } else { COLS } - 1;
    let (up, down) = (&moves.up, &moves.down);
    let to = |t: &Turn, delta: i64| {
        let new = (full + (delta & t.valid)) as u64 >> 1;
        new * u64::from(t.width) + u64::from(t.slot)
    };
    [
        base + u64::from(moves.slides[0]),
        base + u64::from(moves.slides[1]),
        to(up, rotate_left_delta(space, d, up.window as usize, k)),
        to(down, rotate_right_delta(space, d, down.window as usize, k)),
    ]
}

/// Claims of neighbours for the next layer: the count (and, if `record`, the indices) of the
/// states this task marked.
///
/// A target is first tested with a plain load, and most are seen already. Whether one is unseen
/// is a coin toss the branch predictor loses, so the test does not branch: every target is
/// written to a small buffer, whose end advances only past unseen ones, and the buffer is
/// claimed (atomically, see `Table::visit`) when full, in a loop whose branches almost always
/// go the same way. (Software prefetching the claims a few states ahead was measured with the
/// earlier engine and gave nothing: 3x4 4.96 s against 4.92 s, medians of 3.)
struct Claims<'a> {
    table: &'a Table,
    found: u64,
    record: bool,
    marked: Vec<u64>,
    pending: [u64; PENDING],
    waiting: usize,
}

/// Targets buffered before they are claimed.
const PENDING: usize = 64;

impl<'a> Claims<'a> {
    fn new(table: &'a Table, record: bool) -> Self {
        Claims {
            table,
            found: 0,
            record,
            marked: vec![],
            pending: [0; PENDING],
            waiting: 0,
        }
    }

    /// Buffers `index` if it is unseen now.
    #[inline(always)]
    fn offer(&mut self, index: u64) {
        self.buffer(index, self.table.get(index) == 0);
    }

    /// Buffers `index` to be claimed (a pull marks the state it tests).
    #[inline(always)]
    fn push(&mut self, index: u64) {
        self.buffer(index, true);
    }

    /// Writes `index` past the buffer's end and moves the end past it if `keep`, without a
    /// branch; claims the buffer when it might not take four more.
    #[inline(always)]
    fn buffer(&mut self, index: u64, keep: bool) {
        self.pending[self.waiting] = index;
        self.waiting += usize::from(keep);
        if self.waiting > PENDING - 4 {
            self.claim();
        }
    }

    #[inline(never)]
    fn claim(&mut self) {
        for &index in &self.pending[..self.waiting] {
            let won = self.table.visit(index, FRONTIER);
            self.found += u64::from(won);
            if self.record && won {
                self.marked.push(index);
            }
        }
        self.waiting = 0;
    }

    fn finish(mut self) -> Found {
        self.claim();
        Found {
            states: self.found,
            marked: self.marked,
        }
    }
}

/// What one task of a layer found: the states it marked (or settled), and their indices if the
/// layer is recorded.
#[derive(Debug, Default)]
pub struct Found {
    /// States marked (or settled).
    pub states: u64,
    /// Their indices, if the layer is recorded.
    pub marked: Vec<u64>,
}

impl Found {
    /// Adds what another task found.
    pub fn add(&mut self, other: Found) {
        self.states += other.states;
        self.marked.extend(other.marked);
    }
}

/// Everything a scan of one layer shares across its tasks.
#[derive(Clone, Copy)]
pub struct LayerScan<'a> {
    /// The index.
    pub space: &'a StateSpace,
    /// The blank's moves from each cell, precomputed.
    pub moves: &'a [BlankMoves],
    /// The table being filled.
    pub table: &'a Table,
    /// The blank colour of the states a scan looks at: the frontier's for push, the next
    /// layer's for pull.
    pub colour: usize,
    /// The codes this step writes.
    pub codes: Codes,
    /// List the states found (the next layer is small enough to be expanded from a list).
    pub record: bool,
    /// Which states this table holds: all of them on one machine, a rank's blocks otherwise
    /// (tested only by the shard scans).
    pub mine: Mine,
}

/// `masks[q]`: the slots of a word whose first slot is slot q of its rank (n slots a rank)
/// that hold a blank of colour `colour` (the low bit of each 2-bit slot).
pub fn colour_masks(space: &StateSpace, colour: usize) -> Vec<u64> {
    let width = space.width();
    (0..width)
        .map(|q| {
            (0..32u64)
                .filter(|s| {
                    let b = space.blanks[((q + s) % width) as usize];
                    space.shape.colour(Cell(b as usize)) == colour
                })
                .fold(0, |m, s| m | 1 << (2 * s))
        })
        .collect()
}

/// Calls `f(cursor, base, rank, blank, index)` for every state of `lo..hi` chosen by `select(w, word, candidates)`, which gets word `w`'s value and the low bits
/// of its slots in `lo..hi` whose blank has colour `colour`, and returns the low bits of the
/// slots to visit (it may also settle slots of the word). States come in index order; the
/// cursor holds the state's sequence, unranked once per sequence.
#[inline(always)]
fn for_each_slot(
    space: &StateSpace,
    table: &Table,
    Task { lo, hi }: Task,
    colour: usize,
    mut select: impl FnMut(usize, u64, u64) -> u64,
    mut f: impl FnMut(&Cursor, u64, u64, usize, u64),
) {
    let width = space.width();
    let blanks = &space.blanks;
    let start_mask = colour_masks(space, colour);
    // split[pos] = (pos / width, pos % width, the parity of that slot's sequences) for the
    // positions a word reaches: no division in the loop.
    let split: Vec<(u8, u8, u8)> = (0..width + 32)
        .map(|pos| {
            let j = pos % width;
            let parity = space.parity[blanks[j as usize] as usize];
            ((pos / width) as u8, j as u8, parity)
        })
        .collect();
    let mut cursor = Cursor::new();
    let (first, last) = (lo / 32, (hi - 1) / 32);
    // The sequence rank and slot q of the word's first slot.
    let (mut rank0, mut q) = (first * 32 / width, first * 32 % width);
    for w in first..=last {
        let mut candidates = start_mask[q as usize];
        let start = w * 32;
        if start < lo {
            candidates &= !0u64 << (2 * (lo - start));
        }
        if start + 32 > hi {
            candidates &= !0u64 >> (2 * (start + 32 - hi));
        }
        let mut mask = select(w as usize, table.word(w as usize), candidates);
        while mask != 0 {
            let s = u64::from(mask.trailing_zeros() / 2);
            mask &= mask - 1;
            let (carry, j, parity) = split[(q + s) as usize];
            let rank = rank0 + u64::from(carry);
            // No test for "same sequence as the last state": the seek is cheaper than the
            // branch, which the predictor loses.
            space.indexer.seek_digits(&mut cursor, rank, parity);
            let base = rank * width;
            f(&cursor, base, rank, blanks[j as usize] as usize, start + s);
        }
        let (carry, next_q, _) = split[q as usize + 32];
        rank0 += u64::from(carry);
        q = u64::from(next_q);
    }
}

/// The codes a layer step writes: the frontier's (layer d) once it is expanded, and that of
/// layer d-1, whose states a pull layer left holding `FRONTIER`.
#[derive(Clone, Copy, Debug)]
pub struct Codes {
    /// The code of the frontier (layer d) once expanded.
    pub done: u64,
    /// The code of layer d - 1.
    pub before: u64,
}

impl Codes {
    /// The codes of a step that expands layer `depth`.
    pub fn at(depth: u32) -> Codes {
        Codes {
            done: settled(depth),
            before: settled(depth.wrapping_sub(1)),
        }
    }
}

/// Push: finds the frontier states of `lo..hi`: those holding `FRONTIER` whose blank has
/// colour `colour`. Settles them and marks their unseen neighbours `FRONTIER`.
pub fn expand_scan<const COLS: usize>(scan: &LayerScan, task: Task) -> Found {
    expand_scan_in::<COLS, false>(scan, task, &mut |_| {})
}

/// Push on a shard: as `expand_scan`, but the neighbours outside the shard (`scan.mine`) are
/// appended to `remote` instead, for their owners to claim.
pub fn expand_shard<const COLS: usize>(
    scan: &LayerScan,
    task: Task,
    remote: &mut Vec<u64>,
) -> Found {
    expand_scan_in::<COLS, true>(scan, task, &mut |n| remote.push(n))
}

#[inline(always)]
fn expand_scan_in<const COLS: usize, const SHARDED: bool>(
    scan: &LayerScan,
    task: Task,
    remote: &mut impl FnMut(u64),
) -> Found {
    let LayerScan {
        space,
        moves,
        table,
        colour,
        codes,
        record,
        mine,
    } = *scan;
    let mut claims = Claims::new(table, record);
    // Only this task reads the frontier's slots, and claims write the other colour.
    let select = |w, word, candidates| table.settle_frontier(w, word, candidates, codes.done);
    for_each_slot(
        space,
        table,
        task,
        colour,
        select,
        |cursor, base, rank, blank, _| {
            let targets = neighbours::<COLS>(space, &moves[blank], cursor, base, rank);
            for (j, &n) in targets.iter().enumerate() {
                // Two columns: one slide (the second is the state itself).
                if COLS == 2 && j == 1 {
                    continue;
                }
                // On a shard, most targets are local (a horizontal move nearly always is): this branch
                // is predicted; on one machine it is compiled away.
                if !SHARDED || mine.holds(n) {
                    claims.offer(n);
                } else {
                    remote(n);
                }
            }
        },
    );
    claims.finish()
}

/// Claims `indices` (targets other shards sent to this one): the states newly marked.
pub fn claim_all(table: &Table, indices: &[u64], record: bool) -> Found {
    let mut claims = Claims::new(table, record);
    for &n in indices {
        claims.offer(n);
    }
    claims.finish()
}

/// Pull: marks `FRONTIER` every unseen state of `lo..hi` whose blank has
/// colour `colour` and which has a neighbour in the frontier (holding `FRONTIER`, the other
/// colour). This is exact: an unseen state is at depth d+1 or more, so its neighbours are at
/// depth d or more, and the states of that colour holding `FRONTIER` are layer d.
///
/// The frontier is read by every task, so it is not settled here but by the next layer. This
/// layer settles its own colour's previous frontier (layer d-1, left by a pull) before it marks
/// anything: each task writes only its own slots.
pub fn expand_pull<const COLS: usize>(scan: &LayerScan, task: Task) -> Found {
    pull_in::<COLS, false>(scan, task, &mut vec![])
}

/// Pull on a shard: as `expand_pull`, but a state none of whose neighbours in the shard
/// (`scan.mine`) is in the frontier has its neighbours in other shards appended to `queries`, as
/// (state, neighbour) pairs, for their owners to say whether they are in the frontier.
pub fn pull_shard<const COLS: usize>(
    scan: &LayerScan,
    task: Task,
    queries: &mut Vec<(u64, u64)>,
) -> Found {
    pull_in::<COLS, true>(scan, task, queries)
}

#[inline(always)]
fn pull_in<const COLS: usize, const SHARDED: bool>(
    scan: &LayerScan,
    task: Task,
    queries: &mut Vec<(u64, u64)>,
) -> Found {
    let LayerScan {
        space,
        moves,
        table,
        colour,
        codes,
        record,
        mine,
    } = *scan;
    // Each state is claimed by the one task that owns it, so `visit` always wins here.
    let mut claims = Claims::new(table, record);
    let select = |w, word, candidates| {
        table.settle_frontier(w, word, candidates, codes.before);
        Table::matching(word, 0) & candidates
    };
    for_each_slot(
        space,
        table,
        task,
        colour,
        select,
        |cursor, base, rank, blank, index| {
            let targets = neighbours::<COLS>(space, &moves[blank], cursor, base, rank);
            // On one machine every target is here: the test is compiled away.
            let here = |n: u64| !SHARDED || mine.holds(n);
            if targets.iter().any(|&n| here(n) && table.get(n) == FRONTIER) {
                claims.push(index);
            } else if SHARDED {
                queries.extend(targets.iter().filter(|&&n| !here(n)).map(|&n| (index, n)));
            }
        },
    );
    claims.finish()
}

/// Settles the states of `lo..hi` holding `FRONTIER` whose blank has colour
/// `colour` with `code`; counts them, and lists them if `record`.
pub fn settle_scan(
    space: &StateSpace,
    table: &Table,
    task: Task,
    colour: usize,
    code: u64,
    record: bool,
) -> Found {
    let mut found = Found::default();
    let select = |w, word, candidates| {
        let mut settled = table.settle_frontier(w, word, candidates, code);
        found.states += u64::from(settled.count_ones());
        while record && settled != 0 {
            found
                .marked
                .push(w as u64 * 32 + u64::from(settled.trailing_zeros() / 2));
            settled &= settled - 1;
        }
        0
    };
    for_each_slot(space, table, task, colour, select, |_, _, _, _, _| {});
    found
}

/// Expands the listed frontier states (ascending indices): marks their unseen neighbours
/// `FRONTIER` and settles them.
pub fn expand_list<const COLS: usize>(scan: &LayerScan, frontier: &[u64]) -> Found {
    expand_list_in::<COLS, false>(scan, frontier, &mut |_| {})
}

/// List expansion on a shard: as `expand_list` (the listed states are this shard's), but the
/// neighbours outside the shard (`scan.mine`) are appended to `remote`, for their owners.
pub fn expand_list_shard<const COLS: usize>(
    scan: &LayerScan,
    frontier: &[u64],
    remote: &mut Vec<u64>,
) -> Found {
    expand_list_in::<COLS, true>(scan, frontier, &mut |n| remote.push(n))
}

#[inline(always)]
fn expand_list_in<const COLS: usize, const SHARDED: bool>(
    scan: &LayerScan,
    frontier: &[u64],
    remote: &mut impl FnMut(u64),
) -> Found {
    let LayerScan {
        space,
        moves,
        table,
        codes,
        record,
        mine,
        ..
    } = *scan;
    let mut claims = Claims::new(table, record);
    let mut cursor = Cursor::new();
    for &i in frontier {
        let (blank, rank) = space.split(i);
        space
            .indexer
            .seek_digits(&mut cursor, rank, space.parity[blank.0]);
        let base = i - u64::from(space.slot[blank.0]);
        for n in neighbours::<COLS>(space, &moves[blank.0], &cursor, base, rank) {
            if !SHARDED || mine.holds(n) {
                claims.offer(n);
            } else {
                remote(n);
            }
        }
        table.settle((i / 32) as usize, 1 << (2 * (i % 32)), codes.done);
    }
    claims.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::board::Shape;

    /// Incremental neighbour indices equal ranking the neighbouring boards from scratch.
    #[test]
    fn neighbour_indices_match_direct_ranking() {
        for (r, c) in [
            (2, 2),
            (3, 2),
            (2, 3),
            (3, 3),
            (4, 3),
            (3, 4),
            (4, 4),
            (2, 7),
            (7, 2),
        ] {
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

//! A graph's moves as the scans read them (`GraphTables`): each slot's moves of the blank along
//! its edges, and the change in rank a move makes (`turn_delta`): the window of entries from
//! min(u, v) turns by one, and the new rank follows from the window's Lehmer digits alone.

use crate::bfs::layer::scan::LayerScan;
use crate::bfs::layer::turn::{rotate_left_delta, rotate_right_delta};
use crate::index::rank::{Cursor, Seeker, DIGITS};
use crate::index::space::StateSpace;
use crate::puzzle::board::Cell;

/// The most moves a blank has: a vertex's neighbours.
pub const MAX_DEGREE: usize = crate::index::rank::MAX_TILES;

/// One move of the blank along an edge, from vertex v to u: the tile on u moves past `passed`
/// entries of the sequence, which turn with it in the window starting at entry `at`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GraphMove {
    /// The window's first entry: min(u, v).
    at: u8,
    /// The entries the moving tile passes: |u - v| - 1.
    passed: u8,
    /// The tile moves to the window's start (u > v: the blank moves to a later vertex);
    /// otherwise from its start to its end.
    right: bool,
    /// The target's slot in its rank.
    slot: u8,
}

/// What a graph's scans read: the moves of the blank of each slot.
///
/// Every slot has as many moves of each kind as the slot with the most, the missing ones stand-ins
/// whose target is the state itself (seen, so never claimed, and never in the frontier while
/// it is pulled): the loops over them run as often for every state, which the branch predictor
/// learns (a loop of as many steps as the blank has moves missed its exit about once a state).
pub struct GraphTables {
    /// The moves of slot j's blank that pass a tile: `moves[j * far..(j + 1) * far]`.
    moves: Vec<GraphMove>,
    far: usize,
    /// The others (between consecutive vertices: the rank is kept), as the change in index:
    /// `near[j * close..(j + 1) * close]`.
    near: Vec<i64>,
    close: usize,
    /// The same by word: (change in index, the slots of a word that have a move changing it
    /// by that, by the place q of the word's first slot in its rank). A push marks the targets
    /// inside the word with the word's settling, in one atomic step.
    word_near: Vec<(i64, [u64; 32])>,
}

/// A state of a graph scan: its rank, its slot `j` (where its blank is) and its index.
#[derive(Clone, Copy)]
pub(in crate::bfs::layer) struct Slotted {
    pub(in crate::bfs::layer) rank: u64,
    pub(in crate::bfs::layer) j: usize,
    pub(in crate::bfs::layer) index: u64,
}

/// A scan of a graph's moves.
pub type GraphScan<'a> = LayerScan<'a, GraphTables>;

impl GraphTables {
    /// The moves of every slot of `space`, a puzzle on a graph.
    pub fn new(space: &StateSpace) -> GraphTables {
        let graph = space.graph().expect("a graph's space");
        let n = graph.vertices();
        let (mut moves, mut near) = (vec![], vec![]);
        for (j, &b) in space.blanks().iter().enumerate() {
            let b = usize::from(b);
            let v = space.vertex(Cell(b));
            let (mut far, mut close) = (vec![], vec![]);
            for u in graph.neighbours(v) {
                let passed = u.abs_diff(v) - 1;
                // The target's blank: u, with the sequence's parity flipped as often as the
                // tile passes entries (its key on a graph whose index has both parities).
                let parity = usize::from(space.parity()[b]) ^ (passed & 1);
                let key = if space.width() as usize > n {
                    parity * n + u
                } else {
                    u
                };
                debug_assert_eq!(usize::from(space.parity()[key]), parity);
                if passed == 0 {
                    close.push(i64::from(space.slots()[key]) - j as i64);
                    continue;
                }
                far.push(GraphMove {
                    at: u.min(v) as u8,
                    passed: passed as u8,
                    right: u > v,
                    slot: space.slots()[key],
                });
            }
            moves.push(far);
            near.push(close);
        }
        let far = moves.iter().map(Vec::len).max().unwrap_or(0);
        let close = near.iter().map(Vec::len).max().unwrap_or(0);
        // The stand-ins: a turn of nothing to the state's own slot, a change of 0.
        for (j, m) in moves.iter_mut().enumerate() {
            let own = GraphMove {
                at: 0,
                passed: 0,
                right: false,
                slot: j as u8,
            };
            m.resize(far, own);
        }
        near.iter_mut().for_each(|c| c.resize(close, 0));
        let mut tables = GraphTables {
            moves: moves.concat(),
            far,
            near: near.concat(),
            close,
            word_near: vec![],
        };
        tables.word_near = tables.by_word(space.width());
        tables
    }

    /// `word_near`, for `width` slots a rank (at most 32).
    fn by_word(&self, width: u64) -> Vec<(i64, [u64; 32])> {
        let mut by: Vec<(i64, [u64; 32])> = vec![];
        for q in 0..width {
            for s in 0..32u64 {
                let j = ((q + s) % width) as usize;
                for &delta in self.near_of(j).iter().filter(|&&d| d != 0) {
                    let at = match by.iter().position(|&(d, _)| d == delta) {
                        Some(at) => at,
                        None => {
                            by.push((delta, [0; 32]));
                            by.len() - 1
                        }
                    };
                    by[at].1[q as usize] |= 1 << (2 * s);
                }
            }
        }
        by
    }

    /// The targets inside a word of the moves that keep the rank from its slots `frontier`
    /// (low bits; the word's first slot is slot q of its rank), as low bits of the word's
    /// slots: each slot's bit shifted by its move's change in index, those that leave the
    /// word shifted out.
    #[inline(always)]
    pub(in crate::bfs::layer) fn in_word(&self, q: usize, frontier: u64) -> u64 {
        let mut targets = 0;
        for (delta, masks) in &self.word_near {
            let (delta, from) = (*delta, frontier & masks[q % 32]);
            // |delta| < 32: slots of one rank.
            let shift = (2 * delta.unsigned_abs()) % 64;
            targets |= if delta > 0 {
                from << shift
            } else {
                from >> shift
            };
        }
        targets
    }

    /// The moves of the blank of slot `j` that pass a tile.
    #[inline(always)]
    fn of(&self, j: usize) -> &[GraphMove] {
        &self.moves[j * self.far..(j + 1) * self.far]
    }

    /// The changes in index of the moves of the blank of slot `j` that keep the rank.
    #[inline(always)]
    fn near_of(&self, j: usize) -> &[i64] {
        &self.near[j * self.close..(j + 1) * self.close]
    }

    /// The targets of the state at `index`, slot `j` of rank `rank`, whose digits `seeker`
    /// writes into `cursor`, into `out` (those of the moves that keep the rank only where they
    /// leave the state's word, if `in_word` marked the others); returns how many.
    #[inline(always)]
    pub(in crate::bfs::layer) fn targets(
        &self,
        space: &StateSpace,
        seeker: &Seeker,
        cursor: &mut Cursor,
        state: Slotted,
        out: &mut [u64],
        in_word: bool,
    ) -> usize {
        let Slotted { rank, j, index } = state;
        let mut made = 0;
        let s = (index % 32) as i64;
        for &delta in self.near_of(j) {
            out[made] = index.wrapping_add_signed(delta);
            made += usize::from(!in_word || !(0..32).contains(&(s + delta)));
        }
        let moves = self.of(j);
        if self.far == 0 {
            return made;
        }
        let parity = space.parity()[usize::from(space.blanks()[j])];
        seeker.seek_digits(cursor, rank, parity);
        let (d, w) = (&cursor.digits, space.indexer().weights());
        // The full rank: the parity digit, entry m - 2, below the halved rank.
        let full = (rank << 1 | u64::from(d[(space.tiles() - 2) % 16])) as i64;
        let width = space.width();
        for (to, m) in out[made..].iter_mut().zip(moves) {
            let delta = turn_delta(w, d, m);
            *to = ((full + delta) as u64 >> 1) * width + u64::from(m.slot);
        }
        made + moves.len()
    }
}

/// The change in full rank of `m`'s turn, from the window's digits `d` and their weights `w`:
/// none for a move between consecutive vertices, a linear form with one comparison for a swap
/// (`turn::short_terms`, two columns), the board's rotations for two or three entries passed
/// (`turn::rotate_left_delta` and `rotate_right_delta`), and any other (`long_turn_delta`).
#[inline(always)]
pub(in crate::bfs::layer) fn turn_delta(w: &[u64; DIGITS], d: &[u8; DIGITS], m: &GraphMove) -> i64 {
    let (i, k) = (usize::from(m.at) % 16, usize::from(m.passed));
    match k {
        0 => 0,
        1 => {
            // Entries x, y at i, i+1 swapped: x < y exactly when a ≤ b.
            let (a, b) = (i64::from(d[i]), i64::from(d[i + 1]));
            let (w0, w1) = (w[i] as i64, w[i + 1] as i64);
            let diff = b - a;
            diff * (w0 - w1) + std::hint::select_unpredictable(diff >= 0, w0, -w1)
        }
        // A constant count of entries a call: its loops unroll.
        2 if m.right => rotate_right_delta(w, d, i, 2),
        2 => rotate_left_delta(w, d, i, 2),
        3 if m.right => rotate_right_delta(w, d, i, 3),
        3 => rotate_left_delta(w, d, i, 3),
        4 => long_turn_delta::<4>(w, d, m),
        5 => long_turn_delta::<5>(w, d, m),
        6 => long_turn_delta::<6>(w, d, m),
        7 => long_turn_delta::<7>(w, d, m),
        _ => long_turn_delta::<0>(w, d, m),
    }
}

/// `turn_delta` for any window inside 16 entries (as `turn::rotate_left_delta` and
/// `rotate_right_delta`): `K` entries passed, or `m.passed` if `K` is 0.
#[inline(never)]
fn long_turn_delta<const K: usize>(w: &[u64; DIGITS], d: &[u8; DIGITS], m: &GraphMove) -> i64 {
    let i = usize::from(m.at) % 16;
    let k = if K == 0 {
        usize::from(m.passed) % 16
    } else {
        K
    };
    let at = |j: usize| j % 16;
    let mut delta = 0i64;
    let mut below_x = 0i64;
    if m.right {
        // Entry i+k moves to i; its rank among the entries from i+t+1 on, for t = k-1 down.
        let mut r = d[at(i + k)];
        for t in (0..k).rev() {
            let x_smaller = i64::from(r < d[at(i + t)]);
            below_x += 1 - x_smaller;
            r += 1 - x_smaller as u8;
            let new = i64::from(d[at(i + t)]) - x_smaller;
            delta += (new - i64::from(d[at(i + t + 1)])) * w[at(i + t + 1)] as i64;
        }
        let new = i64::from(d[at(i + k)]) + below_x;
        delta + (new - i64::from(d[i])) * w[i] as i64
    } else {
        // Entry i moves to i+k: compared with the rank of each entry it passes among the
        // entries from i+1 on.
        let x = d[i];
        for t in 1..=k {
            let mut r = d[at(i + t)];
            for u in (1..t).rev() {
                r += u8::from(r >= d[at(i + u)]);
            }
            let x_smaller = i64::from(x <= r);
            below_x += 1 - x_smaller;
            let new = i64::from(d[at(i + t)]) + x_smaller;
            delta += (new - i64::from(d[at(i + t - 1)])) * w[at(i + t - 1)] as i64;
        }
        let new = i64::from(d[i]) - below_x;
        delta + (new - i64::from(d[at(i + k)])) * w[at(i + k)] as i64
    }
}

//! One BFS layer: expand frontier states into the next layer.
//!
//! The table is sequence-major (see `space`): the states sharing a tile sequence are adjacent.
//! A frontier is found by scanning the table word by word (32 states a word, matched against
//! `FRONTIER` and the blank colour of the layer in a few bit operations; words without a
//! `FRONTIER` slot are skipped four at a time), or, for small layers, taken from the list of
//! their indices. A state's Lehmer digits come from `Indexer::seek_digits` (scans go in rank
//! order, so it mostly writes the last digits from a table). Neighbour indices come without
//! re-ranking, from the digits alone:
//! - a horizontal move keeps the sequence: same rank, the next or previous slot, nearly always
//!   in the same word. A push claims those for a whole word at once, with the word's settling,
//!   in one atomic step (`word_slides`, `Table::settle_and_mark`);
//! - a vertical move rotates a window of C consecutive sequence entries (one tile moves past
//!   C-1 others), which changes only those C Lehmer digits: the new full rank is the old one
//!   plus Σ (d'ⱼ - dⱼ)·(m-1-j)! over the window, O(C²) work with C ≤ 4. The comparisons a
//!   rotation needs (is the moving tile smaller than each tile it passes?) follow from the
//!   window's digits, so the tile values are never built (this took 2x5 from 674 M to 543 M
//!   instructions); with two or three columns the change is a linear form of the window's
//!   digits with weights precomputed per move (`short_delta`), and with three a batch reads
//!   it from a table by the window's digits instead (`delta_tables`). Its target is often far
//!   away in the table: a push computes the targets of a batch of frontier states and prefetches
//!   their words, and tests them while the next batch is computed (`Batch`). With three
//!   columns, states of the top and bottom rows, which have one vertical move, are queued apart
//!   from the others (`WordPlaces::pairs`): no state computes a move its blank cannot make.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use crate::bfs::schedule::Task;
use crate::bfs::shard::Mine;
use crate::bfs::table::{settled, Table, FRONTIER};
use crate::index::rank::{Cursor, Seeker, DIGITS};
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
    // Slot and width as u64: the arithmetic reads them straight from memory.
    slot: u64,
    width: u64,
    /// All ones for a move the blank can make; zero for a stand-in whose "target" is the state
    /// itself (seen, so never claimed, and never in the frontier while it is pulled).
    valid: i64,
    /// With two or three columns, the change in full rank is linear in the window's digits
    /// a, b (and c) but for one or two comparisons: Σ `coef`ⱼ·dⱼ + `constant` + `terms`[0] if
    /// the first comparison holds + `terms`[1] if the second does (see `short_delta`; all 0
    /// for a stand-in, whose target is the state itself).
    coef: [i64; 3],
    constant: i64,
    terms: [i64; 2],
    /// `constant + terms[0]`: with two columns, one of the two constants is selected.
    with_first: i64,
    /// With three columns, where this move's changes start in `WordPlaces::deltas` (0, a
    /// block of zeros, for a stand-in or where no table was made), and the weights of the
    /// window's first two digits in its table (`delta_tables`).
    at: u32,
    radix: [u32; 2],
}

impl Turn {
    /// The change in full rank of this three-column rotation, read from its table in `deltas`
    /// (`delta_tables`) at the window's digits: 0 for a stand-in.
    #[inline(always)]
    fn looked_up(&self, deltas: &[i64], d: &[u8; DIGITS]) -> i64 {
        let i = self.window as usize % 16;
        let [r0, r1] = self.radix.map(|r| r as usize);
        let at = self.at as usize + usize::from(d[i]) * r0 + usize::from(d[i + 1]) * r1;
        deltas[at + usize::from(d[i + 2])] & self.valid
    }
}

/// The change in full rank of every three-column rotation of `moves` (their `at` and `radix`
/// set to find it), by the window's digits a, b, c: with the window at sequence entry i of m,
/// a ≤ m-1-i, b ≤ m-2-i and c ≤ m-3-i (a Lehmer digit counts the smaller entries after it),
/// so a table of (m-i)(m-1-i)(m-2-i) values, read at a·(m-1-i)(m-2-i) + b·(m-2-i) + c,
/// replaces `short_delta`'s comparisons and selections; one table per window and direction.
/// 4x3 has 18 of them, 5,940 values (47.5 KB) in all. Empty for other widths.
fn delta_tables(space: &StateSpace, moves: &mut [BlankMoves]) -> Vec<i64> {
    // Stand-ins read zeros (`looked_up` masks them anyway): room for any digit c.
    let mut deltas = vec![0i64; DIGITS];
    if space.shape.cols != 3 {
        return deltas;
    }
    let m = space.tiles();
    let mut made: Vec<((u32, bool), u32)> = vec![];
    for blank in moves.iter_mut() {
        for (turn, left) in [(&mut blank.up, true), (&mut blank.down, false)] {
            if turn.valid == 0 {
                continue;
            }
            let i = turn.window as usize;
            let (na, nb, nc) = (m - i, m - 1 - i, m - 2 - i);
            turn.radix = [(nb * nc) as u32, nc as u32];
            if let Some(&(_, at)) = made.iter().find(|(key, _)| *key == (turn.window, left)) {
                turn.at = at;
                continue;
            }
            turn.at = deltas.len() as u32;
            made.push(((turn.window, left), turn.at));
            let mut d = [0u8; DIGITS];
            for a in 0..na {
                for b in 0..nb {
                    for c in 0..nc {
                        d[i..i + 3].copy_from_slice(&[a as u8, b as u8, c as u8]);
                        deltas.push(short_delta::<3>(turn, &d, left));
                    }
                }
            }
        }
    }
    deltas
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
            let width = space.width();
            let stay = Turn {
                window: 0,
                slot: u64::from(own),
                width,
                valid: 0,
                coef: [0; 3],
                constant: 0,
                terms: [0; 2],
                with_first: 0,
                at: 0,
                radix: [0; 2],
            };
            let mut m = BlankMoves {
                slides: [own; 2],
                up: stay,
                down: stay,
            };
            let mut slides = 0;
            for to in shape.neighbours(Cell(b)) {
                let t = to.0;
                let turn = |window: usize, left: bool| {
                    let (coef, constant, terms) = short_terms(space, window, left);
                    Turn {
                        window: window as u32,
                        slot: u64::from(space.slot[t]),
                        width,
                        valid: -1,
                        coef,
                        constant,
                        terms,
                        with_first: constant + terms[0],
                        at: 0,
                        radix: [0; 2],
                    }
                };
                if t + c == b {
                    m.up = turn(t, true);
                } else if t == b + c {
                    m.down = turn(b, false);
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
/// Lehmer digits `d` and their weights `w` alone (`i` below 16, `k` at most 3: no bounds checks).
///
/// A move compares the moving entry x with the k it passes, and the relative order of entries
/// follows from their digits: `d[j]` is the rank of entry j among the entries from j on, so an
/// entry's rank among the entries from i on is found by inserting the entries before it, right
/// to left, at their digits. Here x = entry i ranks `d[i]` among the entries after it, so it is
/// smaller than entry i+t exactly when `d[i]` ≤ the rank of entry i+t among the entries from
/// i+1 on.
#[inline(always)]
fn rotate_left_delta(w: &[u64; DIGITS], d: &[u8; DIGITS], i: usize, k: usize) -> i64 {
    let (i, k) = (i % 16, k % 4);
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
        delta += (new - i64::from(d[i + t - 1])) * w[i + t - 1] as i64;
    }
    let new = i64::from(d[i]) - below_x;
    delta + (new - i64::from(d[i + k])) * w[i + k] as i64
}

/// Change in full rank when the entry at `i + k` moves to `i` (the others shift right), from the
/// Lehmer digits `d` alone (see `rotate_left_delta`).
#[inline(always)]
fn rotate_right_delta(w: &[u64; DIGITS], d: &[u8; DIGITS], i: usize, k: usize) -> i64 {
    let (i, k) = (i % 16, k % 4);
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
        delta += (new - i64::from(d[i + t + 1])) * w[i + t + 1] as i64;
    }
    let new = i64::from(d[i + k]) + below_x;
    delta + (new - i64::from(d[i])) * w[i] as i64
}

/// The linear form of `Turn` for a rotation of the window at `window` on a board of two or
/// three columns (left: the first entry moves to the end; right: the last moves first), from
/// `rotate_left_delta` and `rotate_right_delta` with k = 1 or 2, the window's weights w₀, w₁,
/// w₂ and digits a, b, c:
/// - a swap (either way): a ≤ b tells whether the entry moving right passes a smaller one:
///   (b - a)(w₀ - w₁) + w₀ if so, else (b - a)(w₀ - w₁) - w₁;
/// - left by two: the moving entry x is compared with the two it passes, x < y iff a ≤ b, and
///   x < z iff a ≤ r, where r = c + [c ≥ b] is z's rank after x: (b - a)w₀ + (c - b)w₁ +
///   (a - c - 2)w₂ + (w₀ + w₂)[a ≤ b] + (w₁ + w₂)[a ≤ r];
/// - right by two: z < y iff c < b, and z < x iff r < a: (c - a + 2)w₀ + (a - b)w₁ +
///   (b - c)w₂ - (w₀ + w₂)[c < b] - (w₀ + w₁)[r < a].
///
/// Other widths use the general rotations (all zeros here).
fn short_terms(space: &StateSpace, window: usize, left: bool) -> ([i64; 3], i64, [i64; 2]) {
    let w = |j: usize| space.indexer.weights()[(window + j) % DIGITS] as i64;
    let (w0, w1, w2) = (w(0), w(1), w(2));
    match (space.shape.cols, left) {
        (2, _) => ([w1 - w0, w0 - w1, 0], -w1, [w0 + w1, 0]),
        (3, true) => ([w2 - w0, w0 - w1, w1 - w2], -2 * w2, [w0 + w2, w1 + w2]),
        (3, false) => (
            [w1 - w0, w2 - w1, w0 - w2],
            2 * w0,
            [-(w0 + w2), -(w0 + w1)],
        ),
        _ => ([0; 3], 0, [0; 2]),
    }
}

/// Change in full rank of the rotation `turn` of two (`COLS` = 2) or three entries (`left`:
/// the first moves to the end), from the window's digits: a linear form with one or two
/// comparisons, its weights precomputed (`short_terms`).
#[inline(always)]
fn short_delta<const COLS: usize>(turn: &Turn, d: &[u8; DIGITS], left: bool) -> i64 {
    let i = turn.window as usize % 16;
    let (a, b, c) = (i64::from(d[i]), i64::from(d[i + 1]), i64::from(d[i + 2]));
    // Each comparison is a coin toss to the branch predictor: its term is selected without a
    // branch (LLVM made a branch of a plain `if`, and of a mask, which cost 2x6 and 3x4 a third
    // more time).
    let when = |holds: bool, term: i64| std::hint::select_unpredictable(holds, term, 0);
    if COLS == 2 {
        // coef[0] = -coef[1]: one multiplication, and a ≤ b is the sign of b - a.
        let diff = b - a;
        let constant = std::hint::select_unpredictable(diff >= 0, turn.with_first, turn.constant);
        return diff * turn.coef[1] + constant;
    }
    // The coefficients sum to 0 (`short_terms`): two multiplications, of differences.
    let [_, kb, kc] = turn.coef;
    let [p, q] = turn.terms;
    let r = c + i64::from(c >= b);
    let (first, second) = if left {
        (a <= b, a <= r)
    } else {
        (c < b, r < a)
    };
    (b - a) * kb + (c - a) * kc + turn.constant + when(first, p) + when(second, q)
}

/// The one vertical move of a blank in the top or bottom row, on a board of three columns, by
/// place p from a rank's first slot (as `Vertical`).
#[derive(Clone, Copy, Debug)]
pub struct Single {
    /// How many ranks on from the first the state is (p / n).
    carry: u8,
    parity: u8,
    turn: Turn,
}

impl Single {
    /// The index of this move's target from a state of sequence rank `rank` whose Lehmer
    /// digits are `d` (its parity digit at `parity_at`, below 16; `width` slots a rank), read
    /// from the tables `deltas` (`delta_tables`).
    #[inline(always)]
    fn target(
        &self,
        deltas: &[i64],
        d: &[u8; DIGITS],
        rank: u64,
        parity_at: usize,
        width: u64,
    ) -> u64 {
        let full = (rank << 1 | u64::from(d[parity_at % 16])) as i64;
        ((full + self.turn.looked_up(deltas, d)) as u64 >> 1) * width + self.turn.slot
    }
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

/// The columns of the engine's board: `COLS` if it is not 0, else read from `space` (a
/// constant lets the window loops unroll; the engine is instantiated for 2, 3 and 4).
#[inline(always)]
fn cols<const COLS: usize>(space: &StateSpace) -> usize {
    if COLS == 0 {
        space.shape.cols
    } else {
        COLS
    }
}

/// The targets of the vertical moves (up, down) of a state whose sequence (rank `rank`) is in
/// `cursor`; a move the blank cannot make gives the state's own index.
#[inline(always)]
fn vertical<const COLS: usize>(
    space: &StateSpace,
    up: &Turn,
    down: &Turn,
    cursor: &Cursor,
    rank: u64,
    parity_at: usize,
    deltas: Option<&[i64]>,
) -> [u64; 2] {
    let (d, w) = (&cursor.digits, space.indexer.weights());
    // The parity digit, m - 2 (`parity_at`, below 16).
    let full = (rank << 1 | u64::from(d[parity_at % 16])) as i64;
    let k = cols::<COLS>(space) - 1;
    let short = COLS == 2 || COLS == 3;
    let to = |t: &Turn, delta: i64| {
        // A short form's stand-in has no terms: its delta is 0 already.
        let delta = if short { delta } else { delta & t.valid };
        let new = (full + delta) as u64 >> 1;
        new * t.width + t.slot
    };
    // With three columns and the tables of `WordPlaces`, read from them; with two or three, a
    // linear form of the window's digits.
    if let (3, Some(deltas)) = (COLS, deltas) {
        return [
            to(up, up.looked_up(deltas, d)),
            to(down, down.looked_up(deltas, d)),
        ];
    }
    let [up_delta, down_delta] = if short {
        [
            short_delta::<COLS>(up, d, true),
            short_delta::<COLS>(down, d, false),
        ]
    } else {
        [
            rotate_left_delta(w, d, up.window as usize, k),
            rotate_right_delta(w, d, down.window as usize, k),
        ]
    };
    [to(up, up_delta), to(down, down_delta)]
}

/// The four move targets of a state whose sequence (rank `rank`) is in `cursor` and starts at
/// table index `base`: slides first (same cache line), then up and down. A move the blank
/// cannot make gives the state's own index.
#[inline(always)]
fn neighbours<const COLS: usize>(
    space: &StateSpace,
    moves: &BlankMoves,
    cursor: &Cursor,
    base: u64,
    rank: u64,
) -> [u64; 4] {
    let parity_at = space.tiles() - 2;
    let [up, down] = vertical::<COLS>(space, &moves.up, &moves.down, cursor, rank, parity_at, None);
    [
        base + u64::from(moves.slides[0]),
        base + u64::from(moves.slides[1]),
        up,
        down,
    ]
}

/// Claims of neighbours for the next layer: the count (and, if `record`, the indices) of the
/// states this task marked.
///
/// A target is first tested with a plain load, and most are seen already. Whether one is unseen
/// is a coin toss the branch predictor loses, so the test does not branch: every target is
/// written to a small buffer, whose end advances only past unseen ones, and the buffer is
/// claimed (atomically, see `Table::claim_unseen`) when full, in a loop whose branches almost always
/// go the same way.
struct Claims<'a> {
    table: &'a Table,
    found: u64,
    record: bool,
    marked: Vec<u64>,
    pending: [u64; PENDING],
    waiting: usize,
}

/// Targets buffered before they are claimed: room for a batch's targets (`offer_all`).
const PENDING: usize = 4 * ROOM;

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

    /// Offers every target of `targets`, at most `PENDING - 4` (`offer` with the buffer's end kept
    /// in a register, and room made for all of them first: no test in the loop).
    #[inline(always)]
    fn offer_all(&mut self, targets: &[u64]) {
        // `buffer` may add one more.
        if self.waiting + targets.len() > PENDING - 4 {
            self.claim();
        }
        let words = self.table.span(0, self.table.index_words());
        let mut waiting = self.waiting;
        for &index in targets {
            let unseen = (words[(index / 32) as usize].load(Relaxed) >> (2 * (index % 32))) & 3;
            self.pending[waiting % PENDING] = index;
            waiting += usize::from(unseen == 0);
        }
        self.waiting = waiting;
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
        self.pending[self.waiting % PENDING] = index;
        self.waiting += usize::from(keep);
        if self.waiting > PENDING - 4 {
            self.claim();
        }
    }

    #[inline(never)]
    fn claim(&mut self) {
        for &index in &self.pending[..self.waiting] {
            // Every index buffered was unseen when offered (or, for a pull, is an unseen state
            // of the task's own).
            let won = self.table.claim_unseen(index);
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

/// States whose vertical moves wait to be computed, and the targets of the batch before.
///
/// A vertical move lands far from its state (a tenth of the table away on 2x6, from the top
/// row), so a batch's targets are computed together and their words prefetched, and they are
/// tested while the next batch is computed, by which time their words are in cache: the CPU
/// never waits on one target's load to compute the next, and the atomic claims, which wait for
/// every load before them, find their words there. Each step is a short loop of its own, with
/// few values live: the scan of the words, the computing of targets and the claims no longer
/// share registers (one loop doing all three kept a third of its values on the stack).
struct Batch<const T: usize> {
    /// `rank << 6 | p` of each state waiting: the state at place p from that rank's first slot,
    /// slot p % n of rank `rank + p / n` (`Vertical::carry`; a rank has n ≤ 17 slots, and
    /// p < n + 32).
    states: [u64; ROOM],
    waiting: usize,
    /// What the last two batches computed for each state, T values (a push's vertical
    /// targets: up and down, or the one move of a batch of `singles`; a pull's neighbours and
    /// the state's own index), their words prefetched: the last one's are in `targets[last]`,
    /// `ready` of them.
    targets: [[[u64; T]; ROOM]; 2],
    last: usize,
    ready: usize,
    cursor: Cursor,
}

/// States a batch holds: its targets are tested a batch after their prefetch, the longer the
/// better up to 32 (`docs/log/constants.md`).
const BATCH: usize = 32;

/// States a batch has room for: a batch is computed once it holds `BATCH`, and a word adds up
/// to 32 at once.
const ROOM: usize = BATCH + 32;

impl<const T: usize> Batch<T> {
    fn new() -> Self {
        Batch {
            states: [0; ROOM],
            waiting: 0,
            targets: [[[0; T]; ROOM]; 2],
            last: 0,
            ready: 0,
            cursor: Cursor::new(),
        }
    }

    /// Adds state (`rank`, slot `j`); true if the batch is full.
    #[inline(always)]
    fn add(&mut self, rank: u64, j: usize) -> bool {
        self.states[self.waiting % BATCH] = rank << 6 | j as u64;
        self.waiting += 1;
        self.waiting >= BATCH
    }

    /// Adds the states of a word's slots `mask` (low bits), its first slot being slot q of rank
    /// `rank0`; true if the batch is full.
    ///
    /// A word holds about three frontier states in the bulk layers, a count the branch
    /// predictor cannot guess: a loop over them missed its exit once a word (cachegrind's branch
    /// simulation of 2x6: 87 M of the run's 201 M mispredictions). The first four slots are
    /// written whether they exist or not (a missing one writes a value past the batch's end)
    /// and the end moves past those that do; only a word with more loops.
    #[inline(always)]
    fn add_word(&mut self, rank0: u64, q: u64, mask: u64) -> bool {
        let at = self.waiting % BATCH;
        let base = rank0 << 6 | q;
        let mut m = mask;
        for k in 0..4 {
            self.states[at + k] = base + u64::from(m.trailing_zeros() / 2);
            m &= m.wrapping_sub(1);
        }
        let mut k = 4;
        while m != 0 {
            self.states[(at + k) % ROOM] = base + u64::from(m.trailing_zeros() / 2);
            m &= m - 1;
            k += 1;
        }
        self.waiting = at + mask.count_ones() as usize;
        self.waiting >= BATCH
    }

    /// Starts a flush: the buffer the states waiting compute into, the one to return after.
    #[inline(always)]
    fn turn(&mut self) -> usize {
        let before = self.last;
        self.last ^= 1;
        before
    }

    /// Ends a flush: what the batch before computed; the states waiting are now ready.
    #[inline(always)]
    fn ready(&mut self, before: usize) -> &[[u64; T]] {
        let ready = std::mem::replace(&mut self.ready, self.waiting);
        self.waiting = 0;
        &self.targets[before][..ready]
    }
}

/// What a batch's flush reads of the search: the index, the word places, a seeker of the
/// index, the table's words and the parity digit's place (in locals: through the references
/// they would be loaded again after every store, 2x5: 12 instructions a state).
type FlushReads<'s> = (
    &'s StateSpace,
    &'s WordPlaces,
    &'s Seeker<'s>,
    &'s [AtomicU64],
    usize,
);

/// The vertical targets of a batch's state (`rank << 6 | p`, as `Batch::states` holds it),
/// their words prefetched, with its rank and its place's moves.
#[inline(always)]
fn vertical_targets<'s, const COLS: usize>(
    (space, places, seeker, words, parity_at): FlushReads<'s>,
    cursor: &mut Cursor,
    state: u64,
) -> (u64, &'s Vertical, [u64; 2]) {
    let v = &places.verticals[(state % 64) as usize];
    let rank = (state >> 6) + u64::from(v.carry);
    seeker.seek_digits(cursor, rank, v.parity);
    let deltas = Some(places.deltas.as_slice());
    let [up, down] = vertical::<COLS>(space, &v.up, &v.down, cursor, rank, parity_at, deltas);
    Table::prefetch_in(words, up);
    Table::prefetch_in(words, down);
    (rank, v, [up, down])
}

impl Batch<2> {
    /// Computes the vertical targets of the states waiting and prefetches their words; returns
    /// those of the batch before. Inlined, like the push's `flush`, into the scan, which is
    /// compiled for the bit instructions this CPU has (`expand_scan_bits`).
    #[inline(always)]
    fn flush<const COLS: usize>(
        &mut self,
        space: &StateSpace,
        places: &WordPlaces,
        table: &Table,
    ) -> &[[u64; 2]] {
        let before = self.turn();
        let (seeker, parity_at) = (space.indexer.seeker(), (space.tiles() - 2) % 16);
        let words = table.span(0, table.index_words());
        for (&state, to) in self.states[..self.waiting]
            .iter()
            .zip(&mut self.targets[self.last])
        {
            let at = (space, places, &seeker, words, parity_at);
            let (_, _, vertical) = vertical_targets::<COLS>(at, &mut self.cursor, state);
            *to = vertical;
        }
        self.ready(before)
    }
}

impl Batch<1> {
    /// `flush` for a batch of states with one vertical move each (`WordPlaces::singles`).
    #[inline(always)]
    fn flush(&mut self, space: &StateSpace, places: &WordPlaces, table: &Table) -> &[[u64; 1]] {
        let before = self.turn();
        let (seeker, parity_at) = (space.indexer.seeker(), (space.tiles() - 2) % 16);
        let (words, width) = (table.span(0, table.index_words()), space.width());
        for (state, to) in self.states[..self.waiting]
            .iter()
            .zip(&mut self.targets[self.last])
        {
            let one = &places.singles[(state % 64) as usize];
            let rank = (state >> 6) + u64::from(one.carry);
            seeker.seek_digits(&mut self.cursor, rank, one.parity);
            let target = one.target(&places.deltas, &self.cursor.digits, rank, parity_at, width);
            Table::prefetch_in(words, target);
            *to = [target];
        }
        self.ready(before)
    }
}

impl Batch<5> {
    /// A pull's `flush`: the four neighbours of each unseen state waiting (slides first; a
    /// move the blank cannot make gives the state itself, unseen) and its index; the words of
    /// the vertical ones prefetched.
    #[inline(always)]
    fn flush<const COLS: usize>(
        &mut self,
        space: &StateSpace,
        places: &WordPlaces,
        table: &Table,
    ) -> &[[u64; 5]] {
        let before = self.turn();
        let (seeker, parity_at) = (space.indexer.seeker(), (space.tiles() - 2) % 16);
        let (words, width) = (table.span(0, table.index_words()), space.width());
        for (&state, to) in self.states[..self.waiting]
            .iter()
            .zip(&mut self.targets[self.last])
        {
            let at = (space, places, &seeker, words, parity_at);
            let (rank, v, [up, down]) = vertical_targets::<COLS>(at, &mut self.cursor, state);
            let base = rank * width;
            let [left, right] = v.slides.map(|slide| base + u64::from(slide));
            *to = [left, right, up, down, base + u64::from(v.slot)];
        }
        self.ready(before)
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
    /// Adds the slots of word `w` set in `mask` (low bits): counted, and listed if `record`.
    #[inline(always)]
    fn add_slots(&mut self, w: usize, mut mask: u64, record: bool) {
        self.states += u64::from(mask.count_ones());
        while record && mask != 0 {
            self.marked
                .push(w as u64 * 32 + u64::from(mask.trailing_zeros() / 2));
            mask &= mask - 1;
        }
    }

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
    /// What the slots of a word are, by the place of its first slot in its rank.
    pub places: &'a WordPlaces,
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

/// The vertical moves of the blank of one slot of a rank, and the parity of the sequences that
/// go with it, by place p from a rank's first slot: those of slot p % n of the rank p / n on.
#[derive(Clone, Copy, Debug)]
pub struct Vertical {
    /// How many ranks on from the first the state is (p / n).
    carry: u8,
    parity: u8,
    /// The state's slot in its rank (p % n), and the slots of its slides (a pull's).
    slot: u8,
    slides: [u8; 2],
    up: Turn,
    down: Turn,
}

/// What a scan needs to know of a word's slots, by the place q (`0..n`) of the word's first
/// slot in its rank (n slots a rank): computed once a search, not once a task (a 2x7 layer has
/// 12,000 tasks).
pub struct WordPlaces {
    /// `colour[c][q]`: the slots holding a blank of colour c (`colour_masks`; 32 entries, so
    /// that `q % 32` needs no bounds check).
    colour: [[u64; 32]; 2],
    /// `split[pos]` = (pos / n, pos % n), for the positions a word reaches from its first slot
    /// (`pos < n + 32`, at most 49): no division in the loop.
    split: [(u8, u8); 64],
    /// `skip[q]` = ((q + 128) / n, (q + 128) % n): where a word four words on starts.
    skip: [(u8, u8); 32],
    /// The slides inside a word (`word_slides`, 32 entries).
    slides: [WordSlides; 32],
    /// The vertical moves of the state at each place p (`0..n + 32`) from a rank's first slot
    /// (64 entries, so that `p % 64` needs no bounds check): a batch's states are (rank, p).
    verticals: [Vertical; 64],
    /// `pairs[q]`: the slots of a word whose blank has both vertical moves (a blank of a middle
    /// row), or every slot unless the board has three columns; the others' one move is in
    /// `singles`. On three columns a push queues the two kinds apart, so that no state computes
    /// and offers a move its blank cannot make (a quarter of 3x4's vertical moves). On two,
    /// where a move costs less to compute, a second queue added instructions and saved no
    /// time (`docs/log/constants.md`): the pairs take every state there.
    pairs: [u64; 32],
    /// The one vertical move of the state at each place p, as `verticals` (unused at the
    /// places of `pairs`).
    singles: [Single; 64],
    /// With three columns, the change in full rank of each vertical move by its window's
    /// digits (`delta_tables`).
    deltas: Vec<i64>,
}

impl WordPlaces {
    /// The places of `space`'s words.
    pub fn new(space: &StateSpace) -> WordPlaces {
        let width = space.width();
        let mut moves = moves(space);
        let deltas = delta_tables(space, &mut moves);
        let verticals = std::array::from_fn(|p| {
            let (carry, j) = (p as u64 / width, (p as u64 % width) as usize);
            let b = usize::from(space.blanks[j]);
            let m = &moves[b];
            Vertical {
                carry: carry as u8,
                parity: space.parity[b],
                slot: j as u8,
                slides: m.slides.map(|slide| slide as u8),
                up: m.up,
                down: m.down,
            }
        });
        let three = space.shape.cols == 3;
        let singles = std::array::from_fn(|p| {
            let v: &Vertical = &verticals[p];
            // The move the blank can make, if it has one.
            let turn = if v.up.valid != 0 { v.up } else { v.down };
            Single {
                carry: v.carry,
                parity: v.parity,
                turn,
            }
        });
        let pairs = (0..width)
            .map(|q| {
                (0..32u64)
                    .filter(|s| {
                        let m = &moves[usize::from(space.blanks[((q + s) % width) as usize])];
                        !three || (m.up.valid != 0 && m.down.valid != 0)
                    })
                    .fold(0, |m, s| m | 1 << (2 * s))
            })
            .collect();
        WordPlaces {
            deltas,
            pairs: first_32(pairs),
            singles,
            colour: [0, 1].map(|c| first_32(colour_masks(space, c))),
            split: std::array::from_fn(|pos| {
                ((pos as u64 / width) as u8, (pos as u64 % width) as u8)
            }),
            skip: std::array::from_fn(|q| {
                let pos = q as u64 + 128;
                ((pos / width) as u8, (pos % width) as u8)
            }),
            slides: first_32(word_slides(space)),
            verticals,
        }
    }
}

/// The first 32 entries of `v` (at most 17, a rank's slots), the rest default.
fn first_32<T: Copy + Default>(v: Vec<T>) -> [T; 32] {
    let mut a = [T::default(); 32];
    a[..v.len()].copy_from_slice(&v);
    a
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

/// The slides of the states of a word whose first slot is slot q of its rank, as masks of the
/// low bits of their slots (see `word_slides`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WordSlides {
    /// The slots whose blank can slide right to the next slot, in the same word.
    pub right: u64,
    /// The slots whose blank can slide left to the previous slot, in the same word.
    pub left: u64,
    /// Slot 31 if its blank can slide right (to the next word's first slot).
    pub right_out: u64,
    /// Slot 0 if its blank can slide left (to the previous word's last slot).
    pub left_out: u64,
}

/// `slides[q]`: the slides of the states of a word whose first slot is slot q of its rank (n
/// slots a rank). A slide keeps the sequence and moves the blank to the next or previous cell
/// of its row, which is the next or previous slot (the cells of a row are consecutive in their
/// group), so its target is the source's bit shifted by one slot, or the first or last slot of
/// the next or previous word.
pub fn word_slides(space: &StateSpace) -> Vec<WordSlides> {
    let width = space.width();
    let shape = space.shape;
    (0..width)
        .map(|q| {
            let mut slides = WordSlides::default();
            for s in 0..32u64 {
                let j = (q + s) % width;
                let b = Cell(space.blanks[j as usize] as usize);
                let bit = 1 << (2 * s);
                for to in shape.neighbours(b) {
                    if shape.row(to) != shape.row(b) {
                        continue;
                    }
                    let t = u64::from(space.slot[to.0]);
                    // The target's place in the word: the rank's slots start at s - j.
                    assert!(t == j + 1 || t + 1 == j, "a slide to a far slot");
                    match (t == j + 1, s) {
                        (true, 31) => slides.right_out |= bit,
                        (true, _) => slides.right |= bit,
                        (false, 0) => slides.left_out |= bit,
                        (false, _) => slides.left |= bit,
                    }
                }
            }
            slides
        })
        .collect()
}

/// What a scan does with the words and slots `for_each_slot` finds.
trait Slots {
    /// Whether the scan looks at a word holding `word`: for the others `select` would do
    /// nothing and choose nothing.
    fn busy(word: u64) -> bool;
    /// The low bits of the slots of word `w` (`cell`) to visit, given the word's first slot's
    /// place q in its rank (`0..n`), the word's value and the low bits of its slots in the task
    /// whose blank has the scan's colour (it may also settle or mark slots of the word).
    fn select(&mut self, cell: &AtomicU64, w: usize, q: usize, word: u64, candidates: u64) -> u64;
    /// Visits the slots `mask` (low bits), chosen by `select`, of the word whose first slot is
    /// slot q of rank `rank0`, at index `start` (`split`: `WordPlaces::split`).
    fn states(&mut self, split: &[(u8, u8); 64], rank0: u64, q: u64, start: u64, mask: u64);
}

/// Hands `visitor.states` the slots its `select` chooses in each word of `lo..hi`, in index order.
#[inline(always)]
fn for_each_slot<S: Slots>(
    space: &StateSpace,
    places: &WordPlaces,
    table: &Table,
    Task { lo, hi }: Task,
    colour: usize,
    visitor: &mut S,
) {
    let width = space.width();
    let (start_mask, split, skip) = (&places.colour[colour], &places.split, &places.skip);
    let (first, last) = (lo / 32, (hi - 1) / 32);
    let words = table.span(first as usize, last as usize + 1);
    // The task's first and last words may hold other tasks' slots.
    let (lo_mask, hi_mask) = (
        !0u64 << (2 * (lo % 32)),
        !0u64 >> (2 * (31 - (hi - 1) % 32)),
    );
    // The sequence rank and slot q of word k's first slot, followed word by word (a division
    // only here).
    let (mut rank0, mut q) = (first * 32 / width, first * 32 % width);
    let mut k = 0;
    while k < words.len() {
        // Words with nothing to do are skipped four at a time: in a sparse layer most are (a
        // scan of 2x7 reads 340 M words).
        while k + 4 <= words.len() && !words[k..k + 4].iter().any(|x| S::busy(x.load(Relaxed))) {
            let (carry, next_q) = skip[(q % 32) as usize];
            (rank0, q) = (rank0 + u64::from(carry), u64::from(next_q));
            k += 4;
        }
        if k == words.len() {
            break;
        }
        let value = words[k].load(Relaxed);
        if S::busy(value) {
            let mut candidates = start_mask[(q % 32) as usize];
            if k == 0 {
                candidates &= lo_mask;
            }
            if k == words.len() - 1 {
                candidates &= hi_mask;
            }
            let w = first as usize + k;
            let mask = visitor.select(&words[k], w, q as usize, value, candidates);
            visitor.states(split, rank0, q, w as u64 * 32, mask);
        }
        let (carry, next_q) = split[((q + 32) % 64) as usize];
        (rank0, q) = (rank0 + u64::from(carry), u64::from(next_q));
        k += 1;
    }
}

/// Whether a word holds a `FRONTIER` slot (of either colour): the words a push or a settling
/// pass looks at.
#[inline(always)]
fn holds_frontier(word: u64) -> bool {
    Table::matching(word, FRONTIER) != 0
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

/// A push: settles frontier states and claims their unseen neighbours; on a shard, the
/// neighbours outside it (`scan.mine`) go to `remote` instead, for their owners to claim.
struct Push<'s, 'a, const COLS: usize, const SHARDED: bool, R: FnMut(u64)> {
    scan: &'s LayerScan<'a>,
    claims: Claims<'a>,
    /// States with both vertical moves (every state, on more than three columns), and those
    /// with one (`WordPlaces::pairs`).
    batch: Batch<2>,
    singles: Batch<1>,
    /// The slides inside a word, claimed with the word's settling.
    in_words: Found,
    remote: R,
}

impl<'s, 'a, const COLS: usize, const SHARDED: bool, R: FnMut(u64)> Push<'s, 'a, COLS, SHARDED, R> {
    fn new(scan: &'s LayerScan<'a>, remote: R) -> Self {
        Push {
            scan,
            claims: Claims::new(scan.table, scan.record),
            batch: Batch::new(),
            singles: Batch::new(),
            in_words: Found::default(),
            remote,
        }
    }

    /// Claims `n` here, or sends it to its owner. On a shard, most targets are local (a
    /// horizontal move nearly always is): this branch is predicted; on one machine it is
    /// compiled away.
    #[inline(always)]
    fn target(&mut self, n: u64) {
        Self::route(self.scan.mine, &mut self.claims, &mut self.remote, n);
    }

    /// `target`, from the parts of a push it uses.
    #[inline(always)]
    fn route(mine: Mine, claims: &mut Claims, remote: &mut R, n: u64) {
        if !SHARDED || mine.holds(n) {
            claims.offer(n);
        } else {
            remote(n);
        }
    }

    /// Queues the vertical moves of state (`rank`, slot `j`).
    #[inline(always)]
    fn vertical(&mut self, rank: u64, j: usize) {
        if self.batch.add(rank, j) {
            self.flush(false);
        }
    }

    /// Computes the vertical targets of a batch (the states with one vertical move, if
    /// `singles`) and claims (or sends) those of the batch before.
    #[inline(always)]
    fn flush(&mut self, singles: bool) {
        let LayerScan {
            space,
            places,
            table,
            ..
        } = *self.scan;
        let targets = if singles {
            self.singles.flush(space, places, table).as_flattened()
        } else {
            self.batch
                .flush::<COLS>(space, places, table)
                .as_flattened()
        };
        Self::offer(self.scan.mine, &mut self.claims, &mut self.remote, targets);
    }

    /// Claims (or sends) a batch's `targets`.
    #[inline(always)]
    fn offer(mine: Mine, claims: &mut Claims, remote: &mut R, targets: &[u64]) {
        if SHARDED {
            for &n in targets {
                Self::route(mine, claims, remote, n);
            }
        } else {
            claims.offer_all(targets);
        }
    }

    fn finish(mut self) -> Found {
        // The last states' targets, then the batch before them.
        for singles in [false, false, true, true] {
            self.flush(singles);
        }
        let mut found = self.claims.finish();
        found.add(self.in_words);
        found
    }
}

impl<const COLS: usize, const SHARDED: bool, R: FnMut(u64)> Slots
    for Push<'_, '_, COLS, SHARDED, R>
{
    #[inline(always)]
    fn busy(word: u64) -> bool {
        holds_frontier(word)
    }

    /// Settles the frontier's slots of the word and marks the unseen targets of the slides
    /// inside it, in one atomic step (only this task reads the frontier's slots, and claims
    /// write the other colour); claims the slides that leave the word.
    #[inline(always)]
    fn select(&mut self, cell: &AtomicU64, w: usize, q: usize, word: u64, candidates: u64) -> u64 {
        let LayerScan {
            places,
            codes,
            record,
            ..
        } = *self.scan;
        let frontier = Table::matching(word, FRONTIER) & candidates;
        if frontier != 0 {
            let slides = places.slides[q % 32];
            let targets = (frontier & slides.right) << 2 | (frontier & slides.left) >> 2;
            let marks = Table::settle_and_mark(cell, word, frontier, codes.done, targets);
            self.in_words.add_slots(w, marks, record);
            if frontier & slides.right_out != 0 {
                self.target(w as u64 * 32 + 32);
            }
            if frontier & slides.left_out != 0 {
                self.target(w as u64 * 32 - 1);
            }
        }
        frontier
    }

    #[inline(always)]
    fn states(&mut self, _: &[(u8, u8); 64], rank0: u64, q: u64, _: u64, mask: u64) {
        if COLS != 3 {
            if self.batch.add_word(rank0, q, mask) {
                self.flush(false);
            }
            return;
        }
        let pairs = mask & self.scan.places.pairs[(q % 32) as usize];
        if self.batch.add_word(rank0, q, pairs) {
            self.flush(false);
        }
        if self.singles.add_word(rank0, q, mask ^ pairs) {
            self.flush(true);
        }
    }
}

/// Push: finds the frontier states of `lo..hi`: those holding `FRONTIER` whose blank has
/// colour `colour`. Settles them and marks their unseen neighbours `FRONTIER`.
pub fn expand_scan<const COLS: usize>(scan: &LayerScan, task: Task) -> Found {
    #[cfg(target_arch = "x86_64")]
    if has_bit_instructions() {
        // SAFETY: this CPU has the instructions the function is compiled to use.
        return unsafe { expand_scan_bits::<COLS>(scan, task) };
    }
    push_scan::<COLS, false>(scan, task, |_| {})
}

/// Whether this CPU has the instructions the `_bits` functions are compiled to use.
#[cfg(target_arch = "x86_64")]
fn has_bit_instructions() -> bool {
    std::arch::is_x86_feature_detected!("popcnt")
        && std::arch::is_x86_feature_detected!("bmi1")
        && std::arch::is_x86_feature_detected!("bmi2")
}

/// `expand_scan` compiled for the bit instructions the default x86-64 target leaves out, which
/// every x86-64 CPU since 2013 has (`expand_scan` checks at run time): `popcnt` (15
/// instructions without it), BMI1's `tzcnt` and `blsr` (a slot's place, the next slot) and
/// BMI2's shifts by a register that leave the flags alone. 2x6 and 3x4 at 1 thread: 2-3%
/// faster, with the batch's and the push's `flush` inlined here (they were not, when only
/// `popcnt` was enabled).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi1,bmi2")]
fn expand_scan_bits<const COLS: usize>(scan: &LayerScan, task: Task) -> Found {
    push_scan::<COLS, false>(scan, task, |_| {})
}

/// Push on a shard: as `expand_scan`, but the neighbours outside the shard (`scan.mine`) are
/// appended to `remote` instead, for their owners to claim.
pub fn expand_shard<const COLS: usize>(
    scan: &LayerScan,
    task: Task,
    remote: &mut Vec<u64>,
) -> Found {
    push_scan::<COLS, true>(scan, task, |n| remote.push(n))
}

#[inline(always)]
fn push_scan<const COLS: usize, const SHARDED: bool>(
    scan: &LayerScan,
    task: Task,
    remote: impl FnMut(u64),
) -> Found {
    let mut push = Push::<COLS, SHARDED, _>::new(scan, remote);
    for_each_slot(
        scan.space,
        scan.places,
        scan.table,
        task,
        scan.colour,
        &mut push,
    );
    push.finish()
}

/// Claims `indices` (targets other shards sent to this one): the states newly marked.
pub fn claim_all(table: &Table, indices: &[u64], record: bool) -> Found {
    let mut claims = Claims::new(table, record);
    for &n in indices {
        claims.offer(n);
    }
    claims.finish()
}

/// A pull: marks the unseen states of its colour with a neighbour in the frontier; on a shard,
/// those without one here have their neighbours in other shards appended to `queries`.
struct Pull<'s, 'a, 'q, const COLS: usize, const SHARDED: bool> {
    scan: &'s LayerScan<'a>,
    claims: Claims<'a>,
    /// The states tested a batch at a time (on one machine; a shard's are tested one by one).
    batch: Batch<5>,
    cursor: Cursor,
    queries: &'q mut Vec<(u64, u64)>,
}

impl<const COLS: usize, const SHARDED: bool> Slots for Pull<'_, '_, '_, COLS, SHARDED> {
    /// A word matters if it has an unseen slot to test or a frontier to settle.
    #[inline(always)]
    fn busy(word: u64) -> bool {
        Table::matching(word, 0) != 0 || holds_frontier(word)
    }

    #[inline(always)]
    fn select(&mut self, _: &AtomicU64, w: usize, _: usize, word: u64, candidates: u64) -> u64 {
        let scan = self.scan;
        scan.table
            .settle_frontier(w, word, candidates, scan.codes.before);
        Table::matching(word, 0) & candidates
    }

    #[inline(always)]
    fn states(&mut self, split: &[(u8, u8); 64], rank0: u64, q: u64, start: u64, mut mask: u64) {
        if !SHARDED {
            if self.batch.add_word(rank0, q, mask) {
                self.flush();
            }
            return;
        }
        while mask != 0 {
            let s = u64::from(mask.trailing_zeros() / 2);
            mask &= mask - 1;
            let (carry, j) = split[((q + s) % 64) as usize];
            self.state(rank0 + u64::from(carry), usize::from(j), start + s);
        }
    }
}

impl<const COLS: usize, const SHARDED: bool> Pull<'_, '_, '_, COLS, SHARDED> {
    /// Computes the neighbours of the batch's states, and marks those of the batch before with
    /// a neighbour in the frontier: the test of the four does not branch, and a state found is
    /// buffered without a branch either (whether a state has a neighbour in the frontier is a
    /// coin toss to the branch predictor).
    #[inline(always)]
    fn flush(&mut self) {
        let LayerScan {
            space,
            places,
            table,
            ..
        } = *self.scan;
        let words = table.span(0, table.index_words());
        let frontier =
            |n: u64| (words[(n / 32) as usize].load(Relaxed) >> (2 * (n % 32))) & 3 == FRONTIER;
        for &[left, right, up, down, index] in self.batch.flush::<COLS>(space, places, table) {
            let found = frontier(left) | frontier(right) | frontier(up) | frontier(down);
            self.claims.buffer(index, found);
        }
    }

    /// Tests the unseen state at `index`, slot `j` of rank `rank`: marked if a neighbour is in
    /// the frontier.
    #[inline(always)]
    fn state(&mut self, rank: u64, j: usize, index: u64) {
        let LayerScan {
            space,
            moves,
            table,
            mine,
            ..
        } = *self.scan;
        let blank = usize::from(space.blanks[j]);
        space
            .indexer
            .seek_digits(&mut self.cursor, rank, space.parity[blank]);
        let base = rank * space.width();
        let targets = neighbours::<COLS>(space, &moves[blank], &self.cursor, base, rank);
        // On one machine every target is here: the test is compiled away.
        let here = |n: u64| !SHARDED || mine.holds(n);
        if targets.iter().any(|&n| here(n) && table.get(n) == FRONTIER) {
            self.claims.push(index);
        } else if SHARDED {
            self.queries
                .extend(targets.iter().filter(|&&n| !here(n)).map(|&n| (index, n)));
        }
    }
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
    #[cfg(target_arch = "x86_64")]
    if has_bit_instructions() {
        // SAFETY: this CPU has the instructions the function is compiled to use.
        return unsafe { expand_pull_bits::<COLS>(scan, task) };
    }
    pull_in::<COLS, false>(scan, task, &mut vec![])
}

/// `expand_pull` compiled for the bit instructions, as `expand_scan_bits` is.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi1,bmi2")]
fn expand_pull_bits<const COLS: usize>(scan: &LayerScan, task: Task) -> Found {
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
    // Each state is claimed by the one task that owns it, so `visit` always wins here.
    let mut pull = Pull::<COLS, SHARDED> {
        scan,
        claims: Claims::new(scan.table, scan.record),
        batch: Batch::new(),
        cursor: Cursor::new(),
        queries,
    };
    for_each_slot(
        scan.space,
        scan.places,
        scan.table,
        task,
        scan.colour,
        &mut pull,
    );
    // The last states' neighbours, then the test of the batch before them.
    pull.flush();
    pull.flush();
    pull.claims.finish()
}

/// Settling: the frontier's slots turned into a code, counted and listed.
struct Settle<'a> {
    table: &'a Table,
    code: u64,
    record: bool,
    found: Found,
}

impl Slots for Settle<'_> {
    #[inline(always)]
    fn busy(word: u64) -> bool {
        holds_frontier(word)
    }

    #[inline(always)]
    fn select(&mut self, _: &AtomicU64, w: usize, _: usize, word: u64, candidates: u64) -> u64 {
        let settled = self.table.settle_frontier(w, word, candidates, self.code);
        self.found.add_slots(w, settled, self.record);
        0
    }

    /// `select` chose nothing.
    fn states(&mut self, _: &[(u8, u8); 64], _: u64, _: u64, _: u64, _: u64) {}
}

/// Settles the states of `lo..hi` holding `FRONTIER` whose blank has colour
/// `colour` with `code`; counts them, and lists them if `record`.
pub fn settle_scan(
    space: &StateSpace,
    places: &WordPlaces,
    table: &Table,
    task: Task,
    colour: usize,
    code: u64,
    record: bool,
) -> Found {
    let mut settle = Settle {
        table,
        code,
        record,
        found: Found::default(),
    };
    for_each_slot(space, places, table, task, colour, &mut settle);
    settle.found
}

/// Expands the listed frontier states (ascending indices): marks their unseen neighbours
/// `FRONTIER` and settles them.
pub fn expand_list<const COLS: usize>(scan: &LayerScan, frontier: &[u64]) -> Found {
    push_list::<COLS, false>(scan, frontier, |_| {})
}

/// List expansion on a shard: as `expand_list` (the listed states are this shard's), but the
/// neighbours outside the shard (`scan.mine`) are appended to `remote`, for their owners.
pub fn expand_list_shard<const COLS: usize>(
    scan: &LayerScan,
    frontier: &[u64],
    remote: &mut Vec<u64>,
) -> Found {
    push_list::<COLS, true>(scan, frontier, |n| remote.push(n))
}

#[inline(always)]
fn push_list<const COLS: usize, const SHARDED: bool>(
    scan: &LayerScan,
    frontier: &[u64],
    remote: impl FnMut(u64),
) -> Found {
    let LayerScan {
        space,
        moves,
        table,
        codes,
        ..
    } = *scan;
    let mut push = Push::<COLS, SHARDED, _>::new(scan, remote);
    let width = space.width();
    for &i in frontier {
        let (rank, j) = (i / width, (i % width) as usize);
        let base = rank * width;
        // Slides (one to the state itself, a slide the blank cannot make, finds it seen).
        for slide in moves[usize::from(space.blanks[j])].slides {
            push.target(base + u64::from(slide));
        }
        push.vertical(rank, j);
        table.settle((i / 32) as usize, 1 << (2 * (i % 32)), codes.done);
    }
    push.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::board::Shape;

    /// The masks of `word_slides` hold exactly the slides of every state, each once: those
    /// whose target is in the source's word, and those leaving it.
    #[test]
    fn word_slides_are_exactly_the_slides_inside_a_word() {
        for (r, c) in [(3, 2), (2, 3), (3, 3), (4, 3), (3, 4), (7, 2), (4, 4)] {
            let shape = Shape::new(r, c).unwrap();
            for goal in [0, shape.cells() - 1] {
                let space = StateSpace::new(shape, Cell(goal)).unwrap();
                let slides = word_slides(&space);
                let width = space.width();
                // Every slot of every word phase q: one rank-aligned run of slots is enough.
                for index in 0..(32 * width).min(space.states()) {
                    let (w, s) = (index / 32, index % 32);
                    let q = ((w * 32) % width) as usize;
                    let board = space.board(index);
                    let (blank, rank) = space.split(index);
                    let mut want = WordSlides::default();
                    for b in board.neighbours() {
                        let n = space.index(&b).unwrap();
                        let (to, to_rank) = space.split(n);
                        if to_rank != rank || space.shape.row(to) != space.shape.row(blank) {
                            continue;
                        }
                        let bit = 1u64 << (2 * s);
                        assert!(n == index + 1 || n + 1 == index, "{shape} {index}");
                        match (n == index + 1, n / 32 == w) {
                            (true, true) => want.right |= bit,
                            (true, false) => want.right_out |= bit,
                            (false, true) => want.left |= bit,
                            (false, false) => want.left_out |= bit,
                        }
                    }
                    let slot = |m: u64| m & 3 << (2 * s);
                    let all = slides[q];
                    let got = WordSlides {
                        right: slot(all.right),
                        left: slot(all.left),
                        right_out: slot(all.right_out),
                        left_out: slot(all.left_out),
                    };
                    assert_eq!(got, want, "{shape} goal {goal} index {index}");
                }
            }
        }
    }

    /// On three columns, the one vertical move of a blank in the top or bottom row
    /// (`WordPlaces::singles`, read from the delta tables) lands where ranking the moved board
    /// from scratch does; `pairs` holds exactly the slots whose blank has two vertical moves.
    #[test]
    fn single_vertical_moves_match_direct_ranking() {
        for (r, c) in [(3, 3), (4, 3), (3, 4), (5, 3)] {
            let shape = Shape::new(r, c).unwrap();
            for goal in [0, shape.cells() - 1, shape.cells() / 2] {
                let space = StateSpace::new(shape, Cell(goal)).unwrap();
                assert_eq!(space.shape.cols, 3, "the engine's columns");
                let places = WordPlaces::new(&space);
                let width = space.width();
                let step = (space.states() / 5000).max(1);
                for index in (0..space.states()).step_by(step as usize) {
                    let board = space.board(index);
                    let (blank, rank) = space.split(index);
                    let j = index % width;
                    // Vertical on the engine's board (which may be the transpose).
                    let row = |n: u64| space.shape.row(space.split(n).0);
                    let vertical: Vec<u64> = board
                        .neighbours()
                        .map(|b| space.index(&b).expect("same class"))
                        .filter(|&n| row(n) != row(index))
                        .collect();
                    // Word phase 0: place j of the rank's first slot is slot j.
                    let paired = places.pairs[0] >> (2 * j) & 1 == 1;
                    assert_eq!(
                        paired,
                        vertical.len() == 2,
                        "{shape} goal {goal} board {board}"
                    );
                    if paired {
                        continue;
                    }
                    let one = &places.singles[j as usize];
                    assert_eq!((one.carry, one.parity), (0, space.parity[blank.0]));
                    let mut cursor = Cursor::new();
                    space.indexer.seek_digits(&mut cursor, rank, one.parity);
                    let parity_at = space.tiles() - 2;
                    let got = one.target(&places.deltas, &cursor.digits, rank, parity_at, width);
                    assert_eq!(vec![got], vertical, "{shape} goal {goal} board {board}");
                }
            }
        }
    }

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
                let mut tabled = moves.clone();
                let deltas = delta_tables(&space, &mut tabled);
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
                    // The instantiation the engine runs for these columns (with two or three,
                    // the linear forms of `short_delta`) gives them too.
                    let mut cursor = Cursor::new();
                    let parity = space.parity[blank.0];
                    space.indexer.seek_digits(&mut cursor, rank, parity);
                    let (m, base) = (&moves[blank.0], rank * space.width());
                    let targets = match space.shape.cols {
                        2 => neighbours::<2>(&space, m, &cursor, base, rank),
                        3 => neighbours::<3>(&space, m, &cursor, base, rank),
                        4 => neighbours::<4>(&space, m, &cursor, base, rank),
                        _ => unreachable!("the engine has 2 to 4 columns here"),
                    };
                    let mut fast: Vec<u64> = targets.into_iter().filter(|&n| n != index).collect();
                    fast.sort_unstable();
                    assert_eq!(fast, want, "{shape} goal {goal} board {board}");
                    // With three columns, a batch reads the vertical moves from tables.
                    if space.shape.cols == 3 {
                        let parity_at = space.tiles() - 2;
                        let (up, down) = (&tabled[blank.0].up, &tabled[blank.0].down);
                        let read = vertical::<3>(
                            &space,
                            up,
                            down,
                            &cursor,
                            rank,
                            parity_at,
                            Some(&deltas),
                        );
                        assert_eq!(read, targets[2..], "{shape} goal {goal} board {board}");
                    }
                }
            }
        }
    }
}

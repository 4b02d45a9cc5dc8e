//! Rank-change arithmetic: where a vertical move of the blank takes a state in the table,
//! from the Lehmer digits of its window alone.

use crate::index::rank::DIGITS;
use crate::index::space::StateSpace;
use crate::puzzle::board::Cell;

/// A vertical move of the blank, precomputed with where its target lies in the table: it turns
/// the window of C sequence entries starting at `window` (up: the tile above joins the sequence
/// C-1 places later, the window's first entry moves to its end; down: the last entry moves
/// first). The target state is slot `slot` of the target sequence's rank, `width` (n) slots a
/// rank.
#[derive(Clone, Copy, Debug)]
pub struct Turn {
    pub(super) window: u32,
    // Slot and width as u64: the arithmetic reads them straight from memory.
    pub(super) slot: u64,
    pub(super) width: u64,
    /// All ones for a move the blank can make; zero for a stand-in whose "target" is the state
    /// itself (seen, so never claimed, and never in the frontier while it is pulled).
    pub(super) valid: i64,
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
    pub(super) fn looked_up(&self, deltas: &[i64], d: &[u8; DIGITS]) -> i64 {
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
pub(super) fn delta_tables(space: &StateSpace, moves: &mut [BlankMoves]) -> Vec<i64> {
    // Stand-ins read zeros (`looked_up` masks them anyway): room for any digit c.
    let mut deltas = vec![0i64; DIGITS];
    if space.shape().cols != 3 {
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
    pub(super) slides: [u32; 2],
    pub(super) up: Turn,
    pub(super) down: Turn,
}

impl BlankMoves {
    /// No move: every target the state (of blank `b`) itself.
    pub(super) fn none(space: &StateSpace, b: usize) -> BlankMoves {
        let own = u32::from(space.slots()[b]);
        let stay = Turn {
            window: 0,
            slot: u64::from(own),
            width: space.width(),
            valid: 0,
            coef: [0; 3],
            constant: 0,
            terms: [0; 2],
            with_first: 0,
            at: 0,
            radix: [0; 2],
        };
        BlankMoves {
            slides: [own; 2],
            up: stay,
            down: stay,
        }
    }
}

/// For each engine blank cell, the moves it can make.
pub fn moves(space: &StateSpace) -> Vec<BlankMoves> {
    let shape = space.shape();
    let c = shape.cols;
    (0..shape.cells())
        .map(|b| {
            let width = space.width();
            let mut m = BlankMoves::none(space, b);
            let mut slides = 0;
            for to in shape.neighbours(Cell(b)) {
                let t = to.0;
                let turn = |window: usize, left: bool| {
                    let (coef, constant, terms) = short_terms(space, window, left);
                    Turn {
                        window: window as u32,
                        slot: u64::from(space.slots()[t]),
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
                    m.slides[slides] = u32::from(space.slots()[t]);
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
pub(super) fn rotate_left_delta(w: &[u64; DIGITS], d: &[u8; DIGITS], i: usize, k: usize) -> i64 {
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
pub(super) fn rotate_right_delta(w: &[u64; DIGITS], d: &[u8; DIGITS], i: usize, k: usize) -> i64 {
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
    let w = |j: usize| space.indexer().weights()[(window + j) % DIGITS] as i64;
    let (w0, w1, w2) = (w(0), w(1), w(2));
    match (space.shape().cols, left) {
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
pub(super) fn short_delta<const COLS: usize>(turn: &Turn, d: &[u8; DIGITS], left: bool) -> i64 {
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

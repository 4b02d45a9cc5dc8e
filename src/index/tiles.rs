//! Dense ranks of distinct tiles beside k blanks, for a search: the blanks' cells as a
//! combination (the digit of least weight), then the tiles in cell order as a permutation
//! (its Lehmer code).
//!
//! An arrangement of L = n - k distinct tiles and k blanks on n cells is the blanks' set, C(n,
//! k) of them numbered in colexicographic order, and the sequence of tiles read in cell order
//! past the blanks, L! of them numbered by the Lehmer code (digit p, of weight (L-1-p)!, the
//! tiles after position p smaller than its own): C(n, k)·L! = n!/k! ranks, as many as
//! `arrangement::ArrangementRank`'s for the same tokens, in another order.
//!
//! A move carries the tile on cell b onto the blank on cell a past the tiles on the cells
//! between them: in the sequence, a window from the tile's place to its new one turns by one,
//! and only the window's digits change (the tiles before it see the same tiles after them,
//! the tiles past it too). A tile's digit in the window is the tiles smaller than it after the
//! window (kept) and in it (counted again), so a move costs a few operations a tile of the
//! window: one for a board's horizontal move, whose window is the tile alone, C for a vertical
//! one.

use crate::error::Error;
use crate::index::arrangement::{binomials, combinations, ArrangementIndex, Bits, MAX_RANKS};

/// Most cells: the blanks' set is a `u32` mask, its colexicographic numbers at most 2^16.
pub const MAX_TILE_CELLS: usize = 16;

/// Most tiles: 12! < 2^32 < 13!.
const MAX_TILES: usize = 12;

/// The ranks of L distinct tiles (symbols 1..=L) and k blanks (symbol 0) on L + k cells.
#[derive(Clone, Debug)]
pub struct TileRank {
    cells: usize,
    tiles: usize,
    /// C(cells, blanks): the radix of the blanks' digit, and its reciprocal (⌊(2^64-1) / r⌋ +
    /// 1, or 0 for 1: the quotient of a rank below 2^32 by multiplying).
    blank_sets: u64,
    blank_reciprocal: u64,
    /// `number[mask]`: the colexicographic number of the blanks' set `mask`.
    number: Vec<u32>,
    /// `sets[d]`: the blanks' set of number d.
    sets: Vec<u32>,
    /// `weights[p]` = (L-1-p)!, the weight of Lehmer digit p, and its reciprocal.
    weights: [u64; MAX_TILES],
    reciprocals: [u64; MAX_TILES],
    total: u64,
}

/// An arrangement unranked for its moves.
#[derive(Clone, Debug)]
pub struct TileState {
    rank: u64,
    blanks: u32,
    /// The blanks' digit, and the Lehmer code.
    digit: u64,
    code: u64,
    /// `sequence[p]`: the tile at place p of the sequence; `digits[p]`, its Lehmer digit.
    sequence: [u8; MAX_TILES],
    digits: [u8; MAX_TILES],
}

impl Default for TileState {
    /// No arrangement yet: a code no rank has, so the first unrank finds its tiles.
    fn default() -> TileState {
        TileState {
            rank: 0,
            blanks: 0,
            digit: 0,
            code: u64::MAX,
            sequence: [0; MAX_TILES],
            digits: [0; MAX_TILES],
        }
    }
}

impl TileRank {
    /// The arrangements of `tiles` distinct tiles and `blanks` blanks; refused past
    /// `MAX_TILE_CELLS` cells or 2^32 arrangements.
    pub fn new(tiles: usize, blanks: usize) -> Result<TileRank, Error> {
        let cells = tiles + blanks;
        let c = binomials();
        if cells > MAX_TILE_CELLS || tiles > MAX_TILES || blanks == 0 {
            return Err(Error::Shape(format!(
                "{tiles} tiles and {blanks} blanks: ranked here for 1 blank or more and at \
                 most {MAX_TILE_CELLS} cells and {MAX_TILES} tiles"
            )));
        }
        let blank_sets = c[blanks][cells];
        let factorial = |m: usize| (1..=m as u64).product::<u64>();
        let total = blank_sets * factorial(tiles);
        if total > MAX_RANKS {
            return Err(Error::Shape(format!(
                "{tiles} tiles and {blanks} blanks have {total} arrangements: past 2^32"
            )));
        }
        let sets = combinations(cells, blanks);
        let mut number = vec![0; 1 << cells];
        for (d, &m) in sets.iter().enumerate() {
            number[m as usize] = d as u32;
        }
        let reciprocal = |d: u64| (u64::MAX / d).wrapping_add(1);
        let (mut weights, mut reciprocals) = ([0; MAX_TILES], [0; MAX_TILES]);
        for p in 0..tiles {
            weights[p] = factorial(tiles - 1 - p);
            reciprocals[p] = reciprocal(weights[p]);
        }
        Ok(TileRank {
            cells,
            tiles,
            blank_sets,
            blank_reciprocal: reciprocal(blank_sets),
            number,
            sets,
            weights,
            reciprocals,
            total,
        })
    }

    fn full(&self) -> u32 {
        (1u32 << self.cells) - 1
    }

    /// ⌊x / d⌋ for x < 2^32 by the reciprocal `m` of d (0 for d = 1).
    #[inline(always)]
    fn divide(x: u64, m: u64) -> u64 {
        match m {
            0 => x,
            m => ((u128::from(x) * u128::from(m)) >> 64) as u64,
        }
    }
}

impl ArrangementIndex for TileRank {
    type State = TileState;

    fn count(&self) -> u64 {
        self.total
    }

    fn rank_of(&self, symbols: &[u8]) -> u64 {
        let blanks = symbols
            .iter()
            .enumerate()
            .filter(|&(_, &s)| s == 0)
            .fold(0u32, |m, (p, _)| m | 1 << p);
        let sequence: Vec<u8> = symbols.iter().copied().filter(|&s| s != 0).collect();
        let mut code = 0;
        for (p, &t) in sequence.iter().enumerate() {
            let smaller = sequence[p + 1..].iter().filter(|&&u| u < t).count() as u64;
            code += smaller * self.weights[p];
        }
        u64::from(self.number[blanks as usize]) + self.blank_sets * code
    }

    fn symbols_of(&self, rank: u64, out: &mut [u8]) {
        let mut state = TileState::default();
        self.unrank_state::<crate::index::arrangement::Portable>(rank, &mut state);
        let mut place = 0;
        for (cell, o) in out.iter_mut().enumerate().take(self.cells) {
            if state.blanks & (1 << cell) != 0 {
                *o = 0;
            } else {
                *o = state.sequence[place];
                place += 1;
            }
        }
    }

    #[inline(always)]
    fn unrank_state<B: Bits>(&self, rank: u64, state: &mut TileState) {
        let code = TileRank::divide(rank, self.blank_reciprocal);
        state.rank = rank;
        state.digit = rank - code * self.blank_sets;
        state.blanks = self.sets[state.digit as usize];
        if code == state.code {
            // The tiles of the state before (a scan's next state, most often): only the
            // blanks moved.
            return;
        }
        state.code = code;
        // Tiles 1..=L not placed yet, as bits 1..=L.
        let mut unused = ((1u32 << self.tiles) - 1) << 1;
        // ⌊code / (L-p)!⌋: for p = 0, 0 (the code is below L!).
        let mut higher = 0;
        for p in 0..self.tiles {
            // Digit p: ⌊code / (L-1-p)!⌋ mod (L-p), each quotient from the code alone.
            let high = TileRank::divide(code, self.reciprocals[p]);
            let digit = high - higher * (self.tiles - p) as u64;
            higher = high;
            let tile = B::deposit(1 << digit, unused).trailing_zeros();
            unused &= !(1 << tile);
            state.sequence[p] = tile as u8;
            state.digits[p] = digit as u8;
        }
    }

    #[inline(always)]
    fn blank_cells(state: &TileState) -> u32 {
        state.blanks
    }

    #[inline(always)]
    fn moved<B: Bits>(&self, state: &TileState, a: u32, b: u32) -> u64 {
        let swap = (1 << a) | (1 << b);
        let blanks = state.blanks ^ swap;
        let digit = u64::from(self.number[blanks as usize]);
        let tiles = self.full() & !state.blanks;
        let (low, high) = (a.min(b), a.max(b));
        let between = ((1u32 << high) - 1) & !((2u32 << low) - 1);
        if tiles & between == 0 {
            // No tile between the cells (a board's horizontal move): the tiles' order is kept.
            return digit + self.blank_sets * state.code;
        }
        // The tile's place now, and the places its window spans.
        let q = (tiles & ((1 << b) - 1)).count_ones() as usize;
        let t = state.sequence[q];
        let (mut old, mut new) = (0u64, 0u64);
        if b > a {
            // To the window's start, at the place of the first tile past a.
            let start = (tiles & ((1 << a) - 1)).count_ones() as usize;
            let mut smaller = 0;
            for p in start..q {
                let e = state.sequence[p];
                let d = u64::from(state.digits[p]);
                old += d * self.weights[p];
                new += (d - u64::from(t < e)) * self.weights[p + 1];
                smaller += u64::from(e < t);
            }
            old += u64::from(state.digits[q]) * self.weights[q];
            new += (u64::from(state.digits[q]) + smaller) * self.weights[start];
        } else {
            // To the window's end, at the place of the last tile before a.
            let end = (tiles & ((1 << a) - 1)).count_ones() as usize - 1;
            let mut smaller = 0;
            for p in q + 1..=end {
                let e = state.sequence[p];
                let d = u64::from(state.digits[p]);
                old += d * self.weights[p];
                new += (d + u64::from(t < e)) * self.weights[p - 1];
                smaller += u64::from(e < t);
            }
            old += u64::from(state.digits[q]) * self.weights[q];
            new += (u64::from(state.digits[q]) - smaller) * self.weights[end];
        }
        digit + self.blank_sets * (state.code - old + new)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::arrangement::Portable;

    /// Every rank is one arrangement and ranks back; each move's target is the rank of the
    /// arrangement with the two cells traded, on every pair of a blank and a tile.
    #[test]
    fn ranks_and_moves_agree_with_the_arrangements() {
        for (tiles, blanks) in [(3, 1), (4, 2), (5, 2), (3, 3), (6, 1), (4, 4)] {
            let r = TileRank::new(tiles, blanks).unwrap();
            let n = tiles + blanks;
            let counts: Vec<usize> = std::iter::once(blanks)
                .chain(std::iter::repeat_n(1, tiles))
                .collect();
            let m = crate::index::multiset::MultisetRank::new(&counts).unwrap();
            assert_eq!(r.count(), m.arrangements());
            let mut seen = std::collections::HashSet::new();
            let (mut out, mut state) = (vec![0u8; n], TileState::default());
            for rank in 0..r.count() {
                r.symbols_of(rank, &mut out);
                assert!(seen.insert(out.clone()));
                assert_eq!(r.rank_of(&out), rank, "{out:?}");
                r.unrank_state::<Portable>(rank, &mut state);
                for a in (0..n).filter(|&a| out[a] == 0) {
                    for b in (0..n).filter(|&b| out[b] != 0) {
                        let mut moved = out.clone();
                        moved.swap(a, b);
                        let want = r.rank_of(&moved);
                        let got = r.moved::<Portable>(&state, a as u32, b as u32);
                        assert_eq!(got, want, "{out:?}: {a} <- {b}");
                    }
                }
            }
        }
        // 3x4 with two blanks: C(12, 2) · 10! = 12!/2; 12! itself; past 2^32, 16 cells or
        // 12 tiles, refused.
        assert_eq!(TileRank::new(10, 2).unwrap().count(), 239_500_800);
        assert_eq!(TileRank::new(11, 1).unwrap().count(), 479_001_600);
        for (tiles, blanks) in [(12, 1), (13, 1), (11, 6), (3, 0)] {
            assert!(TileRank::new(tiles, blanks).is_err(), "{tiles} {blanks}");
        }
    }
}

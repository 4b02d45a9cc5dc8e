//! Dense ranks of a multiset's arrangements for a search: the symbols' cells as nested
//! combinations, the blanks' first.
//!
//! An arrangement of n cells holding cᵢ tokens of each symbol i (symbol 0 the blank) is the
//! sets of cells each symbol takes: the blanks' c₀ of the n cells, symbol 1's c₁ of the n - c₀
//! left, and so on; the last symbol takes what is left. Each set is a combination of the cells
//! still free, numbered in colexicographic order (the combinatorial number system: the set
//! {p₁ < … < p_k} of the free cells' places is Σ C(p_j, j)), and the rank is the mixed-radix
//! number of these digits, the blanks' the least significant: there are exactly n! / ∏ cᵢ!
//! ranks, as `multiset::MultisetRank`'s, in another order.
//!
//! The order is the search's. A blank's move onto a tile of the cell next to it in cell order
//! (a board's horizontal move) keeps every free cell's place for the other symbols, so only
//! the blanks' digit changes: with one blank the target is the state's neighbour in the table,
//! in the same word. A rank costs a few bit operations a token (no division), an unrank one
//! division a symbol and a table lookup.

use crate::error::Error;

/// Most cells an arrangement has (its sets are `u32` masks).
pub const MAX_CELLS: usize = 32;

/// Most arrangements ranked: 2^32 (a rank's digits are found by multiplying, exact below it).
pub const MAX_RANKS: u64 = 1 << 32;

/// Most symbols (the blank's among them).
pub const MAX_SYMBOLS: usize = MAX_CELLS;

/// A symbol's combinations are numbered by lookup if it takes them among at most this many
/// free cells (a table of 2^16 entries).
const NUMBERED_MOST: usize = 16;

/// A digit's combinations are listed (for unranking by lookup) if there are at most this many.
const LISTED_MOST: u64 = 1 << 20;

/// An arrangement as the set of cells each symbol takes: `masks[s]` bit p set if cell p holds
/// symbol s.
pub type Masks = [u32; MAX_SYMBOLS];

/// An arrangement unranked for its moves (`ArrangementRank::unrank_into`): each symbol's
/// cells, the cells free for it (not the blanks' nor any earlier symbol's), the parts of its
/// rank the digits below each symbol make, and the rank.
#[derive(Clone, Debug)]
pub struct Unranked {
    /// `masks[s]`: the cells of symbol s.
    pub masks: Masks,
    free: Masks,
    below: [u64; MAX_SYMBOLS + 1],
    rank: u64,
    /// `symbols[p]`: the symbol on cell p.
    symbols: [u8; MAX_CELLS],
}

impl Default for Unranked {
    fn default() -> Unranked {
        Unranked {
            masks: [0; MAX_SYMBOLS],
            free: [0; MAX_SYMBOLS],
            below: [0; MAX_SYMBOLS + 1],
            rank: 0,
            symbols: [0; MAX_CELLS],
        }
    }
}

/// What a search over arrangements asks of their index: the count, an arrangement unranked
/// into a working state, its blanks, and the rank of each move's target. Two indices: any
/// multiset (`ArrangementRank`), and distinct tiles beside blanks (`index::tiles`), whose
/// moves change fewer digits.
pub trait ArrangementIndex: Sync {
    /// An arrangement unranked for its moves.
    type State: Default + Send;
    /// The number of arrangements.
    fn count(&self) -> u64;
    /// The rank of `symbols` (the symbol on each cell, 0 a blank).
    fn rank_of(&self, symbols: &[u8]) -> u64;
    /// The arrangement of rank `rank`, the symbol on each cell into `out`.
    fn symbols_of(&self, rank: u64, out: &mut [u8]);
    /// The arrangement of rank `rank`, into `state`.
    fn unrank_state<B: Bits>(&self, rank: u64, state: &mut Self::State);
    /// The cells of `state`'s blanks.
    fn blank_cells(state: &Self::State) -> u32;
    /// The rank of `state` once the blank on cell `a` and the token on cell `b` trade cells.
    fn moved<B: Bits>(&self, state: &Self::State, a: u32, b: u32) -> u64;
}

impl ArrangementIndex for ArrangementRank {
    type State = Unranked;

    fn count(&self) -> u64 {
        self.total
    }

    fn rank_of(&self, symbols: &[u8]) -> u64 {
        self.rank(symbols)
    }

    fn symbols_of(&self, rank: u64, out: &mut [u8]) {
        self.unrank(rank, out)
    }

    #[inline(always)]
    fn unrank_state<B: Bits>(&self, rank: u64, state: &mut Unranked) {
        self.unrank_into::<B>(rank, state)
    }

    #[inline(always)]
    fn blank_cells(state: &Unranked) -> u32 {
        state.masks[0]
    }

    #[inline(always)]
    fn moved<B: Bits>(&self, state: &Unranked, a: u32, b: u32) -> u64 {
        self.swapped::<B>(state, a, b)
    }
}

/// The ranks of the arrangements of `counts[s]` tokens of each symbol s on as many cells.
#[derive(Clone, Debug)]
pub struct ArrangementRank {
    counts: Vec<u32>,
    cells: usize,
    /// The radix of each symbol's digit but the last's: C(cells free, counts[s]).
    radices: Vec<u64>,
    /// The place value of each digit: the product of the radices before it; and past the
    /// last, the number of arrangements.
    places: Vec<u64>,
    /// `place_reciprocals[s]` = ⌊(2^64 - 1) / places[s]⌋ + 1 (0 for a place of 1, by
    /// wrapping), so that ⌊r / place⌋ is the high word of r · reciprocal, exactly for r <
    /// 2^32 (Lemire, Kaser and Kurz, "Faster remainder by direct computation", 2019): every
    /// digit is found from the rank at once, none waiting for the one before.
    place_reciprocals: Vec<u64>,
    /// `binomials[k][p]` = C(p, k), for p, k ≤ MAX_CELLS (rows past 32 zero: a row is
    /// indexed by `k & 63`, a column by a bit's place, with no bound to check).
    binomials: Box<[[u64; MAX_CELLS + 2]; 64]>,
    /// Every cell.
    full: u32,
    /// `listed[s][d]`: the combination of digit d of symbol s, as a mask of free places, where
    /// it has at most `LISTED_MOST` (otherwise empty: found by the number system's greedy
    /// steps).
    listed: Vec<Vec<u32>>,
    /// `numbers[s][places]`: the colexicographic number of the set of places `places` of
    /// symbol s, by lookup, where s has two tokens or more among at most `NUMBERED_MOST` free
    /// cells (otherwise empty: summed bit by bit).
    numbers: Vec<Vec<u32>>,
    total: u64,
}

impl ArrangementRank {
    /// The arrangements of `counts[s]` tokens of each symbol s (some of the blank's, symbol
    /// 0); refused past `MAX_CELLS` cells or `MAX_RANKS` arrangements.
    pub fn new(counts: &[usize]) -> Result<ArrangementRank, Error> {
        let cells: usize = counts.iter().sum();
        if cells > MAX_CELLS || counts.is_empty() {
            return Err(Error::Shape(format!(
                "{cells} cells: an arrangement's ranks take 1 to {MAX_CELLS}"
            )));
        }
        let binomials = binomials();
        let (mut radices, mut listed, mut numbers) = (vec![], vec![], vec![]);
        let (mut free, mut total) = (cells, 1u64);
        for &c in &counts[..counts.len() - 1] {
            let radix = binomials[c][free];
            total = total
                .checked_mul(radix)
                .filter(|&t| t <= MAX_RANKS)
                .ok_or_else(|| {
                    Error::Shape(format!(
                        "the arrangements of {cells} tokens ({} symbols) are more than 2^32: \
                         past what a search numbers",
                        counts.len()
                    ))
                })?;
            radices.push(radix);
            let all = if radix <= LISTED_MOST {
                combinations(free, c)
            } else {
                vec![]
            };
            numbers.push(if c >= 2 && free <= NUMBERED_MOST {
                let mut number = vec![0; 1 << free];
                for (d, &m) in all.iter().enumerate() {
                    number[m as usize] = d as u32;
                }
                number
            } else {
                vec![]
            });
            listed.push(all);
            free -= c;
        }
        let places: Vec<u64> = std::iter::once(1)
            .chain(radices.iter().scan(1u64, |place, &r| {
                *place *= r;
                Some(*place)
            }))
            .collect();
        let place_reciprocals = places
            .iter()
            .map(|&p| (u64::MAX / p).wrapping_add(1))
            .collect();
        Ok(ArrangementRank {
            counts: counts.iter().map(|&c| c as u32).collect(),
            cells,
            radices,
            places,
            place_reciprocals,
            binomials,
            full: if cells == 32 {
                u32::MAX
            } else {
                (1u32 << cells) - 1
            },
            listed,
            numbers,
            total,
        })
    }

    /// The number of arrangements.
    pub fn arrangements(&self) -> u64 {
        self.total
    }

    /// The number of cells.
    pub fn cells(&self) -> usize {
        self.cells
    }

    /// The number of symbols.
    pub fn symbols(&self) -> usize {
        self.counts.len()
    }

    /// The masks of `symbols` (the symbol on each cell).
    pub fn masks(&self, symbols: &[u8]) -> Masks {
        let mut masks = [0; MAX_SYMBOLS];
        for (p, &s) in symbols.iter().enumerate() {
            masks[usize::from(s)] |= 1 << p;
        }
        masks
    }

    /// The rank of the arrangement of `symbols` (the symbol on each cell).
    pub fn rank(&self, symbols: &[u8]) -> u64 {
        self.rank_masks::<Portable>(&self.masks(symbols))
    }

    /// The arrangement of rank `rank`, the symbol on each cell written into `out`.
    pub fn unrank(&self, rank: u64, out: &mut [u8]) {
        let mut u = Unranked::default();
        self.unrank_into::<Portable>(rank, &mut u);
        for (s, &m) in u.masks[..self.symbols()].iter().enumerate() {
            for p in crate::graph::bits(m) {
                out[p] = s as u8;
            }
        }
    }

    /// The colexicographic number of the set `places` (k of them).
    #[inline(always)]
    fn colex(&self, mut places: u32) -> u64 {
        let (mut number, mut j) = (0, 1);
        while places != 0 {
            let p = places.trailing_zeros() as usize;
            number += self.binomials[j & 63][p];
            places &= places - 1;
            j += 1;
        }
        number
    }

    /// The digit of symbol `s` whose places among its free cells are `places`.
    #[inline(always)]
    fn number(&self, s: usize, places: u32) -> u64 {
        match self.numbers[s].get(places as usize) {
            Some(&d) => u64::from(d),
            None => self.colex(places),
        }
    }

    /// The rank of the arrangement `masks`.
    #[inline(always)]
    pub fn rank_masks<B: Bits>(&self, masks: &Masks) -> u64 {
        let mut rank = 0;
        let mut free = self.full;
        for (s, (&mask, &place)) in masks
            .iter()
            .zip(&self.places[..self.radices.len()])
            .enumerate()
        {
            rank += place * self.number(s, B::extract(mask, free));
            free &= !mask;
        }
        rank
    }

    /// The arrangement of rank `rank`, into `u`.
    #[inline(always)]
    pub fn unrank_into<B: Bits>(&self, rank: u64, u: &mut Unranked) {
        debug_assert!(rank < self.total);
        let digits = self.radices.len();
        // ⌊rank / place⌋ of every digit's place, each from the rank alone.
        let mut above = [0u64; MAX_SYMBOLS + 1];
        for (q, &m) in above.iter_mut().zip(&self.place_reciprocals) {
            *q = match m {
                0 => rank,
                m => ((u128::from(rank) * u128::from(m)) >> 64) as u64,
            };
        }
        u.rank = rank;
        for ((below, &q), &place) in u.below.iter_mut().zip(&above).zip(&self.places) {
            *below = rank - q * place;
        }
        let mut free = self.full;
        for (s, &radix) in self.radices.iter().enumerate() {
            let digit = above[s] - above[s + 1] * radix;
            let places = match self.listed[s].get(digit as usize) {
                Some(&m) => m,
                None => self.combination(digit, self.counts[s] as usize),
            };
            u.free[s] = free;
            u.masks[s] = B::deposit(places, free);
            free &= !u.masks[s];
        }
        u.masks[digits] = free;
        u.free[digits] = free;
        for (s, &m) in u.masks[..=digits].iter().enumerate() {
            let mut m = m;
            while m != 0 {
                u.symbols[m.trailing_zeros() as usize] = s as u8;
                m &= m - 1;
            }
        }
    }

    /// The symbol on cell `cell` of `u`.
    #[inline(always)]
    pub fn symbol_at(&self, u: &Unranked, cell: u32) -> usize {
        usize::from(u.symbols[cell as usize & (MAX_CELLS - 1)])
    }

    /// The rank of `u` once the blank on cell `a` and the token on cell `b` (of symbol t)
    /// trade cells. Only the digits of the blanks and of the symbols up to t change: each
    /// later symbol's free cells keep the blanks and t's cells together. Each of those keeps
    /// its free cells but for a and b, which trade; between cells next to each other in cell
    /// order (a board's horizontal move) no free cell's place changes, and only the blanks'
    /// digit does.
    #[inline(always)]
    pub fn swapped<B: Bits>(&self, u: &Unranked, a: u32, b: u32) -> u64 {
        let swap = (1 << a) | (1 << b);
        let blanks = self.number(0, u.masks[0] ^ swap);
        if a.abs_diff(b) == 1 {
            return u.rank - u.below[1] + blanks;
        }
        let t = self.symbol_at(u, b);
        let mut low = blanks;
        let top = t.min(self.radices.len() - 1);
        for s in 1..=top {
            let mask = if s == t {
                u.masks[s] ^ swap
            } else {
                u.masks[s]
            };
            low += self.places[s] * self.number(s, B::extract(mask, u.free[s] ^ swap));
        }
        u.rank - u.below[top + 1] + low
    }

    /// The set of `k` places of colexicographic number `number`, by the greedy steps.
    fn combination(&self, mut number: u64, k: usize) -> u32 {
        let mut places = 0;
        for j in (1..=k).rev() {
            let mut p = j - 1;
            while self.binomials[j][p + 1] <= number {
                p += 1;
            }
            number -= self.binomials[j][p];
            places |= 1 << p;
        }
        places
    }
}

/// Pascal's triangle to C(33, 32) by rows of k: `c[k][n]` = C(n, k), 0 past the diagonal.
pub(crate) fn binomials() -> Box<[[u64; MAX_CELLS + 2]; 64]> {
    let mut c = Box::new([[0u64; MAX_CELLS + 2]; 64]);
    for n in 0..MAX_CELLS + 2 {
        c[0][n] = 1;
        for k in 1..=n.min(MAX_CELLS) {
            c[k][n] = c[k - 1][n - 1] + c[k][n - 1];
        }
    }
    c
}

/// The k-subsets of n places as masks, in colexicographic order (the masks' numeric order),
/// by Gosper's step.
pub(crate) fn combinations(n: usize, k: usize) -> Vec<u32> {
    if k == 0 {
        return vec![0];
    }
    let (mut out, end) = (vec![], 1u64 << n);
    let mut x = (1u64 << k) - 1;
    while x < end {
        out.push(x as u32);
        let low = x & x.wrapping_neg();
        let ripple = x + low;
        x = ripple | (((x ^ ripple) >> 2) / low);
    }
    out
}

/// The two bit operations ranks take: gathering a set's bits at the free cells into places,
/// and depositing places back into the free cells (BMI2's `pext` and `pdep`).
pub trait Bits {
    /// The bits of `x` at the set bits of `mask`, packed from bit 0.
    fn extract(x: u32, mask: u32) -> u32;
    /// The low bits of `x` spread to the set bits of `mask`.
    fn deposit(x: u32, mask: u32) -> u32;
}

/// `Bits` by loops over the mask, for any CPU.
pub struct Portable;

impl Bits for Portable {
    #[inline(always)]
    fn extract(x: u32, mut mask: u32) -> u32 {
        let (mut out, mut bit) = (0, 1);
        while mask != 0 {
            if x & mask & mask.wrapping_neg() != 0 {
                out |= bit;
            }
            bit <<= 1;
            mask &= mask - 1;
        }
        out
    }

    #[inline(always)]
    fn deposit(mut x: u32, mut mask: u32) -> u32 {
        let mut out = 0;
        while mask != 0 && x != 0 {
            let low = mask & mask.wrapping_neg();
            if x & 1 != 0 {
                out |= low;
            }
            x >>= 1;
            mask &= mask - 1;
        }
        out
    }
}

/// `Bits` by BMI2's instructions: only in code compiled for them, on a CPU that has them
/// (`bfs::bits::has_bit_instructions`).
#[cfg(target_arch = "x86_64")]
pub struct Bmi2;

#[cfg(target_arch = "x86_64")]
impl Bits for Bmi2 {
    #[inline(always)]
    fn extract(x: u32, mask: u32) -> u32 {
        // SAFETY: `Bmi2` is used only in functions compiled with BMI2 and run where the CPU
        // has it.
        unsafe { std::arch::x86_64::_pext_u32(x, mask) }
    }

    #[inline(always)]
    fn deposit(x: u32, mask: u32) -> u32 {
        // SAFETY: as `extract`.
        unsafe { std::arch::x86_64::_pdep_u32(x, mask) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::multiset::MultisetRank;

    /// Every rank below the count is one arrangement of the right multiset, and ranks it back;
    /// the count is the multinomial (`MultisetRank`'s, computed apart).
    #[test]
    fn ranks_are_a_bijection_onto_the_arrangements() {
        for counts in [
            vec![1, 1, 1, 1],
            vec![2, 2],
            vec![1, 3, 1, 2],
            vec![1, 4],
            vec![3, 0, 2, 1],
            vec![5],
            vec![2, 1, 1, 1, 2, 2],
            vec![1, 4, 4, 3],
        ] {
            let r = ArrangementRank::new(&counts).unwrap();
            let m = MultisetRank::new(&counts).unwrap();
            assert_eq!(r.arrangements(), m.arrangements(), "{counts:?}");
            let mut out = vec![0; r.cells()];
            let mut seen = std::collections::HashSet::new();
            for rank in 0..r.arrangements() {
                r.unrank(rank, &mut out);
                for (s, &c) in counts.iter().enumerate() {
                    assert_eq!(out.iter().filter(|&&x| usize::from(x) == s).count(), c);
                }
                assert!(seen.insert(out.clone()), "{counts:?}: {out:?} twice");
                assert_eq!(r.rank(&out), rank, "{counts:?} {out:?}");
            }
        }
    }

    /// The two ways of gathering and depositing bits, and of finding a combination, agree.
    #[test]
    fn bit_operations_and_combinations_agree() {
        let r = ArrangementRank::new(&[1, 4, 4, 4, 3]).unwrap();
        assert_eq!(r.arrangements(), 252_252_000);
        for (s, list) in r.listed.iter().enumerate() {
            for (d, &m) in list.iter().enumerate() {
                assert_eq!(r.combination(d as u64, r.counts[s] as usize), m);
                assert_eq!(r.colex(m), d as u64);
                assert_eq!(r.number(s, m), d as u64);
            }
        }
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("bmi2") {
            for (x, mask) in [
                (0xdead_beef, 0x0f0f_f0f0),
                (0x1234, 0xffff),
                (7, 0x8000_0101),
            ] {
                assert_eq!(Portable::extract(x, mask), Bmi2::extract(x, mask));
                assert_eq!(Portable::deposit(x, mask), Bmi2::deposit(x, mask));
            }
        }
        // 28 cells, nearly half of one symbol: C(27, 13) = 20,058,300 is past the listed
        // combinations; 28 · C(27, 13) = 561,632,400 arrangements.
        let big = ArrangementRank::new(&[1, 13, 14]).unwrap();
        assert_eq!(big.arrangements(), 561_632_400);
        let mut out = vec![0; 28];
        for rank in [0, 1, 400_000_000, big.arrangements() - 1] {
            big.unrank(rank, &mut out);
            assert_eq!(big.rank(&out), rank);
        }
        // 32 · C(31, 15) = 9,617,286,240 is past 2^32: refused, as 33 cells are.
        let e = ArrangementRank::new(&[1, 15, 16]).unwrap_err().to_string();
        assert!(e.contains("2^32"), "{e}");
        assert!(ArrangementRank::new(&[1; 33]).is_err());
    }
}

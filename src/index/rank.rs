//! Permutation ranking and unranking by Lehmer code, with the parity half dropped.
//!
//! A sequence `s` of the values `0..m` has Lehmer digits `d[j] = #{k > j : s[k] < s[j]}`, with
//! `d[j] <= m-1-j`, and full rank `Σ d[j]·(m-1-j)!` (lexicographic order). The digit sum is the
//! inversion count, so the parity of `s` is `Σ d[j] mod 2`. The last digit is always 0 and the
//! one before it (weight 1!) is 0 or 1: fixing the parity fixes it. Hence within one parity class
//! `rank = full_rank >> 1` is a bijection onto `0..m!/2`, and unranking recovers `d[m-2]`
//! from the parity.

/// Most tiles in a sequence the engine indexes (16-cell boards have 15 tiles).
pub const MAX_TILES: usize = 16;

/// Room for the digits of a `Cursor` and the weights of an `Indexer`: `MAX_TILES` and 8 more,
/// zero past the last digit, so that a seek writes its last digits in one 8-byte store and a
/// move reads a window of digits (and their weights) at a place below 16 without a bounds
/// check.
pub const DIGITS: usize = MAX_TILES + 8;

/// Ranks and unranks sequences of `m` tiles (values `0..m`) within one parity class.
#[derive(Clone, Debug)]
pub struct Indexer {
    m: usize,
    /// `weights[j] = (m-1-j)!`: the weight of Lehmer digit j in the full rank (0 from m on).
    weights: [u64; DIGITS],
    /// `reciprocals[j] = ⌊(2^64-1) / hⱼ⌋ + 1` for the half weight `hⱼ = (m-1-j)!/2` (0 where
    /// hⱼ is 1 or too large): `⌊q / hⱼ⌋ = (q · reciprocals[j]) >> 64` exactly for q < 2^32
    /// (Lemire, Kaser and Kurz, "Faster remainder by direct computation", 2019).
    reciprocals: [u64; MAX_TILES],
    /// The last `LOW` mixed-radix digits of every rank below `period` (their radices' product),
    /// digit m-2-LOW+t in byte t, then the parity of their sum in the byte after (where digit
    /// m-2 goes) and zeros: a seek writes them over the cursor's digits from `low_at` on in one
    /// store, and only recomputes the other digits when `rank / period` changes. Room for
    /// `LOW_ROOM` ranks (more than `period`), so that a seek's lookup needs no bounds check.
    low: Box<[u64; LOW_ROOM]>,
    /// The first digit `low` serves.
    low_at: usize,
    /// The bit of digit m-2 (the parity digit) in a `low` entry.
    last_bit: u64,
    period: u64,
    /// `⌊(2^64-1) / period⌋ + 1`: `rank / period` by a multiplication for ranks below 2^32.
    period_reciprocal: u64,
}

/// Digits served by `Indexer::low`: radices 3·4·5·6·7, 2,520 ranks, 20 KB.
const LOW: usize = 5;

/// A power of two above the largest `period` (2,520).
const LOW_ROOM: usize = 4096;

impl Indexer {
    /// An indexer for sequences of `m` values, `3 <= m <= MAX_TILES`.
    pub fn new(m: usize) -> Indexer {
        assert!(
            (3..=MAX_TILES).contains(&m),
            "the indexer takes 3..={MAX_TILES} tiles, got {m}"
        );
        let mut weights = [0u64; DIGITS];
        let mut f = 1u64;
        for j in (0..m).rev() {
            weights[j] = f;
            f *= (m - j) as u64;
        }
        let mut reciprocals = [0u64; MAX_TILES];
        for j in 0..m.saturating_sub(2) {
            let h = weights[j] / 2;
            if h > 1 && h <= u64::from(u32::MAX) {
                reciprocals[j] = u64::MAX / h + 1;
            }
        }
        // Digits 0..m-3 are mixed-radix (digit j has radix m-j); digit m-2 completes the parity.
        let low_digits = LOW.min(m - 2);
        let period: u64 = (0..low_digits).map(|t| 3 + t as u64).product();
        let mut low = Box::new([0u64; LOW_ROOM]);
        for (r, entry) in (0..period).zip(low.iter_mut()) {
            *entry = {
                let (mut x, mut packed, mut sum) = (r, 0u64, 0u64);
                for t in (0..low_digits).rev() {
                    // Byte t holds digit m-2-low_digits+t, of radix low_digits+2-t.
                    let radix = (low_digits + 2 - t) as u64;
                    packed |= (x % radix) << (8 * t);
                    sum += x % radix;
                    x /= radix;
                }
                packed | (sum & 1) << (8 * low_digits)
            };
        }
        Indexer {
            m,
            weights,
            reciprocals,
            low,
            low_at: m - 2 - low_digits,
            last_bit: 1 << (8 * low_digits),
            period,
            period_reciprocal: u64::MAX / period + 1,
        }
    }

    /// Tiles ranked: the cells of the board but the blank.
    pub fn tiles(&self) -> usize {
        self.m
    }

    /// `m!/2`: sequences in each parity class.
    pub fn class_size(&self) -> u64 {
        self.weights[0] * self.m as u64 / 2
    }

    /// Weight of Lehmer digit `j` in the full rank.
    #[inline(always)]
    pub fn weight(&self, j: usize) -> u64 {
        self.weights[j]
    }

    /// The weights of all digits, zero from m on.
    #[inline(always)]
    pub fn weights(&self) -> &[u64; DIGITS] {
        &self.weights
    }

    /// Lehmer digits of `seq` into `digits`; returns the parity (0 even, 1 odd).
    #[inline]
    pub fn lehmer(&self, seq: &[u8], digits: &mut [u8]) -> u8 {
        let mut rest: u32 = (1 << self.m) - 1;
        let mut sum = 0u32;
        for j in 0..self.m {
            let x = seq[j];
            let d = (rest & ((1u32 << x) - 1)).count_ones();
            digits[j] = d as u8;
            sum += d;
            rest &= !(1 << x);
        }
        (sum & 1) as u8
    }

    /// Lexicographic rank among all m! sequences.
    pub fn full_rank(&self, seq: &[u8]) -> u64 {
        let mut digits = [0u8; MAX_TILES];
        self.lehmer(seq, &mut digits);
        (0..self.m)
            .map(|j| u64::from(digits[j]) * self.weights[j])
            .sum()
    }

    /// Rank within the sequence's parity class, in `0..m!/2`, and that parity: one pass over
    /// the sequence, nothing allocated (a saved table's lookups rank every board they are
    /// asked).
    #[inline]
    pub fn rank_and_parity(&self, seq: &[u8]) -> (u64, u8) {
        let mut rest: u32 = (1 << self.m) - 1;
        let (mut full, mut sum) = (0u64, 0u32);
        for (j, &x) in seq[..self.m].iter().enumerate() {
            let d = (rest & ((1u32 << x) - 1)).count_ones();
            full += u64::from(d) * self.weights[j];
            sum += d;
            rest &= !(1 << x);
        }
        (full >> 1, (sum & 1) as u8)
    }

    /// Rank within the sequence's parity class, in `0..m!/2`.
    pub fn rank(&self, seq: &[u8]) -> u64 {
        self.full_rank(seq) >> 1
    }

    /// The sequence of parity `parity` with rank `rank`: fills its Lehmer digits and values.
    #[inline]
    pub fn unrank(&self, rank: u64, parity: u8, digits: &mut [u8], seq: &mut [u8]) {
        let mut cursor = Cursor::new();
        self.seek(&mut cursor, rank, parity);
        digits[..self.m].copy_from_slice(&cursor.digits[..self.m]);
        seq[..self.m].copy_from_slice(&cursor.seq[..self.m]);
    }

    /// Lehmer digits of the sequence of parity `parity` with rank `rank`, packed one per byte
    /// (digit j in byte j), built in a register.
    ///
    /// Digits 0..m-2 are the mixed-radix digits of `rank` with half weights hⱼ = (m-1-j)!/2
    /// (whole, as (m-1-j)! is even for j <= m-3). Each quotient Qⱼ = ⌊rank / hⱼ⌋ is computed on
    /// its own (a multiplication by a reciprocal, no division chain), and dⱼ = Qⱼ - (m-j)·Qⱼ₋₁.
    #[inline(always)]
    fn digits_of(&self, rank: u64, parity: u8) -> u128 {
        let m = self.m;
        debug_assert!(rank < self.class_size());
        let mut packed = 0u128;
        let mut sum = 0u64;
        if rank < 1 << 32 {
            let mut prev = 0u64;
            for j in 0..m - 2 {
                let q = match self.reciprocals[j] {
                    0 if self.weights[j] == 2 => rank,
                    0 => 0, // hⱼ > rank: this digit is 0
                    r => ((u128::from(r) * u128::from(rank)) >> 64) as u64,
                };
                let d = q - (m - j) as u64 * prev;
                prev = q;
                packed |= u128::from(d) << (8 * j);
                sum ^= d;
            }
        } else {
            let mut rest = rank;
            for j in 0..m - 2 {
                let w = self.weights[j] >> 1;
                let d = rest / w;
                rest -= d * w;
                packed |= u128::from(d) << (8 * j);
                sum ^= d;
            }
        }
        packed | u128::from((u64::from(parity) ^ sum) & 1) << (8 * (m - 2))
    }

    /// Moves `cursor`'s Lehmer digits to the sequence of parity `parity` with rank `rank`,
    /// leaving its values (`seq`) behind: the engine needs only the digits (the relative order
    /// of a few neighbouring entries, all a move needs, follows from their digits; see
    /// `bfs::layer`).
    ///
    /// The last `LOW` mixed-radix digits and the parity digit come from one table load (`low`)
    /// and go in with one store; the others only change when the rank leaves the cursor's run of
    /// `period` ranks, which a scan in rank order does once per 2,520 sequences. Nothing here
    /// branches unpredictably.
    #[inline(always)]
    pub fn seek_digits(&self, cursor: &mut Cursor, rank: u64, parity: u8) {
        self.seeker().seek_digits(cursor, rank, parity);
    }

    /// What `seek_digits` reads of the indexer, copied: a loop that seeks many times keeps these
    /// in registers (read through `&self`, they are loaded again after every store).
    #[inline(always)]
    pub fn seeker(&self) -> Seeker<'_> {
        Seeker {
            indexer: self,
            low: &self.low,
            low_at: self.low_at % 16,
            period: self.period,
        }
    }

    /// Moves `cursor` to the run of `period` ranks holding `rank`: the digits before `low_at`,
    /// and the masks that give the others either parity.
    #[inline(never)]
    fn new_run(&self, cursor: &mut Cursor, rank: u64) {
        let q = if rank < 1 << 32 {
            ((u128::from(rank) * u128::from(self.period_reciprocal)) >> 64) as u64
        } else {
            rank / self.period
        };
        cursor.run = q * self.period;
        // Digits 0..low_at: those of q·period (whose last LOW digits are 0).
        let all = self.digits_of(cursor.run, 0).to_le_bytes();
        let high = &all[..self.low_at];
        cursor.digits[..self.low_at].copy_from_slice(high);
        let high_parity = u64::from(high.iter().map(|&d| u32::from(d)).sum::<u32>() & 1);
        cursor.flip = [
            self.last_bit * high_parity,
            self.last_bit * (high_parity ^ 1),
        ];
    }

    /// Moves `cursor` to the sequence of parity `parity` with rank `rank`: digits and values.
    /// Only the values from the first Lehmer digit that changed onwards are rebuilt, so stepping
    /// through nearby ranks costs a few positions instead of m.
    #[inline(always)]
    pub fn seek(&self, cursor: &mut Cursor, rank: u64, parity: u8) {
        self.seek_digits(cursor, rank, parity);
        let m = self.m;
        let first = (0..m)
            .find(|&j| cursor.digits[j] != cursor.seq_digits[j])
            .unwrap_or(m);
        // unused[j]: nibble i is the i-th smallest value not placed before position j.
        let mut unused = cursor.unused[first];
        for j in first..m {
            let shift = 4 * u32::from(cursor.digits[j]);
            let value = (unused >> shift) & 0xF;
            cursor.seq[j] = value as u8;
            let below = unused & ((1u64 << shift) - 1);
            unused = below | ((unused >> shift >> 4) << shift);
            cursor.unused[j + 1] = unused;
        }
        cursor.seq_digits = cursor.digits;
    }
}

/// The parts of an `Indexer` a seek reads (see `Indexer::seeker`).
#[derive(Clone, Copy, Debug)]
pub struct Seeker<'a> {
    indexer: &'a Indexer,
    low: &'a [u64; LOW_ROOM],
    /// `low_at`, at most 9 (`% 16` spares the store's bounds check).
    low_at: usize,
    period: u64,
}

impl Seeker<'_> {
    /// `Indexer::seek_digits`.
    #[inline(always)]
    pub fn seek_digits(&self, cursor: &mut Cursor, rank: u64, parity: u8) {
        let mut r = rank.wrapping_sub(cursor.run);
        if r >= self.period {
            self.indexer.new_run(cursor, rank);
            r = rank - cursor.run;
        }
        // r < period: the mask only spares the bounds check.
        let low = self.low[r as usize % LOW_ROOM] ^ cursor.flip[usize::from(parity & 1)];
        cursor.digits[self.low_at..self.low_at + 8].copy_from_slice(&low.to_le_bytes());
    }
}

/// A `Cursor::run` no rank is within `period` of (ranks are below 2^63).
const RUN_NONE: u64 = 1 << 63;

/// A sequence with its Lehmer digits, kept between calls to `Indexer::seek`.
#[derive(Clone, Debug)]
pub struct Cursor {
    /// The first of the `period` ranks whose digits before `Indexer::low_at` the cursor holds
    /// (`RUN_NONE`: none yet).
    run: u64,
    /// What turns a `low` entry into the digits of either parity: `flip[parity]`.
    flip: [u64; 2],
    /// The Lehmer digits of the current sequence (the first m; the rest is room for the store
    /// of a seek).
    pub digits: [u8; DIGITS],
    /// The current tile sequence (after `Indexer::seek`).
    pub seq: [u8; MAX_TILES],
    unused: [u64; MAX_TILES + 1],
    /// The digits `seq` and `unused` were built for (`seek_digits` leaves them behind, `seek`
    /// catches up from the first digit that differs).
    seq_digits: [u8; DIGITS],
}

impl Cursor {
    /// A cursor before the first sequence.
    pub fn new() -> Cursor {
        // `seq_digits` no rank has (0xFF) force the first `seek` to rebuild everything.
        let mut unused = [0u64; MAX_TILES + 1];
        unused[0] = 0xFEDC_BA98_7654_3210;
        Cursor {
            run: RUN_NONE,
            flip: [0; 2],
            digits: [0; DIGITS],
            seq: [0; MAX_TILES],
            unused,
            seq_digits: [0xFF; DIGITS],
        }
    }
}

impl Default for Cursor {
    fn default() -> Self {
        Cursor::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn seq_strategy() -> impl Strategy<Value = Vec<u8>> {
        (3usize..=MAX_TILES)
            .prop_flat_map(|m| Just((0..m as u8).collect::<Vec<_>>()).prop_shuffle())
    }

    #[test]
    fn every_rank_of_small_classes_round_trips() {
        for m in 3..=7 {
            let ix = Indexer::new(m);
            for parity in 0..2 {
                let mut seen = std::collections::HashSet::new();
                for r in 0..ix.class_size() {
                    let (mut d, mut s) = ([0u8; MAX_TILES], [0u8; MAX_TILES]);
                    ix.unrank(r, parity, &mut d, &mut s);
                    let s = &s[..m];
                    assert!(seen.insert(s.to_vec()), "unrank repeats a sequence");
                    let mut d2 = [0u8; MAX_TILES];
                    assert_eq!(ix.lehmer(s, &mut d2), parity);
                    assert_eq!(&d2[..m], &d[..m]);
                    assert_eq!(ix.rank(s), r);
                }
            }
        }
    }

    proptest! {
        #[test]
        fn rank_then_unrank_is_identity(seq in seq_strategy()) {
            let ix = Indexer::new(seq.len());
            let mut d = [0u8; MAX_TILES];
            let parity = ix.lehmer(&seq, &mut d);
            let r = ix.rank(&seq);
            prop_assert!(r < ix.class_size());
            prop_assert_eq!(ix.rank_and_parity(&seq), (r, parity));
            let (mut d2, mut s2) = ([0u8; MAX_TILES], [0u8; MAX_TILES]);
            ix.unrank(r, parity, &mut d2, &mut s2);
            prop_assert_eq!(&s2[..seq.len()], &seq[..]);
            // Parity from the digits equals parity from an inversion count.
            let inv: u64 = crate::puzzle::parity::inversions(&seq.iter().map(|&x| u32::from(x) + 1).collect::<Vec<_>>());
            prop_assert_eq!(u64::from(parity), inv % 2);
        }

        /// One cursor moved through ranks and parities in any order holds what a fresh unrank
        /// gives: digits after `seek_digits`, digits and values after `seek`.
        #[test]
        fn a_reused_cursor_agrees_with_fresh_unranking(
            m in 3usize..=MAX_TILES,
            steps in proptest::collection::vec((0.0f64..1.0, 0u8..2, 0u64..3000, proptest::bool::ANY), 1..40),
        ) {
            let ix = Indexer::new(m);
            let mut cursor = Cursor::new();
            let mut at = 0u64;
            for (frac, parity, near, full) in steps {
                // Alternate far jumps and short steps (which stay in the same `rank / period`).
                at = if near % 2 == 0 {
                    ((ix.class_size() as f64) * frac) as u64 % ix.class_size()
                } else {
                    (at + near) % ix.class_size()
                };
                // The reference: a fresh unrank, checked by ranking its values back.
                let (mut d, mut s) = ([0u8; MAX_TILES], [0u8; MAX_TILES]);
                ix.unrank(at, parity, &mut d, &mut s);
                prop_assert_eq!(ix.rank(&s[..m]), at);
                let mut lehmer = [0u8; MAX_TILES];
                prop_assert_eq!(ix.lehmer(&s[..m], &mut lehmer), parity);
                if full {
                    ix.seek(&mut cursor, at, parity);
                    prop_assert_eq!(&cursor.seq[..m], &s[..m]);
                } else {
                    ix.seek_digits(&mut cursor, at, parity);
                }
                prop_assert_eq!(&cursor.digits[..m], &lehmer[..m]);
            }
        }

        #[test]
        fn unrank_then_rank_is_identity(m in 3usize..=MAX_TILES, frac in 0.0f64..1.0, parity in 0u8..2) {
            let ix = Indexer::new(m);
            let r = ((ix.class_size() as f64) * frac) as u64 % ix.class_size();
            let (mut d, mut s) = ([0u8; MAX_TILES], [0u8; MAX_TILES]);
            ix.unrank(r, parity, &mut d, &mut s);
            prop_assert_eq!(ix.rank(&s[..m]), r);
            let mut sorted = s[..m].to_vec();
            sorted.sort_unstable();
            prop_assert_eq!(sorted, (0..m as u8).collect::<Vec<_>>());
        }
    }
}

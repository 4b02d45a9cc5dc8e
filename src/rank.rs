//! Permutation ranking and unranking by Lehmer code, with the parity half dropped.
//!
//! A sequence `s` of the values `0..m` has Lehmer digits `d[j] = #{k > j : s[k] < s[j]}`, with
//! `d[j] <= m-1-j`, and full rank `Σ d[j]·(m-1-j)!` (lexicographic order). The digit sum is the
//! inversion count, so the parity of `s` is `Σ d[j] mod 2`. The last digit is always 0 and the
//! one before it (weight 1!) is 0 or 1: fixing the parity fixes it. Hence within one parity class
//! `rank = full_rank >> 1` is a bijection onto `0..m!/2`, and unranking recovers `d[m-2]`
//! from the parity.

/// Rank steps below this are taken by adding to the digits (`Indexer::seek`).
const NEAR: u64 = 1 << 12;

/// Most tiles in a sequence the engine indexes (16-cell boards have 15 tiles).
pub const MAX_TILES: usize = 16;

/// Ranks and unranks sequences of `m` tiles (values `0..m`) within one parity class.
#[derive(Clone, Debug)]
pub struct Indexer {
    m: usize,
    /// `weights[j] = (m-1-j)!`: the weight of Lehmer digit j in the full rank.
    weights: [u64; MAX_TILES],
    /// `reciprocals[j] = ⌊(2^64-1) / hⱼ⌋ + 1` for the half weight `hⱼ = (m-1-j)!/2` (0 where
    /// hⱼ is 1 or too large): `⌊q / hⱼ⌋ = (q · reciprocals[j]) >> 64` exactly for q < 2^32
    /// (Lemire, Kaser and Kurz, "Faster remainder by direct computation", 2019).
    reciprocals: [u64; MAX_TILES],
}

impl Indexer {
    /// An indexer for sequences of `m` values, `3 <= m <= MAX_TILES`.
    pub fn new(m: usize) -> Indexer {
        assert!(
            (3..=MAX_TILES).contains(&m),
            "the indexer takes 3..={MAX_TILES} tiles, got {m}"
        );
        let mut weights = [0u64; MAX_TILES];
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
        Indexer {
            m,
            weights,
            reciprocals,
        }
    }

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
    /// `bfs::layer`). Stepping through nearby ranks adds to the last digits with carries.
    #[inline(always)]
    pub fn seek_digits(&self, cursor: &mut Cursor, rank: u64, parity: u8) {
        let m = self.m;
        let step = rank.wrapping_sub(cursor.rank);
        let first = if parity != cursor.parity || step >= NEAR {
            let packed = self.digits_of(rank, parity);
            let changed = packed ^ u128::from_le_bytes(cursor.digits);
            cursor.digits = packed.to_le_bytes();
            // Parity of digits 0..m-3: the digit m-2 completes it to `parity`.
            cursor.low_parity = cursor.digits[m - 2] ^ parity;
            (changed.trailing_zeros() / 8) as usize
        } else if step == 0 {
            return;
        } else {
            // A few ranks on: add to the last mixed-radix digit (radix 3) and carry leftwards.
            let mut j = m - 3;
            let mut carry = step as u32;
            // The parity of the digit sum is kept up to date digit by digit (reading the digits
            // back as one wide word right after byte stores would stall store forwarding).
            let mut flips = 0u8;
            loop {
                let radix = (m - j) as u32;
                let old = cursor.digits[j];
                let v = u32::from(old) + carry;
                let new = if v < radix {
                    carry = 0;
                    v as u8
                } else {
                    carry = v / radix;
                    (v % radix) as u8
                };
                cursor.digits[j] = new;
                flips ^= old ^ new;
                if carry == 0 {
                    break;
                }
                j -= 1;
            }
            cursor.low_parity ^= flips & 1;
            // Digit m-2 completes the digit sum to the sequence's parity.
            cursor.digits[m - 2] = cursor.low_parity ^ parity;
            j
        };
        cursor.rank = rank;
        cursor.parity = parity;
        cursor.built = cursor.built.min(first);
    }

    /// Moves `cursor` to the sequence of parity `parity` with rank `rank`: digits and values.
    /// Only the values from the first Lehmer digit that changed onwards are rebuilt, so stepping
    /// through nearby ranks costs a few positions instead of m.
    #[inline(always)]
    pub fn seek(&self, cursor: &mut Cursor, rank: u64, parity: u8) {
        self.seek_digits(cursor, rank, parity);
        let (m, first) = (self.m, cursor.built);
        if first >= m {
            return;
        }
        cursor.built = m;
        // unused[j]: nibble i is the i-th smallest value not placed before position j.
        let mut unused = cursor.unused[first];
        for j in first..m {
            let shift = 4 * u32::from(cursor.digits[j]);
            cursor.seq[j] = ((unused >> shift) & 0xF) as u8;
            let below = unused & ((1u64 << shift) - 1);
            unused = below | ((unused >> shift >> 4) << shift);
            cursor.unused[j + 1] = unused;
        }
    }
}

/// A sequence with its Lehmer digits, kept between calls to `Indexer::seek`.
#[derive(Clone, Debug)]
pub struct Cursor {
    /// Parity of the sum of digits 0..m-3.
    low_parity: u8,
    /// The rank and parity the cursor holds (`u64::MAX`: none yet).
    rank: u64,
    parity: u8,
    pub digits: [u8; MAX_TILES],
    pub seq: [u8; MAX_TILES],
    unused: [u64; MAX_TILES + 1],
    /// `seq` and `unused` hold the digits' sequence before this position (`seek_digits`
    /// leaves them behind, `seek` catches up).
    built: usize,
}

impl Cursor {
    pub fn new() -> Cursor {
        // Digits no rank has (0xFF) force the first seek to rebuild everything.
        let mut unused = [0u64; MAX_TILES + 1];
        unused[0] = 0xFEDC_BA98_7654_3210;
        Cursor {
            low_parity: 0,
            rank: u64::MAX,
            // No parity: the first seek cannot take the stepping path.
            parity: 2,
            digits: [0xFF; MAX_TILES],
            seq: [0; MAX_TILES],
            unused,
            built: 0,
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
            let (mut d2, mut s2) = ([0u8; MAX_TILES], [0u8; MAX_TILES]);
            ix.unrank(r, parity, &mut d2, &mut s2);
            prop_assert_eq!(&s2[..seq.len()], &seq[..]);
            // Parity from the digits equals parity from an inversion count.
            let inv: u64 = crate::parity::inversions(&seq.iter().map(|&x| u32::from(x) + 1).collect::<Vec<_>>());
            prop_assert_eq!(u64::from(parity), inv % 2);
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

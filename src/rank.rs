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

/// Ranks and unranks sequences of `m` tiles (values `0..m`) within one parity class.
#[derive(Clone, Debug)]
pub struct Indexer {
    m: usize,
    /// `weights[j] = (m-1-j)!`: the weight of Lehmer digit j in the full rank.
    weights: [u64; MAX_TILES],
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
        Indexer { m, weights }
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
        let m = self.m;
        debug_assert!(rank < self.class_size());
        let mut rest = rank;
        let mut sum = 0u8;
        // Digits 0..m-2 in mixed radix with weights (m-1-j)!/2; all of those weights are whole
        // because (m-1-j)! is even for j <= m-3. Ranks below 2^32 (m <= 13) divide in 32 bits.
        if rank < 1 << 32 {
            // Digits whose weight is 2^32 or more are 0 here.
            let mut r = rest as u32;
            for j in 0..m - 2 {
                let w = self.weights[j] >> 1;
                let d = if w > u64::from(u32::MAX) {
                    0
                } else {
                    r / w as u32
                };
                r -= d * w as u32;
                digits[j] = d as u8;
                sum ^= d as u8;
            }
        } else {
            for j in 0..m - 2 {
                let w = self.weights[j] >> 1;
                let d = rest / w;
                rest -= d * w;
                digits[j] = d as u8;
                sum ^= d as u8;
            }
        }
        digits[m - 2] = (parity ^ sum) & 1;
        digits[m - 1] = 0;
        let mut unused: u32 = (1 << m) - 1;
        for j in 0..m {
            let x = nth_set_bit(unused, u32::from(digits[j]));
            seq[j] = x as u8;
            unused &= !(1 << x);
        }
    }
}

/// Position of the `k`-th (0-based) set bit of `mask`, which has more than `k` set bits.
#[inline(always)]
fn nth_set_bit(mut mask: u32, k: u32) -> u32 {
    for _ in 0..k {
        mask &= mask - 1;
    }
    mask.trailing_zeros()
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

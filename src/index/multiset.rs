//! Dense ranks of a multiset's arrangements: the n! / ∏ mᵢ! orders of n tokens, mᵢ of symbol
//! i, numbered 0, 1, … in lexicographic order (the multinomial number system).
//!
//! Of the M arrangements of a multiset of m tokens with cᵢ of symbol i, those that begin with
//! symbol s are M · c_s / m (the arrangements of what is left once one s is taken). The rank of
//! an arrangement adds, cell by cell, the arrangements that begin with a smaller symbol among
//! the tokens left, and goes on among those that begin with its own; unranking takes the same
//! steps, choosing at each cell the symbol whose block holds the rank. Each cell costs one pass
//! over the symbols, and every count is exact in u64 since the whole multiset's is.

use crate::error::Error;

/// Most symbols a multiset has (past 20 distinct ones its arrangements pass 2^64 anyway).
const MAX_SYMBOLS: usize = 32;

/// The arrangements of one multiset: `counts[i]` tokens of symbol i.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MultisetRank {
    counts: Vec<usize>,
    cells: usize,
    total: u64,
}

impl MultisetRank {
    /// The arrangements of `counts[i]` tokens of each symbol i; refused if they are 2^64 or
    /// more (an index holds them in a u64).
    pub fn new(counts: &[usize]) -> Result<MultisetRank, Error> {
        if counts.len() > MAX_SYMBOLS {
            return Err(Error::Shape(format!(
                "{} symbols: a multiset's ranks take at most {MAX_SYMBOLS}",
                counts.len()
            )));
        }
        let cells: usize = counts.iter().sum();
        // n! / ∏ cᵢ! built token by token: after j tokens of symbol i it is the arrangements of
        // the tokens so far, an integer that never decreases (times placed ≥ k, over k), so
        // once past u64 it stays past, and below u64 its product with `placed` fits u128.
        let (mut total, mut placed) = (1u128, 0u128);
        for &c in counts {
            for k in 1..=c as u128 {
                placed += 1;
                total = total * placed / k;
                if total > u128::from(u64::MAX) {
                    return Err(too_many(counts));
                }
            }
        }
        let total = total as u64;
        Ok(MultisetRank {
            counts: counts.to_vec(),
            cells,
            total,
        })
    }

    /// The number of arrangements.
    pub fn arrangements(&self) -> u64 {
        self.total
    }

    /// The number of cells an arrangement fills.
    pub fn cells(&self) -> usize {
        self.cells
    }

    /// The rank of `symbols` (each below the number of symbols, with the multiset's counts).
    pub fn rank(&self, symbols: &[u8]) -> u64 {
        debug_assert_eq!(symbols.len(), self.cells);
        let mut left = self.left();
        let (mut block, mut rank) = (u128::from(self.total), 0u128);
        for (i, &s) in symbols.iter().enumerate() {
            let m = (self.cells - i) as u128;
            let smaller: usize = left[..s as usize].iter().sum();
            rank += block * smaller as u128 / m;
            block = block * left[s as usize] as u128 / m;
            left[s as usize] -= 1;
        }
        rank as u64
    }

    /// The arrangement of rank `rank` (below `arrangements()`), written into `out`.
    pub fn unrank(&self, rank: u64, out: &mut [u8]) {
        debug_assert!(rank < self.total && out.len() == self.cells);
        let mut left = self.left();
        let (mut block, mut rank) = (u128::from(self.total), u128::from(rank));
        for (i, cell) in out.iter_mut().enumerate() {
            let m = (self.cells - i) as u128;
            let mut s = 0;
            loop {
                let here = block * left[s] as u128 / m;
                if rank < here {
                    block = here;
                    break;
                }
                rank -= here;
                s += 1;
            }
            *cell = s as u8;
            left[s] -= 1;
        }
    }
}

impl MultisetRank {
    /// The counts, on the stack: what a rank or an unrank takes from as it goes.
    #[inline(always)]
    fn left(&self) -> [usize; MAX_SYMBOLS] {
        let mut left = [0; MAX_SYMBOLS];
        left[..self.counts.len()].copy_from_slice(&self.counts);
        left
    }
}

fn too_many(counts: &[usize]) -> Error {
    Error::Shape(format!(
        "the arrangements of {} tokens ({} symbols) are 2^64 or more: past what an index holds",
        counts.iter().sum::<usize>(),
        counts.len()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The next arrangement in lexicographic order (the classic algorithm), or false after the
    /// last.
    fn next(a: &mut [u8]) -> bool {
        let Some(i) = (1..a.len()).rev().find(|&i| a[i - 1] < a[i]) else {
            return false;
        };
        let j = (i..a.len()).rev().find(|&j| a[j] > a[i - 1]).unwrap();
        a.swap(i - 1, j);
        a[i..].reverse();
        true
    }

    #[test]
    fn ranks_number_the_arrangements_in_order() {
        for counts in [
            vec![1, 1, 1, 1],
            vec![2, 2],
            vec![3, 1, 2],
            vec![1, 4],
            vec![2, 0, 3, 1],
            vec![5],
            vec![1, 1, 1, 2, 2],
        ] {
            let r = MultisetRank::new(&counts).unwrap();
            let mut a: Vec<u8> = counts
                .iter()
                .enumerate()
                .flat_map(|(s, &c)| std::iter::repeat_n(s as u8, c))
                .collect();
            let mut out = vec![0; a.len()];
            let mut seen = 0u64;
            loop {
                assert_eq!(r.rank(&a), seen, "{counts:?} {a:?}");
                r.unrank(seen, &mut out);
                assert_eq!(out, a, "{counts:?} rank {seen}");
                seen += 1;
                if !next(&mut a) {
                    break;
                }
            }
            assert_eq!(seen, r.arrangements(), "{counts:?}");
        }
    }

    #[test]
    fn large_multisets_are_exact_or_refused() {
        // 16! / (4! 4! 4! 3! 1!) = 252,252,000: the 15-puzzle with coloured rows.
        let r = MultisetRank::new(&[1, 4, 4, 4, 3]).unwrap();
        assert_eq!(r.arrangements(), 252_252_000);
        let mut out = vec![0; 16];
        for rank in [0, 1, 123_456_789, 252_251_999] {
            r.unrank(rank, &mut out);
            assert_eq!(r.rank(&out), rank);
        }
        // 20! < 2^64 < 21!.
        assert!(MultisetRank::new(&[1; 20]).is_ok());
        let e = MultisetRank::new(&[1; 21]).unwrap_err().to_string();
        assert!(e.contains("2^64"), "{e}");
    }
}

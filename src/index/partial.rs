//! Ranks of partial arrangements: `items` distinct things placed in distinct cells of a board
//! of `cells` cells, numbered densely from 0 to cells! / (cells - items)! - 1 in lexicographic
//! order of their cells. The index of a pattern database (a few tiles and the blank, the
//! other tiles ignored), as `rank` is the index of whole boards.

use crate::error::Error;

/// The arrangements of `items` things in `cells` cells (at most 64 cells, and a count that
/// fits in a u64).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Arrangements {
    cells: usize,
    items: usize,
    /// `weights[i]` = (cells-1-i)! / (cells-items)!: how many arrangements share the cells of
    /// the items before item i and a given digit of item i.
    weights: Vec<u64>,
}

impl Arrangements {
    /// The arrangements of `items` things in `cells` cells; refused past 64 cells, more items
    /// than cells, or more arrangements than a u64 counts.
    pub fn new(cells: usize, items: usize) -> Result<Arrangements, Error> {
        if cells > 64 || items > cells {
            return Err(Error::Argument(format!(
                "{items} things in {cells} cells: at most 64 cells and no more things than cells"
            )));
        }
        let mut weights = vec![0u64; items];
        let mut w = 1u64;
        for i in (0..items).rev() {
            weights[i] = w;
            // The next weight up multiplies by the cells left for item i.
            w = w.checked_mul((cells - i) as u64).ok_or_else(|| {
                Error::Argument(format!(
                    "{items} things in {cells} cells: more arrangements than a 64-bit count"
                ))
            })?;
        }
        Ok(Arrangements {
            cells,
            items,
            weights,
        })
    }

    /// cells! / (cells - items)!.
    pub fn count(&self) -> u64 {
        match self.weights.first() {
            Some(&w) => w * self.cells as u64,
            None => 1,
        }
    }

    /// The rank of the arrangement with item i in cell `at[i]` (distinct cells, each below
    /// `cells`; checked in debug builds only: this is the inner loop of a search).
    #[inline(always)]
    pub fn rank(&self, at: &[u8]) -> u64 {
        debug_assert_eq!(at.len(), self.items);
        self.rank_from(0, 0, 0, at)
    }

    /// The rank of `at` given the part of it for items before `first`: `rank`, the sum of their
    /// digits' terms, and `taken`, their cells (a search that moves item `first` reuses what
    /// the items before it give).
    #[inline(always)]
    pub fn rank_from(&self, first: usize, mut rank: u64, mut taken: u64, at: &[u8]) -> u64 {
        for (i, &cell) in at.iter().enumerate().skip(first) {
            rank += self.term(i, cell, taken);
            taken |= 1u64 << cell;
        }
        rank
    }

    /// What item `i` on `cell` adds to the rank when the items before it take the cells
    /// `taken`.
    #[inline(always)]
    pub fn term(&self, i: usize, cell: u8, taken: u64) -> u64 {
        let bit = 1u64 << cell;
        debug_assert!(usize::from(cell) < self.cells && taken & bit == 0);
        // The digit: the cells still free below this one.
        let digit = u64::from(cell) - u64::from((taken & (bit - 1)).count_ones());
        digit * self.weights[i]
    }

    /// The arrangement of `rank` (below `count`), into `at` (`items` long).
    pub fn unrank(&self, mut rank: u64, at: &mut [u8]) {
        debug_assert!(rank < self.count() && at.len() == self.items);
        let mut free = if self.cells == 64 {
            u64::MAX
        } else {
            (1u64 << self.cells) - 1
        };
        for (i, slot) in at.iter_mut().enumerate() {
            let digit = rank / self.weights[i];
            rank %= self.weights[i];
            // The digit-th free cell, counting from 0.
            let mut f = free;
            for _ in 0..digit {
                f &= f - 1;
            }
            let cell = f.trailing_zeros();
            *slot = cell as u8;
            free &= !(1u64 << cell);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every arrangement of up to 4 things in up to 6 cells, listed by nested loops in
    /// lexicographic order of their cells (a reference that shares no code with `rank`): the
    /// rank is the position in the list, and unrank gives the arrangement back.
    #[test]
    fn ranks_are_lexicographic_positions() {
        for cells in 0..=6usize {
            for items in 0..=cells.min(4) {
                let a = Arrangements::new(cells, items).unwrap();
                let mut all: Vec<Vec<u8>> = vec![vec![]];
                for _ in 0..items {
                    let mut next = vec![];
                    for prefix in &all {
                        for c in 0..cells as u8 {
                            if !prefix.contains(&c) {
                                let mut p = prefix.clone();
                                p.push(c);
                                next.push(p);
                            }
                        }
                    }
                    all = next;
                }
                assert_eq!(a.count(), all.len() as u64, "{items} in {cells}");
                let mut back = vec![0u8; items];
                for (i, arr) in all.iter().enumerate() {
                    assert_eq!(a.rank(arr), i as u64, "{arr:?}");
                    // Any prefix's part, given, leads to the same rank.
                    for first in 0..items {
                        let head = Arrangements {
                            items: first,
                            ..a.clone()
                        };
                        let part = head.rank_from(0, 0, 0, &arr[..first]);
                        let taken = arr[..first].iter().fold(0u64, |t, &c| t | 1 << c);
                        assert_eq!(a.rank_from(first, part, taken, arr), i as u64);
                    }
                    a.unrank(i as u64, &mut back);
                    assert_eq!(&back, arr);
                }
            }
        }
    }

    /// The sizes pattern databases use: 4x4 with 8 tiles and the blank is 16!/7!, and the
    /// round trip holds on arrangements spread over the whole range.
    #[test]
    fn large_boards_round_trip() {
        let a = Arrangements::new(16, 9).unwrap();
        assert_eq!(a.count(), 4_151_347_200);
        let b = Arrangements::new(25, 7).unwrap();
        assert_eq!(b.count(), 2_422_728_000);
        let c = Arrangements::new(64, 64);
        assert!(c.is_err(), "64! does not fit");
        for a in [a, b] {
            let mut at = vec![0u8; a.items];
            let mut r = 12_345u64;
            while r < a.count() {
                a.unrank(r, &mut at);
                assert_eq!(a.rank(&at), r);
                let mut sorted = at.clone();
                sorted.sort_unstable();
                sorted.dedup();
                assert_eq!(sorted.len(), at.len(), "distinct cells");
                r += a.count() / 977 + 1;
            }
        }
        assert!(Arrangements::new(3, 4).is_err());
    }
}

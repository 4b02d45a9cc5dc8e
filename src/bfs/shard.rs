//! The index split into contiguous shards, one per rank of a distributed search.
//!
//! Shard k holds the sequence ranks `bounds[k] .. bounds[k+1]`, that is the states
//! `bounds[k]·n .. bounds[k+1]·n` (n slots a rank, see `index::space`). Every bound but the
//! last is a multiple of 32 ranks, so a shard starts on a table word and on a sequence: no word
//! is shared between ranks, and horizontal moves (which keep the sequence) never leave a shard.
//! A vertical move changes C Lehmer digits, so it lands at a nearby rank of the other parity:
//! mostly in the same shard.

use crate::index::space::StateSpace;

/// The shards of a search over `ranks` ranks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Partition {
    /// Sequence-rank bounds: shard k is `bounds[k] .. bounds[k+1]`; `ranks + 1` entries.
    bounds: Vec<u64>,
    /// Slots per sequence rank (n).
    width: u64,
}

/// Sequence ranks per alignment unit: 32 ranks of n slots are a whole number of 64-bit words.
const ALIGN: u64 = 32;

impl Partition {
    /// `space` split into `ranks` shards as equal as the alignment allows (some may be empty
    /// when the board is tiny).
    pub fn new(space: &StateSpace, ranks: usize) -> Partition {
        assert!(ranks >= 1, "at least one rank");
        let half = space.half;
        let mut bounds: Vec<u64> = (0..ranks as u64)
            .map(|k| ((half as u128 * k as u128 / ranks as u128) as u64) / ALIGN * ALIGN)
            .collect();
        bounds.push(half);
        Partition {
            bounds,
            width: space.width(),
        }
    }

    pub fn ranks(&self) -> usize {
        self.bounds.len() - 1
    }

    /// The states of shard `k`: `lo..hi`.
    pub fn range(&self, k: usize) -> (u64, u64) {
        (self.bounds[k] * self.width, self.bounds[k + 1] * self.width)
    }

    /// The shard that holds state `index`.
    #[inline]
    pub fn owner(&self, index: u64) -> usize {
        let rank = index / self.width;
        // The last bound not above `rank` (empty shards share their bound with the next).
        self.bounds[1..].partition_point(|&b| b <= rank)
    }

    /// Bytes of each shard's 2-bit table.
    pub fn table_bytes(&self, k: usize) -> u64 {
        let (lo, hi) = self.range(k);
        (hi - lo).div_ceil(32) * 8
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::board::{Cell, Shape};

    /// The shards cover every state once, start on words, and `owner` agrees with the ranges;
    /// their tables add up to the whole table.
    #[test]
    fn shards_partition_the_index_on_word_bounds() {
        for (r, c) in [(2, 2), (2, 3), (3, 3), (2, 5), (3, 4)] {
            let shape = Shape::new(r, c).unwrap();
            let space = StateSpace::new(shape, Cell(shape.cells() - 1)).unwrap();
            for ranks in [1, 2, 3, 4, 7, 16] {
                let p = Partition::new(&space, ranks);
                assert_eq!(p.ranks(), ranks);
                let mut next = 0;
                let mut words = 0;
                for k in 0..ranks {
                    let (lo, hi) = p.range(k);
                    assert_eq!(lo, next, "{shape} {ranks} ranks: shard {k}");
                    assert_eq!(lo % 32, 0);
                    next = hi;
                    words += p.table_bytes(k) / 8;
                    for i in [lo, (lo + hi) / 2, hi.saturating_sub(1)] {
                        if lo < hi {
                            assert_eq!(p.owner(i), k, "{shape} {ranks} ranks: state {i}");
                        }
                    }
                }
                assert_eq!(next, space.states());
                // Whole words per shard: at most one partial word each, against the whole.
                let whole = space.states().div_ceil(32);
                assert!(words >= whole && words <= whole + ranks as u64);
                if space.half >= 32 * ranks as u64 {
                    assert!(
                        (0..ranks).all(|k| p.range(k).0 < p.range(k).1),
                        "none empty"
                    );
                }
            }
        }
    }
}

//! The index split among the ranks of a distributed search, block-cyclically.
//!
//! The index is cut into blocks of 2^s consecutive states; block b belongs to rank b mod P.
//!
//! Contiguous shards (one range a rank) exchange the fewest targets, but they are out of
//! balance at every layer: the leading Lehmer digit is the tile in the first cell, so one rank
//! holds the states whose first tile is near home (shallow layers) and another the far ones
//! (deep layers), and each layer waits for its busiest rank. From every layer's frontier
//! counted per block of 2^16 states (2x6 and 3x4, one process), the push work of contiguous
//! shards gives Σ mean / Σ max over the layers (1 is perfect balance) of 0.75-0.78 on 2 ranks,
//! 0.55-0.57 on 16 and 0.41-0.43 on 64; blocks of 2^16 dealt round-robin give 0.996-0.999,
//! 0.97-0.98 and 0.89-0.92, and fewer, larger blocks do worse (2^20: 0.99, 0.86, 0.51). Hence
//! at least 256 blocks a rank.
//!
//! The price is more targets in other shards: a vertical move whose change of Lehmer rank
//! passes a block boundary crosses. Sampled by `tilespace plan` over 10^6 random states, 4x4
//! has 6.7% of moves crossing on 2 ranks, 14.5% on 16 and 17.2% on 64 (contiguous shards:
//! 2.2%, 5.8%, 8.1%); 3x5 and 2x8 are alike. A target costs its owner the same claim as a
//! local one, plus 8 bytes sent: for 4x4 about 4 bytes a state expanded, minutes of a 10 Gb/s
//! link against hours of expansions.
//!
//! A block is at least 2^14 states (4 KiB of table, a page) and starts on a table word; a
//! rank's table is a sparse view of the whole index (`Table::sparse`), so indices stay global
//! and the inner loop is the one-machine loop plus an ownership test.

use crate::index::space::StateSpace;

/// The blocks of a search over `ranks` ranks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Partition {
    ranks: usize,
    /// Blocks are 2^shift states.
    shift: u32,
    states: u64,
}

/// The most ranks a table is dealt to: ownership is a 32-bit remainder, and a million ranks
/// is past the largest MPI jobs run (and keeps a plan's per-rank loop to milliseconds).
pub const MAX_RANKS: usize = 1 << 20;

/// Blocks a rank should hold at least, for balance (see the module's figures).
const BLOCKS_PER_RANK: u64 = 256;
/// The smallest block: a 4 KiB page of table.
const MIN_SHIFT: u32 = 14;

impl Partition {
    /// `space` split among `ranks` ranks (some hold nothing when the board is tiny).
    pub fn new(space: &StateSpace, ranks: usize) -> Partition {
        assert!((1..=MAX_RANKS).contains(&ranks), "1 to MAX_RANKS ranks");
        let per_rank = (space.states() / (BLOCKS_PER_RANK * ranks as u64)).max(1);
        // Fewer than 2^32 blocks in all, whatever the rank count (see `with_shift`).
        let fewest = (64 - space.states().leading_zeros()).saturating_sub(32);
        let shift = (63 - per_rank.leading_zeros()).max(MIN_SHIFT).max(fewest);
        Partition::with_shift(space.states(), ranks, shift)
    }

    /// `states` split among `ranks` ranks in blocks of 2^shift states (shift ≥ 5: whole words).
    pub fn with_shift(states: u64, ranks: usize, shift: u32) -> Partition {
        assert!((5..64).contains(&shift), "blocks of whole words");
        assert!(
            states >> shift < 1 << 32,
            "fewer than 2^32 blocks (ownership is a 32-bit remainder)"
        );
        Partition {
            ranks,
            shift,
            states,
        }
    }

    /// How many ranks the index is dealt to.
    pub fn ranks(&self) -> usize {
        self.ranks
    }

    /// Blocks are 2^shift states.
    pub fn shift(&self) -> u32 {
        self.shift
    }

    /// The rank that holds state `index`.
    #[inline]
    pub fn owner(&self, index: u64) -> usize {
        self.mine(0).rank_of(index) as usize
    }

    /// Every block in index order: its rank and its states `lo..hi`.
    pub fn blocks(&self) -> impl Iterator<Item = (usize, u64, u64)> + '_ {
        let blocks = self.states.div_ceil(1 << self.shift);
        (0..blocks).map(|b| {
            let hi = ((b + 1) << self.shift).min(self.states);
            ((b % self.ranks as u64) as usize, b << self.shift, hi)
        })
    }

    /// The state ranges rank `k` holds, ascending: its blocks.
    pub fn spans(&self, k: usize) -> Vec<(u64, u64)> {
        let blocks = self.states.div_ceil(1 << self.shift);
        (k as u64..blocks)
            .step_by(self.ranks)
            .map(|b| (b << self.shift, ((b + 1) << self.shift).min(self.states)))
            .collect()
    }

    /// Bytes of rank `k`'s 2-bit table.
    pub fn table_bytes(&self, k: usize) -> u64 {
        self.spans(k)
            .iter()
            .map(|&(lo, hi)| (hi - lo).div_ceil(32) * 8)
            .sum()
    }

    /// The ownership test of rank `k`, for the engine's inner loop.
    pub fn mine(&self, k: usize) -> Mine {
        Mine::new(self.shift, self.ranks as u32, k as u32)
    }
}

/// Whether a state is one rank's: `(index >> shift) mod ranks == rank`, the remainder taken
/// by multiplications (Lemire, Kaser and Kurz, "Faster remainder by direct computation", 2019)
/// rather than a division, which costs as much as the rest of a neighbour's work.
#[derive(Clone, Copy, Debug)]
pub struct Mine {
    shift: u32,
    ranks: u32,
    rank: u32,
    /// ⌈2^64 / ranks⌉.
    magic: u64,
}

impl Mine {
    fn new(shift: u32, ranks: u32, rank: u32) -> Mine {
        Mine {
            shift,
            ranks,
            rank,
            magic: (u64::MAX / u64::from(ranks)).wrapping_add(1),
        }
    }

    /// Shard `shard` of contiguous shards of 2^shift states each (a table on disk): block b
    /// is shard b, as there are no more blocks than shards.
    pub fn contiguous(shift: u32, shards: u32, shard: u32) -> Mine {
        Mine::new(shift, shards, shard)
    }

    /// Every state is this rank's (one machine).
    pub fn all() -> Mine {
        Mine::new(63, 1, 0)
    }

    /// This rank holds `index`.
    #[inline(always)]
    pub fn holds(&self, index: u64) -> bool {
        self.rank_of(index) == self.rank
    }

    /// The rank that holds `index`.
    #[inline(always)]
    pub fn rank_of(&self, index: u64) -> u32 {
        let block = (index >> self.shift) as u32;
        let low = self.magic.wrapping_mul(u64::from(block));
        ((u128::from(low) * u128::from(self.ranks)) >> 64) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::puzzle::Puzzle;
    use crate::puzzle::board::{Cell, Shape};
    use crate::puzzle::metric::Metric;

    /// The ranks' blocks cover every state once, start on words, and `owner` and `mine` agree
    /// with them; their tables add up to the whole table; every rank holds at least 256 blocks
    /// when the board has room for them.
    #[test]
    fn blocks_partition_the_index_on_word_bounds() {
        for (r, c) in [(2, 2), (2, 3), (3, 3), (2, 4)] {
            let shape = Shape::new(r, c).unwrap();
            let space = StateSpace::new(
                &Puzzle::board(shape, Cell(shape.cells() - 1), Metric::Single).unwrap(),
                0,
            )
            .unwrap();
            for ranks in [1, 2, 3, 4, 7, 16] {
                let mut parts = vec![Partition::new(&space, ranks)];
                parts.push(Partition::with_shift(space.states(), ranks, 5));
                parts.push(Partition::with_shift(space.states(), ranks, 7));
                for p in parts {
                    let what = format!("{shape} {ranks} ranks, shift {}", p.shift());
                    let mut owner = vec![usize::MAX; space.states() as usize];
                    let mut words = 0;
                    for k in 0..ranks {
                        let mine = p.mine(k);
                        for (lo, hi) in p.spans(k) {
                            assert_eq!(lo % 32, 0, "{what}");
                            for i in lo..hi {
                                assert_eq!(owner[i as usize], usize::MAX, "{what}: {i} twice");
                                owner[i as usize] = k;
                                assert_eq!(p.owner(i), k, "{what}: state {i}");
                                assert!(mine.holds(i), "{what}: state {i}");
                            }
                        }
                        words += p.table_bytes(k) / 8;
                    }
                    assert!(owner.iter().all(|&k| k < ranks), "{what}: a state unheld");
                    let mut next = 0;
                    for (k, lo, hi) in p.blocks() {
                        assert_eq!(lo, next, "{what}: blocks in order");
                        assert!(p.spans(k).contains(&(lo, hi)), "{what}: block at {lo}");
                        next = hi;
                    }
                    assert_eq!(next, space.states(), "{what}");
                    for i in (0..space.states()).step_by(97) {
                        let k = p.owner(i);
                        assert!((0..ranks).all(|j| p.mine(j).holds(i) == (j == k)), "{what}");
                    }
                    let whole = space.states().div_ceil(32);
                    assert!(words >= whole && words <= whole + 1, "{what}");
                }
            }
        }
    }

    /// Every rank holds at least 256 blocks when the board has room for them, and the blocks
    /// are the largest that allow it.
    #[test]
    fn ranks_hold_many_blocks() {
        for (r, c) in [(2, 5), (3, 4), (2, 7), (4, 4)] {
            let shape = Shape::new(r, c).unwrap();
            let space = StateSpace::new(
                &Puzzle::board(shape, Cell(shape.cells() - 1), Metric::Single).unwrap(),
                0,
            )
            .unwrap();
            for ranks in [1, 2, 3, 16, 64] {
                let p = Partition::new(&space, ranks);
                let blocks = |p: &Partition| space.states().div_ceil(1 << p.shift());
                let what = format!("{shape} {ranks} ranks");
                if space.states() >= (1 << MIN_SHIFT) * BLOCKS_PER_RANK * ranks as u64 {
                    assert!(blocks(&p) >= BLOCKS_PER_RANK * ranks as u64, "{what}");
                    let twice = Partition::with_shift(space.states(), ranks, p.shift() + 1);
                    assert!(blocks(&twice) < BLOCKS_PER_RANK * ranks as u64, "{what}");
                } else {
                    assert_eq!(p.shift(), MIN_SHIFT, "{what}");
                }
            }
        }
    }

    /// The remainder by multiplication equals `%` for every rank count up to 300 and blocks
    /// across the 32-bit range.
    #[test]
    fn mine_is_the_remainder() {
        for ranks in 1..300u32 {
            for block in (0..u32::MAX)
                .step_by(9_999_991)
                .chain([u32::MAX, u32::MAX - 1])
            {
                let index = u64::from(block) << 14;
                let want = block % ranks;
                for rank in [0, want, ranks - 1] {
                    let mine = Mine::new(14, ranks, rank);
                    assert_eq!(mine.holds(index), want == rank, "{block} mod {ranks}");
                }
            }
        }
    }
}

//! A bit per row of a rank, for the multi-tile push: the states of a layer among those holding
//! its code.
//!
//! The table codes a multi-tile depth d as 1 + d mod 3, so a push's scan finds layer d and the
//! layers 3, 6, … before it, and expanding those finds nothing new (a third of 2x6's scanned
//! states). The push computes no vertical slide in a row without a state of layer d-1's code
//! (`multi`), but an older row holding layers d-4 and d-3 holds that code (d-4's). A row of a
//! rank (its C consecutive slots: the blank in one board row, one tile sequence) never holds
//! both a layer and one 3, 6, … before it: its states are one horizontal slide apart, so their
//! depths differ by one at most. One bit a row (index / C), set while the row may hold states
//! of the newest layer, tells them apart:
//! - every bit starts set, and a bit is only ever cleared: a push clears the bit of a row of
//!   a word it expands once the row holds no unseen state and none of the next layer. Nothing will mark
//!   one there any more (marks only change unseen states), so the row never holds a state of a
//!   newer layer, and no claim lands in it: the claims set no bit, and a pull, which reads none,
//!   leaves them valid;
//! - a push skips the frontier-coded states of a row whose bit is clear: they are older;
//! - a row is cleared only once its every part is expanded: a row crossing into the next word
//!   is cleared there, and one whose slots another task holds too is left set (the other task
//!   may not have expanded its part yet); a bit left set costs a re-expansion, never a wrong
//!   count.
//!
//! Only one table holding every state keeps them (`Place::keeps_rows`), and only as many as
//! fit `Rows::budget`, which holds every row of a board of 4 columns or more: 2x6's (5 MB),
//! 3x4's (7.5 MB), 2x7's (0.78 GB beside its 10.9 GB table; with the first 44% of them, a
//! 32nd of the table, 2x7 took 8% longer). The rows past the budget keep no bit: they read as
//! set, and a push expands their older layers too. A search makes the bits at a push and drops
//! them at a list or a pull (`bfs::driver`), so that they never share the memory with the lists
//! recorded at the start and the end.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// The bytes of bits a search keeps whatever its table's size (see `Rows::budget`).
pub const MIN_BYTES: u64 = 64 << 20;

/// One bit per row, for the first rows the budget holds: set while the row may hold states of
/// the newest layer.
pub struct Rows {
    bits: Box<[AtomicU64]>,
    /// The rows with a bit: those before this one (the others read as set).
    kept: u64,
    /// ⌈2^64 / C⌉: a row is the high word of index · magic (exact below 2^64 / C).
    magic: u64,
}

impl Rows {
    /// The bytes of bits a search whose table takes `table_bytes` keeps: an eighth of the
    /// table, or `MIN_BYTES`, whichever is more. A row's bit takes 1/(2C) of its C states'
    /// bytes, so every row of a board of 4 columns or more keeps one (7% more memory on 2x7).
    pub fn budget(table_bytes: u64) -> u64 {
        MIN_BYTES.max(table_bytes / 8)
    }

    /// The rows of a table of `states` states, C = `cols` slots a row, and how many of them
    /// the first `budget` bytes of bits keep.
    fn kept(states: u64, cols: usize, budget: u64) -> (u64, u64) {
        let rows = states.div_ceil(cols as u64);
        (rows, rows.min(budget / 8 * 64))
    }

    /// The share of the rows of a table of `states` states, C = `cols` slots a row, that
    /// `budget` bytes of bits keep (those `within` keeps bits for).
    pub fn share(states: u64, cols: usize, budget: u64) -> f64 {
        let (rows, kept) = Rows::kept(states, cols, budget);
        kept as f64 / rows.max(1) as f64
    }

    /// The rows of a table of `states` states, C = `cols` slots a row, every bit set, the
    /// first `budget` bytes of them kept.
    pub fn within(states: u64, cols: usize, budget: u64) -> Rows {
        let (_, kept) = Rows::kept(states, cols, budget);
        Rows {
            // One word more: `span` reads the word after a row's.
            bits: (0..kept.div_ceil(64) + 1)
                .map(|_| AtomicU64::new(!0))
                .collect(),
            kept,
            magic: (u64::MAX / cols as u64).wrapping_add(1),
        }
    }

    /// The row of the state at `index`.
    #[inline(always)]
    pub fn of(&self, index: u64) -> u64 {
        ((u128::from(index) * u128::from(self.magic)) >> 64) as u64
    }

    /// Whether `row` keeps a bit (it is within the budget's rows).
    #[inline(always)]
    pub fn keeps(&self, row: u64) -> bool {
        row < self.kept
    }

    /// Whether `row`'s bit is set (a row past the kept ones reads as set).
    #[inline(always)]
    pub fn get(&self, row: u64) -> bool {
        !self.keeps(row) || self.bits[(row / 64) as usize].load(Relaxed) >> (row % 64) & 1 != 0
    }

    /// The bits of `count` (at most 32) rows from `row` on, the first in bit 0 (rows past the
    /// kept ones read as set).
    #[inline(always)]
    pub fn span(&self, row: u64, count: u32) -> u64 {
        let all = (1u64 << count) - 1;
        if row + u64::from(count) > self.kept {
            // At or past the budget's end: branches that change once a scan.
            if row >= self.kept {
                return all;
            }
            let set = (0..count).filter(|&t| self.get(row + u64::from(t)));
            return set.fold(0, |bits, t| bits | 1 << t);
        }
        let (at, shift) = ((row / 64) as usize, row % 64);
        let low = self.bits[at].load(Relaxed) >> shift;
        // The next word's bits above the first's (none if the shift is 0: shifted out twice).
        let high = (self.bits[at + 1].load(Relaxed) << 1) << (63 - shift);
        (low | high) & all
    }

    /// Clears `row`'s bit, if it keeps one.
    #[inline(always)]
    pub fn clear(&self, row: u64) {
        if self.keeps(row) {
            self.bits[(row / 64) as usize].fetch_and(!(1 << (row % 64)), Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The row of an index is its quotient by C, for every C the engine uses, near the largest
    /// indices of 16 cells too.
    #[test]
    fn rows_are_quotients() {
        for cols in 2..=16usize {
            let rows = Rows::within(1000, cols, u64::MAX);
            let big = 16 * (1..=15u64).product::<u64>();
            for i in (0..5000).chain(big - 5000..big) {
                assert_eq!(rows.of(i), i / cols as u64, "{i} / {cols}");
            }
        }
    }

    /// Every bit starts set (the last row's too), and a cleared bit is the only one cleared.
    #[test]
    fn bits_start_set_and_clear_alone() {
        let rows = Rows::within(6 * 200 - 5, 6, u64::MAX);
        assert!((0..200).all(|row| rows.get(row)));
        rows.clear(3);
        rows.clear(64);
        assert!(!rows.get(3) && !rows.get(64) && rows.get(4) && rows.get(63) && rows.get(65));
        assert_eq!(Rows::share(6 * 200 - 5, 6, u64::MAX), 1.0);
    }

    /// `span` reads the bits of consecutive rows as `get` does, across words and past the
    /// budget's end.
    #[test]
    fn spans_read_the_rows_bits() {
        let rows = Rows::within(7 * 1000, 7, 16);
        for row in [0, 3, 60, 64, 100, 127] {
            rows.clear(row);
        }
        for start in 0..140 {
            for count in [1, 5, 17, 32] {
                let want = (0..count)
                    .filter(|&t| rows.get(start + u64::from(t)))
                    .fold(0u64, |b, t| b | 1 << t);
                assert_eq!(rows.span(start, count), want, "{start} {count}");
            }
        }
    }

    /// Past the budget's rows a row keeps no bit: it reads as set, even once cleared.
    #[test]
    fn rows_past_the_budget_read_as_set() {
        // 16 bytes: 128 rows of the 1000.
        let rows = Rows::within(7 * 1000, 7, 16);
        assert_eq!(Rows::share(7 * 1000, 7, 16), 0.128);
        for row in [0, 127, 128, 999] {
            rows.clear(row);
        }
        assert!(!rows.get(0) && !rows.get(127) && rows.get(128) && rows.get(999));
        assert_eq!(Rows::budget(1 << 20), MIN_BYTES);
        assert_eq!(Rows::budget(8 << 30), 1 << 30);
        // Every row of 2x7 (14!/2 states, 7 a row: 778,377,600 bytes of bits) and of 3x4 (12!/2
        // states, 4 a row: 7,484,400 bytes) keeps its bit.
        let (x7, x4) = (43_589_145_600u64, 239_500_800u64);
        assert_eq!(Rows::share(x7, 7, Rows::budget(x7 / 4)), 1.0);
        assert_eq!(Rows::share(x4, 4, Rows::budget(x4 / 4)), 1.0);
    }
}

//! A bit per row of a rank, for the multi-tile push: the states of a layer among those holding
//! its code.
//!
//! The table codes a multi-tile depth d as 1 + d mod 3, so a push's scan finds layer d and the
//! layers 3, 6, … before it, and expanding those finds nothing new (a third of 2x6's scanned
//! states). A row of a rank (its C consecutive slots: the blank in one board row, one tile
//! sequence) never holds both: its states are one horizontal slide apart, so their depths differ
//! by one at most. One bit a row (index / C), set while the row may hold states of the newest
//! layer, tells them apart:
//! - every bit starts set, and a bit is only ever cleared: a push clears the bit of a row it
//!   expands once the row holds no unseen state and none of the next layer. Nothing will mark
//!   one there any more (marks only change unseen states), so the row never holds a state of a
//!   newer layer, and no claim lands in it: the claims set no bit, and a pull, which reads none,
//!   leaves them valid;
//! - a push skips the frontier-coded states of a row whose bit is clear: they are older;
//! - a row whose slots another task holds too is left set (the other task may not have expanded
//!   its part yet), and so is one crossing a word until the task's end; a bit left set costs a
//!   re-expansion, never a wrong count.
//!
//! Only one table holding every state keeps them (`Place::keeps_rows`), and only up to
//! `MAX_BYTES` of them: bits past the processor's caches would add a cache miss to the pushes'
//! runs (2x7's are 0.78 GB; 2x6's 5 MB, 3x4's 7.5 MB).

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// The most bytes of bits a search keeps (see the module's doc).
pub const MAX_BYTES: u64 = 64 << 20;

/// One bit per row: set while the row may hold states of the newest layer.
pub struct Rows {
    bits: Box<[AtomicU64]>,
    /// ⌈2^64 / C⌉: a row is the high word of index · magic (exact below 2^64 / C).
    magic: u64,
}

impl Rows {
    /// The rows of a table of `states` states, C = `cols` slots a row, every bit set, if their
    /// bits take at most `MAX_BYTES`.
    pub fn within_cache(states: u64, cols: usize) -> Option<Rows> {
        (Rows::bytes(states, cols) <= MAX_BYTES).then(|| Rows::new(states, cols))
    }

    /// The rows of a table of `states` states, C = `cols` slots a row, every bit set.
    pub fn new(states: u64, cols: usize) -> Rows {
        let rows = states.div_ceil(cols as u64);
        Rows {
            bits: (0..rows.div_ceil(64)).map(|_| AtomicU64::new(!0)).collect(),
            magic: (u64::MAX / cols as u64).wrapping_add(1),
        }
    }

    /// Bytes of the bits for a table of `states` states, C = `cols`.
    pub fn bytes(states: u64, cols: usize) -> u64 {
        states.div_ceil(cols as u64).div_ceil(64) * 8
    }

    /// The row of the state at `index`.
    #[inline(always)]
    pub fn of(&self, index: u64) -> u64 {
        ((u128::from(index) * u128::from(self.magic)) >> 64) as u64
    }

    /// Whether `row`'s bit is set.
    #[inline(always)]
    pub fn get(&self, row: u64) -> bool {
        self.bits[(row / 64) as usize].load(Relaxed) >> (row % 64) & 1 != 0
    }

    /// Clears `row`'s bit.
    #[inline(always)]
    pub fn clear(&self, row: u64) {
        self.bits[(row / 64) as usize].fetch_and(!(1 << (row % 64)), Relaxed);
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
            let rows = Rows::new(1000, cols);
            let big = 16 * (1..=15u64).product::<u64>();
            for i in (0..5000).chain(big - 5000..big) {
                assert_eq!(rows.of(i), i / cols as u64, "{i} / {cols}");
            }
        }
    }

    /// Every bit starts set (the last row's too), and a cleared bit is the only one cleared.
    #[test]
    fn bits_start_set_and_clear_alone() {
        let rows = Rows::new(6 * 200 - 5, 6);
        assert!((0..200).all(|row| rows.get(row)));
        rows.clear(3);
        rows.clear(64);
        assert!(!rows.get(3) && !rows.get(64) && rows.get(4) && rows.get(63) && rows.get(65));
    }
}

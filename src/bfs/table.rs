//! The BFS table: 2 bits per state in `AtomicU64` words, 32 states a word.
//!
//! Encoding of a state's 2 bits:
//! - `0b00`: unseen. Zeroed memory is therefore an empty search, and the allocation is one
//!   `calloc` whose pages the OS hands out lazily.
//! - `0b01`, `0b10`, `0b11`: seen at a depth `d` with `d % 3 == code - 1`.
//!
//! Depth mod 3 is enough to tell the frontier (depth d) from the two layers before it, the only
//! ones a neighbour can be in; it also lets the exact depth of any state be recovered later by
//! descending (every neighbour of a state at depth d is at d-1 or d+1).
//!
//! Concurrency: during a layer, threads only read codes of finished layers and write the one
//! code of the next layer into unseen slots with `fetch_or`. Two threads setting the same slot
//! write the same bits; exactly one of them sees the slot as unseen in the value `fetch_or`
//! returns, so counting those gives exact layer sizes.

use std::sync::atomic::{AtomicU64, Ordering};

/// Code for states at `depth`.
#[inline(always)]
pub fn code(depth: u32) -> u64 {
    u64::from(depth % 3) + 1
}

/// `0b0101…01`: the low bit of each 2-bit slot.
pub const LOW_BITS: u64 = 0x5555_5555_5555_5555;

pub struct Table {
    words: Box<[AtomicU64]>,
}

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Table({} words)", self.words.len())
    }
}

impl Table {
    /// A table of `states` unseen states.
    pub fn new(states: u64) -> Table {
        // Zeroed u64s allocated in one go (lazily paged by the OS).
        Table::from_words(vec![0u64; states.div_ceil(32) as usize])
    }

    /// A table holding `words` (32 states each), as a checkpoint saved them.
    pub fn from_words(words: Vec<u64>) -> Table {
        let plain: Box<[u64]> = words.into_boxed_slice();
        const _: () = assert!(std::mem::size_of::<AtomicU64>() == std::mem::size_of::<u64>());
        const _: () = assert!(std::mem::align_of::<AtomicU64>() == std::mem::align_of::<u64>());
        let raw = Box::into_raw(plain) as *mut [AtomicU64];
        // SAFETY: AtomicU64 has the same size, alignment and bit validity as u64 (asserted
        // above), and the box is uniquely owned, so reinterpreting the allocation is sound.
        let words = unsafe { Box::from_raw(raw) };
        Table { words }
    }

    /// Bytes of the table proper.
    pub fn bytes(&self) -> u64 {
        self.words.len() as u64 * 8
    }

    pub fn words(&self) -> &[AtomicU64] {
        &self.words
    }

    /// The word holding states `32·w .. 32·w + 32`.
    #[inline(always)]
    pub fn word(&self, w: usize) -> u64 {
        self.words[w].load(Ordering::Relaxed)
    }

    #[inline(always)]
    pub fn get(&self, index: u64) -> u64 {
        (self.word((index / 32) as usize) >> (2 * (index % 32))) & 3
    }

    /// Marks an unseen state with `code`; true if this call is the one that marked it.
    /// A state already seen (at an earlier depth, or by another thread now) is left alone.
    #[inline(always)]
    pub fn visit(&self, index: u64, code: u64) -> bool {
        let word = &self.words[(index / 32) as usize];
        let shift = 2 * (index % 32);
        // Most neighbours are already seen: a plain load avoids the cache-line ownership
        // traffic of an atomic read-modify-write.
        if (word.load(Ordering::Relaxed) >> shift) & 3 != 0 {
            return false;
        }
        (word.fetch_or(code << shift, Ordering::Relaxed) >> shift) & 3 == 0
    }

    /// A mask with the low bit of every slot in `word` that holds `code` set.
    #[inline(always)]
    pub fn matching(word: u64, code: u64) -> u64 {
        // x = 0 in exactly the slots equal to `code`; fold each slot's two bits into its low bit.
        let x = word ^ (code * LOW_BITS);
        !(x | (x >> 1)) & LOW_BITS
    }

    /// States whose slot is not `0b00`.
    pub fn seen(&self) -> u64 {
        use rayon::prelude::*;
        self.words
            .par_iter()
            .map(|w| {
                let v = w.load(Ordering::Relaxed);
                u64::from(((v | (v >> 1)) & LOW_BITS).count_ones())
            })
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn visit_marks_once_and_matching_finds_codes() {
        let t = Table::new(100);
        assert!(t.visit(37, code(4)));
        assert!(!t.visit(37, code(4)));
        assert!(!t.visit(37, code(5)), "a seen state keeps its depth");
        assert_eq!(t.get(37), code(4));
        assert!(t.visit(38, code(5)));
        assert_eq!(t.seen(), 2);
        let w = t.word(1);
        assert_eq!(Table::matching(w, code(4)), 1 << (2 * 5));
        assert_eq!(Table::matching(w, code(5)), 1 << (2 * 6));
        assert_eq!(Table::matching(w, code(6)), 0);
    }
}

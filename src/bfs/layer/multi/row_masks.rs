//! The rows of a rank inside a table word, as bit masks: a multi-tile scan asks of each row
//! whether it holds a slot of some code, and marks or tests the rows' slots, in a few shifts
//! a word instead of a loop over its rows.
//!
//! A row (C consecutive slots, index / C: the blank in one board row, one tile sequence) is a
//! run of slots of a word, or two parts, in a word and the one beside it. A loop over a
//! word's rows, branching on what each holds, lost the branch predictor about once a state
//! (cachegrind's branch simulation of 2x5: 2.6 M mispredictions for 1.8 M states, two thirds of
//! them in that loop; 1.09 M with these masks), at 15-20 cycles each most of the gap between
//! the metrics' costs a state. Here a word's rows are handled at once:
//! - `spread` sets every slot of each row (of the word) that has a slot set, by three doubling
//!   shifts up and three down, each kept inside the rows by a mask (`Phase::links`);
//! - `rows` turns a row's bit of `Rows` (one a row) into its slots;
//! - the parts of the first and last row outside the word are read from the words beside it
//!   and stand in at slot 0 or 31 (`Phase::back`, `Phase::ahead`).
//!
//! A word's rows depend only on its phase φ = (index of its first slot) mod C: the first
//! row's φ slots lie in the word before.

use crate::bfs::table::LOW_BITS;

/// What a word of phase φ needs: its rows' masks.
#[derive(Clone, Copy, Debug, Default)]
pub struct Phase {
    /// `links[t]`: slot i's low bit, where slot i - 2^t is in slot i's row.
    links: [u64; 3],
    /// The slots of the word before that belong to this word's first row (its top φ), and of
    /// the word after that belong to its last row (its first few).
    pub(in crate::bfs::layer) back: u64,
    pub(in crate::bfs::layer) ahead: u64,
    /// The slots of the rows that lie wholly in the word, and of the first row if it begins in
    /// the word before.
    pub(in crate::bfs::layer) inner: u64,
    pub(in crate::bfs::layer) first: u64,
    /// The first slot of each row in the word (slot 0 for the first).
    pub(in crate::bfs::layer) starts: u64,
    /// Rows the word holds a slot of, and the first slot of the second one.
    pub(in crate::bfs::layer) rows: u32,
    second: u32,
    /// φ: the slots of the word's first row in the word before.
    pub(in crate::bfs::layer) phi: u32,
}

/// The masks of every phase of a board of C columns.
#[derive(Clone, Debug)]
pub struct RowMasks {
    /// `phases[q]`: the phase q mod C of a word whose first slot is slot q of its rank (q < n
    /// ≤ 17), looked up by q: q mod C, with C known only at run time, was a division a word
    /// (2x5 multi-tile: 4% of the search's instructions).
    phases: Box<[Phase; 32]>,
    /// `deposit[v]`: bit j of v at slot j·C (low bits), for the rows after the first.
    deposit: [u64; 256],
    cols: u32,
}

impl RowMasks {
    /// The rows of C = `cols` slots (2 to 8).
    pub fn new(cols: usize) -> RowMasks {
        assert!((2..=8).contains(&cols), "rows of 2 to 8 slots");
        let c = cols;
        let phases: Vec<Phase> = (0..c)
            .map(|phi| {
                let row = |i: usize| (phi + i) / c;
                let mut p = Phase::default();
                for (t, link) in p.links.iter_mut().enumerate() {
                    let s = 1 << t;
                    *link = (s..32)
                        .filter(|&i| row(i) == row(i - s))
                        .fold(0, |m, i| m | 1 << (2 * i));
                }
                let slots = |keep: &dyn Fn(usize) -> bool| {
                    (0..32)
                        .filter(|&i| keep(i))
                        .fold(0u64, |m, i| m | 1 << (2 * i))
                };
                let last = row(31);
                let after = (c - (phi + 32) % c) % c;
                p.back = if phi == 0 {
                    0
                } else {
                    LOW_BITS << (2 * (32 - phi))
                };
                p.ahead = LOW_BITS & ((1 << (2 * after)) - 1);
                p.inner = slots(&|i| (row(i) > 0 || phi == 0) && (row(i) < last || after == 0));
                p.first = if phi == 0 { 0 } else { slots(&|i| row(i) == 0) };
                p.starts = slots(&|i| i == 0 || (phi + i) % c == 0);
                p.rows = (last + 1) as u32;
                p.second = (c - phi) as u32;
                p.phi = phi as u32;
                p
            })
            .collect();
        let deposit = std::array::from_fn(|v| {
            (0..8)
                .filter(|j| v >> j & 1 == 1)
                .fold(0u64, |m, j| m | 1 << (2 * c * j))
        });
        RowMasks {
            phases: Box::new(std::array::from_fn(|q| phases[q % c])),
            deposit,
            cols: c as u32,
        }
    }

    /// The phase of the word whose first slot is slot q (below 32) of its rank (a rank's n
    /// slots are whole rows: q mod C).
    #[inline(always)]
    pub fn phase(&self, q: usize) -> &Phase {
        &self.phases[q % 32]
    }

    /// Every slot of each row of the word with a slot set in `x` (low bits).
    #[inline(always)]
    pub fn spread(p: &Phase, x: u64) -> u64 {
        let mut down = RowMasks::fill_up(p, x);
        for (t, &link) in p.links.iter().enumerate() {
            down |= (down >> (2 << t)) & (link >> (2 << t));
        }
        down
    }

    /// The slots of the rows whose bit is set in `bits` (bit k: the word's row k).
    #[inline(always)]
    pub fn rows(&self, p: &Phase, bits: u64) -> u64 {
        let rest = bits >> 1;
        let mut at = (bits & 1) | self.deposit[(rest & 0xFF) as usize] << (2 * p.second);
        if self.cols < 4 {
            // Up to 16 rows after the first: their second eight start 8·C slots on.
            at |= self.deposit[((rest >> 8) & 0xFF) as usize] << (2 * (p.second + 8 * self.cols));
        }
        // Each row's first slot, filled up its row.
        RowMasks::fill_up(p, at)
    }

    /// Every slot of a row of the word above a slot set in `x` in that row.
    #[inline(always)]
    fn fill_up(p: &Phase, x: u64) -> u64 {
        let mut up = x;
        for (t, &link) in p.links.iter().enumerate() {
            up |= (up << (2 << t)) & link;
        }
        up
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rows of slot i of a word of phase φ: (φ + i) / C.
    fn row(phi: usize, c: usize, i: usize) -> usize {
        (phi + i) / c
    }

    /// `spread` and `rows` agree with the rows counted slot by slot, for every width, phase
    /// and many words; the masks of the parts outside the word hold the first and last rows'
    /// other slots.
    #[test]
    fn masks_follow_the_rows_slot_by_slot() {
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        for c in 2..=8 {
            let masks = RowMasks::new(c);
            for phi in 0..c {
                let p = masks.phase(phi + c);
                let rows = row(phi, c, 31) + 1;
                assert_eq!(p.rows as usize, rows);
                assert_eq!((p.back >> (2 * (32 - phi))).count_ones() as usize, phi);
                let after = (c - (phi + 32) % c) % c;
                assert_eq!(p.ahead.count_ones() as usize, after);
                for _ in 0..300 {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    // Sparse words too: a few slots set.
                    let x = seed & LOW_BITS & (seed >> 17 | seed >> 29);
                    let want = (0..32)
                        .filter(|&i| {
                            (0..32)
                                .any(|t| x >> (2 * t) & 1 == 1 && row(phi, c, t) == row(phi, c, i))
                        })
                        .fold(0u64, |m, i| m | 1 << (2 * i));
                    assert_eq!(RowMasks::spread(p, x), want, "C {c} phase {phi} word {x:x}");
                    let bits = seed >> 40 & ((1 << rows) - 1);
                    let want = (0..32)
                        .filter(|&i| bits >> row(phi, c, i) & 1 == 1)
                        .fold(0u64, |m, i| m | 1 << (2 * i));
                    assert_eq!(masks.rows(p, bits), want, "C {c} phase {phi} bits {bits:b}");
                }
                for i in 0..32 {
                    let (r, bit) = (row(phi, c, i), 1u64 << (2 * i));
                    let whole = r * c >= phi && r * c + c <= phi + 32;
                    assert_eq!(p.inner & bit != 0, whole);
                    assert_eq!(p.first & bit != 0, r == 0 && phi > 0);
                    assert_eq!(p.starts & bit != 0, i == 0 || (phi + i) % c == 0);
                }
            }
        }
    }
}

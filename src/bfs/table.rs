//! The BFS table: 2 bits per state in `AtomicU64` words, 32 states a word.
//!
//! Encoding of a state's 2 bits:
//! - `0b00`: unseen. Zeroed memory is therefore an empty search, and the allocation is one
//!   anonymous mapping whose pages the OS hands out lazily, huge pages where it can (the
//!   probes are random: with 4 KiB pages nearly every one also misses the TLB, and the kernel
//!   spends twice the time on the faults).
//! - `0b01` (`FRONTIER`): in the layer being expanded or the one being built. The two have
//!   opposite blank colours (every move flips the colour of the blank's cell), so the colour
//!   tells them apart.
//! - `0b10`, `0b11` (`settled`): expanded, at a depth d with `(d / 2) % 2 == code - 2`.
//!
//! A state is settled when its layer has been expanded. So the frontier is exactly the states
//! holding `FRONTIER` with the layer's colour: no earlier layer is expanded again. (With depth
//! mod 3 in the 2 bits instead, code and colour only give depth mod 6, and every layer also
//! re-expanded the layers 6, 12, … back: 46% of the push work on 2x6.)
//!
//! In a finished table every state is settled. The colour gives depth mod 2 and the code the
//! next bit, so the table holds depth mod 4: the neighbours of a state at depth d lie at d-1 and
//! d+1, which differ mod 4, so walking to the neighbour at d-1 mod 4 descends to the start
//! (`saved` does this).
//!
//! Concurrency: during a layer, threads read the codes of the frontier and write `FRONTIER`
//! into unseen slots of the other colour with `fetch_or`. Two threads setting the same slot
//! write the same bits; exactly one of them sees the slot as unseen in the value `fetch_or`
//! returns, so counting those gives exact layer sizes. Settling flips the frontier's own slots
//! with `fetch_xor`, which commutes with those writes.

use std::ptr::NonNull;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::bfs::bits::bit_instructions;

/// Code of the states of the layer being expanded and of the one being built.
pub const FRONTIER: u64 = 1;

/// Code of an expanded state at `depth`.
#[inline(always)]
pub fn settled(depth: u32) -> u64 {
    2 + u64::from((depth >> 1) & 1)
}

/// Depth mod 4 of a settled state holding `code`, whose depth has parity `parity`.
#[inline(always)]
pub fn depth_mod4(code: u64, parity: u32) -> u32 {
    debug_assert!(code >= 2);
    ((code as u32 - 2) << 1) | (parity & 1)
}

/// `0b0101…01`: the low bit of each 2-bit slot.
pub const LOW_BITS: u64 = 0x5555_5555_5555_5555;

/// The 2-bit slots of a search, indexed by global state index: the whole table on one
/// machine, or a rank's blocks (`held`) in a sparse view of the whole index's words, whose
/// other pages are never touched and so never take memory.
pub struct Table {
    words: NonNull<AtomicU64>,
    len: usize,
    /// The word ranges this table holds, ascending: `[(0, len)]` unless sparse.
    held: Vec<(usize, usize)>,
    _store: Store,
}

/// What owns a table's memory.
enum Store {
    Heap(#[allow(dead_code)] Box<[AtomicU64]>),
    Map(#[allow(dead_code)] memmap2::MmapMut),
}

// SAFETY: the words are atomics owned by `_store`, which lives as long as the table and is
// never accessed otherwise; sharing `&AtomicU64` between threads is sound.
unsafe impl Send for Table {}
// SAFETY: as for `Send`.
unsafe impl Sync for Table {}

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Table({} words held in {} spans of {})",
            self.bytes() / 8,
            self.held.len(),
            self.len
        )
    }
}

/// A table page of this many bytes or more is backed by a transparent huge page when the
/// kernel can: blocks smaller than this must not share one with another rank's blocks.
const HUGE_PAGE: usize = 2 << 20;

impl Table {
    /// A table of `states` unseen states.
    pub fn new(states: u64) -> Table {
        let len = states.div_ceil(32) as usize;
        Table::huge(len).unwrap_or_else(|_| {
            // Zeroed u64s allocated in one go (lazily paged by the OS).
            Table::from_words(vec![0u64; len])
        })
    }

    /// `len` zeroed words in an anonymous mapping, starting on a huge-page boundary and
    /// advised to be backed by huge pages.
    fn huge(len: usize) -> std::io::Result<Table> {
        let map = memmap2::MmapOptions::new()
            .len(len * 8 + HUGE_PAGE)
            .map_anon()?;
        #[cfg(target_os = "linux")]
        let _ = map.advise(memmap2::Advice::HugePage);
        let skew = map.as_ptr().align_offset(HUGE_PAGE);
        // SAFETY: `skew` < HUGE_PAGE, so the words lie inside the mapping, which is
        // page-aligned (so 8-aligned) and zeroed; AtomicU64 may hold any bits.
        let words = unsafe { NonNull::new_unchecked(map.as_ptr().add(skew) as *mut AtomicU64) };
        let table = Table {
            words,
            len,
            held: vec![(0, len)],
            _store: Store::Map(map),
        };
        table.first_touch();
        Ok(table)
    }

    /// Writes a zero into every page the table holds, pages spread over the threads: a page's
    /// first touch costs the kernel (and, on a virtual machine, the host) the zeroing of the
    /// page, milliseconds for a huge page. Left to the search, the first small layers paid
    /// these one thread at a time, in random order.
    fn first_touch(&self) {
        use rayon::prelude::*;
        const PAGE_WORDS: usize = 4096 / 8;
        for span in self.held() {
            span.par_chunks(HUGE_PAGE / 8).for_each(|part| {
                for word in part.iter().step_by(PAGE_WORDS) {
                    word.store(0, Ordering::Relaxed);
                }
            });
        }
    }

    /// The unseen states `spans` (ascending ranges starting on words) of a table of `states`:
    /// a rank's blocks. The whole index is mapped without reserving memory, and only the
    /// pages of the spans are ever touched.
    pub fn sparse(states: u64, spans: &[(u64, u64)]) -> std::io::Result<Table> {
        let len = states.div_ceil(32) as usize;
        let held: Vec<(usize, usize)> = spans
            .iter()
            .map(|&(lo, hi)| {
                assert_eq!(lo % 32, 0, "a span starts on a word");
                ((lo / 32) as usize, hi.div_ceil(32) as usize)
            })
            .collect();
        if held == [(0, len)] {
            return Ok(Table::new(states));
        }
        // Room to start the words on a huge-page boundary, so that a huge page never spans
        // two blocks when blocks are whole huge pages.
        let map = memmap2::MmapOptions::new()
            .len(len * 8 + HUGE_PAGE)
            .no_reserve_swap()
            .map_anon()?;
        let small = held
            .iter()
            .any(|&(a, b)| (b - a) * 8 < HUGE_PAGE && b != len);
        if small {
            // A huge page would hold other ranks' blocks too: memory this rank never uses.
            map.advise(memmap2::Advice::NoHugePage)?;
        }
        let skew = map.as_ptr().align_offset(HUGE_PAGE);
        // SAFETY: `skew` < HUGE_PAGE, so the words lie inside the mapping, which is
        // page-aligned (so 8-aligned) and zeroed; AtomicU64 may hold any bits.
        let words = unsafe { NonNull::new_unchecked(map.as_ptr().add(skew) as *mut AtomicU64) };
        Ok(Table {
            words,
            len,
            held,
            _store: Store::Map(map),
        })
    }

    /// A window on the whole index of `states` for a table kept on disk: mapped without
    /// reserving memory and never touched, so that only the words loaded into it (`load`) take
    /// memory, until they are released (`release`).
    pub fn window(states: u64) -> std::io::Result<Table> {
        let len = states.div_ceil(32) as usize;
        let map = memmap2::MmapOptions::new()
            .len(len * 8 + HUGE_PAGE)
            .no_reserve_swap()
            .map_anon()?;
        #[cfg(target_os = "linux")]
        let _ = map.advise(memmap2::Advice::HugePage);
        let skew = map.as_ptr().align_offset(HUGE_PAGE);
        // SAFETY: as in `huge`.
        let words = unsafe { NonNull::new_unchecked(map.as_ptr().add(skew) as *mut AtomicU64) };
        Ok(Table {
            words,
            len,
            held: vec![(0, len)],
            _store: Store::Map(map),
        })
    }

    /// Writes `words` into the table from word `at` on (a shard read from disk).
    pub fn load(&self, at: usize, words: &[u64]) {
        for (cell, &w) in self.all()[at..at + words.len()].iter().zip(words) {
            cell.store(w, Ordering::Relaxed);
        }
    }

    /// Zeroes words `a..b` and hands their whole pages back to the system (a window's shard
    /// written back to disk): the words read 0 afterwards, as never touched.
    pub fn release(&self, a: usize, b: usize) {
        const PAGE: usize = 4096;
        let words = &self.all()[a..b];
        if let Store::Map(map) = &self._store {
            let base = map.as_ptr() as usize;
            let (lo, hi) = (
                words.as_ptr() as usize,
                words.as_ptr() as usize + words.len() * 8,
            );
            let (first, last) = (lo.next_multiple_of(PAGE), hi / PAGE * PAGE);
            if first < last {
                // SAFETY: the pages lie inside the private anonymous mapping, which reads back
                // zeroes after `MADV_DONTNEED`; no reference to their contents but the atomics
                // (which may hold any bits) exists, and no other thread uses them now.
                let freed = unsafe {
                    map.unchecked_advise_range(
                        memmap2::UncheckedAdvice::DontNeed,
                        first - base,
                        last - first,
                    )
                };
                if freed.is_ok() {
                    let (head, tail) = ((first - lo) / 8, (hi - last) / 8);
                    words[..head]
                        .iter()
                        .for_each(|w| w.store(0, Ordering::Relaxed));
                    words[words.len() - tail..]
                        .iter()
                        .for_each(|w| w.store(0, Ordering::Relaxed));
                    return;
                }
            }
        }
        words.iter().for_each(|w| w.store(0, Ordering::Relaxed));
    }

    /// States of words `a..b` whose slot is not `0b00`.
    pub fn seen_in(&self, a: usize, b: usize) -> u64 {
        count_bits(
            self.all()[a..b].iter().map(|w| w.load(Ordering::Relaxed)),
            |v| (v | (v >> 1)) & LOW_BITS,
        )
    }

    /// A table holding `words` (32 states each), as a checkpoint saved them.
    pub fn from_words(words: Vec<u64>) -> Table {
        let plain: Box<[u64]> = words.into_boxed_slice();
        const _: () = assert!(std::mem::size_of::<AtomicU64>() == std::mem::size_of::<u64>());
        const _: () = assert!(std::mem::align_of::<AtomicU64>() == std::mem::align_of::<u64>());
        let raw = Box::into_raw(plain) as *mut [AtomicU64];
        // SAFETY: AtomicU64 has the same size, alignment and bit validity as u64 (asserted
        // above), and the box is uniquely owned, so reinterpreting the allocation is sound.
        let boxed = unsafe { Box::from_raw(raw) };
        let len = boxed.len();
        // SAFETY: a boxed slice's pointer is non-null (dangling but aligned when empty).
        let words = unsafe { NonNull::new_unchecked(boxed.as_ptr() as *mut AtomicU64) };
        Table {
            words,
            len,
            held: vec![(0, len)],
            _store: Store::Heap(boxed),
        }
    }

    /// All the words of the index (a sparse table's unheld ones are never to be touched).
    #[inline(always)]
    fn all(&self) -> &[AtomicU64] {
        // SAFETY: `words` points to `len` initialised atomics owned by `_store`.
        unsafe { std::slice::from_raw_parts(self.words.as_ptr(), self.len) }
    }

    /// Words of the whole index (held or not).
    #[inline(always)]
    pub fn index_words(&self) -> usize {
        self.len
    }

    /// Words `a..b` of the index (to be inside the words held).
    #[inline]
    pub fn span(&self, a: usize, b: usize) -> &[AtomicU64] {
        &self.all()[a..b]
    }

    /// Bytes of the words this table holds.
    pub fn bytes(&self) -> u64 {
        self.held.iter().map(|&(a, b)| (b - a) as u64 * 8).sum()
    }

    /// The words this table holds, span by span in ascending order.
    pub fn held(&self) -> impl Iterator<Item = &[AtomicU64]> + '_ {
        self.held.iter().map(|&(a, b)| &self.all()[a..b])
    }

    /// The words of a whole table (not sparse).
    pub fn words(&self) -> &[AtomicU64] {
        assert_eq!(self.held, [(0, self.len)], "the words of a whole table");
        self.all()
    }

    /// The word holding states `32·w .. 32·w + 32`.
    #[inline(always)]
    pub fn word(&self, w: usize) -> u64 {
        self.all()[w].load(Ordering::Relaxed)
    }

    /// The 2-bit code of `index`.
    #[inline(always)]
    pub fn get(&self, index: u64) -> u64 {
        (self.word((index / 32) as usize) >> (2 * (index % 32))) & 3
    }

    /// Asks the CPU to fetch the word of `index` into cache, without waiting for it (a hint:
    /// nothing on other architectures), given the table's words (`span(0, index_words())`,
    /// which a loop keeps in a register where `&self` would be read again after every store).
    #[inline(always)]
    pub fn prefetch_in(words: &[AtomicU64], index: u64) {
        // No bounds check (it costs as much as the prefetch): the pointer is computed without
        // `add`'s in-bounds requirement, and a prefetch never faults.
        prefetch(words.as_ptr().wrapping_add((index / 32) as usize));
    }

    /// Marks an unseen state with `code`; true if this call is the one that marked it.
    /// A state already seen (at an earlier depth, or by another thread now) is left alone.
    #[inline(always)]
    pub fn visit(&self, index: u64, code: u64) -> bool {
        let word = &self.all()[(index / 32) as usize];
        let shift = 2 * (index % 32);
        // Most neighbours are already seen: a plain load avoids the cache-line ownership
        // traffic of an atomic read-modify-write.
        if (word.load(Ordering::Relaxed) >> shift) & 3 != 0 {
            return false;
        }
        (word.fetch_or(code << shift, Ordering::Relaxed) >> shift) & 3 == 0
    }

    /// Marks `FRONTIER` a state that was unseen when last read, in one `lock bts`; true if this
    /// call is the one that marked it. Since that read, the slot may only have been marked
    /// `FRONTIER` by another claim (a layer's claims write the colour whose slots nothing else
    /// writes then): its high bit is still clear, so setting the low bit is the whole marking,
    /// and the bit as it was says who won.
    #[inline(always)]
    pub fn claim_unseen(&self, index: u64) -> bool {
        let bit = FRONTIER << (2 * (index % 32));
        self.all()[(index / 32) as usize].fetch_or(bit, Ordering::Relaxed) & bit == 0
    }

    /// Marks `code` (1 to 3) a state that was unseen when last read; true if this call is the
    /// one that marked it. Since that read, the slot may only have been marked with `code` by
    /// another claim (a multi-tile layer's claims all write the next depth's code): the first
    /// of its bits set by a `lock bts` says who won, and the winner sets the other.
    #[inline(always)]
    pub fn claim_code(&self, index: u64, code: u64) -> bool {
        let shift = 2 * (index % 32);
        let word = &self.all()[(index / 32) as usize];
        // One bit written as `1 << bit` (not a shifted 1 or 2), so that the compiler emits a
        // `lock bts` rather than a compare-and-swap loop.
        let first = 1 << (shift + u64::from(code & 1 == 0));
        let won = word.fetch_or(first, Ordering::Relaxed) & first == 0;
        if won && code == 3 {
            word.fetch_or(2 << shift, Ordering::Relaxed);
        }
        won
    }

    /// Marks `code` (1 to 3) the slots `unseen` (low bits) of a word `cell`, which were unseen
    /// when it was read, in one atomic step; returns those this call marked (the others were
    /// marked meanwhile by another claim of the same code, `claim_code`, which sets a code's
    /// first bit first: a slot this call finds holding anything was not its to mark).
    #[inline(always)]
    pub fn mark_unseen(cell: &AtomicU64, unseen: u64, code: u64) -> u64 {
        let old = cell.fetch_or(unseen * code, Ordering::Relaxed);
        unseen & Table::matching(old, 0)
    }

    /// Turns the frontier slots of word `w` given by `mask` (low bits) into `code`.
    #[inline(always)]
    pub fn settle(&self, w: usize, mask: u64, code: u64) {
        self.all()[w].fetch_xor(mask * (FRONTIER ^ code), Ordering::Relaxed);
    }

    /// Settles with `code` the `frontier` slots (low bits) of a table's word `cell`, read as
    /// `word`, and marks `FRONTIER` those of `targets` (low bits) that are unseen, in one atomic
    /// step; returns the slots it marked. Other threads may mark slots of the word meanwhile
    /// (never the frontier's): the step is repeated on the word as they left it.
    #[inline(always)]
    pub fn settle_and_mark(
        cell: &AtomicU64,
        word: u64,
        frontier: u64,
        code: u64,
        targets: u64,
    ) -> u64 {
        let flip = frontier * (FRONTIER ^ code);
        if targets == 0 {
            cell.fetch_xor(flip, Ordering::Relaxed);
            return 0;
        }
        let mut seen = word;
        loop {
            let marks = targets & Table::matching(seen, 0);
            match cell.compare_exchange_weak(
                seen,
                (seen ^ flip) | marks,
                Ordering::Relaxed,
                Ordering::Relaxed,
            ) {
                Ok(_) => return marks,
                Err(now) => seen = now,
            }
        }
    }

    /// What `settle_and_mark` stores in a word holding `word`, and the slots it marks: for a
    /// caller that stores it plainly, while no other thread writes the word
    /// (`layer::deferred::Plain`).
    #[inline(always)]
    pub fn settled_and_marked(word: u64, frontier: u64, code: u64, targets: u64) -> (u64, u64) {
        let marks = targets & Table::matching(word, 0);
        ((word ^ (frontier * (FRONTIER ^ code))) | marks, marks)
    }

    /// Settles with `code` the slots of word `w` (read as `word`) that hold `FRONTIER` among
    /// `candidates` (low bits); returns them.
    #[inline(always)]
    pub fn settle_frontier(&self, w: usize, word: u64, candidates: u64, code: u64) -> u64 {
        let frontier = Table::matching(word, FRONTIER) & candidates;
        if frontier != 0 {
            self.settle(w, frontier, code);
        }
        frontier
    }

    /// A mask with the low bit of every slot in `word` that holds `code` set.
    #[inline(always)]
    pub fn matching(word: u64, code: u64) -> u64 {
        // x = 0 in exactly the slots equal to `code`; fold each slot's two bits into its low bit.
        let x = word ^ (code * LOW_BITS);
        !(x | (x >> 1)) & LOW_BITS
    }

    /// Writes the words held, little-endian, in parts of a megabyte (saved tables,
    /// checkpoints).
    pub fn write_to(&self, out: &mut impl std::io::Write) -> std::io::Result<()> {
        const PART: usize = 1 << 17;
        let mut buf = Vec::with_capacity(PART * 8);
        for chunk in self.held().flat_map(|span| span.chunks(PART)) {
            buf.clear();
            for w in chunk {
                buf.extend_from_slice(&w.load(Ordering::Relaxed).to_le_bytes());
            }
            out.write_all(&buf)?;
        }
        Ok(())
    }

    /// States held whose slot holds `code` (not 0: the padding of the last word holds 0).
    pub fn count(&self, code: u64) -> u64 {
        self.sum_slots(|v| Table::matching(v, code))
    }

    /// States held whose slot is not `0b00`.
    pub fn seen(&self) -> u64 {
        self.sum_slots(|v| (v | (v >> 1)) & LOW_BITS)
    }

    /// The slots `select` picks (low bits of a mask) in every word held, counted in parallel
    /// parts of 2^16 words.
    fn sum_slots(&self, select: impl Fn(u64) -> u64 + Sync) -> u64 {
        use rayon::prelude::*;
        let parts: Vec<&[AtomicU64]> = self.held().flat_map(|span| span.chunks(1 << 16)).collect();
        parts
            .into_par_iter()
            .map(|part| count_bits(part.iter().map(|w| w.load(Ordering::Relaxed)), &select))
            .sum()
    }
}

bit_instructions! {
    /// The bits set in `select(word)` over `words` (with `popcnt` where the CPU has it).
    fn count_bits[][](words: impl Iterator<Item = u64>, select: impl Fn(u64) -> u64) -> u64 {
        words.map(|w| u64::from(select(w).count_ones())).sum()
    }
}

/// Asks the CPU to fetch the cache line at `at` without waiting for it (a hint: nothing on other
/// architectures). Any address will do: a prefetch never faults and reads nothing the program
/// sees.
#[inline(always)]
pub fn prefetch<T>(at: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is a hint that never faults, whatever the address.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>(at as *const i8);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = at;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn visit_marks_once_and_matching_finds_codes() {
        let t = Table::new(100);
        assert!(t.visit(37, FRONTIER));
        assert!(!t.visit(37, FRONTIER));
        assert!(t.visit(38, FRONTIER));
        assert!(t.visit(39, settled(4)));
        assert!(!t.visit(39, FRONTIER), "a seen state keeps its code");
        assert_eq!(t.seen(), 3);
        let w = t.word(1);
        assert_eq!(Table::matching(w, FRONTIER), 1 << (2 * 5) | 1 << (2 * 6));
        assert_eq!(Table::matching(w, settled(4)), 1 << (2 * 7));
        assert_eq!(Table::matching(w, settled(6)), 0);
        // Settling slot 5 at depth 6 leaves slot 6 alone.
        t.settle(1, 1 << (2 * 5), settled(6));
        assert_eq!(t.get(37), settled(6));
        assert_eq!(t.get(38), FRONTIER);
        assert_eq!(t.get(39), settled(4));
        assert_ne!(settled(6), settled(4));
        assert_eq!(settled(4), settled(5));
        for d in 0..12 {
            assert_eq!(depth_mod4(settled(d), d & 1), d % 4);
        }
    }

    /// `claim_unseen` wins once per unseen slot, among threads racing for it, and writes
    /// `FRONTIER` there and nothing else.
    #[test]
    fn claim_unseen_wins_once_and_touches_only_its_slot() {
        let t = Table::new(64);
        t.visit(40, settled(3));
        let winners: u64 = std::thread::scope(|s| {
            let racers: Vec<_> = (0..4)
                .map(|_| s.spawn(|| (0..64).filter(|&i| i != 40 && t.claim_unseen(i)).count()))
                .collect();
            racers.into_iter().map(|r| r.join().unwrap() as u64).sum()
        });
        assert_eq!(winners, 63);
        assert!((0..64).all(|i| t.get(i) == if i == 40 { settled(3) } else { FRONTIER }));
    }

    /// A sparse table holds its spans only: it marks, counts and writes them, with global
    /// indices, and a table holding every span is a plain one.
    #[test]
    fn a_sparse_table_holds_its_spans() {
        let states = 1 << 22;
        let spans = [
            (0, 64),
            (1 << 20, (1 << 20) + 32),
            ((1 << 22) - 64, 1 << 22),
        ];
        let t = Table::sparse(states, &spans).unwrap();
        assert_eq!(t.bytes(), (2 + 1 + 2) * 8);
        for &(lo, hi) in &spans {
            assert!(t.visit(lo, FRONTIER));
            assert!(t.visit(hi - 1, settled(3)));
        }
        assert_eq!(t.get(1 << 20), FRONTIER);
        assert_eq!(t.seen(), 6);
        let mut out = vec![];
        t.write_to(&mut out).unwrap();
        assert_eq!(out.len(), 5 * 8);
        let held: Vec<u64> = t
            .held()
            .flatten()
            .map(|w| w.load(Ordering::Relaxed))
            .collect();
        assert_eq!(held.len(), 5);
        assert_eq!(held[0], FRONTIER);
        assert_eq!(held[1], settled(3) << 62);
        let whole = Table::sparse(100, &[(0, 100)]).unwrap();
        assert_eq!(whole.words().len(), 4);
    }

    use proptest::prelude::*;

    /// Slot `s` of `word`.
    fn slot(word: u64, s: u64) -> u64 {
        (word >> (2 * s)) & 3
    }

    proptest! {
        /// `matching` sets exactly the low bits of the slots that hold `code`.
        #[test]
        fn matching_finds_exactly_the_slots_holding_a_code(word in any::<u64>(), code in 0u64..4) {
            let m = Table::matching(word, code);
            prop_assert_eq!(m & !LOW_BITS, 0);
            for s in 0..32 {
                prop_assert_eq!((m >> (2 * s)) & 1 == 1, slot(word, s) == code, "slot {}", s);
            }
        }

        /// `settle_frontier` turns exactly the `FRONTIER` slots among the candidates into the
        /// code, returns them, and leaves every other slot as it was.
        #[test]
        fn settling_changes_only_frontier_candidates(
            word in any::<u64>(),
            candidates in any::<u64>(),
            depth in 0u32..8,
        ) {
            let candidates = candidates & LOW_BITS;
            let t = Table::from_words(vec![word]);
            let code = settled(depth);
            let got = t.settle_frontier(0, word, candidates, code);
            let after = t.word(0);
            for s in 0..32 {
                let picked = (candidates >> (2 * s)) & 1 == 1 && slot(word, s) == FRONTIER;
                prop_assert_eq!((got >> (2 * s)) & 1 == 1, picked, "slot {}", s);
                let want = if picked { code } else { slot(word, s) };
                prop_assert_eq!(slot(after, s), want, "slot {}", s);
            }
        }

        /// `settle_and_mark` settles exactly the frontier slots given, marks `FRONTIER` exactly
        /// the unseen target slots and returns them, and leaves every other slot as it was,
        /// also when the word it is given is stale (another thread marked slots since); the
        /// plain store does the same given the word as it is.
        #[test]
        fn settle_and_mark_settles_and_marks_in_one_step(
            word in any::<u64>(),
            picks in any::<u64>(),
            targets in any::<u64>(),
            stale in any::<u64>(),
            depth in 0u32..8,
        ) {
            let frontier = Table::matching(word, FRONTIER) & picks & LOW_BITS;
            let targets = targets & LOW_BITS & !frontier;
            // The caller read `word`; since then another thread marked some unseen slots
            // (targets among them, maybe): the table holds `now`.
            let now = word | (stale & Table::matching(word, 0));
            let t = Table::from_words(vec![now]);
            let code = settled(depth);
            let marks = Table::settle_and_mark(&t.span(0, 1)[0], word, frontier, code, targets);
            let after = t.word(0);
            for s in 0..32 {
                let bit = |m: u64| (m >> (2 * s)) & 1 == 1;
                let won = bit(targets) && slot(now, s) == 0;
                let want = if bit(frontier) {
                    code
                } else if won {
                    FRONTIER
                } else {
                    slot(now, s)
                };
                prop_assert_eq!(slot(after, s), want, "slot {}", s);
                prop_assert_eq!(bit(marks), won, "slot {}", s);
            }
            // Given the word as it is (no other writer), the plain store's word is the one the
            // atomic step leaves, with the same marks.
            prop_assert_eq!(
                Table::settled_and_marked(now, frontier, code, targets),
                (after, marks)
            );
        }

        /// `visit` marks a slot only if it is unseen, reports exactly that, and touches no other
        /// slot; `seen` counts the slots that are not unseen.
        #[test]
        fn visit_marks_only_unseen_slots(word in any::<u64>(), s in 0u64..32, code in 1u64..4) {
            let t = Table::from_words(vec![word]);
            let was = slot(word, s);
            prop_assert_eq!(t.visit(s, code), was == 0);
            let after = t.word(0);
            for k in 0..32 {
                let want = if k == s && was == 0 { code } else { slot(word, k) };
                prop_assert_eq!(slot(after, k), want);
            }
            let seen = (0..32).filter(|&k| slot(after, k) != 0).count() as u64;
            prop_assert_eq!(t.seen(), seen);
        }
    }
}

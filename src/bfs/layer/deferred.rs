//! Claims deferred to the end of a push, then made by one thread a region with plain stores.
//!
//! A claim made during a scan must be atomic: another thread may write the same word at the
//! same moment. An atomic read-modify-write (`lock or`) waits for every store before it and
//! holds back every load after it; a push makes one a target found unseen, and at 1 thread
//! a 2x6 search took 15% less time with plain stores (wrong with more threads). Deferred, a
//! push's claims are only sorted into regions of the table as they are found (`Sink`); once
//! every task of the layer is done, nothing else writes the table, and each region's claims
//! are made by one thread (`Deferred::apply`), whose plain stores no other thread can undo.
//!
//! A claim deferred is tested again when it is made: meanwhile a slide inside a word, or an
//! earlier claim of the same state, may have marked it. The sinks hold at most `room` claims in
//! all, an equal share a region; a claim whose region is full, and every claim of a task whose
//! thread's sink another task holds, is made atomically, as before.
//!
//! While no claim is made, a word is written only by the task that settles it: a single-tile
//! push settles its words with plain stores too (`Plain`), and a multi-tile push marks its rows
//! so in the words no other task's rows reach (all of its words but its first and last).
//! Before the first claim made atomically in a layer, the claimant stops that
//! (`Deferred::share`): every push settles atomically from its next word on, and the claimant
//! waits until no task is still between reading a word and storing it plainly. Tasks never
//! wait for each other otherwise, and a push calls nothing that runs another task on its
//! thread, so the wait ends.

use std::hint::spin_loop;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::*};
use std::sync::{Mutex, MutexGuard};

use rayon::prelude::*;

use super::found::Found;
use crate::bfs::table::Table;

/// The regions a table's deferred claims are sorted into, at most this many a thread: small
/// enough for a region to stay in a core's cache while its claims are made (2x6: 115 regions
/// of 512 kB at 2 threads).
const REGIONS_A_THREAD: u64 = 64;

/// The most claims deferred at once (in all the sinks; past them, a push claims atomically),
/// 128 MB: the widest layers of 2x6 and 3x4 defer 8.3 M and 11.9 M, and a region's share
/// must hold more than the mean (the fullest of 3x4's held 1.4 times it: with half the room
/// it filled near the end of the widest layers, whose last claims, made atomically, cost 3% of
/// the search). A larger table's widest layers defer only part of their claims: room for all
/// of them would take memory in proportion to the table's.
const ROOM: u64 = 1 << 25;

/// The most claims the pushes of a table of `states` states defer at once: `ROOM`, and never
/// more than two a state.
pub fn room(states: u64) -> u64 {
    ROOM.min(2 * states)
}

/// The most bytes the sinks of a table of `states` states take: 4 a claim of `room`.
pub fn most_bytes(states: u64) -> u64 {
    4 * room(states)
}

/// The deferred claims of a search's pushes: a sink a thread of the pool.
pub struct Deferred {
    sinks: Vec<Mutex<Sink>>,
    /// A claim of state i goes to region i >> `shift` (a region is whole words, and at most
    /// 2^32 states: a claim is kept as its place in its region).
    shift: u32,
    regions: usize,
    /// Whether tasks settle with plain stores: only if every task is whole words (no two
    /// tasks write one word).
    plain_settles: bool,
    /// Set when a claim of this layer is to be made atomically (`share`): from then on, every
    /// push settles atomically.
    shared: AtomicBool,
    /// The tasks settling with plain stores now (`Plain`).
    settling: AtomicUsize,
}

/// A task's leave to settle its words with plain stores, while no claim is made atomically:
/// held from before its first plain store to after its last.
pub(super) struct Plain<'d>(&'d Deferred);

impl Plain<'_> {
    /// Whether the task may still settle plainly: false once a claim is to be made atomically.
    #[inline(always)]
    pub(super) fn holds(&self) -> bool {
        !self.0.shared.load(Relaxed)
    }
}

impl Drop for Plain<'_> {
    fn drop(&mut self) {
        // Orders this task's plain stores before the claimant's atomic claims (`share`).
        self.0.settling.fetch_sub(1, Release);
    }
}

/// One thread's deferred claims, by region, each as its place in the region.
pub struct Sink {
    regions: Vec<Vec<u32>>,
    /// The most claims a region holds (its memory, allocated at its first claim).
    most: usize,
}

impl Sink {
    /// Takes the claims of `indices` whose region has room; moves the others to the front of
    /// `indices` and returns how many they are.
    #[inline(always)]
    pub(super) fn take(&mut self, indices: &mut [u64], shift: u32) -> usize {
        let mask = (1u64 << shift) - 1;
        let mut left = 0;
        for i in 0..indices.len() {
            let index = indices[i];
            // `index >> shift` < `regions` for every index of the table.
            let region = &mut self.regions[(index >> shift) as usize];
            let len = region.len();
            if len == region.capacity() {
                if len >= self.most {
                    indices[left] = index;
                    left += 1;
                    continue;
                }
                region.reserve_exact(self.most - len);
            }
            // SAFETY: within the capacity, and the element is written before the length covers
            // it (a `push` without its growth, which the test above made unneeded).
            unsafe {
                region.as_mut_ptr().add(len).write((index & mask) as u32);
                region.set_len(len + 1);
            }
        }
        left
    }
}

impl Deferred {
    /// Sinks for the pushes of a table of `states` states on `threads` threads, holding at
    /// most `room(states)` claims in all; the pushes settle plainly if their tasks are of
    /// `chunk` states, whole words (`Schedule::chunk`).
    pub fn new(states: u64, threads: usize, chunk: u64) -> Deferred {
        Deferred::with_room(states, threads, room(states) as usize).tasks_of(chunk)
    }

    /// These sinks for tasks of `chunk` states: pushes settle plainly if they are whole words.
    pub(crate) fn tasks_of(mut self, chunk: u64) -> Deferred {
        self.plain_settles = chunk.is_multiple_of(32);
        self
    }

    /// `new`, holding at most `room` claims, with tasks that settle atomically.
    pub(crate) fn with_room(states: u64, threads: usize, room: usize) -> Deferred {
        let threads = threads.max(1);
        let wanted = REGIONS_A_THREAD * threads as u64;
        // Regions of 2^shift states: at least a word (32 states), at most 2^32.
        let per = states.div_ceil(wanted).clamp(32, 1 << 32);
        let shift = (per - 1).ilog2() + 1;
        let regions = ((states.max(1) - 1) >> shift) as usize + 1;
        Deferred {
            sinks: (0..threads)
                .map(|_| {
                    Mutex::new(Sink {
                        regions: vec![vec![]; regions],
                        most: room / threads / regions,
                    })
                })
                .collect(),
            shift,
            regions,
            plain_settles: false,
            shared: AtomicBool::new(false),
            settling: AtomicUsize::new(0),
        }
    }

    /// Leave for a task to settle its words with plain stores, unless its tasks may share a
    /// word or a claim of this layer is to be made atomically.
    pub(super) fn plain(&self) -> Option<Plain<'_>> {
        if !self.plain_settles {
            return None;
        }
        // With `share`'s store and load, a Dekker handshake: either the claimant sees this task
        // settling and waits for it, or this task sees the claimant and settles atomically.
        self.settling.fetch_add(1, SeqCst);
        let leave = Plain(self);
        if self.shared.load(SeqCst) {
            return None;
        }
        Some(leave)
    }

    /// Before a claim is made atomically: stops every task's plain settling (at its next
    /// word), and waits until none is under way. The caller holds no `Plain`.
    pub(super) fn share(&self) {
        self.shared.store(true, SeqCst);
        let mut spins = 0u32;
        while self.settling.load(SeqCst) != 0 {
            if spins < 1 << 10 {
                spins += 1;
                spin_loop();
            } else {
                std::thread::yield_now();
            }
        }
    }

    /// The region shift of the sinks (`Sink::take`).
    pub(super) fn shift(&self) -> u32 {
        self.shift
    }

    /// This thread's sink, unless another task holds it (a task never waits for one).
    pub(super) fn sink(&self) -> Option<MutexGuard<'_, Sink>> {
        let at = rayon::current_thread_index().unwrap_or(0) % self.sinks.len();
        self.sinks[at].try_lock().ok()
    }

    /// Makes every claim deferred: marks `code` each state still unseen, a region at a time in
    /// parallel, and empties the sinks (keeping their memory). Must run when no other thread
    /// writes the table: after every task of the push. The states marked, listed if `record`.
    pub fn apply(&self, table: &Table, code: u64, record: bool) -> Vec<Found> {
        let mut sinks: Vec<MutexGuard<Sink>> = self
            .sinks
            .iter()
            .map(|s| s.lock().unwrap_or_else(|e| e.into_inner()))
            .collect();
        let found = {
            let parts: Vec<&Sink> = sinks.iter().map(|s| &**s).collect();
            let words = table.span(0, table.index_words());
            (0..self.regions)
                .into_par_iter()
                .map(|r| {
                    let mut found = Found::default();
                    let base = (r as u64) << self.shift;
                    let region = Region { words, base, code };
                    for sink in &parts {
                        region.make(&sink.regions[r], record, &mut found);
                    }
                    found
                })
                .collect()
        };
        for sink in &mut sinks {
            for region in &mut sink.regions {
                region.clear();
            }
        }
        // The layer's tasks are done: the next may settle plainly again.
        self.shared.store(false, Relaxed);
        found
    }
}

/// The claims of one region of the table's `words`, whose first state is `base`, marking
/// `code`.
struct Region<'t> {
    words: &'t [AtomicU64],
    base: u64,
    code: u64,
}

impl Region<'_> {
    /// Marks the states at `places` still unseen, with plain stores (the caller's thread is
    /// the only one writing their words); counts them, and lists them if `record`.
    fn make(&self, places: &[u32], record: bool, found: &mut Found) {
        /// Claims a step, whose words are prefetched a step ahead.
        const STEP: usize = 16;
        let mut chunks = places.chunks(STEP).peekable();
        while let Some(chunk) = chunks.next() {
            if let Some(next) = chunks.peek() {
                for &place in *next {
                    Table::prefetch_in(self.words, self.base + u64::from(place));
                }
            }
            for &place in chunk {
                let index = self.base + u64::from(place);
                let word = &self.words[(index / 32) as usize];
                let value = word.load(Relaxed);
                let shift = 2 * (index % 32);
                let unseen = u64::from((value >> shift) & 3 == 0);
                word.store(value | (self.code * unseen) << shift, Relaxed);
                found.states += unseen;
                if record && unseen == 1 {
                    found.marked.push(index);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bfs::table::{settled, FRONTIER};

    /// Regions are whole words and cover the table, whatever its size and the threads.
    #[test]
    fn regions_are_whole_words_and_cover_the_table() {
        for states in [1u64, 31, 32, 33, 1000, 239_500_800, 43_589_145_600] {
            for threads in [1, 2, 3, 16] {
                let d = Deferred::with_room(states, threads, 100);
                assert!(d.shift >= 5, "{states} on {threads}");
                assert_eq!(((states - 1) >> d.shift) as usize + 1, d.regions);
                assert!(d.regions as u64 <= REGIONS_A_THREAD * threads as u64 + 1);
            }
        }
    }

    /// Applied, deferred claims mark exactly the unseen states among them, once each, however
    /// often a state was deferred and by however many sinks.
    #[test]
    fn applied_claims_mark_each_unseen_state_once() {
        let table = Table::new(4096);
        table.visit(7, settled(2));
        table.visit(100, FRONTIER);
        let d = Deferred::with_room(4096, 2, 1000);
        let claims = [7u64, 8, 100, 101, 8, 4095, 2000, 101];
        for (s, part) in d.sinks.iter().zip(claims.chunks(4)) {
            assert_eq!(s.lock().unwrap().take(&mut part.to_vec(), d.shift()), 0);
        }
        let found = d.apply(&table, FRONTIER, true);
        let states: u64 = found.iter().map(|f| f.states).sum();
        let mut marked: Vec<u64> = found.into_iter().flat_map(|f| f.marked).collect();
        marked.sort_unstable();
        assert_eq!(marked, [8, 101, 2000, 4095]);
        assert_eq!(states, 4);
        for i in 0..4096 {
            let want = match i {
                7 => settled(2),
                8 | 100 | 101 | 2000 | 4095 => FRONTIER,
                _ => 0,
            };
            assert_eq!(table.get(i), want, "state {i}");
        }
        // The sinks are empty again.
        assert_eq!(
            d.apply(&table, FRONTIER, true)
                .iter()
                .map(|f| f.states)
                .sum::<u64>(),
            0
        );
    }

    /// A claimant about to claim atomically waits until the task settling plainly stops; a
    /// task that asks meanwhile settles atomically; after the layer, tasks settle plainly
    /// again, unless their tasks are not whole words.
    #[test]
    fn a_claim_made_atomically_waits_for_plain_settling_to_stop() {
        use std::sync::atomic::AtomicBool;
        use std::time::Duration;
        let d = Deferred::with_room(64, 2, 4).tasks_of(64);
        let claimed = AtomicBool::new(false);
        std::thread::scope(|s| {
            let plain = d
                .plain()
                .expect("whole words, and no claim made atomically");
            s.spawn(|| {
                d.share();
                claimed.store(true, SeqCst);
            });
            let asked = std::time::Instant::now();
            while plain.holds() {
                assert!(
                    asked.elapsed().as_secs() < 10,
                    "the claimant's request never came"
                );
                spin_loop();
            }
            std::thread::sleep(Duration::from_millis(50));
            assert!(!claimed.load(SeqCst), "the claimant did not wait");
            assert!(
                d.plain().is_none(),
                "a task settles plainly while a claim is made"
            );
            drop(plain);
        });
        assert!(claimed.load(SeqCst));
        d.apply(&Table::new(64), FRONTIER, false);
        assert!(d.plain().is_some());
        assert!(Deferred::with_room(64, 2, 4).tasks_of(37).plain().is_none());
    }

    /// A sink takes claims while their region has room, and hands back the others.
    #[test]
    fn a_full_region_hands_its_claims_back() {
        // One thread, regions of 32 states (a 64-state table: 2 regions), 2 claims a region.
        let d = Deferred::with_room(64, 1, 4);
        assert_eq!((d.regions, d.shift), (2, 5));
        let mut sink = d.sink().unwrap();
        let mut claims = [1, 2, 40, 3, 41, 42, 4];
        let left = sink.take(&mut claims, d.shift());
        assert_eq!(&claims[..left], [3, 42, 4]);
        assert_eq!(sink.regions, [vec![1, 2], vec![8, 9]]);
    }
}

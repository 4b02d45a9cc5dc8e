//! Batches of states whose vertical targets are computed together and prefetched a batch
//! ahead of their test.

use std::sync::atomic::AtomicU64;

use super::neighbours::vertical;
use super::words::{Vertical, WordPlaces};
use crate::bfs::table::Table;
use crate::index::rank::{Cursor, Seeker};
use crate::index::space::StateSpace;

/// States whose vertical moves wait to be computed, and the targets of the batch before.
///
/// A vertical move lands far from its state (a tenth of the table away on 2x6, from the top
/// row), so a batch's targets are computed together and their words prefetched, and they are
/// tested while the next batch is computed, by which time their words are in cache: the CPU
/// never waits on one target's load to compute the next, and the atomic claims, which wait for
/// every load before them, find their words there. Each step is a short loop of its own, with
/// few values live: the scan of the words, the computing of targets and the claims no longer
/// share registers (one loop doing all three kept a third of its values on the stack).
pub(super) struct Batch<const T: usize> {
    /// `rank << 6 | p` of each state waiting: the state at place p from that rank's first slot,
    /// slot p % n of rank `rank + p / n` (`Vertical::carry`; a rank has n ≤ 17 slots, and
    /// p < n + 32).
    states: [u64; ROOM],
    waiting: usize,
    /// What the last two batches computed for each state, T values (a push's vertical
    /// targets: up and down, or the one move of a batch of `singles`; a pull's neighbours and
    /// the state's own index), their words prefetched: the last one's are in `targets[last]`,
    /// `ready` of them.
    targets: [[[u64; T]; ROOM]; 2],
    last: usize,
    ready: usize,
    cursor: Cursor,
}

/// States a batch holds: its targets are tested a batch after their prefetch, the longer the
/// better up to 32 (`docs/log/constants.md`).
const BATCH: usize = 32;

/// States a batch has room for: a batch is computed once it holds `BATCH`, and a word adds up
/// to 32 at once.
pub(super) const ROOM: usize = BATCH + 32;

impl<const T: usize> Batch<T> {
    pub(super) fn new() -> Self {
        Batch {
            states: [0; ROOM],
            waiting: 0,
            targets: [[[0; T]; ROOM]; 2],
            last: 0,
            ready: 0,
            cursor: Cursor::new(),
        }
    }

    /// Adds state (`rank`, slot `j`); true if the batch is full.
    #[inline(always)]
    pub(super) fn add(&mut self, rank: u64, j: usize) -> bool {
        self.states[self.waiting % BATCH] = rank << 6 | j as u64;
        self.waiting += 1;
        self.waiting >= BATCH
    }

    /// Adds the states of a word's slots `mask` (low bits), its first slot being slot q of rank
    /// `rank0`; true if the batch is full.
    ///
    /// A word holds about three frontier states in the bulk layers, a count the branch
    /// predictor cannot guess: a loop over them missed its exit once a word (cachegrind's branch
    /// simulation of 2x6: 87 M of the run's 201 M mispredictions). The first four slots are
    /// written whether they exist or not (a missing one writes a value past the batch's end)
    /// and the end moves past those that do; only a word with more loops.
    #[inline(always)]
    pub(super) fn add_word(&mut self, rank0: u64, q: u64, mask: u64) -> bool {
        let at = self.waiting % BATCH;
        let base = rank0 << 6 | q;
        let mut m = mask;
        for k in 0..4 {
            self.states[at + k] = base + u64::from(m.trailing_zeros() / 2);
            m &= m.wrapping_sub(1);
        }
        let mut k = 4;
        while m != 0 {
            self.states[(at + k) % ROOM] = base + u64::from(m.trailing_zeros() / 2);
            m &= m - 1;
            k += 1;
        }
        self.waiting = at + mask.count_ones() as usize;
        self.waiting >= BATCH
    }

    /// Starts a flush: the buffer the states waiting compute into, the one to return after.
    #[inline(always)]
    pub(super) fn turn(&mut self) -> usize {
        let before = self.last;
        self.last ^= 1;
        before
    }

    /// Ends a flush: what the batch before computed; the states waiting are now ready.
    #[inline(always)]
    fn ready(&mut self, before: usize) -> &[[u64; T]] {
        let ready = std::mem::replace(&mut self.ready, self.waiting);
        self.waiting = 0;
        &self.targets[before][..ready]
    }
}

/// What a batch's flush reads of the search: the index, the word places, a seeker of the
/// index, the table's words and the parity digit's place (in locals: through the references
/// they would be loaded again after every store, 2x5: 12 instructions a state).
type FlushReads<'s> = (
    &'s StateSpace,
    &'s WordPlaces,
    &'s Seeker<'s>,
    &'s [AtomicU64],
    usize,
);

/// The vertical targets of a batch's state (`rank << 6 | p`, as `Batch::states` holds it),
/// their words prefetched, with its rank and its place's moves.
#[inline(always)]
fn vertical_targets<'s, const COLS: usize>(
    (space, places, seeker, words, parity_at): FlushReads<'s>,
    cursor: &mut Cursor,
    state: u64,
) -> (u64, &'s Vertical, [u64; 2]) {
    let v = &places.verticals[(state % 64) as usize];
    let rank = (state >> 6) + u64::from(v.carry);
    seeker.seek_digits(cursor, rank, v.parity);
    let deltas = Some(places.deltas.as_slice());
    let [up, down] = vertical::<COLS>(space, &v.up, &v.down, cursor, rank, parity_at, deltas);
    Table::prefetch_in(words, up);
    Table::prefetch_in(words, down);
    (rank, v, [up, down])
}

impl Batch<2> {
    /// Computes the vertical targets of the states waiting and prefetches their words; returns
    /// those of the batch before. Inlined, like the push's `flush`, into the scan, which is
    /// compiled for the bit instructions this CPU has (`bits::bit_instructions!`).
    #[inline(always)]
    pub(super) fn flush<const COLS: usize>(
        &mut self,
        space: &StateSpace,
        places: &WordPlaces,
        table: &Table,
    ) -> &[[u64; 2]] {
        let before = self.turn();
        let (seeker, parity_at) = (space.indexer.seeker(), (space.tiles() - 2) % 16);
        let words = table.span(0, table.index_words());
        for (&state, to) in self.states[..self.waiting]
            .iter()
            .zip(&mut self.targets[self.last])
        {
            let at = (space, places, &seeker, words, parity_at);
            let (_, _, vertical) = vertical_targets::<COLS>(at, &mut self.cursor, state);
            *to = vertical;
        }
        self.ready(before)
    }
}

impl Batch<1> {
    /// `flush` for a batch of states with one vertical move each (`WordPlaces::singles`).
    #[inline(always)]
    pub(super) fn flush(
        &mut self,
        space: &StateSpace,
        places: &WordPlaces,
        table: &Table,
    ) -> &[[u64; 1]] {
        let before = self.turn();
        let (seeker, parity_at) = (space.indexer.seeker(), (space.tiles() - 2) % 16);
        let (words, width) = (table.span(0, table.index_words()), space.width());
        for (state, to) in self.states[..self.waiting]
            .iter()
            .zip(&mut self.targets[self.last])
        {
            let one = &places.singles[(state % 64) as usize];
            let rank = (state >> 6) + u64::from(one.carry);
            seeker.seek_digits(&mut self.cursor, rank, one.parity);
            let target = one.target(&places.deltas, &self.cursor.digits, rank, parity_at, width);
            Table::prefetch_in(words, target);
            *to = [target];
        }
        self.ready(before)
    }
}

impl Batch<5> {
    /// A pull's `flush`: the four neighbours of each unseen state waiting (slides first; a
    /// move the blank cannot make gives the state itself, unseen) and its index; the words of
    /// the vertical ones prefetched.
    #[inline(always)]
    pub(super) fn flush<const COLS: usize>(
        &mut self,
        space: &StateSpace,
        places: &WordPlaces,
        table: &Table,
    ) -> &[[u64; 5]] {
        let before = self.turn();
        let (seeker, parity_at) = (space.indexer.seeker(), (space.tiles() - 2) % 16);
        let (words, width) = (table.span(0, table.index_words()), space.width());
        for (&state, to) in self.states[..self.waiting]
            .iter()
            .zip(&mut self.targets[self.last])
        {
            let at = (space, places, &seeker, words, parity_at);
            let (rank, v, [up, down]) = vertical_targets::<COLS>(at, &mut self.cursor, state);
            let base = rank * width;
            let [left, right] = v.slides.map(|slide| base + u64::from(slide));
            *to = [left, right, up, down, base + u64::from(v.slot)];
        }
        self.ready(before)
    }
}

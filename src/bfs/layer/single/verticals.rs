//! The single-tile scans' batches (`Verticals`): a `Batch` of states with their vertical
//! targets and the cursor that computes them.

use std::sync::atomic::AtomicU64;

use crate::bfs::layer::batch::Batch;
use crate::bfs::layer::single::neighbours::vertical;
use crate::bfs::layer::single::words::{Vertical, WordPlaces};
use crate::bfs::table::Table;
use crate::index::rank::{Cursor, Seeker};
use crate::index::space::StateSpace;

/// A single-tile scan's batch of states, `rank << 6 | p` (`Batch::add_word`), with the `T`
/// targets of each (a push's vertical targets: up and down, or the one move of a batch of
/// `singles`; a pull's four neighbours and the state's own index) and the cursor that computes
/// them.
pub(in crate::bfs::layer) struct Verticals<const T: usize> {
    pub(in crate::bfs::layer) batch: Batch<u64, [u64; T]>,
    cursor: Cursor,
}

impl<const T: usize> Verticals<T> {
    pub(in crate::bfs::layer) fn new() -> Self {
        Verticals {
            batch: Batch::new(0, [0; T]),
            cursor: Cursor::new(),
        }
    }

    /// Adds state (`rank`, slot `j`); true if the batch is full.
    #[inline(always)]
    pub(in crate::bfs::layer) fn add(&mut self, rank: u64, j: usize) -> bool {
        self.batch.add(rank << 6 | j as u64)
    }

    /// `Batch::add_word`.
    #[inline(always)]
    pub(in crate::bfs::layer) fn add_word(&mut self, rank0: u64, q: u64, mask: u64) -> bool {
        self.batch.add_word(rank0, q, mask)
    }
}

/// What a batch's flush reads of the search: the index, the word places, a seeker of the
/// index, the table's words and the parity digit's place (in locals: through the references
/// they would be loaded again after every store, 2x5: 12 instructions a state).
#[derive(Clone, Copy)]
struct FlushReads<'s> {
    space: &'s StateSpace,
    places: &'s WordPlaces,
    seeker: &'s Seeker<'s>,
    words: &'s [AtomicU64],
    parity_at: usize,
}

/// The vertical targets of a batch's state (`rank << 6 | p`, as `Batch::add_word` packs it),
/// their words prefetched, with its rank and its place's moves.
#[inline(always)]
fn vertical_targets<'s, const COLS: usize>(
    reads: FlushReads<'s>,
    cursor: &mut Cursor,
    state: u64,
) -> (u64, &'s Vertical, [u64; 2]) {
    let FlushReads {
        space,
        places,
        seeker,
        words,
        parity_at,
    } = reads;
    let v = &places.verticals[(state % 64) as usize];
    let rank = (state >> 6) + u64::from(v.carry);
    seeker.seek_digits(cursor, rank, v.parity);
    let deltas = Some(places.deltas.as_slice());
    let [up, down] = vertical::<COLS>(space, &v.up, &v.down, cursor, rank, parity_at, deltas);
    Table::prefetch_in(words, up);
    Table::prefetch_in(words, down);
    (rank, v, [up, down])
}

impl Verticals<2> {
    /// Computes the vertical targets of the states waiting and prefetches their words; returns
    /// those of the batch before. Inlined, like the push's `flush`, into the scan, which is
    /// compiled for the bit instructions this CPU has (`bits::bit_instructions!`).
    #[inline(always)]
    pub(in crate::bfs::layer) fn flush<const COLS: usize>(
        &mut self,
        space: &StateSpace,
        places: &WordPlaces,
        table: &Table,
    ) -> &[[u64; 2]] {
        let (seeker, parity_at) = (space.indexer().seeker(), (space.tiles() - 2) % 16);
        let words = table.span(0, table.index_words());
        let cursor = &mut self.cursor;
        self.batch.flush(
            #[inline(always)]
            move |state, to| {
                let at = FlushReads {
                    space,
                    places,
                    seeker: &seeker,
                    words,
                    parity_at,
                };
                let (_, _, vertical) = vertical_targets::<COLS>(at, cursor, state);
                *to = vertical;
            },
        )
    }
}

impl Verticals<1> {
    /// `flush` for a batch of states with one vertical move each (`WordPlaces::singles`).
    #[inline(always)]
    pub(in crate::bfs::layer) fn flush(
        &mut self,
        space: &StateSpace,
        places: &WordPlaces,
        table: &Table,
    ) -> &[[u64; 1]] {
        let (seeker, parity_at) = (space.indexer().seeker(), (space.tiles() - 2) % 16);
        let (words, width) = (table.span(0, table.index_words()), space.width());
        let cursor = &mut self.cursor;
        self.batch.flush(
            #[inline(always)]
            move |state, to| {
                let one = &places.singles[(state % 64) as usize];
                let rank = (state >> 6) + u64::from(one.carry);
                seeker.seek_digits(cursor, rank, one.parity);
                let target = one.target(&places.deltas, &cursor.digits, rank, parity_at, width);
                Table::prefetch_in(words, target);
                *to = [target];
            },
        )
    }
}

impl Verticals<5> {
    /// A pull's `flush`: the four neighbours of each unseen state waiting (slides first; a
    /// move the blank cannot make gives the state itself, unseen) and its index; the words of
    /// the vertical ones prefetched.
    #[inline(always)]
    pub(in crate::bfs::layer) fn flush<const COLS: usize>(
        &mut self,
        space: &StateSpace,
        places: &WordPlaces,
        table: &Table,
    ) -> &[[u64; 5]] {
        let (seeker, parity_at) = (space.indexer().seeker(), (space.tiles() - 2) % 16);
        let (words, width) = (table.span(0, table.index_words()), space.width());
        let cursor = &mut self.cursor;
        self.batch.flush(
            #[inline(always)]
            move |state, to| {
                let at = FlushReads {
                    space,
                    places,
                    seeker: &seeker,
                    words,
                    parity_at,
                };
                let (rank, v, [up, down]) = vertical_targets::<COLS>(at, cursor, state);
                let base = rank * width;
                let [left, right] = v.slides.map(|slide| base + u64::from(slide));
                *to = [left, right, up, down, base + u64::from(v.slot)];
            },
        )
    }
}

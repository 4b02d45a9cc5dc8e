//! The scan skeleton: what a layer's tasks share, what each found, and the word-by-word walk
//! that hands slots to a push, a pull or a settling.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use super::deferred::Deferred;
pub use super::found::Found;
use super::multi::rows::Rows;
use super::multi::slides::Slides;
use super::single::words::WordPlaces;
use super::turn::BlankMoves;
use crate::bfs::schedule::Task;
use crate::bfs::shard::Mine;
use crate::bfs::table::{settled, Table, FRONTIER};
use crate::index::space::StateSpace;

/// Everything a scan of one layer shares across its tasks: the table, the codes, and `T`, what
/// the kind of moves reads besides (`bfs::moves`): the blank's moves of each cell for single
/// tiles (`SingleScan`), the slides and the bits a row for multi-tile ones (`MultiScan`).
pub struct LayerScan<'a, T: ?Sized> {
    /// The index.
    pub space: &'a StateSpace,
    /// The moves' tables.
    pub tables: &'a T,
    /// What the slots of a word are, by the place of its first slot in its rank.
    pub places: &'a WordPlaces,
    /// The table being filled.
    pub table: &'a Table,
    /// The blank colour of the states a scan looks at (`WordPlaces::colour`): the frontier's
    /// for a single-tile push, the next layer's for its pull, either for multi-tile moves.
    pub colour: usize,
    /// The codes this step writes.
    pub codes: Codes,
    /// List the states found (the next layer is small enough to be expanded from a list).
    pub record: bool,
    /// Which states this table holds: all of them on one machine, a rank's blocks otherwise
    /// (tested only by the shard scans).
    pub mine: Mine,
    /// Where a push defers its claims (`deferred`), if its place makes them at its end.
    pub defer: Option<&'a Deferred>,
}

impl<T: ?Sized> LayerScan<'_, T> {
    /// Hands `visitor` the slots of `task` of the scan's colour (`for_each_slot`).
    #[inline(always)]
    pub(super) fn each_slot<S: Slots>(&self, task: Task, visitor: &mut S) {
        for_each_slot(
            self.space,
            self.places,
            self.table,
            task,
            self.colour,
            visitor,
        );
    }
}

// Copied field by field: `T` itself need not be `Copy` (only a reference to it is held).
impl<T: ?Sized> Clone for LayerScan<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T: ?Sized> Copy for LayerScan<'_, T> {}

/// A scan of single-tile moves: its tables are the blank's moves from each cell.
pub type SingleScan<'a> = LayerScan<'a, [BlankMoves]>;

/// What a multi-tile scan reads: the slides, and the bits a row where the place keeps them
/// (`rows`: a search makes them at a push and drops them otherwise).
pub struct SlideTables {
    /// The multi-tile moves of every slot of a rank.
    pub slides: Slides,
    /// The push's bit a row, where the place keeps them and the layer is pushed.
    pub rows: Option<Rows>,
}

/// A scan of multi-tile moves.
pub type MultiScan<'a> = LayerScan<'a, SlideTables>;

/// What a scan does with the words and slots `for_each_slot` finds.
pub(super) trait Slots {
    /// Whether the scan looks at a word holding `word`: for the others `select` would do
    /// nothing and choose nothing.
    fn busy(word: u64) -> bool;
    /// The low bits of the slots of word `w` (`cell`) to visit, given the word's first slot's
    /// place q in its rank (`0..n`), the word's value and the low bits of its slots in the task
    /// whose blank has the scan's colour (it may also settle or mark slots of the word).
    fn select(&mut self, cell: &AtomicU64, w: usize, q: usize, word: u64, candidates: u64) -> u64;
    /// Visits the slots `mask` (low bits), chosen by `select`, of the word whose first slot is
    /// slot q of rank `rank0`, at index `start` (`split`: `WordPlaces::split`).
    fn states(&mut self, split: &[(u8, u8); 64], rank0: u64, q: u64, start: u64, mask: u64);
}

/// Hands `visitor.states` the slots its `select` chooses in each word of `lo..hi`, in index order.
#[inline(always)]
pub(super) fn for_each_slot<S: Slots>(
    space: &StateSpace,
    places: &WordPlaces,
    table: &Table,
    Task { lo, hi }: Task,
    colour: usize,
    visitor: &mut S,
) {
    let width = space.width();
    let split = &places.split;
    let (first, last) = (lo / 32, (hi - 1) / 32);
    let words = table.span(first as usize, last as usize + 1);
    // The task's first and last words may hold other tasks' slots.
    let (lo_mask, hi_mask) = (
        !0u64 << (2 * (lo % 32)),
        !0u64 >> (2 * (31 - (hi - 1) % 32)),
    );
    // The words are taken 64 at a time: which ones `S::busy` holds is read into a mask first,
    // without a branch a word, and the visits follow its bits. A branch a word mispredicted
    // where busy and idle words mix (nearly half of a push's mispredictions). The sequence
    // rank and slot q of a block's first word are followed block by block, without a
    // division; those of a word in it, and its colour's slots, are looked up by q and the
    // word's place in the block (`WordPlaces::ons`, `blocks`: a division and two tests a
    // visited word, 2.5-2.8% of 2x6's and 3x4's instructions). A word is read again when it is
    // visited: this task's visits before may have written it. One that another word's visit
    // made busy is not visited: a claim makes a word busy only with slots of the next layer,
    // which no select chooses (as when another task writes it just after the mask is read).
    let (mut rank0, mut q) = (first * 32 / width, first * 32 % width);
    let mut start = 0;
    while start < words.len() {
        let block = &words[start..words.len().min(start + 64)];
        // The candidates of each word: its colour's slots, and only the task's in its first
        // and last words (a copy for those blocks: no test a word).
        let mut edges: [u64; 64];
        let mut candidates = &places.blocks[colour][q as usize];
        let ons = &places.ons[q as usize];
        if start == 0 || start + block.len() == words.len() {
            edges = *candidates;
            if start == 0 {
                edges[0] &= lo_mask;
            }
            if start + block.len() == words.len() {
                edges[block.len() - 1] &= hi_mask;
            }
            candidates = &edges;
        }
        let mut busy = 0u64;
        for (i, word) in block.iter().enumerate() {
            busy |= u64::from(S::busy(word.load(Relaxed))) << i;
        }
        while busy != 0 {
            let i = busy.trailing_zeros() as usize;
            busy &= busy - 1;
            let value = block[i].load(Relaxed);
            if !S::busy(value) {
                continue;
            }
            let k = start + i;
            let (ranks, qk) = ons[i];
            let (ranks, qk) = (u64::from(ranks), u64::from(qk));
            let w = first as usize + k;
            let mask = visitor.select(&block[i], w, qk as usize, value, candidates[i]);
            visitor.states(split, rank0 + ranks, qk, w as u64 * 32, mask);
        }
        let (ranks, next_q) = places.words_on(q, block.len() as u64);
        (rank0, q) = (rank0 + ranks, next_q);
        start += block.len();
    }
}

/// Whether a pull of a coloured table looks at a word: it has an unseen slot to test or a
/// frontier to settle.
#[inline(always)]
pub(super) fn pull_busy(word: u64) -> bool {
    Table::matching(word, 0) != 0 || holds_frontier(word)
}

/// A pull's selection in a coloured table's word `w` (read as `word`): settles with `before`
/// the frontier of the layer before among `candidates` (a pull left it holding `FRONTIER`;
/// each task settles its own slots before it marks any), and chooses the unseen ones.
#[inline(always)]
pub(super) fn pull_select(table: &Table, w: usize, word: u64, candidates: u64, before: u64) -> u64 {
    table.settle_frontier(w, word, candidates, before);
    Table::matching(word, 0) & candidates
}

/// Whether a word holds a `FRONTIER` slot (of either colour): the words a push or a settling
/// pass looks at.
#[inline(always)]
pub(super) fn holds_frontier(word: u64) -> bool {
    Table::matching(word, FRONTIER) != 0
}

/// The codes a layer step writes: the frontier's (layer d) once it is expanded, that of layer
/// d-1, whose states a pull layer left holding `FRONTIER`, and that of layer d+1.
#[derive(Clone, Copy, Debug)]
pub struct Codes {
    /// The code the frontier's states hold while it is expanded: `FRONTIER` for single tiles,
    /// the depth's for multi-tile moves.
    pub frontier: u64,
    /// The code of the frontier (layer d) once expanded (in the multi-tile metric, its code).
    pub done: u64,
    /// The code of layer d - 1.
    pub before: u64,
    /// The code the step marks layer d+1 with.
    pub next: u64,
    /// Whether the frontier is the search's start (layer 0), whose state has no neighbour in a
    /// layer before it.
    pub start: bool,
}

impl Codes {
    /// The codes of a step that expands layer `depth`, single-tile.
    pub fn at(depth: u32) -> Codes {
        Codes {
            frontier: FRONTIER,
            done: settled(depth),
            before: settled(depth.wrapping_sub(1)),
            next: FRONTIER,
            start: depth == 0,
        }
    }

    /// The codes of a step that expands layer `depth`, multi-tile: 1 + depth mod 3
    /// (`multi_code`).
    pub fn multi(depth: u32) -> Codes {
        Codes {
            frontier: multi_code(depth),
            done: multi_code(depth),
            before: multi_code(depth + 2),
            next: multi_code(depth + 1),
            start: depth == 0,
        }
    }
}

/// The code of a state at `depth` in the multi-tile metric's table: 1 + depth mod 3.
#[inline(always)]
pub fn multi_code(depth: u32) -> u64 {
    1 + u64::from(depth % 3)
}

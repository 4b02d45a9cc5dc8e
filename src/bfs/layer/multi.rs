//! The ways to build a layer in the multi-tile metric: push, pull and list.
//!
//! The table codes a state's depth d as 1 + d mod 3 (0: unseen): the graph is not bipartite,
//! so the blank's colour cannot tell the frontier from the next layer. A layer's scan finds the
//! states holding the frontier's code, which are layer d and the layers 3, 6, … before it
//! (their expansion finds every neighbour seen: wasted work, never a wrong count); a push
//! marks their unseen neighbours with the next code, and a pull marks an unseen state if one of
//! its neighbours holds the frontier's code, which is exact: an unseen state is at depth d+1
//! or more, so its neighbours are at depth d or more, and only layer d holds that code there.
//! Nothing is settled: a state's code is final once written.
//!
//! Horizontal slides keep the rank (their targets share the state's cache line); vertical ones
//! are computed a batch at a time and their words prefetched a batch before they are read.

use std::sync::atomic::AtomicU64;

use super::claims::Claims;
use super::multi_moves::{Prefix, Run, Slides};
use super::scan::{for_each_slot, Found, LayerScan, Slots};
use crate::bfs::bits::bit_instructions;
use crate::bfs::schedule::Task;
use crate::bfs::table::Table;
use crate::index::rank::Cursor;
use crate::index::space::StateSpace;

/// States whose vertical slides are computed together: their targets' words are prefetched
/// and read a batch later.
const BATCH: usize = 32;

/// The most vertical slides of a state: R-1, with R ≤ 4 rows in the engine's orientation (at
/// most 17 cells, rows ≤ columns).
pub(super) const MAX_COLUMN: usize = 4;

/// States waiting for their vertical slides, and the targets of the batch before.
pub(super) struct Pending {
    /// (rank, slot, index) of each state waiting.
    states: [(u64, u8, u64); BATCH],
    waiting: usize,
    /// The targets of the last two batches: `per` a state, state-major, and the state's
    /// index after them.
    targets: [[u64; BATCH * (MAX_COLUMN + 1)]; 2],
    last: usize,
    ready: usize,
    /// A cursor per sequence parity, the rank it holds and its sequence's prefixes.
    cursors: [Cursor; 2],
    at: [u64; 2],
    prefixes: [Prefix; 2],
    /// Vertical slides a state: R-1.
    pub(super) per: usize,
}

impl Pending {
    pub(super) fn new(space: &StateSpace) -> Pending {
        Pending {
            states: [(0, 0, 0); BATCH],
            waiting: 0,
            targets: [[0; BATCH * (MAX_COLUMN + 1)]; 2],
            last: 0,
            ready: 0,
            cursors: [Cursor::new(), Cursor::new()],
            at: [u64::MAX; 2],
            prefixes: [Prefix([0; crate::index::rank::MAX_TILES + 1]); 2],
            per: space.shape.rows - 1,
        }
    }

    /// Queues the state of slot `j` of rank `rank` (at `index`); true if the batch is full.
    #[inline(always)]
    pub(super) fn add(&mut self, rank: u64, j: usize, index: u64) -> bool {
        self.states[self.waiting] = (rank, j as u8, index);
        self.waiting += 1;
        self.waiting == BATCH
    }

    /// Computes the vertical targets of the states waiting and prefetches their words; returns
    /// those of the batch before (`per + 1` values a state: the targets, then its index).
    #[inline(always)]
    pub(super) fn flush(&mut self, scan: &LayerScan, slides: &Slides) -> &[u64] {
        let space = scan.space;
        let words = scan.table.span(0, scan.table.index_words());
        let weights = space.indexer.weights();
        let before = self.last;
        self.last ^= 1;
        let stride = self.per + 1;
        for k in 0..self.waiting {
            let (rank, j, index) = self.states[k];
            let j = usize::from(j);
            let p = usize::from(space.parity[usize::from(space.blanks[j])] & 1);
            if self.at[p] != rank {
                space.indexer.seek(&mut self.cursors[p], rank, p as u8);
                self.prefixes[p] = Prefix::of(&self.cursors[p], space.tiles());
                self.at[p] = rank;
            }
            let out = &mut self.targets[self.last][k * stride..(k + 1) * stride];
            for (slide, to) in slides.columns[j].iter().zip(out.iter_mut()) {
                let n = slides.target(slide, &self.cursors[p], &self.prefixes[p], rank, weights);
                Table::prefetch_in(words, n);
                *to = n;
            }
            out[self.per] = index;
        }
        let ready = std::mem::replace(&mut self.ready, self.waiting);
        self.waiting = 0;
        &self.targets[before][..ready * stride]
    }
}

/// Calls `visit(rank, slot, index)` for each of the slots `mask` (low bits) of the word whose
/// first slot is slot q of rank `rank0`, at index `start` (`split`: `WordPlaces::split`).
#[inline(always)]
fn each_state(
    split: &[(u8, u8); 64],
    rank0: u64,
    q: u64,
    start: u64,
    mut mask: u64,
    mut visit: impl FnMut(u64, usize, u64),
) {
    while mask != 0 {
        let s = u64::from(mask.trailing_zeros() / 2);
        mask &= mask - 1;
        let (carry, j) = split[((q + s) % 64) as usize];
        visit(rank0 + u64::from(carry), usize::from(j), start + s);
    }
}

/// A push: claims the unseen neighbours of the states holding the frontier's code.
struct Push<'s, 'a> {
    scan: &'s LayerScan<'a>,
    slides: &'s Slides,
    claims: Claims<'a>,
    pending: Pending,
    /// The horizontal targets marked in the frontier's own words (`select`).
    in_words: Found,
}

impl<'s, 'a> Push<'s, 'a> {
    fn new(scan: &'s LayerScan<'a>) -> Push<'s, 'a> {
        Push {
            scan,
            slides: scan.slides.expect("a multi-tile scan has its slides"),
            claims: Claims::coded(scan.table, scan.record, scan.codes.next),
            pending: Pending::new(scan.space),
            in_words: Found::default(),
        }
    }

    /// Claims the horizontal targets of the state at `index`, slot `j` of rank `rank`, and
    /// queues its vertical ones.
    #[inline(always)]
    fn state(&mut self, rank: u64, j: usize, index: u64) {
        let base = index - j as u64;
        let mut row = self.slides.row[j];
        while row != 0 {
            self.claims.offer(base + u64::from(row.trailing_zeros()));
            row &= row - 1;
        }
        if self.pending.add(rank, j, index) {
            self.flush();
        }
    }

    #[inline(always)]
    fn flush(&mut self) {
        let stride = self.pending.per + 1;
        let ready = self.pending.flush(self.scan, self.slides);
        for state in ready.chunks_exact(stride) {
            self.claims.offer_all(&state[..stride - 1]);
        }
    }

    fn finish(mut self) -> Found {
        // The last states' targets, then the batch before them.
        self.flush();
        self.flush();
        let mut found = self.claims.finish();
        found.add(self.in_words);
        found
    }
}

/// Whether any of the last `before` slots of word `w - 1` or the first `after` slots of word
/// `w + 1` of `table` holds `code` (the parts of a run outside word `w`).
#[inline(always)]
fn around(table: &Table, w: usize, run: &Run, code: u64) -> bool {
    let (before, after) = (u32::from(run.before), u32::from(run.after));
    (before != 0 && Table::matching(table.word(w - 1), code) >> (2 * (32 - before)) != 0)
        || (after != 0 && Table::matching(table.word(w + 1), code) & ((1 << (2 * after)) - 1) != 0)
}

impl Slots for Push<'_, '_> {
    /// Any seen slot may hold the frontier's code (which a static test cannot know).
    #[inline(always)]
    fn busy(word: u64) -> bool {
        word != 0
    }

    /// Marks the unseen slots of the word's runs (rows of a rank) that hold a frontier state,
    /// in one atomic step, and offers those of the runs' parts in the words beside it.
    #[inline(always)]
    fn select(&mut self, cell: &AtomicU64, w: usize, q: usize, word: u64, candidates: u64) -> u64 {
        let LayerScan { codes, record, .. } = *self.scan;
        let frontier = Table::matching(word, codes.done) & candidates;
        if frontier == 0 {
            return 0;
        }
        let mut targets = 0;
        for run in &self.slides.runs[q % self.slides.runs.len()] {
            if frontier & run.mask == 0 {
                continue;
            }
            targets |= run.mask;
            let first = w as u64 * 32;
            for t in 0..u64::from(run.before) {
                self.claims.offer(first - 1 - t);
            }
            for t in 0..u64::from(run.after) {
                self.claims.offer(first + 32 + t);
            }
        }
        let unseen = targets & Table::matching(word, 0);
        if unseen != 0 {
            let marked = Table::mark_unseen(cell, unseen, codes.next);
            self.in_words.add_slots(w, marked, record);
        }
        frontier
    }

    /// Queues the vertical slides of the frontier states `mask`.
    #[inline(always)]
    fn states(&mut self, split: &[(u8, u8); 64], rank0: u64, q: u64, start: u64, mask: u64) {
        each_state(split, rank0, q, start, mask, |rank, j, index| {
            if self.pending.add(rank, j, index) {
                self.flush();
            }
        });
    }
}

/// A pull: marks the unseen states with a neighbour holding the frontier's code.
struct Pull<'s, 'a> {
    scan: &'s LayerScan<'a>,
    slides: &'s Slides,
    claims: Claims<'a>,
    pending: Pending,
    /// The states marked for a horizontal neighbour (`select`).
    in_words: Found,
}

impl Pull<'_, '_> {
    /// Flushes the batch, and marks the states of the one before with a vertical neighbour in
    /// the frontier.
    #[inline(always)]
    fn flush(&mut self) {
        let stride = self.pending.per + 1;
        let (table, code) = (self.scan.table, self.scan.codes.done);
        let ready = self.pending.flush(self.scan, self.slides);
        for state in ready.chunks_exact(stride) {
            let found = state[..stride - 1].iter().any(|&n| table.get(n) == code);
            self.claims.buffer(state[stride - 1], found);
        }
    }
}

impl Slots for Pull<'_, '_> {
    #[inline(always)]
    fn busy(word: u64) -> bool {
        Table::matching(word, 0) != 0
    }

    /// Marks the unseen slots of the word's runs (rows of a rank) that hold a frontier state,
    /// here or in the words beside it, in one atomic step; the other unseen slots are tested
    /// for a vertical neighbour in the frontier (`states`).
    #[inline(always)]
    fn select(&mut self, cell: &AtomicU64, w: usize, q: usize, word: u64, candidates: u64) -> u64 {
        let LayerScan {
            table,
            codes,
            record,
            ..
        } = *self.scan;
        let unseen = Table::matching(word, 0) & candidates;
        let frontier = Table::matching(word, codes.done);
        let mut found = 0;
        for run in &self.slides.runs[q % self.slides.runs.len()] {
            if unseen & run.mask != 0
                && (frontier & run.mask != 0 || around(table, w, run, codes.done))
            {
                found |= run.mask;
            }
        }
        let marked = unseen & found;
        if marked != 0 {
            let marked = Table::mark_unseen(cell, marked, codes.next);
            self.in_words.add_slots(w, marked, record);
        }
        unseen & !found
    }

    #[inline(always)]
    fn states(&mut self, split: &[(u8, u8); 64], rank0: u64, q: u64, start: u64, mask: u64) {
        each_state(split, rank0, q, start, mask, |rank, j, index| {
            if self.pending.add(rank, j, index) {
                self.flush();
            }
        });
    }
}

bit_instructions! {
    /// Push in the multi-tile metric: marks with the next code every unseen neighbour of the
    /// states of `task` holding the frontier's code.
    pub fn push_multi[][](scan: &LayerScan, task: Task) -> Found {
        let mut push = Push::new(scan);
        for_each_slot(scan.space, scan.places, scan.table, task, scan.colour, &mut push);
        push.finish()
    }
}

bit_instructions! {
    /// Pull in the multi-tile metric: marks with the next code every unseen state of `task`
    /// with a neighbour holding the frontier's code (exact: see the module's doc).
    pub fn pull_multi[][](scan: &LayerScan, task: Task) -> Found {
        let mut pull = Pull {
            scan,
            slides: scan.slides.expect("a multi-tile scan has its slides"),
            claims: Claims::coded(scan.table, scan.record, scan.codes.next),
            pending: Pending::new(scan.space),
            in_words: Found::default(),
        };
        for_each_slot(scan.space, scan.places, scan.table, task, scan.colour, &mut pull);
        // The last states' neighbours, then the test of the batch before them.
        pull.flush();
        pull.flush();
        let mut found = pull.claims.finish();
        found.add(pull.in_words);
        found
    }
}

bit_instructions! {
    /// Expands the listed frontier states (ascending indices) in the multi-tile metric.
    pub fn list_multi[][](scan: &LayerScan, frontier: &[u64]) -> Found {
        let mut push = Push::new(scan);
        let width = scan.space.width();
        for &i in frontier {
            push.state(i / width, (i % width) as usize, i);
        }
        push.finish()
    }
}

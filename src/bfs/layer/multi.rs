//! The ways to build a layer in the multi-tile metric: push, pull and list.
//!
//! The table codes a state's depth d as 1 + d mod 3 (0: unseen): the graph is not bipartite,
//! so the blank's colour cannot tell the frontier from the next layer. A layer's scan finds the
//! states holding the frontier's code, which are layer d and the layers 3, 6, … before it
//! (their expansion finds every neighbour seen: wasted work, never a wrong count, which a bit a
//! row skips where the place keeps one: `rows`); a push marks their unseen neighbours with the
//! next code, and a pull marks an unseen state if one of
//! its neighbours holds the frontier's code, which is exact: an unseen state is at depth d+1
//! or more, so its neighbours are at depth d or more, and only layer d holds that code there.
//! Nothing is settled: a state's code is final once written.
//!
//! A push computes the vertical slides only of the frontier states whose row (of their rank)
//! holds a state of the layer before. The states of a row are one horizontal slide apart, and
//! so are those of a column (one vertical slide): a state of layer d ≥ 1 with no neighbour of
//! layer d-1 in its row has one in its column, whose states are then all seen, at depth d-1 or
//! d. About 40% of the states of 2x6's and 3x4's widest layers are so. The layer before has
//! the one code no claim of this layer writes (that of d+2), so the test is exact.
//!
//! Horizontal slides keep the rank (their targets share the state's cache line); vertical ones
//! are computed a batch at a time and their words prefetched a batch before they are read.

use std::sync::atomic::AtomicU64;

use super::claims::Claims;
use super::multi_moves::{Run, Slides, MAX_COLUMN};
use super::rows::Rows;
use super::scan::{Found, LayerScan, MultiScan, Slots};
use crate::bfs::bits::bit_instructions;
use crate::bfs::schedule::Task;
use crate::bfs::table::Table;
use crate::index::rank::Cursor;
use crate::index::space::StateSpace;

/// States whose vertical slides are computed together: their targets' words are prefetched
/// and read a batch later.
const BATCH: usize = 32;

/// States waiting for their vertical slides, and the targets of the batch before: `PER`
/// slides a state (R-1: 1, 2 or 3), a constant, so that the loops over them unroll.
pub(super) struct Pending<const PER: usize> {
    /// (rank, slot, index) of each state waiting.
    states: [(u64, u8, u64); BATCH],
    waiting: usize,
    /// The targets of the last two batches (the first `PER` of each state's), and the states'
    /// indices.
    targets: [[[u64; MAX_COLUMN]; BATCH]; 2],
    indices: [[u64; BATCH]; 2],
    last: usize,
    ready: usize,
    /// A cursor per sequence parity.
    cursors: [Cursor; 2],
}

impl<const PER: usize> Pending<PER> {
    pub(super) fn new(space: &StateSpace) -> Pending<PER> {
        assert_eq!(
            space.shape.rows - 1,
            PER,
            "the kernels of another row count"
        );
        Pending {
            states: [(0, 0, 0); BATCH],
            waiting: 0,
            targets: [[[0; MAX_COLUMN]; BATCH]; 2],
            indices: [[0; BATCH]; 2],
            last: 0,
            ready: 0,
            cursors: [Cursor::new(), Cursor::new()],
        }
    }

    /// Queues the state of slot `j` of rank `rank` (at `index`); true if the batch is full.
    #[inline(always)]
    pub(super) fn add(&mut self, rank: u64, j: usize, index: u64) -> bool {
        self.states[self.waiting % BATCH] = (rank, j as u8, index);
        self.waiting += 1;
        self.waiting == BATCH
    }

    /// Computes the vertical targets of the states waiting and prefetches their words; returns
    /// those of the batch before (the first `PER` of each state's) and the states' indices.
    #[inline(always)]
    pub(super) fn flush(
        &mut self,
        scan: &MultiScan,
        slides: &Slides,
    ) -> (&[[u64; MAX_COLUMN]], &[u64]) {
        let before = self.last;
        self.last ^= 1;
        // The steps' loops unrolled for each width: one branch a batch (see `Slides::targets`),
        // compiled only for the widths of the row count (`Slides::new` checks them): 2 rows
        // have 2 to 8 columns, 3 rows 3 to 5, 4 rows 4.
        if const { PER == 1 } {
            match slides.passes() {
                1 => self.compute::<1>(scan, slides),
                2 => self.compute::<2>(scan, slides),
                3 => self.compute::<3>(scan, slides),
                4 => self.compute::<4>(scan, slides),
                5 => self.compute::<5>(scan, slides),
                6 => self.compute::<6>(scan, slides),
                _ => self.compute::<7>(scan, slides),
            }
        } else if const { PER == 2 } {
            match slides.passes() {
                2 => self.compute::<2>(scan, slides),
                3 => self.compute::<3>(scan, slides),
                _ => self.compute::<4>(scan, slides),
            }
        } else {
            self.compute::<3>(scan, slides)
        }
        let ready = std::mem::replace(&mut self.ready, self.waiting.min(BATCH));
        self.waiting = 0;
        (
            &self.targets[before][..ready],
            &self.indices[before][..ready],
        )
    }

    /// `flush`'s targets on a board of K + 1 columns, into the batch `last`.
    #[inline(always)]
    fn compute<const K: usize>(&mut self, scan: &MultiScan, slides: &Slides) {
        let space = scan.space;
        let words = scan.table.span(0, scan.table.index_words());
        let weights = space.indexer.weights();
        let (targets, indices) = (&mut self.targets[self.last], &mut self.indices[self.last]);
        for k in 0..self.waiting.min(BATCH) {
            let (rank, j, index) = self.states[k];
            let j = usize::from(j);
            let p = usize::from(space.parity[usize::from(space.blanks[j])] & 1);
            // Every time: a seek to the rank the cursor holds costs less than the branch
            // that would skip it, which the predictor loses as often as the rank changes.
            space
                .indexer
                .seek_digits(&mut self.cursors[p], rank, p as u8);
            let vertical = slides.targets::<PER, K>(j, &self.cursors[p], rank, weights);
            for (t, &n) in vertical.iter().enumerate() {
                Table::prefetch_in(words, n);
                targets[k][t % MAX_COLUMN] = n;
            }
            indices[k] = index;
        }
    }
}

/// The states (rank, slot, index) of the slots `mask` (low bits) of the word whose first slot
/// is slot q of rank `rank0`, at index `start` (`split`: `WordPlaces::split`). An iterator, not
/// a function taking a closure: a closure would stay a function of its own, compiled without
/// the bit instructions (`bits::bit_instructions!`), and its `count_ones` would take 15
/// instructions.
struct WordStates<'p> {
    split: &'p [(u8, u8); 64],
    rank0: u64,
    q: u64,
    start: u64,
    mask: u64,
}

impl WordStates<'_> {
    #[inline(always)]
    fn new(split: &[(u8, u8); 64], rank0: u64, q: u64, start: u64, mask: u64) -> WordStates<'_> {
        WordStates {
            split,
            rank0,
            q,
            start,
            mask,
        }
    }
}

impl Iterator for WordStates<'_> {
    type Item = (u64, usize, u64);

    #[inline(always)]
    fn next(&mut self) -> Option<(u64, usize, u64)> {
        if self.mask == 0 {
            return None;
        }
        let s = u64::from(self.mask.trailing_zeros() / 2);
        self.mask &= self.mask - 1;
        let (carry, j) = self.split[((self.q + s) % 64) as usize];
        Some((
            self.rank0 + u64::from(carry),
            usize::from(j),
            self.start + s,
        ))
    }
}

/// A push: claims the unseen neighbours of the states holding the frontier's code (of the rows
/// whose bit is set, where the place keeps them: `rows`).
struct Push<'s, 'a, const PER: usize> {
    scan: &'s MultiScan<'a>,
    slides: &'a Slides,
    /// The bits a row, where the place keeps them (`rows`).
    rows: Option<&'a Rows>,
    claims: Claims<'a>,
    pending: Pending<PER>,
    /// The horizontal targets marked in the frontier's own words (`select`).
    in_words: Found,
    /// The states of the task (a row wholly inside may have its bit cleared).
    task: Task,
    /// Rows crossing a word that this task expanded and left with nothing for the next layer:
    /// their bits are cleared at its end, once every part is expanded.
    spent: Vec<u64>,
}

impl<'s, 'a, const PER: usize> Push<'s, 'a, PER> {
    fn new(scan: &'s MultiScan<'a>, task: Task) -> Push<'s, 'a, PER> {
        Push {
            scan,
            slides: &scan.tables.slides,
            rows: scan.tables.rows.as_ref(),
            claims: Claims::coded(scan.table, scan.record, scan.codes.next),
            pending: Pending::new(scan.space),
            in_words: Found::default(),
            task,
            spent: vec![],
        }
    }

    /// Whether the frontier states of `run` (of word `w`, holding `word`) are of the layer being
    /// expanded, by their row's bit (a row past the budget's has none: they may be); and if so,
    /// when the row holds no unseen state and none of the next layer, clears the bit (at once if
    /// the row is inside the word, at the task's end if it crosses one) when the row is wholly
    /// the task's.
    #[inline(always)]
    fn current(&mut self, rows: &Rows, w: usize, word: u64, run: &Run) -> bool {
        let (table, next) = (self.scan.table, self.scan.codes.next);
        let first = w as u64 * 32 + u64::from(run.mask.trailing_zeros() / 2);
        let row = rows.of(first);
        if !rows.keeps(row) {
            // No bit to read or clear: the row's codes need not be read.
            return true;
        }
        if !rows.get(row) {
            return false;
        }
        let open = holds(table, w, word, run, 0) || holds(table, w, word, run, next);
        let width = self.scan.space.shape.cols as u64;
        let ours = self.task.lo <= row * width && (row + 1) * width <= self.task.hi;
        if !open && ours {
            if run.before == 0 && run.after == 0 {
                rows.clear(row);
            } else {
                self.spent.push(row);
            }
        }
        true
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
        let (targets, _) = self.pending.flush(self.scan, self.slides);
        for state in targets {
            self.claims.offer_all(&state[..PER]);
        }
    }

    fn finish(mut self) -> Found {
        // The last states' targets, then the batch before them.
        self.flush();
        self.flush();
        if let Some(rows) = self.rows {
            self.spent.iter().for_each(|&row| rows.clear(row));
        }
        let mut found = self.claims.finish();
        found.add(self.in_words);
        found
    }
}

/// Whether a slot of `run` (of word `w`, holding `word`, and the words beside it) holds `code`.
#[inline(always)]
fn holds(table: &Table, w: usize, word: u64, run: &Run, code: u64) -> bool {
    Table::matching(word, code) & run.mask != 0 || around(table, w, run, code)
}

/// Whether any of the last `before` slots of word `w - 1` or the first `after` slots of word
/// `w + 1` of `table` holds `code` (the parts of a run outside word `w`).
#[inline(always)]
fn around(table: &Table, w: usize, run: &Run, code: u64) -> bool {
    let (before, after) = (u32::from(run.before), u32::from(run.after));
    (before != 0 && Table::matching(table.word(w - 1), code) >> (2 * (32 - before)) != 0)
        || (after != 0 && Table::matching(table.word(w + 1), code) & ((1 << (2 * after)) - 1) != 0)
}

impl<const PER: usize> Slots for Push<'_, '_, PER> {
    /// Any seen slot may hold the frontier's code (which a static test cannot know).
    #[inline(always)]
    fn busy(word: u64) -> bool {
        word != 0
    }

    /// Marks the unseen slots of the word's runs (rows of a rank) that hold a frontier state,
    /// in one atomic step, and offers those of the runs' parts in the words beside it.
    #[inline(always)]
    fn select(&mut self, cell: &AtomicU64, w: usize, q: usize, word: u64, candidates: u64) -> u64 {
        let LayerScan {
            table,
            codes,
            record,
            ..
        } = *self.scan;
        let rows = self.rows;
        let mut frontier = Table::matching(word, codes.done) & candidates;
        if frontier == 0 {
            return 0;
        }
        let mut targets = 0;
        let slides = self.slides;
        let (runs, run_at) = slides.runs_of(q);
        // The runs holding a frontier state, each found from its first (a loop over them all
        // would test each, a branch the predictor loses about as often as it wins).
        let mut left = frontier;
        while left != 0 {
            let run = &runs[usize::from(run_at[(left.trailing_zeros() / 2) as usize % 32])];
            left &= !run.mask;
            if let Some(rows) = rows {
                if !self.current(rows, w, word, run) {
                    // An older layer's states (3, 6, … before): nothing to expand.
                    frontier &= !run.mask;
                    continue;
                }
            }
            targets |= run.mask;
            let first = w as u64 * 32;
            for t in 0..u64::from(run.before) {
                self.claims.offer(first - 1 - t);
            }
            for t in 0..u64::from(run.after) {
                self.claims.offer(first + 32 + t);
            }
            if !codes.start && !holds(table, w, word, run, codes.before) {
                // No state of the row is of the layer before: its frontier states were reached
                // by vertical slides from it, so their columns are seen (the module's doc).
                frontier &= !run.mask;
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
        for (rank, j, index) in WordStates::new(split, rank0, q, start, mask) {
            if self.pending.add(rank, j, index) {
                self.flush();
            }
        }
    }
}

/// A pull: marks the unseen states with a neighbour holding the frontier's code.
struct Pull<'s, 'a, const PER: usize> {
    scan: &'s MultiScan<'a>,
    slides: &'s Slides,
    claims: Claims<'a>,
    pending: Pending<PER>,
    /// The states marked for a horizontal neighbour (`select`).
    in_words: Found,
}

impl<const PER: usize> Pull<'_, '_, PER> {
    /// Flushes the batch, and marks the states of the one before with a vertical neighbour in
    /// the frontier.
    #[inline(always)]
    fn flush(&mut self) {
        let (table, code) = (self.scan.table, self.scan.codes.done);
        let (targets, indices) = self.pending.flush(self.scan, self.slides);
        for (state, &index) in targets.iter().zip(indices) {
            let found = state[..PER].iter().any(|&n| table.get(n) == code);
            self.claims.buffer(index, found);
        }
    }
}

impl<const PER: usize> Slots for Pull<'_, '_, PER> {
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
        // The runs holding an unseen state, each found from its first (as a push's).
        let (runs, run_at) = self.slides.runs_of(q);
        let mut left = unseen;
        while left != 0 {
            let run = &runs[usize::from(run_at[(left.trailing_zeros() / 2) as usize % 32])];
            left &= !run.mask;
            if frontier & run.mask != 0 || around(table, w, run, codes.done) {
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
        for (rank, j, index) in WordStates::new(split, rank0, q, start, mask) {
            if self.pending.add(rank, j, index) {
                self.flush();
            }
        }
    }
}

bit_instructions! {
    /// Push in the multi-tile metric: marks with the next code every unseen neighbour of the
    /// states of `task` holding the frontier's code.
    pub fn push_multi[const PER: usize][PER](scan: &MultiScan, task: Task) -> Found {
        let mut push = Push::<PER>::new(scan, task);
        scan.each_slot(task, &mut push);
        push.finish()
    }
}

bit_instructions! {
    /// Pull in the multi-tile metric: marks with the next code every unseen state of `task`
    /// with a neighbour holding the frontier's code (exact: see the module's doc).
    pub fn pull_multi[const PER: usize][PER](scan: &MultiScan, task: Task) -> Found {
        let mut pull = Pull::<PER> {
            scan,
            slides: &scan.tables.slides,
            claims: Claims::coded(scan.table, scan.record, scan.codes.next),
            pending: Pending::new(scan.space),
            in_words: Found::default(),
        };
        scan.each_slot(task, &mut pull);
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
    pub fn list_multi[const PER: usize][PER](scan: &MultiScan, frontier: &[u64]) -> Found {
        // Listed states are the layer's: no row's bit is read, none cleared.
        let mut push = Push::<PER>::new(scan, Task { lo: 0, hi: 0 });
        let width = scan.space.width();
        for &i in frontier {
            push.state(i / width, (i % width) as usize, i);
        }
        push.finish()
    }
}

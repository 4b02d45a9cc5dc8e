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
//! are computed a batch at a time and their words prefetched a batch before they are read. On
//! one table a push marks a word's rows with a plain store while no claim of the layer is made
//! atomically, in the words no other task's rows reach (`deferred::Plain`, `inner_words`).
//!
//! On a rank's shard of the table (`dist`, the disk), the same kernels compiled with `SHARDED`
//! route each target to this shard or to the owner (as the single-tile ones do), and walk a
//! word's states one at a time: the rows of a rank need not lie in one shard, so the word-wide
//! marks, which read the words beside a frontier word, are not made there.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use crate::bfs::bits::bit_instructions;
use crate::bfs::layer::batch::Batch;
use crate::bfs::layer::claims::Claims;
use crate::bfs::layer::multi::row_masks::{Phase, RowMasks};
use crate::bfs::layer::multi::rows::Rows;
use crate::bfs::layer::multi::slides::{Slides, MAX_COLUMN};
use crate::bfs::layer::scan::{Found, LayerScan, MultiScan, Slots};
use crate::bfs::schedule::Task;
use crate::bfs::table::{Table, LOW_BITS};
use crate::index::rank::Cursor;
use crate::index::space::StateSpace;

/// States waiting for their vertical slides, and the targets of the batch before: `PER`
/// slides a state (R-1: 1, 2 or 3), a constant, so that the loops over them unroll.
pub(in crate::bfs::layer) struct Pending<const PER: usize> {
    /// Each state waiting as `rank << 6 | p` (`Batch::add_word`: slot p % n of rank
    /// `rank + p / n`); the targets of each (the first `PER`) and its index.
    batch: Batch<u64, ([u64; MAX_COLUMN], u64)>,
    /// A cursor per sequence parity.
    cursors: [Cursor; 2],
}

impl<const PER: usize> Pending<PER> {
    pub(in crate::bfs::layer) fn new(space: &StateSpace) -> Pending<PER> {
        assert_eq!(
            space.shape().rows - 1,
            PER,
            "the kernels of another row count"
        );
        Pending {
            batch: Batch::new(0, ([0; MAX_COLUMN], 0)),
            cursors: [Cursor::new(), Cursor::new()],
        }
    }

    /// Queues the state of slot `j` of rank `rank`; true if the batch is full.
    #[inline(always)]
    pub(in crate::bfs::layer) fn add(&mut self, rank: u64, j: usize) -> bool {
        self.batch.add(rank << 6 | j as u64)
    }

    /// Queues the states of the slots `mask` (low bits) of a word whose first slot is slot q
    /// of rank `rank0`; true if the batch is full.
    #[inline(always)]
    pub(in crate::bfs::layer) fn add_word(&mut self, rank0: u64, q: u64, mask: u64) -> bool {
        self.batch.add_word(rank0, q, mask)
    }

    /// Computes the vertical targets of the states waiting and prefetches their words; returns
    /// those of the batch before (the first `PER` of each state's), each with its state's index.
    #[inline(always)]
    pub(in crate::bfs::layer) fn flush(
        &mut self,
        scan: &MultiScan,
        slides: &Slides,
    ) -> &[([u64; MAX_COLUMN], u64)] {
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
    }

    /// `flush` on a board of K + 1 columns.
    #[inline(always)]
    fn compute<const K: usize>(
        &mut self,
        scan: &MultiScan,
        slides: &Slides,
    ) -> &[([u64; MAX_COLUMN], u64)] {
        let (space, split) = (scan.space, &scan.places.split);
        let words = scan.table.span(0, scan.table.index_words());
        let weights = space.indexer().weights();
        let (cursors, width) = (&mut self.cursors, space.width());
        self.batch.flush(
            #[inline(always)]
            |state, (targets, at)| {
                let (carry, j) = split[(state % 64) as usize];
                let (rank, j) = ((state >> 6) + u64::from(carry), usize::from(j));
                let p = usize::from(space.parity()[usize::from(space.blanks()[j])] & 1);
                // Every time: a seek to the rank the cursor holds costs less than the branch
                // that would skip it, which the predictor loses as often as the rank changes.
                let cursor = &mut cursors[p];
                space.indexer().seek_digits(cursor, rank, p as u8);
                let vertical = slides.targets::<PER, K>(j, cursor, rank, weights);
                for (t, &n) in vertical.iter().enumerate() {
                    Table::prefetch_in(words, n);
                    targets[t % MAX_COLUMN] = n;
                }
                *at = rank * width + j as u64;
            },
        )
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
/// whose bit is set, where the place keeps them: `rows`); on a shard, the neighbours outside it
/// (`scan.mine`) go to `remote` instead, for their owners to claim.
///
/// On one table, a word's horizontal targets are marked a word at a time (`select`), reading
/// the words beside it. On a shard, the rows of a rank need not lie in it, so each state's
/// slides are routed one by one (`state`).
struct Push<'s, 'a, const PER: usize, const SHARDED: bool, R: FnMut(u64)> {
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
    /// The task's words that no other task writes: all but its first and last, which the
    /// tasks beside it mark the parts of their rows in (`mark_beside`).
    inner: std::ops::Range<usize>,
    remote: R,
}

impl<'s, 'a, const PER: usize, const SHARDED: bool, R: FnMut(u64)> Push<'s, 'a, PER, SHARDED, R> {
    fn new(scan: &'s MultiScan<'a>, task: Task, remote: R) -> Self {
        Push {
            scan,
            slides: &scan.tables.slides,
            rows: scan.tables.rows.as_ref(),
            claims: Claims::coded(scan.table, scan.record, scan.codes.next)
                .settling_plainly(scan.defer),
            pending: Pending::new(scan.space),
            in_words: Found::default(),
            task,
            inner: inner_words(task),
            remote,
        }
    }

    /// Claims `n` here, or sends it to its owner (on one table, compiled away).
    #[inline(always)]
    fn target(&mut self, n: u64) {
        if !SHARDED || self.scan.mine.holds(n) {
            self.claims.offer(n);
        } else {
            (self.remote)(n);
        }
    }

    /// Clears the bits of the rows of word `w` (holding `word`, first slot at place q) that
    /// hold no unseen state and none of the next layer, among those whose every part this task
    /// has expanded by now: the rows wholly inside the word, and the first row if it begins in
    /// the word before and in the task. A row that goes on into the word after is cleared
    /// there; in a word not wholly the task's, none is (a bit left set costs a re-expansion,
    /// never a wrong count).
    #[inline(always)]
    fn clear_spent(
        &self,
        rows: &Rows,
        w: usize,
        q: usize,
        word: u64,
        beside: &Beside,
        current: u64,
    ) {
        let next = self.scan.codes.next;
        let masks = &self.slides.masks;
        let p = masks.phase(q);
        let first = w as u64 * 32;
        let open = |v: u64| Table::matching(v, 0) | Table::matching(v, next);
        let open = RowMasks::spread(p, open(word) | beside.stand_ins(p, open));
        let begins = first - u64::from(p.phi);
        let first_row = if begins >= self.task.lo { p.first } else { 0 };
        let clearable = p.inner | first_row;
        let mut spent = current & clearable & !open & p.starts;
        while spent != 0 {
            rows.clear(rows.of(first + u64::from(spent.trailing_zeros() / 2)));
            spent &= spent - 1;
        }
    }

    /// Marks with the next code the slots `unseen` of word `v`, read as `value`, unseen then;
    /// records those it marked. With a plain store if the task holds leave to (`plain`: read
    /// once a word visit, `deferred::Plain`) and no other task writes the word (`inner`: the
    /// value read is then the word's, until this task writes it); in one atomic step
    /// otherwise, where other tasks may mark slots of the word meanwhile.
    #[inline(always)]
    fn mark(&mut self, plain: bool, cell: &AtomicU64, v: usize, value: u64, unseen: u64) {
        let code = self.scan.codes.next;
        let marked = if plain && self.inner.contains(&v) {
            cell.store(value | (unseen * code), Relaxed);
            unseen
        } else {
            Table::mark_unseen(cell, unseen, code)
        };
        self.in_words.add_slots(v, marked, self.scan.record);
    }

    /// Marks with the next code the unseen slots `slots` of word `v`, read as `value` (the
    /// parts of a frontier row in a word beside the scanned one).
    #[inline(always)]
    fn mark_beside(&mut self, plain: bool, v: usize, value: u64, slots: u64) {
        let unseen = Table::matching(value, 0) & slots;
        if unseen != 0 {
            let cell = &self.scan.table.span(v, v + 1)[0];
            self.mark(plain, cell, v, value, unseen);
        }
    }

    /// Claims (or routes) the horizontal targets of the state at `index`, slot `j` of rank
    /// `rank`, and queues its vertical ones.
    #[inline(always)]
    fn state(&mut self, rank: u64, j: usize, index: u64) {
        let base = index - j as u64;
        let mut row = self.slides.row[j];
        while row != 0 {
            self.target(base + u64::from(row.trailing_zeros()));
            row &= row - 1;
        }
        if self.pending.add(rank, j) {
            self.flush();
        }
    }

    #[inline(always)]
    fn flush(&mut self) {
        let (mine, claims, remote) = (self.scan.mine, &mut self.claims, &mut self.remote);
        for (targets, _) in self.pending.flush(self.scan, self.slides) {
            if !SHARDED {
                claims.offer_all(&targets[..PER]);
                continue;
            }
            for &n in &targets[..PER] {
                if mine.holds(n) {
                    claims.offer(n);
                } else {
                    remote(n);
                }
            }
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

/// The words of `task` that only its push writes: a push marks the parts of its frontier's
/// rows in its words and in the word beside each end (`Push::mark_beside`), so its first and
/// last words may be marked by the tasks beside it too. Empty for a task of at most two words,
/// and for the empty task a listed layer's push is given.
fn inner_words(Task { lo, hi }: Task) -> std::ops::Range<usize> {
    (lo / 32 + 1) as usize..(hi.saturating_sub(1) / 32) as usize
}

/// The words before and after a scanned word, read once: its first and last rows may go on
/// in them (at the table's ends, the word itself, where no row goes on).
struct Beside {
    at: [usize; 2],
    words: [u64; 2],
}

impl Beside {
    /// The words beside word `w` of `table`, read whether the word's rows reach them or not:
    /// no branch on the word's phase, which changes from word to word.
    #[inline(always)]
    fn read(table: &Table, w: usize) -> Beside {
        let at = [w.saturating_sub(1), (w + 1).min(table.index_words() - 1)];
        Beside {
            at,
            words: at.map(|v| table.word(v)),
        }
    }

    /// Slot 0 if the part of the first row of a word of phase `p` in the word before has a
    /// slot set in `matching` of that word, and slot 31 if the part of its last row in the word
    /// after does (their stand-ins, for `RowMasks::spread`).
    #[inline(always)]
    fn stand_ins(&self, p: &Phase, matching: impl Fn(u64) -> u64) -> u64 {
        let back = matching(self.words[0]) & p.back;
        let ahead = matching(self.words[1]) & p.ahead;
        u64::from(back != 0) | u64::from(ahead != 0) << 62
    }
}

impl<const PER: usize, const SHARDED: bool, R: FnMut(u64)> Slots for Push<'_, '_, PER, SHARDED, R> {
    /// Any seen slot may hold the frontier's code (which a static test cannot know).
    #[inline(always)]
    fn busy(word: u64) -> bool {
        word != 0
    }

    /// Marks the unseen slots of the word's rows (of a rank) that hold a frontier state, in one
    /// atomic step, and those of the rows' parts in the words beside it; chooses the frontier
    /// states whose vertical slides are needed. Branches only where a word's phase decides
    /// (`row_masks`).
    #[inline(always)]
    fn select(&mut self, cell: &AtomicU64, w: usize, q: usize, word: u64, candidates: u64) -> u64 {
        let LayerScan { table, codes, .. } = *self.scan;
        let done = Table::matching(word, codes.done) & candidates;
        if SHARDED || done == 0 {
            // On a shard, each state's slides are routed by `states`.
            return done;
        }
        let masks = &self.slides.masks;
        let p = masks.phase(q);
        // The rows that may hold the layer being expanded (the others' states are older).
        let row0 = self.rows.map(|rows| (rows, rows.of(w as u64 * 32)));
        let current = match row0 {
            Some((rows, row0)) => masks.rows(p, rows.span(row0, p.rows)),
            None => LOW_BITS,
        };
        let frontier = done & current;
        if frontier == 0 {
            // Older layers' states only: nothing to expand. A spent row here keeps its bit for
            // now (a bit left set costs a re-expansion, never a wrong count).
            return 0;
        }
        let rows_out = RowMasks::spread(p, frontier);
        let unseen = rows_out & Table::matching(word, 0);
        let plain = self.claims.settles_plainly();
        if unseen != 0 {
            self.mark(plain, cell, w, word, unseen);
        }
        // The first and last rows' parts outside the word, where those rows hold frontier
        // states (their stand-ins: slots 0 and 31). Read after the word's own marks: at the
        // table's ends `Beside` is the word itself, but then no row goes on (no slot to mark).
        let beside = Beside::read(table, w);
        self.mark_beside(
            plain,
            beside.at[0],
            beside.words[0],
            p.back & (rows_out & 1).wrapping_neg(),
        );
        self.mark_beside(
            plain,
            beside.at[1],
            beside.words[1],
            p.ahead & (rows_out >> 62).wrapping_neg(),
        );
        if let Some((rows, row0)) = row0 {
            // Rows past the budget's have no bit to clear; nor do those of a word only partly
            // the task's (a bit left set costs a re-expansion, never a wrong count).
            if rows.keeps(row0) && candidates == LOW_BITS {
                self.clear_spent(rows, w, q, word, &beside, current);
            }
        }
        if codes.start {
            return frontier;
        }
        // A row with no state of the layer before: its frontier states were reached by
        // vertical slides from it, so their columns are seen (the module's doc).
        let before = |v: u64| Table::matching(v, codes.before);
        let before = RowMasks::spread(p, before(word) | beside.stand_ins(p, before));
        frontier & before
    }

    /// Queues the vertical slides of the frontier states `mask` (on a shard, routes their
    /// horizontal ones too).
    #[inline(always)]
    fn states(&mut self, split: &[(u8, u8); 64], rank0: u64, q: u64, start: u64, mask: u64) {
        if !SHARDED {
            if self.pending.add_word(rank0, q, mask) {
                self.flush();
            }
            return;
        }
        for (rank, j, index) in WordStates::new(split, rank0, q, start, mask) {
            self.state(rank, j, index);
        }
    }
}

/// A pull: marks the unseen states with a neighbour holding the frontier's code; on a shard,
/// those without one here have their neighbours in other shards appended to `queries`.
///
/// On one table, a word's states with a horizontal neighbour in the frontier are marked a word
/// at a time (`select`); on a shard, each state is tested one by one (`state`). A state found
/// here may also have asked (its vertical slides are tested a batch later): the answer then
/// finds it marked, and claims nothing twice.
struct Pull<'s, 'a, 'q, const PER: usize, const SHARDED: bool> {
    scan: &'s MultiScan<'a>,
    slides: &'s Slides,
    claims: Claims<'a>,
    pending: Pending<PER>,
    /// The states marked for a horizontal neighbour (`select`).
    in_words: Found,
    queries: &'q mut Vec<(u64, u64)>,
}

impl<const PER: usize, const SHARDED: bool> Pull<'_, '_, '_, PER, SHARDED> {
    /// Tests the unseen state at `index`, slot `j` of rank `rank`, on a shard: marked if a
    /// horizontal neighbour here is in the frontier, its vertical ones queued otherwise.
    #[inline(always)]
    fn state(&mut self, rank: u64, j: usize, index: u64) {
        let base = index - j as u64;
        let mut row = self.slides.row[j];
        let mut horizontal = [0u64; 32];
        let mut k = 0;
        while row != 0 {
            horizontal[k % 32] = base + u64::from(row.trailing_zeros());
            row &= row - 1;
            k += 1;
        }
        if ask(self.scan, &horizontal[..k], index, self.queries) {
            self.claims.push(index);
        } else if self.pending.add(rank, j) {
            self.flush();
        }
    }

    /// Flushes the batch, and marks the states of the one before with a vertical neighbour in
    /// the frontier.
    #[inline(always)]
    fn flush(&mut self) {
        let (scan, table, code) = (self.scan, self.scan.table, self.scan.codes.done);
        let (claims, queries) = (&mut self.claims, &mut *self.queries);
        for (targets, index) in self.pending.flush(scan, self.slides) {
            let targets = &targets[..PER];
            if !SHARDED {
                let found = targets.iter().any(|&n| table.get(n) == code);
                claims.buffer(*index, found);
            } else if ask(scan, targets, *index, queries) {
                claims.push(*index);
            }
        }
    }
}

/// Whether a neighbour (among `targets`) of the state at `index` in this shard holds the
/// frontier's code; if none does, those in other shards are appended to `queries`, to be
/// asked.
#[inline(always)]
fn ask(scan: &MultiScan, targets: &[u64], index: u64, queries: &mut Vec<(u64, u64)>) -> bool {
    let (table, mine, code) = (scan.table, scan.mine, scan.codes.done);
    let here = targets
        .iter()
        .any(|&n| mine.holds(n) && table.get(n) == code);
    if !here {
        let away = targets.iter().filter(|&&n| !mine.holds(n));
        queries.extend(away.map(|&n| (index, n)));
    }
    here
}

impl<const PER: usize, const SHARDED: bool> Slots for Pull<'_, '_, '_, PER, SHARDED> {
    #[inline(always)]
    fn busy(word: u64) -> bool {
        Table::matching(word, 0) != 0
    }

    /// Marks the unseen slots of the word's rows (of a rank) that hold a frontier state, here
    /// or in the words beside it, in one atomic step; the other unseen slots are tested for a
    /// vertical neighbour in the frontier (`states`). On a shard, chooses every unseen slot,
    /// for `state`.
    #[inline(always)]
    fn select(&mut self, cell: &AtomicU64, w: usize, q: usize, word: u64, candidates: u64) -> u64 {
        let LayerScan {
            table,
            codes,
            record,
            ..
        } = *self.scan;
        let unseen = Table::matching(word, 0) & candidates;
        if SHARDED {
            return unseen;
        }
        let p = self.slides.masks.phase(q);
        let frontier = |v: u64| Table::matching(v, codes.done);
        let beside = Beside::read(table, w);
        let found = unseen & RowMasks::spread(p, frontier(word) | beside.stand_ins(p, frontier));
        if found != 0 {
            let marked = Table::mark_unseen(cell, found, codes.next);
            self.in_words.add_slots(w, marked, record);
        }
        unseen & !found
    }

    #[inline(always)]
    fn states(&mut self, split: &[(u8, u8); 64], rank0: u64, q: u64, start: u64, mask: u64) {
        if !SHARDED {
            if self.pending.add_word(rank0, q, mask) {
                self.flush();
            }
            return;
        }
        for (rank, j, index) in WordStates::new(split, rank0, q, start, mask) {
            self.state(rank, j, index);
        }
    }
}

#[inline(always)]
fn push_in<const PER: usize, const SHARDED: bool>(
    scan: &MultiScan,
    task: Task,
    remote: impl FnMut(u64),
) -> Found {
    let mut push = Push::<PER, SHARDED, _>::new(scan, task, remote);
    scan.each_slot(task, &mut push);
    push.finish()
}

#[inline(always)]
fn pull_in<const PER: usize, const SHARDED: bool>(
    scan: &MultiScan,
    task: Task,
    queries: &mut Vec<(u64, u64)>,
) -> Found {
    let mut pull = Pull::<PER, SHARDED> {
        scan,
        slides: &scan.tables.slides,
        claims: Claims::coded(scan.table, scan.record, scan.codes.next),
        pending: Pending::new(scan.space),
        in_words: Found::default(),
        queries,
    };
    scan.each_slot(task, &mut pull);
    // The last states' neighbours, then the test of the batch before them.
    pull.flush();
    pull.flush();
    let mut found = pull.claims.finish();
    found.add(pull.in_words);
    found
}

#[inline(always)]
fn list_in<const PER: usize, const SHARDED: bool>(
    scan: &MultiScan,
    frontier: &[u64],
    remote: impl FnMut(u64),
) -> Found {
    // Listed states are the layer's: no row's bit is read, none cleared.
    let mut push = Push::<PER, SHARDED, _>::new(scan, Task { lo: 0, hi: 0 }, remote);
    let width = scan.space.width();
    for &i in frontier {
        push.state(i / width, (i % width) as usize, i);
    }
    push.finish()
}

bit_instructions! {
    /// Push in the multi-tile metric: marks with the next code every unseen neighbour of the
    /// states of `task` holding the frontier's code.
    pub fn push_multi[const PER: usize][PER](scan: &MultiScan, task: Task) -> Found {
        push_in::<PER, false>(scan, task, |_| {})
    }
}

bit_instructions! {
    /// Pull in the multi-tile metric: marks with the next code every unseen state of `task`
    /// with a neighbour holding the frontier's code (exact: see the module's doc).
    pub fn pull_multi[const PER: usize][PER](scan: &MultiScan, task: Task) -> Found {
        pull_in::<PER, false>(scan, task, &mut vec![])
    }
}

bit_instructions! {
    /// Expands the listed frontier states (ascending indices) in the multi-tile metric.
    pub fn list_multi[const PER: usize][PER](scan: &MultiScan, frontier: &[u64]) -> Found {
        list_in::<PER, false>(scan, frontier, |_| {})
    }
}

bit_instructions! {
    /// Push on a shard in the multi-tile metric: as `push_multi`, the targets outside the
    /// shard (`scan.mine`) appended to `remote` for their owners (who claim them with
    /// `claim_all_coded`).
    pub fn push_multi_shard[const PER: usize][PER](
        scan: &MultiScan,
        task: Task,
        remote: &mut Vec<u64>,
    ) -> Found {
        push_in::<PER, true>(scan, task, |n| remote.push(n))
    }
}

bit_instructions! {
    /// Pull on a shard in the multi-tile metric: as `pull_multi`; a state with no neighbour
    /// here in the frontier has its neighbours in other shards appended to `queries`, as
    /// (state, neighbour), to be asked.
    pub fn pull_multi_shard[const PER: usize][PER](
        scan: &MultiScan,
        task: Task,
        queries: &mut Vec<(u64, u64)>,
    ) -> Found {
        pull_in::<PER, true>(scan, task, queries)
    }
}

bit_instructions! {
    /// List expansion on a shard in the multi-tile metric: as `list_multi`, the targets
    /// outside the shard appended to `remote`.
    pub fn list_multi_shard[const PER: usize][PER](
        scan: &MultiScan,
        frontier: &[u64],
        remote: &mut Vec<u64>,
    ) -> Found {
        list_in::<PER, true>(scan, frontier, |n| remote.push(n))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A task's own words but its first and last, which the pushes of the tasks beside it
    /// mark (a row of at most 8 slots reaches one word past a scanned one, no further:
    /// `Slides::new` takes at most 8 columns).
    #[test]
    fn only_a_tasks_inner_words_are_its_alone() {
        let inner = |lo, hi| inner_words(Task { lo, hi });
        assert_eq!(inner(64, 192), 3..5, "words 2 to 5");
        assert_eq!(inner(0, 1024), 1..31, "words 0 to 31");
        assert_eq!(inner(64, 191), 3..5, "a last word in part");
        assert!(inner(64, 128).is_empty(), "two words");
        assert!(inner(0, 0).is_empty(), "a listed layer's");
    }
}

//! Push: settle the frontier and claim its unseen neighbours.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use crate::bfs::bits::bit_instructions;
use crate::bfs::layer::claims::Claims;
use crate::bfs::layer::scan::{holds_frontier, Found, LayerScan, SingleScan, Slots};
use crate::bfs::layer::single::verticals::Verticals;
use crate::bfs::layer::single::words::WordSlides;
use crate::bfs::schedule::Task;
use crate::bfs::shard::Mine;
use crate::bfs::table::{Table, FRONTIER, LOW_BITS};

/// A push: settles frontier states and claims their unseen neighbours; on a shard, the
/// neighbours outside it (`scan.mine`) go to `remote` instead, for their owners to claim.
pub(in crate::bfs::layer) struct Push<'s, 'a, const COLS: usize, const SHARDED: bool, R: FnMut(u64)>
{
    scan: &'s SingleScan<'a>,
    claims: Claims<'a>,
    /// States with both vertical moves (every state, on more than three columns), and those
    /// with one (`WordPlaces::pairs`).
    batch: Verticals<2>,
    pub(in crate::bfs::layer) singles: Verticals<1>,
    /// The slides inside a word, claimed with the word's settling.
    in_words: Found,
    remote: R,
}

impl<'s, 'a, const COLS: usize, const SHARDED: bool, R: FnMut(u64)> Push<'s, 'a, COLS, SHARDED, R> {
    pub(in crate::bfs::layer) fn new(scan: &'s SingleScan<'a>, remote: R) -> Self {
        Push {
            scan,
            claims: Claims::new(scan.table, scan.record).settling_plainly(scan.defer),
            batch: Verticals::new(),
            singles: Verticals::new(),
            in_words: Found::default(),
            remote,
        }
    }

    /// Claims `n` here, or sends it to its owner. On a shard, most targets are local (a
    /// horizontal move nearly always is): this branch is predicted; on one machine it is
    /// compiled away.
    #[inline(always)]
    pub(in crate::bfs::layer) fn target(&mut self, n: u64) {
        Self::route(self.scan.mine, &mut self.claims, &mut self.remote, n);
    }

    /// `target`, from the parts of a push it uses.
    #[inline(always)]
    fn route(mine: Mine, claims: &mut Claims, remote: &mut R, n: u64) {
        if !SHARDED || mine.holds(n) {
            claims.offer(n);
        } else {
            remote(n);
        }
    }

    /// Queues the vertical moves of state (`rank`, slot `j`).
    #[inline(always)]
    pub(in crate::bfs::layer) fn vertical(&mut self, rank: u64, j: usize) {
        if self.batch.add(rank, j) {
            self.flush(false);
        }
    }

    /// Computes the vertical targets of a batch (the states with one vertical move, if
    /// `singles`) and claims (or sends) those of the batch before.
    #[inline(always)]
    pub(in crate::bfs::layer) fn flush(&mut self, singles: bool) {
        let LayerScan {
            space,
            places,
            table,
            ..
        } = *self.scan;
        let targets = if singles {
            self.singles.flush(space, places, table).as_flattened()
        } else {
            self.batch
                .flush::<COLS>(space, places, table)
                .as_flattened()
        };
        Self::offer(self.scan.mine, &mut self.claims, &mut self.remote, targets);
    }

    /// Claims (or sends) a batch's `targets`.
    #[inline(always)]
    pub(in crate::bfs::layer) fn offer(
        mine: Mine,
        claims: &mut Claims,
        remote: &mut R,
        targets: &[u64],
    ) {
        if SHARDED {
            for &n in targets {
                Self::route(mine, claims, remote, n);
            }
        } else {
            claims.offer_all(targets);
        }
    }

    pub(in crate::bfs::layer) fn finish(mut self) -> Found {
        // The last states' targets, then the batch before them.
        for singles in [false, false, true, true] {
            self.flush(singles);
        }
        let mut found = self.claims.finish();
        found.add(self.in_words);
        found
    }
}

impl<const COLS: usize, const SHARDED: bool, R: FnMut(u64)> Slots
    for Push<'_, '_, COLS, SHARDED, R>
{
    #[inline(always)]
    fn busy(word: u64) -> bool {
        holds_frontier(word)
    }

    /// Settles the frontier's slots of the word and marks the unseen targets of the slides
    /// inside it, in one atomic step (only this task reads the frontier's slots, and claims
    /// write the other colour), or one plain store while no claim is made (`deferred::Plain`);
    /// claims the slides that leave the word.
    #[inline(always)]
    fn select(&mut self, cell: &AtomicU64, w: usize, q: usize, word: u64, candidates: u64) -> u64 {
        let LayerScan {
            places,
            codes,
            record,
            ..
        } = *self.scan;
        let frontier = Table::matching(word, FRONTIER) & candidates;
        if frontier == 0 {
            return 0;
        }
        let slides = places.slides[q % 32];
        let targets = (frontier & slides.right) << 2 | (frontier & slides.left) >> 2;
        let marks = if self.claims.settles_plainly() {
            let (settled, marks) = Table::settled_and_marked(word, frontier, codes.done, targets);
            cell.store(settled, Relaxed);
            marks
        } else {
            Table::settle_and_mark(cell, word, frontier, codes.done, targets)
        };
        self.in_words.add_slots(w, marks, record);
        if frontier & slides.right_out != 0 {
            self.target(w as u64 * 32 + 32);
        }
        if frontier & slides.left_out != 0 {
            self.target(w as u64 * 32 - 1);
        }
        if codes.start {
            return frontier;
        }
        frontier & !reached_by_its_vertical(word, slides, places.ends[q % 32])
    }

    #[inline(always)]
    fn states(&mut self, _: &[(u8, u8); 64], rank0: u64, q: u64, _: u64, mask: u64) {
        if COLS != 3 {
            if self.batch.add_word(rank0, q, mask) {
                self.flush(false);
            }
            return;
        }
        let pairs = mask & self.scan.places.pairs[(q % 32) as usize];
        if self.batch.add_word(rank0, q, pairs) {
            self.flush(false);
        }
        if self.singles.add_word(rank0, q, mask ^ pairs) {
            self.flush(true);
        }
    }
}

/// The slots of a word (read as `word`, its slides `slides`) of a layer d ≥ 1 in a top or
/// bottom row (`ends`) whose one vertical move is the only way back to layer d-1: no horizontal
/// neighbour is settled. A neighbour of a state at depth d is at d-1 or d+1 (every move flips
/// the blank's colour), and while layer d is pushed the settled states of the other colour are
/// those of d-1 and before (a pull leaves d-1 holding `FRONTIER`, but the driver settles it
/// before a push). Such a state was reached by its vertical move, whose target is then
/// settled: offering it is wasted work. A neighbour in another word is not read, and counts as
/// settled.
#[inline(always)]
fn reached_by_its_vertical(word: u64, slides: WordSlides, ends: u64) -> u64 {
    let settled = (word >> 1) & LOW_BITS;
    let beside = (settled >> 2 & slides.right) | (settled << 2 & slides.left);
    ends & !(beside | slides.right_out | slides.left_out)
}

bit_instructions! {
    /// Push: finds the frontier states of `lo..hi`: those holding `FRONTIER` whose blank has
    /// colour `colour`. Settles them and marks their unseen neighbours `FRONTIER`.
    pub fn expand_scan[const COLS: usize][COLS](scan: &SingleScan, task: Task) -> Found {
        push_scan::<COLS, false>(scan, task, |_| {})
    }
}

bit_instructions! {
    /// Push on a shard: as `expand_scan`, but the neighbours outside the shard (`scan.mine`)
    /// are appended to `remote` instead, for their owners to claim.
    pub fn expand_shard[const COLS: usize][COLS](
        scan: &SingleScan,
        task: Task,
        remote: &mut Vec<u64>,
    ) -> Found {
        push_scan::<COLS, true>(scan, task, |n| remote.push(n))
    }
}

#[inline(always)]
fn push_scan<const COLS: usize, const SHARDED: bool>(
    scan: &SingleScan,
    task: Task,
    remote: impl FnMut(u64),
) -> Found {
    let mut push = Push::<COLS, SHARDED, _>::new(scan, remote);
    scan.each_slot(task, &mut push);
    push.finish()
}

/// Claims `indices` (targets other shards sent to this one): the states newly marked.
pub fn claim_all(table: &Table, indices: &[u64], record: bool) -> Found {
    claim_all_coded(table, indices, record, crate::bfs::table::FRONTIER)
}

/// `claim_all` writing `code` (the next layer's, in the multi-tile metric).
pub fn claim_all_coded(table: &Table, indices: &[u64], record: bool, code: u64) -> Found {
    let mut claims = Claims::coded(table, record, code);
    for &n in indices {
        claims.offer(n);
    }
    claims.finish()
}

//! Pull: mark the unseen states of the next colour that have a neighbour in the frontier.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use crate::bfs::bits::bit_instructions;
use crate::bfs::layer::claims::Claims;
use crate::bfs::layer::scan::{pull_busy, pull_select, Found, LayerScan, SingleScan, Slots};
use crate::bfs::layer::single::neighbours::neighbours;
use crate::bfs::layer::single::verticals::Verticals;
use crate::bfs::schedule::Task;
use crate::bfs::table::FRONTIER;
use crate::index::rank::Cursor;

/// A pull: marks the unseen states of its colour with a neighbour in the frontier; on a shard,
/// those without one here have their neighbours in other shards appended to `queries`.
struct Pull<'s, 'a, 'q, const COLS: usize, const SHARDED: bool> {
    scan: &'s SingleScan<'a>,
    claims: Claims<'a>,
    /// The states tested a batch at a time (on one machine; a shard's are tested one by one).
    batch: Verticals<5>,
    cursor: Cursor,
    queries: &'q mut Vec<(u64, u64)>,
}

impl<const COLS: usize, const SHARDED: bool> Slots for Pull<'_, '_, '_, COLS, SHARDED> {
    #[inline(always)]
    fn busy(word: u64) -> bool {
        pull_busy(word)
    }

    #[inline(always)]
    fn select(&mut self, _: &AtomicU64, w: usize, _: usize, word: u64, candidates: u64) -> u64 {
        let (table, before) = (self.scan.table, self.scan.codes.before);
        pull_select(table, w, word, candidates, before)
    }

    #[inline(always)]
    fn states(&mut self, split: &[(u8, u8); 64], rank0: u64, q: u64, start: u64, mut mask: u64) {
        if !SHARDED {
            if self.batch.add_word(rank0, q, mask) {
                self.flush();
            }
            return;
        }
        while mask != 0 {
            let s = u64::from(mask.trailing_zeros() / 2);
            mask &= mask - 1;
            let (carry, j) = split[((q + s) % 64) as usize];
            self.state(rank0 + u64::from(carry), usize::from(j), start + s);
        }
    }
}

impl<const COLS: usize, const SHARDED: bool> Pull<'_, '_, '_, COLS, SHARDED> {
    /// Computes the neighbours of the batch's states, and marks those of the batch before with
    /// a neighbour in the frontier: the test of the four does not branch, and a state found is
    /// buffered without a branch either (whether a state has a neighbour in the frontier is a
    /// coin toss to the branch predictor).
    #[inline(always)]
    pub(in crate::bfs::layer) fn flush(&mut self) {
        let LayerScan {
            space,
            places,
            table,
            ..
        } = *self.scan;
        let words = table.span(0, table.index_words());
        let frontier =
            |n: u64| (words[(n / 32) as usize].load(Relaxed) >> (2 * (n % 32))) & 3 == FRONTIER;
        for &[left, right, up, down, index] in self.batch.flush::<COLS>(space, places, table) {
            let found = frontier(left) | frontier(right) | frontier(up) | frontier(down);
            self.claims.buffer(index, found);
        }
    }

    /// Tests the unseen state at `index`, slot `j` of rank `rank`: marked if a neighbour is in
    /// the frontier.
    #[inline(always)]
    fn state(&mut self, rank: u64, j: usize, index: u64) {
        let LayerScan {
            space,
            tables: moves,
            table,
            mine,
            ..
        } = *self.scan;
        let blank = usize::from(space.blanks()[j]);
        space
            .indexer()
            .seek_digits(&mut self.cursor, rank, space.parity()[blank]);
        let base = rank * space.width();
        let targets = neighbours::<COLS>(space, &moves[blank], &self.cursor, base, rank);
        // On one machine every target is here: the test is compiled away.
        let here = |n: u64| !SHARDED || mine.holds(n);
        if targets.iter().any(|&n| here(n) && table.get(n) == FRONTIER) {
            self.claims.push(index);
        } else if SHARDED {
            self.queries
                .extend(targets.iter().filter(|&&n| !here(n)).map(|&n| (index, n)));
        }
    }
}

bit_instructions! {
    /// Pull: marks `FRONTIER` every unseen state of `lo..hi` whose blank has
    /// colour `colour` and which has a neighbour in the frontier (holding `FRONTIER`, the other
    /// colour). This is exact: an unseen state is at depth d+1 or more, so its neighbours are at
    /// depth d or more, and the states of that colour holding `FRONTIER` are layer d.
    ///
    /// The frontier is read by every task, so it is not settled here but by the next layer. This
    /// layer settles its own colour's previous frontier (layer d-1, left by a pull) before it marks
    /// anything: each task writes only its own slots.
    pub fn expand_pull[const COLS: usize][COLS](scan: &SingleScan, task: Task) -> Found {
        pull_in::<COLS, false>(scan, task, &mut vec![])
    }
}

bit_instructions! {
    /// Pull on a shard: as `expand_pull`, but a state none of whose neighbours in the shard
    /// (`scan.mine`) is in the frontier has its neighbours in other shards appended to
    /// `queries`, as (state, neighbour) pairs, for their owners to say whether they are in the
    /// frontier.
    pub fn pull_shard[const COLS: usize][COLS](
        scan: &SingleScan,
        task: Task,
        queries: &mut Vec<(u64, u64)>,
    ) -> Found {
        pull_in::<COLS, true>(scan, task, queries)
    }
}

#[inline(always)]
fn pull_in<const COLS: usize, const SHARDED: bool>(
    scan: &SingleScan,
    task: Task,
    queries: &mut Vec<(u64, u64)>,
) -> Found {
    // Each state is claimed by the one task that owns it, so `visit` always wins here.
    let mut pull = Pull::<COLS, SHARDED> {
        scan,
        claims: Claims::new(scan.table, scan.record),
        batch: Verticals::new(),
        cursor: Cursor::new(),
        queries,
    };
    scan.each_slot(task, &mut pull);
    // The last states' neighbours, then the test of the batch before them.
    pull.flush();
    pull.flush();
    pull.claims.finish()
}

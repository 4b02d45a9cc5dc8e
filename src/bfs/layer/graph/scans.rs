//! The scans of a puzzle on a graph: push, pull and list over each blank's moves along its
//! edges, on one table and on a shard.
//!
//! A state is (blank vertex, the tiles on the other vertices in vertex order), as on a board
//! (`index::space`). The blank's move from v to u carries the tile on u past the |u-v|-1 tiles
//! between them in the sequence: the window of entries from min(u, v) turns by one, as a
//! vertical move on a board turns C entries, and the new rank follows from the window's Lehmer
//! digits alone (`turn_delta`). A move along an edge of consecutive vertices keeps the rank (a
//! board's horizontal move), so an order of small bandwidth keeps most targets near.
//!
//! The table's codes are the single-tile metric's: every move flips the parity of the whole
//! configuration (`StateSpace::colours`), so the layers alternate it, as a board's alternate
//! the blank's colour. A batch of states computes its targets and prefetches their words; they
//! are claimed (or tested, by a pull) while the next batch is computed.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use super::tables::{GraphScan, Slotted, MAX_DEGREE};
use crate::bfs::bits::bit_instructions;
use crate::bfs::layer::batch::Batch;
use crate::bfs::layer::claims::{Claims, OFFER_MOST};
use crate::bfs::layer::scan::{holds_frontier, pull_busy, pull_select, Found, LayerScan, Slots};
use crate::bfs::schedule::Task;
use crate::bfs::table::{Table, FRONTIER};
use crate::index::rank::Cursor;

// A state's targets are offered at once (`Claims::offer_all`).
const _: () = assert!(MAX_DEGREE <= OFFER_MOST);

/// What a batch computes for a state: its targets (the first `count`), their words prefetched,
/// and its index.
#[derive(Clone, Copy)]
struct Targets {
    to: [u64; MAX_DEGREE],
    count: usize,
    index: u64,
}

impl Targets {
    /// The targets computed.
    #[inline(always)]
    fn all(&self) -> &[u64] {
        &self.to[..self.count]
    }
}

/// A graph scan's batch (`Batch`) of states, and the cursor that computes their targets.
struct GraphBatch {
    batch: Batch<Slotted, Targets>,
    cursor: Cursor,
    /// A push's: the moves that keep the rank inside a word are marked by `in_word`.
    in_word: bool,
}

impl GraphBatch {
    fn new(in_word: bool) -> GraphBatch {
        let none = Targets {
            to: [0; MAX_DEGREE],
            count: 0,
            index: 0,
        };
        GraphBatch {
            batch: Batch::new(
                Slotted {
                    rank: 0,
                    j: 0,
                    index: 0,
                },
                none,
            ),
            cursor: Cursor::new(),
            in_word,
        }
    }

    /// Queues state (`rank`, slot `j`) at `index`; true if the batch is full.
    #[inline(always)]
    fn add(&mut self, rank: u64, j: usize, index: u64) -> bool {
        self.batch.add(Slotted { rank, j, index })
    }

    /// Queues the states of the slots `mask` of a word (as `scan::Slots::states` gives them);
    /// true if the batch is full.
    #[inline(always)]
    fn add_word(
        &mut self,
        split: &[(u8, u8); 64],
        rank0: u64,
        q: u64,
        start: u64,
        mut mask: u64,
    ) -> bool {
        let mut full = false;
        while mask != 0 {
            let s = u64::from(mask.trailing_zeros() / 2);
            mask &= mask - 1;
            let (carry, j) = split[((q + s) % 64) as usize];
            full = self.add(rank0 + u64::from(carry), usize::from(j), start + s);
        }
        full
    }

    /// Computes the targets of the states waiting, prefetching their words; returns the batch
    /// before's.
    #[inline(always)]
    fn flush(&mut self, scan: &GraphScan) -> &[Targets] {
        let (space, tables, in_word) = (scan.space, scan.tables, self.in_word);
        let words = scan.table.span(0, scan.table.index_words());
        let seeker = space.indexer().seeker();
        let cursor = &mut self.cursor;
        self.batch.flush(
            #[inline(always)]
            |state, out| {
                let made = tables.targets(space, &seeker, cursor, state, &mut out.to, in_word);
                for &n in &out.to[..made] {
                    Table::prefetch_in(words, n);
                }
                out.count = made;
                out.index = state.index;
            },
        )
    }
}

/// A push: settles the frontier's states and claims their unseen neighbours; on a shard, the
/// neighbours outside it go to `remote`.
struct Push<'s, 'a, const SHARDED: bool, R: FnMut(u64)> {
    scan: &'s GraphScan<'a>,
    claims: Claims<'a>,
    batch: GraphBatch,
    /// The targets inside the frontier's words, marked with their settling (`select`).
    in_words: Found,
    remote: R,
}

impl<'s, 'a, const SHARDED: bool, R: FnMut(u64)> Push<'s, 'a, SHARDED, R> {
    /// A push over the table's words (`in_word`: the moves that keep the rank marked a word at
    /// a time), or over a list.
    fn new(scan: &'s GraphScan<'a>, in_word: bool, remote: R) -> Self {
        Push {
            scan,
            claims: Claims::new(scan.table, scan.record),
            batch: GraphBatch::new(in_word),
            in_words: Found::default(),
            remote,
        }
    }

    /// Computes a batch's targets, and claims (or sends) those of the batch before.
    #[inline(always)]
    fn flush(&mut self) {
        let mine = self.scan.mine;
        for state in self.batch.flush(self.scan) {
            if !SHARDED {
                self.claims.offer_all(state.all());
                continue;
            }
            for &n in state.all() {
                if mine.holds(n) {
                    self.claims.offer(n);
                } else {
                    (self.remote)(n);
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

impl<const SHARDED: bool, R: FnMut(u64)> Slots for Push<'_, '_, SHARDED, R> {
    #[inline(always)]
    fn busy(word: u64) -> bool {
        holds_frontier(word)
    }

    /// Settles the frontier's slots of the word and marks the unseen targets inside it of
    /// the moves that keep the rank, in one atomic step (only this task reads the frontier's
    /// slots, and claims write the other colour).
    #[inline(always)]
    fn select(&mut self, cell: &AtomicU64, w: usize, q: usize, word: u64, candidates: u64) -> u64 {
        let LayerScan {
            tables,
            codes,
            record,
            ..
        } = *self.scan;
        let frontier = Table::matching(word, FRONTIER) & candidates;
        if frontier != 0 {
            let targets = tables.in_word(q, frontier);
            let marks = Table::settle_and_mark(cell, word, frontier, codes.done, targets);
            self.in_words.add_slots(w, marks, record);
        }
        frontier
    }

    #[inline(always)]
    fn states(&mut self, split: &[(u8, u8); 64], rank0: u64, q: u64, start: u64, mask: u64) {
        if self.batch.add_word(split, rank0, q, start, mask) {
            self.flush();
        }
    }
}

/// A pull: marks the unseen states of its colour with a neighbour in the frontier; on a
/// shard, those without one here have their neighbours in other shards appended to `queries`.
struct Pull<'s, 'a, 'q, const SHARDED: bool> {
    scan: &'s GraphScan<'a>,
    claims: Claims<'a>,
    batch: GraphBatch,
    queries: &'q mut Vec<(u64, u64)>,
}

impl<const SHARDED: bool> Pull<'_, '_, '_, SHARDED> {
    /// Computes a batch's neighbours, and marks the states of the batch before with one in
    /// the frontier (on a shard, or queries their neighbours elsewhere).
    #[inline(always)]
    fn flush(&mut self) {
        let (table, mine) = (self.scan.table, self.scan.mine);
        let words = table.span(0, table.index_words());
        let frontier =
            |n: u64| (words[(n / 32) as usize].load(Relaxed) >> (2 * (n % 32))) & 3 == FRONTIER;
        for state in self.batch.flush(self.scan) {
            let (targets, index) = (state.all(), state.index);
            if !SHARDED {
                let found = targets.iter().fold(false, |f, &n| f | frontier(n));
                self.claims.buffer(index, found);
                continue;
            }
            if targets
                .iter()
                .any(|&n| mine.holds(n) && table.get(n) == FRONTIER)
            {
                self.claims.push(index);
            } else {
                let away = targets.iter().filter(|&&n| !mine.holds(n));
                self.queries.extend(away.map(|&n| (index, n)));
            }
        }
    }
}

impl<const SHARDED: bool> Slots for Pull<'_, '_, '_, SHARDED> {
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
    fn states(&mut self, split: &[(u8, u8); 64], rank0: u64, q: u64, start: u64, mask: u64) {
        if self.batch.add_word(split, rank0, q, start, mask) {
            self.flush();
        }
    }
}

#[inline(always)]
fn push_in<const SHARDED: bool>(scan: &GraphScan, task: Task, remote: impl FnMut(u64)) -> Found {
    let mut push = Push::<SHARDED, _>::new(scan, true, remote);
    scan.each_slot(task, &mut push);
    push.finish()
}

#[inline(always)]
fn pull_in<const SHARDED: bool>(
    scan: &GraphScan,
    task: Task,
    queries: &mut Vec<(u64, u64)>,
) -> Found {
    let mut pull = Pull::<SHARDED> {
        scan,
        claims: Claims::new(scan.table, scan.record),
        batch: GraphBatch::new(false),
        queries,
    };
    scan.each_slot(task, &mut pull);
    // The last states' neighbours, then the test of the batch before them.
    pull.flush();
    pull.flush();
    pull.claims.finish()
}

#[inline(always)]
fn list_in<const SHARDED: bool>(
    scan: &GraphScan,
    frontier: &[u64],
    remote: impl FnMut(u64),
) -> Found {
    let mut push = Push::<SHARDED, _>::new(scan, false, remote);
    let width = scan.space.width();
    for &i in frontier {
        if push.batch.add(i / width, (i % width) as usize, i) {
            push.flush();
        }
        scan.table
            .settle((i / 32) as usize, 1 << (2 * (i % 32)), scan.codes.done);
    }
    push.finish()
}

bit_instructions! {
    /// Push on a graph: settles the frontier states of `task` (holding `FRONTIER`, of the
    /// scan's colour) and marks their unseen neighbours `FRONTIER`.
    pub fn push_graph[][](scan: &GraphScan, task: Task) -> Found {
        push_in::<false>(scan, task, |_| {})
    }
}

bit_instructions! {
    /// Pull on a graph: marks `FRONTIER` every unseen state of `task` of the scan's colour with
    /// a neighbour in the frontier (exact, as a board's: `layer::single::pull`).
    pub fn pull_graph[][](scan: &GraphScan, task: Task) -> Found {
        pull_in::<false>(scan, task, &mut vec![])
    }
}

bit_instructions! {
    /// Expands the listed frontier states (ascending indices) on a graph.
    pub fn list_graph[][](scan: &GraphScan, frontier: &[u64]) -> Found {
        list_in::<false>(scan, frontier, |_| {})
    }
}

bit_instructions! {
    /// Push on a shard of a graph's table: the neighbours outside it go to `remote`.
    pub fn push_graph_shard[][](scan: &GraphScan, task: Task, remote: &mut Vec<u64>) -> Found {
        push_in::<true>(scan, task, |n| remote.push(n))
    }
}

bit_instructions! {
    /// Pull on a shard of a graph's table: (state, neighbour) queries for other shards.
    pub fn pull_graph_shard[][](
        scan: &GraphScan,
        task: Task,
        queries: &mut Vec<(u64, u64)>,
    ) -> Found {
        pull_in::<true>(scan, task, queries)
    }
}

bit_instructions! {
    /// List expansion on a shard of a graph's table.
    pub fn list_graph_shard[][](
        scan: &GraphScan,
        frontier: &[u64],
        remote: &mut Vec<u64>,
    ) -> Found {
        list_in::<true>(scan, frontier, |n| remote.push(n))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bfs::layer::graph::GraphTables;
    use crate::graph::spec::NamedGraph;
    use crate::index::puzzle::Puzzle;
    use crate::index::space::StateSpace;
    use crate::puzzle::board::Board;

    /// The targets of every state of small graphs' spaces equal ranking the configuration
    /// after each move from scratch (the tile on a neighbour of the blank swapped with it).
    #[test]
    fn graph_targets_match_direct_ranking() {
        for spec in [
            "cycle:5",
            "theta0",
            "complete:5",
            "petersen",
            "torus:3x3",
            "grid:2x4",
            "complete:3,4",
            "path:4",
            "complete:4",
            // Turns of 6, 7 and 8 entries.
            "complete:8",
            "torus:3x4",
            "cycle:10",
        ] {
            let graph = NamedGraph::parse(spec).unwrap().graph;
            let n = graph.vertices();
            let classes: &[u8] = if graph.is_bipartite() { &[0, 1] } else { &[0] };
            for &class in classes {
                for goal in [0, n - 1] {
                    let space = StateSpace::new(
                        &Puzzle::graph(graph.clone(), goal, crate::puzzle::metric::Metric::Single)
                            .unwrap(),
                        class,
                    )
                    .unwrap();
                    let tables = GraphTables::new(&space);
                    let (seeker, mut cursor) = (space.indexer().seeker(), Cursor::new());
                    let step = (space.states() / 3000).max(1);
                    for index in (0..space.states()).step_by(step as usize) {
                        let board = space.board(index);
                        assert_eq!(space.index(&board), Some(index), "{spec} {board}");
                        let (blank, rank) = space.split(index);
                        let v = space.vertex(blank);
                        let mut want: Vec<u64> = graph
                            .neighbours(v)
                            .map(|u| {
                                let mut cells = board.cells().to_vec();
                                cells.swap(u, v);
                                let moved = Board::new(board.shape(), cells).unwrap();
                                space.index(&moved).expect("a move stays in the class")
                            })
                            .collect();
                        let mut out = [0u64; MAX_DEGREE];
                        let j = (index % space.width()) as usize;
                        let state = Slotted { rank, j, index };
                        let k =
                            tables.targets(&space, &seeker, &mut cursor, state, &mut out, false);
                        // Stand-ins lead back to the state itself.
                        let mut got: Vec<u64> =
                            out[..k].iter().copied().filter(|&t| t != index).collect();
                        want.sort_unstable();
                        got.sort_unstable();
                        assert_eq!(got, want, "{spec} class {class} goal {goal} {board}");
                        // A push's: the targets inside the word marked by the word, the others
                        // computed.
                        let (w, q) = (index / 32, (index / 32 * 32 % space.width()) as usize);
                        let mut marked = tables.in_word(q, 1 << (2 * (index % 32)));
                        let mut pushed = vec![];
                        while marked != 0 {
                            pushed.push(w * 32 + u64::from(marked.trailing_zeros() / 2));
                            marked &= marked - 1;
                        }
                        let k = tables.targets(&space, &seeker, &mut cursor, state, &mut out, true);
                        pushed.extend(out[..k].iter().copied().filter(|&t| t != index));
                        pushed.sort_unstable();
                        assert_eq!(pushed, want, "{spec} class {class} goal {goal} {board}");
                        // Every move flips the colour.
                        for &t in &got {
                            assert_ne!(space.colour(space.split(t).0), space.colour(blank));
                        }
                    }
                }
            }
        }
    }
}

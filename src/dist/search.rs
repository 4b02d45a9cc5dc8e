//! One BFS over the ranks of a group, each holding a shard of the table (see `dist`).

use std::time::Instant;

use rayon::prelude::*;

use super::timed::Timed;
use super::Group;
use crate::bfs::layer::{self, claim_all, Codes, Found, LayerScan};
use crate::bfs::policy::{self, Scan, Way};
use crate::bfs::shard::Partition;
use crate::bfs::table::{Table, FRONTIER};
use crate::bfs::Task;
use crate::bfs::{
    settle, shard_expander, shard_lister, shard_puller, Busy, ColourCounts, LayerDone, Schedule,
};
use crate::error::Error;
use crate::index::space::StateSpace;

/// How many cross-shard targets a rank buffers before an exchange.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Targets (8 bytes each) buffered per round: the send buffer, and about as much received.
    pub indices: usize,
}

impl Default for Budget {
    /// 2^23 targets: 64 MB sent and about as much received per round.
    fn default() -> Self {
        Budget { indices: 1 << 23 }
    }
}

impl Budget {
    /// Bytes of working memory a rank needs for its buffers (sent and received, with slack).
    pub fn bytes(&self) -> u64 {
        3 * 8 * self.indices as u64
    }
}

/// The outcome of a sharded search, the same on every rank except for `table`.
#[derive(Debug)]
pub struct ShardedSearch {
    /// States per depth from the start, over all ranks.
    pub layers: Vec<u64>,
    /// Indices of the states at the maximum depth, over all shards, ascending.
    pub antipodes: Vec<u64>,
    /// States marked in all shards' tables, counted from the tables (not from the layers).
    pub seen: u64,
    /// Wall time of the search.
    pub seconds: f64,
    /// Threads over all ranks.
    pub threads: usize,
    /// Bytes of all shards' tables.
    pub table_bytes: u64,
    /// How the index is dealt to the ranks.
    pub partition: Partition,
    /// This rank's shard, finished: every state settled with its depth mod 4.
    pub table: Table,
}

/// A rank's state at a layer boundary: what a checkpoint saves to go on exactly from there.
#[derive(Debug)]
pub struct ShardState {
    /// States per depth so far (global counts).
    pub layers: Vec<u64>,
    /// This shard's part of the frontier, if the frontier was recorded (on every rank or none).
    pub frontier: Option<Vec<u64>>,
    /// The layers are pulled (from now on).
    pub pulling: bool,
    /// The last layer was pulled, so the one before it still holds `FRONTIER`.
    pub unsettled: bool,
    /// This rank's shard.
    pub table: Table,
}

/// Called on every rank at every layer boundary but the last, with this rank's state;
/// `Ok(true)` stops the search there. It may use the group (every rank calls it at the same
/// point).
pub type ShardHook<'a> = &'a dyn Fn(&ShardState) -> Result<bool, Error>;

/// The caller's side of a sharded search.
#[derive(Clone, Copy)]
pub struct ShardDriver<'a> {
    /// How layers are built, as in a search on one process.
    pub schedule: Schedule,
    /// How much may be in flight between ranks at once.
    pub budget: Budget,
    /// Called on every rank after each layer, with the global counts.
    pub progress: &'a (dyn Fn(LayerDone) + Sync),
    /// Called at each layer boundary (checkpoints, stopping).
    pub hook: Option<ShardHook<'a>>,
}

/// How a sharded search with a hook ended.
#[derive(Debug)]
pub enum ShardOutcome {
    /// The search reached its last layer.
    Done(ShardedSearch),
    /// The hook asked to stop after this depth.
    Stopped {
        /// The last depth completed.
        depth: u32,
    },
}

/// The BFS from `start` over the ranks of `group`, this rank holding its shard of the table.
/// Every rank of the group must call it with the same arguments.
pub fn search_sharded(
    space: &StateSpace,
    start: u64,
    group: &dyn Group,
    schedule: Schedule,
    budget: Budget,
    progress: &(dyn Fn(LayerDone) + Sync),
) -> Result<ShardedSearch, Error> {
    let driver = ShardDriver {
        schedule,
        budget,
        progress,
        hook: None,
    };
    match search_sharded_with(space, start, group, driver, None)? {
        ShardOutcome::Done(s) => Ok(s),
        ShardOutcome::Stopped { .. } => unreachable!("without a hook a search never stops"),
    }
}

/// `search_sharded` with a hook at layer boundaries, continuing from `resume` (this rank's
/// state, as a checkpoint saved it) if given.
pub fn search_sharded_with(
    space: &StateSpace,
    start: u64,
    group: &dyn Group,
    driver: ShardDriver,
    resume: Option<ShardState>,
) -> Result<ShardOutcome, Error> {
    let clock = Instant::now();
    let timed = Timed::new(group);
    let group: &dyn Group = &timed;
    let (schedule, budget) = (driver.schedule, driver.budget);
    let partition = Partition::new(space, group.size());
    let spans = partition.spans(group.rank());
    let mut state = match resume {
        Some(state) => state,
        None => {
            let begun = ShardState::begin(space, start, &partition, group.rank());
            super::agreed(group, "mapping its table", begun)?
        }
    };
    let moves = layer::moves(space);
    let places = layer::WordPlaces::new(space);
    let start_colour = space.shape.colour(space.split(start).0);
    let mut colours = ColourCounts::new(space, start_colour, &state.layers);
    (driver.progress)(LayerDone {
        depth: state.layers.len() as u32 - 1,
        states: *state.layers.last().expect("a layer"),
        seen: colours.seen(),
        way: None,
        seconds: 0.0,
        busy: None,
    });
    loop {
        let layer_clock = Instant::now();
        let waited = timed.waited();
        let depth = state.layers.len() as u32 - 1;
        let colour = start_colour ^ (depth as usize & 1);
        let unseen = colours.unseen(colour ^ 1);
        if unseen == 0 {
            break;
        }
        let frontier = state.layers[depth as usize];
        let table_words = space.states().div_ceil(32);
        // Global figures only, so that every rank makes the same choice.
        let boundary = policy::Boundary {
            listed: state.frontier.as_ref().map(|_| frontier),
            frontier,
            unseen,
            table_words,
            pulling: state.pulling,
        };
        let (way, pulling) = policy::choose(Scan::Auto, boundary);
        state.pulling = pulling;
        if way != Way::Pull && state.unsettled {
            // Claims are about to write the colour of the layer a pull left holding FRONTIER.
            let code = Codes::at(depth).before;
            settle(
                space,
                &state.table,
                &spans,
                colour ^ 1,
                code,
                false,
                &schedule,
            );
        }
        let scan = LayerScan {
            space,
            moves: &moves,
            places: &places,
            table: &state.table,
            colour: if way == Way::Pull { colour ^ 1 } else { colour },
            codes: Codes::at(depth),
            // The next layer is recorded if it cannot exceed the cap one machine would have (a
            // state has at most 4 neighbours): the ranks need not agree to give a list up.
            record: 4 * frontier <= policy::record_cap(schedule.record_cap, table_words),
            mine: partition.mine(group.rank()),
        };
        let exchange = Exchange {
            scan: &scan,
            partition: &partition,
            group,
            budget,
        };
        let tasks = schedule.tasks_of_spans(&spans);
        let found = match (way, state.frontier.as_mut()) {
            (Way::Pull, _) => {
                let pull = shard_puller(space.shape.cols);
                exchange.pull(tasks, |task, asks| pull(&scan, task, asks))
            }
            (Way::List, Some(list)) => {
                list.par_sort_unstable();
                let expand = shard_lister(space.shape.cols);
                let parts: Vec<&[u64]> = list.chunks(schedule.list_chunk.max(1)).collect();
                exchange.push(parts, |part, out| expand(&scan, part, out))
            }
            _ => {
                let expand = shard_expander(space.shape.cols);
                exchange.push(tasks, |task, out| expand(&scan, task, out))
            }
        };
        let states = group.sum(found.states);
        // This rank's work on the layer: its time less the time in collectives.
        let work = layer_clock
            .elapsed()
            .saturating_sub(timed.waited() - waited);
        let nanos = work.as_nanos() as u64;
        let busy = Busy {
            max: group.max(nanos) as f64 * 1e-9,
            mean: group.sum(nanos) as f64 * 1e-9 / group.size() as f64,
        };
        if states == 0 {
            return Err(Error::Check(format!(
                "the search from {start} stopped at depth {depth} with {unseen} states unseen"
            )));
        }
        state.unsettled = way == Way::Pull;
        state.frontier = scan.record.then_some(found.marked);
        state.layers.push(states);
        colours.add(colour ^ 1, states);
        (driver.progress)(LayerDone {
            depth: depth + 1,
            states,
            seen: colours.seen(),
            way: Some(way),
            seconds: layer_clock.elapsed().as_secs_f64(),
            busy: Some(busy),
        });
        if let Some(hook) = driver.hook {
            if hook(&state)? {
                return Ok(ShardOutcome::Stopped { depth: depth + 1 });
            }
        }
    }
    let antipodes = finish(space, group, &state, start_colour, &spans, schedule);
    let table = state.table;
    let seen = group.sum(table.seen());
    let threads = group.sum(rayon::current_num_threads() as u64) as usize;
    let table_bytes = group.sum(table.bytes());
    Ok(ShardOutcome::Done(ShardedSearch {
        layers: state.layers,
        antipodes,
        seen,
        seconds: clock.elapsed().as_secs_f64(),
        threads,
        table_bytes,
        partition,
        table,
    }))
}

impl ShardState {
    /// Rank `rank`'s state before the first layer: the start alone holds `FRONTIER`, in the
    /// shard that holds it.
    pub fn begin(
        space: &StateSpace,
        start: u64,
        partition: &Partition,
        rank: usize,
    ) -> Result<ShardState, Error> {
        let states = space.states();
        let table = Table::sparse(states, &partition.spans(rank)).map_err(|e| Error::TooLarge {
            shape: space.user_shape.to_string(),
            needed: format!(
                "{:.1} GB of address space on each rank (of which it uses its share)",
                states.div_ceil(32) as f64 * 8e-9
            ),
            limit: format!("and mapping it failed ({e}; vm.overcommit_memory=2 refuses it)"),
        })?;
        let owned = partition.owner(start) == rank;
        if owned {
            table.visit(start, FRONTIER);
        }
        Ok(ShardState {
            layers: vec![1],
            frontier: Some(if owned { vec![start] } else { vec![] }),
            pulling: false,
            unsettled: false,
            table,
        })
    }
}

/// Settles the last layer, which still holds `FRONTIER` (and the one before it, after a pull),
/// listing the last: the antipodes of all shards, ascending, on every rank.
fn finish(
    space: &StateSpace,
    group: &dyn Group,
    state: &ShardState,
    start_colour: usize,
    spans: &[(u64, u64)],
    schedule: Schedule,
) -> Vec<u64> {
    let depth = state.layers.len() as u32 - 1;
    let colour = start_colour ^ (depth as usize & 1);
    let codes = Codes::at(depth);
    let table = &state.table;
    if state.unsettled {
        settle(
            space,
            table,
            spans,
            colour ^ 1,
            codes.before,
            false,
            &schedule,
        );
    }
    let last = settle(space, table, spans, colour, codes.done, true, &schedule);
    let mut antipodes = group.all_gather(last.marked);
    antipodes.sort_unstable();
    antipodes
}

/// What a layer's rounds of exchange share: the scan, who owns what, the group and the
/// buffer budget.
struct Exchange<'a> {
    scan: &'a LayerScan<'a>,
    partition: &'a Partition,
    group: &'a dyn Group,
    budget: Budget,
}

impl Exchange<'_> {
    /// Builds this rank's part of the next layer by pull, in rounds of at most `budget`
    /// queries: each unseen state of the next colour with a neighbour in the frontier in this
    /// shard is marked at once; the others ask the owners of their neighbours in other shards
    /// whether those are in the frontier (one exchange of queries, one of answers) and are
    /// marked if one is. Returns the states newly marked in this shard.
    fn pull(
        &self,
        tasks: Vec<Task>,
        pull: impl Fn(Task, &mut Vec<(u64, u64)>) -> Found + Sync,
    ) -> Found {
        let (scan, partition, group, budget) = (self.scan, self.partition, self.group, self.budget);
        let (mut rounds, of) = (Rounds::new(tasks, partition.ranks()), partition.mine(0));
        let mut found = Found::default();
        loop {
            // To each owner, the neighbours asked about; beside them, which state asked.
            let queries = rounds.scan(budget, &mut found, &pull, |&(_, n)| of.rank_of(n));
            let (asked, askers): (Vec<Vec<u64>>, Vec<Vec<u64>>) = queries
                .into_iter()
                .map(|q| q.into_iter().map(|(state, n)| (n, state)).unzip())
                .unzip();
            let answers: Vec<Vec<u64>> = group
                .exchange(asked)
                .iter()
                .map(|ns| {
                    ns.iter()
                        .map(|&n| u64::from(scan.table.get(n) == FRONTIER))
                        .collect()
                })
                .collect();
            let replies = group.exchange(answers);
            let marked: Vec<u64> = askers
                .iter()
                .zip(&replies)
                .flat_map(|(states, yes)| states.iter().zip(yes).filter(|(_, &y)| y != 0))
                .map(|(&s, _)| s)
                .collect();
            found.add(claim_all(scan.table, &marked, scan.record));
            if !rounds.more(group) {
                return found;
            }
        }
    }

    /// Builds this rank's part of the next layer by push over `work` (table tasks, or parts of
    /// the listed frontier), in rounds of at most `budget` buffered cross-shard targets: the
    /// states newly marked in this shard.
    fn push<W: Copy + Send + Sync>(
        &self,
        work: Vec<W>,
        expand: impl Fn(W, &mut Vec<u64>) -> Found + Sync,
    ) -> Found {
        let (scan, group, budget) = (self.scan, self.group, self.budget);
        let (mut rounds, of) = (
            Rounds::new(work, self.partition.ranks()),
            self.partition.mine(0),
        );
        let mut found = Found::default();
        loop {
            let out = rounds.scan(budget, &mut found, &expand, |&n| of.rank_of(n));
            let inbox = group.exchange_flat(out);
            let parts: Vec<Found> = inbox
                .par_chunks(1 << 16)
                .map(|part| claim_all(scan.table, part, scan.record))
                .collect();
            parts.into_iter().for_each(|p| found.add(p));
            if !rounds.more(group) {
                return found;
            }
        }
    }
}

/// The work of a layer on this rank (table tasks or parts of a list), scanned a round at a
/// time.
struct Rounds<W> {
    work: Vec<W>,
    ranks: usize,
    next: usize,
    /// Pieces scanned between two looks at the buffer: enough to keep every thread busy.
    batch: usize,
}

impl<W: Copy + Send + Sync> Rounds<W> {
    fn new(work: Vec<W>, ranks: usize) -> Rounds<W> {
        Rounds {
            work,
            ranks,
            next: 0,
            batch: 4 * rayon::current_num_threads(),
        }
    }

    /// Scans pieces of work, in parallel, until `budget` items are buffered or none is left:
    /// what `f(piece, buffer)` appended, in order, sorted by the rank `to` sends each to; what
    /// the pieces marked is added to `found`.
    fn scan<T: Send>(
        &mut self,
        budget: Budget,
        found: &mut Found,
        f: &(impl Fn(W, &mut Vec<T>) -> Found + Sync),
        to: impl Fn(&T) -> u32 + Sync,
    ) -> Vec<Vec<T>> {
        let mut buffered: Vec<Vec<T>> = (0..self.ranks).map(|_| vec![]).collect();
        let mut count = 0;
        while self.next < self.work.len() && count < budget.indices {
            let end = (self.next + self.batch).min(self.work.len());
            let parts: Vec<(Found, Vec<Vec<T>>)> = self.work[self.next..end]
                .par_iter()
                .map(|&piece| {
                    let mut out = vec![];
                    let marked = f(piece, &mut out);
                    let mut sorted: Vec<Vec<T>> = (0..self.ranks).map(|_| vec![]).collect();
                    for t in out {
                        sorted[to(&t) as usize].push(t);
                    }
                    (marked, sorted)
                })
                .collect();
            for (marked, sorted) in parts {
                found.add(marked);
                for (all, part) in buffered.iter_mut().zip(sorted) {
                    count += part.len();
                    all.extend(part);
                }
            }
            self.next = end;
        }
        buffered
    }

    /// Whether any rank has work left (a collective).
    fn more(&self, group: &dyn Group) -> bool {
        group.max(u64::from(self.next < self.work.len())) != 0
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering::Relaxed};

    use super::*;
    use crate::bfs::search_from;
    use crate::dist::threads;
    use crate::puzzle::board::{Cell, Shape};

    /// On 1 to 4 ranks (threads), with a budget of 3 targets (many rounds a layer) and the
    /// default one, small layers expanded from lists or every layer scanned, from either class and several goals: the layers, the antipodes, the marked
    /// count and every shard's finished words equal the one-machine search's. 2x2 on 3 and 4
    /// ranks has empty shards; 3 ranks never divide the index evenly.
    #[test]
    fn sharded_searches_equal_the_one_machine_search() {
        for (r, c) in [(2, 2), (2, 3), (3, 2), (2, 4), (3, 3)] {
            let shape = Shape::new(r, c).unwrap();
            for goal in [shape.cells() - 1, 0] {
                for class in [0, 1] {
                    let space = StateSpace::with_class(shape, Cell(goal), class).unwrap();
                    let start = space.states() / 3 * class as u64;
                    let start = if class == 0 {
                        space.goal_index()
                    } else {
                        start
                    };
                    let whole = search_from(&space, start, Schedule::default(), &|_| {}).unwrap();
                    let words: Vec<u64> = whole
                        .table
                        .words()
                        .iter()
                        .map(|w| w.load(Relaxed))
                        .collect();
                    for ranks in 1..=4 {
                        // Lists of 5 states a part (or nothing recorded: every layer scanned).
                        for (budget, record_cap) in [
                            (Budget { indices: 3 }, 1 << 22),
                            (Budget::default(), 1 << 22),
                            (Budget { indices: 3 }, 0),
                        ] {
                            let schedule = Schedule {
                                chunk: 100,
                                list_chunk: 5,
                                record_cap,
                                ..Schedule::default()
                            };
                            let lists = AtomicUsize::new(0);
                            let count = |l: LayerDone| {
                                if l.way == Some(Way::List) {
                                    lists.fetch_add(1, Relaxed);
                                }
                            };
                            let got = threads::run(ranks, |g| {
                                search_sharded(&space, start, g, schedule, budget, &count).unwrap()
                            });
                            let what = format!("{shape} goal {goal} class {class} {ranks} ranks");
                            // Every rank makes the same choice: lists on all of them or none.
                            let lists = lists.load(Relaxed);
                            assert_eq!(lists % ranks, 0, "{what}");
                            if record_cap == 0 {
                                // Only the start is listed.
                                assert!(lists <= ranks, "{what}");
                            } else if space.states() > 10_000 {
                                assert!(lists > 0, "{what}");
                            }
                            for s in &got {
                                assert_eq!(s.layers, whole.layers, "{what}");
                                assert_eq!(s.antipodes, whole.antipodes, "{what}");
                                assert_eq!(s.seen, space.states(), "{what}");
                            }
                            for (k, s) in got.iter().enumerate() {
                                let spans = s.partition.spans(k);
                                let held: Vec<&[AtomicU64]> = s.table.held().collect();
                                assert_eq!(held.len(), spans.len(), "{what}: shard {k}");
                                for ((lo, hi), span) in spans.into_iter().zip(held) {
                                    let shard: Vec<u64> =
                                        span.iter().map(|w| w.load(Relaxed)).collect();
                                    let want = &words[(lo / 32) as usize..hi.div_ceil(32) as usize];
                                    assert_eq!(shard, want, "{what}: shard {k} at {lo}");
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

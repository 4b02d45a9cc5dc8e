//! One BFS over the ranks of a group, each holding a shard of the table (see `dist`): the
//! `Place` of a sharded search, its layers built in rounds of exchange.

use std::time::Instant;

use rayon::prelude::*;

use super::group::Group;
use super::timed::Timed;
use crate::bfs::driver::{self, Finished};
use crate::bfs::group::{busy, Busy};
use crate::bfs::layer::{claim_all_coded, Found, Kernels, LayerScan};
use crate::bfs::moves::coding;
use crate::bfs::place::{keep, Place, Recording};
use crate::bfs::policy::{Scan, Way};
use crate::bfs::shard::{Mine, Partition};
use crate::bfs::table::{Table, FRONTIER};
use crate::bfs::{residues, Driver, LayerDone, Outcome, Schedule, Search, SearchState, Task};
use crate::error::{Error, Limit, Needed};
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

/// What a rank keeps of a sharded search's finished table (`Search::table`).
#[derive(Debug)]
pub struct RankShard {
    /// How the index is dealt to the ranks.
    pub partition: Partition,
    /// This rank's shard, finished: every state settled with its depth mod 4.
    pub table: Table,
}

/// The BFS from `start` over the ranks of `group`, this rank holding its shard of the table.
/// Every rank of the group must call it with the same arguments.
pub(crate) fn search_sharded(
    space: &StateSpace,
    start: u64,
    group: &dyn Group,
    schedule: Schedule,
    budget: Budget,
    progress: &(dyn Fn(LayerDone) + Sync),
) -> Result<Search<RankShard>, Error> {
    let driver = Driver {
        schedule,
        progress,
        hook: None,
        aid_bytes: None,
    };
    match search_sharded_with(space, start, group, budget, driver, None)? {
        Outcome::Done(s) => Ok(s),
        Outcome::Stopped { .. } => unreachable!("without a hook a search never stops"),
    }
}

/// `search_sharded` with a hook at layer boundaries (called on every rank, with this rank's
/// state), continuing from `resume` (this rank's state, as a checkpoint saved it) if given.
pub(crate) fn search_sharded_with(
    space: &StateSpace,
    start: u64,
    group: &dyn Group,
    budget: Budget,
    driver: Driver,
    resume: Option<SearchState>,
) -> Result<Outcome<Search<RankShard>>, Error> {
    let clock = Instant::now();
    let timed = Timed::new(group);
    let partition = Partition::new(space, group.size());
    let state = match resume {
        Some(state) => state,
        None => {
            let begun = begin(space, start, &partition, group.rank());
            super::group::agreed(&timed, "mapping its table", begun)?
        }
    };
    let place = Sharded {
        group: &timed,
        spans: partition.spans(group.rank()),
        partition,
        budget,
    };
    let Finished { state, antipodes } = match driver::run(space, &place, driver, Scan::Auto, state)?
    {
        Outcome::Done(finished) => finished,
        Outcome::Stopped { depth } => return Ok(Outcome::Stopped { depth }),
    };
    let seconds = clock.elapsed().as_secs_f64();
    let table = state.table;
    let colour = space.colour(space.split(start).0);
    let mine = residues(
        space,
        &table,
        &place.spans,
        colour,
        coding(space),
        &driver.schedule,
    );
    Ok(Outcome::Done(Search {
        layers: state.layers,
        antipodes,
        seen: timed.sum(table.seen()),
        residues: mine.map(|n| timed.sum(n)),
        seconds,
        threads: timed.sum(rayon::current_num_threads() as u64) as usize,
        table_bytes: timed.sum(table.bytes()),
        table: RankShard {
            partition: place.partition,
            table,
        },
    }))
}

/// Rank `rank`'s state before the first layer: the start alone holds `FRONTIER`, in the shard
/// that holds it.
pub fn begin(
    space: &StateSpace,
    start: u64,
    partition: &Partition,
    rank: usize,
) -> Result<SearchState, Error> {
    let table = shard_table(space, partition, rank)?;
    let owned = partition.owner(start) == rank;
    if owned {
        table.visit(start, FRONTIER);
    }
    Ok(SearchState {
        start,
        layers: vec![1],
        frontier: Some(if owned { vec![start] } else { vec![] }),
        pulling: false,
        unsettled: false,
        table,
    })
}

/// Rank `rank`'s shard of the table of `space`, every state unseen (`Table::sparse`).
pub fn shard_table(space: &StateSpace, partition: &Partition, rank: usize) -> Result<Table, Error> {
    let states = space.states();
    Table::sparse(states, &partition.spans(rank)).map_err(|e| Error::TooLarge {
        shape: space.user_shape().to_string(),
        needed: Needed::AddressSpace(states.div_ceil(32) * 8),
        limit: Limit::Mapping(e.to_string()),
    })
}

/// This rank's shard of a group's table: its layers built in rounds of exchange with the
/// other ranks, every count summed over them.
struct Sharded<'a> {
    group: &'a Timed<'a>,
    partition: Partition,
    spans: Vec<(u64, u64)>,
    budget: Budget,
}

impl Place for Sharded<'_> {
    type Telemetry = Option<Busy>;

    fn spans(&self) -> &[(u64, u64)] {
        &self.spans
    }

    fn mine(&self) -> Mine {
        self.partition.mine(self.group.rank())
    }

    /// A row may be split between ranks, and the shard kernels expand state by state.
    fn keeps_aids(&self) -> bool {
        false
    }

    fn group(&self) -> &dyn Group {
        self.group
    }

    fn telemetry(&self, work: std::time::Duration) -> Option<Busy> {
        busy(self.group, work)
    }

    fn build<T: ?Sized + Sync>(
        &self,
        scan: &LayerScan<T>,
        kernels: &Kernels<T>,
        way: Way,
        list: Option<&mut Vec<u64>>,
        recording: Option<&Recording>,
        schedule: &Schedule,
    ) -> Result<Vec<Found>, Error> {
        let exchange = Exchange {
            scan,
            partition: &self.partition,
            group: self.group,
            budget: self.budget,
            recording,
        };
        let tasks = schedule.tasks_of_spans(&self.spans);
        let k = kernels;
        let found = match (way, list) {
            (Way::Pull, _) => exchange.pull(tasks, |task, asks| (k.pull_shard)(scan, task, asks)),
            (Way::List, Some(list)) => {
                list.par_sort_unstable();
                let parts: Vec<&[u64]> = list.chunks(schedule.list_chunk.max(1)).collect();
                exchange.push(parts, |part, out| (k.list_shard)(scan, part, out))
            }
            _ => exchange.push(tasks, |task, out| (k.push_shard)(scan, task, out)),
        };
        Ok(vec![found])
    }
}

/// What a layer's rounds of exchange share: the scan, who owns what, the group and the
/// buffer budget.
struct Exchange<'a, T: ?Sized> {
    scan: &'a LayerScan<'a, T>,
    partition: &'a Partition,
    group: &'a dyn Group,
    budget: Budget,
    recording: Option<&'a Recording>,
}

impl<T: ?Sized + Sync> Exchange<'_, T> {
    /// Claims `indices` of this shard with the next layer's code: the states newly marked.
    fn claim(&self, indices: &[u64]) -> Found {
        let scan = self.scan;
        claim_all_coded(scan.table, indices, scan.record, scan.codes.next)
    }

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
            let queries = rounds.scan(
                budget,
                &mut found,
                &pull,
                |&(_, n)| of.rank_of(n),
                self.recording,
            );
            let (asked, askers): (Vec<Vec<u64>>, Vec<Vec<u64>>) = queries
                .into_iter()
                .map(|q| q.into_iter().map(|(state, n)| (n, state)).unzip())
                .unzip();
            let frontier = scan.codes.frontier;
            let answers: Vec<Vec<u64>> = group
                .exchange(asked)
                .iter()
                .map(|ns| {
                    ns.iter()
                        .map(|&n| u64::from(scan.table.get(n) == frontier))
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
            found.add(keep(self.recording, self.claim(&marked)));
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
            let out = rounds.scan(
                budget,
                &mut found,
                &expand,
                |&n| of.rank_of(n),
                self.recording,
            );
            let inbox = group.exchange_flat(out);
            let (recording, next) = (self.recording, scan.codes.next);
            let parts: Vec<Found> = inbox
                .par_chunks(1 << 16)
                .map(|part| {
                    keep(
                        recording,
                        claim_all_coded(scan.table, part, scan.record, next),
                    )
                })
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
        recording: Option<&Recording>,
    ) -> Vec<Vec<T>> {
        let mut buffered: Vec<Vec<T>> = (0..self.ranks).map(|_| vec![]).collect();
        let mut count = 0;
        while self.next < self.work.len() && count < budget.indices {
            let end = (self.next + self.batch).min(self.work.len());
            let parts: Vec<(Found, Vec<Vec<T>>)> = self.work[self.next..end]
                .par_iter()
                .map(|&piece| {
                    let mut out = vec![];
                    let marked = keep(recording, f(piece, &mut out));
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
    use crate::index::puzzle::Puzzle;
    use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering::Relaxed};

    use super::*;
    use crate::bfs::search_from;
    use crate::dist::threads;
    use crate::puzzle::board::{Cell, Shape};
    use crate::puzzle::metric::Metric;

    /// On 1 to 4 ranks (threads), with a budget of 3 targets (many rounds a layer) and the
    /// default one, small layers expanded from lists or every layer scanned, from either class
    /// and several goals: the layers, the antipodes, the marked count and every shard's
    /// finished words equal the one-machine search's (which the `bfs::local` tests hold to a
    /// plain BFS over boards). 2x2 on 3 and 4 ranks has empty shards; 3 ranks never divide
    /// the index evenly.
    #[test]
    fn sharded_searches_equal_the_one_machine_search() {
        sharded_equal_one_machine(Metric::Single);
    }

    /// The same in the multi-tile metric: the shard kernels route each slide to its owner.
    #[test]
    fn sharded_multi_tile_searches_equal_the_one_machine_search() {
        sharded_equal_one_machine(Metric::Multi);
    }

    fn sharded_equal_one_machine(metric: Metric) {
        for (r, c) in [(2, 2), (2, 3), (3, 2), (2, 4), (3, 3)] {
            let shape = Shape::new(r, c).unwrap();
            for goal in [shape.cells() - 1, 0] {
                for class in [0, 1] {
                    let space =
                        StateSpace::new(&Puzzle::board(shape, Cell(goal), metric).unwrap(), class)
                            .unwrap();
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
                            // Rounds of 3 targets over the 8-puzzle's multi-tile slides (four
                            // to six a state) take most of a minute: the smaller boards have
                            // them, 3x3 the default budget.
                            if metric == Metric::Multi && r * c == 9 && budget.indices == 3 {
                                continue;
                            }
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
                            let what =
                                format!("{shape} {metric} goal {goal} class {class} {ranks} ranks");
                            // Every rank makes the same choice: lists on all of them or none.
                            let lists = lists.load(Relaxed);
                            assert_eq!(lists % ranks, 0, "{what}");
                            if record_cap == 0 && metric == Metric::Single {
                                // Only the start is listed (the multi-tile metric lists the
                                // layers that may be the last whatever the cap).
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
                                let spans = s.table.partition.spans(k);
                                let held: Vec<&[AtomicU64]> = s.table.table.held().collect();
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

    /// Puzzles on graphs over 1 to 3 ranks (threads standing in for them) find the layers and
    /// antipodes of one machine's search, with lists and without: the graph scans' shard
    /// forms. The cycle's component is a fraction of its index (the search ends at an empty
    /// layer); the cylinder's, K(3,3)'s and the cube's are all of it.
    #[test]
    fn graphs_sharded_equal_one_machine() {
        use crate::graph::spec::NamedGraph;
        for spec in [
            "cycle:7",
            "complete:3,3",
            "theta0",
            "cylinder:2x3",
            "hypercube:3",
        ] {
            let graph = NamedGraph::parse(spec).unwrap().graph;
            let space = StateSpace::new(
                &Puzzle::graph(graph.clone(), 1, crate::puzzle::metric::Metric::Single).unwrap(),
                0,
            )
            .unwrap();
            let start = space.goal_index();
            let whole = search_from(&space, start, Schedule::default(), &|_| {}).unwrap();
            for ranks in 1..=3 {
                for (budget, record_cap) in
                    [(Budget { indices: 3 }, 1 << 22), (Budget::default(), 0)]
                {
                    let schedule = Schedule {
                        chunk: 100,
                        list_chunk: 5,
                        record_cap,
                        ..Schedule::default()
                    };
                    let got = threads::run(ranks, |g| {
                        search_sharded(&space, start, g, schedule, budget, &|_| {}).unwrap()
                    });
                    let what = format!("{spec} {ranks} ranks cap {record_cap}");
                    for s in &got {
                        assert_eq!(s.layers, whole.layers, "{what}");
                        assert_eq!(s.antipodes, whole.antipodes, "{what}");
                        assert_eq!(s.seen, whole.table.seen(), "{what}");
                    }
                }
            }
        }
    }
}

//! Plans for a distributed run, computed without running it: what each rank holds in memory,
//! how many ranks a memory size needs, and how much crosses between ranks, measured on a sample
//! of states (the fraction of moves whose target another rank owns).

use crate::analysis::memory::{table_bytes, working_bytes};
use crate::bfs::layer::{for_each_neighbour, moves};
use crate::bfs::shard::Partition;
use crate::error::Error;
use crate::index::puzzle::Puzzle;
use crate::index::rank::Cursor;
use crate::index::space::StateSpace;
use crate::puzzle::board::{Cell, Shape};
use crate::puzzle::count::reachable_u64;
use crate::puzzle::metric::Metric;
use crate::puzzle::random::Rng;

/// The plan of `shape` over some ranks.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The board planned.
    pub shape: Shape,
    /// Ranks of the planned run.
    pub ranks: usize,
    /// (RC)!/2.
    pub states: u64,
    /// Bytes of the whole table.
    pub table_bytes: f64,
    /// Bytes of the largest shard's table.
    pub shard_bytes: u64,
    /// Bytes of one rank's exchange buffers.
    pub buffer_bytes: u64,
    /// Everything one rank needs.
    pub rank_bytes: f64,
    /// Moves per state, averaged over all states (each state is expanded once).
    pub moves_per_state: f64,
    /// Fraction of moves whose target is in another shard, over `sampled` random states.
    pub cross_fraction: f64,
    /// Random states sampled for `cross_fraction`.
    pub sampled: u64,
}

impl Plan {
    /// Targets sent between ranks over the whole search: every state is expanded once, and
    /// `cross_fraction` of its moves go to another rank.
    pub fn exchanged(&self) -> f64 {
        self.states as f64 * self.moves_per_state * self.cross_fraction
    }

    /// The plan as `plan --json` gives it.
    pub fn figures(&self) -> PlanFigures {
        PlanFigures {
            board: self.shape.to_string(),
            ranks: self.ranks,
            states: self.states,
            table_bytes: self.table_bytes,
            shard_table_bytes: self.shard_bytes,
            buffer_bytes: self.buffer_bytes,
            rank_bytes: self.rank_bytes,
            moves_per_state: self.moves_per_state,
            cross_fraction: self.cross_fraction,
            sampled_states: self.sampled,
            exchanged_targets: self.exchanged(),
        }
    }
}

/// A plan's figures, named as `plan --json` names them (see `Plan`'s fields).
#[derive(Clone, Debug, serde::Serialize)]
#[allow(missing_docs)]
pub struct PlanFigures {
    pub board: String,
    pub ranks: usize,
    pub states: u64,
    pub table_bytes: f64,
    pub shard_table_bytes: u64,
    pub buffer_bytes: u64,
    pub rank_bytes: f64,
    pub moves_per_state: f64,
    pub cross_fraction: f64,
    pub sampled_states: u64,
    /// `Plan::exchanged`.
    pub exchanged_targets: f64,
}

/// The plan of `shape` from its usual goal over `ranks` ranks with `buffer_bytes` of exchange
/// buffers each; the cross-shard fraction from `samples` random states (seeded, so a plan is
/// reproducible).
pub fn plan(shape: Shape, ranks: usize, buffer_bytes: u64, samples: u64) -> Result<Plan, Error> {
    let most = crate::bfs::shard::MAX_RANKS;
    if !(1..=most).contains(&ranks) {
        return Err(Error::Argument(format!(
            "--ranks {ranks}: must be from 1 to {most}"
        )));
    }
    if shape.is_line() {
        return Err(Error::Shape(format!(
            "{shape} is a line: its {} configurations need no table",
            shape.cells()
        )));
    }
    let space = StateSpace::new(
        &Puzzle::board(shape, Cell(shape.cells() - 1), Metric::Single)?,
        0,
    )?;
    let partition = Partition::new(&space, ranks);
    let shard_bytes = (0..ranks)
        .map(|k| partition.table_bytes(k))
        .max()
        .unwrap_or(0);
    Ok(Plan {
        shape,
        ranks,
        states: reachable_u64(shape).expect("boards the index covers have a u64 count"),
        table_bytes: table_bytes(shape),
        shard_bytes,
        buffer_bytes,
        rank_bytes: shard_bytes as f64 + buffer_bytes as f64 + working_bytes(shape),
        moves_per_state: moves_per_state(shape),
        cross_fraction: cross_fraction(&space, |i| partition.owner(i), samples),
        sampled: samples,
    })
}

/// Single-tile moves per state of `shape`, averaged over all states (the blank is in each cell
/// equally often).
pub fn moves_per_state(shape: Shape) -> f64 {
    (0..shape.cells())
        .map(|b| shape.neighbours(Cell(b)).count() as f64)
        .sum::<f64>()
        / shape.cells() as f64
}

/// The fraction of the moves of `samples` uniformly random states whose target lies in another
/// shard (`owner`) than the state.
pub fn cross_fraction(space: &StateSpace, owner: impl Fn(u64) -> usize, samples: u64) -> f64 {
    let moves = moves(space);
    let mut rng = Rng::new(1);
    let mut cursor = Cursor::new();
    let (mut all, mut crossing) = (0u64, 0u64);
    for _ in 0..samples {
        let i = rng.below(space.states());
        let own = owner(i);
        let (blank, rank) = space.split(i);
        for_each_neighbour(space, &moves, &mut cursor, blank, rank, |n| {
            all += 1;
            crossing += u64::from(owner(n) != own);
        });
    }
    crossing as f64 / all.max(1) as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::memory::{rank_bytes, ranks_needed};

    /// The shards' tables add up to the whole table; one rank exchanges nothing; more ranks
    /// exchange more; the rank count a memory size needs fits that memory.
    #[test]
    fn plans_add_up() {
        let shape = Shape::new(3, 4).unwrap();
        let space =
            StateSpace::new(&Puzzle::board(shape, Cell(11), Metric::Single).unwrap(), 0).unwrap();
        for ranks in [1, 2, 3, 8] {
            let p = Partition::new(&space, ranks);
            let sum: u64 = (0..ranks).map(|k| p.table_bytes(k)).sum();
            assert_eq!(sum as f64, table_bytes(shape), "{ranks} ranks");
        }
        let one = plan(shape, 1, 0, 10_000).unwrap();
        assert_eq!(one.cross_fraction, 0.0);
        assert_eq!(one.exchanged(), 0.0);
        // 3x4: 4 corner cells with 2 moves, 6 edge cells with 3, 2 inner cells with 4.
        assert_eq!(
            one.moves_per_state,
            (4.0 * 2.0 + 6.0 * 3.0 + 2.0 * 4.0) / 12.0
        );
        let two = plan(shape, 2, 0, 10_000).unwrap();
        let many = plan(shape, 16, 0, 10_000).unwrap();
        assert!(two.cross_fraction > 0.0);
        assert!(many.cross_fraction > two.cross_fraction);
        // Horizontal moves never cross, so at most the vertical share of moves does: the engine
        // works on 4x3, whose 3 columns have 3 vertical edges each, 2 moves an edge, of 34 moves.
        let vertical = 2.0 * 3.0 * 3.0 / 34.0;
        assert!(many.cross_fraction < vertical);
        let room = 40_000_000.0 + working_bytes(shape);
        let need = ranks_needed(shape, room, 0).unwrap();
        assert!(rank_bytes(shape, need as usize, 0) <= room + 1.0);
        assert!(rank_bytes(shape, need as usize - 1, 0) > room);
    }
}

/// This machine's engine rates, per thread, from a one-rank sharded search (`calibrate`).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Calibration {
    /// The board searched.
    pub board: String,
    /// Threads the calibration ran on.
    pub threads: usize,
    /// Table words scanned per second by one thread (a layer with almost no frontier).
    pub words_per_second: f64,
    /// States expanded (neighbours computed and claimed) per second by one thread.
    pub states_per_second: f64,
}

/// Runs a one-rank sharded search of `shape` on the current pool and derives the rates: the
/// scan rate from passes over its finished table (the median of three; a layer's scan reads
/// every word so), the expansion rate from the search's time less its scanning layers' scans.
/// (The layers of few states are not timed for the scan: they expand a list and never scan.)
pub fn calibrate(shape: Shape) -> Result<Calibration, Error> {
    use crate::bfs::policy::Way;
    use crate::bfs::{LayerDone, Schedule};
    use crate::dist::{search_sharded, threads, Budget};
    let space = StateSpace::new(
        &Puzzle::board(shape, Cell(shape.cells() - 1), Metric::Single)?,
        0,
    )?;
    let layers = std::sync::Mutex::new(Vec::<(bool, f64)>::new());
    let record = |l: LayerDone| {
        if let Some(way) = l.way {
            let scanned = matches!(way, Way::Push | Way::Pull);
            layers
                .lock()
                .expect("not poisoned")
                .push((scanned, l.seconds));
        }
    };
    let start = space.goal_index();
    let found = threads::run(1, |g| {
        search_sharded(
            &space,
            start,
            g,
            Schedule::default(),
            Budget::default(),
            &record,
        )
    })
    .remove(0)?;
    let mut passes: Vec<f64> = (0..3)
        .map(|_| {
            let clock = std::time::Instant::now();
            std::hint::black_box(found.table.table.count(1));
            clock.elapsed().as_secs_f64()
        })
        .collect();
    passes.sort_by(f64::total_cmp);
    let scan = passes[1].max(1e-9);
    let layers = layers.into_inner().expect("not poisoned");
    let threads = found.threads;
    let words = space.states().div_ceil(32) as f64;
    let total: f64 = layers.iter().map(|l| l.1).sum();
    let scans = layers.iter().filter(|l| l.0).count() as f64;
    // At least a tenth of the search expands (a scan timed on a slow moment must not leave
    // no time, or less than none, to the expansion).
    let expanding = (total - scan * scans).max(total / 10.0).max(1e-9);
    Ok(Calibration {
        board: shape.to_string(),
        threads,
        words_per_second: words / scan / threads as f64,
        states_per_second: space.states() as f64 / expanding / threads as f64,
    })
}

/// A projected wall time, in seconds, by part (added, as if nothing overlapped).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Projection {
    /// Expanding every state once, spread over all threads of all ranks.
    pub expand: f64,
    /// Scanning each rank's shard once per layer.
    pub scan: f64,
    /// Sending each rank's cross-shard targets at `network` bytes per second.
    pub exchange: f64,
}

impl Projection {
    /// The whole projected time: expand, scan and exchange, in seconds.
    pub fn total(&self) -> f64 {
        self.expand + self.scan + self.exchange
    }
}

/// The wall time of `plan` on ranks of `threads` threads each, over `layers` layers, with each
/// rank sending at `network` bytes per second, at the rates of `cal`.
pub fn project(
    plan: &Plan,
    cal: &Calibration,
    threads: usize,
    layers: u32,
    network: f64,
) -> Projection {
    let threads = threads.max(1) as f64;
    let ranks = plan.ranks as f64;
    Projection {
        expand: plan.states as f64 / (ranks * threads * cal.states_per_second),
        scan: layers as f64 * (plan.shard_bytes as f64 / 8.0) / (threads * cal.words_per_second),
        exchange: 8.0 * plan.exchanged() / ranks / network,
    }
}

#[cfg(test)]
mod projection_tests {
    use super::*;

    /// The projection's parts scale as they should: expansion with ranks times threads, scans
    /// with layers and shard size, exchange with the bytes sent per rank over the network.
    #[test]
    fn projections_scale() {
        let shape = Shape::new(3, 4).unwrap();
        let cal = Calibration {
            board: "2x6".into(),
            threads: 2,
            words_per_second: 1e9,
            states_per_second: 1e7,
        };
        let p2 = plan(shape, 2, 0, 20_000).unwrap();
        let p4 = plan(shape, 4, 0, 20_000).unwrap();
        let a = project(&p2, &cal, 8, 50, 1e9);
        // 12!/2 states over 2 ranks x 8 threads at 10^7 states/s each.
        assert!((a.expand - 239_500_800.0 / 16.0 / 1e7).abs() < 1e-9);
        // 50 scans of a shard of half the table's 7,484,400 words at 8 x 10^9 words/s.
        assert!((a.scan - 50.0 * (p2.shard_bytes as f64 / 8.0) / 8e9).abs() < 1e-12);
        assert!((a.exchange - 8.0 * p2.exchanged() / 2.0 / 1e9).abs() < 1e-12);
        let b = project(&p4, &cal, 8, 50, 1e9);
        assert!((b.expand * 2.0 - a.expand).abs() < 1e-9);
        assert!(b.scan < a.scan);
        let c = project(&p2, &cal, 8, 100, 1e9);
        assert!((c.scan - 2.0 * a.scan).abs() < 1e-12);
        assert_eq!(a.total(), a.expand + a.scan + a.exchange);
    }
}

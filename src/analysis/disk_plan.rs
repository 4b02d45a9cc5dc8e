//! Plans for a search with its table on disk (`analyze --disk`), computed without running it:
//! the shards a memory size gives, the disk the search needs, the bytes it moves, and a
//! projected time at a disk's bandwidth with this machine's calibrated engine rates.
//!
//! The model: every pass reads and writes every shard (an upper bound: the first and last
//! passes touch only the shards their few states fall in), every move of every state whose
//! target is in another shard is a claim of 8 bytes written once and read once, and the disk's
//! time adds to the expansion's and the scans' (the read of the next shard overlaps the work
//! before it, which the model leaves out). Single-tile moves.

use crate::analysis::plan::{cross_fraction, moves_per_state, Calibration};
use crate::error::Error;
use crate::index::puzzle::Puzzle;
use crate::index::space::StateSpace;
use crate::puzzle::board::{Cell, Shape};
use crate::puzzle::metric::Metric;
use crate::store::disk::{disk_needed, layout_for, MIN_MEMORY};

/// The plan of a search of `shape` on disk, in one process.
#[derive(Clone, Debug)]
pub struct DiskPlan {
    /// The board planned.
    pub shape: Shape,
    /// Bytes of memory the search may hold.
    pub memory: u64,
    /// (RC)!/2.
    pub states: u64,
    /// Bytes of the whole table.
    pub table_bytes: u64,
    /// Shards the table is cut into.
    pub shards: usize,
    /// Bytes of the largest shard.
    pub shard_bytes: u64,
    /// Bytes of disk the search checks for before it starts.
    pub disk_bytes: u64,
    /// Moves per state, averaged over all states.
    pub moves_per_state: f64,
    /// Fraction of moves whose target is in another shard, over `sampled` random states.
    pub cross_fraction: f64,
    /// Random states sampled for `cross_fraction`.
    pub sampled: u64,
}

impl DiskPlan {
    /// Bytes of shards a pass that works on every shard reads and writes.
    pub fn pass_bytes(&self) -> f64 {
        2.0 * self.table_bytes as f64
    }

    /// Bytes of claims over the whole search, written and read: every state is expanded once,
    /// and `cross_fraction` of its moves go to another shard, as 8-byte indices.
    pub fn claim_bytes(&self) -> f64 {
        16.0 * self.states as f64 * self.moves_per_state * self.cross_fraction
    }
}

/// The plan of `shape` from its usual goal on disk with `memory` bytes; the cross-shard fraction
/// from `samples` random states (seeded: a plan is reproducible).
pub fn plan_disk(shape: Shape, memory: u64, samples: u64) -> Result<DiskPlan, Error> {
    if memory < MIN_MEMORY {
        return Err(Error::Argument(format!(
            "a search on disk needs at least {} kB of memory",
            MIN_MEMORY / 1000
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
    let layout = layout_for(&space, memory);
    Ok(DiskPlan {
        shape,
        memory,
        states: space.states(),
        table_bytes: space.states().div_ceil(32) * 8,
        shards: layout.shards(),
        shard_bytes: layout.shard_bytes(),
        disk_bytes: disk_needed(&space, &layout),
        moves_per_state: moves_per_state(shape),
        cross_fraction: cross_fraction(&space, |i| layout.shard_of(i), samples),
        sampled: samples,
    })
}

/// A projected wall time of a search on disk, in seconds, by part (added).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DiskProjection {
    /// Passes over the shards.
    pub passes: u64,
    /// Bytes read and written: every shard in every pass, and the claims.
    pub bytes: f64,
    /// Moving `bytes` at the disk's bandwidth.
    pub disk: f64,
    /// Expanding every state once on every thread.
    pub expand: f64,
    /// Scanning every shard once a pass.
    pub scan: f64,
}

impl DiskProjection {
    /// The whole projected time: disk, expansion and scans, in seconds.
    pub fn total(&self) -> f64 {
        self.disk + self.expand + self.scan
    }
}

/// A plan on disk as `plan --disk --json` gives it (see `DiskPlan`'s fields), with its
/// projection if there is a calibration.
#[derive(Clone, Debug, serde::Serialize)]
#[allow(missing_docs)]
pub struct DiskPlanFigures {
    pub board: String,
    pub memory: u64,
    pub states: u64,
    pub table_bytes: u64,
    pub shards: usize,
    pub shard_bytes: u64,
    pub disk_bytes: u64,
    pub moves_per_state: f64,
    pub cross_fraction: f64,
    pub sampled_states: u64,
    /// `DiskPlan::pass_bytes`.
    pub pass_bytes: f64,
    /// `DiskPlan::claim_bytes`.
    pub claim_bytes: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub projection: Option<ProjectionFigures>,
}

/// A projection as `plan --disk --json` gives it: what it assumed (threads, layers, the disk's
/// bytes a second) and `DiskProjection`'s parts, named.
#[derive(Clone, Debug, serde::Serialize)]
#[allow(missing_docs)]
pub struct ProjectionFigures {
    pub threads: usize,
    pub layers: u32,
    pub disk_bytes_per_second: f64,
    pub passes: u64,
    pub bytes_moved: f64,
    pub disk_seconds: f64,
    pub expand_seconds: f64,
    pub scan_seconds: f64,
    /// `DiskProjection::total`.
    pub seconds: f64,
}

impl DiskPlan {
    /// The plan as `plan --disk --json` gives it, with `projection` made on `threads` threads
    /// over `layers` layers at `bandwidth` bytes a second.
    pub fn figures(
        &self,
        projection: Option<&DiskProjection>,
        threads: usize,
        layers: u32,
        bandwidth: f64,
    ) -> DiskPlanFigures {
        DiskPlanFigures {
            board: self.shape.to_string(),
            memory: self.memory,
            states: self.states,
            table_bytes: self.table_bytes,
            shards: self.shards,
            shard_bytes: self.shard_bytes,
            disk_bytes: self.disk_bytes,
            moves_per_state: self.moves_per_state,
            cross_fraction: self.cross_fraction,
            sampled_states: self.sampled,
            pass_bytes: self.pass_bytes(),
            claim_bytes: self.claim_bytes(),
            projection: projection.map(|t| ProjectionFigures {
                threads,
                layers,
                disk_bytes_per_second: bandwidth,
                passes: t.passes,
                bytes_moved: t.bytes,
                disk_seconds: t.disk,
                expand_seconds: t.expand,
                scan_seconds: t.scan,
                seconds: t.total(),
            }),
        }
    }
}

/// The wall time of `plan` over `layers` layers (one pass each and one to list the last) on
/// `threads` threads at the rates of `cal`, its disk reading and writing `bandwidth` bytes a
/// second.
pub fn project_disk(
    plan: &DiskPlan,
    cal: &Calibration,
    threads: usize,
    layers: u32,
    bandwidth: f64,
) -> DiskProjection {
    let threads = threads.max(1) as f64;
    let passes = u64::from(layers) + 1;
    let bytes = passes as f64 * plan.pass_bytes() + plan.claim_bytes();
    DiskProjection {
        passes,
        bytes,
        disk: bytes / bandwidth,
        expand: plan.states as f64 / (threads * cal.states_per_second),
        scan: passes as f64 * (plan.table_bytes as f64 / 8.0) / (threads * cal.words_per_second),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The plan's shards are the ones a search in that memory uses, and they hold the table;
    /// one shard sends no claims; more shards send more; the projection's parts follow the
    /// model (every shard read and written a pass, claims written and read, the disk's time
    /// at its bandwidth).
    #[test]
    fn disk_plans_follow_the_search_and_the_model() {
        let shape = Shape::new(3, 4).unwrap();
        let table = 239_500_800u64.div_ceil(32) * 8;
        let one = plan_disk(shape, 1 << 30, 10_000).unwrap();
        assert_eq!((one.shards, one.table_bytes), (1, table));
        assert_eq!((one.cross_fraction, one.claim_bytes()), (0.0, 0.0));
        let few = plan_disk(shape, 32 << 20, 10_000).unwrap();
        let many = plan_disk(shape, 1 << 20, 10_000).unwrap();
        assert!(few.shards > 1 && many.shards > few.shards);
        assert!(few.shard_bytes * few.shards as u64 >= table);
        assert!(few.shard_bytes <= (32 << 20) / 2);
        assert!(0.0 < few.cross_fraction && few.cross_fraction < many.cross_fraction);
        // Contiguous shards are cut on the leading digits of the tile sequence: horizontal
        // moves never leave theirs, so at most the vertical share of moves crosses (the engine
        // works on 4x3: 3 columns of 3 vertical edges, 2 moves an edge, of 34 moves).
        assert!(many.cross_fraction < 2.0 * 3.0 * 3.0 / 34.0);
        assert!(few.disk_bytes >= 2 * table);
        let cal = Calibration {
            board: "2x6".into(),
            threads: 1,
            words_per_second: 1e9,
            states_per_second: 1e7,
        };
        let p = project_disk(&few, &cal, 4, 53, 1e9);
        assert_eq!(p.passes, 54);
        let moved = 54.0 * 2.0 * table as f64
            + 16.0 * 239_500_800.0 * few.moves_per_state * few.cross_fraction;
        assert!((p.bytes - moved).abs() < 1.0);
        assert!((p.disk - moved / 1e9).abs() < 1e-9);
        assert!((p.expand - 239_500_800.0 / 4e7).abs() < 1e-9);
        assert!((p.scan - 54.0 * (table / 8) as f64 / 4e9).abs() < 1e-9);
        assert_eq!(p.total(), p.disk + p.expand + p.scan);
        assert!(plan_disk(shape, 1000, 10).is_err());
        assert!(plan_disk(Shape::new(1, 5).unwrap(), 1 << 20, 10).is_err());
    }
}

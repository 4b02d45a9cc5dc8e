//! What the places of a search do together (`Group`): the collectives of a distributed search,
//! which a search in one process (one table, or shards on disk) makes with itself (`Solo`).

use std::time::Duration;

/// The collective operations a distributed search needs. Every rank of the group calls each
/// operation the same number of times, in the same order.
pub trait Group {
    /// This rank, `0..size()`.
    fn rank(&self) -> usize;
    /// How many ranks the group has.
    fn size(&self) -> usize;
    /// Ranks of the group on this rank's machine, sharing its memory.
    fn node_ranks(&self) -> usize;
    /// The sum of `x` over all ranks, on every rank.
    fn sum(&self, x: u64) -> u64;
    /// The maximum of `x` over all ranks, on every rank.
    fn max(&self, x: u64) -> u64;
    /// Sends `out[k]` to rank k, for every k; returns what each rank sent to this one, by rank.
    fn exchange(&self, out: Vec<Vec<u64>>) -> Vec<Vec<u64>>;
    /// `exchange`, what arrives concatenated in rank order (a copy less under MPI).
    fn exchange_flat(&self, out: Vec<Vec<u64>>) -> Vec<u64> {
        self.exchange(out).concat()
    }
    /// Every rank's `mine`, concatenated in rank order, on every rank.
    fn all_gather(&self, mine: Vec<u64>) -> Vec<u64>;
    /// Time spent so far in collectives, waiting for other ranks (where it is kept: `Timed`).
    fn waited(&self) -> Duration {
        Duration::ZERO
    }
}

/// Seconds the ranks of a distributed search spent working on a layer (its time less the time
/// in collectives): the busiest rank's and the mean over ranks. Every layer waits for its
/// busiest rank, so Σ mean / Σ max over a run is its load balance (1 is perfect).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Busy {
    /// The busiest rank's work, in seconds.
    pub max: f64,
    /// The mean rank's work, in seconds.
    pub mean: f64,
}

/// The group of one process: every collective of one rank is the identity.
pub struct Solo;

impl Group for Solo {
    fn rank(&self) -> usize {
        0
    }
    fn size(&self) -> usize {
        1
    }
    fn node_ranks(&self) -> usize {
        1
    }
    fn sum(&self, x: u64) -> u64 {
        x
    }
    fn max(&self, x: u64) -> u64 {
        x
    }
    fn exchange(&self, out: Vec<Vec<u64>>) -> Vec<Vec<u64>> {
        out
    }
    fn all_gather(&self, mine: Vec<u64>) -> Vec<u64> {
        mine
    }
}

/// Whether `yes` holds on every rank of `group`.
pub fn everywhere(group: &dyn Group, yes: bool) -> bool {
    group.max(u64::from(!yes)) == 0
}

/// How busy the ranks of `group` were on a layer this one worked `work` on (`None` for one
/// rank).
pub fn busy(group: &dyn Group, work: Duration) -> Option<Busy> {
    if group.size() == 1 {
        return None;
    }
    let nanos = work.as_nanos() as u64;
    Some(Busy {
        max: group.max(nanos) as f64 * 1e-9,
        mean: group.sum(nanos) as f64 * 1e-9 / group.size() as f64,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One rank's collectives give back what they are given.
    #[test]
    fn a_solo_group_is_its_own_group() {
        assert_eq!(
            (Solo.rank(), Solo.size(), Solo.sum(7), Solo.max(3)),
            (0, 1, 7, 3)
        );
        assert_eq!(Solo.exchange(vec![vec![1, 2]]), vec![vec![1, 2]]);
        assert_eq!(Solo.all_gather(vec![4, 5]), vec![4, 5]);
        assert!(everywhere(&Solo, true) && !everywhere(&Solo, false));
        assert_eq!(busy(&Solo, Duration::from_secs(1)), None);
    }
}

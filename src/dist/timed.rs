//! A group that keeps the time its collectives take, so that a rank's work on a layer can be
//! told from its waiting for the others (`bfs::Busy`).

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::group::Group;

/// `group`, with the time spent in its collectives summed.
pub struct Timed<'a> {
    group: &'a dyn Group,
    nanos: AtomicU64,
}

impl<'a> Timed<'a> {
    /// `group`, its calls timed.
    pub fn new(group: &'a dyn Group) -> Timed<'a> {
        Timed {
            group,
            nanos: AtomicU64::new(0),
        }
    }

    fn timed<T>(&self, f: impl FnOnce() -> T) -> T {
        let clock = Instant::now();
        let out = f();
        let nanos = clock.elapsed().as_nanos() as u64;
        self.nanos.fetch_add(nanos, Ordering::Relaxed);
        out
    }
}

impl Group for Timed<'_> {
    fn rank(&self) -> usize {
        self.group.rank()
    }

    fn size(&self) -> usize {
        self.group.size()
    }

    fn node_ranks(&self) -> usize {
        self.group.node_ranks()
    }

    fn sum(&self, x: u64) -> u64 {
        self.timed(|| self.group.sum(x))
    }

    fn max(&self, x: u64) -> u64 {
        self.timed(|| self.group.max(x))
    }

    fn exchange(&self, out: Vec<Vec<u64>>) -> Vec<Vec<u64>> {
        self.timed(|| self.group.exchange(out))
    }

    fn exchange_flat(&self, out: Vec<Vec<u64>>) -> Vec<u64> {
        self.timed(|| self.group.exchange_flat(out))
    }

    fn all_gather(&self, mine: Vec<u64>) -> Vec<u64> {
        self.timed(|| self.group.all_gather(mine))
    }

    fn waited(&self) -> Duration {
        Duration::from_nanos(self.nanos.load(Ordering::Relaxed))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dist::threads;

    /// A rank that reaches a collective first waits there for the others, and that wait is
    /// counted; the results pass through unchanged.
    #[test]
    fn time_in_collectives_is_counted() {
        let got = threads::run(2, |g| {
            let timed = Timed::new(g);
            if g.rank() == 1 {
                std::thread::sleep(Duration::from_millis(200));
            }
            let sum = timed.sum(g.rank() as u64 + 1);
            (sum, timed.waited())
        });
        assert_eq!(got[0].0, 3);
        assert_eq!(got[1].0, 3);
        assert!(got[0].1 >= Duration::from_millis(150), "{:?}", got[0].1);
        assert!(got[1].1 < Duration::from_millis(150), "{:?}", got[1].1);
    }
}

//! A group whose ranks are threads of one process: what the tests run the distributed engine on
//! without MPI. Each collective writes this rank's part into a shared slot, waits for every rank,
//! reads the others', and waits again before the slots are reused.

use std::sync::{Barrier, Mutex};

use super::Group;

/// The state the ranks of one group share.
pub struct Shared {
    size: usize,
    barrier: Barrier,
    /// `mail[from][to]`: what `from` sends to `to` in the current collective.
    mail: Mutex<Vec<Vec<Vec<u64>>>>,
}

impl Shared {
    /// What `size` threads share.
    pub fn new(size: usize) -> Shared {
        assert!(size >= 1);
        Shared {
            size,
            barrier: Barrier::new(size),
            mail: Mutex::new(vec![vec![vec![]; size]; size]),
        }
    }

    /// The group as seen by rank `rank`.
    pub fn rank(&self, rank: usize) -> ThreadRank<'_> {
        assert!(rank < self.size);
        ThreadRank { shared: self, rank }
    }
}

/// One rank of a thread group.
pub struct ThreadRank<'a> {
    shared: &'a Shared,
    rank: usize,
}

impl ThreadRank<'_> {
    /// Sends `out[k]` to rank k; returns what each rank sent here, by rank.
    fn collect(&self, out: Vec<Vec<u64>>) -> Vec<Vec<u64>> {
        let s = self.shared;
        assert_eq!(out.len(), s.size);
        s.mail.lock().expect("not poisoned")[self.rank] = out;
        s.barrier.wait();
        let got: Vec<Vec<u64>> = {
            let mut mail = s.mail.lock().expect("not poisoned");
            (0..s.size)
                .map(|from| std::mem::take(&mut mail[from][self.rank]))
                .collect()
        };
        s.barrier.wait();
        got
    }
}

impl Group for ThreadRank<'_> {
    fn rank(&self) -> usize {
        self.rank
    }

    fn size(&self) -> usize {
        self.shared.size
    }

    fn node_ranks(&self) -> usize {
        self.shared.size
    }

    fn sum(&self, x: u64) -> u64 {
        self.collect(vec![vec![x]; self.size()])
            .iter()
            .map(|v| v[0])
            .sum()
    }

    fn max(&self, x: u64) -> u64 {
        let all = self.collect(vec![vec![x]; self.size()]);
        all.iter().map(|v| v[0]).max().unwrap_or(0)
    }

    fn exchange(&self, out: Vec<Vec<u64>>) -> Vec<Vec<u64>> {
        self.collect(out)
    }

    fn all_gather(&self, mine: Vec<u64>) -> Vec<u64> {
        self.collect(vec![mine; self.size()]).concat()
    }
}

/// Runs `f(rank)` on `size` threads, one per rank of a new group; the results by rank.
pub fn run<R: Send>(size: usize, f: impl Fn(&ThreadRank) -> R + Sync) -> Vec<R> {
    let shared = Shared::new(size);
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..size)
            .map(|k| {
                let (shared, f) = (&shared, &f);
                scope.spawn(move || f(&shared.rank(k)))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a rank panicked"))
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn collectives_combine_every_rank() {
        let got = run(3, |g| {
            let k = g.rank() as u64;
            let sum = g.sum(k + 1);
            let max = g.max(10 * k);
            // Rank k sends [k, to] to each rank `to`.
            let out = (0..3).map(|to| vec![k, to]).collect();
            let inbox = g.exchange(out).concat();
            let all = g.all_gather(vec![k; g.rank() + 1]);
            (sum, max, inbox, all)
        });
        for (k, (sum, max, inbox, all)) in got.into_iter().enumerate() {
            assert_eq!((sum, max), (6, 20));
            let k = k as u64;
            assert_eq!(inbox, vec![0, k, 1, k, 2, k]);
            assert_eq!(all, vec![0, 1, 1, 2, 2, 2]);
        }
    }
}

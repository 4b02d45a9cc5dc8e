//! How the work of a layer is cut up and handed to threads: a value the caller passes, with
//! defaults measured on this project's 2-core machine (see each field and
//! `docs/log/constants.md`). Like the granularity of webgraph's parallel visits, it changes the
//! speed, never the result.

use rayon::prelude::*;

use crate::index::space::StateSpace;

/// The granularity of a search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Schedule {
    /// States per parallel task of a table scan: large enough to amortise scheduling, small
    /// enough to balance (a wide range gives the same times). At least 1.
    pub chunk: u64,
    /// Tables of at most this many states are scanned on one thread: a scan of 3x3 (181,440
    /// states) takes microseconds, less than waking another thread for it. 0 scans every
    /// table in parallel.
    pub sequential_states: u64,
    /// Frontier states per parallel task when the frontier is a list. At least 1.
    pub list_chunk: usize,
    /// Largest layer whose indices are kept while searching (8 bytes each), to be expanded
    /// from the list rather than by scanning the table. 0 records nothing.
    pub record_cap: u64,
}

impl Default for Schedule {
    fn default() -> Self {
        Schedule {
            chunk: 1 << 18,
            sequential_states: 1 << 20,
            list_chunk: 1 << 12,
            record_cap: 1 << 24,
        }
    }
}

/// A contiguous range `lo..hi` of table slots: the unit of work of a scan.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Task {
    /// The first slot.
    pub lo: u64,
    /// One past the last slot.
    pub hi: u64,
}

impl Schedule {
    /// The table split into chunks of `chunk` slots, in ascending order.
    pub fn tasks(&self, space: &StateSpace) -> Vec<Task> {
        self.tasks_of(0, space.states())
    }

    /// The ranges `spans` split into chunks of at most `chunk` slots, in order.
    pub fn tasks_of_spans(&self, spans: &[(u64, u64)]) -> Vec<Task> {
        spans
            .iter()
            .flat_map(|&(lo, hi)| self.tasks_of(lo, hi))
            .collect()
    }

    /// The range `lo..hi` of the table split into chunks of `chunk` slots.
    pub fn tasks_of(&self, lo: u64, hi: u64) -> Vec<Task> {
        let chunk = self.chunk.max(1);
        (lo..hi)
            .step_by(chunk as usize)
            .map(|s| Task {
                lo: s,
                hi: (s + chunk).min(hi),
            })
            .collect()
    }

    /// `f` applied to every task of the table, in parallel unless the table is small, the tasks
    /// taken in a scattered order (a fixed permutation; the results come in that order).
    ///
    /// Taken in index order, the threads walk through the table in step, half of it apart at 2
    /// threads, and claim targets a fixed stride from where they are (a move of the blank from
    /// the top row lands a large weight away): in the growing layers, where most targets are
    /// claimed, their claims met on the same words. Scattered, the growing layers of 3x4 at 2
    /// threads take a sixth less time; at 1 thread the order makes no difference
    /// (`docs/log/constants.md`).
    pub fn each_task_scattered<R: Send>(
        &self,
        space: &StateSpace,
        f: impl Fn(Task) -> R + Sync + Send,
    ) -> Vec<R> {
        self.map(self.scattered(space), space.states(), f)
    }

    /// The tasks of the table in the order of `each_task_scattered`: by a multiplicative hash
    /// of their number.
    pub fn scattered(&self, space: &StateSpace) -> Vec<Task> {
        let chunk = self.chunk.max(1);
        let mut tasks = self.tasks(space);
        tasks.sort_by_key(|t| (t.lo / chunk).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        tasks
    }

    /// `f` applied to every task of the state ranges `spans`, in order, in parallel unless the
    /// states are few.
    pub fn each_task_of<R: Send>(
        &self,
        spans: &[(u64, u64)],
        f: impl Fn(Task) -> R + Sync + Send,
    ) -> Vec<R> {
        let states = spans.iter().map(|&(lo, hi)| hi - lo).sum();
        self.map(self.tasks_of_spans(spans), states, f)
    }

    /// `f` applied to `tasks`, which cover `states` states, in parallel unless they are few.
    fn map<R: Send>(
        &self,
        tasks: Vec<Task>,
        states: u64,
        f: impl Fn(Task) -> R + Sync + Send,
    ) -> Vec<R> {
        if states <= self.sequential_states {
            tasks.into_iter().map(f).collect()
        } else {
            tasks.into_par_iter().map(f).collect()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::puzzle::Puzzle;
    use crate::puzzle::board::{Cell, Shape};
    use crate::puzzle::metric::Metric;

    /// The tasks cover every slot exactly once and none exceeds the chunk.
    #[test]
    fn tasks_partition_the_table() {
        for (r, c, chunk) in [
            (2, 3, 7),
            (3, 3, 1000),
            (3, 3, 1 << 18),
            (2, 4, 1),
            (4, 2, 33),
        ] {
            let shape = Shape::new(r, c).unwrap();
            let space = StateSpace::new(
                &Puzzle::board(shape, Cell(shape.cells() - 1), Metric::Single).unwrap(),
                0,
            )
            .unwrap();
            let schedule = Schedule {
                chunk,
                ..Schedule::default()
            };
            let mut tasks = schedule.tasks(&space);
            assert!(tasks.iter().all(|t| t.lo < t.hi && t.hi - t.lo <= chunk));
            tasks.sort_by_key(|t| t.lo);
            assert_eq!(tasks[0].lo, 0);
            assert_eq!(tasks.last().unwrap().hi, space.states());
            assert!(tasks.windows(2).all(|w| w[0].hi == w[1].lo));
            // The scattered order is an order of the same tasks.
            let mut scattered = schedule.scattered(&space);
            scattered.sort_by_key(|t| t.lo);
            assert_eq!(scattered, tasks);
        }
    }
}

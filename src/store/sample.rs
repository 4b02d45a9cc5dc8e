//! Training sets from a saved table: uniformly random boards of its class with their exact
//! distances, of every depth or of one.
//!
//! Boards are drawn as `random` draws them (uniform over the goal's class), in parallel streams
//! of generators seeded from the seed and the stream's number (the same seed, the same sample,
//! on any number of threads), and looked up many at a time (`SavedTable::distances`). A sample of one depth keeps
//! the draws at that depth: each board of the depth is as likely as any other, and the draws
//! it takes are the class's states over the layer's (for 3x4's deepest layer, 18 boards of
//! 239,500,800, about 13 million draws a board). A sample whose draws would number over
//! `MOST_DRAWS` is refused, with the figure, before any is drawn.

use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;

use crate::error::Error;
use crate::puzzle::board::{Board, Shape};
use crate::puzzle::random::{solvable_board, Rng};
use crate::store::saved::SavedTable;

/// The most draws a sample of one depth may be expected to take (about a quarter of an hour
/// of lookups at a million a second).
pub const MOST_DRAWS: f64 = 1e9;

/// Boards drawn and looked up at once.
const BATCH: usize = 1 << 16;

/// Boards of one stream of draws (one generator, on one thread).
const STREAM: usize = 1 << 12;

/// Spreads stream numbers over the generator's seeds (SplitMix64's second multiplier).
const MIX: u64 = 0xBF58_476D_1CE4_E5B9;

/// Boards with their exact distances, in the order drawn.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sample {
    /// The boards.
    pub boards: Vec<Board>,
    /// Each board's distance to the goal.
    pub distances: Vec<u32>,
}

/// The memory a sample of `count` boards of `shape` holds: its boards, their distances, and a
/// batch of draws.
pub fn sample_bytes(shape: Shape, count: usize) -> f64 {
    (count as f64 + BATCH as f64) * (Board::bytes(shape) + 4.0)
}

impl SavedTable {
    /// `count` uniformly random boards of the table's class with their distances, the same for
    /// the same `seed`; only boards `depth` moves from the goal if given. `stop`, once set,
    /// ends the drawing with `Error::Stopped`. A sample that would not fit in the memory available
    /// is refused before any board is drawn (`Error::NoRoom`).
    pub fn sample(
        &self,
        count: usize,
        seed: u64,
        depth: Option<u32>,
        stop: Option<&AtomicBool>,
    ) -> Result<Sample, Error> {
        if let Some(d) = depth {
            self.check_depth(count, d)?;
        }
        let needed = sample_bytes(self.shape, count);
        crate::store::room::fits(needed).map_err(|limit| Error::NoRoom {
            what: format!("a sample of {count} {} boards", self.shape),
            needed: needed.min(u64::MAX as f64) as u64,
            limit,
        })?;
        let mut stream = 0;
        let mut sample = Sample::default();
        while sample.boards.len() < count {
            if stop.is_some_and(|s| s.load(Ordering::SeqCst)) {
                return Err(Error::Stopped(format!(
                    "the sample had {} of {count} boards",
                    sample.boards.len()
                )));
            }
            // Without a depth every draw is kept: draw no more than are missing.
            let n = match depth {
                Some(_) => BATCH,
                None => BATCH.min(count - sample.boards.len()),
            };
            let boards = self.draw(n, seed, &mut stream);
            let found = self.distances(&boards);
            for (board, d) in boards.into_iter().zip(found) {
                let d = d?;
                if depth.is_none_or(|want| want == d) && sample.boards.len() < count {
                    sample.boards.push(board);
                    sample.distances.push(d);
                }
            }
        }
        Ok(sample)
    }

    /// `n` boards drawn in parallel: streams of `STREAM` boards, the `k`th from stream
    /// `*stream + k` of `seed`, so that the draws do not depend on the threads.
    fn draw(&self, n: usize, seed: u64, stream: &mut u64) -> Vec<Board> {
        let first = *stream;
        let streams = n.div_ceil(STREAM);
        *stream += streams as u64;
        (0..streams)
            .into_par_iter()
            .flat_map_iter(|k| {
                let key = first + k as u64;
                let mut rng = Rng::new(Rng::new(seed ^ key.wrapping_mul(MIX)).next_u64());
                let (shape, goal) = (self.shape, self.goal);
                (0..STREAM.min(n - k * STREAM)).map(move |_| solvable_board(shape, goal, &mut rng))
            })
            .collect()
    }

    /// Refuses a depth no board is at, or one too rare to draw `count` boards of.
    fn check_depth(&self, count: usize, depth: u32) -> Result<(), Error> {
        let Some(&at) = self.layers.get(depth as usize) else {
            return Err(Error::Argument(format!(
                "no {} board is {depth} moves from the goal: the most is {}",
                self.shape, self.eccentricity
            )));
        };
        let states: u64 = self.layers.iter().sum();
        let draws = count as f64 * states as f64 / at as f64;
        if draws > MOST_DRAWS {
            return Err(Error::Argument(format!(
                "{count} boards at depth {depth} would take about {draws:.1e} draws \
                 ({at} of {states} states are there); ask for fewer"
            )));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bfs::{search_from, Schedule};
    use crate::index::puzzle::Puzzle;
    use crate::index::space::StateSpace;
    use crate::puzzle::board::{Cell, Shape};
    use crate::puzzle::metric::Metric;

    /// A sample's distances are the table's, its boards of the goal's class, its draws
    /// reproducible; a sample of one depth holds that depth only, and its boards are spread
    /// over the layer; impossible and too rare depths are refused.
    #[test]
    fn samples_hold_their_boards_distances() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.tst");
        let shape = Shape::new(2, 4).unwrap();
        let space =
            StateSpace::new(&Puzzle::board(shape, Cell(7), Metric::Single).unwrap(), 0).unwrap();
        let found = search_from(&space, space.goal_index(), Schedule::default(), &|_| {});
        let found = found.unwrap();
        crate::store::saved::save(&path, &space, &found.table, &found.layers).unwrap();
        let table = SavedTable::open(&path).unwrap();
        let all = table.sample(5000, 7, None, None).unwrap();
        assert_eq!(all.boards.len(), 5000);
        for (b, &d) in all.boards.iter().zip(&all.distances) {
            assert_eq!(table.solve(b).unwrap().len() as u32 - 1, d);
        }
        assert_eq!(table.sample(5000, 7, None, None).unwrap(), all);
        assert_ne!(table.sample(5000, 8, None, None).unwrap(), all);
        // 2x4 has 85 boards at depth 10 from a corner goal (lightln2's SlidingTilesSolver log
        // of 4x2, ../shared/reference/stm_2x4_corner.csv): 3,000 draws meet every one of them,
        // each about 35 times.
        let ten = table.sample(3000, 1, Some(10), None).unwrap();
        assert!(ten.distances.iter().all(|&d| d == 10));
        let mut seen = std::collections::HashMap::new();
        ten.boards
            .iter()
            .for_each(|b| *seen.entry(b).or_insert(0) += 1);
        assert_eq!(seen.len(), 85);
        assert!(seen.values().all(|&n| (10..=70).contains(&n)), "{seen:?}");
        let err = table
            .sample(1, 1, Some(table.eccentricity + 1), None)
            .unwrap_err();
        assert!(err.to_string().contains("the most is"), "{err}");
        let err = table.sample(usize::MAX / 2, 1, Some(0), None).unwrap_err();
        assert!(err.to_string().contains("draws"), "{err}");
        let stop = AtomicBool::new(true);
        let err = table.sample(10, 1, None, Some(&stop)).unwrap_err();
        assert!(matches!(err, Error::Stopped(_)), "{err}");
    }
}

//! A board's solution from what answers it (`Solver`): a saved table (optimal, in its metric),
//! pattern databases searched by IDA* (optimal, single-tile), or the constructive solver (any
//! size, not always optimal). Every solution is replayed to its goal before it is returned.

use rayon::prelude::*;
use serde::Serialize;

use crate::error::Error;
use crate::optimal::heuristic::Heuristic;
use crate::optimal::ida::{self, Limits};
use crate::puzzle::board::{Board, Cell, GoalBlank, Shape};
use crate::puzzle::construct;
use crate::puzzle::moves::{self, Moves, SlidePath};
use crate::store::saved::SavedTable;

/// What answers a board's questions (`distance`, `solve`).
pub enum Solver {
    /// A table saved by a search: every distance and an optimal path, in its metric.
    Table(Box<SavedTable>),
    /// Pattern databases, whose sum guides IDA* to an optimal single-tile solution.
    Patterns(Box<Heuristic>),
    /// The constructive solver, row by row, to the goal with its blank at `goal`: any size.
    Construct {
        /// The goal's blank.
        goal: GoalBlank,
    },
}

/// One board's solution.
pub struct Solution {
    /// The moves one cell at a time (what is replayed).
    pub moves: Moves,
    /// In the multi-tile metric, the same moves as slides (what is counted).
    pub slides: Option<SlidePath>,
    /// No solution is shorter.
    pub optimal: bool,
    /// A lower bound on every solution's length: the databases' sum at the start, or the
    /// Manhattan distance.
    pub lower_bound: usize,
    /// What IDA* took, where it searched.
    pub effort: Option<Effort>,
}

/// What a search for one board took.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Effort {
    /// Nodes expanded.
    pub nodes: u64,
    /// Seconds.
    pub seconds: f64,
}

impl Solution {
    /// Moves counted in the solution's metric.
    pub fn len(&self) -> usize {
        self.slides
            .as_ref()
            .map_or(self.moves.len(), SlidePath::len)
    }

    /// No move at all: the board is its goal.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl Solver {
    /// The board size it answers for; none for the constructive solver (any).
    pub fn shape(&self) -> Option<Shape> {
        match self {
            Solver::Table(t) => Some(t.shape),
            Solver::Patterns(h) => Some(h.shape),
            Solver::Construct { .. } => None,
        }
    }

    /// A solution for `board` (IDA* within `limits`), replayed to the goal before it is
    /// returned. `Error::Unsolvable` if the goal cannot be reached from it.
    pub fn solve(&self, board: &Board, limits: Limits) -> Result<Solution, Error> {
        let (solution, goal) = match self {
            Solver::Table(table) => {
                let path = table.solve(board)?;
                let (moves, slides) = table.metric().path_moves(&path);
                let s = Solution {
                    moves,
                    slides,
                    optimal: true,
                    lower_bound: construct::manhattan(board, table.goal),
                    effort: None,
                };
                (s, table.goal)
            }
            Solver::Patterns(h) => {
                let started = std::time::Instant::now();
                let solved = ida::solve(h, board, limits)?;
                let s = Solution {
                    moves: solved.moves,
                    slides: None,
                    optimal: true,
                    lower_bound: solved.start_bound as usize,
                    effort: Some(Effort {
                        nodes: solved.expanded,
                        seconds: started.elapsed().as_secs_f64(),
                    }),
                };
                (s, h.goal)
            }
            Solver::Construct { goal } => {
                let goal: Cell = goal.resolve(board.shape())?;
                let c = construct::solve(board, goal)?;
                // A solution as short as a lower bound is optimal, however it was found.
                let optimal = c.moves.len() == c.lower_bound;
                let s = Solution {
                    moves: c.moves,
                    slides: None,
                    optimal,
                    lower_bound: c.lower_bound,
                    effort: None,
                };
                (s, goal)
            }
        };
        moves::verify(board, &solution.moves, &Board::goal(board.shape(), goal))?;
        Ok(solution)
    }

    /// The solutions of `boards`, in order, solved in parallel on the current rayon pool (a
    /// board a task), `solved` told after each. A stop (`limits.stop`) ends them all: the
    /// first `Error::Stopped` is returned alone.
    pub fn solve_all(
        &self,
        boards: &[Board],
        limits: Limits,
        solved: &(dyn Fn() + Sync),
    ) -> Result<Vec<Result<Solution, Error>>, Error> {
        let out: Vec<Result<Solution, Error>> = boards
            .par_iter()
            .map(|b| {
                let s = self.solve(b, limits);
                solved();
                s
            })
            .collect();
        if let Some(Err(Error::Stopped(why))) =
            out.iter().find(|s| matches!(s, Err(Error::Stopped(_))))
        {
            return Err(Error::Stopped(why.clone()));
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The constructive solver's solutions reach the goal (replayed), are no shorter than the
    /// Manhattan distance, and are optimal only when as short as it; an unsolvable board is
    /// said to be one.
    #[test]
    fn constructive_solutions_reach_the_goal() {
        let solver = Solver::Construct {
            goal: GoalBlank::Last,
        };
        assert_eq!(solver.shape(), None);
        let boards: Vec<Board> = [
            "1 2 3/4 5 6/7 0 8",
            "8 6 7/2 5 4/3 0 1",
            "1 2 3/4 5 6/7 8 0",
        ]
        .iter()
        .map(|t| Board::parse(t, None).unwrap())
        .collect();
        let solved = solver
            .solve_all(&boards, Limits::default(), &|| {})
            .unwrap();
        let lengths: Vec<usize> = solved.iter().map(|s| s.as_ref().unwrap().len()).collect();
        assert_eq!(lengths[0], 1);
        assert_eq!(lengths[2], 0);
        // 8 6 7/2 5 4/3 0 1 is one of 3x3's two antipodes: 31 moves at least.
        assert!(lengths[1] >= 31);
        for s in solved.iter().map(|s| s.as_ref().unwrap()) {
            assert!(s.len() >= s.lower_bound);
            assert_eq!(s.optimal, s.len() == s.lower_bound);
        }
        let swapped = Board::parse("2 1 3/4 5 6/7 8 0", None).unwrap();
        assert!(matches!(
            solver.solve(&swapped, Limits::default()),
            Err(Error::Unsolvable(_))
        ));
    }
}

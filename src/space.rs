//! The dense index over exactly the (RC)!/2 states of the goal's class.
//!
//! A state is (blank cell, sequence of the other tiles in reading order). Blocks are blank-major:
//! `index = blank · m!/2 + rank(sequence)`, where `rank` is the parity-halved Lehmer rank. Every
//! blank cell fixes the parity of the sequences that go with it (a vertical move moves one tile
//! past C-1 others), so each block holds exactly one parity class, and the blank's checkerboard
//! colour fixes the parity of the depth.
//!
//! The engine works in whichever orientation has fewer columns (a vertical move then rotates a
//! shorter window of the sequence; with 2 columns it is one adjacent swap) and reports boards in
//! the user's orientation.

use crate::board::{Board, Cell, Shape};
use crate::error::Error;
use crate::rank::{Indexer, MAX_TILES};

#[derive(Clone, Debug)]
pub struct StateSpace {
    /// The board as the user gave it.
    pub user_shape: Shape,
    pub user_goal: Cell,
    /// The engine's orientation: `cols <= rows`.
    pub shape: Shape,
    pub goal: Cell,
    pub transposed: bool,
    pub indexer: Indexer,
    /// States per blank cell: m!/2.
    pub block: u64,
    /// `parity[b]`: parity of every sequence that goes with blank cell b (engine orientation).
    pub parity: Vec<u8>,
}

impl StateSpace {
    /// The index for a board of at most `MAX_TILES + 1` cells.
    pub fn new(user_shape: Shape, user_goal: Cell) -> Result<StateSpace, Error> {
        let n = user_shape.cells();
        if n > MAX_TILES + 1 {
            return Err(Error::Shape(format!(
                "{user_shape} has {n} cells; the index covers boards of up to {} cells",
                MAX_TILES + 1
            )));
        }
        let transposed = user_shape.cols > user_shape.rows;
        let (shape, goal) = if transposed {
            (
                user_shape.transposed(),
                user_shape.transpose_cell(user_goal),
            )
        } else {
            (user_shape, user_goal)
        };
        let indexer = Indexer::new(n - 1);
        // The goal sequence is sorted (parity 0); each row between blank and goal adds C-1.
        let parity = (0..n)
            .map(|b| (((shape.cols - 1) * shape.row(Cell(b)).abs_diff(shape.row(goal))) & 1) as u8)
            .collect();
        Ok(StateSpace {
            user_shape,
            user_goal,
            shape,
            goal,
            transposed,
            block: indexer.class_size(),
            indexer,
            parity,
        })
    }

    /// Number of indexed states: (RC)!/2.
    pub fn states(&self) -> u64 {
        self.block * self.shape.cells() as u64
    }

    pub fn tiles(&self) -> usize {
        self.indexer.tiles()
    }

    /// Splits an index into (engine blank cell, rank within its block).
    #[inline(always)]
    pub fn split(&self, index: u64) -> (Cell, u64) {
        (Cell((index / self.block) as usize), index % self.block)
    }

    /// The index of a board given in the user's orientation; `None` if it is not in the goal's
    /// class (unsolvable).
    pub fn index(&self, board: &Board) -> Option<u64> {
        assert_eq!(board.shape(), self.user_shape);
        let engine = if self.transposed {
            board.transposed(self.user_goal)
        } else {
            board.clone()
        };
        let blank = engine.blank();
        let seq: Vec<u8> = engine.tiles().map(|t| (t - 1) as u8).collect();
        let mut digits = [0u8; MAX_TILES];
        if self.indexer.lehmer(&seq, &mut digits) != self.parity[blank.0] {
            return None;
        }
        Some(blank.0 as u64 * self.block + self.indexer.rank(&seq))
    }

    /// The board at `index`, in the user's orientation.
    pub fn board(&self, index: u64) -> Board {
        let (blank, rank) = self.split(index);
        let (mut digits, mut seq) = ([0u8; MAX_TILES], [0u8; MAX_TILES]);
        self.indexer
            .unrank(rank, self.parity[blank.0], &mut digits, &mut seq);
        let mut tiles = seq[..self.tiles()].iter().map(|&x| u32::from(x) + 1);
        let cells = (0..self.shape.cells())
            .map(|i| {
                if i == blank.0 {
                    0
                } else {
                    tiles.next().expect("m tiles")
                }
            })
            .collect();
        let engine = Board::new(self.shape, cells).expect("unrank yields a permutation");
        if self.transposed {
            engine.transposed(self.goal)
        } else {
            engine
        }
    }

    pub fn goal_index(&self) -> u64 {
        self.index(&Board::goal(self.user_shape, self.user_goal))
            .expect("the goal is in its class")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parity::solvable_by_inversions;

    #[test]
    fn every_index_is_a_solvable_board_and_ranks_back() {
        for (r, c) in [(2, 2), (2, 3), (3, 2), (2, 4), (3, 3)] {
            let shape = Shape::new(r, c).unwrap();
            for g in [0, shape.cells() / 2, shape.cells() - 1] {
                let space = StateSpace::new(shape, Cell(g)).unwrap();
                for i in 0..space.states() {
                    let b = space.board(i);
                    assert!(solvable_by_inversions(&b, Cell(g)), "{shape} goal {g}: {b}");
                    assert_eq!(space.index(&b), Some(i));
                    // Two tiles swapped: the other class.
                    let mut cells = b.cells().to_vec();
                    let (x, y) = {
                        let mut t = (0..cells.len()).filter(|&k| cells[k] != 0);
                        (t.next().unwrap(), t.next().unwrap())
                    };
                    cells.swap(x, y);
                    let swapped = Board::new(shape, cells).unwrap();
                    assert!(!solvable_by_inversions(&swapped, Cell(g)));
                    assert_eq!(space.index(&swapped), None);
                }
            }
        }
    }
}

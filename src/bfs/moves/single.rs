//! Single-tile moves: the blank swaps places with a tile beside it. The graph is bipartite
//! (each move flips the blank's checkerboard colour), so the table tells a layer by its blank's
//! colour: `FRONTIER` for the frontier, the depth mod 4 once settled (`bfs::table`).

use super::kind::{Aids, ColourCounts, Ended, MoveKind};
use crate::bfs::coding::Coding;
use crate::bfs::layer::{moves, BlankMoves, Codes, Kernels};
use crate::bfs::place::{finish_last, Place};
use crate::bfs::policy::{Way, PUSH_COST};
use crate::bfs::schedule::Schedule;
use crate::bfs::state::SearchState;
use crate::error::Error;
use crate::index::space::StateSpace;

/// Single-tile moves on a board: the blank's moves from each cell.
pub struct SingleTile {
    moves: Vec<BlankMoves>,
    cols: usize,
}

impl MoveKind for SingleTile {
    type Tables = [BlankMoves];
    const PUSH_COST: u64 = PUSH_COST;
    const CODING: Coding = Coding::Coloured;

    /// No aids: a push's frontier is exactly the states holding `FRONTIER` of its colour.
    fn new(space: &StateSpace, _aids: Aids) -> SingleTile {
        SingleTile {
            moves: moves(space),
            cols: space.shape().cols,
        }
    }

    fn tables(&self) -> &[BlankMoves] {
        &self.moves
    }

    fn kernels(&self) -> Kernels<[BlankMoves]> {
        Kernels::single(self.cols)
    }

    fn codes(depth: u32) -> Codes {
        Codes::at(depth)
    }

    /// A push looks at the frontier's colour, a pull at the next layer's.
    fn scan_colour(way: Way, colour: usize) -> usize {
        match way {
            Way::Pull => colour ^ 1,
            Way::List | Way::Push => colour,
        }
    }

    /// The next layer has the other colour.
    fn unseen(counts: &ColourCounts, colour: usize) -> u64 {
        counts.unseen_of(colour ^ 1)
    }

    /// Every task of a pull reads the frontier: it is settled by the layer after.
    fn unsettles(way: Way) -> bool {
        way == Way::Pull
    }

    /// The last layer is the one before the colour whose states are all seen: the table tells
    /// it, and the search stops before building a layer after it.
    fn may_be_last(&self, _lag: u32, _unseen: u64, _room: u64) -> bool {
        false
    }

    /// One pass settles the last layer (`FRONTIER` of its colour) and lists it.
    fn last<P: Place>(
        place: &P,
        space: &StateSpace,
        state: &mut SearchState,
        ended: Ended,
        schedule: &Schedule,
    ) -> Result<(Vec<u64>, Option<u64>), Error> {
        let codes = Self::codes(state.depth());
        let (last, late) = finish_last(place, space, state, ended.colour, codes, schedule)?;
        Ok((last, Some(late)))
    }
}

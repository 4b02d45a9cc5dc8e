//! Moves on a graph: the blank swaps places with the tile on a vertex joined to its own. Every
//! move flips the parity of the whole configuration (`StateSpace::colours`), so the table tells
//! a layer as a board's does (`single`), with the scans of `layer::graph`.
//!
//! The search knows the states it may still find when the goal's component is the whole index:
//! Wilson's theorem says so of every 2-connected graph but the cycles and θ0, and the search
//! ends, as a board's, when they are all seen (a graph on which it did not hold would end in
//! an error: states left unseen). On the others the component may be smaller than the index,
//! so the search ends at the first layer that finds nothing, and every layer that fits the
//! record is listed, as the last may be any of them.

use super::kind::{recorded_last, Aids, ColourCounts, Ended, MoveKind};
use super::single::SingleTile;
use crate::bfs::coding::Coding;
use crate::bfs::layer::{Codes, GraphTables, Kernels};
use crate::bfs::place::Place;
use crate::bfs::policy::{Way, PUSH_COST};
use crate::bfs::schedule::Schedule;
use crate::bfs::state::SearchState;
use crate::error::Error;
use crate::graph::wilson::Case;
use crate::index::space::StateSpace;

/// Moves on a graph: each slot's blank's moves, and whether the goal's component is the whole
/// index.
pub struct GraphMoves {
    tables: GraphTables,
    whole: bool,
}

impl GraphMoves {
    /// Whether Wilson's theorem makes the goal's component of `space` all of it.
    fn whole(space: &StateSpace) -> bool {
        let graph = space.graph().expect("a graph's space");
        matches!(Case::of(graph), Case::Bipartite | Case::Other)
    }
}

impl MoveKind for GraphMoves {
    type Tables = GraphTables;
    const PUSH_COST: u64 = PUSH_COST;
    const CODING: Coding = Coding::Coloured;

    fn new(space: &StateSpace, _aids: Aids) -> GraphMoves {
        GraphMoves {
            tables: GraphTables::new(space),
            whole: Self::whole(space),
        }
    }

    fn tables(&self) -> &GraphTables {
        &self.tables
    }

    fn kernels(&self) -> Kernels<GraphTables> {
        Kernels::graph()
    }

    fn codes(depth: u32) -> Codes {
        SingleTile::codes(depth)
    }

    /// The single-tile metric's rules, as the layers alternate a colour as its do.
    fn scan_colour(way: Way, colour: usize) -> usize {
        SingleTile::scan_colour(way, colour)
    }

    fn unseen(counts: &ColourCounts, colour: usize) -> u64 {
        SingleTile::unseen(counts, colour)
    }

    fn unsettles(way: Way) -> bool {
        SingleTile::unsettles(way)
    }

    /// Where the component may be smaller than the index, any layer may be the last.
    fn may_be_last(&self, _lag: u32, _unseen: u64, _room: u64) -> bool {
        !self.whole
    }

    fn ends_when_empty(&self) -> bool {
        !self.whole
    }

    /// The frontier, settled and listed by one pass if it still holds `FRONTIER`; its list if
    /// a push or a list that found nothing beyond it settled it (`emptied`).
    fn last<P: Place>(
        place: &P,
        space: &StateSpace,
        state: &mut SearchState,
        ended: Ended,
        schedule: &Schedule,
    ) -> Result<(Vec<u64>, Option<u64>), Error> {
        if matches!(ended.emptied, Some(Way::Push | Way::List)) {
            return recorded_last(state);
        }
        SingleTile::last(place, space, state, ended, schedule)
    }
}

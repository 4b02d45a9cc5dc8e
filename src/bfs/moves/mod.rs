//! The kinds of moves a search makes, as types: what the layer loop (`driver`) asks of them,
//! so that it, the places and the analyses never ask which kind they run.
//!
//! A kind of moves (`MoveKind`) gives the scans that build a layer (`layer::Kernels`) and the
//! tables they read, the codes a depth writes in the 2-bit table, how many states are left
//! to find, and how the search ends. Three are implemented, one a file:
//! - `single`: one tile a move. The graph is bipartite: the blank's colour tells layer d+1
//!   from layer d-1, so the table holds `FRONTIER` and settled depths mod 4, a pull leaves
//!   its frontier for the next layer to settle, and the last layer is settled and listed by
//!   one pass over the table;
//! - `multi`: the blank slides any distance along its row or column. Layers mix colours: the
//!   table codes depth d as 1 + d mod 3, nothing is settled, and as the table cannot tell the
//!   last layer from those 3, 6, … before it, a layer that may be the last is recorded;
//! - `graph`: the blank moves along an edge of any graph. The layers alternate the parity of
//!   the whole configuration, so its table is coded as single tiles'; where the goal's
//!   component may be smaller than the index, the search ends at a layer that finds nothing.
//!
//! A fourth kind is one more file implementing `MoveKind` (`kind`), and one arm in
//! `with_moves_of`, the one place a space (its graph, or its metric) becomes a type.

mod graph;
mod kind;
mod multi;
mod single;

use crate::bfs::coding::Coding;
use crate::bfs::layer::Codes;
use crate::index::puzzle::Ground;
use crate::index::space::StateSpace;
use crate::puzzle::metric::Metric;

pub use graph::GraphMoves;
pub use kind::{Aids, ColourCounts, Ended, MoveKind, WithMoves};
pub use multi::MultiTile;
pub use single::SingleTile;

/// The code convention of the table of a search of `space` (`MoveKind::CODING`).
pub fn coding(space: &StateSpace) -> Coding {
    struct Of;
    impl WithMoves for Of {
        type Output = Coding;
        fn run<M: MoveKind>(self) -> Coding {
            M::CODING
        }
    }
    with_moves_of(space, Of)
}

/// The codes of the step that expands layer `depth` of a search of `space`
/// (`MoveKind::codes`).
pub fn codes_of(space: &StateSpace, depth: u32) -> Codes {
    struct Of(u32);
    impl WithMoves for Of {
        type Output = Codes;
        fn run<M: MoveKind>(self) -> Codes {
            M::codes(self.0)
        }
    }
    with_moves_of(space, Of(depth))
}

/// Runs `work` with the moves of `metric` on a board.
pub fn with_moves<W: WithMoves>(metric: Metric, work: W) -> W::Output {
    match metric {
        Metric::Single => work.run::<SingleTile>(),
        Metric::Multi => work.run::<MultiTile>(),
    }
}

/// Runs `work` with the moves of `space`'s puzzle: a graph's, or its metric's on a board. The
/// one place a puzzle's kind of moves becomes a type.
pub fn with_moves_of<W: WithMoves>(space: &StateSpace, work: W) -> W::Output {
    match space.puzzle().ground() {
        Ground::Graph(_) => work.run::<GraphMoves>(),
        Ground::Board(_) => with_moves(space.metric(), work),
    }
}

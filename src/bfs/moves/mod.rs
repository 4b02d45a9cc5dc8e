//! The kinds of moves a search makes, as types: what the layer loop (`driver`) asks of them,
//! so that it, the places and the analyses never ask which kind they run.
//!
//! A kind of moves (`MoveKind`) gives the scans that build a layer (`layer::Kernels`) and the
//! tables they read, the codes a depth writes in the 2-bit table, how many states are left
//! to find, and how the search ends. Two are implemented, one a file:
//! - `single`: one tile a move. The graph is bipartite: the blank's colour tells layer d+1
//!   from layer d-1, so the table holds `FRONTIER` and settled depths mod 4, a pull leaves
//!   its frontier for the next layer to settle, and the last layer is settled and listed by
//!   one pass over the table;
//! - `multi`: the blank slides any distance along its row or column. Layers mix colours: the
//!   table codes depth d as 1 + d mod 3, nothing is settled, and as the table cannot tell the
//!   last layer from those 3, 6, … before it, a layer that may be the last is recorded.
//!
//! A third kind is one more file implementing `MoveKind` (`kind`), and one arm in `with_moves`,
//! the one place a metric (a value of the index) becomes a type.

mod kind;
mod multi;
mod single;

use crate::bfs::coding::Coding;
use crate::puzzle::metric::Metric;

pub use kind::{Aids, ColourCounts, MoveKind, WithMoves};
pub use multi::MultiTile;
pub use single::SingleTile;

/// The code convention of the table of a search in `metric` (`MoveKind::CODING`).
pub fn coding(metric: Metric) -> Coding {
    struct Of;
    impl WithMoves for Of {
        type Output = Coding;
        fn run<M: MoveKind>(self) -> Coding {
            M::CODING
        }
    }
    with_moves(metric, Of)
}

/// Runs `work` with the moves of `metric`.
pub fn with_moves<W: WithMoves>(metric: Metric, work: W) -> W::Output {
    match metric {
        Metric::Single => work.run::<SingleTile>(),
        Metric::Multi => work.run::<MultiTile>(),
    }
}

//! The engine: layer-synchronous parallel breadth-first search from a start state over a
//! 2-bit table.
//!
//! Layer d+1 is built from layer d alone (bipartite graph: neighbours of depth d lie at d±1).
//! The table marks the frontier exactly (`table`: `FRONTIER` with the layer's blank colour;
//! expanded states are settled), so no state is expanded twice. Three ways to build a layer,
//! the cheapest chosen each time (`policy`); all give the same layer:
//! - **list**: a layer small enough to have been recorded (its indices kept as it was found) is
//!   expanded from its list, sorted so that consecutive states share their unranking work;
//! - **push**: scan the table for the frontier and claim its unseen neighbours, settling the
//!   frontier as it goes;
//! - **pull**: scan for unseen states of the next colour and mark those with a neighbour in the
//!   frontier. Exact (an unseen state's neighbours are at depth d or more), and its cost is the
//!   number of unseen states (each about as costly as a push expansion), so it takes over once
//!   they are fewer than the frontier. Every task reads the
//!   frontier, so a pull leaves it unsettled: the next pull settles it in each task's own slots
//!   before marking there, and a list or push layer after a pull settles it in one pass first.
//!
//! The search ends when every state of the next layer's colour is seen; the last layer then
//! still holds `FRONTIER`, and one pass lists it (the antipodes) and settles it.
//!
//! The work is split into tasks of consecutive states handed to rayon (`schedule`); the result
//! does not depend on the thread count or the schedule. The engine prints nothing: after each
//! layer it tells its caller what it found, how and in what time (`LayerDone`).
//!
//! The layer loop is written once (`driver`), generic over two axes: where the table lives, a
//! `place::Place` (one table here, `local`; a rank's shard of it, `dist::search`; shard files,
//! `store::disk`), and the kind of moves, a `moves::MoveKind` (single-tile and multi-tile; their
//! codes, scans and ends). The rest is in rooms of one concern: the scans (`layer`), the
//! choice of a layer's way (`policy`), the tasks (`schedule`), the table (`table`) and its split
//! over ranks (`shard`), the state at a boundary (`state`), the settling and recount of a
//! finished table (`recount`), how its codes tell depths apart (`coding`), the CPU dispatch
//! (`bits`).
//!
//! A puzzle on a graph runs on the same loop (its moves `moves::GraphMoves`, its scans
//! `layer::graph`, its index `StateSpace::of_graph`). Beside the loop, `walk` splits every
//! configuration of a graph's n! into components over a bit each (`theorem --graph`, where a
//! puzzle may have (n-1)! components, which a search from one start would take one at a time).

// Engine internals: public for the benches, the fuzz targets and the layers above, hidden
// from the documentation and outside any stability promise.
#[doc(hidden)]
pub mod bits;
#[doc(hidden)]
pub mod coding;
#[doc(hidden)]
pub mod driver;
#[doc(hidden)]
pub mod layer;
mod local;
#[doc(hidden)]
pub mod moves;
#[doc(hidden)]
pub mod place;
#[doc(hidden)]
pub mod policy;
#[doc(hidden)]
pub mod recount;
#[doc(hidden)]
pub mod schedule;
#[doc(hidden)]
pub mod shard;
#[doc(hidden)]
pub mod state;
#[doc(hidden)]
pub mod table;
pub mod walk;

pub use driver::{Driver, Hook, LayerDone, Outcome};
pub use local::{search, search_from, Search};
pub use place::{Busy, DiskLayer};
pub use recount::{residues, settle, Recount};
pub use schedule::{Schedule, Task};
pub use state::SearchState;

//! The engine: layer-synchronous parallel breadth-first search from a start state over a
//! 2-bit table.
//!
//! Layer d+1 is built from layer d alone. Three ways to build a layer, the cheapest chosen each
//! time (`policy`); all give the same layer:
//! - **list**: a layer small enough to have been recorded (its indices kept as it was found) is
//!   expanded from its list, sorted so that consecutive states share their unranking work;
//! - **push**: scan the table for the frontier and claim its unseen neighbours;
//! - **pull**: scan for unseen states and mark those with a neighbour in the frontier. Exact
//!   (an unseen state's neighbours are at depth d or more), and its cost is the number of
//!   unseen states (each about as costly as a push expansion), so it takes over once they are
//!   fewer than the frontier.
//!
//! How the table's 2-bit codes tell the layers apart is the kind of moves' (`coding`). Where
//! every move flips a colour (single tiles: the blank's checkerboard colour; a graph's puzzle:
//! the configuration's parity), the table marks the frontier exactly, `FRONTIER` with the
//! layer's colour, and expanded states are settled to their depth mod 4: no state is expanded
//! twice. A pull leaves the frontier unsettled (every task reads it): the next pull settles it
//! in each task's own slots before marking there, and a list or push layer after a pull
//! settles it in one pass first. The search ends when every state of the next layer's colour
//! is seen (or, on a graph whose puzzle is not the whole index, when a layer finds nothing);
//! the last layer is then listed (the antipodes) and settled by one pass. Multi-tile moves
//! keep the colour of a two-cell slide: their codes are 1 + depth mod 3, never settled, and a
//! scan of the frontier's code also finds the layers 3, 6, … before it (`layer::multi`).
//!
//! The work is split into tasks of consecutive states handed to rayon (`schedule`); the result
//! does not depend on the thread count or the schedule. The engine prints nothing: after each
//! layer it tells its caller what it found, how and in what time (`LayerDone`).
//!
//! The layer loop is written once (`driver`), generic over two axes: where the table lives, a
//! `place::Place` (one table here, `local`; a rank's shard of it, `dist::search`; shard files,
//! `store::disk`), and the kind of moves, a `moves::MoveKind` (single-tile, multi-tile and a
//! graph's; their codes, scans and ends). The rest is in rooms of one concern: the scans (`layer`), the
//! choice of a layer's way (`policy`), the tasks (`schedule`), the table (`table`) and its split
//! over ranks (`shard`), what the places do together (`group`), the state at a boundary
//! (`state`), what a finished search gives (`searched`), the settling and recount of a finished
//! table (`recount`), how its codes tell depths apart (`coding`), the CPU dispatch (`bits`).
//!
//! A puzzle on a graph runs on the same loop (its moves `moves::GraphMoves`, its scans
//! `layer::graph`, its index `StateSpace::new` of a graph's puzzle). Beside the loop, `walk` splits every
//! configuration of a graph's n! into components over a bit each (`theorem --graph`, where a
//! puzzle may have (n-1)! components, which a search from one start would take one at a time),
//! and `arrangements` searches the arrangements of tokens whose labels repeat, with several
//! blanks (pebble motion), over a 2-bit table of its own index (`index::arrangement`).

// Engine internals: public for the benches, the fuzz targets and the layers above, hidden
// from the documentation and outside any stability promise.
pub mod arrangements;
#[doc(hidden)]
pub mod bits;
#[doc(hidden)]
pub mod coding;
#[doc(hidden)]
pub mod driver;
#[doc(hidden)]
pub mod group;
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
pub mod searched;
#[doc(hidden)]
pub mod shard;
#[doc(hidden)]
pub mod state;
#[doc(hidden)]
pub mod table;
pub mod walk;

pub use driver::{Driver, Hook, LayerDone, Outcome};
pub use group::Busy;
pub(crate) use local::search;
pub use local::search_from;
pub use place::{DiskLayer, PlaceLayer};
pub use recount::{residues, settle, Recount};
pub use schedule::{Schedule, Task};
pub use searched::Search;
pub use state::SearchState;

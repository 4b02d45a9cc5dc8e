//! The engine across ranks: the table sharded over the ranks of a group (MPI processes on a
//! cluster, or threads in one process for tests), one layer at a time.
//!
//! Each rank owns blocks of the index dealt round-robin (`bfs::shard`, which says why not one
//! range a rank) and holds that shard of the 2-bit table, a sparse view of the whole index. A
//! layer is built by push on every rank at once: a rank scans its shard for the
//! frontier, claims the neighbours it owns itself, and buffers the others per owner. The buffers
//! are exchanged (all-to-all with variable counts) in rounds: a round ends once a rank has
//! buffered `Budget::indices` targets, or has scanned its whole shard, so memory stays flat
//! whatever the layer's size; the rounds go on until no rank has anything left to scan. Owners
//! claim what they receive, counting each newly marked state once (`Table::visit`), and the
//! layer's size is the sum over the ranks (an all-reduce), so every rank knows every layer
//! exactly and they all stop at the same depth.
//!
//! Once the unseen states of the next colour are fewer than the frontier, layers are pulled
//! (the one-process rule, `bfs::policy`): each rank scans its unseen states, marks those with a
//! frontier neighbour in its own shard, and asks the owners of their other neighbours whether
//! those are in the frontier, in rounds of questions and answers. Only moves that cross shards
//! (about 15% at 16 ranks for 4x4) cost a question. Small layers are expanded from lists, as on
//! one machine: each rank records its part of them.
//!
//! Each layer, each rank's work (its time less its time in collectives, `timed`) is summed
//! over the group, so that runs report their load balance (`bfs::Busy`).
//!
//! The communication is behind `Group` (all-reduce, all-to-all, all-gather), so the same code runs
//! on MPI (`mpi`, with the `mpi` feature) and on threads (`threads`, which the tests use); the
//! search a rank runs is `search`, and the result every rank must agree on `group`.

// Engine internals: public for the benches, the fuzz targets and the layers above, hidden
// from the documentation and outside any stability promise.
mod group;
#[doc(hidden)]
pub mod search;
#[doc(hidden)]
pub mod threads;
#[doc(hidden)]
pub mod timed;

#[cfg(feature = "mpi")]
pub mod mpi;

pub use group::{agreed, Group};
pub(crate) use search::{search_sharded, search_sharded_with};
pub use search::{Budget, RankShard};

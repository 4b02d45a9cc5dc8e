//! The integration tests, one binary (`autotests = false` in Cargo.toml): one link instead of
//! two dozen, whose links took most of a clean build of the tests. Each module checks one
//! subject; those that run the command-line binary need the `cli` feature, and `mpi` an MPI
//! library too. `fallback` is a binary of its own: it turns off the bit instructions for its
//! whole process.

#[cfg(feature = "cli")]
mod common;
// The reference BFS over explicit boards and saved tables: the library alone.
#[path = "common/boards.rs"]
mod boards;

#[cfg(feature = "cli")]
mod atlas;
#[cfg(feature = "cli")]
mod checkpoint;
#[cfg(feature = "cli")]
mod cli;
mod construct;
#[cfg(feature = "cli")]
mod disk;
#[cfg(feature = "cli")]
mod disk_refusals;
#[cfg(feature = "cli")]
mod docs;
mod fuzz;
#[cfg(feature = "cli")]
mod graphs;
#[cfg(feature = "cli")]
mod hostile_files;
#[cfg(feature = "cli")]
mod json_schema;
mod korf100;
#[cfg(feature = "cli")]
mod latex;
mod layers;
#[cfg(feature = "cli")]
mod metric;
#[cfg(all(feature = "cli", feature = "mpi"))]
mod mpi;
#[cfg(feature = "cli")]
mod nothing_lost;
mod optimal;
#[cfg(feature = "cli")]
mod pdb;
mod pebbles;
#[cfg(feature = "cli")]
mod plan;
mod reference;
#[cfg(feature = "cli")]
mod reports;
mod rules;
mod saved;

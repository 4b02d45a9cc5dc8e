//! tilespace: exhaustive breadth-first enumeration of R×C sliding-tile puzzles.
//!
//! Every configuration reachable from the goal is visited, layer by layer, over a 2-bit table
//! indexed by a parity-halved permutation rank, and the exact facts are derived from that:
//! the (RC)!/2 count, the eccentricity, the antipodes, the exact mean and the depth distribution.
//!
//! The library is in layers, each using only those before it: `units` (quantities as a user
//! reads them) and `error` (the library's one error type) under all of them, then
//! - `puzzle`: boards, solvability, counts, moves, the constructive solver (no search);
//! - `graph`: graphs as boards (named families, graph6, edge lists, automorphisms) and Wilson's
//!   classification (a graph's puzzle is indexed by `index` and searched by `bfs`);
//! - `index`: permutation ranks and the dense layout of one parity class (of a board, or of a
//!   graph's puzzle);
//! - `bfs`: the engine, over the index;
//! - `dist`: the engine across ranks (MPI, or threads standing in for them in tests);
//! - `store`: atomic files, checkpoints and saved tables;
//! - `analysis`: complete analyses, the counting theorem, patterns, the memory guard;
//! - `optimal`: pattern databases (exhaustive searches of abstract spaces), IDA* with their
//!   additive heuristic, and sampled distributions of boards too large to enumerate;
//! - `report`: CSV reports, plots, tables for papers;
//! - `fuzz`: every reader of untrusted input, fed arbitrary bytes (for `cargo fuzz` and the
//!   bounded fuzz tests).
//!
//! The command-line tool (`src/cli`, behind the default `cli` feature) sits on top. The
//! library prints nothing and reads no environment: progress, timing and stopping go through
//! callbacks and flags the caller passes.
//!
//! # Example
//! ```
//! use tilespace::{analyze, AnalyzeOptions, GoalBlank, Metric, Puzzle, Shape};
//!
//! let shape: Shape = "2x3".parse().unwrap();
//! let goal = GoalBlank::Last.resolve(shape).unwrap();
//! let puzzle = Puzzle::board(shape, goal, Metric::Single).unwrap();
//! let a = analyze(&puzzle, AnalyzeOptions::default(), &|_| {}).unwrap();
//! assert_eq!(a.states(), 360); // 6!/2
//! assert_eq!(a.distribution.eccentricity(), 21); // Gong: 21 moves for his 3x2
//! assert!(a.verified);
//! assert!(tilespace::solvability(&a.antipodes[0], goal).solvable);
//! ```

pub mod analysis;
pub mod bfs;
pub mod dist;
pub mod error;
pub mod fuzz;
pub mod graph;
pub mod index;
pub mod optimal;
pub mod puzzle;
pub mod report;
pub mod store;
pub mod units;

pub use analysis::distribution::{Distribution, Fraction};
pub use analysis::{analyze, analyze_at, Analysis, AnalyzeOptions, TableAt};
pub use bfs::{LayerDone, Schedule};
pub use error::{Damage, DamageKind, Error, ErrorKind, Limit, Needed};
pub use index::puzzle::{Ground, Puzzle};
pub use index::space::StateSpace;
pub use puzzle::board::{Board, Cell, GoalBlank, Shape};
pub use puzzle::metric::Metric;
pub use puzzle::parity::{solvability, Solvability};

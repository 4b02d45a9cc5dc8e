//! tilespace: exhaustive breadth-first enumeration of R×C sliding-tile puzzles.
//!
//! Every configuration reachable from the goal is visited, layer by layer, over a 2-bit table
//! indexed by a parity-halved permutation rank, and the exact facts are derived from that:
//! the (RC)!/2 count, the radius, the antipodes, the exact mean and the depth distribution.
//!
//! # Example
//! ```
//! use tilespace::{analyze, AnalyzeOptions, Board, GoalBlank, Shape};
//!
//! let shape: Shape = "2x3".parse().unwrap();
//! let goal = GoalBlank::Last.resolve(shape).unwrap();
//! let a = analyze(shape, goal, AnalyzeOptions::default(), &|_| {}).unwrap();
//! assert_eq!(a.states(), 360); // 6!/2
//! assert_eq!(a.distribution.radius(), 21); // Gong: 21 moves for his 3x2
//! assert!(a.verified);
//! assert!(tilespace::solvability(&a.antipodes[0], goal).solvable);
//! ```

pub mod analysis;
pub mod bfs;
pub mod board;
pub mod checkpoint;
pub mod construct;
pub mod count;
pub mod distribution;
pub mod error;
pub mod line;
pub mod memory;
pub mod moves;
pub mod paper;
pub mod parity;
pub mod patterns;
pub mod plot;
pub mod random;
pub mod rank;
pub mod report;
pub mod saved;
pub mod space;
pub mod theorem;

pub use analysis::{analyze, analyze_from, Analysis, AnalyzeOptions};
pub use bfs::LayerDone;
pub use board::{Board, Cell, GoalBlank, Shape};
pub use distribution::{Distribution, Fraction};
pub use error::Error;
pub use parity::{solvability, Solvability};
pub use space::StateSpace;

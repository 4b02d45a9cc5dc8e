//! Puzzle theory, independent of any search: boards and their geometry, solvability for any
//! size, exact counts, moves and their replay, lines, random boards and the constructive solver.

pub mod board;
pub mod construct;
pub mod count;
pub mod line;
pub mod metric;
pub mod moves;
pub mod parity;
pub mod random;

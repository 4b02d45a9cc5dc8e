//! Puzzle theory, independent of any search: boards and their geometry (`board`), the kinds of
//! moves (`metric`), solvability for any size (`parity`), exact counts (`count`), moves and
//! their replay (`moves`), lines (`line`), random boards (`random`), the constructive solver
//! (`construct`), and the tokens of pebble motion, labels that repeat and several blanks
//! (`tokens`).

pub mod board;
pub mod construct;
pub mod count;
pub mod line;
pub mod metric;
pub mod moves;
pub mod parity;
pub mod random;
pub mod tokens;

//! The puzzle and its index: the puzzle as one value (`puzzle`), permutation ranks with the
//! parity half dropped (`rank`), the dense layout of one parity class's (RC)!/2 states
//! (`space`), ranks of partial arrangements (`partial`), the index of pattern databases, and
//! dense ranks of a multiset's arrangements (`multiset`: lexicographic, for walks;
//! `arrangement`: nested combinations, for searches; `tiles`: distinct tiles beside several
//! blanks, for searches; `goal_index`: which of these a goal is searched and saved by), the
//! index of pebble motion.

// Engine internals: public for the benches, the fuzz targets and the layers above, hidden
// from the documentation and outside any stability promise.
pub mod arrangement;
pub mod goal_index;
pub mod multiset;
pub mod partial;
pub mod puzzle;
#[doc(hidden)]
pub mod rank;
pub mod space;
pub mod tiles;

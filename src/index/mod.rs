//! The puzzle and its index: the puzzle as one value (`puzzle`), permutation ranks with the
//! parity half dropped (`rank`), the dense layout of one parity class's (RC)!/2 states
//! (`space`), and ranks of partial arrangements (`partial`), the index of pattern databases.

// Engine internals: public for the benches, the fuzz targets and the layers above, hidden
// from the documentation and outside any stability promise.
pub mod partial;
pub mod puzzle;
#[doc(hidden)]
pub mod rank;
pub mod space;

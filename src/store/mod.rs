//! Files on disk that must survive crashes and hostile edits: atomic writes (`atomic`), the
//! checksummed header of every binary file (`header`), advisory locks against concurrent runs
//! (`lock`), checkpoints of one process (`checkpoint`) and of ranks (`shards`), read back into
//! any number of ranks or one process (`resume`), saved distance tables (`saved`: distances by
//! descents, `lookup`, ended by a search near the goal, `near_goal`), kept in memory where
//! `room` says they fit and sampled with their distances (`sample`), saved tables of tokens
//! (`tokens`: depths mod 3 of arrangements, for pebble motion) and checkpoints of their
//! searches (`token_checkpoint`), the table on disk
//! (`disk`), and the roles of the files one run touches (`roles`).

pub mod atomic;
pub mod checkpoint;
pub mod disk;
// Engine internals: public for the benches, the fuzz targets and the layers above, hidden
// from the documentation and outside any stability promise.
#[doc(hidden)]
pub mod header;
#[doc(hidden)]
pub mod lock;
mod lookup;
mod near_goal;
pub mod resume;
pub mod roles;
pub mod room;
pub mod sample;
pub mod saved;
pub mod shards;
pub mod token_checkpoint;
pub mod tokens;

//! Files on disk that must survive crashes and hostile edits: atomic writes (`atomic`), the
//! checksummed header shared by saved tables and checkpoints (`header`), checkpoints (read back
//! into one process or any number of ranks by `resume`) and saved distance tables (kept in
//! memory where `room` says they fit, and sampled with their distances by `sample`), and the roles of the files one run touches (`roles`).

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

//! Files on disk that must survive crashes and hostile edits: atomic writes (`atomic`), the
//! checksummed header shared by saved tables and checkpoints (`header`), checkpoints and saved
//! distance tables.

pub mod atomic;
pub mod checkpoint;
pub mod header;
pub mod lock;
pub mod saved;
pub mod shards;

//! Optimal answers beyond enumeration: pattern databases built by an exhaustive search of
//! abstract spaces (`build`), kept in checked files (`database`) whose entries are checked against their neighbours
//! (`consistency`), summed into an admissible
//! heuristic (`heuristic`) for IDA* (`ida`), and sampled distributions of boards too large to
//! enumerate (`sample`), whose solved boards a positions file keeps (`positions`).

pub mod build;
pub mod consistency;
pub mod database;
pub mod heuristic;
pub mod ida;
pub mod pages;
pub mod pattern;
pub mod positions;
pub mod region;
pub mod sample;

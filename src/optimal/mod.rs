//! Optimal answers beyond enumeration: pattern databases built by an exhaustive search of
//! abstract spaces (`build`, over the cells the blank reaches, `region`, and the patterns'
//! tiles, `pattern`), kept in checked files (`database`, in page-aligned memory, `pages`) whose
//! entries are checked against their neighbours (`consistency`), summed into an admissible
//! heuristic (`heuristic`) for IDA* (`ida`), and sampled distributions of boards too large to
//! enumerate (`sample`), whose solved boards a positions file keeps (`positions`); and a board's
//! solution from a saved table, the databases or the constructive solver (`solver`).

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
pub mod solver;

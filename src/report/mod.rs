//! What the analyses leave on disk for people: CSV reports (`summary`, `runs`, `rows`, `theorem`), the build that wrote them
//! (`provenance`), SVG
//! plots (`plot`, with the `plot` feature) and tables for papers (`paper`).

pub mod atlas;
pub mod atlas_map;
pub mod chart;
pub mod gong;
pub mod graph_summary;
pub mod graphs;
pub mod paper;
#[cfg(feature = "plot")]
pub mod plot;
pub mod provenance;
pub mod published;
pub mod rows;
pub mod runs;
pub mod summary;
pub mod theorem;

pub use rows::{read_rows, upsert_rows, write_rows};
pub use summary::*;
pub use theorem::{read_theorem, upsert_theorem, TheoremRow};

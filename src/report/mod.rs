//! What the analyses leave on disk for people: CSV reports (`summary` of boards,
//! `graph_summary` of graphs, `runs`, `theorem` and `graphs` for the theorems, `atlas`, read and
//! written through `rows`), the build that wrote them (`provenance`), the published figures they
//! are checked against (`published`) and Gong's table beside them (`gong`), SVG plots (`plot`,
//! with the `plot` feature; the atlas's maps, `atlas_map`), pgfplots charts (`chart`) and tables
//! for papers (`paper`); the reports of a goal of tokens (`tokens`); and what a benchmark
//! record says of the machine (`machine`).

pub mod atlas;
pub mod atlas_map;
pub mod chart;
pub mod gong;
pub mod graph_summary;
pub mod graphs;
pub mod machine;
pub mod paper;
#[cfg(feature = "plot")]
pub mod plot;
pub mod provenance;
pub mod published;
pub mod rows;
pub mod runs;
pub mod summary;
pub mod theorem;
pub mod tokens;

pub use rows::{read_rows, upsert_rows, write_rows};
pub use summary::*;
pub use theorem::{read_theorem, upsert_theorem, TheoremRow};

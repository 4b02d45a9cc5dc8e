//! Analyses built on the engine, of a puzzle on a board or a graph:
//! - `analyze`, `job`: one puzzle's complete analysis (in memory, on disk, over ranks) and the
//!   checks of its result; `sharded`: the analysis as one rank of a group;
//! - `arrangements`: a puzzle of tokens (labels that repeat, several blanks), searched and
//!   checked against the theorems of pebble motion;
//! - `distribution`: the states per depth and what they yield (eccentricity, mean, median);
//! - `atlas`: the analyses from every class of goal cells, and the diameter, radius and mean
//!   distance they give;
//! - `theorem`, `graph_theorem`: the counting theorem on a board, Wilson's on a graph, checked
//!   by enumeration;
//! - `patterns`: the antipodes' patterns;
//! - `memory`: the guard that refuses a puzzle before anything is allocated; `threads`;
//! - `plan`, `disk_plan`, `job_script`: plans of distributed and on-disk runs, and their scripts.

pub mod analyze;
pub mod arrangements;
pub mod atlas;
pub mod disk_plan;
pub mod distribution;
pub mod graph_theorem;
pub mod job;
pub mod job_script;
pub mod memory;
pub mod patterns;
pub mod plan;
pub mod sharded;
pub mod theorem;
pub mod threads;

pub use analyze::{analyze, analyze_at};
pub use job::{Analysis, AnalyzeOptions, OnDisk, TableAt};

//! Analyses built on the engine: one board's complete analysis (`analyze`), the distribution
//! it yields, the counting theorem over both classes, the antipodes' patterns, and the memory
//! guard that refuses a board before anything is allocated.

pub mod analyze;
pub mod atlas;
pub mod disk_plan;
pub mod distribution;
pub mod graph_atlas;
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

//! The scans of the multi-tile metric: the ways to build a layer (`scans`: push, pull and
//! list, on one table and on a shard), a state's slides (`slides`), the rows of a word as masks
//! (`row_masks`) and the push's bit a row (`rows`).

pub(in crate::bfs::layer) mod row_masks;
pub mod rows;
pub(in crate::bfs::layer) mod scans;
pub(in crate::bfs::layer) mod slides;

pub use rows::Rows;
pub use scans::{
    list_multi, list_multi_shard, pull_multi, pull_multi_shard, push_multi, push_multi_shard,
};
pub use slides::{ColumnSlide, Slides};

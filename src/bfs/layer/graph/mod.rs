//! The scans of a puzzle on a graph: its moves as the scans read them and the rank change of
//! each (`tables`), and the push, pull and list over them, on one table and on a shard
//! (`scans`).

pub(in crate::bfs::layer) mod scans;
pub(in crate::bfs::layer) mod tables;

pub use scans::{
    list_graph, list_graph_shard, pull_graph, pull_graph_shard, push_graph, push_graph_shard,
};
pub use tables::{GraphScan, GraphTables};

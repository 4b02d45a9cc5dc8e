//! What a search run to its end gives (`Search`), wherever its table lived.

use crate::bfs::table::Table;

/// A search run to its end, wherever its table lived: the same figures from one table in this
/// process, the shards of a group of ranks (the same on every rank) or shard files on disk,
/// and what the place keeps of the finished table (`table`: the table in memory, this rank's
/// shard, or the files' figures).
#[derive(Debug)]
pub struct Search<T = Table> {
    /// States per depth from the start (over every place).
    pub layers: Vec<u64>,
    /// Indices of the states at the maximum depth, over every place, ascending.
    pub antipodes: Vec<u64>,
    /// States marked in the finished table, counted from it (not from the layers).
    pub seen: u64,
    /// The finished table's states at each depth mod 4 (mod 3 where the moves' codes are
    /// cyclic), recounted from their codes (`bfs::residues`).
    pub residues: [u64; 4],
    /// Wall time, from allocating the table to the last layer (over every run of a search
    /// resumed).
    pub seconds: f64,
    /// Threads the search ran on, over every place.
    pub threads: usize,
    /// Bytes of the table, over every place.
    pub table_bytes: u64,
    /// What the place keeps of the finished table: every state of the class it holds is
    /// settled, holding its depth mod 4 with its blank's colour (see `table`).
    pub table: T,
}

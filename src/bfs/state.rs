//! The search's state at a layer boundary: everything needed to go on exactly as if it had not
//! stopped. The engine runs on it, a checkpoint saves it and reads it back, a hook looks at it.

use crate::bfs::table::Table;

/// A search between layers: everything a checkpoint saves and a resumed search continues from.
#[derive(Debug)]
pub struct SearchState {
    /// The index the search started from.
    pub start: u64,
    /// States per depth so far; the last is the frontier.
    pub layers: Vec<u64>,
    /// The frontier's indices, if it was recorded.
    pub frontier: Option<Vec<u64>>,
    /// The scans have switched to pull (they never switch back).
    pub pulling: bool,
    /// The last layer was built by pull, so the layer before it still holds `FRONTIER`.
    pub unsettled: bool,
    /// The 2-bit table (`bfs::table`): unseen, frontier, or settled with the next bit of its depth.
    pub table: Table,
}

impl SearchState {
    /// The depth of the frontier.
    pub fn depth(&self) -> u32 {
        self.layers.len() as u32 - 1
    }
}

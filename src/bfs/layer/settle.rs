//! Settling: the frontier's slots turned into their depth's code, counted and listed.

use std::sync::atomic::AtomicU64;

use super::scan::{for_each_slot, holds_frontier, Found, Slots};
use super::single::words::WordPlaces;
use crate::bfs::schedule::Task;
use crate::bfs::table::Table;
use crate::index::space::StateSpace;

/// Settling: the frontier's slots turned into a code, counted and listed.
struct Settle<'a> {
    table: &'a Table,
    code: u64,
    record: bool,
    found: Found,
}

impl Slots for Settle<'_> {
    #[inline(always)]
    fn busy(word: u64) -> bool {
        holds_frontier(word)
    }

    #[inline(always)]
    fn select(&mut self, _: &AtomicU64, w: usize, _: usize, word: u64, candidates: u64) -> u64 {
        let settled = self.table.settle_frontier(w, word, candidates, self.code);
        self.found.add_slots(w, settled, self.record);
        0
    }

    /// `select` chose nothing.
    fn states(&mut self, _: &[(u8, u8); 64], _: u64, _: u64, _: u64, _: u64) {}
}

/// Settles the states of `lo..hi` holding `FRONTIER` whose blank has colour
/// `colour` with `code`; counts them, and lists them if `record`.
pub fn settle_scan(
    space: &StateSpace,
    places: &WordPlaces,
    table: &Table,
    task: Task,
    colour: usize,
    code: u64,
    record: bool,
) -> Found {
    let mut settle = Settle {
        table,
        code,
        record,
        found: Found::default(),
    };
    for_each_slot(space, places, table, task, colour, &mut settle);
    settle.found
}

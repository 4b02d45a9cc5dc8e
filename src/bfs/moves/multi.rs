//! Multi-tile moves: the blank slides any distance along its row or column, moving every tile
//! it passes one cell. Layers mix blank colours (a two-cell slide keeps it), so the table
//! codes depth d as 1 + d mod 3 (`layer::multi_code`) and nothing is settled; the table cannot
//! tell the last layer from those 3, 6, … before it, so a layer that may be the last is
//! recorded and the last is its list.

use super::kind::{recorded_last, Aids, ColourCounts, Ended, MoveKind};
use crate::bfs::coding::Coding;
use crate::bfs::layer::{Codes, Kernels, Rows, SlideTables, Slides, ANY_COLOUR};
use crate::bfs::place::Place;
use crate::bfs::policy::{Way, MULTI_PUSH_COST};
use crate::bfs::schedule::Schedule;
use crate::bfs::state::SearchState;
use crate::error::Error;
use crate::index::space::StateSpace;

/// Multi-tile moves on a board: the slides of each slot, and the push's bit a row where the
/// place keeps them (`layer::rows`).
pub struct MultiTile {
    tables: SlideTables,
    rows: usize,
    cols: usize,
    states: u64,
    /// The bytes of bits a row, and the share of the rows they keep (none where the place
    /// keeps no aids).
    bits: Option<(u64, f64)>,
}

impl MoveKind for MultiTile {
    type Tables = SlideTables;
    const PUSH_COST: u64 = MULTI_PUSH_COST;
    const CODING: Coding = Coding::Cyclic;

    /// A bit a row of C states (C the longer side, as the engine orients the board), at most
    /// `Rows::budget` (a table past u64's range, 22 cells and more, is budgeted as u64::MAX
    /// bytes).
    fn aid_bytes(table_bytes: f64, side: usize) -> f64 {
        let bytes = table_bytes / (2 * side) as f64;
        bytes.min(Rows::budget(table_bytes.min(u64::MAX as f64) as u64) as f64)
    }

    /// The bits a row take `Rows::budget` of the table by default.
    fn new(space: &StateSpace, aids: Aids) -> MultiTile {
        let (states, cols) = (space.states(), space.shape().cols);
        let bytes = match aids {
            Aids::None => None,
            Aids::Default => Some(Rows::budget(states.div_ceil(32) * 8)),
            Aids::Bytes(b) => Some(b),
        };
        MultiTile {
            tables: SlideTables {
                slides: Slides::new(space),
                rows: None,
            },
            rows: space.shape().rows,
            cols,
            states,
            bits: bytes.map(|b| (b, Rows::share(states, cols, b))),
        }
    }

    fn tables(&self) -> &SlideTables {
        &self.tables
    }

    fn kernels(&self) -> Kernels<SlideTables> {
        Kernels::multi(self.rows)
    }

    fn codes(depth: u32) -> Codes {
        Codes::multi(depth)
    }

    fn scan_colour(_way: Way, _colour: usize) -> usize {
        ANY_COLOUR
    }

    fn unseen(counts: &ColourCounts, _colour: usize) -> u64 {
        counts.unseen()
    }

    /// The bits a row are made at a push and dropped at a list or a pull, which read none, so
    /// that they never share the memory with the lists recorded at the start and the end. Made
    /// anew, every bit set, they are valid at any depth (a push only ever clears them).
    fn prepare(&mut self, way: Way) {
        if way != Way::Push {
            self.tables.rows = None;
        } else if self.tables.rows.is_none() {
            let (states, cols) = (self.states, self.cols);
            self.tables.rows = self.bits.map(|(b, _)| Rows::within(states, cols, b));
        }
    }

    /// A push expands the layers 3, 6, … before the frontier too (they hold its code), in the
    /// rows without a bit.
    fn scanned(&self, layers: &[u64]) -> u64 {
        let frontier = layers[layers.len() - 1];
        let older: u64 = layers.iter().rev().step_by(3).skip(1).sum();
        let share = self.bits.map_or(0.0, |(_, share)| share);
        frontier + (older as f64 * (1.0 - share)) as u64
    }

    /// A state's code is final once written.
    fn unsettles(_way: Way) -> bool {
        false
    }

    /// A layer that may be the last (it cannot have more states than are unseen) is recorded
    /// if those fit; a lagging place's `unseen` still counts the states its frontier gains in
    /// the build, so every layer is recorded while it fits there.
    fn may_be_last(&self, lag: u32, unseen: u64, room: u64) -> bool {
        lag > 0 || unseen <= room
    }

    /// The frontier's list, recorded because it might be the last.
    fn last<P: Place>(
        _place: &P,
        _space: &StateSpace,
        state: &mut SearchState,
        _ended: Ended,
        _schedule: &Schedule,
    ) -> Result<(Vec<u64>, Option<u64>), Error> {
        recorded_last(state)
    }
}

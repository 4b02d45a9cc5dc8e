//! The index a goal's arrangements are searched and saved by: distinct tiles' beside blanks
//! (`tiles`, whose moves change fewest digits) where the goal's tiles are distinct and fit it,
//! any multiset's (`arrangement`) otherwise; with the symbols an arrangement is ranked by (its
//! labels in increasing order, the blank's 0 first).

use crate::error::Error;
use crate::index::arrangement::{ArrangementIndex, ArrangementRank};
use crate::index::tiles::{TileRank, MAX_TILE_CELLS};
use crate::puzzle::tokens::Tokens;

/// The index of one goal's arrangements.
#[derive(Clone, Debug)]
pub enum GoalIndex {
    /// Distinct tiles beside one blank or more.
    Tiles(TileRank),
    /// Any multiset.
    Multiset(ArrangementRank),
}

impl GoalIndex {
    /// The index `goal`'s arrangements are searched by (refused past 2^32 arrangements).
    pub fn of(goal: &Tokens) -> Result<GoalIndex, Error> {
        let cells = goal.len();
        if goal.tiles_distinct() && cells <= MAX_TILE_CELLS {
            return Ok(GoalIndex::Tiles(TileRank::new(
                cells - goal.blanks(),
                goal.blanks(),
            )?));
        }
        let counts: Vec<usize> = goal.multiplicities().values().copied().collect();
        Ok(GoalIndex::Multiset(ArrangementRank::new(&counts)?))
    }

    /// The byte a saved table names the index by.
    pub fn byte(&self) -> u8 {
        match self {
            GoalIndex::Tiles(_) => 1,
            GoalIndex::Multiset(_) => 2,
        }
    }

    /// The number of arrangements.
    pub fn count(&self) -> u64 {
        match self {
            GoalIndex::Tiles(r) => r.count(),
            GoalIndex::Multiset(r) => r.count(),
        }
    }

    /// The rank of `symbols` (`Symbols::of`).
    pub fn rank_of(&self, symbols: &[u8]) -> u64 {
        match self {
            GoalIndex::Tiles(r) => r.rank_of(symbols),
            GoalIndex::Multiset(r) => r.rank_of(symbols),
        }
    }

    /// The symbols of the arrangement of rank `rank`, into `out`.
    pub fn symbols_of(&self, rank: u64, out: &mut [u8]) {
        match self {
            GoalIndex::Tiles(r) => r.symbols_of(rank, out),
            GoalIndex::Multiset(r) => r.symbols_of(rank, out),
        }
    }
}

/// A goal's labels as the symbols an index ranks: label `labels[s]` is symbol s.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symbols {
    labels: Vec<u32>,
}

impl Symbols {
    /// The symbols of `goal`'s labels, in increasing order (the blank, 0, is symbol 0).
    pub fn of(goal: &Tokens) -> Symbols {
        Symbols {
            labels: goal.multiplicities().keys().copied().collect(),
        }
    }

    /// The symbol on each cell of `tokens`, or `None` if a label is not one of the goal's.
    pub fn encode(&self, tokens: &Tokens) -> Option<Vec<u8>> {
        tokens
            .cells()
            .iter()
            .map(|t| self.labels.binary_search(t).ok().map(|s| s as u8))
            .collect()
    }

    /// The tokens of `symbols`.
    pub fn decode(&self, symbols: &[u8]) -> Tokens {
        let cells = symbols
            .iter()
            .map(|&s| self.labels[usize::from(s)])
            .collect();
        Tokens::new(cells).expect("an arrangement of a goal's tokens has its blank")
    }
}

//! `theorem.csv`: one row per parity class of each board whose counting theorem was checked.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::error::Error;
use crate::puzzle::parity::Class;

/// One row of `theorem.csv`: one parity class of one board.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TheoremRow {
    /// `RxC`.
    pub board: String,
    /// `solvable` or `unsolvable`.
    pub class: Class,
    /// The board the class was searched from.
    pub start: String,
    /// States reached from `start`.
    pub states: u64,
    /// (RC)!/2.
    pub expected: u64,
    /// The whole class was reached from `start`: it is one connected component.
    pub component: bool,
    /// Every state of the class gets this class from the sign (parity) test.
    pub parity_test_agrees: bool,
    /// The goal's blank cell, `R,C`.
    pub goal_blank: String,
    /// Eccentricity of `start`.
    pub eccentricity: u32,
}

impl TheoremRow {
    /// One row per class of `t`.
    pub fn rows(t: &crate::analysis::theorem::Theorem) -> Vec<TheoremRow> {
        t.classes
            .iter()
            .map(|c| TheoremRow {
                board: t.shape.to_string(),
                class: Class::of(c.class),
                start: c.start.to_string(),
                states: c.analysis.states(),
                expected: c.expected,
                component: c.component,
                parity_test_agrees: c.parity_test_agrees,
                goal_blank: t.shape.cell_label(t.goal),
                eccentricity: c.analysis.distribution.eccentricity(),
            })
            .collect()
    }

    fn key(&self) -> (usize, String, String, String) {
        let cells = self
            .board
            .parse::<crate::puzzle::board::Shape>()
            .map_or(0, |s| s.cells());
        (
            cells,
            self.board.clone(),
            self.goal_blank.clone(),
            self.class.to_string(),
        )
    }
}

/// Replaces the rows of the same board, goal blank and class in `theorem.csv`, or adds them.
pub fn upsert_theorem(path: &Path, new: Vec<TheoremRow>) -> Result<(), Error> {
    super::rows::upsert_rows(path, new, TheoremRow::key)
}

/// The rows of a `theorem.csv`, each checked: a board size, a class, a start of that size,
/// the theorem's count as `expected`, and no more states than that; a row that is not one is
/// refused with its number (a damaged report).
pub fn read_theorem(path: &Path) -> Result<Vec<TheoremRow>, Error> {
    super::rows::read_checked(
        path,
        TheoremRow::check,
        |r| &r.board,
        "run `tilespace theorem` again",
    )
}

impl TheoremRow {
    /// Why this row cannot be one `theorem` wrote, if so.
    pub fn check(&self) -> Result<(), String> {
        let shape: crate::puzzle::board::Shape =
            self.board.parse().map_err(|e: Error| e.to_string())?;
        crate::puzzle::board::Board::parse(&self.start, Some(shape)).map_err(|e| e.to_string())?;
        if crate::puzzle::count::reachable_u64(shape) != Some(self.expected) {
            return Err(format!("{} expected states", self.expected));
        }
        if self.states == 0 || self.states > self.expected {
            return Err(format!("{} states of {}", self.states, self.expected));
        }
        Ok(())
    }
}

/// One board's verdicts as `theorem --json` gives them: the classes as in theorem.csv, each
/// check, and the whole.
#[derive(Clone, Debug, Serialize)]
pub struct TheoremVerdicts {
    /// `RxC`.
    pub board: String,
    /// The goal's blank cell, `R,C`.
    pub goal_blank: String,
    /// (RC)!, exact at any size, so a decimal string.
    pub configurations: String,
    /// The rows of theorem.csv.
    pub classes: Vec<TheoremRow>,
    /// Each class has exactly (RC)!/2 states.
    pub halves: bool,
    /// The parity test separates the classes.
    pub disjoint: bool,
    /// Each class is one connected component.
    pub components: bool,
    /// All of the above.
    pub holds: bool,
}

impl TheoremVerdicts {
    /// The verdicts of `t`.
    pub fn of(t: &crate::analysis::theorem::Theorem) -> TheoremVerdicts {
        TheoremVerdicts {
            board: t.shape.to_string(),
            goal_blank: t.shape.cell_label(t.goal),
            configurations: crate::puzzle::count::counts(t.shape).total.to_string(),
            classes: TheoremRow::rows(t),
            halves: t.halves(),
            disjoint: t.disjoint(),
            components: t.components(),
            holds: t.holds(),
        }
    }
}

//! The counting theorem, checked by enumeration: the (RC)! configurations of an R×C board
//! (R, C ≥ 2) fall into two parity classes of (RC)!/2 each; each class is one connected
//! component (every member reaches every other), so one reaches the goal and the other never
//! does; and a configuration's class is the one the seeds' parity test gives it.
//!
//! For each class the engine searches from one member (the goal, and the goal with its last two
//! tiles swapped, the seeds' example of an unsolvable board) and counts what it reaches. Then
//! every index of the class is unranked and put to the sign test (Calabro's O(n) test, which
//! shares no code with the indexer's inversion-parity rule). Together:
//! - **component**: the search reached all (RC)!/2 states of the class from one start;
//! - **parity test agrees**: every state of the solvable class passes the test and every state
//!   of the other fails it, so the two reached sets are **disjoint**, and with (RC)!/2 each they
//!   cover all (RC)! configurations.

use crate::index::puzzle::Puzzle;
use crate::puzzle::metric::Metric;
use rayon::prelude::*;

use crate::analysis::{analyze_at, Analysis, AnalyzeOptions, TableAt};
use crate::bfs::LayerDone;
use crate::error::Error;
use crate::index::space::StateSpace;
use crate::puzzle::board::{Board, Cell, Shape};
use crate::puzzle::parity::solvable_by_sign;

/// The verdict on one parity class.
#[derive(Clone, Debug)]
pub struct ClassCheck {
    /// 0: the goal's class; 1: the other.
    pub class: u8,
    /// The board the class was searched from.
    pub start: Board,
    /// The search from `start`.
    pub analysis: Analysis,
    /// (RC)!/2.
    pub expected: u64,
    /// The search reached every state of the class.
    pub component: bool,
    /// Every state of the class gets this class from the sign test.
    pub parity_test_agrees: bool,
}

/// The verdict on the whole theorem for one board.
#[derive(Clone, Debug)]
pub struct Theorem {
    /// The board.
    pub shape: Shape,
    /// The goal's blank cell, which decides which class is solvable.
    pub goal: Cell,
    /// The solvable class (0) and the other (1).
    pub classes: [ClassCheck; 2],
}

impl Theorem {
    /// Each class has exactly (RC)!/2 states.
    pub fn halves(&self) -> bool {
        self.classes
            .iter()
            .all(|c| c.analysis.states() == c.expected)
    }

    /// The two reached sets share no configuration: the test puts them on opposite sides.
    pub fn disjoint(&self) -> bool {
        self.classes.iter().all(|c| c.parity_test_agrees)
    }

    /// Each class is one connected component.
    pub fn components(&self) -> bool {
        self.classes.iter().all(|c| c.component)
    }

    /// Every part holds: halves, disjoint classes, one component each.
    pub fn holds(&self) -> bool {
        self.halves() && self.disjoint() && self.components()
    }
}

/// The goal with its last two tiles (in reading order) swapped: the other class.
pub fn swapped_goal(shape: Shape, goal: Cell) -> Board {
    let mut cells = Board::goal(shape, goal).cells().to_vec();
    let tiles: Vec<usize> = (0..cells.len()).filter(|&i| cells[i] != 0).collect();
    cells.swap(tiles[tiles.len() - 2], tiles[tiles.len() - 1]);
    Board::new(shape, cells).expect("a permutation of the goal")
}

/// Checks the theorem on `shape` with the goal blank on `goal`, searching from the goal and
/// from `swapped_goal`. `progress` gets each layer of each search, with the class.
pub fn verify(
    shape: Shape,
    goal: Cell,
    options: AnalyzeOptions,
    progress: &(dyn Fn(u8, LayerDone) + Sync),
) -> Result<Theorem, Error> {
    if shape.cells() < 3 {
        return Err(Error::Shape(format!(
            "{shape} has fewer than two tiles: one arrangement class, no theorem to check"
        )));
    }
    let starts = [Board::goal(shape, goal), swapped_goal(shape, goal)];
    let check = |class: u8| -> Result<ClassCheck, Error> {
        let start = starts[class as usize].clone();
        let analysis = analyze_at(
            &Puzzle::board(shape, goal, Metric::Single)?,
            Some(&start),
            TableAt::Memory,
            options,
            &|l| progress(class, l),
        )?;
        debug_assert_eq!(analysis.class, class);
        let expected = analysis
            .expected
            .expect("the counting theorem counts every board");
        let component = analysis.verified && analysis.states() == expected;
        let parity_test_agrees = if shape.is_line() {
            // A line's classes are tile orders; the test is the line rule (tiles in order).
            crate::puzzle::line::reach(&start, crate::puzzle::metric::Metric::Single)
                .iter()
                .all(|(b, _)| crate::puzzle::parity::solvability(b, goal).solvable == (class == 0))
        } else {
            class_agrees(shape, goal, class)?
        };
        Ok(ClassCheck {
            class,
            start,
            analysis,
            expected,
            component,
            parity_test_agrees,
        })
    };
    Ok(Theorem {
        shape,
        goal,
        classes: [check(0)?, check(1)?],
    })
}

/// True if every state of class `class` (all (RC)!/2 indices, unranked into boards) is solvable
/// by the sign test exactly when the class is the goal's.
pub fn class_agrees(shape: Shape, goal: Cell, class: u8) -> Result<bool, Error> {
    let space = StateSpace::new(&Puzzle::board(shape, goal, Metric::Single)?, class)?;
    const CHUNK: u64 = 1 << 14;
    let chunks = space.states().div_ceil(CHUNK);
    Ok((0..chunks).into_par_iter().all(|c| {
        let (lo, hi) = (c * CHUNK, ((c + 1) * CHUNK).min(space.states()));
        (lo..hi).all(|i| solvable_by_sign(&space.board(i), goal) == (class == 0))
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_theorem_holds_on_small_boards_for_every_goal() {
        for (r, c) in [(2, 2), (2, 3), (3, 2)] {
            let shape = Shape::new(r, c).unwrap();
            for g in 0..shape.cells() {
                let t = verify(shape, Cell(g), AnalyzeOptions::default(), &|_, _| {}).unwrap();
                assert!(t.holds(), "{shape} goal {g}");
                assert_eq!(t.classes[1].analysis.class, 1);
            }
        }
    }

    #[test]
    fn the_swapped_goal_is_in_the_other_class() {
        for (r, c) in [(2, 2), (3, 3), (4, 5), (10, 7)] {
            let shape = Shape::new(r, c).unwrap();
            for g in [0, shape.cells() - 1] {
                let b = swapped_goal(shape, Cell(g));
                assert!(!solvable_by_sign(&b, Cell(g)), "{shape} goal {g}: {b}");
            }
        }
    }
}

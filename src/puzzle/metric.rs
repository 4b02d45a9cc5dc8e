//! The two ways the field counts moves. In the single-tile metric a move slides one tile one
//! cell; in the multi-tile metric it slides every tile between the blank and a cell of the
//! blank's row or column one cell toward the blank, in one go: the blank moves any distance in
//! a straight line (OEIS A389728: "the empty square moves to anywhere within its existing row,
//! or existing column").

use std::fmt;
use std::str::FromStr;

use crate::error::Error;
use crate::puzzle::board::{Board, Cell, Shape};
use crate::puzzle::count::{edges_u128, reachable_u64};
use crate::puzzle::moves::{Moves, SlidePath};

/// How moves are counted.
/// Ordered single first, as every table shows them.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    serde::Serialize,
    serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Metric {
    /// One tile, one cell: every move flips the blank's checkerboard colour (the state graph
    /// is bipartite). What the classic tables (Korf, Gong, the OEIS) count.
    #[default]
    Single,
    /// The blank slides any distance along its row or column, the tiles between following it:
    /// every state has exactly (R-1)+(C-1) moves, and a two-cell slide keeps the blank's colour.
    Multi,
}

impl Metric {
    /// Both metrics, single first.
    pub const ALL: [Metric; 2] = [Metric::Single, Metric::Multi];

    /// Its byte in the headers of tables and checkpoints: 0 single, 1 multi.
    pub fn byte(self) -> u8 {
        match self {
            Metric::Single => 0,
            Metric::Multi => 1,
        }
    }

    /// The metric a header byte names, if any.
    pub fn from_byte(byte: u8) -> Option<Metric> {
        Metric::ALL.into_iter().find(|m| m.byte() == byte)
    }

    /// The name users type and reports print: `single` or `multi`.
    pub fn name(self) -> &'static str {
        match self {
            Metric::Single => "single",
            Metric::Multi => "multi",
        }
    }

    /// The moves it counts as words name them: `single-tile`, `multi-tile`.
    pub fn adjective(self) -> &'static str {
        match self {
            Metric::Single => "single-tile",
            Metric::Multi => "multi-tile",
        }
    }

    /// What the names of results (report names, titles, directories) add for this metric:
    /// nothing for the single-tile one, the field's default; its adjective for another.
    pub fn note(self) -> Option<&'static str> {
        match self {
            Metric::Single => None,
            Metric::Multi => Some(self.adjective()),
        }
    }

    /// Whether the engine searches the transpose of `shape` in this metric. Single-tile: fewer
    /// columns, so that a vertical move rotates a short window (with 2 columns, one adjacent
    /// swap): the engine is bound by computation more than by the cache misses of vertical
    /// moves (`docs/log/constants.md`). Multi-tile: fewer rows, as a horizontal slide keeps the
    /// rank (a neighbour in the same word) and a vertical one computes a new rank: the fewer
    /// rows, the fewer vertical slides ((R-1) of the (R-1)+(C-1)).
    pub fn transposes(self, shape: Shape) -> bool {
        match self {
            Metric::Single => shape.cols > shape.rows,
            Metric::Multi => shape.rows > shape.cols,
        }
    }

    /// Whether the metric's moves are defined on any graph: a single-tile move slides a token
    /// along an edge; a multi-tile move slides a row or column's tokens, which a graph has not.
    pub fn moves_on_graphs(self) -> bool {
        match self {
            Metric::Single => true,
            Metric::Multi => false,
        }
    }

    /// The most cells one move slides the blank on `shape`: 1, or in the multi-tile metric to
    /// the far end of its row or column (one less than the longer side).
    pub fn farthest_slide(self, shape: Shape) -> usize {
        match self {
            Metric::Single => 1,
            Metric::Multi => shape.rows.max(shape.cols) - 1,
        }
    }

    /// Whether the metric's moves are defined for tokens with `blanks` blanks (pebble motion):
    /// a single-tile move slides a token onto a blank beside it, whatever the blanks; a
    /// multi-tile move slides the blank's row or column, which with one blank is the field's
    /// move, tokens that repeat or not, and with several has no agreed meaning (a slide through
    /// a second blank).
    pub fn moves_tokens(self, blanks: usize) -> bool {
        match self {
            Metric::Single => true,
            Metric::Multi => blanks == 1,
        }
    }

    /// The most one move changes the tiles' summed taxicab distance to their goal cells on
    /// `shape`: 1 (one tile, one cell), or in the multi-tile metric one less than the longer
    /// side (every tile of a slide moves a cell).
    pub fn most_taxicab_change(self, shape: Shape) -> usize {
        match self {
            Metric::Single => 1,
            Metric::Multi => shape.rows.max(shape.cols) - 1,
        }
    }

    /// Whether additive pattern databases bound distances in this metric from below: yes in
    /// the single-tile one, where a move moves one tile of one pattern; not in the multi-tile
    /// one, where one move can carry tiles of several patterns.
    pub fn patterns_admissible(self) -> bool {
        match self {
            Metric::Single => true,
            Metric::Multi => false,
        }
    }

    /// The edges of the state graph of `shape`'s solvable class (each undirected edge once),
    /// when they fit: what traversed-edges-per-second divides. Single-tile: as many moves a
    /// state as its blank has neighbours (`count::edges_u128`); multi-tile: (R-1)+(C-1) moves
    /// every state.
    pub fn edges(self, shape: Shape) -> Option<u128> {
        match self {
            Metric::Single => edges_u128(shape),
            Metric::Multi => {
                let states = u128::from(reachable_u64(shape)?);
                Some(states * (shape.rows + shape.cols - 2) as u128 / 2)
            }
        }
    }

    /// A solution (the boards from the start to the goal) as moves: letters of the blank's
    /// steps, and in the multi-tile metric the slides they make (`None` in the single-tile
    /// one, where a move is a step).
    pub fn path_moves(self, path: &[Board]) -> (Moves, Option<SlidePath>) {
        match self {
            Metric::Single => (Moves::of_path(path), None),
            Metric::Multi => {
                let slides = SlidePath::of_path(path);
                (slides.steps(), Some(slides))
            }
        }
    }

    /// Every board one move away from `board`.
    pub fn neighbours(self, board: &Board) -> Vec<Board> {
        match self {
            Metric::Single => board.neighbours().collect(),
            Metric::Multi => board.slides().collect(),
        }
    }
}

impl fmt::Display for Metric {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Metric {
    type Err = Error;

    fn from_str(s: &str) -> Result<Metric, Error> {
        match s.trim().to_ascii_lowercase().as_str() {
            "single" | "stm" => Ok(Metric::Single),
            "multi" | "mtm" => Ok(Metric::Multi),
            _ => Err(Error::Argument(format!(
                "'{s}' is not a metric: single (one tile one cell) or multi (the blank slides \
                 any distance along its row or column)"
            ))),
        }
    }
}

impl Board {
    /// The board after the blank slides to `to`, a cell of its row or column other than its
    /// own: the tiles between move one cell toward where the blank was (`to`'s tile among
    /// them), their order kept.
    pub fn slide_to(&self, to: Cell) -> Board {
        let shape = self.shape();
        let blank = self.blank();
        let (br, bc, tr, tc) = (
            shape.row(blank),
            shape.col(blank),
            shape.row(to),
            shape.col(to),
        );
        assert!(
            to != blank && (br == tr || bc == tc),
            "a multi-tile move goes along the blank's row or column"
        );
        // The cells from the blank to `to`, in order; each takes the tile of the next.
        let step = if br == tr { 1 } else { shape.cols };
        let mut line: Vec<usize> = (blank.0.min(to.0)..=blank.0.max(to.0))
            .step_by(step)
            .collect();
        if to.0 < blank.0 {
            line.reverse();
        }
        let mut cells = self.cells().to_vec();
        for w in line.windows(2) {
            cells[w[0]] = cells[w[1]];
        }
        cells[to.0] = 0;
        Board::new(shape, cells).expect("a slide keeps every tile")
    }

    /// Every board one multi-tile move away: the blank to each other cell of its row, then of
    /// its column ((R-1)+(C-1) boards, all different).
    pub fn slides(&self) -> impl Iterator<Item = Board> + '_ {
        let shape = self.shape();
        let blank = self.blank();
        let (r, c) = (shape.row(blank), shape.col(blank));
        let row = (0..shape.cols)
            .filter(move |&j| j != c)
            .map(move |j| shape.cell(r, j));
        let col = (0..shape.rows)
            .filter(move |&i| i != r)
            .map(move |i| shape.cell(i, c));
        row.chain(col).map(move |to| self.slide_to(to))
    }

    /// Every board one move away in `metric`.
    pub fn neighbours_in(&self, metric: Metric) -> Vec<Board> {
        metric.neighbours(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::board::Shape;
    use crate::puzzle::random::{solvable_board, Rng};
    use proptest::prelude::*;

    proptest! {
        /// On any board, a slide of k cells is k single moves in one direction; there are
        /// (R-1)+(C-1) slides, all different, those of one cell are the single-tile neighbours,
        /// and each is undone by the slide back to the blank's cell.
        #[test]
        fn slides_are_k_single_moves(rows in 1usize..6, cols in 1usize..6, seed: u64) {
            prop_assume!(rows * cols >= 2);
            let shape = Shape::new(rows, cols).unwrap();
            let goal = Cell(shape.cells() - 1);
            let board = solvable_board(shape, goal, &mut Rng::new(seed));
            let blank = board.blank();
            let slides: Vec<Board> = board.slides().collect();
            prop_assert_eq!(slides.len(), (rows - 1) + (cols - 1));
            let distinct: std::collections::HashSet<&Board> = slides.iter().collect();
            prop_assert_eq!(distinct.len(), slides.len());
            for s in &slides {
                let to = s.blank();
                let k = shape.distance(blank, to);
                // k single moves toward `to`.
                let mut walked = board.clone();
                while walked.blank() != to {
                    let b = walked.blank();
                    let next = shape
                        .neighbours(b)
                        .find(|&n| shape.distance(n, to) + 1 == shape.distance(b, to)
                            && (shape.row(n) == shape.row(to) || shape.col(n) == shape.col(to)))
                        .unwrap();
                    walked = walked.slide(next);
                }
                prop_assert_eq!(&walked, s);
                prop_assert_eq!(s.slide_to(blank), board.clone());
                if k == 1 {
                    prop_assert!(board.neighbours().any(|n| &n == s));
                }
            }
            let ones = slides.iter().filter(|s| shape.distance(blank, s.blank()) == 1).count();
            prop_assert_eq!(ones, board.neighbours().count());
        }
    }

    #[test]
    fn metrics_parse_and_print() {
        for m in Metric::ALL {
            assert_eq!(m.name().parse::<Metric>().unwrap(), m);
        }
        assert_eq!("MTM".parse::<Metric>().unwrap(), Metric::Multi);
        assert!("both".parse::<Metric>().is_err());
        assert_eq!(Metric::default(), Metric::Single);
    }
}

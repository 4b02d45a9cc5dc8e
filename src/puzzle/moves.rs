//! Solutions as blank moves (U/D/L/R: the direction the blank goes), and their replay.
//!
//! Every solution the tool prints, optimal or constructive, is replayed from the start board
//! with `replay` before it is shown: each move must be legal and the last board must be the goal.

use std::fmt;

use crate::error::Error;
use crate::puzzle::board::{Board, Cell, Shape};

/// One move of the blank. The tile on the cell the blank enters moves the opposite way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dir {
    /// The blank moves up (the tile above it moves down).
    Up,
    /// The blank moves down.
    Down,
    /// The blank moves left.
    Left,
    /// The blank moves right.
    Right,
}

impl Dir {
    /// `U`, `D`, `L` or `R`.
    pub fn letter(self) -> char {
        match self {
            Dir::Up => 'U',
            Dir::Down => 'D',
            Dir::Left => 'L',
            Dir::Right => 'R',
        }
    }

    /// The move a letter names, if any.
    pub fn from_letter(c: char) -> Option<Dir> {
        match c {
            'U' => Some(Dir::Up),
            'D' => Some(Dir::Down),
            'L' => Some(Dir::Left),
            'R' => Some(Dir::Right),
            _ => None,
        }
    }

    /// The move that undoes this one.
    pub fn reverse(self) -> Dir {
        match self {
            Dir::Up => Dir::Down,
            Dir::Down => Dir::Up,
            Dir::Left => Dir::Right,
            Dir::Right => Dir::Left,
        }
    }

    /// The cell the blank enters from `from`, or None at the edge.
    pub fn step(self, shape: Shape, from: Cell) -> Option<Cell> {
        let (r, c) = (shape.row(from), shape.col(from));
        match self {
            Dir::Up if r > 0 => Some(Cell(from.0 - shape.cols)),
            Dir::Down if r + 1 < shape.rows => Some(Cell(from.0 + shape.cols)),
            Dir::Left if c > 0 => Some(Cell(from.0 - 1)),
            Dir::Right if c + 1 < shape.cols => Some(Cell(from.0 + 1)),
            _ => None,
        }
    }

    /// The move that takes the blank from `from` to the neighbouring cell `to`.
    pub fn between(shape: Shape, from: Cell, to: Cell) -> Dir {
        debug_assert_eq!(shape.distance(from, to), 1);
        if to.0 + shape.cols == from.0 {
            Dir::Up
        } else if to.0 == from.0 + shape.cols {
            Dir::Down
        } else if to.0 + 1 == from.0 {
            Dir::Left
        } else {
            Dir::Right
        }
    }
}

/// A sequence of blank moves, printed as a string of U/D/L/R.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Moves(pub Vec<Dir>);

impl Moves {
    /// How many moves.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// No moves at all.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The moves joining consecutive boards of a path (each one move from the next).
    pub fn of_path(path: &[Board]) -> Moves {
        Moves(
            path.windows(2)
                .map(|w| Dir::between(w[0].shape(), w[0].blank(), w[1].blank()))
                .collect(),
        )
    }

    /// Reads a U/D/L/R string.
    pub fn parse(text: &str) -> Result<Moves, Error> {
        text.chars()
            .filter(|c| !c.is_whitespace())
            .map(|c| {
                Dir::from_letter(c)
                    .ok_or_else(|| Error::Argument(format!("'{c}' is not a move (U, D, L or R)")))
            })
            .collect::<Result<_, _>>()
            .map(Moves)
    }

    /// The tile that moves at each step, starting from `start` (the moves must be legal).
    pub fn tiles(&self, start: &Board) -> Result<Vec<u32>, Error> {
        let mut tiles = Vec::with_capacity(self.len());
        replay_each(start, self, |cells, entered| tiles.push(cells[entered.0]))?;
        Ok(tiles)
    }
}

impl fmt::Display for Moves {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text: String = self.0.iter().map(|d| d.letter()).collect();
        f.write_str(&text)
    }
}

/// A multi-tile solution: slides of the blank, each a direction and a number of cells (the
/// tiles between follow it), printed `R2 U1 L3`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SlidePath(pub Vec<(Dir, usize)>);

impl SlidePath {
    /// The slides joining consecutive boards of a path, each one multi-tile move from the next
    /// (the blank in the same row or column).
    pub fn of_path(path: &[Board]) -> SlidePath {
        SlidePath(
            path.windows(2)
                .map(|w| {
                    let (shape, from, to) = (w[0].shape(), w[0].blank(), w[1].blank());
                    let k = shape.distance(from, to);
                    let one = if shape.row(from) == shape.row(to) {
                        Cell(if to.0 > from.0 {
                            from.0 + 1
                        } else {
                            from.0 - 1
                        })
                    } else if to.0 > from.0 {
                        Cell(from.0 + shape.cols)
                    } else {
                        Cell(from.0 - shape.cols)
                    };
                    (Dir::between(shape, from, one), k)
                })
                .collect(),
        )
    }

    /// How many slides.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// No slides at all.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The same moves one cell at a time (what `replay` plays).
    pub fn steps(&self) -> Moves {
        Moves(
            self.0
                .iter()
                .flat_map(|&(d, k)| std::iter::repeat_n(d, k))
                .collect(),
        )
    }

    /// The tiles each slide moves, in the order they move, from `start`.
    pub fn tiles(&self, start: &Board) -> Result<Vec<Vec<u32>>, Error> {
        let mut each = self.steps().tiles(start)?.into_iter();
        Ok(self
            .0
            .iter()
            .map(|&(_, k)| each.by_ref().take(k).collect())
            .collect())
    }
}

impl fmt::Display for SlidePath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text: Vec<String> = self
            .0
            .iter()
            .map(|&(d, k)| format!("{}{k}", d.letter()))
            .collect();
        f.write_str(&text.join(" "))
    }
}

/// Plays `moves` from `start` and returns the final board; an illegal move is an error.
pub fn replay(start: &Board, moves: &Moves) -> Result<Board, Error> {
    replay_each(start, moves, |_, _| {})
}

/// Plays `moves` and checks that they end on `goal`: the check behind every printed solution.
pub fn verify(start: &Board, moves: &Moves, goal: &Board) -> Result<(), Error> {
    let end = replay(start, moves)?;
    if &end != goal {
        return Err(Error::Check(format!(
            "the {} moves from {start} end at {end}, not at the goal {goal}",
            moves.len()
        )));
    }
    Ok(())
}

/// Plays the moves on one cell array, calling `each(cells, entered)` before each swap.
fn replay_each(
    start: &Board,
    moves: &Moves,
    mut each: impl FnMut(&[u32], Cell),
) -> Result<Board, Error> {
    let shape = start.shape();
    let mut cells = start.cells().to_vec();
    let mut blank = start.blank();
    for (i, &d) in moves.0.iter().enumerate() {
        let to = d.step(shape, blank).ok_or_else(|| {
            Error::Check(format!(
                "move {} ({}) leaves the board from cell {}",
                i + 1,
                d.letter(),
                shape.cell_label(blank)
            ))
        })?;
        each(&cells, to);
        cells.swap(blank.0, to.0);
        blank = to;
    }
    Board::new(shape, cells)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replays_and_names_the_tiles() {
        let start = Board::parse("1 2 3/4 5 6/7 0 8", None).unwrap();
        let goal = Board::goal(start.shape(), Cell(8));
        let m = Moves::parse("R").unwrap();
        verify(&start, &m, &goal).unwrap();
        assert_eq!(m.tiles(&start).unwrap(), vec![8]);
        // Left then right is back at the start: not the goal.
        let back = Moves::parse("LR").unwrap();
        assert!(verify(&start, &back, &goal).is_err());
        // Down from the bottom row is illegal.
        assert!(replay(&start, &Moves::parse("D").unwrap()).is_err());
        assert!(Moves::parse("UX").is_err());
    }

    #[test]
    fn path_moves_round_trip() {
        let a = Board::parse("1 2 3/4 0 5/7 8 6", None).unwrap();
        let b = a.slide(Cell(5));
        let c = b.slide(Cell(8));
        let m = Moves::of_path(&[a.clone(), b, c.clone()]);
        assert_eq!(m.to_string(), "RD");
        assert_eq!(replay(&a, &m).unwrap(), c);
    }
}

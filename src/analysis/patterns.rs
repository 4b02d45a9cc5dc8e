//! Structure of the worst configurations (antipodes): which tiles stay on their goal row or
//! column, whether goal columns (rows) stay together, which symmetries of the board leave an
//! antipode unchanged; and Gong's question on 2×n boards.
//!
//! A board is read as a placement σ: σ(i) = the goal cell of what sits on cell i (the blank's
//! goal cell for the blank). A symmetry S of the rectangle acts on boards by conjugation,
//! σ ↦ S σ S⁻¹ (move every piece by S and relabel it by S); a board is its own S-image iff σ
//! commutes with S. When S fixes the goal blank cell, it maps the goal to itself and the set of
//! antipodes to itself, which `image` lets the tests check.

use serde::Serialize;

use crate::puzzle::board::{Board, Cell, Shape};

/// A symmetry of the rectangle, by name and as a map of cells.
pub struct Symmetry {
    /// Its name: `mirror`, `flip`, `half_turn`, `transpose`, ….
    pub name: &'static str,
    /// `map[c]` = where cell `c` goes.
    pub map: Vec<Cell>,
}

/// The symmetries worth asking about: left-right mirror, top-bottom flip, half turn, and for
/// square boards the transpose (main diagonal).
pub fn symmetries(shape: Shape) -> Vec<Symmetry> {
    let (r, c) = (shape.rows, shape.cols);
    let cell = |f: &dyn Fn(usize, usize) -> (usize, usize)| -> Vec<Cell> {
        (0..shape.cells())
            .map(|i| {
                let (a, b) = f(i / c, i % c);
                shape.cell(a, b)
            })
            .collect()
    };
    let mut all = vec![
        Symmetry {
            name: "mirror",
            map: cell(&|i, j| (i, c - 1 - j)),
        },
        Symmetry {
            name: "flip",
            map: cell(&|i, j| (r - 1 - i, j)),
        },
        Symmetry {
            name: "half_turn",
            map: cell(&|i, j| (r - 1 - i, c - 1 - j)),
        },
    ];
    if r == c {
        all.push(Symmetry {
            name: "transpose",
            map: cell(&|i, j| (j, i)),
        });
    }
    all
}

/// σ of `board` for the goal with blank on `goal`.
pub fn placement(board: &Board, goal: Cell) -> Vec<Cell> {
    let shape = board.shape();
    let mut home = vec![Cell(0); shape.cells()];
    for (i, &t) in Board::goal(shape, goal).cells().iter().enumerate() {
        home[t as usize] = Cell(i);
    }
    board.cells().iter().map(|&t| home[t as usize]).collect()
}

/// The image of `board` under `s`, a board for the goal blank `s(goal)`, returned with it.
pub fn image(board: &Board, goal: Cell, s: &Symmetry) -> (Board, Cell) {
    let shape = board.shape();
    let sigma = placement(board, goal);
    let new_goal = s.map[goal.0];
    let labels = Board::goal(shape, new_goal);
    let mut cells = vec![0u32; shape.cells()];
    for (i, home) in sigma.iter().enumerate() {
        cells[s.map[i].0] = labels.cells()[s.map[home.0].0];
    }
    (
        Board::new(shape, cells).expect("a symmetry permutes the cells"),
        new_goal,
    )
}

/// What `tilespace antipodes` reports of one antipode (a row of `antipode-patterns.csv`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AntipodePattern {
    /// The antipode's number in `antipodes.csv`, from 1.
    pub antipode: usize,
    /// The antipode, in the one-line text form.
    pub board: String,
    /// Tiles on their goal row / goal column, ascending, space-separated.
    pub in_goal_row: String,
    /// Tiles on their goal column, ascending, space-separated.
    pub in_goal_column: String,
    /// Every goal column's pieces (the blank counted as the piece of the goal blank cell) sit
    /// together in one column: for 2×n and the usual goal, tile k shares a column with k+n.
    pub columns_kept: bool,
    /// The same for rows.
    pub rows_kept: bool,
    /// Symmetries (see `symmetries`) that leave this antipode unchanged, space-separated.
    pub own_image_under: String,
}

/// The pattern of `board` (the `index`-th antipode, from 1) for the goal blank `goal`.
pub fn pattern(index: usize, board: &Board, goal: Cell) -> AntipodePattern {
    let shape = board.shape();
    let sigma = placement(board, goal);
    let on = |same: &dyn Fn(Cell, Cell) -> bool| -> String {
        let mut tiles: Vec<u32> = board
            .cells()
            .iter()
            .enumerate()
            .filter(|&(i, &t)| t != 0 && same(Cell(i), sigma[i]))
            .map(|(_, &t)| t)
            .collect();
        tiles.sort_unstable();
        let text: Vec<String> = tiles.iter().map(|t| t.to_string()).collect();
        text.join(" ")
    };
    let own: Vec<&str> = symmetries(shape)
        .iter()
        .filter(|s| (0..shape.cells()).all(|i| sigma[s.map[i].0] == s.map[sigma[i].0]))
        .map(|s| s.name)
        .collect();
    AntipodePattern {
        antipode: index,
        board: board.to_string(),
        in_goal_row: on(&|a, b| shape.row(a) == shape.row(b)),
        in_goal_column: on(&|a, b| shape.col(a) == shape.col(b)),
        columns_kept: split_line(board, goal, false).is_none(),
        rows_kept: split_line(board, goal, true).is_none(),
        own_image_under: own.join(" "),
    }
}

/// Two pieces of one goal column (goal row if `rows`) that sit in different columns (rows):
/// `(piece, its column, piece, its column)`, 0-based lines, 0 the blank. None if every goal
/// line is kept together.
pub fn split_line(board: &Board, goal: Cell, rows: bool) -> Option<(u32, usize, u32, usize)> {
    let shape = board.shape();
    let sigma = placement(board, goal);
    let line = |c: Cell| if rows { shape.row(c) } else { shape.col(c) };
    let mut seen: Vec<Option<(u32, usize)>> = vec![None; shape.rows.max(shape.cols)];
    for (i, home) in sigma.iter().enumerate() {
        let here = line(Cell(i));
        let piece = board.cells()[i];
        match seen[line(*home)] {
            None => seen[line(*home)] = Some((piece, here)),
            Some((p, l)) if l != here => return Some((p, l, piece, here)),
            Some(_) => {}
        }
    }
    None
}

/// Gong's question for a board with 2 rows: in every antipode, does tile k share a column with
/// tile k+n (the blank counting as the goal blank cell's piece)? Returns None if it holds, else
/// the first counterexample and a sentence naming the two pieces.
pub fn gong_counterexample(antipodes: &[Board], goal: Cell) -> Option<(Board, String)> {
    antipodes.iter().find_map(|b| {
        split_line(b, goal, false).map(|(p, lp, q, lq)| {
            let name = |t: u32| {
                if t == 0 {
                    "the blank".to_string()
                } else {
                    format!("tile {t}")
                }
            };
            let why = format!(
                "in {b}, {} and {} belong to one goal column but sit in columns {} and {}",
                name(p),
                name(q),
                lp + 1,
                lq + 1
            );
            (b.clone(), why)
        })
    })
}

/// One row of `gong.csv`: Gong's question on one 2×n board.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct GongRow {
    /// `RxC`.
    pub board: String,
    /// The goal's blank cell, `R,C`.
    pub goal_blank: String,
    /// How many antipodes were examined.
    pub antipodes: usize,
    /// Tile k shares a column with tile k + C in every antipode.
    pub holds: bool,
    /// An antipode where it fails, empty if it holds.
    pub counterexample: String,
    /// Why it fails there (empty if it holds).
    pub why: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(text: &str) -> Board {
        Board::parse(text, None).unwrap()
    }

    #[test]
    fn the_goal_is_its_own_image_under_symmetries_fixing_its_blank() {
        let shape = Shape::new(3, 3).unwrap();
        let centre = Cell(4);
        let goal = Board::goal(shape, centre);
        let p = pattern(1, &goal, centre);
        assert_eq!(p.own_image_under, "mirror flip half_turn transpose");
        assert!(p.columns_kept && p.rows_kept);
        assert_eq!(p.in_goal_row, "1 2 3 4 5 6 7 8");
        // σ of any goal is the identity, which commutes with every symmetry; an antipode of
        // the 3x3 is not its own transpose (its transpose is the other antipode).
        let corner = Cell(8);
        let p = pattern(1, &Board::goal(shape, corner), corner);
        assert_eq!(p.own_image_under, "mirror flip half_turn transpose");
        let p = pattern(1, &b("8 6 7/2 5 4/3 0 1"), corner);
        assert!(!p.own_image_under.contains("transpose"));
    }

    #[test]
    fn transpose_image_relabels_tiles() {
        // The two 3x3 antipodes are each other's transpose (relabelled).
        let s = symmetries(Shape::new(3, 3).unwrap())
            .into_iter()
            .find(|s| s.name == "transpose")
            .unwrap();
        let (img, g) = image(&b("8 6 7/2 5 4/3 0 1"), Cell(8), &s);
        assert_eq!((img, g), (b("6 4 7/8 5 0/3 2 1"), Cell(8)));
    }

    #[test]
    fn a_split_column_is_named() {
        // Goal 1 2 3/4 5 0: tiles 1 and 4 belong together; here 1 and 4 are apart.
        let board = b("4 2 3/1 5 0");
        assert!(split_line(&board, Cell(5), false).is_none());
        let board = b("2 1 3/4 5 0");
        let (p, lp, q, lq) = split_line(&board, Cell(5), false).unwrap();
        assert_eq!((p.min(q), lp != lq), (1, true));
        let (_, why) = gong_counterexample(&[board], Cell(5)).unwrap();
        assert!(why.contains("tile 1"), "{why}");
    }
}

//! A constructive solver for boards of any size (Calabro, Lemma 2): not optimal, O((R+C)·R·C)
//! moves, milliseconds for 50x50.
//!
//! The unsolved part is a rectangle holding the goal blank cell. While it is taller than 2, its
//! row farthest from the goal blank is solved and fixed; then, at height 2, its column farthest
//! from the goal blank; the last 2×2 is solved in place. A line is solved tile by tile: each tile
//! travels along a path, the blank stepping around it through cells that are neither fixed nor
//! the tile (straight L-shaped routes where they are free, a breadth-first search over cells
//! otherwise). The last two cells of a line are the classic trap: the pair is finished inside a
//! 2×3 window (the two cells and the two cells behind each) by an exact search over the
//! positions of the blank and the two tiles, 120 states, in which every arrangement is reachable
//! because the window's other tiles are interchangeable. The final 2×2 is an exact search too;
//! parity (checked first) makes it solvable.

use crate::error::Error;
use crate::puzzle::board::{Board, Cell, Shape};
use crate::puzzle::moves::{Dir, Moves};
use crate::puzzle::parity::solvability;

/// A solution found by `solve`, with the Manhattan lower bound on any solution.
#[derive(Clone, Debug)]
pub struct Construction {
    /// The blank's moves, from the board to the goal.
    pub moves: Moves,
    /// Σ over tiles of the taxicab distance to the goal cell: no solution is shorter.
    pub lower_bound: usize,
}

/// Largest (R+C)·R·C solved: solutions run to about twice that many moves (290x290 is in,
/// at some 10^8 moves; a 1000x1000 solution would need gigabytes to print).
pub const MAX_WORK: usize = 50_000_000;

/// Bytes that building and printing the solution of a `shape` board may take: an estimate with
/// room to spare, 16 per unit of (R+C)·R·C (solutions run to about 2 moves per unit, each a
/// byte in the solver's growing list, a byte once reversals are dropped, 4 as the tile moved
/// and 1 as a letter). Measured peak for 290x290: 0.50 GB printed as text, 0.59 GB as JSON;
/// this says 0.78 GB.
pub fn bytes_needed(shape: Shape) -> u64 {
    16 * work(shape) as u64
}

/// Of `bytes_needed`, what an answer keeps until a JSON document of every answer is printed:
/// its tiles and letters.
pub fn bytes_kept(shape: Shape) -> u64 {
    10 * work(shape) as u64
}

/// (R+C)·R·C, the order of a solution's length.
fn work(shape: Shape) -> usize {
    (shape.rows + shape.cols) * shape.cells()
}

/// Solves `board` for the goal with the blank on `goal`. Unsolvable boards get the parity rule.
/// The result is not yet replayed: callers print only what `moves::verify` accepts.
pub fn solve(board: &Board, goal: Cell) -> Result<Construction, Error> {
    let shape = board.shape();
    let work = work(shape);
    if work > MAX_WORK {
        return Err(Error::Shape(format!(
            "{shape}: a constructive solution would run to about {} moves; \
             boards up to (R+C)·R·C = {MAX_WORK} (290x290) are solved",
            2 * work
        )));
    }
    let s = solvability(board, goal);
    if !s.solvable {
        return Err(Error::Unsolvable(format!(
            "{board} cannot reach the goal: {}",
            s.rule
        )));
    }
    let lower_bound = manhattan(board, goal);
    let mut solver = Solver::new(board, goal);
    if board.shape().is_line() {
        // Solvable means the tiles are in order: only the blank has to travel.
        solver.route_blank(&[goal], None)?;
    } else {
        solver.run()?;
    }
    Ok(Construction {
        moves: Moves(cancel_reversals(solver.moves)),
        lower_bound,
    })
}

/// Σ over tiles of the distance from their cell to their goal cell.
pub fn manhattan(board: &Board, goal: Cell) -> usize {
    let shape = board.shape();
    let home = goal_cells(shape, goal);
    board
        .cells()
        .iter()
        .enumerate()
        .filter(|&(_, &t)| t != 0)
        .map(|(i, &t)| shape.distance(Cell(i), home[t as usize]))
        .sum()
}

/// `manhattan` for many boards of one size and goal: each tile's distance from each cell looked
/// up, not computed (a saved table checks every answer it gives against it).
pub struct Taxicab {
    cells: usize,
    /// `steps[i * cells + t]`: tile t's distance from cell i to its goal cell (0 for the blank).
    steps: Vec<u8>,
}

impl Taxicab {
    /// The distances of `shape`'s tiles to their cells of the goal whose blank is `goal`.
    pub fn new(shape: Shape, goal: Cell) -> Taxicab {
        let (cells, home) = (shape.cells(), goal_cells(shape, goal));
        let steps = (0..cells * cells)
            .map(|k| {
                let (i, t) = (k / cells, k % cells);
                let d = if t == 0 {
                    0
                } else {
                    shape.distance(Cell(i), home[t])
                };
                u8::try_from(d).unwrap_or(u8::MAX)
            })
            .collect();
        Taxicab { cells, steps }
    }

    /// `manhattan(board, goal)` of a board of the table's size.
    pub fn of(&self, board: &Board) -> usize {
        let at = |(i, &t): (usize, &u32)| usize::from(self.steps[i * self.cells + t as usize]);
        board.cells().iter().enumerate().map(at).sum()
    }
}

/// `home[t]` = the goal cell of tile t (home[0] = the goal blank cell).
fn goal_cells(shape: Shape, goal: Cell) -> Vec<Cell> {
    let mut home = vec![Cell(0); shape.cells()];
    for (i, &t) in Board::goal(shape, goal).cells().iter().enumerate() {
        home[t as usize] = Cell(i);
    }
    home
}

/// A move followed by its reverse does nothing: drop such pairs (repeatedly, with a stack).
fn cancel_reversals(moves: Vec<Dir>) -> Vec<Dir> {
    let mut out: Vec<Dir> = Vec::with_capacity(moves.len());
    for d in moves {
        if out.last() == Some(&d.reverse()) {
            out.pop();
        } else {
            out.push(d);
        }
    }
    out
}

struct Solver {
    shape: Shape,
    goal: Cell,
    cells: Vec<u32>,
    /// `at[t]` = the cell of tile t.
    at: Vec<Cell>,
    blank: Cell,
    /// The goal tile of each cell.
    want: Vec<u32>,
    fixed: Vec<bool>,
    moves: Vec<Dir>,
    // Scratch for the cell searches: a cell is seen in this search iff stamp == round.
    stamp: Vec<u32>,
    round: u32,
    parent: Vec<Cell>,
    queue: Vec<Cell>,
}

impl Solver {
    fn new(board: &Board, goal: Cell) -> Solver {
        let shape = board.shape();
        let n = shape.cells();
        let mut at = vec![Cell(0); n];
        for (i, &t) in board.cells().iter().enumerate() {
            at[t as usize] = Cell(i);
        }
        Solver {
            shape,
            goal,
            cells: board.cells().to_vec(),
            blank: at[0],
            at,
            want: Board::goal(shape, goal).cells().to_vec(),
            fixed: vec![false; n],
            moves: Vec::new(),
            stamp: vec![0; n],
            round: 0,
            parent: vec![Cell(0); n],
            queue: Vec::new(),
        }
    }

    fn run(&mut self) -> Result<(), Error> {
        let (gr, gc) = (self.shape.row(self.goal), self.shape.col(self.goal));
        let (mut r0, mut r1, mut c0, mut c1) = (0, self.shape.rows, 0, self.shape.cols);
        while r1 - r0 > 2 {
            // Solve the row farther from the goal blank; the rectangle keeps the goal blank.
            let (row, inward) = if gr - r0 >= r1 - 1 - gr {
                r0 += 1;
                (r0 - 1, Dir::Down)
            } else {
                r1 -= 1;
                (r1, Dir::Up)
            };
            let line: Vec<Cell> = (c0..c1).map(|c| self.shape.cell(row, c)).collect();
            self.solve_line(&line, inward)?;
        }
        while c1 - c0 > 2 {
            let (col, inward) = if gc - c0 >= c1 - 1 - gc {
                c0 += 1;
                (c0 - 1, Dir::Right)
            } else {
                c1 -= 1;
                (c1, Dir::Left)
            };
            let line: Vec<Cell> = (r0..r1).map(|r| self.shape.cell(r, col)).collect();
            self.solve_line(&line, inward)?;
        }
        let square: Vec<Cell> = (r0..r1)
            .flat_map(|r| (c0..c1).map(move |c| (r, c)))
            .map(|(r, c)| self.shape.cell(r, c))
            .collect();
        let targets: Vec<(u32, Cell)> = square
            .iter()
            .filter(|&&c| c != self.goal)
            .map(|&c| (self.want[c.0], c))
            .collect();
        self.solve_window(&square, &targets)
    }

    /// The cell `k` steps from `cell` in direction `way`; the caller knows it is on the board.
    fn offset(&self, cell: Cell, way: Dir, k: isize) -> Cell {
        let (dr, dc) = match way {
            Dir::Up => (-1, 0),
            Dir::Down => (1, 0),
            Dir::Left => (0, -1),
            Dir::Right => (0, 1),
        };
        let r = self.shape.row(cell) as isize + dr * k;
        let c = self.shape.col(cell) as isize + dc * k;
        self.shape.cell(r as usize, c as usize)
    }

    /// Puts the goal tiles on `line` (a row or column of the rectangle, which extends at least
    /// two more cells in direction `inward`) and fixes them.
    fn solve_line(&mut self, line: &[Cell], inward: Dir) -> Result<(), Error> {
        let k = line.len();
        for &c in &line[..k - 2] {
            self.move_tile(self.want[c.0], c)?;
            self.fixed[c.0] = true;
        }
        let (a_cell, b_cell) = (line[k - 2], line[k - 1]);
        let (a, b) = (self.want[a_cell.0], self.want[b_cell.0]);
        let window: Vec<Cell> = [a_cell, b_cell]
            .iter()
            .flat_map(|&c| (0..3).map(move |i| (c, i)))
            .map(|(c, i)| self.offset(c, inward, i))
            .collect();
        if self.at[a as usize] != a_cell || self.at[b as usize] != b_cell {
            self.move_tile(a, a_cell)?;
            self.fixed[a_cell.0] = true;
            if !window.contains(&self.at[b as usize]) {
                // Behind b's cell, never on it: with a fixed, b's cell is a dead end.
                self.move_tile(b, self.offset(b_cell, inward, 1))?;
            }
            let b_at = self.at[b as usize];
            self.route_blank(&window, Some(b_at))?;
            self.fixed[a_cell.0] = false;
            self.solve_window(&window, &[(a, a_cell), (b, b_cell)])?;
        }
        self.fixed[a_cell.0] = true;
        self.fixed[b_cell.0] = true;
        Ok(())
    }

    /// Moves the blank one step; the tile there takes the blank's place.
    fn step(&mut self, to: Cell) {
        let d = Dir::between(self.shape, self.blank, to);
        let t = self.cells[to.0];
        self.cells.swap(self.blank.0, to.0);
        self.at[t as usize] = self.blank;
        self.at[0] = to;
        self.blank = to;
        self.moves.push(d);
    }

    /// Brings `tile` to `target` along a path of free cells, the blank going ahead of it.
    fn move_tile(&mut self, tile: u32, target: Cell) -> Result<(), Error> {
        let from = self.at[tile as usize];
        let path = self
            .path(from, &[target], None)
            .ok_or_else(|| self.stuck("no free path for a tile"))?;
        for next in path {
            let here = self.at[tile as usize];
            self.route_blank(&[next], Some(here))?;
            self.step(here);
        }
        Ok(())
    }

    /// Walks the blank to the nearest of `targets`, through free cells other than `avoid`.
    fn route_blank(&mut self, targets: &[Cell], avoid: Option<Cell>) -> Result<(), Error> {
        let path = self
            .path(self.blank, targets, avoid)
            .ok_or_else(|| self.stuck("the blank cannot get around a tile"))?;
        for c in path {
            self.step(c);
        }
        Ok(())
    }

    fn stuck(&self, what: &str) -> Error {
        Error::Check(format!(
            "constructive solver: {what} on {}",
            Board::new(self.shape, self.cells.clone()).expect("a permutation")
        ))
    }

    fn free(&self, c: Cell, avoid: Option<Cell>) -> bool {
        !self.fixed[c.0] && Some(c) != avoid
    }

    /// The cells after `from` on a path to one of `targets` through free cells: an L-shaped
    /// route to a single target when one is free (the common case, O(distance)), else a
    /// breadth-first search (shortest, to the nearest target).
    fn path(&mut self, from: Cell, targets: &[Cell], avoid: Option<Cell>) -> Option<Vec<Cell>> {
        if targets.contains(&from) {
            return Some(Vec::new());
        }
        match targets {
            &[to] => self.straight(from, to, avoid),
            _ => None,
        }
        .or_else(|| self.search(from, targets, avoid))
    }

    /// An L-shaped route from `from` to `to` if one is free: rows first, or columns first.
    fn straight(&self, from: Cell, to: Cell, avoid: Option<Cell>) -> Option<Vec<Cell>> {
        let shape = self.shape;
        let (fr, fc) = (shape.row(from), shape.col(from));
        let (tr, tc) = (shape.row(to), shape.col(to));
        let toward = |a: usize, b: usize| if b > a { a + 1 } else { a - 1 };
        for rows_first in [true, false] {
            let (mut r, mut c) = (fr, fc);
            let mut route = Vec::with_capacity(fr.abs_diff(tr) + fc.abs_diff(tc));
            let mut ok = true;
            while (r, c) != (tr, tc) {
                if (rows_first && r != tr) || c == tc {
                    r = toward(r, tr);
                } else {
                    c = toward(c, tc);
                }
                let cell = shape.cell(r, c);
                if !self.free(cell, avoid) {
                    ok = false;
                    break;
                }
                route.push(cell);
            }
            if ok {
                return Some(route);
            }
        }
        None
    }

    /// Breadth-first search over free cells; stops at the first target reached.
    fn search(&mut self, from: Cell, targets: &[Cell], avoid: Option<Cell>) -> Option<Vec<Cell>> {
        self.round += 1;
        let round = self.round;
        self.queue.clear();
        self.queue.push(from);
        self.stamp[from.0] = round;
        let mut head = 0;
        while head < self.queue.len() {
            let c = self.queue[head];
            head += 1;
            for n in self.shape.neighbours(c) {
                if self.stamp[n.0] == round || !self.free(n, avoid) {
                    continue;
                }
                self.stamp[n.0] = round;
                self.parent[n.0] = c;
                if targets.contains(&n) {
                    let mut route = vec![n];
                    let mut x = n;
                    while self.parent[x.0] != from {
                        x = self.parent[x.0];
                        route.push(x);
                    }
                    route.reverse();
                    return Some(route);
                }
                self.queue.push(n);
            }
        }
        None
    }

    /// Puts each `(tile, cell)` of `targets` in place by an exact search over the positions of
    /// the blank and those tiles inside `window` (≤ 6 cells, ≤ 3 tiles; the other tiles there
    /// are interchangeable). The blank and the tiles must already be inside the window.
    fn solve_window(&mut self, window: &[Cell], targets: &[(u32, Cell)]) -> Result<(), Error> {
        let w = window.len();
        let index = |c: Cell| window.iter().position(|&x| x == c);
        // A state: the window index of the blank, then of each tracked tile, in base w.
        let encode = |pos: &[usize]| pos.iter().rev().fold(0, |acc, &p| acc * w + p);
        let decode = |mut s: usize| {
            let mut pos = Vec::with_capacity(targets.len() + 1);
            for _ in 0..=targets.len() {
                pos.push(s % w);
                s /= w;
            }
            pos
        };
        let mut start =
            vec![index(self.blank).ok_or_else(|| self.stuck("blank outside the window"))?];
        for &(t, _) in targets {
            start.push(
                index(self.at[t as usize]).ok_or_else(|| self.stuck("tile outside the window"))?,
            );
        }
        let done: Vec<usize> = targets
            .iter()
            .map(|&(_, c)| index(c).expect("targets are in the window"))
            .collect();
        let states = w.pow(targets.len() as u32 + 1);
        let mut prev = vec![usize::MAX; states];
        let start_code = encode(&start);
        prev[start_code] = start_code;
        let mut queue = std::collections::VecDeque::from([start_code]);
        let mut found = None;
        while let Some(s) = queue.pop_front() {
            let pos = decode(s);
            if pos[1..] == done[..] {
                found = Some(s);
                break;
            }
            for n in self.shape.neighbours(window[pos[0]]) {
                let Some(j) = index(n) else { continue };
                let mut next = pos.clone();
                next[0] = j;
                if let Some(k) = pos[1..].iter().position(|&p| p == j) {
                    next[k + 1] = pos[0];
                }
                let code = encode(&next);
                if prev[code] == usize::MAX {
                    prev[code] = s;
                    queue.push_back(code);
                }
            }
        }
        let mut s = found.ok_or_else(|| self.stuck("the window cannot be solved"))?;
        let mut blanks = Vec::new();
        while prev[s] != s {
            blanks.push(window[decode(s)[0]]);
            s = prev[s];
        }
        for &c in blanks.iter().rev() {
            self.step(c);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::moves::verify;
    use crate::puzzle::random::{solvable_board, Rng};

    fn check(board: &Board, goal: Cell) -> Construction {
        let c = solve(board, goal).unwrap();
        verify(board, &c.moves, &Board::goal(board.shape(), goal)).unwrap();
        assert!(c.moves.len() >= c.lower_bound);
        c
    }

    /// The looked-up taxicab distance is `manhattan`'s, from every goal cell of boards of
    /// either orientation, on random boards and on the goal (0).
    #[test]
    fn taxicab_looked_up_is_manhattan() {
        let mut rng = Rng::new(11);
        for (r, c) in [(2, 2), (3, 4), (4, 3), (1, 5), (4, 4), (2, 8)] {
            let shape = Shape::new(r, c).unwrap();
            for g in 0..shape.cells() {
                let taxicab = Taxicab::new(shape, Cell(g));
                assert_eq!(taxicab.of(&Board::goal(shape, Cell(g))), 0);
                for _ in 0..50 {
                    let board = solvable_board(shape, Cell(g), &mut rng);
                    assert_eq!(taxicab.of(&board), manhattan(&board, Cell(g)), "{board}");
                }
            }
        }
    }

    #[test]
    fn solves_every_goal_cell_on_small_boards() {
        let mut rng = Rng::new(7);
        for (r, c) in [
            (2, 2),
            (2, 3),
            (3, 2),
            (3, 3),
            (2, 5),
            (4, 3),
            (4, 4),
            (5, 2),
        ] {
            let shape = Shape::new(r, c).unwrap();
            for g in 0..shape.cells() {
                for _ in 0..20 {
                    check(&solvable_board(shape, Cell(g), &mut rng), Cell(g));
                }
            }
        }
    }

    #[test]
    fn the_goal_needs_no_moves_and_the_bound_is_exact_for_one_slide() {
        let shape = Shape::new(3, 4).unwrap();
        let goal = Board::goal(shape, Cell(11));
        assert!(check(&goal, Cell(11)).moves.is_empty());
        let one = goal.slide(Cell(10));
        let c = check(&one, Cell(11));
        assert_eq!((c.moves.len(), c.lower_bound), (1, 1));
    }

    #[test]
    fn refuses_the_other_class_with_the_rule() {
        let b = Board::parse("1 2 3/4 5 6/8 7 0", None).unwrap();
        match solve(&b, Cell(8)) {
            Err(Error::Unsolvable(why)) => assert!(why.contains("inversion"), "{why}"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn lines_walk_the_blank() {
        let b = Board::parse("1 2 3 0 4 5", Some(Shape::new(1, 6).unwrap())).unwrap();
        let c = check(&b, Cell(5));
        assert_eq!(c.moves.to_string(), "RR");
        let col = Board::parse("0/1/2", None).unwrap();
        assert_eq!(check(&col, Cell(2)).moves.to_string(), "DD");
    }

    #[test]
    fn refuses_boards_whose_solution_would_not_fit() {
        let shape = Shape::new(400, 400).unwrap();
        let b = Board::goal(shape, Cell(0));
        assert!(matches!(solve(&b, Cell(0)), Err(Error::Shape(_))));
    }

    #[test]
    fn reversals_cancel() {
        use Dir::*;
        assert_eq!(
            cancel_reversals(vec![Up, Left, Right, Down, Down]),
            vec![Down]
        );
    }
}

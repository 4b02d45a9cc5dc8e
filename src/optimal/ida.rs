//! Optimal solutions by IDA* (Korf 1985) with the additive pattern-database heuristic.
//!
//! Depth-first searches with growing cost bounds: each explores every path whose moves so far
//! plus the heuristic stay within the bound, and the next bound is the least cost that
//! exceeded it. With a lower bound for heuristic the first solution found is optimal. A move
//! changes one tile's cell, so one database entry per sum (a partition's, over the board or its
//! mirror image) is looked up again per node; the move that undoes the last one is never tried.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::error::Error;
use crate::optimal::heuristic::{Heuristic, MAX_VIEWS};
use crate::puzzle::board::{Board, Cell};
use crate::puzzle::moves::{self, Dir, Moves};
use crate::puzzle::parity::solvability;

/// Nodes between looks at the stop flag.
const CHECK_EVERY: u64 = 1 << 20;

/// An optimal solution and what finding it took.
#[derive(Clone, Debug)]
pub struct Solved {
    /// The moves of the blank, verified by replay.
    pub moves: Moves,
    /// Nodes expanded (their children generated), over all iterations.
    pub expanded: u64,
    /// The heuristic's value of the start.
    pub start_bound: u32,
    /// Iterations (cost bounds tried).
    pub iterations: u32,
}

/// Limits on one search.
#[derive(Clone, Copy, Debug, Default)]
pub struct Limits<'a> {
    /// Give up (an error) after this many nodes.
    pub max_nodes: Option<u64>,
    /// Stop (an error) when set.
    pub stop: Option<&'a AtomicBool>,
}

/// Solves `board` optimally; an unsolvable board is `Error::Unsolvable` with the parity rule.
pub fn solve(h: &Heuristic, board: &Board, limits: Limits) -> Result<Solved, Error> {
    if board.shape() != h.shape {
        return Err(Error::Board(format!(
            "{board} is a {} board; the pattern databases are for {}",
            board.shape(),
            h.shape
        )));
    }
    let s = solvability(board, h.goal);
    if !s.solvable {
        return Err(Error::Unsolvable(format!(
            "{board} cannot reach the goal: {}",
            s.rule
        )));
    }
    // A stop also ends a batch of boards that each take less than the nodes between checks.
    if limits.stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
        return Err(Error::Stopped(format!("before solving {board}")));
    }
    let mut search = Search::new(h, board, limits);
    let start_bound = search.h();
    let mut bound = start_bound;
    let mut iterations = 0;
    loop {
        iterations += 1;
        search.next = u32::MAX;
        match search.dfs(0, bound, u8::MAX)? {
            true => break,
            false if search.next == u32::MAX => {
                return Err(Error::Check(format!(
                    "IDA* exhausted the moves from {board} without reaching the goal"
                )))
            }
            false => bound = search.next,
        }
    }
    let moves = Moves(search.path.clone());
    moves::verify(board, &moves, &Board::goal(h.shape, h.goal))?;
    admissible_along(h, board, &moves)?;
    Ok(Solved {
        moves,
        expanded: search.expanded,
        start_bound,
        iterations,
    })
}

/// Refuses a solution along which the heuristic exceeds the moves left: were the solution
/// optimal, each board on it would be exactly that many moves away, and a lower bound cannot
/// exceed that; so either the heuristic is no lower bound or the solution is not optimal.
fn admissible_along(h: &Heuristic, board: &Board, moves: &Moves) -> Result<(), Error> {
    let mut b = board.clone();
    let n = moves.len();
    for (i, &dir) in moves.0.iter().enumerate() {
        let left = (n - i) as u32;
        let value = h.value(&b)?;
        if value > left {
            return Err(Error::Inadmissible(format!(
                "they give {value} for {b}, which a solution of {n} moves leaves {left} moves from the goal"
            )));
        }
        let to = dir
            .step(b.shape(), b.blank())
            .ok_or_else(|| Error::Check(format!("move {} leaves the board", i + 1)))?;
        b = b.slide(to);
    }
    Ok(())
}

/// One board's search: the board, per view (a partition's sum, over the board or its mirror
/// image) its tiles' cells per database and its entries, the path.
struct Search<'a, 'l> {
    h: &'a Heuristic,
    limits: Limits<'l>,
    /// The tile on each cell (0 for the blank).
    cells: Vec<u8>,
    blank: u8,
    /// Per view.
    views: Vec<ViewState>,
    /// Each cell's neighbours and the blank's move to them.
    steps: Vec<Vec<(u8, Dir)>>,
    path: Vec<Dir>,
    expanded: u64,
    next: u32,
    /// The node count at which the limits are next checked (the stop flag every 2^20 nodes,
    /// the node limit exactly).
    check_at: u64,
}

/// A view's place in the search.
struct ViewState {
    /// Per database of the view, the cells of its tiles in order.
    at: Vec<[u8; 32]>,
    /// Per database of the view, its entry now.
    value: Vec<u32>,
    sum: u32,
}

/// What a move replaced, per view: the database and its entry.
type Saved = [(u8, u32); MAX_VIEWS];

impl<'a, 'l> Search<'a, 'l> {
    fn new(h: &'a Heuristic, board: &Board, limits: Limits<'l>) -> Search<'a, 'l> {
        let shape = h.shape;
        let cells: Vec<u8> = board.cells().iter().map(|&t| t as u8).collect();
        let mut s = Search {
            h,
            limits,
            blank: board.blank().0 as u8,
            views: h
                .views
                .iter()
                .map(|v| ViewState {
                    at: vec![[0; 32]; v.dbs.len()],
                    value: vec![0; v.dbs.len()],
                    sum: 0,
                })
                .collect(),
            steps: (0..shape.cells())
                .map(|c| {
                    [Dir::Up, Dir::Down, Dir::Left, Dir::Right]
                        .into_iter()
                        .filter_map(|d| d.step(shape, Cell(c)).map(|to| (to.0 as u8, d)))
                        .collect()
                })
                .collect(),
            cells,
            path: vec![],
            expanded: 0,
            next: u32::MAX,
            check_at: CHECK_EVERY.min(limits.max_nodes.unwrap_or(u64::MAX)),
        };
        for c in 0..shape.cells() {
            let t = s.cells[c];
            if t != 0 {
                s.place(t, c as u8);
            }
        }
        for (v, state) in h.views.iter().zip(&mut s.views) {
            state.sum = 0;
            for (d, &db) in v.dbs.iter().enumerate() {
                let db = &h.databases[db];
                state.value[d] = u32::from(db.get(&state.at[d][..db.pattern.tiles.len()]));
                state.sum += state.value[d];
            }
        }
        s
    }

    /// Records tile `t` on cell `c` in every view's placements (not their entries).
    #[inline]
    fn place(&mut self, t: u8, c: u8) {
        for (v, state) in self.h.views.iter().zip(&mut self.views) {
            let (d, slot) = v.owner[v.tile[t as usize] as usize];
            state.at[d as usize][slot as usize] = v.cell[c as usize];
        }
    }

    #[inline]
    fn h(&self) -> u32 {
        self.views.iter().map(|v| v.sum).max().unwrap_or(0)
    }

    /// Depth-first search below cost `bound` from the current board, `g` moves from the start;
    /// `came` is the cell the blank came from (not gone back to). True when the goal is found
    /// (the path then holds the moves).
    fn dfs(&mut self, g: u32, bound: u32, came: u8) -> Result<bool, Error> {
        let f = g + self.h();
        if f > bound {
            self.next = self.next.min(f);
            return Ok(false);
        }
        if self.views[0].sum == 0 && self.is_goal() {
            return Ok(true);
        }
        self.expanded += 1;
        if self.expanded >= self.check_at {
            self.check_limits()?;
        }
        let blank = self.blank;
        for i in 0..self.steps[blank as usize].len() {
            let (to, dir) = self.steps[blank as usize][i];
            if to == came {
                continue;
            }
            let saved = self.slide(to);
            self.path.push(dir);
            if self.dfs(g + 1, bound, blank)? {
                return Ok(true);
            }
            self.path.pop();
            self.unslide(blank, to, saved);
        }
        Ok(false)
    }

    /// Moves the tile on `from` into the blank; returns the entries it replaced.
    #[inline]
    fn slide(&mut self, from: u8) -> Saved {
        let t = self.cells[from as usize];
        let to = self.blank;
        self.cells[to as usize] = t;
        self.cells[from as usize] = 0;
        self.blank = from;
        let mut saved = [(0, 0); MAX_VIEWS];
        for ((v, state), saved) in self.h.views.iter().zip(&mut self.views).zip(&mut saved) {
            let (d, slot) = v.owner[v.tile[t as usize] as usize];
            let at = &mut state.at[d as usize];
            at[slot as usize] = v.cell[to as usize];
            let db = &self.h.databases[v.dbs[d as usize]];
            let old = state.value[d as usize];
            let new = u32::from(db.get(&at[..db.pattern.tiles.len()]));
            state.value[d as usize] = new;
            state.sum = state.sum + new - old;
            *saved = (d, old);
        }
        saved
    }

    /// Undoes `slide(from)` made with the blank on `blank`.
    #[inline]
    fn unslide(&mut self, blank: u8, from: u8, saved: Saved) {
        let t = self.cells[blank as usize];
        self.cells[from as usize] = t;
        self.cells[blank as usize] = 0;
        self.blank = blank;
        self.place(t, from);
        for (state, &(d, old)) in self.views.iter_mut().zip(&saved) {
            state.sum = state.sum + old - state.value[d as usize];
            state.value[d as usize] = old;
        }
    }

    fn is_goal(&self) -> bool {
        self.blank as usize == self.h.goal.0
            && self.cells.iter().enumerate().all(|(c, &t)| {
                t == 0 || crate::optimal::pattern::goal_cell(u32::from(t), self.h.goal) == c
            })
    }

    fn check_limits(&mut self) -> Result<(), Error> {
        if self.limits.stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
            return Err(Error::Stopped(format!(
                "after {} nodes of IDA*",
                self.expanded
            )));
        }
        if let Some(max) = self.limits.max_nodes {
            if self.expanded >= max {
                return Err(Error::GaveUp(format!(
                    "{max} nodes (--max-nodes) without an optimal solution"
                )));
            }
        }
        let max = self.limits.max_nodes.unwrap_or(u64::MAX);
        self.check_at = (self.expanded + CHECK_EVERY).min(max);
        Ok(())
    }
}

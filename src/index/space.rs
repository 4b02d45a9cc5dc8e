//! The dense index over exactly the (RC)!/2 states of one parity class.
//!
//! A state is (blank cell, sequence of the other tiles in reading order). Every blank cell fixes
//! the parity of the sequences that go with it (a vertical move moves one tile past C-1 others,
//! a horizontal one keeps the sequence), so the cells split into two groups: `G₀`, the blank
//! cells that go with even sequences, and `G₁`, those that go with odd ones (one group is empty
//! when C is odd).
//!
//! The layout is rank-major: `rank` is the parity-halved Lehmer rank, and each rank r owns n
//! consecutive slots (n = RC cells), one per blank cell: the cells of `G₀` first, holding the
//! even sequence of rank r, then those of `G₁`, holding the odd sequence of rank r:
//!
//! `index = rank(sequence) · n + slot(blank)`.
//!
//! Every state that shares a tile sequence is in one cache line: a sequence is unranked once for
//! all its blank cells, and horizontal moves (which keep the sequence) land next to the state
//! they come from. A vertical move changes only C Lehmer digits, so it lands at a nearby rank of
//! the other parity, which this layout keeps beside the first (with the two parities in separate
//! halves of the table, every vertical move of an even-width board crossed halves: range shards
//! of the index would have sent every such move to another machine).
//!
//! The engine may work transposed (relabelling tiles); it reports boards in the user's
//! orientation.
//!
//! A puzzle on a graph (`of_graph`) is indexed the same way, its vertices the cells in their
//! order and a configuration a board of one row (the tokens on vertices 1..n). A move from
//! blank vertex v to u moves the tile on u past the |u-v|-1 tiles between them in the
//! sequence, so the parity of the sequence that goes with each blank vertex is fixed when the
//! graph is bipartite (n slots a rank, as a board's). When it is not, a search reaches both
//! parities of every blank: a rank has 2n slots, slot p·n + v holding blank v with the
//! sequence of parity p, and the index covers all n! configurations. A state's *blank* is then
//! the slot's key p·n + v (`vertex` gives v), so that `split`, `index_of` and `parity` serve
//! both.
//!
//! Every move flips a configuration's colour (`colours`): the board's checkerboard colour of
//! the blank, and on a graph the parity of the whole configuration (the blank a token on its
//! vertex), which a move, one transposition, flips. A search's layers alternate it.

use crate::error::Error;
use crate::graph::{Adjacency, Graph};
use crate::index::puzzle::{Ground, Puzzle, MIN_VERTICES};
use crate::index::rank::{Indexer, MAX_TILES};
use crate::puzzle::board::{Board, Cell, Shape};
use crate::puzzle::metric::Metric;

/// The states of one parity class of one puzzle, numbered densely: the engine's index.
#[derive(Clone, Debug)]
pub struct StateSpace {
    /// The puzzle as the user gave it (a board in the user's orientation).
    puzzle: Puzzle,
    /// The engine's orientation (1×n on a graph).
    shape: Shape,
    /// The goal's blank cell, in the engine's orientation.
    goal: Cell,
    /// The engine works on the transpose of the user's board (`Metric::transposes`).
    transposed: bool,
    /// 0: the goal's class (solvable boards); 1: the other class.
    class: u8,
    /// Ranks and unranks tile sequences.
    indexer: Indexer,
    /// Sequences per parity: m!/2.
    half: u64,
    /// `parity[b]`: parity of every sequence that goes with blank cell b (engine orientation).
    parity: Vec<u8>,
    /// `slot[b]`: position of blank cell b among the n slots of a rank.
    slot: Vec<u8>,
    /// `blanks[j]`: the blank cell of slot j (`G₀`, then `G₁`, each ascending).
    blanks: Vec<u8>,
    /// `colours[b]`: the colour of the states whose blank is b, which every move flips.
    colours: Vec<u8>,
    /// `engine_cell[i]`: the engine's cell of the user's cell i.
    engine_cell: Vec<u8>,
    /// `engine_tile[t]`: the engine's label of the user's tile t (where t belongs in the user's
    /// goal, seen in the engine's orientation, labelled as the engine's goal labels that cell).
    engine_tile: Vec<u8>,
}

impl StateSpace {
    /// Class 0 of `puzzle` (the goal's: the solvable boards) or class 1 (the other half), in
    /// the orientation the engine prefers for its metric (`Metric::transposes`). A graph that
    /// is not bipartite has one class, all n! configurations.
    pub fn new(puzzle: &Puzzle, class: u8) -> Result<StateSpace, Error> {
        match puzzle.ground() {
            Ground::Board(shape) => {
                Self::oriented(puzzle, class, puzzle.metric().transposes(*shape))
            }
            Ground::Graph(graph) => Self::of_graph(puzzle, graph, class),
        }
    }

    /// Class 0 or 1 of the puzzle on a board with an explicit orientation (`transposed`: the
    /// engine works on C×R); a graph's puzzle has one orientation (`new`).
    pub fn oriented(puzzle: &Puzzle, class: u8, transposed: bool) -> Result<StateSpace, Error> {
        let Ground::Board(user_shape) = *puzzle.ground() else {
            return Self::new(puzzle, class);
        };
        let user_goal = puzzle.goal();
        let n = user_shape.cells();
        if n > MAX_TILES + 1 {
            return Err(Error::Shape(format!(
                "{user_shape} has {n} cells; the index covers boards of up to {} cells",
                MAX_TILES + 1
            )));
        }
        let (shape, goal) = if transposed {
            (
                user_shape.transposed(),
                user_shape.transpose_cell(user_goal),
            )
        } else {
            (user_shape, user_goal)
        };
        let indexer = Indexer::new(n - 1);
        let half = indexer.class_size();
        // The goal sequence is sorted (parity 0); each row between blank and goal adds C-1.
        let parity: Vec<u8> = (0..n)
            .map(|b| {
                class
                    ^ (((shape.cols - 1) * shape.row(Cell(b)).abs_diff(shape.row(goal))) & 1) as u8
            })
            .collect();
        let mut blanks: Vec<u8> = (0..n as u8).collect();
        // G₀ then G₁, each ascending (a stable sort by parity).
        blanks.sort_by_key(|&b| parity[b as usize]);
        let engine_cell: Vec<u8> = (0..n)
            .map(|i| match transposed {
                true => user_shape.transpose_cell(Cell(i)).0 as u8,
                false => i as u8,
            })
            .collect();
        let (user_goal_board, goal_board) =
            (Board::goal(user_shape, user_goal), Board::goal(shape, goal));
        let mut engine_tile = vec![0u8; n];
        for (i, &t) in user_goal_board.cells().iter().enumerate() {
            engine_tile[t as usize] = goal_board.cells()[usize::from(engine_cell[i])] as u8;
        }
        Ok(StateSpace {
            puzzle: puzzle.clone(),
            engine_cell,
            engine_tile,
            shape,
            goal,
            transposed,
            class,
            half,
            indexer,
            slot: slots(&blanks),
            colours: (0..n).map(|b| shape.colour(Cell(b)) as u8).collect(),
            parity,
            blanks,
        })
    }

    /// The puzzle on `graph`: class 0 (the goal's) or 1 of a bipartite graph, all n!
    /// configurations of one that is not (`class` must be 0).
    fn of_graph(puzzle: &Puzzle, graph: &Graph, class: u8) -> Result<StateSpace, Error> {
        let n = graph.vertices();
        let goal = puzzle.goal().0;
        if !(MIN_VERTICES..=MAX_TILES + 1).contains(&n) {
            return Err(Error::Graph(format!(
                "it has {n} vertices; the index covers graphs of {MIN_VERTICES} to {} vertices",
                MAX_TILES + 1
            )));
        }
        let shape = puzzle.shape();
        let indexer = Indexer::new(n - 1);
        let (parity, blanks): (Vec<u8>, Vec<u8>) = match graph.two_colouring() {
            // The invariant: a move flips the sequence's parity as often as the blank's colour
            // plus its vertex (`v + colour(v)`), the board's rule on a grid.
            Some(colour) => {
                let at = |v: usize| (v as u8 + colour[v]) & 1;
                let parity: Vec<u8> = (0..n).map(|v| class ^ at(v) ^ at(goal)).collect();
                let mut blanks: Vec<u8> = (0..n as u8).collect();
                blanks.sort_by_key(|&b| parity[b as usize]);
                (parity, blanks)
            }
            None if class == 0 => ((0..2 * n).map(|b| (b / n) as u8).collect(), {
                (0..2 * n as u8).collect()
            }),
            None => {
                return Err(Error::Graph(
                    "it is not bipartite: its puzzle has one class, all n! configurations".into(),
                ))
            }
        };
        // The parity of the whole configuration, the blank token 0 on vertex v: v inversions
        // more than its sequence's.
        let colours = (0..parity.len())
            .map(|b| (parity[b] + (b % n) as u8) & 1)
            .collect();
        Ok(StateSpace {
            puzzle: puzzle.clone(),
            shape,
            goal: Cell(goal),
            transposed: false,
            class,
            half: indexer.class_size(),
            indexer,
            slot: slots(&blanks),
            parity,
            blanks,
            colours,
            engine_cell: (0..n as u8).collect(),
            engine_tile: (0..n as u8).collect(),
        })
    }

    /// The puzzle, as the user gave it.
    pub fn puzzle(&self) -> &Puzzle {
        &self.puzzle
    }

    /// The board as the user gave it (a graph's vertices as one row).
    pub fn user_shape(&self) -> Shape {
        self.puzzle.shape()
    }

    /// The blank cell of the goal (user orientation): the reference for the parity classes.
    pub fn user_goal(&self) -> Cell {
        self.puzzle.goal()
    }

    /// How moves are counted: the edges of the graph searched over these states.
    pub fn metric(&self) -> Metric {
        self.puzzle.metric()
    }

    /// The graph whose vertices are the cells, for a puzzle on a graph; `None` on a board.
    pub fn graph(&self) -> Option<&Graph> {
        self.puzzle.graph_of()
    }

    /// The engine's orientation (1×n on a graph).
    #[inline(always)]
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The goal's blank cell, in the engine's orientation.
    pub fn goal(&self) -> Cell {
        self.goal
    }

    /// Whether the engine works on the transpose of the user's board.
    pub fn transposed(&self) -> bool {
        self.transposed
    }

    /// 0: the goal's class (solvable boards); 1: the other class.
    pub fn class(&self) -> u8 {
        self.class
    }

    /// Ranks and unranks tile sequences.
    #[inline(always)]
    pub fn indexer(&self) -> &Indexer {
        &self.indexer
    }

    /// Sequences per parity: m!/2.
    #[inline(always)]
    pub fn half(&self) -> u64 {
        self.half
    }

    /// `parity()[b]`: the parity of every sequence that goes with blank cell b (engine
    /// orientation; the slot's key on a graph that is not bipartite).
    #[inline(always)]
    pub fn parity(&self) -> &[u8] {
        &self.parity
    }

    /// `slots()[b]`: the position of blank cell b among the slots of a rank.
    #[inline(always)]
    pub fn slots(&self) -> &[u8] {
        &self.slot
    }

    /// `blanks()[j]`: the blank cell of slot j (`G₀`, then `G₁`, each ascending).
    #[inline(always)]
    pub fn blanks(&self) -> &[u8] {
        &self.blanks
    }

    /// What tells the graph of this space from others of as many vertices in the files that
    /// store its searches: 0 on a board, a hash of the graph's edges with its top bit set on
    /// a graph (FNV-1a over each vertex's neighbours).
    pub fn graph_key(&self) -> u32 {
        let Some(graph) = self.graph() else {
            return 0;
        };
        let mut h: u32 = 0x811c_9dc5;
        for v in 0..graph.vertices() {
            for byte in graph.neighbour_mask(v).to_le_bytes() {
                h = (h ^ u32::from(byte)).wrapping_mul(0x0100_0193);
            }
        }
        h | 1 << 31
    }

    /// The vertex (the cell) of a state's blank, `b` as `split` gives it.
    #[inline(always)]
    pub fn vertex(&self, b: Cell) -> usize {
        b.0 % self.shape.cells()
    }

    /// The colour of the states whose blank is `b`: every move flips it.
    #[inline(always)]
    pub fn colour(&self, b: Cell) -> usize {
        usize::from(self.colours[b.0])
    }

    /// Number of indexed states: (RC)!/2 (n! on a graph that is not bipartite).
    pub fn states(&self) -> u64 {
        self.half * self.width()
    }

    /// Tiles: the cells but the blank.
    pub fn tiles(&self) -> usize {
        self.indexer.tiles()
    }

    /// Slots per rank: one per cell (two on a graph that is not bipartite).
    #[inline(always)]
    pub fn width(&self) -> u64 {
        self.blanks.len() as u64
    }

    /// The index of the state with engine blank cell `blank` and sequence rank `rank`.
    #[inline(always)]
    pub fn index_of(&self, blank: Cell, rank: u64) -> u64 {
        rank * self.width() + u64::from(self.slot[blank.0])
    }

    /// Splits an index into (engine blank cell, rank of its sequence).
    #[inline(always)]
    pub fn split(&self, index: u64) -> (Cell, u64) {
        let (rank, j) = (index / self.width(), index % self.width());
        (Cell(self.blanks[j as usize] as usize), rank)
    }

    /// The index of a board given in the user's orientation; `None` if it is not in this
    /// space's class.
    pub fn index(&self, board: &Board) -> Option<u64> {
        assert_eq!(board.shape(), self.user_shape());
        // The board in the engine's orientation and labels, then its tile sequence (0-based).
        let mut engine = [0u8; MAX_TILES + 1];
        for (i, &t) in board.cells().iter().enumerate() {
            engine[usize::from(self.engine_cell[i])] = self.engine_tile[t as usize];
        }
        let cells = self.shape.cells();
        let at = engine[..cells].iter().position(|&t| t == 0)?;
        let mut seq = [0u8; MAX_TILES];
        for (k, &t) in engine[..at]
            .iter()
            .chain(&engine[at + 1..cells])
            .enumerate()
        {
            seq[k] = t - 1;
        }
        let (rank, parity) = self.indexer.rank_and_parity(&seq[..cells - 1]);
        let mut blank = Cell(at);
        if self.width() as usize > cells {
            // Both parities of every blank: the slot's key.
            blank.0 += usize::from(parity) * cells;
        }
        if parity != self.parity[blank.0] {
            return None;
        }
        Some(self.index_of(blank, rank))
    }

    /// The board at `index`, in the user's orientation.
    pub fn board(&self, index: u64) -> Board {
        let (blank, rank) = self.split(index);
        let (mut digits, mut seq) = ([0u8; MAX_TILES], [0u8; MAX_TILES]);
        self.indexer
            .unrank(rank, self.parity[blank.0], &mut digits, &mut seq);
        let mut tiles = seq[..self.tiles()].iter().map(|&x| u32::from(x) + 1);
        let cells = (0..self.shape.cells())
            .map(|i| {
                if i == self.vertex(blank) {
                    0
                } else {
                    tiles.next().expect("m tiles")
                }
            })
            .collect();
        let engine = Board::new(self.shape, cells).expect("unrank yields a permutation");
        if self.transposed {
            engine.transposed(self.goal)
        } else {
            engine
        }
    }

    /// The index of the goal.
    pub fn goal_index(&self) -> u64 {
        self.index(&Board::goal(self.user_shape(), self.user_goal()))
            .expect("the goal is in its class")
    }
}

/// `slot[b]`: the place of blank b among `blanks`.
fn slots(blanks: &[u8]) -> Vec<u8> {
    let mut slot = vec![0u8; blanks.len()];
    for (j, &b) in blanks.iter().enumerate() {
        slot[b as usize] = j as u8;
    }
    slot
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::parity::solvable_by_inversions;

    /// Every index of either class and either orientation unranks to a board of that class
    /// (by the inversion-parity test) that ranks back to it; a swap of two tiles leaves it.
    #[test]
    fn every_index_is_a_board_of_its_class_and_ranks_back() {
        for (r, c) in [(2, 2), (2, 3), (3, 2), (2, 4), (3, 3)] {
            let shape = Shape::new(r, c).unwrap();
            for g in [0, shape.cells() / 2, shape.cells() - 1] {
                for (class, transposed) in [(0, false), (0, true), (1, false), (1, true)] {
                    let puzzle = Puzzle::board(shape, Cell(g), Metric::Single).unwrap();
                    let space = StateSpace::oriented(&puzzle, class, transposed).unwrap();
                    for i in 0..space.states() {
                        let b = space.board(i);
                        let solvable = solvable_by_inversions(&b, Cell(g));
                        assert_eq!(solvable, class == 0, "{shape} goal {g} class {class}: {b}");
                        assert_eq!(space.index(&b), Some(i), "{shape} goal {g}: {b}");
                        let (blank, rank) = space.split(i);
                        assert_eq!(space.index_of(blank, rank), i);
                        // Two tiles swapped: the other class.
                        let mut cells = b.cells().to_vec();
                        let (x, y) = {
                            let mut t = (0..cells.len()).filter(|&k| cells[k] != 0);
                            (t.next().unwrap(), t.next().unwrap())
                        };
                        cells.swap(x, y);
                        let swapped = Board::new(shape, cells).unwrap();
                        assert_eq!(solvable_by_inversions(&swapped, Cell(g)), class == 1);
                        assert_eq!(space.index(&swapped), None);
                    }
                }
            }
        }
    }
}

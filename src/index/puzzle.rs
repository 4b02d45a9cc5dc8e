//! The puzzle as one value: where its tokens sit (`Ground`: a board or a graph), how they move
//! (`Metric`) and the goal's blank. It is made once (`Puzzle::board`, `Puzzle::graph`) and is
//! valid by construction: the goal's blank is a cell of the board or a vertex of the graph, and
//! the tokens of a graph move one at a time along its edges (the multi-tile metric slides along
//! rows and columns, which a graph does not have).
//!
//! Everything above the engine asks the puzzle, not its parts, what it is; the engine turns its
//! kind of moves into a type in one place (`bfs::moves::with_moves_of`).

use crate::error::Error;
use crate::graph::Graph;
use crate::puzzle::board::{Cell, Shape};
use crate::puzzle::metric::Metric;

/// The fewest vertices of a graph the index covers (the indexer ranks at least 3 tiles); a
/// smaller graph's puzzle is walked.
pub const MIN_VERTICES: usize = 4;

/// Where a puzzle's tokens sit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ground {
    /// The cells of an R×C board, in reading order.
    Board(Shape),
    /// The vertices of a graph, in its order.
    Graph(Graph),
}

/// A puzzle: its ground, its metric and its goal's blank.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    ground: Ground,
    metric: Metric,
    goal: Cell,
}

impl Puzzle {
    /// The puzzle on an R×C board, its goal's blank on `goal`, its moves counted in `metric`.
    pub fn board(shape: Shape, goal: Cell, metric: Metric) -> Result<Puzzle, Error> {
        if goal.0 >= shape.cells() {
            return Err(Error::Blank(format!(
                "blank cell {} is outside the {shape} board (cells 1..={} in reading order)",
                goal.0.saturating_add(1),
                shape.cells()
            )));
        }
        Ok(Puzzle {
            ground: Ground::Board(shape),
            metric,
            goal,
        })
    }

    /// The puzzle on `graph`, its goal's blank on vertex `goal` (0-based), its moves counted in
    /// `metric` where they are defined on a graph (a token moves along an edge onto the blank,
    /// the single-tile metric).
    pub fn graph(graph: Graph, goal: usize, metric: Metric) -> Result<Puzzle, Error> {
        if !metric.moves_on_graphs() {
            return Err(Error::Argument(format!(
                "a graph's tokens move one at a time along its edges: {} moves slide along a \
                 board's rows and columns, which a graph has not",
                metric.adjective()
            )));
        }
        if goal >= graph.vertices() {
            return Err(Error::Blank(format!(
                "vertex {} is not one of the graph's {}",
                goal.saturating_add(1),
                graph.vertices()
            )));
        }
        Ok(Puzzle {
            ground: Ground::Graph(graph),
            metric,
            goal: Cell(goal),
        })
    }

    /// Where the tokens sit.
    pub fn ground(&self) -> &Ground {
        &self.ground
    }

    /// How moves are counted.
    pub fn metric(&self) -> Metric {
        self.metric
    }

    /// The goal's blank: a cell of the board in reading order, or a vertex of the graph.
    pub fn goal(&self) -> Cell {
        self.goal
    }

    /// The graph, for a puzzle on a graph.
    pub fn graph_of(&self) -> Option<&Graph> {
        match &self.ground {
            Ground::Graph(graph) => Some(graph),
            Ground::Board(_) => None,
        }
    }

    /// The cells (vertices) the tokens sit on.
    pub fn cells(&self) -> usize {
        match &self.ground {
            Ground::Board(shape) => shape.cells(),
            Ground::Graph(graph) => graph.vertices(),
        }
    }

    /// The goal's blank as users name it: a board's cell `R,C` (1-based), a graph's vertex
    /// (1-based).
    pub fn goal_label(&self) -> String {
        match &self.ground {
            Ground::Board(shape) => shape.cell_label(self.goal),
            Ground::Graph(_) => (self.goal.0 + 1).to_string(),
        }
    }

    /// Whether the puzzle is too small for the index and is walked whole, without a table: a
    /// line (1xN), or a graph of fewer than `MIN_VERTICES` vertices.
    pub fn is_walked(&self) -> bool {
        match &self.ground {
            Ground::Board(shape) => shape.is_line(),
            Ground::Graph(graph) => graph.vertices() < MIN_VERTICES,
        }
    }

    /// The same puzzle with its goal's blank on `goal` (a cell of the board, a vertex of the
    /// graph).
    pub fn with_goal(&self, goal: Cell) -> Result<Puzzle, Error> {
        match &self.ground {
            Ground::Board(shape) => Puzzle::board(*shape, goal, self.metric),
            Ground::Graph(graph) => Puzzle::graph(graph.clone(), goal.0, self.metric),
        }
    }

    /// The board's shape; a graph's puzzle is laid out as one row of its vertices.
    pub fn shape(&self) -> Shape {
        match &self.ground {
            Ground::Board(shape) => *shape,
            Ground::Graph(graph) => Shape {
                rows: 1,
                cols: graph.vertices(),
            },
        }
    }
}

impl std::fmt::Display for Puzzle {
    /// The ground as the command line names it: `RxC`, or `graph6:STRING`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.ground {
            Ground::Board(shape) => write!(f, "{shape}"),
            Ground::Graph(graph) => write!(f, "graph6:{}", crate::graph::graph6::encode(graph)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A goal off the board or the graph is refused; a graph's puzzle counts single-tile moves;
    /// what is made answers with what it was made of.
    #[test]
    fn a_puzzle_is_valid_by_construction() {
        let shape = Shape::new(2, 3).unwrap();
        assert!(Puzzle::board(shape, Cell(6), Metric::Single).is_err());
        let p = Puzzle::board(shape, Cell(5), Metric::Multi).unwrap();
        assert_eq!(
            (p.shape(), p.goal(), p.metric(), p.cells()),
            (shape, Cell(5), Metric::Multi, 6)
        );
        assert!(p.graph_of().is_none());
        let cycle = Graph::new(4, &[(0, 1), (1, 2), (2, 3), (3, 0)]).unwrap();
        assert!(Puzzle::graph(cycle.clone(), 4, Metric::Single).is_err());
        let g = Puzzle::graph(cycle.clone(), 3, Metric::Single).unwrap();
        assert_eq!((g.shape().rows, g.shape().cols, g.goal()), (1, 4, Cell(3)));
        assert_eq!(g.metric(), Metric::Single);
        // graph6 of the 4-cycle: 'C' (63 + 4), then the pairs 01 02 12 03 13 23 as bits
        // 101101 = 45, 63 + 45 = 'l'.
        assert_eq!(
            (g.to_string(), g.goal_label()),
            ("graph6:Cl".into(), "4".into())
        );
        assert_eq!(
            (p.to_string(), p.goal_label()),
            ("2x3".into(), "2,3".into())
        );
        assert_eq!(g.graph_of(), Some(&cycle));
    }
}

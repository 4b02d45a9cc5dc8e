//! A graph's puzzle analysed from its goal: the states of the goal's component, its
//! eccentricity, antipodes and exact mean, with what the theorems predict for its size.
//!
//! The search is the walk of `bfs::walk` (a bit a configuration of all n!), not yet the
//! layer loop of `bfs::driver`.

use crate::analysis::distribution::Distribution;
use crate::analysis::memory;
use crate::bfs::walk::{bits_bytes, goal_component};
use crate::error::Error;
use crate::graph::wilson::{predict, Case, Prediction};
use crate::graph::{graph6, Graph};

/// The goal's component of a graph's puzzle.
#[derive(Clone, Debug)]
pub struct GraphAnalysis {
    /// The graph's graph6 string.
    pub graph6: String,
    /// Vertices.
    pub vertices: usize,
    /// Edges.
    pub edges: usize,
    /// Whether the graph has no odd cycle.
    pub bipartite: bool,
    /// Its case in Wilson's classification.
    pub case: Case,
    /// What a theorem predicts for its components, where one applies.
    pub prediction: Option<Prediction>,
    /// The goal's blank vertex (0-based).
    pub blank: usize,
    /// Configurations at each distance from the goal.
    pub distribution: Distribution,
    /// The configurations farthest from the goal (tokens on vertices 0..n, 0 the blank).
    pub antipodes: Vec<Vec<u8>>,
}

impl GraphAnalysis {
    /// The configurations of the goal's component.
    pub fn states(&self) -> u64 {
        self.distribution.total()
    }

    /// The component's size a theorem predicts, where one applies.
    pub fn expected(&self) -> Option<u64> {
        self.prediction.map(|p| p.size)
    }

    /// Whether the counts hold together: one goal, no empty layer, as many antipodes as the
    /// last layer holds, and the predicted size where a theorem applies.
    pub fn verified(&self) -> bool {
        let layers = &self.distribution.layers;
        layers.first() == Some(&1)
            && layers.iter().all(|&n| n > 0)
            && layers.last() == Some(&(self.antipodes.len() as u64))
            && self.expected().is_none_or(|e| e == self.states())
    }
}

/// The memory a goal's component of a graph on `n` vertices needs: a bit a configuration, and
/// 4 bytes a configuration for the frontiers: a layer's 4-byte ranks and the next layer's twice
/// while its parts are joined, the widest layer taken as a third of all n! (torus:3x4's widest
/// holds 17% of 12!; its walk peaked at 1.41 GB, under the 2.0 GB this allows).
pub fn needed_bytes(n: usize) -> u64 {
    bits_bytes(n) * 33
}

/// Refuses a walk of the puzzle on `graph` that the walk does not take (more than 12 vertices)
/// or `walks` such walks at once that would not fit under `max_memory` or in the memory
/// available (`needed_bytes` each).
pub fn check_room(graph: &Graph, walks: u64, max_memory: Option<u64>) -> Result<(), Error> {
    crate::bfs::walk::Puzzle::new(graph)?;
    let needed = needed_bytes(graph.vertices()) * walks;
    memory::room_for(needed as f64, max_memory).map_err(|limit| Error::NoRoom {
        what: match walks {
            1 => format!("the puzzle on a graph of {} vertices", graph.vertices()),
            k => format!(
                "walking {k} graphs of {} vertices at once (one a thread)",
                graph.vertices()
            ),
        },
        needed,
        limit,
    })
}

/// The goal's component of the puzzle on `graph`, its blank on `blank` (0-based); refused if it
/// would not fit under `max_memory` or in the memory available; `progress` is told the states
/// walked after each wide layer.
pub fn analyze_graph(
    graph: &Graph,
    blank: usize,
    max_memory: Option<u64>,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<GraphAnalysis, Error> {
    check_room(graph, 1, max_memory)?;
    let component = goal_component(graph, blank, progress)?;
    Ok(GraphAnalysis {
        graph6: graph6::encode(graph),
        vertices: graph.vertices(),
        edges: graph.edges(),
        bipartite: graph.is_bipartite(),
        case: Case::of(graph),
        prediction: predict(graph),
        blank,
        distribution: Distribution {
            layers: component.depths,
        },
        antipodes: component.antipodes,
    })
}

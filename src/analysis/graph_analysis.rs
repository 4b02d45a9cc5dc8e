//! A graph's puzzle analysed from its goal: the states of the goal's component, its
//! eccentricity, antipodes and exact mean, with what the theorems predict for its size.
//!
//! The search is the engine's (`bfs::driver`, over the 2-bit table of `index::space`'s graph
//! index, with checkpoints), and its table is recounted as a board's: the states marked, and
//! the states at each depth mod 4. A graph of fewer vertices than the index covers
//! (`space::MIN_VERTICES`: 2 or 3, whose puzzles have at most 6 configurations) is walked
//! (`bfs::walk`).

use crate::analysis::distribution::Distribution;
use crate::analysis::memory::{self, WORKING_BYTES};
use crate::bfs::moves::GraphMoves;
use crate::bfs::moves::MoveKind;
use crate::bfs::policy::record_cap;
use crate::bfs::walk::{bits_bytes, goal_component};
use crate::bfs::{LayerDone, Schedule, Search};
use crate::error::Error;
use crate::graph::wilson::{predict, Case, Prediction};
use crate::graph::{graph6, Graph};
use crate::index::puzzle::Puzzle;
use crate::index::space::{StateSpace, MIN_VERTICES};
use crate::store::checkpoint;

/// What a caller may set for the analysis of a graph.
#[derive(Clone, Copy, Default)]
pub struct GraphOptions<'a> {
    /// Refuse graphs whose table needs more bytes than this.
    pub max_memory: Option<u64>,
    /// Save checkpoints at layer boundaries (and resume from one).
    pub checkpoint: Option<checkpoint::Options<'a>>,
    /// The engine's granularity (speed only).
    pub schedule: Schedule,
}

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
    /// The finished table recounted agrees with the layers: as many states marked as they
    /// hold, and as many at each depth mod 4 (true for a walk, which has no table).
    pub recounted: bool,
    /// Bytes of the table (0 for a walk).
    pub table_bytes: u64,
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
    /// last layer holds, the table's recount, and the predicted size where a theorem applies.
    pub fn verified(&self) -> bool {
        let layers = &self.distribution.layers;
        self.recounted
            && layers.first() == Some(&1)
            && layers.iter().all(|&n| n > 0)
            && layers.last() == Some(&(self.antipodes.len() as u64))
            && self.expected().is_none_or(|e| e == self.states())
    }
}

/// The memory a walk of a graph on `n` vertices needs (`theorem --graph`): a bit a
/// configuration, and 4 bytes a configuration for the frontiers: a layer's 4-byte ranks and
/// the next layer's twice while its parts are joined, the widest layer taken as a third of all
/// n! (torus:3x4's widest holds 17% of 12!; its walk peaked at 1.41 GB, under the 2.0 GB this
/// allows).
pub fn needed_bytes(n: usize) -> u64 {
    bits_bytes(n) * 33
}

/// Refuses a walk of the puzzle on `graph` that the walk does not take (more than 12 vertices)
/// or `walks` such walks at once that would not fit under `max_memory` or in the memory
/// available (`needed_bytes` each).
pub fn check_room(graph: &Graph, walks: u64, max_memory: Option<u64>) -> Result<(), Error> {
    crate::bfs::walk::Configurations::new(graph)?;
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

/// The memory a search of the puzzle on `graph` needs: its table (2 bits a state of its
/// index), the recorded layers (two lists of at most the record cap) and the working memory.
pub fn search_bytes(graph: &Graph) -> Result<u64, Error> {
    let n = graph.vertices();
    if n < MIN_VERTICES {
        return Ok(needed_bytes(n));
    }
    // The index: the goal's class of a bipartite graph, all n! configurations of another.
    let all = crate::graph::wilson::factorial(n as u64);
    let words = (all / if graph.is_bipartite() { 2 } else { 1 }).div_ceil(32);
    // A layer that may be the last is recorded in the larger of the cap and 2^16.
    let cap = record_cap(Schedule::default().record_cap, words).max(1 << 16);
    Ok(words * 8 + 16 * cap + WORKING_BYTES as u64)
}

/// Refuses a search of the puzzle on `graph` that would not fit under `max_memory` or in the
/// memory available (`search_bytes`).
pub fn check_search_room(graph: &Graph, max_memory: Option<u64>) -> Result<(), Error> {
    let needed = search_bytes(graph)?;
    memory::room_for(needed as f64, max_memory).map_err(|limit| Error::NoRoom {
        what: format!("the puzzle on a graph of {} vertices", graph.vertices()),
        needed,
        limit,
    })
}

/// The goal's component of the puzzle on `graph`, its blank on `blank` (0-based); refused if it
/// would not fit under `options.max_memory` or in the memory available; `progress` is told of
/// each layer (a walk tells it of none).
pub fn analyze_graph(
    graph: &Graph,
    blank: usize,
    options: GraphOptions,
    progress: &(dyn Fn(LayerDone) + Sync),
) -> Result<GraphAnalysis, Error> {
    check_search_room(graph, options.max_memory)?;
    let (layers, antipodes, recounted, table_bytes) = if graph.vertices() < MIN_VERTICES {
        let component = goal_component(graph, blank, &|_| {})?;
        (component.depths, component.antipodes, true, 0)
    } else {
        searched(graph, blank, options, progress)?
    };
    Ok(GraphAnalysis {
        graph6: graph6::encode(graph),
        vertices: graph.vertices(),
        edges: graph.edges(),
        bipartite: graph.is_bipartite(),
        case: Case::of(graph),
        prediction: predict(graph),
        blank,
        distribution: Distribution { layers },
        antipodes,
        recounted,
        table_bytes,
    })
}

/// What a search of a component found: the layers, the antipodes' configurations, whether
/// the table's recount agrees, and the table's bytes.
type Component = (Vec<u64>, Vec<Vec<u8>>, bool, u64);

/// The engine's search of the goal's component.
fn searched(
    graph: &Graph,
    blank: usize,
    options: GraphOptions,
    progress: &(dyn Fn(LayerDone) + Sync),
) -> Result<Component, Error> {
    let space = StateSpace::new(&Puzzle::graph(graph.clone(), blank)?, 0)?;
    let start = space.goal_index();
    let found: Search = match options.checkpoint {
        None => crate::bfs::search_from(&space, start, options.schedule, progress)?,
        Some(ck) => crate::analysis::analyze::search_checkpointed(
            &space,
            start,
            ck,
            options.schedule,
            progress,
        )?,
    };
    let total: u64 = found.layers.iter().sum();
    let coding = GraphMoves::CODING;
    let recounted = found.seen == total && coding.residues_agree(&found.layers, found.residues);
    let mut antipodes: Vec<Vec<u8>> = found
        .antipodes
        .iter()
        .map(|&i| space.board(i).cells().iter().map(|&t| t as u8).collect())
        .collect();
    antipodes.sort_unstable();
    Ok((found.layers, antipodes, recounted, found.table_bytes))
}

//! Graphs as boards: a sliding puzzle on any graph puts a token on each vertex, one of them the
//! blank, and a move slides a tile along an edge into the blank vertex (Wilson, 1974).
//!
//! - `Graph`: the vertices and edges, checked to be a puzzle's board, and their properties
//!   (bipartite, 2-connected), as bit masks of at most `MAX_VERTICES` (what the index takes);
//! - `sparse`: a graph of any size as adjacency lists (`Sparse`), for the theorems' counts and
//!   decisions on graphs of thousands of vertices; `FromEdges` builds either kind, `Adjacency`
//!   asks either what the theorems ask;
//! - `family`: the named graphs (grids, tori, cylinders, cycles, θ graphs, Petersen, …);
//! - `graph6`: nauty's format, read and written;
//! - `spec`: what `--graph SPEC` names, and edge-list files;
//! - `automorphism`: the graph's automorphisms and vertex orbits (the atlas's goal classes);
//! - `wilson`: Wilson's classification and the tree formula: what each graph's puzzle must be;
//! - `pebbles`: what the theorems of pebble motion say of several blanks and repeated labels;
//! - `theta0`: θ0's group with one blank, which decides its classes (Wilson's exception);
//! - `trees`: which tokens a tree with several blanks can exchange (Auletta et al.).
//!
//! A graph's puzzle is indexed by `index::space` (`StateSpace::new` of a graph's puzzle), searched by the
//! engine (`bfs`, its moves `bfs::moves::GraphMoves`) and walked whole by `bfs::walk`.

pub mod automorphism;
pub mod family;
pub mod graph6;
pub mod pebbles;
pub mod sparse;
pub mod spec;
pub mod theta0;
pub mod trees;
pub mod wilson;

use crate::error::Error;
use crate::puzzle::board::GoalBlank;

/// Most vertices a graph may have: the index ranks at most this many tokens.
pub const MAX_VERTICES: usize = 16;

/// A simple connected graph on vertices `0..n` (written 1..n to users), as adjacency bit masks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Graph {
    /// `adjacent[v]` has bit `u` set when `u` and `v` are joined.
    adjacent: Vec<u32>,
}

impl Graph {
    /// The graph on `n` vertices with these edges (0-based), checked: no loop, no repeated
    /// edge, every end a vertex, connected, at most `MAX_VERTICES` vertices. Its errors number
    /// the vertices from 1.
    pub fn new(n: usize, edges: &[(usize, usize)]) -> Result<Graph, Error> {
        Graph::numbered(n, edges, 1)
    }

    /// `Graph::new`, its errors numbering the vertices from `first` (an edge list numbered from
    /// 0 is told of its vertices as it wrote them).
    pub fn numbered(n: usize, edges: &[(usize, usize)], first: usize) -> Result<Graph, Error> {
        if n == 0 {
            return Err(Error::Graph("it has no vertices".into()));
        }
        if n > MAX_VERTICES {
            return Err(<Graph as FromEdges>::too_many(n as u128));
        }
        let mut adjacent = vec![0u32; n];
        for &(u, v) in edges {
            check_edge(n, u, v, first)?;
            if adjacent[u] >> v & 1 == 1 {
                return Err(given_twice(u, v, first));
            }
            adjacent[u] |= 1 << v;
            adjacent[v] |= 1 << u;
        }
        let g = Graph { adjacent };
        if !g.is_connected_without(None) {
            return Err(not_connected(g.unreachable_from_first(), first));
        }
        Ok(g)
    }

    /// The number of vertices.
    pub fn vertices(&self) -> usize {
        self.adjacent.len()
    }

    /// The number of edges.
    pub fn edges(&self) -> usize {
        self.adjacent
            .iter()
            .map(|a| a.count_ones() as usize)
            .sum::<usize>()
            / 2
    }

    /// The neighbours of `v` as a bit mask.
    pub fn neighbour_mask(&self, v: usize) -> u32 {
        self.adjacent[v]
    }

    /// The neighbours of `v`, in increasing order.
    pub fn neighbours(&self, v: usize) -> impl Iterator<Item = usize> + '_ {
        bits(self.adjacent[v])
    }

    /// The number of neighbours of `v`.
    pub fn degree(&self, v: usize) -> usize {
        self.adjacent[v].count_ones() as usize
    }

    /// The edges `(u, v)`, `u < v`, in increasing order.
    pub fn edge_list(&self) -> Vec<(usize, usize)> {
        (0..self.vertices())
            .flat_map(|u| {
                self.neighbours(u)
                    .filter(move |&v| v > u)
                    .map(move |v| (u, v))
            })
            .collect()
    }

    /// Whether the graph has no odd cycle.
    pub fn is_bipartite(&self) -> bool {
        Adjacency::two_colouring(self).is_some()
    }

    /// Whether the graph is 2-connected: at least 3 vertices and no cut vertex (one whose
    /// removal disconnects the rest).
    pub fn is_biconnected(&self) -> bool {
        self.vertices() >= 3 && (0..self.vertices()).all(|v| self.is_connected_without(Some(v)))
    }

    /// Whether the graph is a tree: connected with one edge fewer than vertices.
    pub fn is_tree(&self) -> bool {
        self.edges() + 1 == self.vertices()
    }

    /// Whether the vertices left when `removed` is taken out are connected.
    fn is_connected_without(&self, removed: Option<usize>) -> bool {
        let n = self.vertices();
        let all = if n == 32 { u32::MAX } else { (1u32 << n) - 1 };
        let keep = all & !removed.map_or(0, |r| 1u32 << r);
        if keep == 0 {
            return true;
        }
        let mut seen = keep & keep.wrapping_neg();
        let mut frontier = seen;
        while frontier != 0 {
            let mut next = 0;
            for v in bits(frontier) {
                next |= self.adjacent[v];
            }
            frontier = next & keep & !seen;
            seen |= frontier;
        }
        seen == keep
    }

    /// The first vertex that cannot be reached from vertex 0 (the graph is not connected).
    fn unreachable_from_first(&self) -> usize {
        let mut seen = 1u32;
        let mut stack = vec![0];
        while let Some(v) = stack.pop() {
            for u in self.neighbours(v) {
                if seen >> u & 1 == 0 {
                    seen |= 1 << u;
                    stack.push(u);
                }
            }
        }
        (!seen).trailing_zeros() as usize
    }
}

/// An edge `u v` of a graph on `n` vertices that names no vertex past the last nor one twice
/// (a loop); the errors number the vertices from `first`.
fn check_edge(n: usize, u: usize, v: usize, first: usize) -> Result<(), Error> {
    if u >= n || v >= n {
        return Err(Error::Graph(format!(
            "the edge {} {} names a vertex past {}",
            u + first,
            v + first,
            n - 1 + first
        )));
    }
    if u == v {
        return Err(Error::Graph(format!(
            "vertex {} has a loop (an edge to itself)",
            u + first
        )));
    }
    Ok(())
}

/// The edge `u v` is in the list twice.
fn given_twice(u: usize, v: usize, first: usize) -> Error {
    Error::Graph(format!(
        "the edge {} {} is given twice",
        u.min(v) + first,
        u.max(v) + first
    ))
}

/// No path joins vertex 0 to vertex `v`.
fn not_connected(v: usize, first: usize) -> Error {
    Error::Graph(format!(
        "it is not connected: vertex {} cannot be reached from vertex {first}, so no tile \
         could ever move between them",
        v + first
    ))
}

/// A kind of graph built from an edge list: `Graph` (at most `MAX_VERTICES` vertices, the
/// index's) or `Sparse` (as many as the theorems decide on).
pub trait FromEdges: Sized {
    /// The most vertices this kind holds.
    const MOST: usize;
    /// The longest file one is read from (a device or a wrong file is refused, not read to its
    /// end).
    const LONGEST_FILE: u64;
    /// The graph on `n` vertices with these edges (0-based), checked: no loop, no repeated
    /// edge, every end a vertex, connected, at most `MOST` vertices. Its errors number the
    /// vertices from `first`.
    fn from_edges(n: usize, edges: &[(usize, usize)], first: usize) -> Result<Self, Error>;
    /// Why a graph of `n` vertices is refused: more than `MOST`.
    fn too_many(n: u128) -> Error;
}

impl FromEdges for Graph {
    const MOST: usize = MAX_VERTICES;
    const LONGEST_FILE: u64 = 1 << 20;
    fn from_edges(n: usize, edges: &[(usize, usize)], first: usize) -> Result<Graph, Error> {
        Graph::numbered(n, edges, first)
    }
    fn too_many(n: u128) -> Error {
        Error::Graph(format!(
            "it has {n} vertices; a puzzle's index takes at most {MAX_VERTICES}"
        ))
    }
}

/// What the theorems ask of a graph, of either kind: its size, each vertex's neighbours, and
/// whether it is 2-connected, bipartite or a tree.
pub trait Adjacency {
    /// The number of vertices.
    fn vertices(&self) -> usize;
    /// The number of edges.
    fn edges(&self) -> usize;
    /// The number of neighbours of `v`.
    fn degree(&self, v: usize) -> usize;
    /// The neighbours of `v`.
    fn neighbours(&self, v: usize) -> impl Iterator<Item = usize> + '_;
    /// At least 3 vertices and no cut vertex.
    fn is_biconnected(&self) -> bool;
    /// A colour (0 or 1) a vertex such that every edge joins two colours, if there is one.
    fn two_colouring(&self) -> Option<Vec<u8>> {
        let mut colour = vec![u8::MAX; self.vertices()];
        colour[0] = 0;
        let mut stack = vec![0];
        while let Some(v) = stack.pop() {
            for u in self.neighbours(v) {
                if colour[u] == u8::MAX {
                    colour[u] = colour[v] ^ 1;
                    stack.push(u);
                } else if colour[u] == colour[v] {
                    return None;
                }
            }
        }
        Some(colour)
    }
    /// Connected with one edge fewer than vertices.
    fn is_tree(&self) -> bool {
        self.edges() + 1 == self.vertices()
    }
    /// Each vertex's neighbour on a shortest way to `to` (`to` there), by a breadth-first
    /// search from it.
    fn toward(&self, to: usize) -> Vec<usize> {
        let mut toward = vec![usize::MAX; self.vertices()];
        toward[to] = to;
        let mut queue = std::collections::VecDeque::from([to]);
        while let Some(v) = queue.pop_front() {
            for u in self.neighbours(v) {
                if toward[u] == usize::MAX {
                    toward[u] = v;
                    queue.push_back(u);
                }
            }
        }
        toward
    }
    /// A path: a tree whose every vertex has at most two neighbours.
    fn is_path(&self) -> bool {
        self.is_tree() && (0..self.vertices()).all(|v| self.degree(v) <= 2)
    }
}

impl Adjacency for Graph {
    fn vertices(&self) -> usize {
        Graph::vertices(self)
    }
    fn edges(&self) -> usize {
        Graph::edges(self)
    }
    fn degree(&self, v: usize) -> usize {
        Graph::degree(self, v)
    }
    fn neighbours(&self, v: usize) -> impl Iterator<Item = usize> + '_ {
        Graph::neighbours(self, v)
    }
    fn is_biconnected(&self) -> bool {
        Graph::is_biconnected(self)
    }
}

/// The vertex `blank` names on a graph of `n` vertices (0-based): `last`, `first`, or a vertex
/// number 1..=n (a graph has no rows and columns to name a cell by).
pub fn blank_vertex(blank: GoalBlank, n: usize) -> Result<usize, Error> {
    match blank {
        GoalBlank::Last => Ok(n - 1),
        GoalBlank::First => Ok(0),
        GoalBlank::Vertex(v) if (1..=n).contains(&v) => Ok(v - 1),
        other => Err(Error::Blank(format!(
            "`{other}` is not a vertex of the graph: give last, first, or 1 to {n}"
        ))),
    }
}

/// The set bits of `mask`, lowest first.
pub fn bits(mut mask: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let b = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            b
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_graphs_are_refused_with_the_reason() {
        let err = |n, e: &[(usize, usize)]| Graph::new(n, e).unwrap_err().to_string();
        assert!(err(3, &[(0, 0), (0, 1), (1, 2)]).contains("loop"));
        assert!(err(3, &[(0, 1), (1, 0), (1, 2)]).contains("given twice"));
        assert!(err(4, &[(0, 1), (2, 3)]).contains("vertex 3 cannot be reached"));
        assert!(err(3, &[(0, 3)]).contains("past 3"));
        assert!(err(17, &[]).contains("at most 16"));
        assert!(err(0, &[]).contains("no vertices"));
    }

    #[test]
    fn properties_of_small_graphs() {
        let square = Graph::new(4, &[(0, 1), (1, 2), (2, 3), (3, 0)]).unwrap();
        assert!(square.is_bipartite() && square.is_biconnected() && !square.is_tree());
        let triangle = Graph::new(3, &[(0, 1), (1, 2), (2, 0)]).unwrap();
        assert!(!triangle.is_bipartite() && triangle.is_biconnected());
        let path = Graph::new(3, &[(0, 1), (1, 2)]).unwrap();
        assert!(path.is_bipartite() && !path.is_biconnected() && path.is_tree());
        // Two triangles sharing vertex 2: a cut vertex.
        let bowtie = Graph::new(5, &[(0, 1), (1, 2), (2, 0), (2, 3), (3, 4), (4, 2)]).unwrap();
        assert!(!bowtie.is_biconnected());
        assert_eq!(bowtie.edges(), 6);
        assert_eq!(bowtie.edge_list()[..2], [(0, 1), (0, 2)]);
        let edge = Graph::new(2, &[(0, 1)]).unwrap();
        assert!(
            !edge.is_biconnected(),
            "2-connected graphs have 3 vertices or more"
        );
    }
}

//! Graphs of any size as adjacency lists, for what the theorems say of them without a search:
//! the counts of `count --graph` and the decisions of `solvable --graph` on graphs of thousands
//! or millions of vertices, each property found in time linear in the vertices and edges.

use super::{check_edge, given_twice, not_connected, Adjacency, FromEdges, Graph};
use crate::error::Error;

/// A simple connected graph on vertices `0..n` of any size up to `Sparse::MOST`, as sorted
/// adjacency lists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sparse {
    adjacent: Vec<Vec<u32>>,
    edges: usize,
}

/// The most edges a sparse graph may have: 2^24 (128 MB of lists at most).
pub const MOST_EDGES: usize = 1 << 24;

impl Sparse {
    /// The same graph as `g`.
    pub fn of(g: &Graph) -> Sparse {
        let adjacent = (0..g.vertices())
            .map(|v| g.neighbours(v).map(|u| u as u32).collect())
            .collect();
        Sparse {
            adjacent,
            edges: g.edges(),
        }
    }
}

impl FromEdges for Sparse {
    /// As many as a board's cells `count` takes in seconds (1000x1000: n! has 5.6 million
    /// digits).
    const MOST: usize = 1 << 20;
    const LONGEST_FILE: u64 = 1 << 28;

    fn from_edges(n: usize, edges: &[(usize, usize)], first: usize) -> Result<Sparse, Error> {
        if n == 0 {
            return Err(Error::Graph("it has no vertices".into()));
        }
        if n > Self::MOST {
            return Err(Self::too_many(n as u128));
        }
        if edges.len() > MOST_EDGES {
            return Err(Error::Graph(format!(
                "it has {} edges; the theorems are decided on at most {MOST_EDGES}",
                edges.len()
            )));
        }
        let mut adjacent = vec![vec![]; n];
        for &(u, v) in edges {
            check_edge(n, u, v, first)?;
            adjacent[u].push(v as u32);
            adjacent[v].push(u as u32);
        }
        for (u, list) in adjacent.iter_mut().enumerate() {
            list.sort_unstable();
            if let Some(w) = list.windows(2).find(|w| w[0] == w[1]) {
                return Err(given_twice(u, w[0] as usize, first));
            }
        }
        let g = Sparse {
            adjacent,
            edges: edges.len(),
        };
        match g.unreachable_from_first() {
            Some(v) => Err(not_connected(v, first)),
            None => Ok(g),
        }
    }

    fn too_many(n: u128) -> Error {
        Error::Graph(format!(
            "it has {n} vertices; the theorems are decided on at most {}",
            Self::MOST
        ))
    }
}

impl Sparse {
    /// The first vertex that vertex 0 does not reach, if there is one.
    fn unreachable_from_first(&self) -> Option<usize> {
        let mut seen = vec![false; self.adjacent.len()];
        seen[0] = true;
        let mut stack = vec![0];
        while let Some(v) = stack.pop() {
            for &u in &self.adjacent[v] {
                if !std::mem::replace(&mut seen[u as usize], true) {
                    stack.push(u as usize);
                }
            }
        }
        seen.iter().position(|&s| !s)
    }
}

impl Adjacency for Sparse {
    fn vertices(&self) -> usize {
        self.adjacent.len()
    }

    fn edges(&self) -> usize {
        self.edges
    }

    fn degree(&self, v: usize) -> usize {
        self.adjacent[v].len()
    }

    fn neighbours(&self, v: usize) -> impl Iterator<Item = usize> + '_ {
        self.adjacent[v].iter().map(|&u| u as usize)
    }

    /// Tarjan's low points, by an explicit stack (a path of a million vertices is as deep):
    /// a vertex other than the root is a cut vertex when a child's subtree reaches no higher
    /// than it; the root, when it has two children.
    fn is_biconnected(&self) -> bool {
        let n = self.adjacent.len();
        if n < 3 {
            return false;
        }
        const NEW: u32 = u32::MAX;
        let (mut order, mut low) = (vec![NEW; n], vec![0u32; n]);
        let mut parent = vec![0u32; n];
        // The next neighbour each vertex on the stack looks at.
        let mut next = vec![0u32; n];
        let (mut clock, mut root_children) = (1, 0);
        order[0] = 0;
        let mut stack = vec![0usize];
        while let Some(&v) = stack.last() {
            if let Some(&u) = self.adjacent[v].get(next[v] as usize) {
                next[v] += 1;
                let u = u as usize;
                if order[u] == NEW {
                    (order[u], low[u], parent[u]) = (clock, clock, v as u32);
                    clock += 1;
                    root_children += usize::from(v == 0);
                    stack.push(u);
                } else if u as u32 != parent[v] {
                    low[v] = low[v].min(order[u]);
                }
                continue;
            }
            stack.pop();
            if let Some(&p) = stack.last() {
                low[p] = low[p].min(low[v]);
                if p != 0 && low[v] >= order[p] {
                    return false;
                }
            }
        }
        root_children == 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every connected graph on 1 to 6 vertices (each edge set of the 15 pairs that connects
    /// them): its sparse form is 2-connected, bipartite and a tree exactly when the bit masks'
    /// own tests (connectivity with each vertex taken out, in turn) say so.
    #[test]
    fn properties_agree_with_the_bit_masks_on_every_small_graph() {
        let mut checked = 0;
        for n in 1..=6usize {
            let pairs: Vec<(usize, usize)> = (0..n)
                .flat_map(|u| (u + 1..n).map(move |v| (u, v)))
                .collect();
            for set in 0u32..1 << pairs.len() {
                let edges: Vec<_> = (0..pairs.len())
                    .filter(|&i| set >> i & 1 == 1)
                    .map(|i| pairs[i])
                    .collect();
                let Ok(g) = Graph::new(n, &edges) else {
                    continue;
                };
                let s = Sparse::from_edges(n, &edges, 1).unwrap();
                assert_eq!(s, Sparse::of(&g));
                assert_eq!(s.is_biconnected(), g.is_biconnected(), "{edges:?}");
                assert_eq!(s.two_colouring().is_some(), g.is_bipartite(), "{edges:?}");
                assert_eq!(Adjacency::is_tree(&s), g.is_tree(), "{edges:?}");
                checked += 1;
            }
        }
        // Connected labelled graphs on 1..6 vertices: 1, 1, 4, 38, 728, 26704 (OEIS A001187).
        assert_eq!(checked, 1 + 1 + 4 + 38 + 728 + 26704);
    }

    /// A path of a million vertices is walked without a deep recursion; a cycle of as many is
    /// 2-connected, and a cut vertex anywhere in it is found.
    #[test]
    fn long_graphs_are_walked_in_linear_time() {
        let n = 1_000_000;
        let path: Vec<_> = (1..n).map(|v| (v - 1, v)).collect();
        let p = Sparse::from_edges(n, &path, 1).unwrap();
        assert!(!p.is_biconnected() && p.is_path());
        let mut cycle = path.clone();
        cycle.push((0, n - 1));
        assert!(Sparse::from_edges(n, &cycle, 1).unwrap().is_biconnected());
        // Two cycles sharing vertex 500000: the second one 500000, n, n+1, …, back to 500000.
        let mut two = cycle.clone();
        two.extend((n..n + 9).map(|v| (v, v + 1)));
        two.extend([(500_000, n), (n + 9, 500_000)]);
        assert!(!Sparse::from_edges(n + 10, &two, 1)
            .unwrap()
            .is_biconnected());
    }

    #[test]
    fn bad_edge_lists_are_refused_with_the_reason() {
        let err = |n, e: &[(usize, usize)]| Sparse::from_edges(n, e, 1).unwrap_err().to_string();
        assert!(err(3, &[(0, 0), (0, 1), (1, 2)]).contains("loop"));
        assert!(err(3, &[(0, 1), (1, 0), (1, 2)]).contains("the edge 1 2 is given twice"));
        assert!(err(4, &[(0, 1), (2, 3)]).contains("vertex 3 cannot be reached"));
        assert!(err(3, &[(0, 3)]).contains("past 3"));
        assert!(err(0, &[]).contains("no vertices"));
        assert!(err(Sparse::MOST + 1, &[]).contains("at most 1048576"));
    }
}

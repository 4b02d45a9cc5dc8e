//! The named graphs, each with its vertices in a documented order (0-based here, 1-based to
//! users): the rectangle, torus and cylinder in reading order, cycles and paths along
//! themselves, θ graphs hubs first, Petersen outer cycle first, hypercubes by binary label.
//! Each is built as either kind of graph (`FromEdges`): the functions named for a family build
//! a `Graph`; `spec` builds a `Sparse` of any size by the generic builders beside them.

use super::{FromEdges, Graph};
use crate::error::Error;

/// The R×C rectangle: vertex `r·C + c` is row r, column c (reading order, as boards number
/// cells), joined to the cells beside it.
pub fn grid(rows: usize, cols: usize) -> Result<Graph, Error> {
    wrapped(rows, cols, false, false)
}

/// The R×C torus: the rectangle with the last row joined to the first and the last column to
/// the first. A side of 2 does not wrap (it would only repeat an edge); a side of 1 cannot.
pub fn torus(rows: usize, cols: usize) -> Result<Graph, Error> {
    wrapped(rows, cols, true, true)
}

/// The R×C cylinder: the rectangle with the last column joined to the first (each row a
/// cycle), where C is 3 or more.
pub fn cylinder(rows: usize, cols: usize) -> Result<Graph, Error> {
    wrapped(rows, cols, false, true)
}

/// The rectangle, its rows and columns wrapped as asked: the grid, torus and cylinder.
pub(super) fn wrapped<G: FromEdges>(
    rows: usize,
    cols: usize,
    wrap_rows: bool,
    wrap_cols: bool,
) -> Result<G, Error> {
    if rows == 0 || cols == 0 {
        return Err(Error::Graph(format!("a {rows}x{cols} board has no cells")));
    }
    // Before the cells are listed: 10^6 x 10^6 would be 10^12 of them.
    if rows.saturating_mul(cols) > G::MOST {
        return Err(G::too_many(rows as u128 * cols as u128));
    }
    let at = |r: usize, c: usize| r * cols + c;
    let mut edges = vec![];
    for r in 0..rows {
        for c in 0..cols {
            if c + 1 < cols {
                edges.push((at(r, c), at(r, c + 1)));
            } else if wrap_cols && cols >= 3 {
                edges.push((at(r, 0), at(r, c)));
            }
            if r + 1 < rows {
                edges.push((at(r, c), at(r + 1, c)));
            } else if wrap_rows && rows >= 3 {
                edges.push((at(0, c), at(r, c)));
            }
        }
    }
    G::from_edges(rows * cols, &edges, 1)
}

/// The cycle on `n >= 3` vertices, in order around it.
pub fn cycle(n: usize) -> Result<Graph, Error> {
    cycle_of(n)
}

/// `cycle`, as either kind of graph.
pub(super) fn cycle_of<G: FromEdges>(n: usize) -> Result<G, Error> {
    if n < 3 {
        return Err(Error::Graph(format!(
            "a cycle has 3 vertices or more, not {n}"
        )));
    }
    if n > G::MOST {
        return Err(G::too_many(n as u128));
    }
    let edges: Vec<_> = (0..n).map(|v| (v, (v + 1) % n)).collect();
    G::from_edges(n, &edges, 1)
}

/// The path on `n >= 1` vertices, in order along it.
pub fn path(n: usize) -> Result<Graph, Error> {
    path_of(n)
}

/// `path`, as either kind of graph.
pub(super) fn path_of<G: FromEdges>(n: usize) -> Result<G, Error> {
    if n > G::MOST {
        return Err(G::too_many(n as u128));
    }
    let edges: Vec<_> = (1..n).map(|v| (v - 1, v)).collect();
    G::from_edges(n, &edges, 1)
}

/// The complete graph on `n` vertices.
pub fn complete(n: usize) -> Result<Graph, Error> {
    complete_of(n)
}

/// `complete`, as either kind of graph.
pub(super) fn complete_of<G: FromEdges>(n: usize) -> Result<G, Error> {
    if n > G::MOST || n * n.saturating_sub(1) / 2 > super::sparse::MOST_EDGES {
        return Err(G::too_many(n as u128));
    }
    let edges: Vec<_> = (0..n)
        .flat_map(|u| (u + 1..n).map(move |v| (u, v)))
        .collect();
    G::from_edges(n, &edges, 1)
}

/// The complete bipartite graph K(a,b): vertices `0..a` on one side, `a..a+b` on the other.
pub fn complete_bipartite(a: usize, b: usize) -> Result<Graph, Error> {
    complete_bipartite_of(a, b)
}

/// `complete_bipartite`, as either kind of graph.
pub(super) fn complete_bipartite_of<G: FromEdges>(a: usize, b: usize) -> Result<G, Error> {
    if a == 0 || b == 0 {
        return Err(Error::Graph(format!(
            "K({a},{b}) has a side without vertices"
        )));
    }
    if a + b > G::MOST || a * b > super::sparse::MOST_EDGES {
        return Err(G::too_many((a + b) as u128));
    }
    let edges: Vec<_> = (0..a)
        .flat_map(|u| (a..a + b).map(move |v| (u, v)))
        .collect();
    G::from_edges(a + b, &edges, 1)
}

/// The θ graph: two hubs (vertices 0 and 1) joined by paths of `inner[0]`, `inner[1]` and
/// `inner[2]` inner vertices, numbered path by path from 2 on. At most one path may be an edge
/// (no inner vertex), or the hubs would be joined twice.
pub fn theta(inner: [usize; 3]) -> Result<Graph, Error> {
    theta_of(inner)
}

/// `theta`, as either kind of graph.
pub(super) fn theta_of<G: FromEdges>(inner: [usize; 3]) -> Result<G, Error> {
    let n = 2 + inner.iter().sum::<usize>();
    if n > G::MOST {
        return Err(G::too_many(n as u128));
    }
    if inner.iter().filter(|&&k| k == 0).count() > 1 {
        return Err(Error::Graph(format!(
            "theta:{},{},{} joins its hubs by two edges: at most one path may have no inner vertex",
            inner[0], inner[1], inner[2]
        )));
    }
    let mut edges = vec![];
    let mut next = 2;
    for k in inner {
        let mut last = 0;
        for _ in 0..k {
            edges.push((last, next));
            last = next;
            next += 1;
        }
        edges.push((last, 1));
    }
    G::from_edges(next, &edges, 1)
}

/// Wilson's exceptional graph θ0 = θ(1,2,2): 7 vertices.
pub fn theta0() -> Graph {
    theta([1, 2, 2]).expect("θ(1,2,2) is a graph")
}

/// The Petersen graph: the outer cycle 0..5, the inner pentagram 5..10 (`5+i` joined to
/// `5+(i+2) mod 5`), and the spokes `i`–`5+i`.
pub fn petersen() -> Graph {
    let mut edges = vec![];
    for i in 0..5 {
        edges.push((i, (i + 1) % 5));
        edges.push((5 + i, 5 + (i + 2) % 5));
        edges.push((i, 5 + i));
    }
    Graph::new(10, &edges).expect("the Petersen graph is a graph")
}

/// The `d`-dimensional hypercube: vertex `x` (a d-bit label) joined to the labels that differ
/// from it in one bit.
pub fn hypercube(d: usize) -> Result<Graph, Error> {
    hypercube_of(d)
}

/// `hypercube`, as either kind of graph.
pub(super) fn hypercube_of<G: FromEdges>(d: usize) -> Result<G, Error> {
    let most = G::MOST.ilog2() as usize;
    if d == 0 || d > most {
        return Err(Error::Graph(format!(
            "hypercube:{d}: take dimensions 1 to {most} (2 to {} vertices)",
            1usize << most
        )));
    }
    let n = 1usize << d;
    let edges: Vec<_> = (0..n)
        .flat_map(|x| (0..d).map(move |b| (x, x ^ 1 << b)).filter(|&(x, y)| x < y))
        .collect();
    G::from_edges(n, &edges, 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Vertex and edge counts that follow from each family's definition: a torus has 2RC
    /// edges, a cylinder R·C + (R-1)·C, Petersen 15, the d-cube d·2^(d-1), K(a,b) ab.
    #[test]
    fn the_families_have_their_sizes() {
        let size = |g: Graph| (g.vertices(), g.edges());
        assert_eq!(size(grid(3, 4).unwrap()), (12, 17));
        assert_eq!(size(torus(3, 4).unwrap()), (12, 24));
        assert_eq!(size(torus(3, 3).unwrap()), (9, 18));
        assert_eq!(
            size(torus(2, 3).unwrap()),
            (6, 9),
            "a side of 2 does not wrap"
        );
        assert_eq!(size(cylinder(3, 4).unwrap()), (12, 12 + 8));
        assert_eq!(size(cycle(7).unwrap()), (7, 7));
        assert_eq!(size(path(5).unwrap()), (5, 4));
        assert_eq!(size(path(1).unwrap()), (1, 0));
        assert_eq!(size(complete(6).unwrap()), (6, 15));
        assert_eq!(size(complete_bipartite(3, 3).unwrap()), (6, 9));
        assert_eq!(size(theta0()), (7, 8));
        assert_eq!(size(theta([0, 1, 1]).unwrap()), (4, 5));
        assert_eq!(size(petersen()), (10, 15));
        assert_eq!(size(hypercube(3).unwrap()), (8, 12));
        assert!(theta([0, 0, 3]).is_err() && cycle(2).is_err() && hypercube(5).is_err());
    }

    #[test]
    fn petersen_is_cubic_with_girth_five() {
        let g = petersen();
        assert!((0..10).all(|v| g.degree(v) == 3));
        // No triangle and no 4-cycle: any two vertices share at most one neighbour, and
        // adjacent ones none.
        for u in 0..10 {
            for v in u + 1..10 {
                let common = (g.neighbour_mask(u) & g.neighbour_mask(v)).count_ones();
                let adjacent = g.neighbour_mask(u) >> v & 1 == 1;
                assert!(common <= 1 && !(adjacent && common > 0), "{u} {v}");
            }
        }
    }
}

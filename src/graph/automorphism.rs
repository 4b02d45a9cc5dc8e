//! The vertices alike under the graph's automorphisms (its vertex orbits): a goal with the blank
//! on v and one with the blank on σ(v), for an automorphism σ, have isomorphic puzzles (σ maps
//! the moves of one onto the other's, after a relabelling of tiles), so one search serves every
//! vertex of an orbit.
//!
//! Found by search: for each pair (u, v) not yet known to be alike, a backtracking search for a
//! permutation σ with σ(u) = v that keeps degrees and maps edges onto edges and non-edges onto
//! non-edges, vertex by vertex in order, each candidate checked against the vertices mapped
//! before it. Each automorphism found joins the orbits of all its cycles, so most pairs are
//! settled without a search of their own. Graphs here have at most 16 vertices.

use super::Graph;

/// The vertex orbits of `g`, each ascending, ordered by their least vertex.
pub fn vertex_orbits(g: &Graph) -> Vec<Vec<usize>> {
    let n = g.vertices();
    let mut orbit: Vec<usize> = (0..n).collect();
    fn root(orbit: &mut [usize], mut v: usize) -> usize {
        while orbit[v] != v {
            orbit[v] = orbit[orbit[v]];
            v = orbit[v];
        }
        v
    }
    for u in 0..n {
        for v in u + 1..n {
            if root(&mut orbit, u) == root(&mut orbit, v) || g.degree(u) != g.degree(v) {
                continue;
            }
            if let Some(sigma) = automorphism_mapping(g, u, v) {
                for (w, &image) in sigma.iter().enumerate() {
                    let (a, b) = (root(&mut orbit, w), root(&mut orbit, image));
                    orbit[a.max(b)] = a.min(b);
                }
            }
        }
    }
    let mut orbits: Vec<Vec<usize>> = vec![];
    let mut index = vec![usize::MAX; n];
    for v in 0..n {
        let r = root(&mut orbit, v);
        if index[r] == usize::MAX {
            index[r] = orbits.len();
            orbits.push(vec![]);
        }
        orbits[index[r]].push(v);
    }
    orbits
}

/// An automorphism σ of `g` with σ(u) = v (`sigma[w]` the image of w), if there is one.
pub fn automorphism_mapping(g: &Graph, u: usize, v: usize) -> Option<Vec<usize>> {
    let n = g.vertices();
    // u first, then the others in order.
    let order: Vec<usize> = std::iter::once(u)
        .chain((0..n).filter(|&w| w != u))
        .collect();
    let mut sigma = vec![usize::MAX; n];
    let mut used = 0u32;
    fn extend(
        g: &Graph,
        order: &[usize],
        k: usize,
        first_image: usize,
        sigma: &mut [usize],
        used: &mut u32,
    ) -> bool {
        let Some(&w) = order.get(k) else {
            return true;
        };
        let candidates: Vec<usize> = if k == 0 {
            vec![first_image]
        } else {
            (0..g.vertices()).filter(|&x| *used >> x & 1 == 0).collect()
        };
        for x in candidates {
            let fits = g.degree(x) == g.degree(w)
                && order[..k].iter().all(|&m| {
                    let edge = g.neighbour_mask(w) >> m & 1;
                    g.neighbour_mask(x) >> sigma[m] & 1 == edge
                });
            if fits {
                sigma[w] = x;
                *used |= 1 << x;
                if extend(g, order, k + 1, first_image, sigma, used) {
                    return true;
                }
                *used &= !(1 << x);
                sigma[w] = usize::MAX;
            }
        }
        false
    }
    extend(g, &order, 0, v, &mut sigma, &mut used).then_some(sigma)
}

#[cfg(test)]
mod tests {
    use super::super::family;
    use super::*;

    #[test]
    fn orbits_of_named_graphs() {
        let orbits = |g: Graph| vertex_orbits(&g);
        assert_eq!(
            orbits(family::petersen()),
            vec![(0..10).collect::<Vec<_>>()]
        );
        assert_eq!(
            orbits(family::path(5).unwrap()),
            vec![vec![0, 4], vec![1, 3], vec![2]]
        );
        assert_eq!(
            orbits(family::theta0()),
            vec![vec![0, 1], vec![2], vec![3, 4, 5, 6]]
        );
        assert_eq!(orbits(family::torus(3, 4).unwrap()).len(), 1);
        assert_eq!(
            orbits(family::complete_bipartite(2, 3).unwrap()),
            vec![vec![0, 1], vec![2, 3, 4]]
        );
    }

    /// On a grid the orbits are the classes of cells under the rectangle's symmetries, which
    /// the board atlas finds by reflecting cells (`analysis::atlas::cell_classes`, written
    /// apart from this search).
    #[test]
    fn grid_orbits_are_the_symmetry_classes_of_cells() {
        use crate::puzzle::board::{Cell, Shape};
        for (r, c) in [(2, 2), (2, 3), (3, 3), (3, 4), (2, 5), (4, 4)] {
            let by_symmetry: Vec<Vec<usize>> = {
                // The classes of a rectangle's cells under its reflections (and, square, its
                // transposition), computed here directly.
                let shape = Shape::new(r, c).unwrap();
                let mut classes: Vec<Vec<usize>> = vec![];
                for cell in 0..r * c {
                    if classes.iter().any(|k| k.contains(&cell)) {
                        continue;
                    }
                    let (y, x) = (shape.row(Cell(cell)), shape.col(Cell(cell)));
                    let mut k = vec![];
                    for (yy, xx) in [
                        (y, x),
                        (r - 1 - y, x),
                        (y, c - 1 - x),
                        (r - 1 - y, c - 1 - x),
                    ] {
                        k.push(yy * c + xx);
                        if r == c {
                            k.push(xx * c + yy);
                        }
                    }
                    k.sort_unstable();
                    k.dedup();
                    classes.push(k);
                }
                classes
            };
            assert_eq!(
                vertex_orbits(&family::grid(r, c).unwrap()),
                by_symmetry,
                "{r}x{c}"
            );
        }
    }
}

//! What a graph's puzzle must be, by theorem: Wilson's classification of puz(G) for every
//! 2-connected G ("Graph puzzles, homotopy, and the alternating group", J. Combin. Theory B 16,
//! 1974, Theorem 1), and the formula for trees.
//!
//! On n vertices (n! configurations):
//! - a cycle: (n-2)! components of n(n-1): the tiles keep their cyclic order;
//! - θ0 (two hubs joined by paths of 1, 2 and 2 inner vertices): 6 components of 840;
//! - other bipartite graphs: 2 components of n!/2 (the rectangle's theorem);
//! - other graphs: one component of n!;
//! - a tree (not 2-connected; the path among them): (n-1)! components of n, since a blank's
//!   walk on a tree is undone by walking back, so a configuration is fixed by where its blank
//!   is.
//!
//! Other graphs with a cut vertex split in ways these do not cover (Kornhauser, Miller and
//! Spirakis, 1984): no prediction is made for them.

use serde::{Deserialize, Serialize};

use super::{Adjacency, Graph};

/// Where a graph falls in Wilson's classification.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Case {
    /// A 2-connected cycle.
    Cycle,
    /// The exceptional θ0.
    Theta0,
    /// 2-connected, bipartite, not a cycle.
    Bipartite,
    /// 2-connected, neither bipartite nor a cycle nor θ0.
    Other,
    /// Not 2-connected (a cut vertex, or fewer than 3 vertices).
    Separable,
}

impl Case {
    /// The case of `g`, of either kind, in time linear in its vertices and edges.
    pub fn of(g: &impl Adjacency) -> Case {
        if !g.is_biconnected() {
            Case::Separable
        } else if g.edges() == g.vertices() {
            // A 2-connected graph with as many edges as vertices is a cycle.
            Case::Cycle
        } else if theta_paths(g) == Some([1, 2, 2]) {
            Case::Theta0
        } else if g.two_colouring().is_some() {
            Case::Bipartite
        } else {
            Case::Other
        }
    }

    /// The case's name, as `graphs.csv` writes it.
    pub fn name(self) -> &'static str {
        match self {
            Case::Cycle => "cycle",
            Case::Theta0 => "theta0",
            Case::Bipartite => "bipartite",
            Case::Other => "other",
            Case::Separable => "separable",
        }
    }
}

/// Which result a prediction comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Rule {
    /// Wilson's theorem (2-connected graphs).
    Wilson,
    /// The tree formula.
    Tree,
}

impl Rule {
    /// The rule's name, as `graphs.csv` writes it.
    pub fn name(self) -> &'static str {
        match self {
            Rule::Wilson => "wilson",
            Rule::Tree => "tree",
        }
    }
}

/// What the puzzle on a graph must be: this many components, each of `size` configurations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Prediction {
    /// The result it comes from.
    pub rule: Rule,
    /// The number of components.
    pub components: u64,
    /// The configurations in each.
    pub size: u64,
}

/// The prediction for `g`, where a theorem makes one.
pub fn predict(g: &Graph) -> Option<Prediction> {
    let n = g.vertices() as u64;
    let all = factorial(n);
    let (rule, components) = match Case::of(g) {
        Case::Cycle => (Rule::Wilson, factorial(n - 2)),
        Case::Theta0 => (Rule::Wilson, 6),
        Case::Bipartite => (Rule::Wilson, 2),
        Case::Other => (Rule::Wilson, 1),
        Case::Separable if g.is_tree() => (Rule::Tree, factorial(n - 1)),
        Case::Separable => return None,
    };
    Some(Prediction {
        rule,
        components,
        size: all / components,
    })
}

/// `n!`.
pub fn factorial(n: u64) -> u64 {
    (1..=n).product()
}

/// The inner-vertex counts of the three paths joining the hubs, sorted, if `g` is a θ graph
/// (two vertices of degree 3, all others of degree 2, one edge more than vertices).
pub fn theta_paths(g: &impl Adjacency) -> Option<[usize; 3]> {
    let n = g.vertices();
    let hubs: Vec<usize> = (0..n).filter(|&v| g.degree(v) == 3).collect();
    let degrees_fit = (0..n).all(|v| matches!(g.degree(v), 2 | 3));
    if hubs.len() != 2 || !degrees_fit || g.edges() != n + 1 {
        return None;
    }
    let mut lengths = [0usize; 3];
    for (slot, first) in lengths.iter_mut().zip(g.neighbours(hubs[0])) {
        let (mut previous, mut at) = (hubs[0], first);
        while at != hubs[1] {
            if at == hubs[0] {
                return None;
            }
            *slot += 1;
            let next = g.neighbours(at).find(|&u| u != previous)?;
            (previous, at) = (at, next);
        }
    }
    lengths.sort_unstable();
    Some(lengths)
}

#[cfg(test)]
mod tests {
    use super::super::family;
    use super::*;

    #[test]
    fn each_case_of_the_classification() {
        let case = |g: Graph| Case::of(&g);
        assert_eq!(case(family::cycle(6).unwrap()), Case::Cycle);
        assert_eq!(case(family::cycle(3).unwrap()), Case::Cycle);
        assert_eq!(case(family::theta0()), Case::Theta0);
        assert_eq!(case(family::theta([1, 2, 3]).unwrap()), Case::Other);
        assert_eq!(case(family::theta([1, 1, 3]).unwrap()), Case::Bipartite);
        assert_eq!(case(family::grid(3, 3).unwrap()), Case::Bipartite);
        assert_eq!(case(family::petersen()), Case::Other);
        assert_eq!(case(family::path(5).unwrap()), Case::Separable);
        assert_eq!(case(family::complete(1).unwrap()), Case::Separable);
    }

    #[test]
    fn theta_paths_are_found_in_any_vertex_order() {
        // θ(1,2,2) with its vertices relabelled: hubs 5 and 2.
        let g = Graph::new(
            7,
            &[
                (5, 0),
                (0, 2),
                (5, 1),
                (1, 3),
                (3, 2),
                (5, 4),
                (4, 6),
                (6, 2),
            ],
        )
        .unwrap();
        assert_eq!(theta_paths(&g), Some([1, 2, 2]));
        assert_eq!(Case::of(&g), Case::Theta0);
        assert_eq!(
            theta_paths(&family::theta([0, 2, 5]).unwrap()),
            Some([0, 2, 5])
        );
        assert_eq!(theta_paths(&family::complete(4).unwrap()), None);
    }

    #[test]
    fn predictions_follow_the_formulas() {
        let p = |g: Graph| predict(&g).map(|p| (p.rule, p.components, p.size));
        assert_eq!(p(family::cycle(5).unwrap()), Some((Rule::Wilson, 6, 20)));
        assert_eq!(p(family::theta0()), Some((Rule::Wilson, 6, 840)));
        assert_eq!(p(family::grid(2, 3).unwrap()), Some((Rule::Wilson, 2, 360)));
        assert_eq!(p(family::complete(4).unwrap()), Some((Rule::Wilson, 1, 24)));
        assert_eq!(p(family::path(4).unwrap()), Some((Rule::Tree, 6, 4)));
        let bowtie = Graph::new(5, &[(0, 1), (1, 2), (2, 0), (2, 3), (3, 4), (4, 2)]).unwrap();
        assert_eq!(p(bowtie), None);
    }
}

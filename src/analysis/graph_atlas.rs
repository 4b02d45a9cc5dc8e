//! The atlas of a graph's puzzle: the goal's component from a blank on every vertex, one
//! vertex of each orbit under the graph's automorphisms (`graph::automorphism`), and what they
//! say of the puzzle: the largest eccentricity (its **diameter**), the smallest (its
//! **radius**) and the mean distance between two configurations of a component.

use crate::analysis::distribution::Fraction;
use crate::analysis::{analyze, Analysis, AnalyzeOptions};
use crate::error::Error;
use crate::graph::automorphism::vertex_orbits;
use crate::graph::Graph;
use crate::index::puzzle::Puzzle;

/// One orbit of blank vertices: the analysis from its least vertex, which stands for all.
#[derive(Clone, Debug)]
pub struct OrbitFigures {
    /// The vertices of the orbit (0-based), ascending.
    pub vertices: Vec<usize>,
    /// The goal's component from a blank on the first of them.
    pub analysis: Analysis,
}

/// The atlas of one graph.
#[derive(Clone, Debug)]
pub struct GraphAtlas {
    /// One entry an orbit, in the order of their least vertices.
    pub orbits: Vec<OrbitFigures>,
}

impl GraphAtlas {
    /// The largest eccentricity over blank vertices, and the vertices attaining it.
    pub fn diameter(&self) -> (u32, Vec<usize>) {
        self.extreme(|a, b| a > b)
    }

    /// The smallest eccentricity over blank vertices, and the vertices attaining it.
    pub fn radius(&self) -> (u32, Vec<usize>) {
        self.extreme(|a, b| a < b)
    }

    fn extreme(&self, better: impl Fn(u32, u32) -> bool) -> (u32, Vec<usize>) {
        let orbits = self.orbits.iter().map(|o| {
            let e = o.analysis.distribution.eccentricity();
            (e, &o.vertices[..])
        });
        crate::analysis::atlas::extreme(orbits, better)
    }

    /// The exact mean distance between two configurations of a component, over every blank
    /// vertex: Σ |orbit| · depth sum / Σ |orbit| · states.
    pub fn mean_distance(&self) -> Fraction {
        let (mut num, mut den) = (0u128, 0u128);
        for o in &self.orbits {
            let k = o.vertices.len() as u128;
            num += k * o.analysis.distribution.depth_sum();
            den += k * u128::from(o.analysis.states());
        }
        Fraction::new(num, den)
    }

    /// Every orbit's analysis verified.
    pub fn verified(&self) -> bool {
        self.orbits.iter().all(|o| o.analysis.verified)
    }
}

/// The atlas of the puzzle on `graph`: one search an orbit of vertices; `progress` is told
/// the orbit being searched (its index and the count) and the states its search has seen.
pub fn atlas_graph(
    graph: &Graph,
    options: AnalyzeOptions,
    progress: &(dyn Fn(usize, usize, u64) + Sync),
) -> Result<GraphAtlas, Error> {
    let orbits = vertex_orbits(graph);
    let count = orbits.len();
    let mut out = vec![];
    for (i, vertices) in orbits.into_iter().enumerate() {
        let told = |d: crate::bfs::LayerDone| progress(i, count, d.seen);
        let puzzle = Puzzle::graph(
            graph.clone(),
            vertices[0],
            crate::puzzle::metric::Metric::Single,
        )?;
        let analysis = analyze(&puzzle, options, &told)?;
        out.push(OrbitFigures { vertices, analysis });
    }
    Ok(GraphAtlas { orbits: out })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::family;

    /// A path's puzzle from any blank is the path itself: from an end n-1 moves, from the
    /// middle vertex of five, 2.
    #[test]
    fn the_atlas_of_a_path() {
        let path = family::path(5).unwrap();
        let a = atlas_graph(&path, AnalyzeOptions::default(), &|_, _, _| {}).unwrap();
        assert_eq!(a.diameter(), (4, vec![0, 4]));
        assert_eq!(a.radius(), (2, vec![2]));
        // Mean distance between two vertices of a 5-path: 40 / 25 = 8/5.
        assert_eq!(a.mean_distance(), Fraction::new(8, 5));
        assert!(a.verified());
    }
}

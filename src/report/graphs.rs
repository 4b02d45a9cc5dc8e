//! `graphs.csv`: one row per graph whose puzzle `theorem --graph` or `--graph6` walked, and the
//! summary of a list by vertex count.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::analysis::graph_theorem::GraphTheorem;
use crate::error::Error;

/// One row of `graphs.csv`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GraphRow {
    /// The SPEC the graph was named by (empty for the graphs of a list).
    pub graph: String,
    /// Its graph6 string.
    pub graph6: String,
    /// Vertices.
    pub vertices: usize,
    /// Edges.
    pub edges: usize,
    /// No odd cycle.
    pub bipartite: bool,
    /// 2-connected (no cut vertex, 3 vertices or more).
    pub biconnected: bool,
    /// Wilson's case: `cycle`, `theta0`, `bipartite`, `other`, or `separable` for graphs that
    /// are not 2-connected.
    pub case: String,
    /// The components of the puzzle.
    pub components: u64,
    /// The largest component's configurations.
    pub largest: u64,
    /// The smallest component's configurations.
    pub smallest: u64,
    /// Every component size, `SIZExCOUNT`, space-separated, smallest first.
    pub sizes: String,
    /// The eccentricity of each component's first configuration (the goal in the goal's
    /// component, the least by rank in the others), `ECCENTRICITYxCOUNT`, space-separated.
    pub eccentricities: String,
    /// The components a theorem predicts (empty where none applies).
    pub predicted: Option<u64>,
    /// The theorem that predicts them: `wilson`, `tree`, `kms` (Kornhauser, Miller and
    /// Spirakis), `path`, `cycle` or `trivial` (empty where none applies).
    pub rule: String,
    /// The walk found the predicted components, each of the predicted size (empty where no
    /// theorem applies).
    pub agrees: Option<bool>,
    /// The goal's blank vertex (its first, with several), 1-based.
    pub blank: usize,
    /// The goal's number of blanks.
    pub blanks: usize,
    /// The goal's tokens as a multiset: `1^2 2^2 3 0^2`.
    pub tokens: String,
    /// The goal: the token on each vertex, in the graph's vertex order.
    pub goal: String,
    /// The configurations of the goal's component.
    pub goal_states: u64,
    /// The goal's eccentricity in its component.
    pub eccentricity: u32,
}

impl GraphRow {
    /// The row of `t`, named `spec`.
    pub fn of(t: &GraphTheorem, spec: &str) -> GraphRow {
        let sizes = t.walk.sizes();
        GraphRow {
            graph: spec.to_string(),
            graph6: t.graph6.clone(),
            vertices: t.vertices,
            edges: t.edges,
            bipartite: t.bipartite,
            biconnected: t.biconnected,
            case: t.case.name().into(),
            components: t.walk.components(),
            largest: t.walk.largest(),
            smallest: t.walk.smallest(),
            sizes: times(&sizes),
            eccentricities: times(&t.walk.eccentricities()),
            predicted: t
                .classes
                .as_ref()
                .and_then(|c| u64::try_from(c.count()).ok()),
            rule: t.classes.as_ref().map_or("", |c| c.theorem.name()).into(),
            agrees: t.agrees(),
            blank: t.blank + 1,
            blanks: t.tokens.blanks(),
            tokens: t.tokens.notation(),
            goal: t.tokens.to_string(),
            goal_states: t.walk.goal_states(),
            eccentricity: t.walk.goal_depths.len() as u32 - 1,
        }
    }

    fn key(&self) -> (usize, String, usize, String) {
        (
            self.vertices,
            self.graph6.clone(),
            self.blanks,
            self.goal.clone(),
        )
    }
}

/// `VALUExCOUNT` for each entry, space-separated.
fn times<K: std::fmt::Display>(counts: &BTreeMap<K, u64>) -> String {
    let items: Vec<String> = counts.iter().map(|(k, c)| format!("{k}x{c}")).collect();
    items.join(" ")
}

/// Replaces the rows of the same graph and goal in `graphs.csv`, or adds them.
pub fn upsert_graphs(path: &Path, new: Vec<GraphRow>) -> Result<(), Error> {
    super::rows::upsert_rows(path, new, GraphRow::key)
}

/// The graphs of one vertex count: how many, by case, and how the walks compared.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct VertexCount {
    /// Vertices.
    pub vertices: usize,
    /// Graphs read.
    pub graphs: u64,
    /// Graphs by Wilson's case (`separable` for those not 2-connected).
    pub cases: BTreeMap<String, u64>,
    /// Graphs a theorem makes a prediction for.
    pub predicted: u64,
    /// Of those, the ones the walk agrees with.
    pub agree: u64,
    /// Graphs by their puzzle's number of components.
    pub by_components: BTreeMap<u64, u64>,
    /// For each case, graphs by their puzzle's number of components.
    pub components_by_case: BTreeMap<String, BTreeMap<u64, u64>>,
    /// The graph6 strings of graphs the walk disagrees with.
    pub disagreeing: Vec<String>,
}

/// The rows summed by vertex count.
pub fn by_vertex_count(rows: &[GraphRow]) -> Vec<VertexCount> {
    let mut out: BTreeMap<usize, VertexCount> = BTreeMap::new();
    for r in rows {
        let s = out.entry(r.vertices).or_insert_with(|| VertexCount {
            vertices: r.vertices,
            ..VertexCount::default()
        });
        s.graphs += 1;
        *s.cases.entry(r.case.clone()).or_insert(0) += 1;
        *s.by_components.entry(r.components).or_insert(0) += 1;
        *s.components_by_case
            .entry(r.case.clone())
            .or_default()
            .entry(r.components)
            .or_insert(0) += 1;
        if let Some(agrees) = r.agrees {
            s.predicted += 1;
            if agrees {
                s.agree += 1;
            } else {
                s.disagreeing.push(r.graph6.clone());
            }
        }
    }
    out.into_values().collect()
}

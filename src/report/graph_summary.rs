//! The reports of `analyze --graph`: a row of `graph-summary.csv` a graph and goal blank, and
//! each analysis's `depths.csv` and `antipodes.csv` under `graphs/NAME/`.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::rows::{upsert_rows, write_csv};
use super::summary::ReportPaths;
use crate::analysis::Analysis;
use crate::error::Error;
use crate::graph::wilson::Case;
use crate::graph::{graph6, Graph};

/// One row of `graph-summary.csv`: the goal's component of one graph's puzzle.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GraphSummaryRow {
    /// The SPEC the graph was named by.
    pub graph: String,
    /// Its graph6 string.
    pub graph6: String,
    /// Vertices.
    pub vertices: usize,
    /// Edges.
    pub edges: usize,
    /// No odd cycle.
    pub bipartite: bool,
    /// Wilson's case (`separable` for graphs that are not 2-connected).
    pub case: String,
    /// The goal's blank vertex, 1-based.
    pub goal_blank: usize,
    /// Configurations reached from the goal.
    pub states: u64,
    /// The component's size a theorem predicts (empty where none applies).
    pub expected_states: Option<u64>,
    /// The counts hold together and match the prediction (`GraphAnalysis::verified`).
    pub verified: bool,
    /// The goal's eccentricity.
    pub eccentricity: u32,
    /// Configurations at that distance.
    pub antipodes: usize,
    /// Σ depth · states.
    pub depth_sum: u128,
    /// depth_sum / states, 6 decimals.
    pub mean_depth: String,
    /// depth_sum / states in lowest terms.
    pub mean_depth_exact: String,
    /// Smallest depth with at least half of the states at or below it.
    pub median_depth: u32,
    /// States in the widest layer.
    pub max_width: u64,
    /// Depth of the widest layer (the shallowest if tied).
    pub depth_of_max_width: u32,
}

impl GraphSummaryRow {
    /// The row of `a`, the analysis of a graph's puzzle, the graph named `spec`: its figures
    /// are a board's row's (`SummaryRow::from_analysis`), the columns before them the graph's.
    pub fn of(a: &Analysis, spec: &str) -> GraphSummaryRow {
        let graph = graph_of(a);
        let r = super::summary::SummaryRow::from_analysis(a);
        GraphSummaryRow {
            graph: spec.to_string(),
            graph6: graph6::encode(graph),
            vertices: graph.vertices(),
            edges: graph.edges(),
            bipartite: graph.is_bipartite(),
            case: Case::of(graph).name().into(),
            goal_blank: a.goal().0 + 1,
            states: r.states,
            expected_states: r.expected_states,
            verified: r.verified,
            eccentricity: r.eccentricity,
            antipodes: r.antipodes,
            depth_sum: r.depth_sum,
            mean_depth: r.mean_depth,
            mean_depth_exact: r.mean_depth_exact,
            median_depth: r.median_depth,
            max_width: r.max_width,
            depth_of_max_width: r.depth_of_max_width,
        }
    }

    fn key(&self) -> (usize, String, String, usize) {
        (
            self.vertices,
            self.graph.clone(),
            self.graph6.clone(),
            self.goal_blank,
        )
    }
}

/// The folder of a graph's reports under `results`: `graphs/NAME`, NAME the SPEC of a family
/// with `-` for its `:` and `,` (`torus-3x4`, `theta-1-2-2`), or `g6-` and the graph6 string
/// with its other characters as hex (`g6-Dhc`) for graph6 strings and files; `-blank-V` is added
/// for a goal blank other than the last vertex.
pub fn report_dir(results: &Path, spec: &str, graph: &Graph, blank: usize) -> PathBuf {
    let family = crate::graph::spec::family(spec).is_some() && !spec.starts_with("graph6:");
    let mut name = if family {
        spec.replace([':', ','], "-")
    } else {
        let escaped: String = graph6::encode(graph)
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() {
                    c.to_string()
                } else {
                    format!("_{:02x}", c as u32)
                }
            })
            .collect();
        format!("g6-{escaped}")
    };
    if blank + 1 != graph.vertices() {
        name += &format!("-blank-{}", blank + 1);
    }
    results.join("graphs").join(name)
}

/// Where `write_graph_reports` puts the reports of the puzzle on `graph` (named `spec`), its
/// goal's blank on `blank`, under `results`.
pub fn paths(results: &Path, spec: &str, graph: &Graph, blank: usize) -> ReportPaths {
    let dir = report_dir(results, spec, graph, blank);
    ReportPaths {
        summary: results.join("graph-summary.csv"),
        depths: dir.join("depths.csv"),
        antipodes: dir.join("antipodes.csv"),
    }
}

/// Writes `graph-summary.csv` (upserted), and `depths.csv` and `antipodes.csv` of the graph's
/// folder; returns their paths.
pub fn write_graph_reports(results: &Path, spec: &str, a: &Analysis) -> Result<ReportPaths, Error> {
    let p = paths(results, spec, graph_of(a), a.goal().0);
    super::summary::write_depths(&p.depths, a)?;
    write_csv(&p.antipodes, |w| {
        w.write_record(["antipode", "configuration"])?;
        for (i, c) in a.antipodes.iter().enumerate() {
            w.write_record([(i + 1).to_string(), c.to_string()])?;
        }
        Ok(())
    })?;
    upsert_rows(
        &p.summary,
        vec![GraphSummaryRow::of(a, spec)],
        GraphSummaryRow::key,
    )?;
    Ok(p)
}

/// The graph of the analysis of a graph's puzzle.
fn graph_of(a: &Analysis) -> &crate::graph::Graph {
    a.puzzle
        .graph_of()
        .expect("a graph's report is of a graph's analysis")
}

/// One row of `graph-atlas.csv`: one orbit of blank vertices of one graph.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GraphAtlasRow {
    /// The SPEC the graph was named by.
    pub graph: String,
    /// Its graph6 string.
    pub graph6: String,
    /// The orbit's least vertex, 1-based: the blank of its search.
    pub vertex: usize,
    /// The orbit's vertices, 1-based, space-separated.
    pub vertices: String,
    /// Configurations of the goal's component.
    pub states: u64,
    /// The goal's eccentricity.
    pub eccentricity: u32,
    /// Configurations at that distance.
    pub antipodes: usize,
    /// The mean distance to the goal, in lowest terms.
    pub mean_exact: String,
    /// The mean, 6 decimals.
    pub mean: String,
    /// The median distance.
    pub median: u32,
}

/// One row of `graph-atlas-summary.csv`: what a graph's atlas adds up to.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GraphAtlasSummaryRow {
    /// The SPEC the graph was named by.
    pub graph: String,
    /// Its graph6 string.
    pub graph6: String,
    /// Vertices.
    pub vertices: usize,
    /// Orbits of vertices under the graph's automorphisms (searches made).
    pub orbits: usize,
    /// The largest eccentricity over blank vertices.
    pub diameter: u32,
    /// The vertices attaining it, 1-based, space-separated.
    pub diameter_vertices: String,
    /// The smallest eccentricity over blank vertices.
    pub radius: u32,
    /// The vertices attaining it.
    pub radius_vertices: String,
    /// The mean distance between two configurations of a component, in lowest terms.
    pub mean_distance_exact: String,
    /// The same, 6 decimals.
    pub mean_distance: String,
}

/// Vertices, 1-based, space-separated.
fn vertex_list(vertices: &[usize]) -> String {
    let words: Vec<String> = vertices.iter().map(|v| (v + 1).to_string()).collect();
    words.join(" ")
}

/// The rows of `atlas`, a graph named `spec`: one an orbit, and the summary.
pub fn atlas_rows(
    spec: &str,
    atlas: &crate::analysis::atlas::Atlas,
) -> (Vec<GraphAtlasRow>, GraphAtlasSummaryRow) {
    let graph = atlas
        .puzzle
        .graph_of()
        .expect("a graph's atlas is of a graph's puzzle");
    let vertices = |cells: &[crate::puzzle::board::Cell]| -> Vec<usize> {
        cells.iter().map(|c| c.0).collect()
    };
    let rows = atlas
        .classes
        .iter()
        .map(|k| GraphAtlasRow {
            graph: spec.to_string(),
            graph6: graph6::encode(graph),
            vertex: k.cells[0].0 + 1,
            vertices: vertex_list(&vertices(&k.cells)),
            states: k.states,
            eccentricity: k.eccentricity,
            antipodes: k.antipodes,
            mean_exact: k.mean().to_string(),
            mean: k.mean().decimal(6).0,
            median: k.median,
        })
        .collect();
    let (diameter, diameter_at) = atlas.diameter();
    let (radius, radius_at) = atlas.radius();
    let summary = GraphAtlasSummaryRow {
        graph: spec.to_string(),
        graph6: graph6::encode(graph),
        vertices: graph.vertices(),
        orbits: atlas.classes.len(),
        diameter,
        diameter_vertices: vertex_list(&vertices(&diameter_at)),
        radius,
        radius_vertices: vertex_list(&vertices(&radius_at)),
        mean_distance_exact: atlas.mean_distance().to_string(),
        mean_distance: atlas.mean_distance().decimal(6).0,
    };
    (rows, summary)
}

/// Upserts `graph-atlas.csv` and `graph-atlas-summary.csv` under `results` with an atlas's
/// rows; returns their paths.
pub fn write_graph_atlas(
    results: &Path,
    rows: Vec<GraphAtlasRow>,
    summary: GraphAtlasSummaryRow,
) -> Result<[PathBuf; 2], Error> {
    let paths = [
        results.join("graph-atlas.csv"),
        results.join("graph-atlas-summary.csv"),
    ];
    upsert_rows(&paths[0], rows, |r| {
        (r.graph.clone(), r.graph6.clone(), r.vertex)
    })?;
    upsert_rows(&paths[1], vec![summary], |r| {
        (r.vertices, r.graph.clone(), r.graph6.clone())
    })?;
    Ok(paths)
}

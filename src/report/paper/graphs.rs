//! The named graphs as a table (`tilespace table --graphs`), from `graph-summary.csv` and, where
//! `atlas --graph` ran, `graph-atlas-summary.csv`: each graph's case, its goal component's
//! size, eccentricity and mean, and its diameter, radius and mean distance over blank vertices.

use super::grid::{Grid, GridCell, Heading, Kind};
use super::{Format, Rendered};
use crate::error::Error;
use crate::report::graph_summary::{GraphAtlasSummaryRow, GraphSummaryRow};

/// `rows` (with their atlases, where one has the same graph) in `format`.
pub fn render(
    rows: &[GraphSummaryRow],
    atlases: &[GraphAtlasSummaryRow],
    format: Format,
) -> Result<Rendered, Error> {
    let atlas_of = |r: &GraphSummaryRow| {
        atlases
            .iter()
            .find(|a| a.graph == r.graph && a.graph6 == r.graph6)
    };
    let h = |text: &str, kind| Heading::new(text, text, kind);
    let g = Grid {
        headings: vec![
            h("graph", Kind::Text),
            h("vertices", Kind::Count),
            h("edges", Kind::Count),
            h("case", Kind::Text),
            h("goal blank", Kind::Count),
            h("states", Kind::Count),
            h("eccentricity", Kind::Count),
            h("antipodes", Kind::Count),
            h("mean", Kind::Text),
            h("diameter", Kind::Text),
            h("radius", Kind::Text),
            h("mean distance", Kind::Text),
        ],
        rows: rows
            .iter()
            .map(|r| {
                let atlas = atlas_of(r);
                let or_dash = |f: fn(&GraphAtlasSummaryRow) -> String| {
                    atlas.map_or(GridCell::with_tex("–", "--".into()), |a| {
                        GridCell::text(&f(a))
                    })
                };
                vec![
                    GridCell::text(&r.graph),
                    GridCell::count(r.vertices as u64),
                    GridCell::count(r.edges as u64),
                    GridCell::text(&r.case),
                    GridCell::count(r.goal_blank as u64),
                    GridCell::count(r.states),
                    GridCell::count(r.eccentricity),
                    GridCell::count(r.antipodes as u64),
                    GridCell::text(&r.mean_depth_exact),
                    or_dash(|a| a.diameter.to_string()),
                    or_dash(|a| a.radius.to_string()),
                    or_dash(|a| a.mean_distance_exact.clone()),
                ]
            })
            .collect(),
        caption: "Sliding puzzles on graphs: the goal's component (blank on the vertex given), \
                  and over every blank vertex the diameter, radius and mean distance"
            .into(),
        label: "tab:graphs".into(),
        ..Grid::default()
    };
    #[derive(serde::Serialize)]
    struct Row<'a> {
        summary: &'a GraphSummaryRow,
        atlas: Option<&'a GraphAtlasSummaryRow>,
    }
    let all: Vec<Row> = rows
        .iter()
        .map(|r| Row {
            summary: r,
            atlas: atlas_of(r),
        })
        .collect();
    super::rendered(&g, format, "tilespace table --graphs --format latex", &all)
}

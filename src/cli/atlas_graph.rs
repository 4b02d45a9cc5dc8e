//! `tilespace atlas --graph SPEC`: a graph's puzzle from a blank on every vertex, one vertex an
//! orbit of its automorphisms; writes graph-atlas.csv and graph-atlas-summary.csv.

use std::io::Write;

use anyhow::Result;
use tilespace::analysis::atlas::atlas;
use tilespace::analysis::AnalyzeOptions;
use tilespace::graph::spec::NamedGraph;
use tilespace::report::graph_summary::{atlas_rows, write_graph_atlas, GraphAtlasSummaryRow};
use tilespace::Puzzle;

use super::cmd_atlas::AtlasArgs;
use super::progress::Items;

/// The atlas of each graph of `--graph`.
pub fn run(args: &AtlasArgs) -> Result<super::Status> {
    let mut puzzles = vec![];
    for spec in &args.graph {
        let named = NamedGraph::parse(spec)?;
        // The metrics asked that a graph's moves have (`both`, the default, is every metric:
        // a graph has the single-tile one); none is refused by the puzzle.
        let metrics = args.metric.metrics();
        let metric = match metrics.iter().find(|m| m.moves_on_graphs()) {
            Some(&m) => m,
            None => metrics[0],
        };
        let puzzle = Puzzle::graph(named.graph.clone(), 0, metric)?;
        tilespace::analysis::memory::check_puzzle(&puzzle, args.run.max_memory)?;
        puzzles.push((named, puzzle));
    }
    tilespace::store::atomic::check_writable(&args.run.results)?;
    let pool = super::thread_pool(args.run.threads)?;
    let (mut all, mut docs) = (true, vec![]);
    for (named, puzzle) in &puzzles {
        // Each orbit's search: the component's size where a theorem gives it, else n! at most.
        let n = named.graph.vertices() as u64;
        let each = tilespace::graph::wilson::predict(&named.graph)
            .map_or(tilespace::graph::wilson::factorial(n), |p| p.size);
        let orbits = tilespace::graph::automorphism::vertex_orbits(&named.graph).len() as u64;
        let progress = Items::new(args.run.quiet, each * orbits, &named.spec);
        let options = AnalyzeOptions {
            max_memory: args.run.max_memory,
            ..AnalyzeOptions::default()
        };
        let atlas = pool.install(|| {
            atlas(puzzle, options, &|i, _, layer| {
                progress.at(i as u64 * each + layer.seen)
            })
        })?;
        progress.finish();
        let (rows, summary) = atlas_rows(&named.spec, &atlas);
        let paths = write_graph_atlas(&args.run.results, rows.clone(), summary.clone())?;
        all &= atlas.verified();
        if args.json {
            docs.push(summary);
        } else {
            print(&rows, &summary, &paths)?;
        }
    }
    if args.json {
        #[derive(serde::Serialize)]
        struct Document {
            atlases: Vec<GraphAtlasSummaryRow>,
            verified: bool,
        }
        super::print_json(&Document {
            atlases: docs,
            verified: all,
        })?;
    }
    Ok(super::Status::of(all))
}

fn print(
    rows: &[tilespace::report::graph_summary::GraphAtlasRow],
    s: &GraphAtlasSummaryRow,
    paths: &[std::path::PathBuf; 2],
) -> Result<()> {
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "{} (graph6 {}): {} vertices in {}",
        s.graph,
        s.graph6,
        s.vertices,
        super::counted(s.orbits as u64, "orbit")
    )?;
    for r in rows {
        // As a board's atlas says its cells: the first, then the count and the whole class.
        let class: Vec<&str> = r.vertices.split(' ').collect();
        writeln!(
            out,
            "  vertex {} ({}: {}): {} states, eccentricity {}, {}, mean {} ≈ {}",
            class[0],
            super::counted(class.len() as u64, "vertex"),
            r.vertices,
            r.states,
            r.eccentricity,
            super::counted(r.antipodes as u64, "antipode"),
            r.mean_exact,
            r.mean
        )?;
    }
    writeln!(
        out,
        "  diameter {} (blank on {}), radius {} (blank on {}), mean distance {} ≈ {}",
        s.diameter,
        s.diameter_vertices,
        s.radius,
        s.radius_vertices,
        s.mean_distance_exact,
        s.mean_distance
    )?;
    writeln!(
        out,
        "  wrote: {}, {}",
        paths[0].display(),
        paths[1].display()
    )?;
    Ok(())
}

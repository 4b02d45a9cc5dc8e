//! `tilespace analyze --graph SPEC`: the goal's component of a graph's puzzle, with its
//! reports (`graph-summary.csv`, `graphs/NAME/depths.csv` and `antipodes.csv`).

use std::io::Write;
use std::path::Path;
use std::time::Instant;

use anyhow::Result;
use tilespace::analysis::graph_analysis::{analyze_graph, GraphAnalysis};
use tilespace::graph::spec::NamedGraph;
use tilespace::report::graph_summary::{configuration, write_graph_reports, GraphSummaryRow};
use tilespace::Metric;

use super::cmd_analyze::AnalyzeArgs;
use super::progress::Items;

/// Antipodes printed a graph (all are in antipodes.csv).
const SHOWN_ANTIPODES: usize = 5;

/// Each graph of `--graph` from each goal blank of `--blank`.
pub fn run(args: &AnalyzeArgs, ranks: super::Ranks) -> Result<super::Status> {
    if ranks.is_some() {
        anyhow::bail!(tilespace::Error::Argument(
            "--graph runs in one process, not on MPI ranks".into()
        ));
    }
    let (specs, blanks, run, json) = (&args.graph, &args.blank, &args.run, args.json);
    if args.metric != Metric::Single {
        anyhow::bail!(tilespace::Error::Argument(
            "--graph takes single-tile moves only: multi-tile moves slide along a board's rows \
             and columns, which a graph has not"
                .into()
        ));
    }
    let mut jobs = vec![];
    for spec in specs {
        let named = NamedGraph::parse(spec)?;
        for &blank in blanks {
            let vertex = tilespace::graph::blank_vertex(blank, named.graph.vertices())?;
            jobs.push((named.clone(), vertex));
        }
    }
    for (named, _) in &jobs {
        tilespace::analysis::graph_analysis::check_room(&named.graph, 1, run.max_memory)?;
    }
    tilespace::store::atomic::check_writable(&run.results)?;
    let pool = super::thread_pool(run.threads)?;
    let (mut rows, mut all) = (vec![], true);
    for (named, vertex) in &jobs {
        let total = tilespace::graph::wilson::factorial(named.graph.vertices() as u64);
        let progress = Items::new(run.quiet, total, &named.spec);
        let clock = Instant::now();
        let a = pool.install(|| {
            analyze_graph(&named.graph, *vertex, run.max_memory, &|n| progress.at(n))
        })?;
        progress.finish();
        let dir = write_graph_reports(&run.results, &named.spec, &a)?;
        if !json {
            print(
                &a,
                &named.spec,
                clock.elapsed().as_secs_f64(),
                &dir,
                &run.results,
            )?;
        }
        all &= a.verified();
        rows.push(GraphSummaryRow::of(&a, &named.spec));
    }
    if json {
        #[derive(serde::Serialize)]
        struct Document {
            analyses: Vec<GraphSummaryRow>,
            verified: bool,
            report: String,
        }
        super::print_json(&Document {
            analyses: rows,
            verified: all,
            report: run.results.join("graph-summary.csv").display().to_string(),
        })?;
    }
    Ok(super::Status::of(all))
}

fn print(a: &GraphAnalysis, spec: &str, seconds: f64, dir: &Path, results: &Path) -> Result<()> {
    let row = GraphSummaryRow::of(a, spec);
    let mut out = std::io::stdout().lock();
    let check = match (row.verified, a.expected()) {
        (true, Some(_)) => "as the theorem predicts, verified".to_string(),
        (true, None) => "verified (no theorem predicts this graph's components)".to_string(),
        (false, Some(e)) => format!("NOT VERIFIED (the theorem predicts {e})"),
        (false, None) => "NOT VERIFIED".to_string(),
    };
    writeln!(
        out,
        "{spec} (graph6 {}, goal blank on vertex {}): {} states, {check}",
        row.graph6, row.goal_blank, row.states
    )?;
    writeln!(
        out,
        "  eccentricity {}, {}, mean {}, median {}, widest layer at depth {} ({})",
        row.eccentricity,
        super::counted(row.antipodes as u64, "antipode"),
        a.distribution.mean().with_decimal(6),
        row.median_depth,
        row.depth_of_max_width,
        super::counted(row.max_width, "state")
    )?;
    let antipodes: Vec<String> = a.antipodes.iter().map(|c| configuration(c)).collect();
    super::output::print_antipodes(&mut out, &antipodes, SHOWN_ANTIPODES)?;
    writeln!(out, "  {seconds:.3} s")?;
    writeln!(
        out,
        "  wrote: {}, {}, {}",
        dir.join("depths.csv").display(),
        dir.join("antipodes.csv").display(),
        results.join("graph-summary.csv").display()
    )?;
    Ok(())
}

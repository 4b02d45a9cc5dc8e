//! `tilespace analyze --graph SPEC`: the goal's component of a graph's puzzle, with its
//! reports (`graph-summary.csv`, `graphs/NAME/depths.csv` and `antipodes.csv`).

use std::io::Write;
use std::path::Path;
use std::time::Instant;

use anyhow::Result;
use tilespace::analysis::graph_analysis::{analyze_graph, GraphAnalysis, GraphOptions};
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
        tilespace::analysis::graph_analysis::check_search_room(&named.graph, run.max_memory)?;
    }
    let checkpoint_dir = args.checkpoint.as_deref().or(args.resume.as_deref());
    if checkpoint_dir.is_some() && jobs.len() != 1 {
        anyhow::bail!(tilespace::Error::Argument(
            "--checkpoint and --resume take one search: give one --graph and one --blank".into()
        ));
    }
    tilespace::store::atomic::check_writable(&run.results)?;
    let pool = super::thread_pool(run.threads)?;
    let saved = |depth: u32, seconds: f64| {
        if let (false, Some(dir)) = (run.quiet, checkpoint_dir) {
            eprintln!(
                "tilespace: checkpoint after depth {depth} saved in {} ({seconds:.1} s)",
                dir.display()
            );
        }
    };
    let checkpoint = super::cmd_analyze::checkpointing(args, checkpoint_dir, &saved)?;
    let options = GraphOptions {
        max_memory: run.max_memory,
        checkpoint,
        ..GraphOptions::default()
    };
    let (mut rows, mut all) = (vec![], true);
    for (named, vertex) in &jobs {
        // The component's size where a theorem gives it, else all n! at most.
        let n = named.graph.vertices() as u64;
        let total = tilespace::graph::wilson::predict(&named.graph)
            .map_or(tilespace::graph::wilson::factorial(n), |p| p.size);
        let progress = Items::new(run.quiet, total, &named.spec);
        let clock = Instant::now();
        let a = pool.install(|| {
            analyze_graph(&named.graph, *vertex, options, &|d| {
                super::progress::hold_if_asked(d.depth);
                progress.at(d.seen)
            })
        });
        progress.finish();
        let a = a.map_err(|e| interrupted(e, &named.spec, *vertex))?;
        if let Some(dir) = checkpoint_dir {
            tilespace::store::resume::remove_others(dir, None, None)?;
        }
        let dir = write_graph_reports(&run.results, &named.spec, &a)?;
        if !json {
            let timed = Timed {
                seconds: clock.elapsed().as_secs_f64(),
                threads: pool.current_num_threads(),
            };
            print(&a, &named.spec, timed, &dir, &run.results)?;
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

/// How long a search took, on how many threads.
struct Timed {
    seconds: f64,
    threads: usize,
}

fn print(a: &GraphAnalysis, spec: &str, timed: Timed, dir: &Path, results: &Path) -> Result<()> {
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
    // As a board's run says it: the time, the threads and the rate.
    writeln!(
        out,
        "  {:.3} s on {}, {:.1} M states/s",
        timed.seconds,
        super::counted(timed.threads as u64, "thread"),
        row.states as f64 / timed.seconds.max(1e-9) / 1e6
    )?;
    writeln!(
        out,
        "  wrote: {}, {}, {}",
        dir.join("depths.csv").display(),
        dir.join("antipodes.csv").display(),
        results.join("graph-summary.csv").display()
    )?;
    Ok(())
}

/// An interrupted search becomes `Stopped`, with the command that goes on from its checkpoint.
fn interrupted(err: tilespace::Error, spec: &str, vertex: usize) -> anyhow::Error {
    match err {
        tilespace::Error::Interrupted { depth, dir } => {
            super::signals_settled();
            let dir = dir.display();
            super::outcome::Stopped(format!(
                "interrupted after depth {depth}: checkpoint saved in {dir}; continue with: \
                 tilespace analyze --graph {spec} --blank {} --resume {dir}",
                vertex + 1
            ))
            .into()
        }
        err => err.into(),
    }
}

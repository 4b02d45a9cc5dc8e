//! `tilespace atlas`: every goal cell of a board, one per class under its symmetries, in one
//! metric or both: each cell's eccentricity and mean, the diameter, the radius and the mean
//! distance between two configurations; with `--graph`, a graph's puzzle from a blank on every
//! vertex, one vertex an orbit of its automorphisms (graph-atlas.csv and
//! graph-atlas-summary.csv). The searches, their reuse and checkpoints are the library's
//! (`analysis::atlas`); what is printed and written differs by ground.

use anyhow::Result;
use clap::Args;
use std::io::Write;
use std::sync::Mutex;

use tilespace::analysis::atlas::{atlas, Atlas, AtlasStep, ClassAt, Keeping};
use tilespace::analysis::memory;
use tilespace::graph::spec::NamedGraph;
use tilespace::puzzle::board::Cell;
use tilespace::report::atlas::{write_atlas, AtlasRow, AtlasSummaryRow, KeptIn};
use tilespace::report::graph_summary::{atlas_rows, write_graph_atlas, GraphAtlasSummaryRow};
use tilespace::Shape;
use tilespace::{report, AnalyzeOptions, Puzzle};

use super::groups::RunArgs;
use super::progress::{Items, Progress};
use super::values::{metric_choice, MetricChoice};

#[derive(Args, Debug)]
pub struct AtlasArgs {
    /// Board sizes, e.g. 3x3 2x5 (as memory allows: each cell class is one full search)
    #[arg(value_name = "RxC", required_unless_present = "graph")]
    pub boards: Vec<Shape>,
    /// A graph to play on instead of a board (repeatable; see `analyze --graph`): every
    /// vertex's blank, one an orbit of the graph's automorphisms, single-tile moves
    #[arg(long, value_name = "SPEC", conflicts_with_all = ["boards", "reuse"])]
    pub graph: Vec<String>,
    /// How moves are counted: single, multi or both (see `analyze --metric`)
    #[arg(long, value_name = "METRIC", default_value = "both", value_parser = metric_choice)]
    pub metric: MetricChoice,
    #[command(flatten)]
    pub run: RunArgs,
    /// Read a cell whose search is already in --results (its summary row, verified, and its
    /// depths.csv, both checked) instead of searching it again: an atlas stopped between
    /// cells goes on where it was
    #[arg(long)]
    pub reuse: bool,
    /// Print one JSON document on stdout instead of text
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: AtlasArgs) -> Result<super::Status> {
    if !args.graph.is_empty() {
        return graphs(&args);
    }
    let metrics = args.metric.metrics();
    // Every board's needs before any search: the most of its metrics'.
    for &shape in &args.boards {
        memory::check(shape, &metrics, args.run.max_memory)?;
    }
    let mut puzzles = vec![];
    for &shape in &args.boards {
        for &metric in &metrics {
            puzzles.push(Puzzle::board(shape, Cell(0), metric)?);
        }
    }
    tilespace::store::atomic::check_writable(&args.run.results)?;
    let pool = super::thread_pool(args.run.threads)?;
    let write_reports =
        |a: &tilespace::Analysis| report::write_all(&args.run.results, a).map(|_| ());
    let options = AnalyzeOptions {
        max_memory: args.run.max_memory,
        reports: Some(&write_reports),
        ..AnalyzeOptions::default()
    };
    // A stop signal saves the cell in progress at the end of its layer (`--reuse` goes on
    // from it) and stops; the cells done are in the reports already.
    let stop = super::stop_on_signal(
        "saving the cell in progress at the end of this layer (signal again to stop at once)",
    )?;
    let kept = KeptIn::new(&args.run.results, args.reuse)?;
    let (mut verified, mut json) = (true, vec![]);
    for puzzle in &puzzles {
        let keep = Keeping {
            kept: &kept,
            resume: args.reuse,
            stop,
        };
        let bar = BoardBars::new(puzzle, args.run.quiet);
        let atlas = pool.install(|| atlas(puzzle, options, Some(keep), &|step| bar.step(step)));
        let atlas = atlas.map_err(|e| stopped(e, &args))?;
        verified &= atlas.verified();
        let paths = write_atlas(&args.run.results, &atlas)?;
        if args.json {
            json.push(AtlasDocument {
                summary: AtlasSummaryRow::of(&atlas),
                cells: AtlasRow::of(&atlas),
            });
        } else {
            print_atlas(&atlas, &paths)?;
        }
    }
    if args.json {
        super::print_json(&Document {
            atlases: json,
            verified,
        })?;
    }
    Ok(super::Status::of(verified))
}

/// The progress of a board's atlas: a line for each cell read, and a bar for each searched.
struct BoardBars<'p> {
    puzzle: &'p Puzzle,
    quiet: bool,
    bar: Mutex<Option<Progress>>,
}

impl<'p> BoardBars<'p> {
    fn new(puzzle: &'p Puzzle, quiet: bool) -> BoardBars<'p> {
        BoardBars {
            puzzle,
            quiet,
            bar: Mutex::new(None),
        }
    }

    fn step(&self, step: AtlasStep) {
        let shape = self.puzzle.shape();
        let label = |cells: &[Cell]| {
            let metric = self.puzzle.metric();
            format!("{shape} {metric} cell {}", shape.cell_label(cells[0]))
        };
        let bar = || self.bar.lock().unwrap_or_else(|e| e.into_inner());
        let cells = step.cells;
        match step.at {
            ClassAt::Read(from) => {
                eprintln!("tilespace: {}: read from {from} (--reuse)", label(cells))
            }
            ClassAt::Start(resumed) => {
                let total = tilespace::puzzle::count::reachable_u64(shape).unwrap_or(u64::MAX);
                *bar() = Some(Progress::new(self.quiet, total, &label(cells)));
                if let Some(dir) = resumed {
                    let (label, dir) = (label(cells), dir.display());
                    eprintln!("tilespace: {label}: going on from {dir} (--reuse)");
                }
            }
            ClassAt::Layer(layer) => {
                if let Some(p) = &*bar() {
                    p.layer(layer)
                }
            }
            ClassAt::End => {
                if let Some(p) = bar().take() {
                    p.finish()
                }
            }
        }
    }
}

/// `atlas --json`: every board and metric, and whether every search was verified.
#[derive(serde::Serialize)]
struct Document {
    atlases: Vec<AtlasDocument>,
    verified: bool,
}

/// One board and metric of `atlas --json`: its rows of atlas-summary.csv and atlas.csv.
#[derive(serde::Serialize)]
struct AtlasDocument {
    summary: AtlasSummaryRow,
    cells: Vec<AtlasRow>,
}

/// A search stopped by a signal after saving its cell: the line that says so and how to go on
/// (exit 75); any other error as it is.
fn stopped(err: tilespace::Error, args: &AtlasArgs) -> anyhow::Error {
    let tilespace::Error::Interrupted { depth, dir } = &err else {
        return err.into();
    };
    super::signals_settled();
    let boards: Vec<String> = args.boards.iter().map(|b| b.to_string()).collect();
    super::Stopped(format!(
        "interrupted after depth {depth}: the cell in progress is saved in {}, the cells done \
         are in {}; continue with: tilespace atlas {} --metric {} --results {} --reuse",
        dir.display(),
        args.run.results.display(),
        boards.join(" "),
        args.metric,
        args.run.results.display()
    ))
    .into()
}

/// The summary line of a board in one metric, then one line per class of cells.
fn print_atlas(atlas: &Atlas, paths: &[std::path::PathBuf]) -> Result<()> {
    let s = AtlasSummaryRow::of(atlas);
    let mut out = std::io::stdout().lock();
    let metric = atlas.puzzle.metric().adjective();
    writeln!(
        out,
        "{} {metric}: diameter {} (cells {}), radius {} (cells {}), mean distance {}",
        s.board,
        s.diameter,
        s.diameter_cells,
        s.radius,
        s.radius_cells,
        atlas.mean_distance().with_decimal(6)
    )?;
    for row in AtlasRow::of(atlas) {
        let n = row.cells.split(' ').count();
        writeln!(
            out,
            "  cell {} ({}): eccentricity {}, {}, mean {} ≈ {}, median {}",
            row.cell,
            super::counted(n as u64, "cell"),
            row.eccentricity,
            super::counted(row.antipodes as u64, "antipode"),
            row.mean_exact,
            row.mean,
            row.median
        )?;
    }
    let shown: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    writeln!(out, "  wrote: {}", shown.join(", "))?;
    Ok(())
}

/// The atlas of each graph of `--graph`.
fn graphs(args: &AtlasArgs) -> Result<super::Status> {
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
            atlas(puzzle, options, None, &|step| {
                if let ClassAt::Layer(layer) = step.at {
                    progress.at(step.class as u64 * each + layer.seen)
                }
            })
        })?;
        progress.finish();
        let (rows, summary) = atlas_rows(&named.spec, &atlas);
        let paths = write_graph_atlas(&args.run.results, rows.clone(), summary.clone())?;
        all &= atlas.verified();
        if args.json {
            docs.push(summary);
        } else {
            print_graph_atlas(&rows, &summary, &paths)?;
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

fn print_graph_atlas(
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

//! `tilespace atlas`: every goal cell of a board, one per class under its symmetries, in one
//! metric or both: each cell's eccentricity and mean, the diameter, the radius and the mean
//! distance between two configurations.

use std::io::Write;

use anyhow::Result;
use clap::Args;
use tilespace::analysis::atlas::{cell_classes, Atlas, CellFigures};
use tilespace::analysis::memory;
use tilespace::report::atlas::{write_atlas, AtlasRow, AtlasSummaryRow};
use tilespace::Shape;
use tilespace::{analyze, report, AnalyzeOptions, Metric};

use super::groups::RunArgs;
use super::progress::Progress;
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
    let metrics = args.metric.metrics();
    for &shape in &args.boards {
        memory::check(shape, &metrics, args.run.max_memory)?;
    }
    tilespace::store::atomic::check_writable(&args.run.results)?;
    let pool = super::thread_pool(args.run.threads)?;
    let write_reports =
        |a: &tilespace::Analysis| report::write_all(&args.run.results, a).map(|_| ());
    let options = || AnalyzeOptions {
        max_memory: args.run.max_memory,
        reports: Some(&write_reports),
        ..AnalyzeOptions::default()
    };
    // A stop signal saves the cell in progress at the end of its layer (`--reuse` goes on
    // from it) and stops; the cells done are in the reports already.
    let stop = super::stop_on_signal(
        "saving the cell in progress at the end of this layer (signal again to stop at once)",
    )?;
    let (mut verified, mut json) = (true, vec![]);
    // With --reuse, the searches already in the reports (read once).
    let searched = match args.reuse {
        true => Some(tilespace::report::read_summary(
            &args.run.results.join("summary.csv"),
        )?),
        false => None,
    };
    for &shape in &args.boards {
        for &metric in &metrics {
            let mut classes = vec![];
            for cells in cell_classes(shape) {
                let goal = cells[0];
                if let Some(rows) = &searched {
                    if let Some(kept) = reused(rows, &args.run.results, shape, goal, metric)? {
                        eprintln!(
                            "tilespace: {shape} {metric} cell {}: read from {} (--reuse)",
                            shape.cell_label(goal),
                            kept.0
                        );
                        classes.push(CellFigures::from_layers(&kept.1, cells));
                        continue;
                    }
                }
                let total = tilespace::puzzle::count::reachable_u64(shape).unwrap_or(u64::MAX);
                let label = format!("{shape} {metric} cell {}", shape.cell_label(goal));
                let progress = Progress::new(args.run.quiet, total, &label);
                let on_layer = &|l| progress.layer(l);
                let name = tilespace::report::report_name_of(shape, goal, None, metric);
                let dir = args.run.results.join(CHECKPOINTS).join(&name);
                let saved = |_, _| {};
                let checkpoint = tilespace::store::checkpoint::Options {
                    dir: &dir,
                    every: std::time::Duration::MAX,
                    resume: args.reuse && tilespace::store::checkpoint::file(&dir).exists(),
                    from: None,
                    stop,
                    saved: &saved,
                };
                if checkpoint.resume {
                    eprintln!(
                        "tilespace: {label}: going on from {} (--reuse)",
                        dir.display()
                    );
                } else {
                    // Without --reuse every cell is searched anew: a cell saved before goes.
                    tilespace::store::checkpoint::remove(&dir)?;
                }
                let options = AnalyzeOptions {
                    checkpoint: Some(checkpoint),
                    ..options()
                };
                let puzzle = tilespace::Puzzle::board(shape, goal, metric)?;
                let a = pool.install(|| analyze(&puzzle, options, on_layer));
                progress.finish();
                let a = a.map_err(|e| stopped(e, &args))?;
                remove_checkpoint(&dir)?;
                classes.push(CellFigures::of(&a, cells));
            }
            let atlas = Atlas {
                puzzle: tilespace::Puzzle::board(shape, classes[0].cells[0], metric)?,
                classes,
            };
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
    }
    if args.json {
        super::print_json(&Document {
            atlases: json,
            verified,
        })?;
    }
    Ok(super::Status::of(verified))
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

/// The folder under `--results` of the checkpoints of cells stopped in progress, one folder a
/// cell (named as its reports' folder).
const CHECKPOINTS: &str = "atlas-checkpoints";

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

/// Removes a finished cell's checkpoint folder, and the checkpoints' folder once it is empty.
fn remove_checkpoint(dir: &std::path::Path) -> Result<()> {
    tilespace::store::resume::remove_others(dir, None, None)?;
    for d in [dir, dir.parent().expect("under --results")] {
        let _ = std::fs::remove_file(d.join(".checkpoint.lock"));
        let _ = std::fs::remove_dir(d);
    }
    Ok(())
}

/// The search from the goal with its blank in `goal` among `rows` (the summary under
/// `results`): where it is, and its states per depth; none if there is no verified row of it.
/// Its row and its depths.csv are checked as `table` checks them (a damaged report is an
/// error, not a reason to search again silently).
fn reused(
    rows: &[tilespace::report::SummaryRow],
    results: &std::path::Path,
    shape: tilespace::puzzle::board::Shape,
    goal: tilespace::puzzle::board::Cell,
    metric: Metric,
) -> Result<Option<(String, Vec<u64>)>> {
    let found = rows.iter().find(|r| {
        r.verified
            && r.start == "goal"
            && r.shape().is_ok_and(|s| s == shape)
            && r.goal_cell().is_ok_and(|g| g == goal)
            && r.metric == metric
    });
    let Some(row) = found else {
        return Ok(None);
    };
    let depths = tilespace::report::read_depths_of(results, row)?;
    let dir = results.join(row.report_dir()?);
    Ok(Some((
        dir.display().to_string(),
        depths.iter().map(|d| d.states).collect(),
    )))
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

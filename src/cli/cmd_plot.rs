//! `tilespace plot`: charts of the depth distributions already in the results directory, as
//! SVG (plotters) or as pgfplots code for LaTeX.

use std::io::Write;
use std::path::Path;
use std::path::PathBuf;

use anyhow::Result;
use clap::Args;
use tilespace::report;
use tilespace::report::atlas_map;
use tilespace::report::chart::{self, Series};
use tilespace::report::plot;
use tilespace::store::atomic::write_atomic;
use tilespace::Error;

use super::groups::Selection;
use super::BadArgument;

#[derive(Args, Debug)]
pub struct PlotArgs {
    /// Directory holding summary.csv and the boards' depths.csv
    #[arg(long, value_name = "DIR", default_value = "results")]
    pub results: PathBuf,
    /// Directory for the charts (default: RESULTS/plots)
    #[arg(long, value_name = "DIR")]
    pub charts: Option<PathBuf>,
    /// svg: SVG files (plotters); pgfplots: LaTeX code (a tikzpicture per file, for \input
    /// in a paper with the pgfplots package), which LaTeX typesets as vector graphics
    #[arg(long, value_enum, default_value_t = PlotFormat::Svg)]
    pub format: PlotFormat,
    /// Draw the overlay of all boards on a log scale too (overlay-log.svg)
    #[arg(long)]
    pub log: bool,
    #[command(flatten)]
    pub selection: Selection,
    /// Draw the atlas (atlas.csv, written by `tilespace atlas`) instead: each board and metric
    /// as a grid of its goal cells shaded by eccentricity and by mean (atlas-RxC-METRIC.svg)
    #[arg(long, conflicts_with_all = ["log", "blank", "reports"])]
    pub atlas: bool,
    /// Draw the goals of tokens searched instead (tokens-summary.csv, written by `analyze
    /// --goal`): a chart a run (tokens-FOLDER.svg) and their overlay
    #[arg(long, conflicts_with_all = ["atlas", "boards", "metric", "blank", "reports"])]
    pub tokens: bool,
}

/// The formats of `tilespace plot`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlotFormat {
    Svg,
    Pgfplots,
}

pub fn run(args: PlotArgs) -> Result<super::Status> {
    if args.atlas {
        return atlas(&args);
    }
    if args.tokens {
        let (all, names) = token_series(&args.results)?;
        return draw(&args, &all, &names);
    }
    let rows = args.selection.rows(super::analysed(&args.results)?)?;
    let mut all = Vec::new();
    let mut names = Vec::new();
    for row in &rows {
        let dir = row.report_dir()?;
        let depths = report::read_depths_of(&args.results, row)?;
        let from = if row.start == "goal" {
            String::new()
        } else {
            format!(", from {} ({} class)", row.start, row.class)
        };
        let mean = row
            .mean_depth_exact
            .parse::<tilespace::Fraction>()
            .map_err(BadArgument)?;
        let metric = row.metric;
        let moves = metric.adjective();
        all.push(Series {
            label: row.label(),
            metric,
            title: format!(
                "{} board, {moves} moves, goal blank at {}{from}: {} states, eccentricity {}, mean {}",
                row.board,
                row.goal_blank,
                row.states,
                row.eccentricity,
                mean.with_decimal(2)
            ),
            states: depths.iter().map(|d| d.states).collect(),
            counts: "states",
        });
        names.push(dir);
    }
    draw(&args, &all, &names)
}

/// The runs of `tokens-summary.csv` under `results` as series, and their charts' names.
fn token_series(results: &Path) -> Result<(Vec<Series>, Vec<String>)> {
    use tilespace::report::tokens::{read_token_depths, summary_path, TokensSummaryRow};
    let rows: Vec<TokensSummaryRow> = report::read_rows(&summary_path(results))?;
    if rows.is_empty() {
        anyhow::bail!(BadArgument(format!(
            "no goals of tokens in {}: run `tilespace analyze RxC --goal TOKENS --results {}` \
             first",
            summary_path(results).display(),
            results.display()
        )));
    }
    let mut all = vec![];
    for row in &rows {
        let mean = row
            .mean_depth_exact
            .parse::<tilespace::Fraction>()
            .map_err(BadArgument)?;
        let multi = row.metric.note().map_or(String::new(), |_| " multi".into());
        all.push(Series {
            label: format!("{}{multi} {}", row.puzzle, row.tokens),
            metric: row.metric,
            title: format!(
                "{}, tokens {}, {} moves: {} of {} arrangements reach the goal, eccentricity {}, \
                 mean {}",
                row.puzzle,
                row.tokens,
                row.metric.adjective(),
                row.reachable,
                row.arrangements,
                row.eccentricity,
                mean.with_decimal(2)
            ),
            states: read_token_depths(results, row)?,
            counts: "arrangements",
        });
    }
    let names = rows
        .iter()
        .map(|r| format!("tokens-{}", r.report))
        .collect();
    Ok((all, names))
}

/// The directory the charts go to (`--charts`, else `RESULTS/plots`), made if need be.
fn charts_dir(args: &PlotArgs) -> Result<PathBuf> {
    let out = args
        .charts
        .clone()
        .unwrap_or_else(|| args.results.join("plots"));
    std::fs::create_dir_all(&out).map_err(|e| Error::Write {
        path: out.clone(),
        source: e,
    })?;
    Ok(out)
}

/// Draws each of `all` as a chart named as `names` says, and their overlay, in the format
/// and directory `args` give; prints each file's path.
fn draw(args: &PlotArgs, all: &[Series], names: &[String]) -> Result<super::Status> {
    let out = charts_dir(args)?;
    let mut stdout = std::io::stdout().lock();
    let mut done = |path: &Path| writeln!(stdout, "{}", path.display());
    match args.format {
        PlotFormat::Svg => {
            for (series, name) in all.iter().zip(names) {
                let path = out.join(format!("{name}.svg"));
                plot::board(series, &path)?;
                done(&path)?;
            }
            if overlaid(all) {
                let path = out.join("overlay.svg");
                plot::overlay(all, false, &path)?;
                done(&path)?;
                if args.log {
                    let path = out.join("overlay-log.svg");
                    plot::overlay(all, true, &path)?;
                    done(&path)?;
                }
            }
        }
        PlotFormat::Pgfplots => {
            let command = "tilespace plot --format pgfplots";
            for (series, name) in all.iter().zip(names) {
                let path = out.join(format!("{name}.tex"));
                write_atomic(&path, chart::board(series, command).as_bytes())?;
                done(&path)?;
            }
            if overlaid(all) {
                let path = out.join("overlay.tex");
                write_atomic(&path, chart::overlay(all, false, command).as_bytes())?;
                done(&path)?;
                if args.log {
                    let path = out.join("overlay-log.tex");
                    write_atomic(&path, chart::overlay(all, true, command).as_bytes())?;
                    done(&path)?;
                }
            }
        }
    }
    Ok(super::Status::Done)
}

/// Whether `all` holds two runs or more to draw on shared axes; one would be its own chart
/// again, which is said on stderr instead.
fn overlaid(all: &[Series]) -> bool {
    if all.len() < 2 {
        eprintln!("tilespace: note: one run, so no overlay (it would repeat its own chart)");
    }
    all.len() >= 2
}

/// `plot --atlas`: a map of the goal cells per board and metric of `atlas.csv`.
fn atlas(args: &PlotArgs) -> Result<super::Status> {
    let maps = tilespace::report::atlas::read_atlas(&args.results)?.maps;
    if maps.is_empty() {
        anyhow::bail!(BadArgument(format!(
            "no atlas in {}: run `tilespace atlas RxC --results {}` first",
            args.results.display(),
            args.results.display()
        )));
    }
    let have: Vec<String> = maps.iter().map(|m| m.shape.to_string()).collect();
    args.selection.check_atlas(&have)?;
    let out = charts_dir(args)?;
    let mut stdout = std::io::stdout().lock();
    for map in &maps {
        let board = map.shape.to_string();
        if !args.selection.keeps_atlas(&board, map.metric) {
            continue;
        }
        let name = format!("atlas-{board}-{}", map.metric);
        let (path, text) = match args.format {
            PlotFormat::Svg => (out.join(format!("{name}.svg")), atlas_map::svg(map)),
            PlotFormat::Pgfplots => (
                out.join(format!("{name}.tex")),
                atlas_map::pgfplots(map, "tilespace plot --atlas --format pgfplots"),
            ),
        };
        write_atomic(&path, text.as_bytes())?;
        writeln!(stdout, "{}", path.display())?;
    }
    Ok(super::Status::Done)
}

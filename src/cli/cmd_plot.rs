//! `tilespace plot`: charts of the depth distributions already in the results directory, as
//! SVG (plotters) or as pgfplots code for LaTeX.

use std::io::Write;
use std::path::Path;

use anyhow::Result;
use tilespace::report;
use tilespace::report::chart::{self, Series};
use tilespace::report::plot;
use tilespace::store::atomic::write_atomic;
use tilespace::Error;

use super::args::{PlotArgs, PlotFormat};
use super::BadArgument;

pub fn run(args: PlotArgs) -> Result<super::Status> {
    let rows = super::chosen(super::analysed(&args.results)?, &args.boards)?;
    let out = args.out.unwrap_or_else(|| args.results.join("plots"));
    std::fs::create_dir_all(&out).map_err(|e| Error::Write {
        path: out.clone(),
        source: e,
    })?;
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
        all.push(Series {
            label: row.label(),
            title: format!(
                "{} board, goal blank at {}{from}: {} states, radius {}, mean {}",
                row.board,
                row.goal_blank,
                row.states,
                row.radius,
                mean.with_decimal(6)
            ),
            states: depths.iter().map(|d| d.states).collect(),
        });
        names.push(dir);
    }
    let mut stdout = std::io::stdout().lock();
    let mut done = |path: &Path| writeln!(stdout, "{}", path.display());
    match args.format {
        PlotFormat::Svg => {
            for (series, name) in all.iter().zip(&names) {
                let path = out.join(format!("{name}.svg"));
                plot::board(series, &path)?;
                done(&path)?;
            }
            let path = out.join("overlay.svg");
            plot::overlay(&all, false, &path)?;
            done(&path)?;
            if args.log {
                let path = out.join("overlay-log.svg");
                plot::overlay(&all, true, &path)?;
                done(&path)?;
            }
        }
        PlotFormat::Pgfplots => {
            let command = "tilespace plot --format pgfplots";
            for (series, name) in all.iter().zip(&names) {
                let path = out.join(format!("{name}.tex"));
                write_atomic(&path, chart::board(series, command).as_bytes())?;
                done(&path)?;
            }
            let path = out.join("overlay.tex");
            write_atomic(&path, chart::overlay(&all, false, command).as_bytes())?;
            done(&path)?;
            if args.log {
                let path = out.join("overlay-log.tex");
                write_atomic(&path, chart::overlay(&all, true, command).as_bytes())?;
                done(&path)?;
            }
        }
    }
    Ok(super::Status::Done)
}

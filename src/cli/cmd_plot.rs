//! `tilespace plot`: SVG charts of the depth distributions already in the results directory.

use std::io::Write;

use anyhow::Result;
use tilespace::report;
use tilespace::report::plot::{self, Series};
use tilespace::Error;

use super::args::PlotArgs;

pub fn run(args: PlotArgs) -> Result<super::Status> {
    let rows = super::analysed(&args.results)?;
    let out = args.out.unwrap_or_else(|| args.results.join("plots"));
    std::fs::create_dir_all(&out).map_err(|e| Error::Write {
        path: out.clone(),
        source: e,
    })?;
    let mut all = Vec::new();
    let mut stdout = std::io::stdout().lock();
    for row in &rows {
        let dir = row.report_dir()?;
        let depths = report::read_depths(&args.results.join(&dir).join("depths.csv"))?;
        let from = if row.start == "goal" {
            String::new()
        } else {
            format!(", from {} ({} class)", row.start, row.class)
        };
        let series = Series {
            label: if row.start == "goal" && dir == row.board {
                row.board.clone()
            } else if row.start == "goal" {
                format!("{} blank {}", row.board, row.goal_blank)
            } else {
                format!("{} from {}", row.board, row.start)
            },
            title: format!(
                "{} board, goal blank at {}{from}: {} states, radius {}, mean {}",
                row.board, row.goal_blank, row.states, row.radius, row.mean_depth
            ),
            states: depths.iter().map(|d| d.states).collect(),
        };
        let path = out.join(format!("{dir}.svg"));
        plot::board(&series, &path)?;
        writeln!(stdout, "{}", path.display())?;
        all.push(series);
    }
    let path = out.join("overlay.svg");
    plot::overlay(&all, false, &path)?;
    writeln!(stdout, "{}", path.display())?;
    if args.log {
        let path = out.join("overlay-log.svg");
        plot::overlay(&all, true, &path)?;
        writeln!(stdout, "{}", path.display())?;
    }
    Ok(super::Status::Done)
}

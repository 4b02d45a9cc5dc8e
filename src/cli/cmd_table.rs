//! `tilespace table`: the summary of every analysed board, their depth distributions, or the
//! counting theorem, for papers.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Result;
use clap::Args;
use tilespace::report::paper::{self, Column, Format, Rendered};

use super::groups::Selection;
use super::BadArgument;

/// The formats of `tilespace table`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableFormat {
    Markdown,
    Latex,
    Csv,
    Json,
}

#[derive(Args, Debug)]
pub struct TableArgs {
    /// Directory holding summary.csv (and theorem.csv, the boards' depths.csv)
    #[arg(long, value_name = "DIR", default_value = "results")]
    pub results: PathBuf,
    /// Output format (LaTeX: a table float that fits a one-column article page, with booktabs
    /// and siunitx)
    #[arg(long, value_enum, default_value_t = TableFormat::Markdown)]
    pub format: TableFormat,
    /// The same as --format json
    #[arg(long, conflicts_with = "format")]
    pub json: bool,
    /// Columns of the summary, comma-separated, or all: the fields of summary.csv, which CSV
    /// headers and JSON keys repeat: board, goal_blank, start, class, metric, states, verified,
    /// eccentricity, antipodes, depth_sum, mean_depth_exact, mean_depth, median_depth,
    /// max_width, depth_of_max_width [default: board,goal_blank,states,eccentricity,antipodes,
    /// mean_depth_exact,mean_depth; CSV and JSON: all]
    #[arg(long, value_name = "LIST", conflicts_with_all = ["distribution", "theorem"])]
    pub columns: Option<String>,
    #[command(flatten)]
    pub selection: Selection,
    /// The states at each depth, one column per board, instead of the summary
    #[arg(long)]
    pub distribution: bool,
    /// The counting theorem (theorem.csv) instead of the summary
    #[arg(long, conflicts_with_all = ["distribution", "boards", "metric", "blank", "reports"])]
    pub theorem: bool,
    /// The atlas (atlas-summary.csv, written by `tilespace atlas`): each board's diameter,
    /// radius and mean distance in each metric, instead of the summary
    #[arg(long, conflicts_with_all = ["distribution", "theorem", "columns", "blank", "reports"])]
    pub atlas: bool,
    /// The graphs analysed (graph-summary.csv, written by `analyze --graph`, with
    /// graph-atlas-summary.csv from `atlas --graph`) instead of the boards
    #[arg(long, conflicts_with_all = [
        "distribution", "theorem", "atlas", "columns", "blank", "reports", "boards", "metric"
    ])]
    pub graphs: bool,
    /// The goals of tokens searched (tokens-summary.csv, written by `analyze --goal`) instead
    /// of the boards: each puzzle's tokens (`1^4 2^4 3^4 4^3 0`), blanks, metric, arrangements
    /// and those that reach the goal, eccentricity, antipodes and mean
    #[arg(long, conflicts_with_all = ["atlas", "theorem", "graphs", "distribution"])]
    pub tokens: bool,
    /// With --atlas: each class of goal cells (atlas.csv), its eccentricity and mean
    #[arg(long, requires = "atlas")]
    pub cells: bool,
}

/// The named graphs of `graph-summary.csv`, with their atlases where there are some.
fn graphs(results: &std::path::Path, format: Format) -> Result<Rendered> {
    use tilespace::report::graph_summary::{GraphAtlasSummaryRow, GraphSummaryRow};
    let path = results.join("graph-summary.csv");
    let rows: Vec<GraphSummaryRow> = tilespace::report::read_rows(&path)?;
    if rows.is_empty() {
        anyhow::bail!(BadArgument(format!(
            "no graphs in {}: run `tilespace analyze --graph SPEC --results {}` first",
            path.display(),
            results.display()
        )));
    }
    let atlases: Vec<GraphAtlasSummaryRow> =
        tilespace::report::read_rows(&results.join("graph-atlas-summary.csv"))?;
    Ok(paper::graphs::render(&rows, &atlases, format)?)
}

pub fn run(args: TableArgs) -> Result<super::Status> {
    let format = match (args.json, args.format) {
        (true, _) | (_, TableFormat::Json) => Format::Json,
        (_, TableFormat::Markdown) => Format::Markdown,
        (_, TableFormat::Latex) => Format::Latex,
        (_, TableFormat::Csv) => Format::Csv,
    };
    let Rendered { text, warnings } = if args.tokens {
        let path = tilespace::report::tokens::summary_path(&args.results);
        let rows: Vec<tilespace::report::tokens::TokensSummaryRow> =
            tilespace::report::read_rows(&path)?;
        if rows.is_empty() {
            anyhow::bail!(BadArgument(format!(
                "no goals of tokens in {}: run `tilespace analyze RxC --goal TOKENS --results {}` \
                 first",
                path.display(),
                args.results.display()
            )));
        }
        paper::tokens::render(&rows, format)?
    } else if args.graphs {
        graphs(&args.results, format)?
    } else if args.atlas {
        atlas(&args, format)?
    } else if args.theorem {
        let path = args.results.join("theorem.csv");
        let rows = tilespace::report::read_theorem(&path)?;
        if rows.is_empty() {
            anyhow::bail!(BadArgument(format!(
                "no boards in {}: run `tilespace theorem RxC --results {}` first",
                path.display(),
                args.results.display()
            )));
        }
        paper::theorem::render(&rows, format)?
    } else {
        let rows = args.selection.rows(super::analysed(&args.results)?)?;
        if args.distribution {
            let boards = paper::depths::read_all(&args.results, &rows)?;
            paper::depths::render(&boards, format)?
        } else {
            let columns = args
                .columns
                .as_deref()
                .map(Column::parse_list)
                .transpose()?;
            paper::render(&rows, format, columns.as_deref())?
        }
    };
    for w in warnings {
        eprintln!("tilespace: warning: {w}");
    }
    std::io::stdout().lock().write_all(text.as_bytes())?;
    Ok(super::Status::Done)
}

/// The atlas's summary (or with `--cells` its classes of cells), of the boards asked for.
fn atlas(args: &TableArgs, format: Format) -> Result<Rendered> {
    let tilespace::report::atlas::AtlasReports { summary, cells, .. } =
        tilespace::report::atlas::read_atlas(&args.results)?;
    if summary.is_empty() && cells.is_empty() {
        anyhow::bail!(BadArgument(format!(
            "no atlas in {}: run `tilespace atlas RxC --results {}` first",
            args.results.display(),
            args.results.display()
        )));
    }
    let have: Vec<String> = summary.iter().map(|r| r.board.clone()).collect();
    args.selection.check_atlas(&have)?;
    // In the order asked for, else the reports' (by size).
    let chosen = &args.selection;
    if args.cells {
        let mut rows: Vec<_> = cells
            .into_iter()
            .filter(|r| chosen.keeps_atlas(&r.board, r.metric))
            .collect();
        rows.sort_by_key(|r| chosen.rank(&r.board));
        Ok(paper::atlas::render_cells(&rows, format)?)
    } else {
        let mut rows: Vec<_> = summary
            .into_iter()
            .filter(|r| chosen.keeps_atlas(&r.board, r.metric))
            .collect();
        rows.sort_by_key(|r| chosen.rank(&r.board));
        Ok(paper::atlas::render(&rows, format)?)
    }
}

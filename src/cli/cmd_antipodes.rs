//! `tilespace antipodes [RxC ...]`: the structure of the worst configurations, from the
//! antipodes in the results directory (boards not analysed yet are analysed first), and the
//! answer to Gong's question for every board with 2 rows.

use std::io::Write;

use anyhow::Result;
use clap::Args;
use tilespace::analysis::memory;
use tilespace::analysis::patterns::{self, AntipodePattern, GongRow};
use tilespace::report;
use tilespace::GoalBlank;
use tilespace::{analyze, AnalyzeOptions, Board, Cell, Shape};

use super::groups::RunArgs;
use super::progress::Progress;
use super::{counted, BadArgument};

#[derive(Args, Debug)]
pub struct AntipodesArgs {
    /// Board sizes (default: every board in the reports' summary.csv searched from the goal);
    /// a board not analysed yet is analysed first
    #[arg(value_name = "RxC")]
    pub boards: Vec<Shape>,
    /// Goal blank cell: last, first, center, R,C or a cell number (1-based)
    #[arg(long, value_name = "CELL", default_value = "last")]
    pub blank: GoalBlank,
    #[command(flatten)]
    pub run: RunArgs,
    /// Print one JSON document instead of text
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: AntipodesArgs) -> Result<super::Status> {
    let out = &args.run.results;
    let max_memory = args.run.max_memory;
    let mut jobs: Vec<(Shape, Cell)> = Vec::new();
    if args.boards.is_empty() {
        // The single-tile searches from a goal: the antipodes of the puzzle Gong asked about
        // (a multi-tile row's board and goal are a single-tile search's too, done once).
        for row in report::read_summary(&out.join("summary.csv"))? {
            if row.start == "goal" && row.metric == tilespace::report::gong::METRIC {
                jobs.push((row.shape()?, row.goal_cell()?));
            }
        }
        if jobs.is_empty() {
            anyhow::bail!(BadArgument(format!(
                "no boards analysed in {}: name boards, e.g. `tilespace antipodes 2x5`",
                out.display()
            )));
        }
    } else {
        for &shape in &args.boards {
            jobs.push((shape, args.blank.resolve(shape)?));
        }
    }
    tilespace::store::atomic::check_writable(out)?;
    let pool = super::thread_pool(args.run.threads)?;
    let mut gong = Vec::new();
    let mut docs = Vec::new();
    let mut stdout = std::io::stdout().lock();
    for (shape, goal) in jobs {
        let dir = out.join(shape.report_name(goal));
        let listed = dir.join("antipodes.csv");
        if !listed.exists() {
            memory::check(shape, &[report::gong::METRIC], max_memory)?;
            let expected = tilespace::puzzle::count::reachable_u64(shape).unwrap_or(u64::MAX);
            let progress = Progress::new(args.run.quiet, expected, &shape.to_string());
            let options = AnalyzeOptions {
                max_memory,
                ..Default::default()
            };
            let puzzle = tilespace::Puzzle::board(shape, goal, report::gong::METRIC)?;
            let a = pool.install(|| analyze(&puzzle, options, &|l| progress.layer(l)))?;
            progress.finish();
            report::write_all(out, &a)?;
        }
        let (antipodes, eccentricity) = read_reports(out, shape, goal)?;
        let rows: Vec<AntipodePattern> = antipodes
            .iter()
            .enumerate()
            .map(|(i, b)| patterns::pattern(i + 1, b, goal))
            .collect();
        let path = dir.join("antipode-patterns.csv");
        report::write_rows(&path, &rows)?;
        consistent_under_symmetries(&antipodes, goal)?;
        let gong_here = (shape.rows == 2).then(|| gong_row(shape, goal, &antipodes));
        if args.json {
            docs.push(BoardDocument {
                board: shape.to_string(),
                goal_blank: shape.cell_label(goal),
                eccentricity,
                antipodes: rows,
                gong: gong_here.clone(),
                report: path.display().to_string(),
            });
            gong.extend(gong_here);
            continue;
        }
        print_board(&mut stdout, shape, goal, eccentricity, &rows)?;
        if let Some(row) = gong_here {
            writeln!(
                stdout,
                "  Gong: tile k and tile k+{} share a column in every antipode? {}",
                shape.cols,
                if row.holds {
                    "holds".to_string()
                } else {
                    format!("fails: {}", row.why)
                }
            )?;
            gong.push(row);
        }
        writeln!(stdout, "  wrote: {}", path.display())?;
    }
    if !gong.is_empty() {
        let path = out.join("gong.csv");
        report::upsert_rows(&path, gong, |r: &GongRow| {
            let cells = r.board.parse::<Shape>().map_or(0, |s| s.cells());
            (cells, r.board.clone(), r.goal_blank.clone())
        })?;
        if !args.json {
            writeln!(
                stdout,
                "Gong's question, every 2-row board: {}",
                path.display()
            )?;
        }
    }
    if args.json {
        drop(stdout);
        super::print_json(&Document { boards: docs })?;
    }
    Ok(super::Status::Done)
}

/// `antipodes --json`.
#[derive(serde::Serialize)]
struct Document {
    boards: Vec<BoardDocument>,
}

/// One board of `antipodes --json`: its antipodes' patterns, Gong's question (2-row boards)
/// and the report written.
#[derive(serde::Serialize)]
struct BoardDocument {
    board: String,
    goal_blank: String,
    eccentricity: usize,
    antipodes: Vec<AntipodePattern>,
    gong: Option<GongRow>,
    report: String,
}

/// The antipodes and the eccentricity of the search of `shape` to `goal` from the reports under
/// `out`, checked against its row of `summary.csv` (which must be there).
fn read_reports(out: &std::path::Path, shape: Shape, goal: Cell) -> Result<(Vec<Board>, usize)> {
    let name = shape.report_name(goal);
    let listed = out.join(&name).join("antipodes.csv");
    let antipodes = report::read_antipodes(&listed, shape)?;
    let summary = out.join("summary.csv");
    let row = report::read_summary(&summary)?
        .into_iter()
        .find(|r| r.start == "goal" && r.report_dir().is_ok_and(|d| d == name))
        .ok_or_else(|| tilespace::Error::damaged(summary.clone(), format!("no row for {name}, whose reports are there (a damaged report: analyse the board again)")))?;
    let eccentricity = report::read_depths_of(out, &row)?.len() - 1;
    if antipodes.len() != row.antipodes {
        anyhow::bail!(tilespace::Error::damaged(listed.clone(), format!(
                    "{} antipodes, its row in summary.csv says {} (a damaged report: analyse the board again)",
                    antipodes.len(),
                    row.antipodes
                )));
    }
    Ok((antipodes, eccentricity))
}

fn gong_row(shape: Shape, goal: Cell, antipodes: &[Board]) -> GongRow {
    let found = patterns::gong_counterexample(antipodes, goal);
    GongRow {
        board: shape.to_string(),
        goal_blank: shape.cell_label(goal),
        antipodes: antipodes.len(),
        holds: found.is_none(),
        counterexample: found.as_ref().map_or(String::new(), |f| f.0.to_string()),
        why: found.map_or(String::new(), |f| f.1),
    }
}

/// A symmetry of the board that fixes the goal blank maps antipodes to antipodes; anything else
/// means a wrong antipode list.
fn consistent_under_symmetries(antipodes: &[Board], goal: Cell) -> Result<(), tilespace::Error> {
    let Some(first) = antipodes.first() else {
        return Ok(());
    };
    for s in patterns::symmetries(first.shape()) {
        if s.map[goal.0] != goal {
            continue;
        }
        for b in antipodes {
            let (img, _) = patterns::image(b, goal, &s);
            if !antipodes.contains(&img) {
                return Err(tilespace::Error::Check(format!(
                    "the {} image of antipode {b} is {img}, which is not an antipode",
                    s.name
                )));
            }
        }
    }
    Ok(())
}

fn print_board(
    out: &mut impl Write,
    shape: Shape,
    goal: Cell,
    eccentricity: usize,
    rows: &[AntipodePattern],
) -> std::io::Result<()> {
    writeln!(
        out,
        "{shape} (goal blank {}): {} at {}",
        shape.cell_label(goal),
        counted(rows.len() as u64, "antipode"),
        counted(eccentricity as u64, "move")
    )?;
    let none = |s: &str| {
        if s.is_empty() {
            "-".to_string()
        } else {
            s.to_string()
        }
    };
    for p in rows.iter().take(12) {
        writeln!(
            out,
            "  {:>3}  {}  goal row: {}; goal column: {}; columns kept: {}; rows kept: {}; \
             own image under: {}",
            p.antipode,
            p.board,
            none(&p.in_goal_row),
            none(&p.in_goal_column),
            yes(p.columns_kept),
            yes(p.rows_kept),
            none(&p.own_image_under)
        )?;
    }
    if rows.len() > 12 {
        writeln!(out, "  ... and {} more in the CSV", rows.len() - 12)?;
    }
    Ok(())
}

fn yes(b: bool) -> &'static str {
    if b {
        "yes"
    } else {
        "no"
    }
}

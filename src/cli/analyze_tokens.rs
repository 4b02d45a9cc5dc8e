//! `tilespace analyze RxC --goal TOKENS` and `analyze --graph SPEC --goal TOKENS`: the puzzle
//! of a goal whose labels repeat or that holds several blanks (pebble motion), every
//! arrangement it reaches searched and checked against the theorems.

use std::io::Write;

use anyhow::{bail, Result};
use tilespace::analysis::arrangements::{analyze_tokens, ArrangementAnalysis, TokenOptions};
use tilespace::graph::spec::NamedGraph;
use tilespace::index::puzzle::Ground;
use tilespace::puzzle::tokens::Tokens;

use super::cmd_analyze::AnalyzeArgs;
use super::progress::Progress;
use super::{counted, BadArgument};

/// At most this many antipodes are printed.
const SHOWN_ANTIPODES: usize = 8;

/// `analyze --goal TOKENS`, as JSON: counts as numbers, the mean as a fraction.
#[derive(serde::Serialize)]
struct TokensJson {
    puzzle: String,
    cells: usize,
    tokens: String,
    goal: String,
    blanks: usize,
    metric: &'static str,
    arrangements: u64,
    reachable: u64,
    predicted_reachable: Option<String>,
    predicted_classes: Option<String>,
    theorem: Option<tilespace::graph::pebbles::Source>,
    verified: bool,
    eccentricity: u32,
    antipodes: Vec<String>,
    mean: String,
    median: u32,
    depths: Vec<u64>,
    threads: usize,
    seconds: f64,
    table_bytes: u64,
}

/// One puzzle of tokens: a board's or a graph's.
pub fn run(args: &AnalyzeArgs, goal: &str, ranks: super::Ranks) -> Result<super::Status> {
    if ranks.is_some() {
        bail!(BadArgument(
            "a puzzle of tokens (--goal) is searched in one process: start it without mpirun \
             or srun"
                .into()
        ));
    }
    let (ground, label, folder) = ground_of(args)?;
    let tokens = match &ground {
        Ground::Board(shape) => Tokens::parse_board(goal, *shape)?,
        Ground::Graph(graph) => Tokens::parse(goal, graph.vertices())?,
    };
    let pool = super::thread_pool(args.run.threads)?;
    let save_table = args.save_table.as_deref();
    pool.install(|| {
        tilespace::analysis::arrangements::check_tokens(
            &ground,
            &tokens,
            args.metric,
            args.run.max_memory,
            save_table.is_some(),
        )
    })?;
    let dir =
        tilespace::report::tokens::token_dir(&args.run.results, &folder, &tokens, args.metric);
    // The folder is made before the search, so that one that cannot be is refused first; and
    // so is a table that cannot be written.
    std::fs::create_dir_all(&dir).map_err(|source| tilespace::Error::Write {
        path: dir.clone(),
        source,
    })?;
    if let Some(path) = save_table {
        tilespace::store::atomic::check_target(path)?;
        let parent = path.parent().filter(|d| !d.as_os_str().is_empty());
        tilespace::store::atomic::check_writable(parent.unwrap_or(std::path::Path::new(".")))?;
    }
    let most = tokens.arrangements().try_into().unwrap_or(u64::MAX);
    let checkpoint_dir = args.checkpoint.as_deref().or(args.resume.as_deref());
    let stop = match checkpoint_dir {
        Some(_) => None,
        None => Some(super::stop_on_signal(
            "the search of arrangements is abandoned",
        )?),
    };
    let progress = Progress::new(args.run.quiet, most, &label);
    let saved = |depth: u32, seconds: f64| {
        if let Some(dir) = checkpoint_dir {
            progress.message(&format!(
                "checkpoint after depth {depth} saved in {} ({seconds:.1} s)",
                dir.display()
            ));
        }
    };
    let checkpoint = super::cmd_analyze::checkpointing(args, checkpoint_dir, &saved)?;
    let a = pool.install(|| {
        analyze_tokens(
            &ground,
            &tokens,
            args.metric,
            TokenOptions {
                max_memory: args.run.max_memory,
                save_table,
                stop,
                checkpoint,
            },
            &|depth, seen| progress.reached(depth, seen),
        )
    });
    progress.finish();
    let a = a.map_err(|e| resumable(e, args, &label, &tokens, &ground))?;
    let json = TokensJson::of(&ground, &label, &a);
    let [depths, antipodes] =
        tilespace::report::tokens::write_token_reports(&dir, &a.distribution, &json.antipodes)?;
    let report = dir.file_name().map(|n| n.to_string_lossy().into_owned());
    let report = report.unwrap_or_default();
    let row = tilespace::report::tokens::TokensSummaryRow::of(&a, &label, &json.goal, &report);
    let summary = tilespace::report::tokens::upsert_tokens_summary(&args.run.results, row)?;
    let written = [depths, antipodes, summary];
    // The reports are written: the checkpoint (and the one it went on from) is done with.
    let moved = super::cmd_analyze::moved_from(args);
    for dir in checkpoint_dir.into_iter().chain(moved) {
        tilespace::store::checkpoint::remove(dir)?;
    }
    if args.json {
        super::print_json(&json)?;
    } else {
        print(&ground, &json, &a)?;
        let shown: Vec<String> = written
            .iter()
            .map(|p| p.as_path())
            .chain(save_table)
            .map(|p| p.display().to_string())
            .collect();
        writeln!(std::io::stdout().lock(), "  wrote: {}", shown.join(", "))?;
    }
    Ok(super::Status::of(a.verified))
}

/// The puzzle's ground, its name (the board size or the graph's SPEC) and the folder of its
/// reports.
fn ground_of(args: &AnalyzeArgs) -> Result<(Ground, String, String)> {
    Ok(match (&args.boards[..], &args.graph[..]) {
        ([shape], []) => (Ground::Board(*shape), shape.to_string(), shape.to_string()),
        ([], [spec]) => {
            let graph = NamedGraph::parse(spec)?.graph;
            let dir = tilespace::report::graph_summary::report_dir(
                std::path::Path::new(""),
                spec,
                &graph,
                graph.vertices() - 1,
            );
            let folder = dir
                .file_name()
                .map_or("graph".into(), |n| n.to_string_lossy().into_owned());
            (Ground::Graph(graph), spec.clone(), folder)
        }
        _ => bail!(BadArgument(
            "--goal names one puzzle's tokens: give one board size or one --graph".into()
        )),
    })
}

/// A search stopped by a signal after saving its checkpoint, said as the command that goes on
/// with it; any other error as it is.
fn resumable(
    err: tilespace::Error,
    args: &AnalyzeArgs,
    label: &str,
    goal: &Tokens,
    ground: &Ground,
) -> anyhow::Error {
    let tilespace::Error::Interrupted { depth, dir } = &err else {
        return err.into();
    };
    super::signals_settled();
    let mut command = match ground {
        Ground::Board(_) => format!("tilespace analyze {label}"),
        Ground::Graph(_) => format!("tilespace analyze --graph {label}"),
    };
    command += &format!(" --goal \"{}\"", written(ground, goal));
    if args.metric.note().is_some() {
        command += &format!(" --metric {}", args.metric);
    }
    if let Some(path) = &args.save_table {
        command += &format!(" --save-table {}", path.display());
    }
    let dir = dir.display();
    super::Stopped(format!(
        "interrupted after depth {depth}: checkpoint saved in {dir}; continue with: {command} \
         --resume {dir}"
    ))
    .into()
}

/// The tokens as the command line takes them: a board's rows split by `/`.
fn written(ground: &Ground, tokens: &Tokens) -> String {
    match ground {
        Ground::Board(shape) => tokens.rows(shape.cols),
        Ground::Graph(_) => tokens.to_string(),
    }
}

impl TokensJson {
    fn of(ground: &Ground, label: &str, a: &ArrangementAnalysis) -> TokensJson {
        let d = &a.distribution;
        TokensJson {
            puzzle: label.to_string(),
            cells: a.goal.len(),
            tokens: a.goal.notation(),
            goal: written(ground, &a.goal),
            blanks: a.goal.blanks(),
            metric: a.metric.adjective(),
            arrangements: a.arrangements,
            reachable: d.total(),
            predicted_reachable: a.predicted.as_ref().map(|p| p.goal.to_string()),
            predicted_classes: a.predicted.as_ref().map(|p| p.count().to_string()),
            theorem: a.predicted.as_ref().map(|p| p.theorem),
            verified: a.verified,
            eccentricity: d.eccentricity(),
            antipodes: a.antipodes.iter().map(|t| written(ground, t)).collect(),
            mean: d.mean().to_string(),
            median: d.median(),
            depths: d.layers.clone(),
            threads: a.threads,
            seconds: a.seconds,
            table_bytes: a.table_bytes,
        }
    }
}

fn print(ground: &Ground, j: &TokensJson, a: &ArrangementAnalysis) -> Result<()> {
    let mut out = std::io::stdout().lock();
    let check = match (&a.predicted, a.verified) {
        (Some(p), true) => format!(
            ", as {} says ({}), verified",
            p.theorem.statement(),
            counted_big(&p.count(), "class")
        ),
        (None, true) => ", verified (no theorem here predicts the classes)".to_string(),
        (Some(p), false) => format!(", NOT VERIFIED (predicted {})", p.goal),
        (None, false) => ", NOT VERIFIED".to_string(),
    };
    writeln!(
        out,
        "{} tokens {} (goal {}): {} of {} arrangements reach the goal{check}",
        j.puzzle, j.tokens, j.goal, j.reachable, j.arrangements
    )?;
    let d = &a.distribution;
    super::output::figures_line(&mut out, d, a.antipodes.len(), "arrangement")?;
    for t in a.antipodes.iter().take(SHOWN_ANTIPODES) {
        writeln!(out, "  antipode: {}", written(ground, t))?;
    }
    if a.antipodes.len() > SHOWN_ANTIPODES {
        writeln!(
            out,
            "  ... and {} more (--json lists them all)",
            a.antipodes.len() - SHOWN_ANTIPODES
        )?;
    }
    writeln!(
        out,
        "  {:.3} s on {} thread{}, {:.1} M arrangements/s, table {}",
        a.seconds,
        a.threads,
        if a.threads == 1 { "" } else { "s" },
        d.total() as f64 / a.seconds.max(1e-9) / 1e6,
        tilespace::units::human_bytes(a.table_bytes as f64),
    )?;
    Ok(())
}

fn counted_big(n: &num_bigint::BigUint, noun: &str) -> String {
    match u64::try_from(n) {
        Ok(n) => counted(n, noun),
        Err(_) => format!("{n} {noun}s"),
    }
}

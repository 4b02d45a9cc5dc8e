//! `tilespace theorem RxC`: enumerate both parity classes and print the theorem's verdicts.

use std::io::Write;

use anyhow::Result;
use clap::Args;
use tilespace::analysis::memory;
use tilespace::analysis::theorem::{self, Theorem};
use tilespace::report::theorem::TheoremVerdicts;
use tilespace::report::{self, TheoremRow};
use tilespace::AnalyzeOptions;
use tilespace::GoalBlank;
use tilespace::Shape;

use super::groups::RunArgs;
use super::progress::Progress;

#[derive(Args, Debug)]
pub struct TheoremArgs {
    /// Board sizes, e.g. 2x3 3x3 (as memory allows)
    #[arg(value_name = "RxC", required_unless_present_any = ["graph", "graph6"])]
    pub boards: Vec<Shape>,
    /// A graph to play on instead of a board (repeatable): grid:RxC, torus:RxC, cylinder:RxC,
    /// cycle:N, path:N, complete:N, complete:A,B, theta:A,B,C, theta0, petersen, hypercube:D,
    /// graph6:STRING, or a file (graph6 or an edge list `u v` a line); at most 12 vertices
    #[arg(long, value_name = "SPEC", conflicts_with = "boards")]
    pub graph: Vec<String>,
    /// Every graph of a graph6 file (nauty's output; - for stdin), the goal's blank on each
    /// graph's last vertex; writes graphs.csv and a summary by vertex count
    #[arg(long, value_name = "FILE", conflicts_with_all = ["boards", "graph", "blank"])]
    pub graph6: Option<std::path::PathBuf>,
    /// Goal blank cell: last, first, center, R,C or a cell number in reading order (1-based);
    /// on a graph last, first or a vertex number
    #[arg(
        long,
        value_name = "CELL",
        default_value = "last",
        conflicts_with = "goal"
    )]
    pub blank: GoalBlank,
    /// On a graph, the goal's tokens in the graph's vertex order (spaces or commas): labels
    /// that may repeat (one colour) and several blanks (0), e.g. "1 1 2 2 0 0"
    #[arg(long, value_name = "TOKENS", requires = "graph")]
    pub goal: Option<String>,
    /// With --graph6: the goals' numbers of blanks, each or a range (`2`, `1..6`; repeatable),
    /// the blanks on the last vertices and the tiles 1, 2, … on the others
    #[arg(long, value_name = "K", requires = "graph6", value_parser = blank_counts)]
    pub blanks: Vec<std::ops::RangeInclusive<usize>>,
    /// With --graph6: the first tiles in colour classes of these sizes (`2,2`: 1 1 2 2, the
    /// rest distinct)
    #[arg(long, value_name = "SIZES", requires = "graph6", value_parser = colour_sizes)]
    pub colours: Option<Colours>,
    #[command(flatten)]
    pub run: RunArgs,
    /// Print one JSON document instead of text
    #[arg(long)]
    pub json: bool,
}

/// `2` or `1..6`: a number of blanks, or a range of them.
fn blank_counts(text: &str) -> Result<std::ops::RangeInclusive<usize>, String> {
    let number = |t: &str| {
        t.trim()
            .parse::<usize>()
            .ok()
            .filter(|&k| k >= 1)
            .ok_or_else(|| {
                format!("'{text}' is not a number of blanks (1 or more) or a range like 1..6")
            })
    };
    match text.split_once("..") {
        Some((lo, hi)) => {
            let (lo, hi) = (number(lo)?, number(hi.trim_start_matches('='))?);
            if lo > hi {
                return Err(format!("'{text}' is an empty range"));
            }
            Ok(lo..=hi)
        }
        None => number(text).map(|k| k..=k),
    }
}

/// The sizes of a sweep's colour classes.
#[derive(Clone, Debug)]
pub struct Colours(Vec<usize>);

/// `2,2`: the sizes of the colour classes, each 2 or more.
fn colour_sizes(text: &str) -> Result<Colours, String> {
    text.split(',')
        .map(|t| {
            t.trim()
                .parse::<usize>()
                .ok()
                .filter(|&m| m >= 2)
                .ok_or_else(|| {
                    format!(
                        "'{text}' is not a list of colour class sizes, each 2 or more, like 2,2"
                    )
                })
        })
        .collect::<Result<Vec<usize>, String>>()
        .map(Colours)
}

pub fn run(args: TheoremArgs) -> Result<super::Status> {
    if let Some(file) = &args.graph6 {
        let sweep = super::theorem_graph::Sweep {
            blanks: args.blanks.clone(),
            colours: args.colours.clone().map_or(vec![], |c| c.0),
        };
        return super::theorem_graph::list(file, &sweep, &args.run, args.json);
    }
    if !args.graph.is_empty() {
        let goal = super::theorem_graph::Goal {
            blank: args.blank,
            tokens: args.goal.clone(),
        };
        return super::theorem_graph::graphs(&args.graph, &goal, &args.run, args.json);
    }
    let blank = args.blank;
    let max_memory = args.run.max_memory;
    let mut jobs = vec![];
    for &shape in &args.boards {
        memory::check(shape, &[tilespace::Metric::Single], max_memory)?;
        jobs.push((shape, blank.resolve(shape)?));
    }
    tilespace::store::atomic::check_writable(&args.run.results)?;
    let pool = super::thread_pool(args.run.threads)?;
    let options = AnalyzeOptions {
        max_memory,
        ..Default::default()
    };
    let path = args.run.results.join("theorem.csv");
    let mut all = true;
    let mut docs = vec![];
    for (shape, goal) in jobs {
        let total = 2 * tilespace::puzzle::count::reachable_u64(shape).unwrap_or(u64::MAX / 2);
        let progress = Progress::new(args.run.quiet, total, &shape.to_string());
        let half = total / 2;
        let t = pool.install(|| {
            theorem::verify(shape, goal, options, &|class, l| {
                progress.layer(tilespace::LayerDone {
                    seen: u64::from(class) * half + l.seen,
                    ..l
                })
            })
        })?;
        progress.finish();
        report::upsert_theorem(&path, TheoremRow::rows(&t))?;
        if args.json {
            docs.push(TheoremVerdicts::of(&t));
        } else {
            print(&t)?;
        }
        all &= t.holds();
    }
    if args.json {
        #[derive(serde::Serialize)]
        struct Document {
            theorems: Vec<TheoremVerdicts>,
            holds: bool,
            report: String,
        }
        super::print_json(&Document {
            theorems: docs,
            holds: all,
            report: path.display().to_string(),
        })?;
    } else {
        writeln!(std::io::stdout(), "wrote: {}", path.display())?;
    }
    Ok(super::Status::of(all))
}

fn print(t: &Theorem) -> Result<()> {
    let mut out = std::io::stdout().lock();
    let n = t.shape.cells();
    let verdict = |ok: bool| if ok { "holds" } else { "FAILS" };
    writeln!(
        out,
        "{} (goal blank {}): {}! = {} configurations",
        t.shape,
        t.shape.cell_label(t.goal),
        n,
        tilespace::puzzle::count::counts(t.shape).total
    )?;
    if t.shape.is_line() {
        return print_line(t);
    }
    for c in &t.classes {
        writeln!(
            out,
            "  {:<10} from {}: {} states reached (expected {}!/2 = {}), eccentricity {}, parity test {}",
            tilespace::puzzle::parity::Class::of(c.class),
            c.start,
            c.analysis.states(),
            n,
            c.expected,
            c.analysis.distribution.eccentricity(),
            if c.parity_test_agrees {
                "agrees on every state"
            } else {
                "DISAGREES"
            }
        )?;
    }
    writeln!(
        out,
        "  each class has exactly {n}!/2 states: {}",
        verdict(t.halves())
    )?;
    writeln!(
        out,
        "  the classes are disjoint (parity test separates them): {}",
        verdict(t.disjoint())
    )?;
    writeln!(
        out,
        "  each class is one connected component: {}",
        verdict(t.components())
    )?;
    writeln!(out, "  theorem: {}", verdict(t.holds()))?;
    Ok(())
}

/// A line's theorem: each tile order is its own component of n configurations.
fn print_line(t: &Theorem) -> Result<()> {
    let mut out = std::io::stdout().lock();
    let n = t.shape.cells();
    let verdict = |ok: bool| if ok { "holds" } else { "FAILS" };
    for c in &t.classes {
        writeln!(
            out,
            "  from {}: {} states reached (expected n = {n}), eccentricity {}, {}",
            c.start,
            c.analysis.states(),
            c.analysis.distribution.eccentricity(),
            if c.parity_test_agrees {
                "all with the start's tile order"
            } else {
                "SOME WITH ANOTHER ORDER"
            }
        )?;
    }
    writeln!(
        out,
        "  a line is not covered by the {n}!/2 count (it needs R, C >= 2): no tile passes another"
    )?;
    writeln!(
        out,
        "  each tile order is one component of exactly {n} configurations ({n}! / {n} = {}! \
         components): {}",
        n - 1,
        verdict(t.holds())
    )?;
    writeln!(out, "  theorem: {}", verdict(t.holds()))?;
    Ok(())
}

//! `tilespace sample RxC --count N --pdb DIR`: uniformly random boards solved optimally; the
//! estimated distribution and mean, with a 95% confidence interval.

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::Result;
use clap::Args;
use rayon::prelude::*;
use tilespace::optimal::heuristic::Heuristic;
use tilespace::optimal::ida::{self, Limits};
use tilespace::optimal::positions::{self, Position, PositionsFile};
use tilespace::optimal::sample::{boards, estimate, Estimate};
use tilespace::Error;
use tilespace::Metric;
use tilespace::Shape;

use super::values::{at_least_one_u64, thread_count};
use super::BadArgument;

#[derive(Args, Debug)]
pub struct SampleArgs {
    /// Board size, e.g. 4x4
    #[arg(value_name = "RxC")]
    pub board: Shape,
    /// Pattern databases for the board, built by `tilespace pdb RxC ... --out DIR`; repeat for
    /// several partitions (the largest of their sums is taken)
    #[arg(long, value_name = "DIR", required = true)]
    pub pdb: Vec<PathBuf>,
    /// How many random boards
    #[arg(long, value_name = "N", value_parser = at_least_one_u64)]
    pub count: u64,
    /// How moves are counted: single only (pattern databases are not admissible in the
    /// multi-tile metric)
    #[arg(long, value_name = "METRIC", default_value = "single")]
    pub metric: Metric,
    /// Seed: the same seed gives the same boards and estimate (default: from the clock)
    #[arg(long, value_name = "SEED")]
    pub seed: Option<u64>,
    /// Boards solved at once (default: all cores)
    #[arg(long, short = 'j', value_name = "N", value_parser = thread_count)]
    pub threads: Option<usize>,
    /// Give up on a board after N nodes (the sample then fails: a sample without its hardest
    /// boards is biased)
    #[arg(long, value_name = "N", value_parser = at_least_one_u64)]
    pub max_nodes: Option<u64>,
    /// Write every board with its distance, nodes and seconds to FILE (CSV), each as soon as
    /// it is solved (a stopped or crashed sample keeps them)
    #[arg(long, value_name = "FILE")]
    pub positions: Option<PathBuf>,
    /// Go on from the boards already in the --positions FILE (same board, seed and count)
    #[arg(long, requires = "positions")]
    pub resume: bool,
    /// No progress display on stderr
    #[arg(long, short)]
    pub quiet: bool,
    /// Print one JSON document instead of text
    #[arg(long, conflicts_with = "csv")]
    pub json: bool,
    /// Print the boards with their distances as CSV instead of the summary
    #[arg(long)]
    pub csv: bool,
}

/// The pattern databases of `args`, for its board, in the single-tile metric.
fn databases(args: &SampleArgs) -> Result<Heuristic> {
    if !args.metric.patterns_admissible() {
        anyhow::bail!(BadArgument(
            "sample solves with pattern databases, which are not admissible in the multi-tile \
             metric (one move can carry tiles of several patterns): its distributions are \
             single-tile; `analyze RxC --metric multi` enumerates a board whole"
                .into()
        ));
    }
    let h = Heuristic::open_all(&args.pdb)?;
    if args.board != h.shape {
        anyhow::bail!(BadArgument(format!(
            "{}: the pattern databases in {} are for {}",
            args.board,
            args.pdb[0].display(),
            h.shape
        )));
    }
    Ok(h)
}

pub fn run(args: SampleArgs) -> Result<super::Status> {
    let h = databases(&args)?;
    let seed = super::seed_or_clock(args.seed);
    // The boards are drawn first, in order from the seed (so the sample does not depend on the
    // threads), then solved in parallel; they and their answers must fit.
    let count = usize::try_from(args.count).unwrap_or(usize::MAX);
    let room = count as f64 * (2.0 * h.shape.cells() as f64 + 64.0);
    tilespace::analysis::memory::room_for(room, None).map_err(|limit| Error::NoRoom {
        what: format!("a sample of {} boards", args.count),
        needed: room.round() as u64,
        limit,
    })?;
    if let Some(path) = &args.positions {
        apart_from_databases(path, &args.pdb)?;
    }
    let drawn = boards(h.shape, h.goal, args.count, seed);
    // With --positions, each solved board's row is in the file as soon as it is solved.
    let (journal, found) = match &args.positions {
        Some(path) => {
            let (j, found, torn) = PositionsFile::open(path, args.resume, &drawn, h.goal, &h)?;
            if torn {
                eprintln!(
                    "tilespace: {}: an incomplete last line (a cut-off write) is dropped",
                    path.display()
                );
            }
            let kept = found.iter().flatten().count();
            if kept > 0 && !args.quiet {
                eprintln!(
                    "tilespace: {kept} of {} boards already solved in {}",
                    args.count,
                    path.display()
                );
            }
            (Some(j), found)
        }
        None => (None, vec![None; drawn.len()]),
    };
    let resumed = found.iter().flatten().count();
    let stop = super::stop_on_signal("the boards being solved are abandoned")?;
    let limits = Limits {
        max_nodes: args.max_nodes,
        stop: Some(stop),
    };
    if let Some(path) = &args.positions {
        positions::recheck(path, &found, |i| {
            ida::solve(&h, &drawn[i], limits).map(|s| s.moves.len() as u32)
        })?;
    }
    let bar = super::progress::Items::new(args.quiet, args.count, &format!("{}", h.shape));
    bar.skip(resumed as u64);
    let started = Instant::now();
    let pool = super::thread_pool(args.threads)?;
    let todo: Vec<usize> = (0..drawn.len()).filter(|&i| found[i].is_none()).collect();
    let new: Result<Vec<(usize, Position)>, Error> = pool.install(|| {
        todo.par_iter()
            .map(|&i| {
                let t = Instant::now();
                let s = ida::solve(&h, &drawn[i], limits)?;
                let p = Position {
                    board: drawn[i].to_string(),
                    distance: s.moves.len() as u32,
                    nodes: s.expanded,
                    seconds: t.elapsed().as_secs_f64(),
                };
                if let Some(j) = &journal {
                    j.append(&p)?;
                }
                bar.inc();
                // The tests' hook (one thread: the boards are solved in order).
                super::progress::hold_if_asked(i as u32);
                Ok((i, p))
            })
            .collect()
    });
    bar.finish();
    let new = match (new, &args.positions) {
        (Err(e @ (Error::Stopped(_) | Error::GaveUp(_) | Error::Write { .. })), Some(path)) => {
            return Err(unfinished(e, &args, seed, path))
        }
        (result, _) => result?,
    };
    let mut found = found;
    for (i, p) in new {
        found[i] = Some(p);
    }
    let solved: Vec<Position> = found.into_iter().flatten().collect();
    let run = Run {
        seed,
        resumed,
        wall: started.elapsed().as_secs_f64(),
        threads: pool.current_num_threads(),
    };
    print(&args, &h, &solved, &run)?;
    if let Some(j) = journal {
        j.finish(&solved)?;
    }
    Ok(super::Status::Done)
}

/// Refuses a positions file that is one of the databases read.
fn apart_from_databases(positions: &std::path::Path, pdb: &[std::path::PathBuf]) -> Result<()> {
    let mut roles = tilespace::store::roles::Roles::new();
    for dir in pdb {
        for file in Heuristic::files(dir)? {
            roles.reads("a pattern database (--pdb)", &file);
        }
    }
    roles
        .writes("the positions file (--positions)", positions)
        .check()?;
    Ok(())
}

/// How the sample's run went, for its report.
#[derive(Clone, Copy)]
struct Run {
    seed: u64,
    resumed: usize,
    wall: f64,
    threads: usize,
}

/// Prints the sample's estimate (text or JSON) or its positions (`--csv`).
fn print(args: &SampleArgs, h: &Heuristic, solved: &[Position], run: &Run) -> Result<()> {
    let distances: Vec<u32> = solved.iter().map(|p| p.distance).collect();
    let e = estimate(&distances);
    // Exact for any count of rows of up to 2^64 - 1 nodes each.
    let nodes: u128 = solved.iter().map(|p| u128::from(p.nodes)).sum();
    let searched: f64 = solved.iter().map(|p| p.seconds).sum();
    let goal = h.shape.cell_label(h.goal);
    if args.csv {
        std::io::stdout()
            .lock()
            .write_all(positions::csv(solved).as_bytes())?;
    } else if args.json {
        #[derive(serde::Serialize)]
        struct Depth {
            distance: usize,
            boards: u64,
            fraction: f64,
        }
        #[derive(serde::Serialize)]
        struct Document<'a> {
            board: String,
            goal_blank: String,
            seed: u64,
            count: u64,
            mean: f64,
            ci95: [f64; 2],
            std_dev: f64,
            distribution: Vec<Depth>,
            nodes: u128,
            search_seconds: f64,
            seconds: f64,
            threads: usize,
            resumed: usize,
            positions: &'a [Position],
        }
        super::print_json(&Document {
            board: h.shape.to_string(),
            goal_blank: goal,
            seed: run.seed,
            count: e.count,
            mean: e.mean,
            ci95: [e.ci95.0, e.ci95.1],
            std_dev: e.std_dev,
            distribution: e
                .histogram
                .iter()
                .enumerate()
                .filter(|(_, &n)| n > 0)
                .map(|(d, &n)| Depth {
                    distance: d,
                    boards: n,
                    fraction: n as f64 / e.count as f64,
                })
                .collect(),
            nodes,
            search_seconds: searched,
            seconds: run.wall,
            threads: run.threads,
            resumed: run.resumed,
            positions: solved,
        })?;
    } else {
        print_text(h, &e, run, nodes, searched)?;
    }
    Ok(())
}

/// The estimate as text: the sample, the mean with its interval, the search, the distribution.
fn print_text(h: &Heuristic, e: &Estimate, run: &Run, nodes: u128, searched: f64) -> Result<()> {
    let Run {
        seed,
        resumed,
        wall,
        threads,
    } = *run;
    let goal = h.shape.cell_label(h.goal);
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "{} (goal blank {goal}): {} uniformly random solvable boards (seed {seed}), each solved optimally",
        h.shape, e.count
    )?;
    writeln!(
        out,
        "mean {:.3}, 95% confidence interval [{:.3}, {:.3}], standard deviation {:.3}",
        e.mean, e.ci95.0, e.ci95.1, e.std_dev
    )?;
    writeln!(
        out,
        "IDA*: {nodes} nodes expanded ({:.0} per board), {searched:.1} s of search summed over the boards{}",
        nodes as f64 / e.count as f64,
        match e.count as usize - resumed {
            0 => "; all read from the positions file".to_string(),
            new => format!(
                "; {wall:.1} s wall on {} threads{}",
                threads,
                if resumed > 0 {
                    format!(" for the {new} boards not already in the positions file")
                } else {
                    String::new()
                }
            ),
        }
    )?;
    writeln!(out, "distance,boards,fraction")?;
    for (d, &n) in e.histogram.iter().enumerate().filter(|(_, &n)| n > 0) {
        writeln!(out, "{d},{n},{:.6}", n as f64 / e.count as f64)?;
    }
    Ok(())
}

/// A sample stopped (Ctrl-C), given up (--max-nodes) or failing to write (a full disk) with
/// its solved boards in `path`: what to type to go on.
fn unfinished(err: Error, args: &SampleArgs, seed: u64, path: &std::path::Path) -> anyhow::Error {
    let pdb: String = args
        .pdb
        .iter()
        .map(|d| format!(" --pdb {}", d.display()))
        .collect();
    let command = format!(
        "tilespace sample {}{pdb} --count {} --seed {seed} --positions {} --resume",
        args.board,
        args.count,
        path.display()
    );
    let kept = format!("the boards solved are kept in {}", path.display());
    match err {
        Error::Stopped(_) => {
            super::Stopped(format!("stopped: {kept}; continue with: {command}")).into()
        }
        Error::GaveUp(why) => Error::GaveUp(format!(
            "{why}; {kept}; continue with a larger limit: {command} --max-nodes N"
        ))
        .into(),
        e => anyhow::anyhow!("{e}; {kept}; continue with: {command}"),
    }
}

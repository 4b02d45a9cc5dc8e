//! `tilespace plan RxC --ranks P [--mem-per-rank SIZE]`: what a run across MPI ranks needs,
//! without MPI and without running it.

use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::Result;
use clap::Args;
use tilespace::analysis::disk_plan::{plan_disk, project_disk, DiskPlan, DiskPlanFigures};
use tilespace::analysis::job_script::{job_script, SlurmJob};
use tilespace::analysis::memory;
use tilespace::analysis::memory::ranks_needed;
use tilespace::analysis::plan::{calibrate, plan, project, Calibration, Plan, PlanFigures};
use tilespace::dist::Budget;
use tilespace::units::{duration_words, human_bytes};
use tilespace::Shape;

use super::values::{
    at_least_one, disk_rate, layer_count, network_rate, plan_samples, planned_threads, rank_count,
};

#[derive(Args, Debug)]
pub struct PlanArgs {
    /// Board sizes, e.g. 3x5 4x4 2x8
    #[arg(value_name = "RxC", required = true)]
    pub boards: Vec<Shape>,
    /// Ranks of the planned run (several: comma-separated)
    #[arg(long, value_name = "P,...", value_delimiter = ',', default_value = "16", value_parser = rank_count())]
    pub ranks: Vec<usize>,
    /// Memory of one rank (e.g. 64G): also say how many such ranks each board needs
    #[arg(long, value_name = "SIZE", value_parser = memory::parse_size)]
    pub mem_per_rank: Option<u64>,
    /// Random states sampled to measure the moves that cross ranks
    #[arg(long, value_name = "N", default_value = "1000000", value_parser = plan_samples())]
    pub samples: usize,
    /// Measure this machine's engine rates first (a one-rank search of --calibration-board) and
    /// save them to the calibration file
    #[arg(long)]
    pub calibrate: bool,
    /// The board --calibrate searches (2x6: 3 s; 2x7: a 10.9 GB table, memory-bound, 15 min)
    #[arg(long, value_name = "RxC", default_value = "2x6")]
    pub calibration_board: Shape,
    /// The calibration file the projection reads (and --calibrate writes)
    #[arg(long, value_name = "FILE", default_value = "results/calibration.csv")]
    pub calibration: PathBuf,
    /// Threads of each rank of the planned run (with --disk: of its one process)
    #[arg(long, visible_alias = "threads", value_name = "N", default_value = "32", value_parser = planned_threads())]
    pub threads_per_rank: usize,
    /// Plan a search with its table on disk in one process (`analyze --disk`): the shards, the
    /// disk it needs, the bytes it moves and its time at --disk-gbps
    #[arg(long, conflicts_with_all = ["sbatch", "mem_per_rank", "ranks", "network_gbits"])]
    pub disk: bool,
    /// With --disk: the memory the search may hold (default: this machine's available memory)
    #[arg(long, value_name = "SIZE", value_parser = memory::parse_size, requires = "disk")]
    pub max_memory: Option<u64>,
    /// With --disk: what the disk reads and writes per second, in gigabytes
    #[arg(long, value_name = "GB", default_value = "3", requires = "disk", value_parser = disk_rate)]
    pub disk_gbps: f64,
    /// Layers of the search (the goal's eccentricity + 1): 4x4 has 81 (Korf and Schultze 2005)
    #[arg(long, value_name = "N", default_value = "100", value_parser = layer_count())]
    pub layers: u32,
    /// What each rank sends per second, in gigabits (the interconnect)
    #[arg(long, value_name = "GBIT", default_value = "100", value_parser = network_rate)]
    pub network_gbits: f64,
    /// Print a Slurm job script for the board on --ranks ranks (docs/slurm/analyze.sbatch with
    /// its #SBATCH lines filled in: memory, time limit, threads), instead of the plan
    #[arg(long, conflicts_with = "json")]
    pub sbatch: bool,
    /// The job's time limit (with --sbatch), e.g. 24h, 2d
    #[arg(long, value_name = "DURATION", default_value = "24h", value_parser = memory::parse_duration)]
    pub time_limit: Duration,
    /// Ranks on one node (with --sbatch)
    #[arg(long, value_name = "N", default_value = "1", value_parser = at_least_one)]
    pub ranks_per_node: usize,
    /// Print one JSON document on stdout instead of text
    #[arg(long)]
    pub json: bool,
}

/// `plan --json`: the plans, and with `--mem-per-rank` the ranks each board needs.
#[derive(serde::Serialize)]
struct RankPlans {
    plans: Vec<PlanFigures>,
    samples: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    mem_per_rank: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    ranks_needed: Option<Vec<Needed>>,
}

/// A board and the ranks of `--mem-per-rank` it needs (none if no number of them fits it).
#[derive(serde::Serialize)]
struct Needed {
    board: String,
    ranks: Option<u64>,
}

pub fn run(args: PlanArgs) -> Result<super::Status> {
    let buffers = Budget::default().bytes();
    let calibration = calibration(&args)?;
    if args.disk {
        return on_disk(&args, calibration.as_ref());
    }
    if args.sbatch {
        let ([shape], [ranks]) = (args.boards.as_slice(), args.ranks.as_slice()) else {
            anyhow::bail!(super::BadArgument(
                "--sbatch writes one job: give one board and one --ranks".into()
            ));
        };
        let p = plan(*shape, *ranks, buffers, args.samples as u64)?;
        print!("{}", sbatch(&args, &p, calibration.as_ref())?);
        return Ok(super::Status::Done);
    }
    let mut plans = vec![];
    for &shape in &args.boards {
        for &ranks in &args.ranks {
            plans.push(plan(shape, ranks, buffers, args.samples as u64)?);
        }
    }
    let needs: Vec<Option<u64>> = args
        .boards
        .iter()
        .map(|&s| {
            args.mem_per_rank
                .and_then(|m| ranks_needed(s, m as f64, buffers))
        })
        .collect();
    if args.json {
        let needed = args.boards.iter().zip(&needs).map(|(s, &n)| Needed {
            board: s.to_string(),
            ranks: n,
        });
        super::print_json(&RankPlans {
            plans: plans.iter().map(Plan::figures).collect(),
            samples: args.samples,
            mem_per_rank: args.mem_per_rank,
            ranks_needed: args.mem_per_rank.map(|_| needed.collect()),
        })?;
        return Ok(super::Status::Done);
    }
    let mut out = std::io::stdout().lock();
    for p in &plans {
        print_plan(&mut out, p)?;
        if let Some(cal) = &calibration {
            let network = args.network_gbits * 1e9 / 8.0;
            let t = project(p, cal, args.threads_per_rank, args.layers, network);
            writeln!(
                out,
                "  projected, at best: {} = expand {} + scan {} + exchange {} ({} threads a rank, \
                 {} layers, {} Gbit/s)",
                duration_words(t.total()),
                duration_words(t.expand),
                duration_words(t.scan),
                duration_words(t.exchange),
                args.threads_per_rank,
                args.layers,
                args.network_gbits
            )?;
        }
    }
    print_rates(
        &mut out,
        &args,
        calibration.as_ref(),
        "A lower bound: it assumes every thread of a rank runs as fast as one here, which memory \
         bandwidth does not allow once a node's threads share it",
    )?;
    if let Some(m) = args.mem_per_rank {
        for (shape, need) in args.boards.iter().zip(&needs) {
            match need {
                Some(n) => writeln!(
                    out,
                    "{shape} needs at least {n} ranks of {} ({} each for the table)",
                    human_bytes(m as f64),
                    human_bytes(tilespace::analysis::memory::table_bytes(*shape) / *n as f64)
                )?,
                None => writeln!(
                    out,
                    "{shape}: a rank of {} does not hold its buffers and working memory",
                    human_bytes(m as f64)
                )?,
            }
        }
    }
    Ok(super::Status::Done)
}

/// `plan RxC --disk`: each board's search with its table on disk in one process of
/// `--max-memory`, and its projected time on `--threads` threads at `--disk-gbps`.
fn on_disk(args: &PlanArgs, calibration: Option<&Calibration>) -> Result<super::Status> {
    let memory = match args.max_memory {
        Some(m) => m,
        None => tilespace::analysis::memory::available_bytes().ok_or_else(|| {
            super::BadArgument("the memory available is unknown here: give --max-memory".into())
        })?,
    };
    let bandwidth = args.disk_gbps * 1e9;
    let mut plans = vec![];
    for &shape in &args.boards {
        let p = plan_disk(shape, memory, args.samples as u64)?;
        let t =
            calibration.map(|c| project_disk(&p, c, args.threads_per_rank, args.layers, bandwidth));
        plans.push((p, t));
    }
    if args.json {
        #[derive(serde::Serialize)]
        struct Document {
            disk_plans: Vec<DiskPlanFigures>,
            samples: usize,
        }
        let disk_plans = plans
            .iter()
            .map(|(p, t)| p.figures(t.as_ref(), args.threads_per_rank, args.layers, bandwidth))
            .collect();
        super::print_json(&Document {
            disk_plans,
            samples: args.samples,
        })?;
        return Ok(super::Status::Done);
    }
    let mut out = std::io::stdout().lock();
    for (p, t) in &plans {
        print_disk_plan(&mut out, p)?;
        if let Some(t) = t {
            writeln!(
                out,
                "  projected: {} = disk {} ({} moved at {} GB/s) + expand {} + scan {} ({} \
                 threads, {} passes)",
                duration_words(t.total()),
                duration_words(t.disk),
                human_bytes(t.bytes),
                args.disk_gbps,
                duration_words(t.expand),
                duration_words(t.scan),
                args.threads_per_rank,
                t.passes
            )?;
        }
    }
    print_rates(
        &mut out,
        args,
        calibration,
        "The disk's part is an upper bound (every shard read and written in every pass); the \
         engine's a lower bound (threads as fast as one here)",
    )?;
    Ok(super::Status::Done)
}

/// The line under the plans: the calibration's rates and what `bound` says of the projection,
/// or why there is no projection.
fn print_rates(
    out: &mut impl Write,
    args: &PlanArgs,
    calibration: Option<&Calibration>,
    bound: &str,
) -> Result<()> {
    match calibration {
        Some(cal) => writeln!(
            out,
            "rates per thread from {} (a one-rank search of {} on {} threads): {:.1} M states/s \
             expanded, {:.0} M table words/s scanned. {bound}",
            args.calibration.display(),
            cal.board,
            cal.threads,
            cal.states_per_second / 1e6,
            cal.words_per_second / 1e6
        )?,
        None => writeln!(
            out,
            "no projected time: {} does not exist (run `tilespace plan ... --calibrate` to measure \
             this machine's rates)",
            args.calibration.display()
        )?,
    }
    Ok(())
}

fn print_disk_plan(out: &mut impl Write, p: &DiskPlan) -> Result<()> {
    writeln!(
        out,
        "{} on disk, one process in {}: {} states, table {} in {} shard{} of {}",
        p.shape,
        human_bytes(p.memory as f64),
        p.states,
        human_bytes(p.table_bytes as f64),
        p.shards,
        if p.shards == 1 { "" } else { "s" },
        human_bytes(p.shard_bytes as f64)
    )?;
    writeln!(
        out,
        "  disk needed: {} (the table, a shard, and as much again as the table for the claims)",
        human_bytes(p.disk_bytes as f64)
    )?;
    print_moves(
        out,
        p.moves_per_state,
        p.cross_fraction,
        p.sampled,
        "shards",
    )?;
    writeln!(
        out,
        "  moved: at most {} a pass (every shard read and written), {} of claims over the search",
        human_bytes(p.pass_bytes()),
        human_bytes(p.claim_bytes())
    )?;
    Ok(())
}

/// The line of a plan's moves: how many a state has, and the share that cross `parts`.
fn print_moves(
    out: &mut impl Write,
    per_state: f64,
    cross: f64,
    sampled: u64,
    parts: &str,
) -> Result<()> {
    writeln!(
        out,
        "  moves: {per_state:.3} per state; {:.2}% cross {parts} (measured on {sampled} random \
         states)",
        100.0 * cross
    )?;
    Ok(())
}

fn print_plan(out: &mut impl Write, p: &Plan) -> Result<()> {
    let exchanged = p.exchanged();
    writeln!(
        out,
        "{} on {} ranks: {} states, table {}",
        p.shape,
        p.ranks,
        p.states,
        human_bytes(p.table_bytes)
    )?;
    writeln!(
        out,
        "  per rank: table {} + exchange buffers {} + working {} = {}",
        human_bytes(p.shard_bytes as f64),
        human_bytes(p.buffer_bytes as f64),
        human_bytes(tilespace::analysis::memory::working_bytes(p.shape)),
        human_bytes(p.rank_bytes)
    )?;
    print_moves(out, p.moves_per_state, p.cross_fraction, p.sampled, "ranks")?;
    writeln!(
        out,
        "  exchanged over the search: {:.3e} targets, {} in all, {} sent per rank",
        exchanged,
        human_bytes(8.0 * exchanged),
        human_bytes(8.0 * exchanged / p.ranks as f64)
    )?;
    Ok(())
}

/// `plan --sbatch`'s job script for plan `p` (`analysis::job_script`), with the time the
/// calibration projects if there is one.
fn sbatch(args: &PlanArgs, p: &Plan, calibration: Option<&Calibration>) -> Result<String> {
    let network = args.network_gbits * 1e9 / 8.0;
    let threads = args.threads_per_rank;
    let expected = calibration.map(|cal| project(p, cal, threads, args.layers, network).total());
    let job = SlurmJob {
        time_limit: args.time_limit.as_secs(),
        ranks_per_node: args.ranks_per_node,
        threads_per_rank: threads,
        mem_per_rank: args.mem_per_rank,
    };
    Ok(job_script(p, &job, expected)?)
}

/// The calibration to project with: measured now (and saved) with `--calibrate`, else read from
/// the calibration file if there is one.
fn calibration(args: &PlanArgs) -> Result<Option<Calibration>> {
    if args.calibrate {
        let shape = args.calibration_board;
        let cal = super::thread_pool(None)?.install(|| calibrate(shape))?;
        tilespace::report::write_rows(&args.calibration, std::slice::from_ref(&cal))?;
        return Ok(Some(cal));
    }
    let rows: Vec<Calibration> = tilespace::report::read_rows(&args.calibration)?;
    Ok(rows.into_iter().next())
}

//! `tilespace plan RxC --ranks P [--mem-per-rank SIZE]`: what a run across MPI ranks needs,
//! without MPI and without running it.

use std::io::Write;

use anyhow::Result;
use tilespace::analysis::memory::human_bytes;
use tilespace::analysis::memory::ranks_needed;
use tilespace::analysis::plan::{calibrate, plan, project, Calibration, Plan};
use tilespace::dist::Budget;

use super::args::PlanArgs;

pub fn run(args: PlanArgs) -> Result<super::Status> {
    let buffers = Budget::default().bytes();
    let calibration = calibration(&args)?;
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
        let boards: Vec<serde_json::Value> = plans.iter().map(plan_json).collect();
        let mut doc = serde_json::json!({ "plans": boards, "samples": args.samples });
        if let Some(m) = args.mem_per_rank {
            doc["mem_per_rank"] = m.into();
            doc["ranks_needed"] = args
                .boards
                .iter()
                .zip(&needs)
                .map(|(s, n)| serde_json::json!({ "board": s.to_string(), "ranks": n }))
                .collect::<Vec<_>>()
                .into();
        }
        super::print_json(&doc)?;
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
                duration(t.total()),
                duration(t.expand),
                duration(t.scan),
                duration(t.exchange),
                args.threads_per_rank,
                args.layers,
                args.network_gbits
            )?;
        }
    }
    match &calibration {
        Some(cal) => writeln!(
            out,
            "rates per thread from {} (a one-rank search of {} on {} threads): {:.1} M states/s \
             expanded, {:.0} M table words/s scanned. A lower bound: it assumes every thread of a \
             rank runs as fast as one here, which memory bandwidth does not allow once a node's \
             threads share it",
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
    writeln!(
        out,
        "  moves: {:.3} per state; {:.2}% cross ranks (measured on {} random states)",
        p.moves_per_state,
        100.0 * p.cross_fraction,
        p.sampled
    )?;
    writeln!(
        out,
        "  exchanged over the search: {:.3e} targets, {} in all, {} sent per rank",
        exchanged,
        human_bytes(8.0 * exchanged),
        human_bytes(8.0 * exchanged / p.ranks as f64)
    )?;
    Ok(())
}

fn plan_json(p: &Plan) -> serde_json::Value {
    serde_json::json!({
        "board": p.shape.to_string(),
        "ranks": p.ranks,
        "states": p.states,
        "table_bytes": p.table_bytes,
        "shard_table_bytes": p.shard_bytes,
        "buffer_bytes": p.buffer_bytes,
        "rank_bytes": p.rank_bytes,
        "moves_per_state": p.moves_per_state,
        "cross_fraction": p.cross_fraction,
        "sampled_states": p.sampled,
        "exchanged_targets": p.exchanged(),
    })
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

/// Seconds as `3 d 4 h`, `5 h 12 min`, `7 min 30 s` or `12.5 s`.
fn duration(seconds: f64) -> String {
    let s = seconds.round() as u64;
    match s {
        0..=59 => format!("{seconds:.1} s"),
        60..=3599 => format!("{} min {} s", s / 60, s % 60),
        3600..=86399 => format!("{} h {} min", s / 3600, s % 3600 / 60),
        _ => format!("{} d {} h", s / 86400, s % 86400 / 3600),
    }
}

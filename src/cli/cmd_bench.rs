//! `tilespace bench`: the standard suite at several thread counts, median of N runs, written to
//! `bench.csv` with a description of the machine in `bench-machine.txt`.

use std::fmt::Write as _;
use std::io::Write;

use anyhow::{bail, Context, Result};
use tilespace::analysis::memory;
use tilespace::store::atomic::{check_writable, write_atomic};
use tilespace::{analyze, AnalyzeOptions, GoalBlank, Shape};

use super::args::BenchArgs;
use super::progress::Progress;

/// One line of bench.csv.
#[derive(serde::Serialize)]
struct BenchRow {
    board: String,
    threads: usize,
    runs: usize,
    median_seconds: f64,
    min_seconds: f64,
    states_per_second: u64,
    /// Median time at the fewest threads timed, over the median here.
    speedup: f64,
    /// speedup / (threads / fewest threads).
    efficiency: f64,
}

pub fn run(args: BenchArgs) -> Result<super::Status> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut threads = if args.threads.is_empty() {
        vec![1, cores]
    } else {
        args.threads.clone()
    };
    threads.sort_unstable();
    threads.dedup();
    for &shape in &args.boards {
        memory::check(shape, None)?;
    }
    let csv_path = args.out.join("bench.csv");
    let machine_path = args.out.join("bench-machine.txt");
    check_writable(&args.out)?;

    let mut rows = vec![];
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "{:<6} {:>7} {:>4} {:>10} {:>10} {:>14} {:>8} {:>10}",
        "board", "threads", "runs", "median s", "min s", "states/s", "speedup", "efficiency"
    )?;
    for &shape in &args.boards {
        let mut timed = Timed::default();
        for &t in &threads {
            let row = timed.time(shape, t, &args)?;
            writeln!(
                out,
                "{:<6} {:>7} {:>4} {:>10.4} {:>10.4} {:>14} {:>8.3} {:>10.3}",
                row.board,
                row.threads,
                row.runs,
                row.median_seconds,
                row.min_seconds,
                row.states_per_second,
                row.speedup,
                row.efficiency
            )?;
            rows.push(row);
        }
    }
    let mut w = csv::Writer::from_writer(vec![]);
    for r in &rows {
        w.serialize(r)?;
    }
    write_atomic(&csv_path, &w.into_inner().context("csv")?)?;
    write_atomic(&machine_path, machine(cores).as_bytes())?;
    writeln!(
        out,
        "written: {}, {}",
        csv_path.display(),
        machine_path.display()
    )?;
    Ok(super::Status::Done)
}

/// One board timed at increasing thread counts: the depth counts every run must give, and the
/// fewest threads timed with their median (the base of speedups).
#[derive(Default)]
struct Timed {
    layers: Option<Vec<u64>>,
    base: Option<(usize, f64)>,
}

impl Timed {
    /// Runs `shape` `args.runs` times on `threads` threads: its row of bench.csv.
    fn time(&mut self, shape: Shape, threads: usize, args: &BenchArgs) -> Result<BenchRow> {
        let goal = GoalBlank::Last.resolve(shape)?;
        let pool = super::thread_pool(Some(threads))?;
        let mut times = vec![];
        for run in 0..args.runs {
            let label = format!("{shape} {threads}t #{}", run + 1);
            let states = tilespace::puzzle::count::reachable_u64(shape).unwrap_or(0);
            let progress = Progress::new(args.quiet, states, &label);
            let a = pool.install(|| {
                analyze(shape, goal, AnalyzeOptions::default(), &|l| {
                    progress.layer(l)
                })
            })?;
            progress.finish();
            // Every run must give the same answer, whatever the thread count.
            let layers = self
                .layers
                .get_or_insert_with(|| a.distribution.layers.clone());
            if *layers != a.distribution.layers {
                bail!(tilespace::Error::Check(format!(
                    "{shape}: depth counts differ at {threads} threads"
                )));
            }
            if !a.verified {
                bail!(tilespace::Error::Check(format!(
                    "{shape}: run not verified"
                )));
            }
            times.push(a.seconds);
        }
        times.sort_by(f64::total_cmp);
        let median = times[times.len() / 2];
        let (t0, m0) = *self.base.get_or_insert((threads, median));
        let speedup = m0 / median;
        let states: u64 = self.layers.iter().flatten().sum();
        Ok(BenchRow {
            board: shape.to_string(),
            threads,
            runs: args.runs,
            median_seconds: round(median, 4),
            min_seconds: round(times[0], 4),
            states_per_second: (states as f64 / median) as u64,
            speedup: round(speedup, 3),
            efficiency: round(speedup / (threads as f64 / t0 as f64), 3),
        })
    }
}

fn round(x: f64, digits: i32) -> f64 {
    let p = 10f64.powi(digits);
    (x * p).round() / p
}

/// CPU model, cores, memory, compiler, revision and date: what a comparison between machines needs.
fn machine(cores: usize) -> String {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let model = cpuinfo
        .lines()
        .find(|l| l.starts_with("model name"))
        .and_then(|l| l.split(':').nth(1))
        .map_or("unknown".to_string(), |m| m.trim().to_string());
    let memory = memory::total_bytes().map_or("unknown".into(), |b| memory::human_bytes(b as f64));
    let run = |cmd: &str, args: &[&str]| {
        std::process::Command::new(cmd)
            .args(args)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
            .unwrap_or_else(|| "unknown".into())
    };
    let mut s = String::new();
    let _ = writeln!(s, "cpu: {model}");
    let _ = writeln!(s, "cores: {cores}");
    let _ = writeln!(s, "memory: {memory}");
    let _ = writeln!(s, "rustc: {}", run("rustc", &["--version"]));
    let _ = writeln!(
        s,
        "revision: {}",
        run("git", &["rev-parse", "--short", "HEAD"])
    );
    let _ = writeln!(s, "tilespace: {}", env!("CARGO_PKG_VERSION"));
    let _ = writeln!(s, "date: {}", run("date", &["-u", "+%Y-%m-%dT%H:%M:%SZ"]));
    s
}

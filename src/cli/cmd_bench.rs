//! `tilespace bench`: the standard suite at several thread counts, after a warm-up run, N
//! timed runs each: median, min, mean ± σ, states/s and traversed edges/s, written to
//! `bench.csv`, with the whole record (the binary's build, the machine, the load before and
//! after, warnings) in `bench.json` and as text in `bench-machine.txt`.

use std::fmt::Write as _;
use std::io::Write;
use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use clap::Args;
use serde::Serialize;
use tilespace::analysis::memory;
use tilespace::report::provenance::{Build, BUILD};
use tilespace::store::atomic::{check_writable, write_atomic};
use tilespace::{analyze, AnalyzeOptions, GoalBlank, Metric, Shape};

use super::progress::Progress;
use super::values::{at_least_one, metric_choice, thread_count, MetricChoice};
use tilespace::report::machine::{
    busy_cores, load_average, random_reads, CpuUse, Machine, RANDOM_READ_BYTES,
};

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Boards to time, comma-separated
    #[arg(
        long,
        value_name = "RxC,...",
        value_delimiter = ',',
        default_value = "3x3,2x5,2x6,3x4"
    )]
    pub boards: Vec<Shape>,
    /// Thread counts to time, comma-separated (default: 1, each power of two below the core
    /// count, and every core: the efficiency curve)
    #[arg(long, short = 'j', value_name = "N,...", value_delimiter = ',', value_parser = thread_count)]
    pub threads: Vec<usize>,
    /// Runs per board and thread count; the median is reported
    #[arg(long, value_name = "N", default_value = "3", value_parser = at_least_one)]
    pub runs: usize,
    /// How moves are counted: single, multi or both (each board in each, single first)
    #[arg(long, value_name = "METRIC", default_value = "single", value_parser = metric_choice)]
    pub metric: MetricChoice,
    /// Directory of the reports, where bench.csv, bench.json and bench-machine.txt go
    #[arg(long, value_name = "DIR", default_value = "results")]
    pub results: PathBuf,
    /// No progress display on stderr
    #[arg(long, short)]
    pub quiet: bool,
    /// Print the record (bench.json) on stdout instead of the table
    #[arg(long)]
    pub json: bool,
}

/// One line of bench.csv.
#[derive(Clone, Debug, Serialize)]
struct BenchRow {
    board: String,
    /// `single` or `multi`.
    metric: String,
    threads: usize,
    runs: usize,
    median_seconds: f64,
    min_seconds: f64,
    mean_seconds: f64,
    /// Sample standard deviation of the runs (0 for one run).
    stddev_seconds: f64,
    /// States over the median time.
    states_per_second: u64,
    /// Traversed edges per second: the graph's edges (`puzzle::count::edges_u128`; multi-tile:
    /// (R-1)+(C-1) a state, halved) over the median time, as Graph500 counts them.
    teps: u64,
    /// Median time at the fewest threads timed, over the median here.
    speedup: f64,
    /// speedup / (threads / fewest threads).
    efficiency: f64,
}

/// Everything a benchmark run records (bench.json).
#[derive(Serialize)]
struct Record {
    /// When the timed runs started, UTC.
    started: String,
    build: Build,
    machine: Machine,
    /// The bit-instruction kernels the engine chose at run time on this CPU (`bfs::bits`):
    /// `popcnt,bmi1,bmi2`, or the default target's copies where the CPU lacks them (the
    /// target features above are what the binary assumes of every CPU).
    kernels: &'static str,
    /// Cores busy (with other work) over the second before the warm-up, from /proc/stat.
    busy_cores_before: Option<f64>,
    /// Cores other processes kept busy, on average, over the timed runs: all the machine's
    /// busy time less this process's, from /proc/stat and /proc/self/stat.
    busy_cores_during: Option<f64>,
    /// 1-, 5- and 15-minute load averages before the warm-up and after the last run.
    load_before: Option<[f64; 3]>,
    load_after: Option<[f64; 3]>,
    /// One untimed run of each board, at the most threads, before the timed ones.
    warm_up: bool,
    /// Random 8-byte reads a second from 1 GiB on one thread (`report::machine::random_reads`), before
    /// the timed runs and after them: the memory speed the times were measured at.
    random_reads_before: Option<u64>,
    random_reads_after: Option<u64>,
    rows: Vec<BenchRow>,
    warnings: Vec<String>,
}

/// A run's relative spread (σ / mean) past which its figures are flagged.
const WIDE_SPREAD: f64 = 0.05;

/// The default thread counts: 1, the powers of two below `cores`, and `cores` (1, 2 here; 1, 2,
/// 4, ..., 64, 96 on 96 cores): the efficiency curve, at a cost of log2(cores) runs a board.
fn curve(cores: usize) -> Vec<usize> {
    let mut counts: Vec<usize> = std::iter::successors(Some(1usize), |&t| t.checked_mul(2))
        .take_while(|&t| t < cores)
        .collect();
    counts.push(cores.max(1));
    counts
}

pub fn run(args: BenchArgs) -> Result<super::Status> {
    let machine = Machine::read();
    let cores = machine.logical_cores;
    let mut threads = if args.threads.is_empty() {
        curve(cores)
    } else {
        args.threads.clone()
    };
    threads.sort_unstable();
    threads.dedup();
    let metrics = args.metric.metrics();
    for &shape in &args.boards {
        memory::check(shape, &metrics, None)?;
    }
    let csv_path = args.results.join("bench.csv");
    let json_path = args.results.join("bench.json");
    let machine_path = args.results.join("bench-machine.txt");
    check_writable(&args.results)?;

    let load_before = load_average();
    let busy_before = busy_cores(std::time::Duration::from_secs(1), cores).map(|b| round(b, 2));
    let started = humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string();
    let most = *threads.last().expect("at least one thread count");
    for &shape in &args.boards {
        for &metric in &metrics {
            Timed::new(metric).run(
                shape,
                &super::thread_pool(Some(most))?,
                "warm-up",
                args.quiet,
            )?;
        }
    }
    let reads_before = random_reads().map(|r| r as u64);
    let use_before = CpuUse::start();
    let mut rows = vec![];
    let mut out = std::io::stdout().lock();
    if !args.json {
        print_heading(&mut out)?;
    }
    for &shape in &args.boards {
        for &metric in &metrics {
            let mut timed = Timed::new(metric);
            for &t in &threads {
                let row = timed.time(shape, t, &args)?;
                if !args.json {
                    print_row(&mut out, &row)?;
                }
                rows.push(row);
            }
        }
    }
    let busy_during = busy_since(use_before, cores);
    let reads_after = random_reads().map(|r| r as u64);
    let load_after = load_average();
    let mut warnings = warnings(&rows, busy_before, load_before, most, cores);
    warnings.extend(busy_during.filter(|&b| b > 0.25).map(|b| {
        format!(
            "other work kept {b:.2} cores busy during the runs, on average; the times include \
             its interference"
        )
    }));
    for w in &warnings {
        eprintln!("tilespace: warning: {w}");
    }
    let record = Record {
        started,
        build: BUILD,
        machine,
        kernels: kernels(),
        busy_cores_before: busy_before,
        busy_cores_during: busy_during,
        load_before,
        load_after,
        warm_up: true,
        random_reads_before: reads_before,
        random_reads_after: reads_after,
        rows,
        warnings,
    };
    let mut w = csv::Writer::from_writer(vec![]);
    for r in &record.rows {
        w.serialize(r)?;
    }
    write_atomic(&csv_path, &w.into_inner().context("csv")?)?;
    let json = serde_json::to_string_pretty(&record)? + "\n";
    write_atomic(&json_path, json.as_bytes())?;
    write_atomic(&machine_path, describe(&record).as_bytes())?;
    if args.json {
        out.write_all(json.as_bytes())?;
    } else {
        writeln!(out, "{}", memory_line(&record))?;
        writeln!(
            out,
            "wrote: {}, {}, {}",
            csv_path.display(),
            json_path.display(),
            machine_path.display()
        )?;
    }
    Ok(super::Status::Done)
}

/// The heading of the table of rows printed as they are measured.
fn print_heading(out: &mut impl Write) -> Result<()> {
    writeln!(
        out,
        "{:<6} {:<6} {:>7} {:>4} {:>9} {:>9} {:>18} {:>10} {:>10} {:>7} {:>6}",
        "board",
        "metric",
        "threads",
        "runs",
        "median s",
        "min s",
        "mean ± σ s",
        "states/s",
        "TEPS",
        "speedup",
        "effic."
    )?;
    Ok(())
}

/// One row of the table, as it is measured.
fn print_row(out: &mut impl Write, row: &BenchRow) -> Result<()> {
    writeln!(
        out,
        "{:<6} {:<6} {:>7} {:>4} {:>9.4} {:>9.4} {:>18} {:>10} {:>10} {:>7.3} {:>6.3}",
        row.board,
        row.metric,
        row.threads,
        row.runs,
        row.median_seconds,
        row.min_seconds,
        format!("{:.4} ± {:.4}", row.mean_seconds, row.stddev_seconds),
        rate(row.states_per_second as f64),
        rate(row.teps as f64),
        row.speedup,
        row.efficiency
    )?;
    Ok(())
}

/// `12.3 M`: a rate in SI units.
fn rate(per_second: f64) -> String {
    match per_second {
        r if r >= 1e9 => format!("{:.2} G", r / 1e9),
        r if r >= 1e6 => format!("{:.1} M", r / 1e6),
        r if r >= 1e3 => format!("{:.1} k", r / 1e3),
        r => format!("{r:.0}"),
    }
}

/// What makes the figures less trustworthy: a machine already busy (the cores in use just
/// before the runs, or if /proc/stat cannot tell, the 1-minute load, plus the most threads
/// timed exceed the cores), or runs that disagree (σ over 5% of the mean).
fn warnings(
    rows: &[BenchRow],
    busy: Option<f64>,
    load: Option<[f64; 3]>,
    most: usize,
    cores: usize,
) -> Vec<String> {
    let mut out = vec![];
    let before = match (busy, load) {
        (Some(b), _) => Some(format!("{b:.2} cores busy in the second before the runs")),
        (None, Some([one, ..])) => Some(format!("load average {one:.2} before the runs")),
        _ => None,
    };
    let used = busy.or(load.map(|l| l[0]));
    if let (Some(used), Some(before)) = (used, before) {
        if used + most as f64 > cores as f64 + 0.5 {
            out.push(format!(
                "the machine was busy: {before}, with {most} threads timed on {cores} cores; \
                 other work will have slowed the runs"
            ));
        }
    }
    for r in rows {
        if r.runs > 1 && r.stddev_seconds > WIDE_SPREAD * r.mean_seconds {
            out.push(format!(
                "{} {} on {}: runs spread widely (σ {:.4} s, {:.0}% of the mean {:.4} s); \
                 use more --runs or a quieter machine",
                r.board,
                r.metric,
                super::counted(r.threads as u64, "thread"),
                r.stddev_seconds,
                100.0 * r.stddev_seconds / r.mean_seconds,
                r.mean_seconds
            ));
        }
    }
    out
}

/// One board timed at increasing thread counts in one metric: the depth counts every run must
/// give, and the fewest threads timed with their median (the base of speedups).
struct Timed {
    metric: Metric,
    layers: Option<Vec<u64>>,
    base: Option<(usize, f64)>,
}

impl Timed {
    fn new(metric: Metric) -> Timed {
        Timed {
            metric,
            layers: None,
            base: None,
        }
    }

    /// One run of `shape` on `pool`, checked: every run must give the same depth counts,
    /// whatever the thread count, and be verified. Returns its seconds.
    fn run(
        &mut self,
        shape: Shape,
        pool: &rayon::ThreadPool,
        label: &str,
        quiet: bool,
    ) -> Result<f64> {
        let goal = GoalBlank::Last.resolve(shape)?;
        let threads = pool.current_num_threads();
        let label = format!("{shape} {} {threads}t {label}", self.metric);
        let states = tilespace::puzzle::count::reachable_u64(shape).unwrap_or(0);
        let progress = Progress::new(quiet, states, &label);
        let a = pool.install(|| {
            let puzzle = tilespace::Puzzle::board(shape, goal, self.metric)?;
            analyze(&puzzle, AnalyzeOptions::default(), &|l| progress.layer(l))
        })?;
        progress.finish();
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
        Ok(a.seconds)
    }

    /// Runs `shape` `args.runs` times on `threads` threads: its row of bench.csv.
    fn time(&mut self, shape: Shape, threads: usize, args: &BenchArgs) -> Result<BenchRow> {
        // One pool for all the runs: its threads are not started inside the timed loop.
        let pool = super::thread_pool(Some(threads))?;
        let mut times = vec![];
        for run in 0..args.runs {
            times.push(self.run(shape, &pool, &format!("#{}", run + 1), args.quiet)?);
        }
        times.sort_by(f64::total_cmp);
        let median = times[times.len() / 2];
        let n = times.len() as f64;
        let mean = times.iter().sum::<f64>() / n;
        let variance = if times.len() > 1 {
            times.iter().map(|t| (t - mean).powi(2)).sum::<f64>() / (n - 1.0)
        } else {
            0.0
        };
        let (t0, m0) = *self.base.get_or_insert((threads, median));
        let speedup = m0 / median;
        let states: u64 = self.layers.iter().flatten().sum();
        let edges = self.metric.edges(shape).unwrap_or(0) as f64;
        Ok(BenchRow {
            board: shape.to_string(),
            metric: self.metric.name().into(),
            threads,
            runs: args.runs,
            median_seconds: round(median, 4),
            min_seconds: round(times[0], 4),
            mean_seconds: round(mean, 4),
            stddev_seconds: round(variance.sqrt(), 4),
            states_per_second: (states as f64 / median) as u64,
            teps: (edges / median) as u64,
            speedup: round(speedup, 3),
            efficiency: round(speedup / (threads as f64 / t0 as f64), 3),
        })
    }
}

/// Cores other processes kept busy since `before`, on average, to two decimals.
fn busy_since(before: Option<CpuUse>, cores: usize) -> Option<f64> {
    before?.other_busy_cores(cores).map(|b| round(b, 2))
}

/// The kernels the engine runs on this CPU (`Record::kernels`).
fn kernels() -> &'static str {
    #[cfg(target_arch = "x86_64")]
    if tilespace::bfs::bits::has_bit_instructions() {
        return "popcnt,bmi1,bmi2 (chosen at run time)";
    }
    "default target (no run-time choice on this CPU)"
}

fn round(x: f64, digits: i32) -> f64 {
    let p = 10f64.powi(digits);
    (x * p).round() / p
}

/// `random reads (1.1 GB, one thread): 61.2 M/s before the runs, 60.8 M/s after`.
fn memory_line(r: &Record) -> String {
    let at = |v: Option<u64>| v.map_or("unknown".into(), |n| format!("{}/s", rate(n as f64)));
    format!(
        "random reads ({}, one thread): {} before the runs, {} after",
        tilespace::units::human_bytes(RANDOM_READ_BYTES as f64),
        at(r.random_reads_before),
        at(r.random_reads_after)
    )
}

/// The record as text: the build, the machine, the load and the warnings.
fn describe(r: &Record) -> String {
    let or_unknown = |v: Option<usize>| v.map_or("unknown".into(), |n| n.to_string());
    let load = |l: Option<[f64; 3]>| {
        l.map_or("unknown".into(), |[a, b, c]| {
            format!("{a:.2} {b:.2} {c:.2}")
        })
    };
    let m = &r.machine;
    let b = &r.build;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "tilespace: {} (git {}), {} profile",
        b.version, b.revision, b.profile
    );
    let _ = writeln!(s, "compiler: {}", b.rustc);
    let _ = writeln!(s, "target: {}", b.target);
    let _ = writeln!(s, "target features: {}", b.target_features);
    let _ = writeln!(s, "cargo features: {}", b.features);
    let mhz = |v: Option<f64>| v.map_or("unknown".into(), |v| format!("{v:.0} MHz"));
    let _ = writeln!(
        s,
        "cpu: {} (clock {} now, {} at most)",
        m.cpu,
        mhz(m.cpu_mhz),
        mhz(m.cpu_max_mhz)
    );
    let _ = writeln!(s, "kernels: {}", r.kernels);
    let _ = writeln!(
        s,
        "cores: {} logical, {} physical",
        m.logical_cores,
        or_unknown(m.physical_cores)
    );
    let _ = writeln!(s, "numa nodes: {}", or_unknown(m.numa_nodes));
    let memory = m.memory_bytes.map_or("unknown".into(), |b| {
        tilespace::units::human_bytes(b as f64)
    });
    let _ = writeln!(s, "memory: {memory}");
    let _ = writeln!(s, "kernel: {}", m.kernel);
    let _ = writeln!(s, "started: {}", r.started);
    let busy = r
        .busy_cores_before
        .map_or("unknown".into(), |b| format!("{b:.2}"));
    let _ = writeln!(s, "cores busy in the second before: {busy}");
    let during = r
        .busy_cores_during
        .map_or("unknown".into(), |b| format!("{b:.2}"));
    let _ = writeln!(s, "cores busy with other work during the runs: {during}");
    let _ = writeln!(s, "load average before: {}", load(r.load_before));
    let _ = writeln!(s, "load average after: {}", load(r.load_after));
    let _ = writeln!(s, "{}", memory_line(r));
    let _ = writeln!(
        s,
        "warm-up: one untimed run per board before the timed ones"
    );
    for w in &r.warnings {
        let _ = writeln!(s, "warning: {w}");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::curve;

    #[test]
    fn the_default_counts_double_up_to_every_core() {
        assert_eq!(curve(1), [1]);
        assert_eq!(curve(2), [1, 2]);
        assert_eq!(curve(6), [1, 2, 4, 6]);
        assert_eq!(curve(16), [1, 2, 4, 8, 16]);
        assert_eq!(curve(96), [1, 2, 4, 8, 16, 32, 64, 96]);
    }
}

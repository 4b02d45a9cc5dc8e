//! The values of command-line options: clap's value parsers (counts, rates, thread and rank
//! counts, sizes of planned runs) and the metric choice `atlas`, `bench`, `plot` and `table`
//! take. Shared by the commands' arguments, each beside its command (`cmd_*.rs`).
//!
//! Whole numbers with both bounds are clap's ranged parsers ("65537 is not in 1..=65536"). A
//! count with no upper bound keeps its own ("must be at least 1"), where clap would print the
//! integer type's largest value as the bound; a rate is a float, which clap does not range.

use clap::builder::RangedU64ValueParser;
use tilespace::Metric;

/// A count of at least 1 (threads, runs).
pub fn at_least_one(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(0) => Err("must be at least 1".into()),
        Ok(n) => Ok(n),
        Err(_) => Err(format!("'{text}' is not a whole number")),
    }
}

/// A disk's rate in gigabytes a second: from a megabyte a second to ten terabytes (no disk
/// or array is outside that; a rate beyond it makes a projection of no use).
pub fn disk_rate(text: &str) -> Result<f64, String> {
    rate_within(text, 1e-3, 1e4)
}

/// A network's rate in gigabits a second: from a megabit a second to a hundred terabits.
pub fn network_rate(text: &str) -> Result<f64, String> {
    rate_within(text, 1e-3, 1e5)
}

pub fn rate_within(text: &str, least: f64, most: f64) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(r) if (least..=most).contains(&r) => Ok(r),
        Ok(_) => Err(format!("must be from {least} to {most}")),
        Err(_) => Err(format!("'{text}' is not a number")),
    }
}

/// Threads of a planned machine (not this one): at least 1, at most 8 a core of the largest
/// machine Linux runs (8192 cores), as `analyze` allows 8 a core of this one.
pub fn planned_threads() -> RangedU64ValueParser<usize> {
    RangedU64ValueParser::new().range(1..=8 * 8192)
}

/// Layers of a planned search: at least 1 (the start), at most 10,000 (the boards the index
/// holds have a few hundred at most).
pub fn layer_count() -> RangedU64ValueParser<u32> {
    RangedU64ValueParser::new().range(1..=10_000)
}

/// The metrics a command runs in (`atlas`, `bench`): one, or both, single first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MetricChoice {
    One(Metric),
    Both,
}

impl MetricChoice {
    /// The metrics named, single first.
    pub fn metrics(self) -> Vec<Metric> {
        match self {
            MetricChoice::One(m) => vec![m],
            MetricChoice::Both => Metric::ALL.to_vec(),
        }
    }
}

/// As typed: `single`, `multi` or `both`.
impl std::fmt::Display for MetricChoice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MetricChoice::One(m) => f.write_str(m.name()),
            MetricChoice::Both => f.write_str("both"),
        }
    }
}

/// `single`, `multi` or `both`, in any case, spaces around it ignored.
pub fn metric_choice(text: &str) -> Result<MetricChoice, String> {
    match text.trim().to_ascii_lowercase().as_str() {
        "both" => Ok(MetricChoice::Both),
        other => other
            .parse::<Metric>()
            .map(MetricChoice::One)
            .map_err(|e| format!("{e}, or both")),
    }
}

/// A rank count of a planned run: at least 1, at most `MAX_RANKS`.
pub fn rank_count() -> RangedU64ValueParser<usize> {
    RangedU64ValueParser::new().range(1..=tilespace::bfs::shard::MAX_RANKS as u64)
}

/// A sample size of `plan`: at least 1, at most 10^8 (about a minute).
pub fn plan_samples() -> RangedU64ValueParser<usize> {
    RangedU64ValueParser::new().range(1..=100_000_000)
}

/// A count of at least 1 (u64).
pub fn at_least_one_u64(text: &str) -> Result<u64, String> {
    match text.parse::<u64>() {
        Ok(0) => Err("must be at least 1".into()),
        Ok(n) => Ok(n),
        Err(_) => Err(format!("'{text}' is not a whole number")),
    }
}

/// A thread count: at least 1, and at most 8 per core of this machine
/// (`tilespace::analysis::threads`).
pub fn thread_count(text: &str) -> Result<usize, String> {
    let n = at_least_one(text)?;
    tilespace::analysis::threads::check(n).map_err(|e| e.to_string())
}

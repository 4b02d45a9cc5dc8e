//! The progress display on stderr: one bar per board across its layers. The engine only calls
//! back after each layer; the bar is owned here. When stderr is not a terminal (a log file), a
//! long run writes a line at most every `LOG_EVERY` instead.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use tilespace::bfs::PlaceLayer;
use tilespace::LayerDone;

const LOG_EVERY: Duration = Duration::from_secs(10);

/// The bar: board (truncated to `PREFIX`), depth, bar, states found of all, percent, the rate
/// since the start, and the time left at that rate, in 80 columns at most (see the test).
const TEMPLATE: &str =
    "{prefix:<13} depth {msg:>3} [{bar:14}] {count:>13} {percent:>3}% {rate:>9} eta {left:>6}";
const PREFIX: usize = 13;

/// What the disk did in the pass that completed a layer of a search on disk (empty in memory):
/// bytes read and written, their rate over the time spent on them, and that time's share of
/// the pass.
fn disk_text(done: &LayerDone) -> String {
    let PlaceLayer::Disk(d) = done.place else {
        return String::new();
    };
    let moved = (d.read + d.written) as f64;
    format!(
        "; disk {} read, {} written, {:.2} GB/s, {:.0}% of the pass",
        tilespace::units::human_bytes(d.read as f64),
        tilespace::units::human_bytes(d.written as f64),
        moved / d.waiting.max(1e-9) / 1e9,
        100.0 * d.waiting / done.seconds.max(1e-9)
    )
}

/// `950`, `12.3 k`, `43.6 G`: a count in at most 6 characters (SI prefixes, no space).
fn si(n: f64) -> String {
    const UNITS: [(f64, &str); 5] = [(1e15, "P"), (1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")];
    for (scale, unit) in UNITS {
        if n >= scale * 0.9995 {
            let x = n / scale;
            return if x >= 99.95 {
                format!("{x:.0}{unit}")
            } else {
                format!("{x:.1}{unit}")
            };
        }
    }
    format!("{n:.0}")
}

/// `64.1 M/s`: states per second since the start.
fn rate(pos: u64, elapsed: Duration) -> String {
    let secs = elapsed.as_secs_f64();
    if secs < 1e-3 {
        return "-".into();
    }
    format!("{}/s", si(pos as f64 / secs))
}

/// The time left at the rate since the start (a breadth-first search's layers vary too much in
/// speed for a recent rate to mean anything): `45s`, `12m30s`, `3h05m`; `-` before 1% of the
/// work is done, when the first small layers and the table's allocation would give any figure
/// (a 0.02 s search showed 13m30s).
fn left(pos: u64, len: u64, elapsed: Duration) -> String {
    if pos == 0 || pos.saturating_mul(100) < len {
        return "-".into();
    }
    let secs = (len.saturating_sub(pos) as f64 * elapsed.as_secs_f64() / pos as f64).round() as u64;
    match secs {
        0..=59 => format!("{secs}s"),
        60..=3599 => format!("{}m{:02}s", secs / 60, secs % 60),
        3600..=359_999 => format!("{}h{:02}m", secs / 3600, secs % 3600 / 60),
        _ => format!("{}d", secs / 86_400),
    }
}

/// A bar over `total` in `style`, labelled `label` (cut to `PREFIX` characters), on stderr
/// unless `quiet`.
fn bar(quiet: bool, total: u64, label: &str, style: ProgressStyle) -> ProgressBar {
    let target = if quiet {
        ProgressDrawTarget::hidden()
    } else {
        ProgressDrawTarget::stderr()
    };
    let bar = ProgressBar::with_draw_target(Some(total), target);
    bar.set_style(style);
    bar.set_prefix(label.chars().take(PREFIX).collect::<String>());
    bar
}

#[derive(Clone)]
pub struct Progress {
    bar: ProgressBar,
    quiet: bool,
    label: String,
    /// `TILESPACE_TRACE` is set: each layer's way and time go to stderr.
    trace: bool,
    /// When the run started, and when a log line was last written.
    log: Arc<Mutex<(Instant, Instant)>>,
    /// Across ranks: the busiest rank's and the mean work seconds, summed over the layers.
    busy: Arc<Mutex<(f64, f64)>>,
}

impl Progress {
    /// A bar over `total` states labelled `label`; hidden when `quiet`.
    pub fn new(quiet: bool, total: u64, label: &str) -> Progress {
        let bar = bar(
            quiet,
            total,
            label,
            ProgressStyle::with_template(TEMPLATE)
                .expect("a valid template")
                .with_key("count", |s: &ProgressState, w: &mut dyn std::fmt::Write| {
                    let _ = write!(
                        w,
                        "{}/{}",
                        si(s.pos() as f64),
                        si(s.len().unwrap_or(0) as f64)
                    );
                })
                .with_key("rate", |s: &ProgressState, w: &mut dyn std::fmt::Write| {
                    let _ = write!(w, "{}", rate(s.pos(), s.elapsed()));
                })
                .with_key("left", |s: &ProgressState, w: &mut dyn std::fmt::Write| {
                    let _ = write!(w, "{}", left(s.pos(), s.len().unwrap_or(0), s.elapsed()));
                })
                .progress_chars("=> "),
        );
        let now = Instant::now();
        Progress {
            bar,
            quiet,
            label: label.to_string(),
            trace: std::env::var_os("TILESPACE_TRACE").is_some(),
            log: Arc::new(Mutex::new((now, now))),
            busy: Arc::new(Mutex::new((0.0, 0.0))),
        }
    }

    /// No output at all, not even `TILESPACE_TRACE` lines: a rank other than the first of a
    /// distributed run.
    pub fn muted(mut self) -> Progress {
        self.quiet = true;
        self.trace = false;
        self.bar.set_draw_target(ProgressDrawTarget::hidden());
        self
    }

    /// A search that tells only the depth and the states found so far (`bfs::arrangements`).
    pub fn reached(&self, depth: u32, seen: u64) {
        hold_if_asked(depth);
        self.bar.set_message(depth.to_string());
        self.bar.set_position(seen);
    }

    pub fn layer(&self, done: LayerDone) {
        hold_if_asked(done.depth);
        if let (true, Some(way)) = (self.trace, done.way) {
            let busy = match done.place {
                PlaceLayer::Ranks(b) => format!(
                    ", work {:.1} ms busiest rank, {:.1} ms mean",
                    b.max * 1e3,
                    b.mean * 1e3
                ),
                _ => String::new(),
            };
            eprintln!(
                "trace depth {} {} found {} {:.1} ms{busy}{}",
                done.depth,
                way.name(),
                done.states,
                done.seconds * 1e3,
                disk_text(&done)
            );
        }
        if let PlaceLayer::Ranks(b) = done.place {
            let mut sums = self.busy.lock().expect("not poisoned");
            sums.0 += b.max;
            sums.1 += b.mean;
        }
        self.bar.set_message(done.depth.to_string());
        self.bar.set_position(done.seen);
        let Some((total, elapsed)) = log_due(self.quiet, &self.bar, &self.log) else {
            return;
        };
        // The rate since the start, and the time left at that rate.
        let rate = done.seen as f64 / elapsed.max(1e-9);
        let left = total.saturating_sub(done.seen) as f64 / rate.max(1.0);
        eprintln!(
            "{} depth {}: {} states at this depth, {} of {} ({:.1}%), {:.1} M states/s, \
             {:.0} s elapsed, eta {:.0} s{}",
            self.label,
            done.depth,
            done.states,
            done.seen,
            total,
            100.0 * done.seen as f64 / total as f64,
            rate / 1e6,
            elapsed,
            left,
            disk_text(&done)
        );
    }

    /// Sets the total the bar counts to.
    pub fn set_length(&self, total: u64) {
        self.bar.set_length(total);
    }

    /// A line above the bar (checkpoints saved, and the like).
    pub fn message(&self, text: &str) {
        if self.quiet {
            return;
        }
        if self.bar.is_hidden() {
            // Not a terminal: the bar is not drawn, the line is still wanted (logs).
            eprintln!("{text}");
        } else {
            self.bar.println(text);
        }
    }

    /// Clears the bar; after a run across ranks, says how well the work was balanced.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
        let (max, mean) = *self.busy.lock().expect("not poisoned");
        if max > 0.0 && !self.quiet {
            eprintln!(
                "{}: load balance {:.3} (work of the mean rank against the busiest, over the layers: {:.1} s / {:.1} s)",
                self.label,
                mean / max,
                mean,
                max
            );
        }
    }
}

/// When the bar is not drawn (stderr is not a terminal) and not `quiet`, and a log line is due
/// (`log`: the start and the last line; at most one every `LOG_EVERY`): the bar's total and the
/// seconds since the start. The last line's time is then now.
fn log_due(quiet: bool, bar: &ProgressBar, log: &Mutex<(Instant, Instant)>) -> Option<(u64, f64)> {
    if quiet || !bar.is_hidden() {
        return None;
    }
    let mut log = log.lock().expect("not poisoned");
    if log.1.elapsed() < LOG_EVERY {
        return None;
    }
    log.1 = Instant::now();
    Some((
        bar.length().unwrap_or(0).max(1),
        log.0.elapsed().as_secs_f64(),
    ))
}

/// A bar over `total` items of work (boards solved): `label [====] 37/100 eta 12s`; hidden when
/// `quiet`. When stderr is not a terminal (a log), a line at most every `LOG_EVERY` instead.
pub struct Items {
    bar: ProgressBar,
    quiet: bool,
    label: String,
    log: Mutex<(Instant, Instant)>,
    skipped: std::sync::atomic::AtomicU64,
}

impl Items {
    pub fn new(quiet: bool, total: u64, label: &str) -> Items {
        let bar = bar(
            quiet,
            total,
            label,
            ProgressStyle::with_template(
                "{prefix:<13} [{bar:30}] {pos:>7}/{len:<7} {elapsed:>4} eta {eta:>4}",
            )
            .expect("a valid template")
            .progress_chars("=> "),
        );
        let now = Instant::now();
        Items {
            bar,
            quiet,
            label: label.to_string(),
            log: Mutex::new((now, now)),
            skipped: 0.into(),
        }
    }

    /// `n` items done before this run (not counted in its rate).
    pub fn skip(&self, n: u64) {
        self.bar.set_position(n);
        self.bar.reset_eta();
        self.skipped.store(n, std::sync::atomic::Ordering::Relaxed);
    }

    /// `n` items done in all.
    pub fn at(&self, n: u64) {
        self.bar.set_position(n);
        self.log();
    }

    /// One more item done.
    pub fn inc(&self) {
        self.bar.inc(1);
        self.log();
    }

    /// A line on stderr if one is due (stderr not a terminal).
    fn log(&self) {
        let Some((total, elapsed)) = log_due(self.quiet, &self.bar, &self.log) else {
            return;
        };
        let done = self.bar.position().max(1);
        let now = done.saturating_sub(self.skipped.load(std::sync::atomic::Ordering::Relaxed));
        eprintln!(
            "{}: {done} of {total} ({:.1}%), {elapsed:.0} s elapsed, eta {:.0} s",
            self.label,
            100.0 * done as f64 / total as f64,
            elapsed / now.max(1) as f64 * total.saturating_sub(done) as f64
        );
    }

    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

/// The tests' hook for stopping a run at a point of their choosing, whatever the machine's
/// speed: with `TILESPACE_TEST_HOLD=STEP:FILE` in the environment, the run creates FILE when
/// it reaches STEP (a search: when it has built layer STEP; `sample`: when it has solved board
/// STEP) and then waits there until a stop signal comes (SIGINT, SIGTERM), which it then
/// handles as it would have at that point. `STEP@K:FILE` waits the K-th time STEP is reached
/// (an atlas's K-th cell). A test waits for FILE, then signals: no sleep that a fast machine
/// outruns.
pub fn hold_if_asked(step: u32) {
    static HOLD: std::sync::OnceLock<Option<(u32, u32, String)>> = std::sync::OnceLock::new();
    static REACHED: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let hold = HOLD.get_or_init(|| {
        let hold = std::env::var("TILESPACE_TEST_HOLD").ok()?;
        let (at, file) = hold.split_once(':')?;
        let (at, time) = at.split_once('@').unwrap_or((at, "1"));
        Some((at.parse().ok()?, time.parse().ok()?, file.to_string()))
    });
    let Some((at, time, file)) = hold.as_ref().filter(|(at, _, _)| *at == step) else {
        return;
    };
    if REACHED.fetch_add(1, std::sync::atomic::Ordering::SeqCst) + 1 != *time {
        return;
    }
    let Ok(stop) = super::signals::stop_on_signal("the held run") else {
        return;
    };
    let _ = std::fs::write(file, at.to_string());
    while !stop.load(std::sync::atomic::Ordering::SeqCst) {
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_are_short_and_right() {
        assert_eq!(si(950.0), "950");
        assert_eq!(si(12_345.0), "12.3k");
        assert_eq!(si(43_589_145_600.0), "43.6G");
        assert_eq!(si(999_999.0), "1.0M");
        assert_eq!(si(123_456_789.0), "123M");
        assert_eq!(rate(64_100_000, Duration::from_secs(1)), "64.1M/s");
        assert_eq!(left(1, 2, Duration::from_secs(45)), "45s");
        assert_eq!(left(1, 2, Duration::from_secs(750)), "12m30s");
        assert_eq!(left(1, 2, Duration::from_secs(11_100)), "3h05m");
        assert_eq!(left(0, 2, Duration::from_secs(5)), "-");
        assert_eq!(left(99, 10_000, Duration::from_secs(5)), "-");
        assert_eq!(left(100, 10_000, Duration::from_secs(1)), "1m39s");
    }

    /// The widest line the template can make (the widest value of each field, padded as the
    /// template pads it) fits 80 columns.
    #[test]
    fn the_bar_fits_80_columns() {
        let widest = |values: &[String]| values.iter().map(|v| v.chars().count()).max().unwrap();
        let counts: Vec<String> = [999.0, 999_949.0, 43_589_145_600.0, 999e15]
            .iter()
            .map(|&n| format!("{}/{}", si(n), si(n)))
            .collect();
        let rates: Vec<String> = [1e5, 999e12]
            .iter()
            .map(|&r| rate(r as u64, Duration::from_secs(1)))
            .collect();
        let lefts: Vec<String> = [59, 3599, 359_999, 10_000_000]
            .iter()
            .map(|&s| left(1, 2, Duration::from_secs(s)))
            .collect();
        assert!(
            widest(&counts) <= 13 && widest(&rates) <= 9 && widest(&lefts) <= 6,
            "{counts:?} {rates:?} {lefts:?}"
        );
        let line = format!(
            "{:<13} depth {:>3} [{}] {:>13} {:>3}% {:>9} eta {:>6}",
            "x".repeat(PREFIX),
            999,
            "=".repeat(14),
            "x".repeat(13),
            100,
            "x".repeat(9),
            "x".repeat(6)
        );
        assert!(TEMPLATE.contains("{bar:14}") && TEMPLATE.contains("{count:>13}"));
        assert!(
            line.chars().count() <= 80,
            "{} columns: {line}",
            line.chars().count()
        );
    }
}

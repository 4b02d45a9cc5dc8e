//! The progress display on stderr: one bar per board across its layers. The engine only calls
//! back after each layer; the bar is owned here. When stderr is not a terminal (a log file), a
//! long run writes a line at most every `LOG_EVERY` instead.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use tilespace::LayerDone;

const LOG_EVERY: Duration = Duration::from_secs(10);

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
        let target = if quiet {
            ProgressDrawTarget::hidden()
        } else {
            ProgressDrawTarget::stderr()
        };
        let bar = ProgressBar::with_draw_target(Some(total), target);
        bar.set_style(
            ProgressStyle::with_template(
                "{prefix:>6} depth {msg:>3} [{bar:30}] {human_pos}/{human_len} states {percent:>3}% \
                 {per_sec} eta {eta}",
            )
            .expect("a valid template")
            .progress_chars("=> "),
        );
        bar.set_prefix(label.to_string());
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

    pub fn layer(&self, done: LayerDone) {
        if let (true, Some(way)) = (self.trace, done.way) {
            let busy = done.busy.map_or(String::new(), |b| {
                format!(
                    ", work {:.1} ms busiest rank, {:.1} ms mean",
                    b.max * 1e3,
                    b.mean * 1e3
                )
            });
            eprintln!(
                "trace depth {} {} found {} {:.1} ms{busy}",
                done.depth,
                way.name(),
                done.states,
                done.seconds * 1e3
            );
        }
        if let Some(b) = done.busy {
            let mut sums = self.busy.lock().expect("not poisoned");
            sums.0 += b.max;
            sums.1 += b.mean;
        }
        self.bar.set_message(done.depth.to_string());
        self.bar.set_position(done.seen);
        if self.quiet || !self.bar.is_hidden() {
            return;
        }
        let mut log = self.log.lock().expect("not poisoned");
        if log.1.elapsed() < LOG_EVERY {
            return;
        }
        log.1 = Instant::now();
        let total = self.bar.length().unwrap_or(0).max(1);
        let elapsed = log.0.elapsed().as_secs_f64();
        // The rate since the start, and the time left at that rate.
        let rate = done.seen as f64 / elapsed.max(1e-9);
        let left = total.saturating_sub(done.seen) as f64 / rate.max(1.0);
        eprintln!(
            "{} depth {}: {} states at this depth, {} of {} ({:.1}%), {:.1} M states/s, \
             {:.0} s elapsed, eta {:.0} s",
            self.label,
            done.depth,
            done.states,
            done.seen,
            total,
            100.0 * done.seen as f64 / total as f64,
            rate / 1e6,
            elapsed,
            left
        );
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

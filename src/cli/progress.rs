//! The progress display on stderr: one bar per board across its layers. The engine only calls
//! back after each layer; the bar is owned here.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use tilespace::LayerDone;

#[derive(Clone)]
pub struct Progress {
    bar: ProgressBar,
    quiet: bool,
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
        Progress { bar, quiet }
    }

    pub fn layer(&self, done: LayerDone) {
        self.bar.set_message(done.depth.to_string());
        self.bar.set_position(done.seen);
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

    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

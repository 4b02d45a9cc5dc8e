//! Distributions to draw, and their charts as pgfplots code: a vector format a paper takes
//! directly (`tilespace plot --format pgfplots`), typeset by LaTeX in the paper's own fonts.
//! The SVG charts are in `report::plot`.

use std::fmt::Write as _;

use crate::report::paper::grid::tex;

/// One distribution to draw: a name for the legend, a title, and states per depth.
#[derive(Clone, Debug)]
pub struct Series {
    /// The legend's name: `2x3`, `3x3 blank 1,1`.
    pub label: String,
    /// A chart's title.
    pub title: String,
    /// How its moves are counted (the depth axis says which).
    pub metric: crate::puzzle::metric::Metric,
    /// `states[d]` = states at depth d, from 0 to the eccentricity.
    pub states: Vec<u64>,
    /// What the counts count, as the count axis says it: `states` (boards) or `arrangements`
    /// (goals of tokens).
    pub counts: &'static str,
}

/// Series with the same distribution (3x3 with the blank in a corner, and from the other
/// class) drawn once, as one line would hide the other: the first's label, with the others'
/// after "=".
pub fn merge_identical(all: &[Series]) -> Vec<Series> {
    let mut out: Vec<Series> = vec![];
    for s in all {
        match out.iter_mut().find(|o| o.states == s.states) {
            Some(o) => o.label = format!("{} = {}", o.label, s.label),
            None => out.push(s.clone()),
        }
    }
    out
}

/// Marks on at most this many points of a line.
const MARKS: usize = 12;

const PREAMBLE: &str = "% needs \\usepackage{pgfplots} and \\pgfplotsset{compat=1.17}\n";

/// One board: states per depth on a linear and on a log axis, side by side, the two with
/// their labels the line wide.
pub fn board(series: &Series, command: &str) -> String {
    let mut out = format!("% {command}\n{PREAMBLE}");
    let points: String = series
        .states
        .iter()
        .enumerate()
        .map(|(d, n)| format!("({d},{n})"))
        .collect::<Vec<_>>()
        .join(" ");
    out.push_str("\\begin{tikzpicture}\n");
    let log = format!("{} (log scale)", series.counts);
    for (i, (mode, ylabel)) in [("normal", series.counts), ("log", log.as_str())]
        .iter()
        .enumerate()
    {
        let at = if i == 0 {
            String::new()
        } else {
            "at={(0.5\\linewidth,0)}, ".into()
        };
        let _ = writeln!(
            out,
            "\\begin{{axis}}[{at}scale only axis, width=0.32\\linewidth, height=0.27\\linewidth, ymode={mode}, \
             xmin=0, xmax={}, xlabel={{depth ({} moves)}}, ylabel={{{ylabel}}}, \
             title={{{}}}, title style={{font=\\small}}, grid=major, mark size=1pt]",
            series.states.len().saturating_sub(1).max(1),
            series.metric.adjective(),
            tex(&series.label)
        );
        let step = series.states.len().div_ceil(MARKS).max(1);
        let _ = writeln!(
            out,
            "\\addplot+[mark=*, mark repeat={step}] coordinates {{{points}}};"
        );
        out.push_str("\\end{axis}\n");
    }
    out.push_str("\\end{tikzpicture}\n");
    out
}

/// Every board on shared axes, depth / eccentricity against states / total (a log axis with
/// `log`), identical distributions once, a legend under the axis in two columns; with its
/// labels, the line wide.
pub fn overlay(all: &[Series], log: bool, command: &str) -> String {
    let all = merge_identical(all);
    let mut out = format!("% {command}\n{PREAMBLE}");
    let mode = if log { "log" } else { "normal" };
    let counts = all.first().map_or("states", |s| s.counts);
    let ylabel = if log {
        format!("{counts} / total (log scale)")
    } else {
        format!("{counts} / total")
    };
    // Shares as 0.05, not 5 \cdot 10^{-2}, on a linear axis.
    let fixed = if log {
        ""
    } else {
        ", scaled y ticks=false, yticklabel style={/pgf/number format/fixed}"
    };
    out.push_str("\\begin{tikzpicture}\n");
    let _ = writeln!(
        out,
        "\\begin{{axis}}[scale only axis, width=0.8\\linewidth, height=0.55\\linewidth, \
         ymode={mode}, xmin=0, xmax=1, xlabel={{depth / eccentricity}}, ylabel={{{ylabel}}}, \
         grid=major, mark size=1.5pt, cycle list name=exotic, legend columns=2, \
         legend style={{font=\\scriptsize, at={{(0.5,-0.15)}}, anchor=north, \
         /tikz/every even column/.append style={{column sep=1em}}}}, \
         legend cell align=left{fixed}]"
    );
    for s in &all {
        let total: u64 = s.states.iter().sum();
        let eccentricity = s.states.len().saturating_sub(1).max(1) as f64;
        let step = s.states.len().div_ceil(MARKS).max(1);
        let points: Vec<String> = s
            .states
            .iter()
            .enumerate()
            .filter(|&(_, &n)| !log || n > 0)
            .map(|(d, &n)| {
                format!(
                    "({:.6},{:.6e})",
                    d as f64 / eccentricity,
                    n as f64 / total.max(1) as f64
                )
            })
            .collect();
        let _ = writeln!(
            out,
            "\\addplot+[mark repeat={step}] coordinates {{{}}};\n\\addlegendentry{{{}}}",
            points.join(" "),
            tex(&s.label)
        );
    }
    out.push_str("\\end{axis}\n\\end{tikzpicture}\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(label: &str, states: &[u64]) -> Series {
        Series {
            label: label.into(),
            title: String::new(),
            metric: crate::puzzle::metric::Metric::Single,
            states: states.to_vec(),
            counts: "states",
        }
    }

    #[test]
    fn identical_series_are_drawn_once() {
        let merged = merge_identical(&[
            s("3x3", &[1, 2, 1]),
            s("2x2", &[1, 2]),
            s("3x3 from b", &[1, 2, 1]),
        ]);
        let labels: Vec<&str> = merged.iter().map(|m| m.label.as_str()).collect();
        assert_eq!(labels, ["3x3 = 3x3 from b", "2x2"]);
    }

    /// Every depth's count is a coordinate; legends are escaped.
    #[test]
    fn pgfplots_carry_the_data() {
        let b = board(&s("2x2", &[1, 2, 2, 2, 2, 2, 1]), "test");
        assert!(
            b.contains("(0,1) (1,2) (2,2) (3,2) (4,2) (5,2) (6,1)"),
            "{b}"
        );
        assert_eq!(b.matches("\\begin{axis}").count(), 2);
        let o = overlay(&[s("a_b", &[1, 3]), s("c", &[1, 1, 2])], false, "test");
        assert!(o.contains("\\addlegendentry{a\\_b}"), "{o}");
        assert!(o.contains("(1.000000,7.500000e-1)"), "{o}");
    }
}

//! The summary of every analysed board as a table for papers: Markdown, LaTeX (booktabs), CSV
//! or JSON, from `summary.csv` alone.

use std::fmt::Write as _;

use serde::Serialize;

use crate::error::Error;
use crate::report::SummaryRow;

/// One board's line: what a paper reports of it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PaperRow {
    pub board: String,
    pub goal_blank: String,
    /// `goal`, or the board a `--from` search started at.
    pub start: String,
    pub class: String,
    pub states: u64,
    /// (RC)!/2 (or N for a line).
    pub expected_states: u64,
    /// The count equals the theorem's and every check passed.
    pub verified: bool,
    pub radius: u32,
    pub antipodes: usize,
    /// The exact mean depth in lowest terms, and rounded.
    pub mean_depth_exact: String,
    pub mean_depth: String,
    pub median_depth: u32,
    pub max_width: u64,
    pub depth_of_max_width: u32,
}

impl From<&SummaryRow> for PaperRow {
    fn from(r: &SummaryRow) -> PaperRow {
        PaperRow {
            board: r.board.clone(),
            goal_blank: r.goal_blank.clone(),
            start: r.start.clone(),
            class: r.class.clone(),
            states: r.states,
            expected_states: r.expected_states,
            verified: r.verified && r.states == r.expected_states,
            radius: r.radius,
            antipodes: r.antipodes,
            mean_depth_exact: r.mean_depth_exact.clone(),
            mean_depth: r.mean_depth.clone(),
            median_depth: r.median_depth,
            max_width: r.max_width,
            depth_of_max_width: r.depth_of_max_width,
        }
    }
}

/// The output formats of `tilespace table`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Markdown,
    Latex,
    Csv,
    Json,
}

/// Renders `rows` in `format`. The start column appears only if some search did not start at
/// the goal.
pub fn render(rows: &[PaperRow], format: Format) -> Result<String, Error> {
    let with_start = rows.iter().any(|r| r.start != "goal");
    Ok(match format {
        Format::Markdown => markdown(rows, with_start),
        Format::Latex => latex(rows, with_start),
        Format::Csv => {
            let mut w = csv::Writer::from_writer(Vec::new());
            for r in rows {
                w.serialize(r).map_err(|e| Error::Argument(e.to_string()))?;
            }
            let bytes = w.into_inner().map_err(|e| Error::Argument(e.to_string()))?;
            String::from_utf8(bytes).expect("CSV of UTF-8 fields")
        }
        Format::Json => {
            serde_json::to_string_pretty(rows).map_err(|e| Error::Argument(e.to_string()))? + "\n"
        }
    })
}

const HEADINGS: [&str; 9] = [
    "board",
    "goal blank",
    "states",
    "= (RC)!/2",
    "radius",
    "antipodes",
    "mean moves (exact)",
    "median",
    "widest layer",
];

fn markdown(rows: &[PaperRow], with_start: bool) -> String {
    let mut head: Vec<&str> = HEADINGS.to_vec();
    if with_start {
        head.insert(2, "from");
    }
    let mut out = format!("| {} |\n|", head.join(" | "));
    for h in &head {
        // Numbers right-aligned, names left.
        let numeric = !matches!(*h, "board" | "goal blank" | "from" | "= (RC)!/2");
        out.push_str(if numeric { " ---: |" } else { " --- |" });
    }
    out.push('\n');
    for r in rows {
        let mut cells = vec![md(&r.board), md(&r.goal_blank)];
        if with_start {
            cells.push(md(&r.start));
        }
        cells.extend([
            r.states.to_string(),
            if r.verified { "yes" } else { "NO" }.to_string(),
            r.radius.to_string(),
            r.antipodes.to_string(),
            format!("{} = {}", md(&r.mean_depth_exact), md(&r.mean_depth)),
            r.median_depth.to_string(),
            format!("{} at depth {}", r.max_width, r.depth_of_max_width),
        ]);
        let _ = writeln!(out, "| {} |", cells.join(" | "));
    }
    out
}

/// A text field of `summary.csv` (which anyone may have edited) in a Markdown table cell: a
/// `|` would end the cell and a line break the row.
fn md(text: &str) -> String {
    text.replace('|', "\\|").replace(['\n', '\r'], " ")
}

/// A text field in LaTeX text mode, its special characters escaped.
fn tex(text: &str) -> String {
    let mut out = String::new();
    for ch in text.chars() {
        match ch {
            '\\' => out.push_str("\\textbackslash{}"),
            '~' => out.push_str("\\textasciitilde{}"),
            '^' => out.push_str("\\textasciicircum{}"),
            '&' | '%' | '$' | '#' | '_' | '{' | '}' => {
                out.push('\\');
                out.push(ch);
            }
            '\n' | '\r' => out.push(' '),
            _ => out.push(ch),
        }
    }
    out
}

/// `text` in math mode if it is only digits and `./x` (what tilespace writes there), else as
/// escaped text.
fn tex_math(text: &str, math: impl Fn(&str) -> String) -> String {
    if !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_digit() || "./x".contains(c))
    {
        math(text)
    } else {
        tex(text)
    }
}

/// Digits grouped by thin spaces, as papers print large counts.
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push_str("\\,");
        }
        out.push(ch);
    }
    out
}

fn latex(rows: &[PaperRow], with_start: bool) -> String {
    let mut out = String::from("% tilespace table --format latex; needs \\usepackage{booktabs}\n");
    let cols = if with_start {
        "lllrcrrrrr"
    } else {
        "llrcrrrrr"
    };
    let _ = writeln!(out, "\\begin{{tabular}}{{{cols}}}");
    out.push_str("\\toprule\n");
    let mut head = vec![
        "Board",
        "Goal blank",
        "States",
        "$=(RC)!/2$",
        "Radius",
        "Antipodes",
        "Mean moves",
        "Median",
        "Widest layer (depth)",
    ];
    if with_start {
        head.insert(2, "From");
    }
    let _ = writeln!(out, "{} \\\\", head.join(" & "));
    out.push_str("\\midrule\n");
    for r in rows {
        let board = tex_math(&r.board, |b| {
            let (rr, cc) = b.split_once('x').unwrap_or((b, ""));
            format!("${rr}\\times{cc}$")
        });
        let mut cells = vec![board, format!("({})", tex(&r.goal_blank))];
        if with_start {
            cells.push(if r.start == "goal" {
                "goal".to_string()
            } else {
                format!("\\texttt{{{}}}", tex(&r.start))
            });
        }
        cells.extend([
            format!("${}$", grouped(r.states)),
            if r.verified { "yes" } else { "\\textbf{no}" }.to_string(),
            r.radius.to_string(),
            r.antipodes.to_string(),
            // A slash, not \frac: a stacked fraction does not fit a table row.
            tex_math(&format!("{}/{}", r.mean_depth_exact, r.mean_depth), |_| {
                format!("${} \\approx {}$", r.mean_depth_exact, r.mean_depth)
            }),
            r.median_depth.to_string(),
            format!("${}$ ({})", grouped(r.max_width), r.depth_of_max_width),
        ]);
        let _ = writeln!(out, "{} \\\\", cells.join(" & "));
    }
    out.push_str("\\bottomrule\n\\end{tabular}\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Text fields edited into `summary.csv` cannot break a Markdown row or a LaTeX table.
    #[test]
    fn text_fields_are_escaped() {
        assert_eq!(md("2x3 | x\nrow"), "2x3 \\| x row");
        assert_eq!(tex("a_b & 50% $x$ {y} #1 ~^\\"), "a\\_b \\& 50\\% \\$x\\$ \\{y\\} \\#1 \\textasciitilde{}\\textasciicircum{}\\textbackslash{}");
        assert_eq!(tex_math("3x4", |b| format!("${b}$")), "$3x4$");
        assert_eq!(
            tex_math("3x4$\\input{x}", |b| format!("${b}$")),
            "3x4\\$\\textbackslash{}input\\{x\\}"
        );
    }

    #[test]
    fn groups_digits_in_threes() {
        assert_eq!(grouped(12), "12");
        assert_eq!(grouped(181440), "181\\,440");
        assert_eq!(grouped(1814400), "1\\,814\\,400");
    }
}

//! The goals of tokens searched (`tilespace table --tokens`), from `tokens-summary.csv`: each
//! puzzle's tokens in the multiset's notation (the puzzle named `multi` in the multi-tile
//! metric), the arrangements and those that
//! reach the goal (beside the theorems' count unless every run agreed with one), the
//! eccentricity, antipodes and mean (to six places; exact in the JSON).

use super::grid::{Grid, GridCell, Heading, Kind};
use super::{Format, Rendered};
use crate::error::Error;
use crate::report::tokens::TokensSummaryRow;

/// A multiset's notation (`1^4 2^4 0`) in LaTeX's math: `$1^{4}\,2^{4}\,0$`; a run of three
/// or more consecutive labels `a a+1 … b` of one token each as `a`–`b`, of k tokens each as
/// (`a`–`b`)^k.
fn notation_tex(notation: &str) -> String {
    let mut terms: Vec<String> = vec![];
    // The run: its first and last label, and the tokens of each.
    let mut run: Option<(u64, u64, String)> = None;
    let flush = |run: &mut Option<(u64, u64, String)>, terms: &mut Vec<String>| {
        let Some((a, b, k)) = run.take() else {
            return;
        };
        let power = |label: u64| match k.as_str() {
            "" => label.to_string(),
            k => format!("{label}^{{{k}}}"),
        };
        match (b - a >= 2, k.as_str()) {
            (true, "") => terms.push(format!("{a}\\mbox{{--}}{b}")),
            (true, k) => terms.push(format!("({a}\\mbox{{--}}{b})^{{{k}}}")),
            (false, _) => terms.extend((a..=b).map(power)),
        }
    };
    for t in notation.split_whitespace() {
        let (label, k) = t.split_once('^').unwrap_or((t, ""));
        match label.parse::<u64>() {
            Ok(label) if label > 0 => {
                let extends = run
                    .as_ref()
                    .is_some_and(|(_, b, kk)| b + 1 == label && kk == k);
                match (extends, run.as_mut()) {
                    (true, Some(r)) => r.1 = label,
                    _ => {
                        flush(&mut run, &mut terms);
                        run = Some((label, label, k.to_string()));
                    }
                }
            }
            _ => {
                flush(&mut run, &mut terms);
                terms.push(match t.split_once('^') {
                    Some((label, k)) => format!("{label}^{{{k}}}"),
                    None => t.to_string(),
                });
            }
        }
    }
    flush(&mut run, &mut terms);
    format!("${}$", terms.join("\\,"))
}

/// `rows` in `format`.
pub fn render(rows: &[TokensSummaryRow], format: Format) -> Result<Rendered, Error> {
    // Where every run agreed with a theorem's count, the caption says so in place of a column.
    let all_predicted = rows
        .iter()
        .all(|r| r.verified && r.predicted.as_deref() == Some(&r.reachable.to_string()));
    let h = |text: &str, kind| Heading::new(text, text, kind);
    let mut headings = vec![
        h("puzzle", Kind::Text),
        h("tokens", Kind::Text),
        Heading::new("arrangements", "all", Kind::Count),
        Heading::new("reachable", "reached", Kind::Count),
    ];
    if !all_predicted {
        headings.push(h("predicted", Kind::Text));
    }
    headings.extend([
        Heading::new("eccentricity", "ecc.", Kind::Count),
        h("antipodes", Kind::Count),
        h("mean", Kind::Decimal),
    ]);
    let row = |r: &TokensSummaryRow| {
        // The multi-tile metric beside the puzzle, as its reports' folders name it.
        let puzzle = match r.metric.note() {
            None => r.puzzle.clone(),
            Some(_) => format!("{} {}", r.puzzle, r.metric.name()),
        };
        let mut cells = vec![
            GridCell::text(&puzzle),
            GridCell::with_tex(&r.tokens, notation_tex(&r.tokens)),
            GridCell::count(r.arrangements),
            GridCell::count(r.reachable),
        ];
        if !all_predicted {
            cells.push(
                r.predicted
                    .as_deref()
                    .map_or(GridCell::with_tex("–", "--".into()), GridCell::text),
            );
        }
        cells.extend([
            GridCell::count(u64::from(r.eccentricity)),
            GridCell::count(r.antipodes),
            GridCell::text(&r.mean_depth),
        ]);
        cells
    };
    let mut caption = "Pebble motion: goals of tokens (labels that repeat, several blanks; \
                       $a^{k}$ is $k$ tokens labelled $a$, $a$--$b$ one of each label from $a$ \
                       to $b$, $(a$--$b)^{k}$ $k$ of each, $0$ a blank; single-tile moves unless \
                       multi is named), the arrangements (all) and those that reach each (reached), \
                       its eccentricity (ecc.) and mean distance (tilespace)."
        .to_string();
    if all_predicted {
        caption += " Every count of reachable arrangements is the one the theorems of pebble \
                    motion give, and every run passed its checks.";
    }
    let g = Grid {
        headings,
        rows: rows.iter().map(row).collect(),
        caption,
        label: "tab:tokens".into(),
        ..Grid::default()
    };
    super::rendered(&g, format, "tilespace table --tokens --format latex", &rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_multiset_is_written_as_powers() {
        assert_eq!(
            notation_tex("1^4 2^4 3^4 4^3 0"),
            "$(1\\mbox{--}3)^{4}\\,4^{3}\\,0$"
        );
        assert_eq!(
            notation_tex("1^3 2^3 3^3 4^3 5^2 0"),
            "$(1\\mbox{--}4)^{3}\\,5^{2}\\,0$"
        );
        assert_eq!(notation_tex("1^2 2^2 0^4"), "$1^{2}\\,2^{2}\\,0^{4}$");
        assert_eq!(notation_tex("1 2 0^2"), "$1\\,2\\,0^{2}$");
        assert_eq!(
            notation_tex("1 2 3 4 5 6 7 8 9 10 0^2"),
            "$1\\mbox{--}10\\,0^{2}$"
        );
        assert_eq!(
            notation_tex("1^2 3 4 5 7 0"),
            "$1^{2}\\,3\\mbox{--}5\\,7\\,0$"
        );
    }
}

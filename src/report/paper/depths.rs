//! The depth distributions of several boards side by side: states at each depth, one column
//! per board (`tilespace table --distribution`). In LaTeX, a `longtable` (a 2x7 has 109
//! depths), split into as many tables as it takes for each to fit a one-column page.

use std::path::Path;

use super::grid::{self, Grid, GridCell, Heading, Kind};
use super::{Format, Rendered};
use crate::error::Error;
use crate::report::{read_depths_of, SummaryRow};

/// One board's distribution, with its names.
#[derive(Clone, Debug, PartialEq)]
pub struct LabelledDepths {
    /// For people: `2x3`, `3x3 blank 1,1`, `3x3 from 1 2 3/4 5 6/8 7 0`.
    pub label: String,
    /// For CSV headers: the board's report folder, `3x3-blank-1-1`.
    pub name: String,
    /// States at each depth from 0.
    pub layers: Vec<u64>,
}

/// The distributions of `rows`, read from their `depths.csv` under `results`.
pub fn read_all(results: &Path, rows: &[SummaryRow]) -> Result<Vec<LabelledDepths>, Error> {
    rows.iter()
        .map(|r| {
            let name = r.report_dir()?;
            let depths = read_depths_of(results, r)?;
            Ok(LabelledDepths {
                label: r.label(),
                name,
                layers: depths.iter().map(|d| d.states).collect(),
            })
        })
        .collect()
}

fn grid(boards: &[&LabelledDepths], csv: bool) -> Grid {
    let depths = boards.iter().map(|b| b.layers.len()).max().unwrap_or(0);
    let mut headings = vec![Heading::new("depth", "Depth", Kind::Count)];
    let (marks, _) = marks(boards);
    headings.extend(boards.iter().zip(marks).map(|(b, mark)| {
        let text = if csv { &b.name } else { &b.label };
        let mut h = Heading::new(text, &label_tex(&b.label, mark), Kind::Count);
        h.group = "States at depth".into();
        h
    }));
    let rows = (0..depths)
        .map(|d| {
            let mut row = vec![GridCell::count(d as u64)];
            row.extend(boards.iter().map(|b| {
                b.layers
                    .get(d)
                    .map_or_else(GridCell::default, |&n| GridCell::count(n))
            }));
            row
        })
        .collect();
    Grid {
        headings,
        rows,
        ..Grid::default()
    }
}

/// `3x3 blank 1,1` as `$3\times3$ (1,1)`; a search from a board gets a mark (`marks` says
/// which), which the caption explains.
fn label_tex(label: &str, mark: Option<char>) -> String {
    let (board, rest) = label.split_once(' ').unwrap_or((label, ""));
    let mut out = grid::tex_board(board);
    if let Some(cell) = rest.strip_prefix("blank ") {
        out += &format!(" ({})", grid::tex(cell));
    }
    if let Some(m) = mark {
        out += &format!("\\textsuperscript{{{m}}}");
    }
    out
}

/// The mark of each board searched from elsewhere than the goal (a, b, …), and the caption's
/// note for it.
fn marks(boards: &[&LabelledDepths]) -> (Vec<Option<char>>, String) {
    let mut note = String::new();
    let mut next = 0u8;
    let marks = boards
        .iter()
        .map(|b| {
            let start = b.label.split_once(" from ")?.1;
            let m = char::from(b'a' + next % 26);
            next += 1;
            note += &format!(
                " \\textsuperscript{{{m}}}Searched from \\texttt{{{}}}.",
                grid::tex(start)
            );
            Some(m)
        })
        .collect();
    (marks, note)
}

/// The distributions in `format` (CSV and JSON: one column or key per board).
pub fn render(boards: &[LabelledDepths], format: Format) -> Result<Rendered, Error> {
    let all: Vec<&LabelledDepths> = boards.iter().collect();
    let text = match format {
        Format::Markdown => grid(&all, false).markdown(),
        Format::Csv => grid(&all, true).csv(),
        Format::Json => {
            let map: serde_json::Map<String, serde_json::Value> = boards
                .iter()
                .map(|b| (b.name.clone(), b.layers.clone().into()))
                .collect();
            serde_json::to_string_pretty(&map).map_err(|e| Error::Argument(e.to_string()))? + "\n"
        }
        Format::Latex => return Ok(latex(&all)),
    };
    Ok(Rendered {
        text,
        warnings: vec![],
    })
}

/// As many longtables as it takes for each to fit an article's width, boards in order.
fn latex(boards: &[&LabelledDepths]) -> Rendered {
    let mut parts: Vec<Vec<&LabelledDepths>> = vec![];
    for b in boards {
        let fits = parts.last().is_some_and(|part| {
            let mut wider = part.clone();
            wider.push(b);
            // With 10 pt to spare: the estimate is rough.
            grid(&wider, false).latex_width_pt() <= grid::ARTICLE_WIDTH_PT - 10.0
        });
        match parts.last_mut() {
            Some(part) if fits => part.push(b),
            _ => parts.push(vec![b]),
        }
    }
    let mut text = String::new();
    let mut warnings = vec![];
    let n = parts.len();
    for (i, part) in parts.iter().enumerate() {
        let mut g = grid(part, false);
        g.long = true;
        let which = if n > 1 {
            format!(" (part {} of {n})", i + 1)
        } else {
            String::new()
        };
        let (_, starts) = marks(part);
        g.caption = format!(
            "States at each depth (the number of moves from the goal, optimal){which}: every state \
             of each board enumerated by breadth-first search (tilespace). $(r,c)$: a goal blank \
             other than the bottom-right, at row $r$ and column $c$.{starts}"
        );
        g.label = if n > 1 {
            format!("tab:tilespace-depths-{}", i + 1)
        } else {
            "tab:tilespace-depths".into()
        };
        if i > 0 {
            text.push('\n');
        }
        let r = super::fitted(g.latex("tilespace table --distribution --format latex"), &g);
        text += &r.text;
        warnings.extend(r.warnings);
    }
    Rendered { text, warnings }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(label: &str, layers: &[u64]) -> LabelledDepths {
        LabelledDepths {
            label: label.into(),
            name: label.replace(' ', "-"),
            layers: layers.to_vec(),
        }
    }

    /// Depths past a board's eccentricity are empty cells; CSV headers are the report folders.
    #[test]
    fn boards_of_different_radii_share_the_depth_column() {
        let b = [
            board("2x2", &[1, 2, 2, 2, 2, 2, 1]),
            board("1x3", &[1, 1, 1]),
        ];
        let csv = render(&b, Format::Csv).unwrap().text;
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines[0], "depth,2x2,1x3");
        assert_eq!(lines[1], "0,1,1");
        assert_eq!(lines[4], "3,2,");
        assert_eq!(lines.len(), 8);
        assert_eq!(label_tex("3x3 blank 1,1", None), "$3\\times3$ (1,1)");
    }

    /// Eleven wide boards do not go in one table: each part fits the page.
    #[test]
    fn wide_sets_are_split_into_tables_that_fit() {
        let boards: Vec<LabelledDepths> = (0..11)
            .map(|i| board(&format!("2x{}", i + 2), &[1, 43_589_145_600, 1_862_320_864]))
            .collect();
        let r = render(&boards, Format::Latex).unwrap();
        assert!(r.warnings.is_empty(), "{:?}", r.warnings);
        let parts = r.text.matches("\\begin{longtable}").count();
        assert!(parts > 1, "{}", r.text);
        assert!(r.text.contains(&format!("(part {parts} of {parts})")));
        for b in &boards {
            assert_eq!(
                r.text.matches(&label_tex(&b.label, None)).count(),
                2,
                "{}: head and repeated head",
                b.label
            );
        }
    }
}

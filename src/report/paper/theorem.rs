//! The counting theorem as a table (`tilespace table --theorem`), from `theorem.csv`: for each
//! board and parity class, the start searched from, the states reached and the checks.

use super::grid::{self, Grid, GridCell, Heading, Kind};
use super::{Format, Rendered};
use crate::error::Error;
use crate::report::TheoremRow;

fn heading(text: &str, tex: &str, kind: Kind) -> Heading {
    Heading::new(text, tex, kind)
}

fn yes(b: bool) -> GridCell {
    GridCell::text(if b { "yes" } else { "no" })
}

/// The count check: `yes`, `no`, or for a line (N states, not N!/2) `n/a (a line: N = 5)`.
fn count_check(r: &TheoremRow) -> GridCell {
    let line = r
        .board
        .parse::<crate::puzzle::board::Shape>()
        .is_ok_and(|s| s.is_line());
    if line {
        GridCell::text(&format!("n/a (a line: N = {})", r.expected))
    } else {
        yes(r.states == r.expected)
    }
}

fn all_checks(r: &TheoremRow) -> bool {
    r.states == r.expected && r.component && r.parity_test_agrees
}

/// `rows` in `format`. Markdown and CSV have a column per check; LaTeX states the checks in
/// its caption when all passed (a column lists the failures otherwise), to fit a page.
pub fn render(rows: &[TheoremRow], format: Format) -> Result<Rendered, Error> {
    if format == Format::Json {
        let text =
            serde_json::to_string_pretty(rows).map_err(|e| Error::Argument(e.to_string()))?;
        return Ok(Rendered {
            text: text + "\n",
            warnings: vec![],
        });
    }
    if format == Format::Latex {
        return Ok(latex(rows));
    }
    let g = Grid {
        headings: vec![
            heading("board", "", Kind::Text),
            heading("class", "", Kind::Text),
            heading("start", "", Kind::Text),
            heading("states", "", Kind::Count),
            heading("= (RC)!/2", "", Kind::Text),
            heading("one component", "", Kind::Text),
            heading("parity test agrees", "", Kind::Text),
            heading("eccentricity", "", Kind::Count),
        ],
        rows: rows
            .iter()
            .map(|r| {
                vec![
                    GridCell::text(&r.board),
                    GridCell::text(r.class.name()),
                    GridCell::text(&r.start),
                    GridCell::count(r.states),
                    count_check(r),
                    yes(r.component),
                    yes(r.parity_test_agrees),
                    GridCell::count(r.eccentricity),
                ]
            })
            .collect(),
        ..Grid::default()
    };
    Ok(Rendered {
        text: match format {
            Format::Csv => {
                let mut w = csv::Writer::from_writer(Vec::new());
                for r in rows {
                    w.serialize(r).map_err(|e| Error::Argument(e.to_string()))?;
                }
                String::from_utf8(w.into_inner().map_err(|e| Error::Argument(e.to_string()))?)
                    .map_err(|e| Error::Argument(e.to_string()))?
            }
            _ => g.markdown(),
        },
        warnings: vec![],
    })
}

/// `rows` as a LaTeX table whose caption states the checks (or a column lists the failures).
fn latex(rows: &[TheoremRow]) -> Rendered {
    let start = |r: &TheoremRow| {
        GridCell::with_tex(&r.start, format!("\\texttt{{{}}}", grid::tex(&r.start)))
    };
    let board = |r: &TheoremRow| GridCell::with_tex(&r.board, grid::tex_board(&r.board));
    let failed = rows.iter().any(|r| !all_checks(r));
    let mut headings = vec![
        heading("board", "Board", Kind::Text),
        heading("class", "Class", Kind::Text),
        heading("start", "Start", Kind::Text),
        heading("states", "States", Kind::Count),
        heading("eccentricity", "Eccentricity", Kind::Count),
    ];
    if failed {
        headings.push(heading("failed", "Failed", Kind::Text));
    }
    let body = rows
        .iter()
        .map(|r| {
            let mut cells = vec![
                board(r),
                GridCell::text(r.class.name()),
                start(r),
                GridCell::count(r.states),
                GridCell::count(r.eccentricity),
            ];
            if failed {
                let mut why = vec![];
                if r.states != r.expected {
                    why.push("count");
                }
                if !r.component {
                    why.push("component");
                }
                if !r.parity_test_agrees {
                    why.push("parity test");
                }
                cells.push(GridCell::text(&why.join(", ")));
            }
            cells
        })
        .collect();
    let checks = if failed {
        "Failed: the checks that did not hold (count: the states are $(RC)!/2$; component: the \
         class was reached completely; parity test: the sign test gives every state its class)."
    } else {
        "Each class was reached completely from its start (it is one connected component), \
         with $(RC)!/2$ states ($N$ for a line of $N$ cells), and the sign test gives every \
         state of it its class."
    };
    let g = Grid {
        headings,
        rows: body,
        caption: format!(
            "The counting theorem, checked by enumeration (tilespace): both parity classes of \
             each board, each searched from its start. Eccentricity: the most moves from the start. {checks}"
        ),
        label: "tab:tilespace-theorem".into(),
        ..Grid::default()
    };
    super::fitted(g.latex("tilespace table --theorem --format latex"), &g)
}

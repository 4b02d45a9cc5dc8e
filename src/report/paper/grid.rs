//! A table before it is printed: headings, columns of a kind, and cells, rendered as Markdown,
//! LaTeX (booktabs with siunitx `S` columns) or CSV. The tables of `tilespace table` are built
//! as a `Grid` and share these renderers.

use std::fmt::Write as _;

/// What a column holds, which decides its alignment and, in LaTeX, its column type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Left-aligned text.
    Text,
    /// A count: right-aligned, digits grouped (`S` in LaTeX).
    Count,
    /// A decimal number: aligned on the point (`S` in LaTeX).
    Decimal,
    /// A fraction `N/D`: right-aligned, in math mode in LaTeX.
    Fraction,
}

/// One column: its heading in Markdown/CSV and in LaTeX, and its kind.
#[derive(Clone, Debug)]
pub struct Heading {
    /// Markdown's and CSV's heading.
    pub text: String,
    /// LaTeX's heading.
    pub tex: String,
    /// What the column holds.
    pub kind: Kind,
    /// LaTeX only: a heading over this column and its neighbours of the same group (empty:
    /// none), ruled off above theirs.
    pub group: String,
}

impl Heading {
    /// A heading in no group.
    pub fn new(text: &str, tex: &str, kind: Kind) -> Heading {
        Heading {
            text: text.into(),
            tex: tex.into(),
            kind,
            group: String::new(),
        }
    }
}

/// A cell: its plain text (Markdown, CSV), and its LaTeX (escaped text, or for numbers the
/// bare digits, which siunitx groups). An empty cell is empty in every format.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GridCell {
    /// For Markdown and CSV.
    pub text: String,
    /// For LaTeX.
    pub tex: String,
}

impl GridCell {
    /// A count: plain digits, grouped in Markdown with commas.
    pub fn count(n: impl Into<u128>) -> GridCell {
        let n = n.into();
        GridCell {
            text: n.to_string(),
            tex: n.to_string(),
        }
    }

    /// A decimal as written (digits and at most one point).
    pub fn decimal(text: &str) -> GridCell {
        GridCell {
            text: text.to_string(),
            tex: text.to_string(),
        }
    }

    /// Text, escaped for LaTeX.
    pub fn text(text: &str) -> GridCell {
        GridCell {
            text: text.to_string(),
            tex: tex(text),
        }
    }

    /// Text with its own LaTeX.
    pub fn with_tex(text: &str, tex: String) -> GridCell {
        GridCell {
            text: text.to_string(),
            tex,
        }
    }
}

/// Headings, rows of cells (one per heading), and what LaTeX puts around them.
#[derive(Clone, Debug, Default)]
pub struct Grid {
    /// One per column.
    pub headings: Vec<Heading>,
    /// One cell per heading in each.
    pub rows: Vec<Vec<GridCell>>,
    /// LaTeX only: the caption, the label, and notes printed under the table.
    pub caption: String,
    /// LaTeX's `\label`.
    pub label: String,
    /// Lines under the table (LaTeX).
    pub notes: Vec<String>,
    /// LaTeX only: a `longtable`, which runs over pages and repeats its heading, instead of a
    /// `table` float.
    pub long: bool,
}

/// The text width of LaTeX's `article` class at 10 pt on A4 or letter paper, in points: what
/// a one-column table must fit.
pub const ARTICLE_WIDTH_PT: f64 = 345.0;

/// The most rows a `table` float takes: an article page at 10 pt holds about 526 pt of text,
/// a `\\small` row takes 11 pt, and the caption, the heading, the rules and a few notes take
/// about 130 pt. (A 65-row float was "too large for page by 277pt".)
pub const FLOAT_ROWS: usize = 36;

/// The space between LaTeX columns (`\tabcolsep`, twice): 4 pt a side, not LaTeX's 6, as
/// tables of numbers in journals have it.
const GAP_PT: f64 = 8.0;

/// Tables are set `\small` (9 pt, 90% of the text's 10 pt), as journals set them.
const SMALL: f64 = 0.9;

impl Grid {
    /// A Markdown table (GitHub's pipes), counts grouped with commas.
    pub fn markdown(&self) -> String {
        let head: Vec<&str> = self.headings.iter().map(|h| h.text.as_str()).collect();
        let mut out = format!("| {} |\n|", head.join(" | "));
        for h in &self.headings {
            out.push_str(if h.kind == Kind::Text {
                " --- |"
            } else {
                " ---: |"
            });
        }
        out.push('\n');
        for row in &self.rows {
            let cells: Vec<String> = row
                .iter()
                .zip(&self.headings)
                .map(|(c, h)| match h.kind {
                    Kind::Count => commas(&c.text),
                    _ => md(&c.text),
                })
                .collect();
            let _ = writeln!(out, "| {} |", cells.join(" | "));
        }
        out
    }

    /// A CSV: plain headings, plain cells.
    pub fn csv(&self) -> String {
        let mut w = csv::Writer::from_writer(Vec::new());
        let head: Vec<&str> = self.headings.iter().map(|h| h.text.as_str()).collect();
        let _ = w.write_record(&head);
        for row in &self.rows {
            let _ = w.write_record(row.iter().map(|c| c.text.as_str()));
        }
        let bytes = w.into_inner().unwrap_or_default();
        String::from_utf8(bytes).unwrap_or_default()
    }

    /// A `table` float (or a `longtable`) with a booktabs `tabular`, numbers in siunitx `S`
    /// columns sized to the widest entry, its caption and label, and the notes under it.
    /// `command` is named in the first comment line, with the packages the table needs.
    pub fn latex(&self, command: &str) -> String {
        // A float is one page: past the rows a page holds, the table runs over pages.
        let long = self.long || self.rows.len() > FLOAT_ROWS;
        let packages = if long {
            "\\usepackage{booktabs}, \\usepackage{siunitx} and \\usepackage{longtable}"
        } else {
            "\\usepackage{booktabs} and \\usepackage{siunitx}"
        };
        let mut out = format!("% {command}\n% needs {packages}\n");
        let spec = format!("@{{}}{}@{{}}", self.column_spec());
        let head: Vec<String> = self
            .headings
            .iter()
            .map(|h| match h.kind {
                Kind::Text | Kind::Fraction => h.tex.clone(),
                // An S column reads its heading as a number unless it is braced.
                _ => format!("{{{}}}", h.tex),
            })
            .collect();
        let head = format!(
            "\\toprule\n{}{} \\\\\n\\midrule\n",
            self.groups(),
            head.join(" & ")
        );
        let size = "\\small\\setlength{\\tabcolsep}{4pt}\n";
        if long {
            // In a group, so that the size and the column gap end with the table.
            out.push_str("\\begingroup\n");
            out.push_str(size);
            let _ = writeln!(out, "\\begin{{longtable}}{{{spec}}}");
            let _ = writeln!(
                out,
                "\\caption{{{}}}\\label{{{}}} \\\\",
                self.caption, self.label
            );
            out.push_str(&head);
            out.push_str("\\endfirsthead\n");
            out.push_str(&head);
            out.push_str("\\endhead\n\\bottomrule\n\\endfoot\n");
        } else {
            out.push_str("\\begin{table}\n\\centering\n");
            out.push_str(size);
            let _ = writeln!(out, "\\caption{{{}}}", self.caption);
            let _ = writeln!(out, "\\label{{{}}}", self.label);
            let _ = writeln!(out, "\\begin{{tabular}}{{{spec}}}");
            out.push_str(&head);
        }
        for row in &self.rows {
            let cells: Vec<String> = row
                .iter()
                .zip(&self.headings)
                .map(|(c, h)| match h.kind {
                    // siunitx reads digits only; anything else goes in braces, as text.
                    Kind::Text | Kind::Fraction => c.tex.clone(),
                    _ if numeric(&c.tex) => c.tex.clone(),
                    _ => format!("{{{}}}", c.tex),
                })
                .collect();
            let _ = writeln!(out, "{} \\\\", cells.join(" & "));
        }
        if long {
            out.push_str("\\end{longtable}\n");
        } else {
            out.push_str("\\bottomrule\n\\end{tabular}\n");
        }
        if !self.notes.is_empty() {
            out.push_str("\\par\\smallskip\n{\\footnotesize\n");
            for note in &self.notes {
                let _ = writeln!(out, "{note}\\par");
            }
            out.push_str("}\n");
        }
        out.push_str(if long {
            "\\endgroup\n"
        } else {
            "\\end{table}\n"
        });
        out
    }

    /// The row of group headings over their columns, ruled off, if there are groups.
    fn groups(&self) -> String {
        if self.headings.iter().all(|h| h.group.is_empty()) {
            return String::new();
        }
        let mut cells = vec![];
        let mut rules = String::new();
        let mut i = 0;
        while i < self.headings.len() {
            let group = &self.headings[i].group;
            let mut n = 1;
            while !group.is_empty() && self.headings.get(i + n).is_some_and(|h| &h.group == group) {
                n += 1;
            }
            if group.is_empty() {
                cells.push(String::new());
            } else {
                cells.push(format!("\\multicolumn{{{n}}}{{c}}{{{group}}}"));
                let _ = write!(rules, "\\cmidrule(lr){{{}-{}}}", i + 1, i + n);
            }
            i += n;
        }
        format!("{} \\\\\n{rules}\n", cells.join(" & "))
    }

    /// `l` for text, `S[table-format=I.F]` for numbers, sized to the column's entries.
    fn column_spec(&self) -> String {
        let mut spec = String::new();
        for (i, h) in self.headings.iter().enumerate() {
            if h.kind == Kind::Text {
                spec.push('l');
                continue;
            }
            if h.kind == Kind::Fraction {
                spec.push('r');
                continue;
            }
            let (mut int, mut frac) = (1, 0);
            for row in &self.rows {
                let t = &row[i].tex;
                if numeric(t) {
                    let (a, b) = t.split_once('.').unwrap_or((t, ""));
                    int = int.max(a.len());
                    frac = frac.max(b.len());
                }
            }
            let _ = write!(spec, "S[table-format={int}.{frac}]");
        }
        spec
    }

    /// About how wide the LaTeX table is, in points: each column's widest entry or heading at
    /// 10 pt (digits 5 pt, a thin space per group of three, other characters about 5 pt,
    /// markup not counted), set small, plus the gaps between columns.
    pub fn latex_width_pt(&self) -> f64 {
        let mut total = 0.0;
        for (i, h) in self.headings.iter().enumerate() {
            let mut widest = visible_width(&h.tex);
            for row in &self.rows {
                let t = &row[i].tex;
                let w = if matches!(h.kind, Kind::Count | Kind::Decimal) && numeric(t) {
                    let int = t.split('.').next().unwrap_or("").len();
                    // siunitx groups 5 digits and more (by default).
                    let groups = if int >= 5 { (int - 1) / 3 } else { 0 };
                    t.len() as f64 * 5.0 + groups as f64 * 1.67
                } else {
                    visible_width(t)
                };
                widest = widest.max(w);
            }
            total += widest;
        }
        total * SMALL + GAP_PT * self.headings.len().saturating_sub(1) as f64
    }
}

/// Digits with at most one point: what an `S` column typesets as a number.
fn numeric(t: &str) -> bool {
    !t.is_empty()
        && t.chars().all(|c| c.is_ascii_digit() || c == '.')
        && t.matches('.').count() <= 1
        && !t.starts_with('.')
        && !t.ends_with('.')
}

/// The printed width of LaTeX text, roughly: 5 pt a character, control words and braces not
/// counted, `\times` and the like as one character.
fn visible_width(tex: &str) -> f64 {
    let mut chars = 0usize;
    let mut it = tex.chars().peekable();
    while let Some(c) = it.next() {
        match c {
            '\\' => {
                // A control word (\\times) or symbol (\\,) prints about one character.
                let mut word = false;
                while it.peek().is_some_and(|c| c.is_ascii_alphabetic()) {
                    it.next();
                    word = true;
                }
                if word || it.next().is_some() {
                    chars += 1;
                }
            }
            '{' | '}' | '$' | '^' | '_' => {}
            _ => chars += 1,
        }
    }
    chars as f64 * 5.0
}

/// Digits grouped by commas, as Markdown tables print large counts; other text as is.
pub fn commas(text: &str) -> String {
    if text.is_empty() || !text.chars().all(|c| c.is_ascii_digit()) {
        return md(text);
    }
    let mut out = String::new();
    for (i, ch) in text.chars().enumerate() {
        if i > 0 && (text.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// A text field of a report (which anyone may have edited) in a Markdown table cell: a `|`
/// would end the cell and a line break the row.
pub fn md(text: &str) -> String {
    text.replace('|', "\\|").replace(['\n', '\r'], " ")
}

/// A text field in LaTeX text mode, its special characters escaped.
pub fn tex(text: &str) -> String {
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

/// A board size `RxC` as `$R\times C$` if it is one, else as escaped text.
pub fn tex_board(board: &str) -> String {
    match board.split_once('x') {
        Some((r, c))
            if !r.is_empty()
                && !c.is_empty()
                && r.chars().chain(c.chars()).all(|ch| ch.is_ascii_digit()) =>
        {
            format!("${r}\\times{c}$")
        }
        _ => tex(board),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Text fields edited into a report cannot break a Markdown row or a LaTeX table.
    #[test]
    fn text_fields_are_escaped() {
        assert_eq!(md("2x3 | x\nrow"), "2x3 \\| x row");
        assert_eq!(
            tex("a_b & 50% $x$ {y} #1 ~^\\"),
            "a\\_b \\& 50\\% \\$x\\$ \\{y\\} \\#1 \\textasciitilde{}\\textasciicircum{}\\textbackslash{}"
        );
        assert_eq!(tex_board("3x4"), "$3\\times4$");
        assert_eq!(
            tex_board("3x4$\\input{x}"),
            "3x4\\$\\textbackslash{}input\\{x\\}"
        );
    }

    #[test]
    fn groups_digits_in_threes() {
        assert_eq!(commas("12"), "12");
        assert_eq!(commas("181440"), "181,440");
        assert_eq!(commas("1814400"), "1,814,400");
        assert_eq!(commas("3/4"), "3/4");
    }

    /// An S column is sized to its widest number; text in it is braced, so siunitx leaves it.
    #[test]
    fn number_columns_fit_their_entries() {
        let g = Grid {
            headings: vec![
                Heading::new("n", "n", Kind::Count),
                Heading::new("m", "m", Kind::Decimal),
            ],
            rows: vec![
                vec![GridCell::count(12u64), GridCell::decimal("3")],
                vec![
                    GridCell::count(43589145600u64),
                    GridCell::decimal("65.483526"),
                ],
                vec![GridCell::text("n/a"), GridCell::text("")],
            ],
            ..Grid::default()
        };
        assert_eq!(g.column_spec(), "S[table-format=11.0]S[table-format=2.6]");
        let tex = g.latex("test");
        assert!(tex.contains("{n/a} & {} \\\\"), "{tex}");
        assert!(tex.contains("43589145600 & 65.483526 \\\\"), "{tex}");
    }
}

//! The atlas drawn (`tilespace plot --atlas`): a board as a grid of its cells, each shaded by
//! the most moves from a goal with the blank there (eccentricity) and, beside it, by the mean
//! moves, so that a reader sees which goal cells are hardest. SVG written by hand (squares and
//! their figures need no chart library), and pgfplots (`matrix plot*`) for papers.

use std::fmt::Write as _;

use super::atlas::CellMap;
use crate::puzzle::board::Cell;

/// The two panels of a map: what is shaded, and each cell's value and label.
fn panels(map: &CellMap) -> [(&'static str, Vec<f64>, Vec<String>); 2] {
    let cells = map.shape.cells();
    let ecc: Vec<f64> = map.eccentricity.iter().map(|&e| f64::from(e)).collect();
    let mean: Vec<f64> = (0..cells).map(|c| map.mean_of(c)).collect();
    [
        (
            "most moves (eccentricity)",
            ecc,
            map.eccentricity.iter().map(u32::to_string).collect(),
        ),
        (
            "mean moves",
            mean.clone(),
            mean.iter().map(|m| format!("{m:.3}")).collect(),
        ),
    ]
}

/// The lightest and darkest shades (ColorBrewer's Blues, light to mid: black figures stay
/// readable on every cell).
const LIGHT: (f64, f64, f64) = (239.0, 243.0, 255.0);
const DARK: (f64, f64, f64) = (66.0, 146.0, 198.0);

/// Where `v` stands between the smallest and largest of `all`, 0 to 1 (all alike: 1, every
/// cell as hard as the hardest).
fn shade(v: f64, all: &[f64]) -> f64 {
    let lo = all.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = all.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if hi > lo {
        (v - lo) / (hi - lo)
    } else {
        1.0
    }
}

/// The SVG colour at `t` (0 light, 1 dark).
fn colour(t: f64) -> String {
    let mix = |a: f64, b: f64| (a + (b - a) * t).round() as u8;
    format!(
        "#{:02x}{:02x}{:02x}",
        mix(LIGHT.0, DARK.0),
        mix(LIGHT.1, DARK.1),
        mix(LIGHT.2, DARK.2)
    )
}

/// Escapes text for XML.
fn xml(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// Pixels of a cell's side.
const SIDE: usize = 56;
/// Pixels around and between the panels, and the title's and captions' lines.
const MARGIN: usize = 24;
const LINE: usize = 20;

/// `map` as an SVG document: the title, then the two panels side by side, the hardest cells of
/// each outlined; under each panel its range.
pub fn svg(map: &CellMap) -> String {
    let (rows, cols) = (map.shape.rows, map.shape.cols);
    // Wide enough for the captions under a narrow board.
    let panel_w = (cols * SIDE).max(200);
    let width = 3 * MARGIN + 2 * panel_w;
    let top = MARGIN + 2 * LINE;
    let height = top + rows * SIDE + 3 * LINE + MARGIN;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
         viewBox=\"0 0 {width} {height}\" font-family=\"sans-serif\">"
    );
    let _ = writeln!(
        out,
        "<rect width=\"{width}\" height=\"{height}\" fill=\"white\"/>"
    );
    let _ = writeln!(
        out,
        "<text x=\"{MARGIN}\" y=\"{}\" font-size=\"15\">{} board, {} moves: each goal cell</text>",
        MARGIN + 4,
        map.shape,
        map.metric.adjective()
    );
    for (p, (what, values, labels)) in panels(map).iter().enumerate() {
        let x0 = MARGIN + p * (panel_w + MARGIN);
        let _ = writeln!(
            out,
            "<text x=\"{x0}\" y=\"{}\" font-size=\"13\">{}</text>",
            top - 8,
            xml(what)
        );
        let hi = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        for cell in 0..map.shape.cells() {
            let (r, c) = (map.shape.row(Cell(cell)), map.shape.col(Cell(cell)));
            let (x, y) = (x0 + c * SIDE, top + r * SIDE);
            let hardest = values[cell] == hi;
            let _ = writeln!(
                out,
                "<rect x=\"{x}\" y=\"{y}\" width=\"{SIDE}\" height=\"{SIDE}\" fill=\"{}\" \
                 stroke=\"{}\" stroke-width=\"{}\"><title>cell {}: {}</title></rect>",
                colour(shade(values[cell], values)),
                if hardest { "black" } else { "#888888" },
                if hardest { 3 } else { 1 },
                map.shape.cell_label(Cell(cell)),
                labels[cell]
            );
            let _ = writeln!(
                out,
                "<text x=\"{}\" y=\"{}\" font-size=\"13\" text-anchor=\"middle\">{}</text>",
                x + SIDE / 2,
                y + SIDE / 2 + 5,
                labels[cell]
            );
        }
        let at = |pick: fn(&f64, &f64) -> bool| {
            let mut best = 0;
            for (i, v) in values.iter().enumerate() {
                if pick(v, &values[best]) {
                    best = i;
                }
            }
            labels[best].clone()
        };
        let (lightest, darkest) = (at(|v, b| v < b), at(|v, b| v > b));
        let lines = if lightest == darkest {
            vec![format!("every cell: {darkest}")]
        } else {
            vec![
                format!("lightest: {lightest}"),
                format!("darkest (outlined): {darkest}"),
            ]
        };
        for (i, line) in lines.iter().enumerate() {
            let _ = writeln!(
                out,
                "<text x=\"{x0}\" y=\"{}\" font-size=\"12\">{line}</text>",
                top + rows * SIDE + (i + 1) * LINE
            );
        }
    }
    out.push_str("</svg>\n");
    out
}

/// `map` as pgfplots code: the two panels as `matrix plot*` axes side by side, each cell's
/// figure on it, the hardest cells' figures in bold.
pub fn pgfplots(map: &CellMap, command: &str) -> String {
    let (rows, cols) = (map.shape.rows, map.shape.cols);
    let mut out = format!(
        "% {command}\n% needs \\usepackage{{pgfplots}} and \\pgfplotsset{{compat=1.17}}\n\
         \\begin{{tikzpicture}}\n"
    );
    // Each panel a little under half the line, its cells square.
    let side = format!("{:.4}", 0.42 / cols.max(1) as f64);
    for (p, (what, values, labels)) in panels(map).iter().enumerate() {
        let at = if p == 0 {
            String::new()
        } else {
            "at={(0.5\\linewidth,0)}, ".into()
        };
        let hi = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let lo = values.iter().copied().fold(f64::INFINITY, f64::min);
        // Cells all alike are all the hardest: the darkest shade, as in the SVG.
        let lo = if hi > lo { lo } else { hi - 1.0 };
        let _ = writeln!(
            out,
            "\\begin{{axis}}[{at}scale only axis, width={side}*{cols}\\linewidth, \
             height={side}*{rows}\\linewidth, enlargelimits=false, axis on top, \
             xmin=0.5, xmax={cols}.5, ymin=0.5, ymax={rows}.5, y dir=reverse, xtick=\\empty, \
             ytick=\\empty, title={{{}, {} moves\\\\{what}}}, title style={{font=\\small, \
             align=center}}, colormap={{blues}}{{rgb255=(239,243,255) rgb255=(66,146,198)}}, \
             point meta min={lo}, point meta max={hi}]",
            map.shape.to_string().replace('x', "$\\times$"),
            map.metric.adjective(),
        );
        let _ = writeln!(
            out,
            "\\addplot[matrix plot*, mesh/cols={cols}, point meta=explicit] table[meta=v] {{\nx y v"
        );
        // Column and row of each cell, 1-based, in reading order.
        let at = |cell: usize| (map.shape.col(Cell(cell)) + 1, map.shape.row(Cell(cell)) + 1);
        for (cell, v) in values.iter().enumerate() {
            let (c, r) = at(cell);
            let _ = writeln!(out, "{c} {r} {v}");
        }
        out.push_str("};\n");
        for (cell, (v, label)) in values.iter().zip(labels).enumerate() {
            let (c, r) = at(cell);
            let text = if *v == hi {
                format!("\\textbf{{{label}}}")
            } else {
                label.clone()
            };
            let _ = writeln!(
                out,
                "\\node[font=\\footnotesize] at (axis cs:{c},{r}) {{{text}}};"
            );
        }
        out.push_str("\\end{axis}\n");
    }
    out.push_str("\\end{tikzpicture}\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::board::Shape;

    fn map() -> CellMap {
        CellMap {
            shape: Shape::new(2, 3).unwrap(),
            metric: crate::puzzle::metric::Metric::Single,
            eccentricity: vec![21, 20, 21, 21, 20, 21],
            mean: ["12.5", "12.25", "12.5", "12.5", "12.25", "12.5"]
                .map(String::from)
                .to_vec(),
        }
    }

    /// Every cell is drawn once a panel, the hardest darkest and outlined, the easiest
    /// lightest; the figures are the map's.
    #[test]
    fn svg_shades_cells_by_their_figures() {
        let text = svg(&map());
        let doc = roxmltree::Document::parse(&text).unwrap();
        let cells: Vec<_> = doc
            .descendants()
            .filter(|n| n.has_tag_name("rect") && n.attribute("width") == Some("56"))
            .collect();
        assert_eq!(cells.len(), 12);
        for (i, rect) in cells.iter().enumerate() {
            let hard = [21, 20, 21, 21, 20, 21][i % 6] == 21;
            let fill = rect.attribute("fill").unwrap();
            assert_eq!(fill, if hard { colour(1.0) } else { colour(0.0) }, "{i}");
            assert_eq!(
                rect.attribute("stroke-width"),
                Some(if hard { "3" } else { "1" })
            );
        }
        assert!(text.contains(">12.250</text>") && text.contains(">21</text>"));
    }

    /// One point per cell a panel, in reading order, at column and row.
    #[test]
    fn pgfplots_has_a_point_per_cell() {
        let text = pgfplots(&map(), "test");
        assert_eq!(text.matches("\\addplot").count(), 2);
        assert!(text.contains("x y v\n1 1 21\n2 1 20\n3 1 21\n1 2 21\n2 2 20\n3 2 21\n"));
        assert!(text.contains("\\textbf{12.500}") && !text.contains("\\textbf{12.250}"));
    }
}

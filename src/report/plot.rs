//! Charts of depth distributions as SVG (plotters), drawn from the CSV reports alone.
//!
//! Per board: states per depth, on a linear and on a log scale side by side. Over all boards:
//! one line each, depth divided by the eccentricity and states by the total, so that boards of very
//! different sizes share the axes.

use std::path::Path;

use plotters::prelude::*;

use crate::error::Error;

pub use super::chart::{merge_identical, Series};

const PALETTE: [RGBColor; 10] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
];

fn colour(i: usize) -> RGBColor {
    PALETTE[i % PALETTE.len()]
}

/// How a count axis labels its ticks: as they are below 10^4, else in units of 10^k (the
/// axis says "×10⁹"), so that no label is a ten-digit number.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CountScale {
    /// The power of ten the labels are in units of (0: plain).
    pub exponent: i32,
}

impl CountScale {
    /// The scale for an axis up to `max`.
    pub fn for_max(max: f64) -> CountScale {
        let exponent = if max >= 1e4 {
            max.log10().floor() as i32
        } else {
            0
        };
        CountScale { exponent }
    }

    /// `states`, or `states (×10⁹)`.
    pub fn describe(self, what: &str) -> String {
        if self.exponent == 0 {
            what.to_string()
        } else {
            format!("{what} (×{})", power(self.exponent))
        }
    }

    /// A tick in the axis's units, with as few decimals as it needs (at most 3).
    pub fn label(self, v: f64) -> String {
        let x = v / 10f64.powi(self.exponent);
        let mut text = format!("{x:.3}");
        if text.contains('.') {
            text.truncate(text.trim_end_matches('0').trim_end_matches('.').len());
        }
        if text == "-0" {
            text = "0".into();
        }
        text
    }
}

/// `10⁷`, with Unicode superscripts (SVG text has no markup for them).
pub fn power(exponent: i32) -> String {
    const DIGITS: [char; 10] = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];
    let mut out = String::from("10");
    if exponent < 0 {
        out.push('⁻');
    }
    for d in exponent.unsigned_abs().to_string().bytes() {
        out.push(DIGITS[usize::from(d - b'0')]);
    }
    out
}

/// A tick of a log axis: `1`, `10`, `10⁷`, or `2×10⁷` between powers.
pub fn power_label(v: f64) -> String {
    if v <= 0.0 || !v.is_finite() {
        return format!("{v}");
    }
    let k = v.log10().floor() as i32;
    let mantissa = v / 10f64.powi(k);
    let (mantissa, k) = if mantissa > 9.9995 {
        (1.0, k + 1)
    } else {
        (mantissa, k)
    };
    let m = format!("{mantissa:.2}");
    let m = m.trim_end_matches('0').trim_end_matches('.');
    let base = match k {
        0 => "1".to_string(),
        1 => "10".to_string(),
        _ => power(k),
    };
    match (m, k) {
        ("1", _) => base,
        (m, 0) => m.to_string(),
        (_, 1) => format!("{}", mantissa * 10.0),
        (m, _) => format!("{m}×{base}"),
    }
}

/// Type sizes, in pixels, of a chart read at a paper's column width: the title, a panel's
/// caption, the axes' words and their ticks' numbers.
const TITLE_FONT: u32 = 24;
const CAPTION_FONT: u32 = 20;
const AXIS_FONT: u32 = 19;
const TICK_FONT: u32 = 16;

/// Room for the ticks' numbers and the axis's words beside them: as wide as the longest
/// numbers need (`8.00×10⁷`, `1.5`), so that the y axis's words stand next to its numbers.
const Y_LABEL_AREA: u32 = 78;
const X_LABEL_AREA: u32 = 50;

fn draw_err(path: &Path) -> impl Fn(String) -> Error + '_ {
    move |why| Error::Write {
        path: path.to_path_buf(),
        source: std::io::Error::other(why),
    }
}

/// The depth axis's words: the moves it counts.
fn depth_axis(metric: crate::puzzle::metric::Metric) -> String {
    let moves = metric.adjective();
    format!("depth (optimal {moves} moves from the goal)")
}

/// One board: states per depth, linear scale on the left, log scale on the right.
pub fn board(series: &Series, path: &Path) -> Result<(), Error> {
    let err = draw_err(path);
    let eccentricity = series.states.len().saturating_sub(1) as u32;
    let max = series.states.iter().copied().max().unwrap_or(1).max(1) as f64;
    let points: Vec<(u32, f64)> = series
        .states
        .iter()
        .enumerate()
        .map(|(d, &n)| (d as u32, n as f64))
        .collect();
    let root = SVGBackend::new(path, (1200, 480)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(e.to_string()))?;
    let root = root
        .titled(&series.title, ("sans-serif", TITLE_FONT))
        .map_err(|e| err(e.to_string()))?;
    let (left, right) = root.split_horizontally(600);
    let x = 0..eccentricity.max(1);
    {
        let mut chart = ChartBuilder::on(&left)
            .caption("linear scale", ("sans-serif", CAPTION_FONT))
            .margin(12)
            .x_label_area_size(X_LABEL_AREA)
            .y_label_area_size(Y_LABEL_AREA)
            .build_cartesian_2d(x.clone(), 0f64..max * 1.05)
            .map_err(|e| err(e.to_string()))?;
        let scale = CountScale::for_max(max);
        chart
            .configure_mesh()
            .label_style(("sans-serif", TICK_FONT))
            .axis_desc_style(("sans-serif", AXIS_FONT))
            .x_desc(depth_axis(series.metric))
            .y_desc(scale.describe(series.counts))
            // Never a step under 1: a count axis of 2x2 (at most 2 states) reads 0, 1, 2.
            .y_labels(((max * 1.05).floor() as usize + 1).clamp(2, 10))
            .y_label_formatter(&|v| scale.label(*v))
            .draw()
            .map_err(|e| err(e.to_string()))?;
        chart
            .draw_series(LineSeries::new(
                points.iter().copied(),
                colour(0).stroke_width(2),
            ))
            .map_err(|e| err(e.to_string()))?;
    }
    {
        let mut chart = ChartBuilder::on(&right)
            .caption("log scale", ("sans-serif", CAPTION_FONT))
            .margin(12)
            .x_label_area_size(X_LABEL_AREA)
            .y_label_area_size(Y_LABEL_AREA)
            .build_cartesian_2d(x, (1f64..max * 2.0).log_scale())
            .map_err(|e| err(e.to_string()))?;
        chart
            .configure_mesh()
            .label_style(("sans-serif", TICK_FONT))
            .axis_desc_style(("sans-serif", AXIS_FONT))
            .x_desc(depth_axis(series.metric))
            .y_desc(format!("{} (log scale)", series.counts))
            .y_label_formatter(&|v| power_label(*v))
            .draw()
            .map_err(|e| err(e.to_string()))?;
        chart
            .draw_series(LineSeries::new(
                points.iter().copied().filter(|&(_, n)| n > 0.0),
                colour(0).stroke_width(2),
            ))
            .map_err(|e| err(e.to_string()))?;
    }
    root.present().map_err(|e| err(e.to_string()))
}

/// All boards on shared axes: depth / eccentricity against states / total (log scale with `log`);
/// identical distributions are one line (`merge_identical`).
pub fn overlay(all: &[Series], log: bool, path: &Path) -> Result<(), Error> {
    let all = &merge_identical(all);
    let err = draw_err(path);
    let shares: Vec<Vec<(f64, f64)>> = all
        .iter()
        .map(|s| {
            let total: u64 = s.states.iter().sum();
            let eccentricity = s.states.len().saturating_sub(1).max(1) as f64;
            s.states
                .iter()
                .enumerate()
                .map(|(d, &n)| (d as f64 / eccentricity, n as f64 / total.max(1) as f64))
                .filter(|&(_, f)| !log || f > 0.0)
                .collect()
        })
        .collect();
    let top = shares
        .iter()
        .flatten()
        .map(|&(_, f)| f)
        .fold(0.0, f64::max)
        .max(1e-9);
    let low = shares
        .iter()
        .flatten()
        .map(|&(_, f)| f)
        .fold(1.0, f64::min)
        .max(1e-15);
    let root = SVGBackend::new(path, (900, 600)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(e.to_string()))?;
    let counts = all.first().map_or("states", |s| s.counts);
    let title = match counts {
        "states" => "States per depth, every board: depth / eccentricity against share of all states",
        _ => "Arrangements per depth, every run: depth / eccentricity against share of all arrangements",
    };
    let mut builder = ChartBuilder::on(&root);
    builder
        .caption(title, ("sans-serif", TITLE_FONT))
        .margin(14)
        .x_label_area_size(X_LABEL_AREA)
        .y_label_area_size(Y_LABEL_AREA);
    let x_desc = "depth / eccentricity";
    if log {
        let mut chart = builder
            .build_cartesian_2d(0f64..1f64, (low / 2.0..top * 2.0).log_scale())
            .map_err(|e| err(e.to_string()))?;
        chart
            .configure_mesh()
            .label_style(("sans-serif", TICK_FONT))
            .axis_desc_style(("sans-serif", AXIS_FONT))
            .x_desc(x_desc)
            .y_desc(format!("{counts} / total (log scale)"))
            .y_label_formatter(&|v| power_label(*v))
            .draw()
            .map_err(|e| err(e.to_string()))?;
        draw_lines(&mut chart, all, &shares, SeriesLabelPosition::LowerMiddle).map_err(&err)?;
    } else {
        let mut chart = builder
            // The highest curve near the top; the legend sits at the upper left, where the
            // early layers are small.
            .build_cartesian_2d(0f64..1f64, 0f64..top * 1.08)
            .map_err(|e| err(e.to_string()))?;
        chart
            .configure_mesh()
            .label_style(("sans-serif", TICK_FONT))
            .axis_desc_style(("sans-serif", AXIS_FONT))
            .x_desc(x_desc)
            .y_desc(format!("{counts} / total"))
            .y_label_formatter(&|v| format!("{v:.3}"))
            .draw()
            .map_err(|e| err(e.to_string()))?;
        draw_lines(&mut chart, all, &shares, SeriesLabelPosition::UpperLeft).map_err(&err)?;
    }
    root.present().map_err(|e| err(e.to_string()))
}

/// Markers on at most this many points of a line: enough to tell the lines apart, few enough
/// not to hide them.
const MARKERS_PER_LINE: usize = 12;

/// One labelled line per board, each in its colour with its marker (circle, triangle, square
/// or cross, so that the eleventh board, which shares the first's colour, and lines that cross
/// stay apart), and the legend.
fn draw_lines<'a, DB, X, Y>(
    chart: &mut ChartContext<'a, DB, Cartesian2d<X, Y>>,
    all: &[Series],
    shares: &[Vec<(f64, f64)>],
    legend: SeriesLabelPosition,
) -> Result<(), String>
where
    DB: DrawingBackend + 'a,
    X: Ranged<ValueType = f64>,
    Y: Ranged<ValueType = f64>,
{
    for (i, (s, points)) in all.iter().zip(shares).enumerate() {
        let c = colour(i);
        let step = points.len().div_ceil(MARKERS_PER_LINE).max(1);
        // Lines of one colour start their markers at different points.
        let marked: Vec<(f64, f64)> = points
            .iter()
            .copied()
            .skip((i / PALETTE.len()) * step / 2)
            .step_by(step)
            .collect();
        let outline = marker_outline(i);
        chart
            .draw_series(
                marked
                    .iter()
                    .map(|&p| EmptyElement::at(p) + Polygon::new(outline.clone(), c.filled())),
            )
            .map_err(|e| e.to_string())?;
        chart
            .draw_series(LineSeries::new(points.iter().copied(), c.stroke_width(2)))
            .map_err(|e| e.to_string())?
            .label(s.label.clone())
            .legend(move |(x, y)| {
                EmptyElement::at((x + 10, y))
                    + PathElement::new(vec![(-10, 0), (10, 0)], c.stroke_width(2))
                    + Polygon::new(marker_outline(i), c.filled())
            });
    }
    chart
        .configure_series_labels()
        .label_font(("sans-serif", TICK_FONT))
        .position(legend)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()
        .map_err(|e| e.to_string())
}

/// The outline of series `i`'s marker, in pixels around its point: a circle (an octagon),
/// a triangle, a square or a diamond.
fn marker_outline(i: usize) -> Vec<(i32, i32)> {
    match i % 4 {
        0 => vec![
            (-2, -4),
            (2, -4),
            (4, -2),
            (4, 2),
            (2, 4),
            (-2, 4),
            (-4, 2),
            (-4, -2),
        ],
        1 => vec![(0, -5), (5, 4), (-5, 4)],
        2 => vec![(-4, -4), (4, -4), (4, 4), (-4, 4)],
        _ => vec![(0, -5), (5, 0), (0, 5), (-5, 0)],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tick_labels_are_the_values() {
        let small = CountScale::for_max(2.0);
        assert_eq!(small.describe("states"), "states");
        assert_eq!([0.0, 1.0, 2.0].map(|v| small.label(v)), ["0", "1", "2"]);
        let big = CountScale::for_max(1.862e9);
        assert_eq!(big.describe("states"), "states (×10⁹)");
        assert_eq!([0.0, 5e8, 1.8e9].map(|v| big.label(v)), ["0", "0.5", "1.8"]);
        assert_eq!(CountScale::for_max(24047.0).label(20000.0), "2");
        assert_eq!(power(7), "10⁷");
        assert_eq!(power(-12), "10⁻¹²");
        assert_eq!(
            [1.0, 10.0, 100.0, 2e7, 1e-5, 5e-3, 20.0].map(power_label),
            ["1", "10", "10²", "2×10⁷", "10⁻⁵", "5×10⁻³", "20"]
        );
    }
}

//! Charts of depth distributions as SVG (plotters), drawn from the CSV reports alone.
//!
//! Per board: states per depth, on a linear and on a log scale side by side. Over all boards:
//! one line each, depth divided by the radius and states by the total, so that boards of very
//! different sizes share the axes.

use std::path::Path;

use plotters::prelude::*;

use crate::error::Error;

/// One distribution to draw: a name for the legend, a title, and states per depth.
#[derive(Clone, Debug)]
pub struct Series {
    pub label: String,
    pub title: String,
    /// `states[d]` = states at depth d, from 0 to the radius.
    pub states: Vec<u64>,
}

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

fn draw_err(path: &Path) -> impl Fn(String) -> Error + '_ {
    move |why| Error::Write {
        path: path.to_path_buf(),
        source: std::io::Error::other(why),
    }
}

const X_DESC: &str = "depth (optimal moves from the goal)";

/// One board: states per depth, linear scale on the left, log scale on the right.
pub fn board(series: &Series, path: &Path) -> Result<(), Error> {
    let err = draw_err(path);
    let radius = series.states.len().saturating_sub(1) as u32;
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
        .titled(&series.title, ("sans-serif", 22))
        .map_err(|e| err(e.to_string()))?;
    let (left, right) = root.split_horizontally(600);
    let x = 0..radius.max(1);
    {
        let mut chart = ChartBuilder::on(&left)
            .caption("linear scale", ("sans-serif", 16))
            .margin(12)
            .x_label_area_size(44)
            .y_label_area_size(90)
            .build_cartesian_2d(x.clone(), 0f64..max * 1.05)
            .map_err(|e| err(e.to_string()))?;
        chart
            .configure_mesh()
            .x_desc(X_DESC)
            .y_desc("states")
            .y_label_formatter(&|v| format!("{v:.0}"))
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
            .caption("log scale", ("sans-serif", 16))
            .margin(12)
            .x_label_area_size(44)
            .y_label_area_size(90)
            .build_cartesian_2d(x, (1f64..max * 2.0).log_scale())
            .map_err(|e| err(e.to_string()))?;
        chart
            .configure_mesh()
            .x_desc(X_DESC)
            .y_desc("states (log scale)")
            .y_label_formatter(&|v| format!("{v:.0e}"))
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

/// All boards on shared axes: depth / radius against states / total (log scale with `log`).
pub fn overlay(all: &[Series], log: bool, path: &Path) -> Result<(), Error> {
    let err = draw_err(path);
    let shares: Vec<Vec<(f64, f64)>> = all
        .iter()
        .map(|s| {
            let total: u64 = s.states.iter().sum();
            let radius = s.states.len().saturating_sub(1).max(1) as f64;
            s.states
                .iter()
                .enumerate()
                .map(|(d, &n)| (d as f64 / radius, n as f64 / total.max(1) as f64))
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
    let title = "States per depth, every board: depth / radius against share of all states";
    let mut builder = ChartBuilder::on(&root);
    builder
        .caption(title, ("sans-serif", 20))
        .margin(14)
        .x_label_area_size(44)
        .y_label_area_size(90);
    let x_desc = "depth / radius";
    if log {
        let mut chart = builder
            .build_cartesian_2d(0f64..1f64, (low / 2.0..top * 2.0).log_scale())
            .map_err(|e| err(e.to_string()))?;
        chart
            .configure_mesh()
            .x_desc(x_desc)
            .y_desc("states / total (log scale)")
            .y_label_formatter(&|v| format!("{v:.0e}"))
            .draw()
            .map_err(|e| err(e.to_string()))?;
        draw_lines(&mut chart, all, &shares, SeriesLabelPosition::LowerMiddle).map_err(&err)?;
    } else {
        let mut chart = builder
            // Head room above the highest curve for the legend.
            .build_cartesian_2d(0f64..1f64, 0f64..top * 1.75)
            .map_err(|e| err(e.to_string()))?;
        chart
            .configure_mesh()
            .x_desc(x_desc)
            .y_desc("states / total")
            .y_label_formatter(&|v| format!("{v:.3}"))
            .draw()
            .map_err(|e| err(e.to_string()))?;
        draw_lines(&mut chart, all, &shares, SeriesLabelPosition::UpperRight).map_err(&err)?;
    }
    root.present().map_err(|e| err(e.to_string()))
}

/// One labelled line per board, and the legend.
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
        chart
            .draw_series(LineSeries::new(points.iter().copied(), c.stroke_width(2)))
            .map_err(|e| e.to_string())?
            .label(s.label.clone())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], c.stroke_width(2)));
    }
    chart
        .configure_series_labels()
        .position(legend)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()
        .map_err(|e| e.to_string())
}

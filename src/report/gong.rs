//! Gong's table of worst cases and averages (the project's seed document, `shared/seeds/`),
//! and analyses beside it: `analyze --gong-figures`.

use serde::Serialize;

use crate::analysis::Analysis;
use crate::puzzle::metric::Metric;

/// The moves Gong's table counts: one tile, one cell.
pub const METRIC: Metric = Metric::Single;

/// One board of Gong's table, as he gives it: the most moves any configuration needs (the
/// goal's eccentricity) and the mean, to one decimal. Gong names boards columns x rows, so his
/// "3x2" is our 2x3.
#[derive(Clone, Copy, Debug)]
pub struct GongFigure {
    /// Our name, `RxC`.
    pub board: &'static str,
    /// Gong's name, columns x rows.
    pub gong_name: &'static str,
    /// The worst case.
    pub eccentricity: u32,
    /// The mean, as printed.
    pub mean: &'static str,
}

/// The boards of Gong's table, in its order.
pub const GONG_FIGURES: [GongFigure; 5] = [
    figure("2x2", "2x2", 6, "3.0"),
    figure("2x3", "3x2", 21, "12.6"),
    figure("2x4", "4x2", 36, "22.7"),
    figure("2x5", "5x2", 55, "34.7"),
    figure("3x3", "3x3", 31, "22.0"),
];

const fn figure(
    board: &'static str,
    gong_name: &'static str,
    eccentricity: u32,
    mean: &'static str,
) -> GongFigure {
    GongFigure {
        board,
        gong_name,
        eccentricity,
        mean,
    }
}

/// An analysis beside Gong's figures for its board (the `gong_figures` rows of
/// `analyze --gong-figures --json`).
#[derive(Clone, Debug, Serialize)]
pub struct GongComparison {
    /// Our name, `RxC`.
    pub board: String,
    /// Gong's name, columns x rows.
    pub gong_name: String,
    /// The goal's eccentricity, ours.
    pub eccentricity: u32,
    /// Gong's worst case.
    pub gong_eccentricity: u32,
    /// Our mean, exact.
    pub mean_exact: String,
    /// Our mean to 6 places.
    pub mean: String,
    /// Gong's mean, as printed.
    pub gong_mean: String,
    /// The eccentricities are equal and our mean rounds to Gong's.
    pub agree: bool,
}

/// Each analysis of a board of Gong's table (from the goal, single-tile moves) beside his
/// figures, in the order given; the others are left out.
pub fn compare(done: &[Analysis]) -> Vec<GongComparison> {
    done.iter()
        .filter(|a| a.start.is_none() && a.metric() == METRIC)
        .filter_map(|a| {
            let board = a.shape().to_string();
            let g = GONG_FIGURES.iter().find(|g| g.board == board)?;
            if a.goal().0 != a.shape().cells() - 1 {
                return None;
            }
            let d = &a.distribution;
            let ours = format!("{:.1}", d.mean().to_f64());
            Some(GongComparison {
                board,
                gong_name: g.gong_name.into(),
                eccentricity: d.eccentricity(),
                gong_eccentricity: g.eccentricity,
                mean_exact: d.mean().to_string(),
                mean: d.mean().decimal(6).0,
                gong_mean: g.mean.into(),
                agree: d.eccentricity() == g.eccentricity && ours == g.mean,
            })
        })
        .collect()
}

//! Sampled distributions: uniformly random solvable boards, each solved optimally, estimate
//! the depth distribution and mean of boards too large to enumerate.
//!
//! The boards are drawn as `random` draws them (uniform over the goal's class, reproducible
//! from the seed). The mean's 95% confidence interval is Student's t interval: mean ± t ·
//! s/√n, with s the sample standard deviation and t the 97.5% quantile with n-1 degrees of
//! freedom (the distances are bounded, so the mean is asymptotically normal; at the sample
//! sizes used the interval is the normal one to the second decimal).

use crate::puzzle::board::{Board, Cell, Shape};
use crate::puzzle::random::{solvable_board, Rng};

/// The `count` boards of a sample with `seed`: uniformly random, solvable for `goal`.
pub fn boards(shape: Shape, goal: Cell, count: u64, seed: u64) -> Vec<Board> {
    let mut rng = Rng::new(seed);
    (0..count)
        .map(|_| solvable_board(shape, goal, &mut rng))
        .collect()
}

/// What a sample of distances says about the whole class.
#[derive(Clone, Debug, PartialEq)]
pub struct Estimate {
    /// Boards in the sample.
    pub count: u64,
    /// The sample mean.
    pub mean: f64,
    /// The sample standard deviation (n-1 in the denominator).
    pub std_dev: f64,
    /// The 95% confidence interval of the mean.
    pub ci95: (f64, f64),
    /// Boards of the sample at each distance 0..=max.
    pub histogram: Vec<u64>,
}

/// The estimate from `distances` (at least one).
pub fn estimate(distances: &[u32]) -> Estimate {
    let n = distances.len() as u64;
    let max = distances.iter().copied().max().unwrap_or(0) as usize;
    let mut histogram = vec![0u64; max + 1];
    for &d in distances {
        histogram[d as usize] += 1;
    }
    let mean = distances.iter().map(|&d| f64::from(d)).sum::<f64>() / n.max(1) as f64;
    let var = if n > 1 {
        distances
            .iter()
            .map(|&d| (f64::from(d) - mean).powi(2))
            .sum::<f64>()
            / (n - 1) as f64
    } else {
        0.0
    };
    let std_dev = var.sqrt();
    let half = if n > 1 {
        t975(n - 1) * std_dev / (n as f64).sqrt()
    } else {
        f64::INFINITY
    };
    Estimate {
        count: n,
        mean,
        std_dev,
        ci95: (mean - half, mean + half),
        histogram,
    }
}

/// The 97.5% quantile of Student's t with 1 to 30 degrees of freedom (the standard table, to
/// three decimals).
const T975: [f64; 30] = [
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
    2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
    2.052, 2.048, 2.045, 2.042,
];

/// The 97.5% quantile of Student's t with `df` degrees of freedom: the table up to 30, beyond
/// it the Cornish-Fisher expansion around the normal's 1.959964 (error below 1e-4 there).
pub fn t975(df: u64) -> f64 {
    match df {
        0 => f64::INFINITY,
        1..=30 => T975[df as usize - 1],
        _ => {
            let z: f64 = 1.959_964;
            let v = df as f64;
            let (z3, z5, z7) = (z.powi(3), z.powi(5), z.powi(7));
            z + (z3 + z) / (4.0 * v)
                + (5.0 * z5 + 16.0 * z3 + 3.0 * z) / (96.0 * v * v)
                + (3.0 * z7 + 19.0 * z5 + 17.0 * z3 - 15.0 * z) / (384.0 * v.powi(3))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Quantiles from a printed table of Student's t (two-sided 95%).
    #[test]
    fn t_quantiles_match_the_tables() {
        for (df, t) in [
            (3, 3.182),
            (5, 2.571),
            (10, 2.228),
            (30, 2.042),
            (100, 1.984),
            (1000, 1.962),
        ] {
            assert!(
                (t975(df) - t).abs() < 2e-3,
                "df {df}: {} against {t}",
                t975(df)
            );
        }
    }

    #[test]
    fn an_estimate_of_known_numbers() {
        let e = estimate(&[2, 4, 4, 4, 5, 5, 7, 9]);
        assert_eq!(e.mean, 5.0);
        // Sum of squares 32 over 7.
        assert!((e.std_dev - (32.0f64 / 7.0).sqrt()).abs() < 1e-12);
        let half = t975(7) * e.std_dev / 8f64.sqrt();
        assert!((e.ci95.1 - 5.0 - half).abs() < 1e-12 && (5.0 - e.ci95.0 - half).abs() < 1e-12);
        assert_eq!(e.histogram, [0, 0, 1, 0, 3, 2, 0, 1, 0, 1]);
        let same = boards("3x3".parse().unwrap(), Cell(8), 5, 7);
        assert_eq!(same, boards("3x3".parse().unwrap(), Cell(8), 5, 7));
    }
}

//! Facts derived from the number of states at each depth: eccentricity, exact mean, median, widest layer.

use std::fmt;

/// States per depth, from depth 0 (the goal) to the eccentricity.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Distribution {
    /// `layers[d]` = states at depth d, from 0 (the start) to the eccentricity.
    pub layers: Vec<u64>,
}

/// A non-negative fraction in lowest terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fraction {
    /// Numerator.
    pub num: u128,
    /// Denominator, never zero.
    pub den: u128,
}

impl Fraction {
    /// `num / den` in lowest terms (`den` must not be zero).
    pub fn new(num: u128, den: u128) -> Fraction {
        assert!(den > 0, "a fraction needs a non-zero denominator");
        let g = gcd(num, den);
        Fraction {
            num: num / g,
            den: den / g,
        }
    }

    /// The value as a float (rounded).
    pub fn to_f64(self) -> f64 {
        self.num as f64 / self.den as f64
    }

    /// The value rounded half up to `places` decimals, by integer arithmetic (no float on the
    /// way), and whether that is the value itself. An exact value drops its trailing zeros, so
    /// 1/4 is `0.25` and 3/1 is `3`; a rounded one keeps all `places`, as `12.622222`.
    /// (A denominator past 2^64, which no count of states has, falls back to floating point.)
    pub fn decimal(self, places: u32) -> (String, bool) {
        let scale = 10u128.pow(places.min(18));
        let whole = self.num / self.den;
        let rest = self.num % self.den;
        let Some(scaled) = rest.checked_mul(scale) else {
            return (format!("{:.*}", places as usize, self.to_f64()), false);
        };
        let places = places.min(18);
        let mut frac = scaled / self.den;
        let left = scaled % self.den;
        let exact = left == 0;
        let mut whole = whole;
        if !exact && left >= self.den - left {
            frac += 1;
            if frac == scale {
                frac = 0;
                whole += 1;
            }
        }
        if places == 0 {
            return (whole.to_string(), exact);
        }
        let mut digits = format!("{frac:0width$}", width = places as usize);
        if exact {
            digits.truncate(digits.trim_end_matches('0').len());
        }
        if digits.is_empty() {
            (whole.to_string(), exact)
        } else {
            (format!("{whole}.{digits}"), exact)
        }
    }

    /// The fraction and its decimal, joined by `=` if the decimal is exact and by `≈` if it is
    /// rounded; an integer alone: `3`, `1/4 = 0.25`, `568/45 ≈ 12.622222`.
    pub fn with_decimal(self, places: u32) -> String {
        if self.den == 1 {
            return self.num.to_string();
        }
        let (decimal, exact) = self.decimal(places);
        let sign = if exact { "=" } else { "≈" };
        format!("{self} {sign} {decimal}")
    }
}

impl std::str::FromStr for Fraction {
    type Err = String;

    /// `N/D` or `N` (digits only, D not zero), reduced to lowest terms.
    fn from_str(text: &str) -> Result<Fraction, String> {
        let number = |t: &str| {
            if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) {
                t.parse::<u128>().ok()
            } else {
                None
            }
        };
        let (num, den) = match text.split_once('/') {
            Some((n, d)) => (number(n), number(d)),
            None => (number(text), Some(1)),
        };
        match (num, den) {
            (Some(num), Some(den)) if den > 0 => Ok(Fraction::new(num, den)),
            _ => Err(format!("{text:?} is not a fraction N/D")),
        }
    }
}

pub(crate) fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

impl fmt::Display for Fraction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.den == 1 {
            write!(f, "{}", self.num)
        } else {
            write!(f, "{}/{}", self.num, self.den)
        }
    }
}

impl Distribution {
    /// All states: the sum of the layers.
    pub fn total(&self) -> u64 {
        // Saturating: a distribution read from a damaged report may claim any counts.
        self.layers.iter().fold(0, |a, &n| a.saturating_add(n))
    }

    /// The largest depth: the most moves any state needs.
    pub fn eccentricity(&self) -> u32 {
        self.layers.len() as u32 - 1
    }

    /// Σ depth · states: the total of all optimal solution lengths.
    pub fn depth_sum(&self) -> u128 {
        self.layers
            .iter()
            .enumerate()
            .map(|(d, &n)| d as u128 * u128::from(n))
            .sum()
    }

    /// The exact average number of moves over all states.
    pub fn mean(&self) -> Fraction {
        Fraction::new(self.depth_sum(), u128::from(self.total()))
    }

    /// The smallest depth d such that at least half the states lie at depth d or less.
    pub fn median(&self) -> u32 {
        let total = u128::from(self.total());
        let mut cumulative = 0u128;
        for (d, &n) in self.layers.iter().enumerate() {
            cumulative += u128::from(n);
            if 2 * cumulative >= total {
                return d as u32;
            }
        }
        self.eccentricity()
    }

    /// The widest layer: (depth, states); the shallowest one if several tie.
    pub fn widest(&self) -> (u32, u64) {
        let mut best = (0u32, 0u64);
        for (d, &n) in self.layers.iter().enumerate() {
            if n > best.1 {
                best = (d as u32, n);
            }
        }
        best
    }

    /// Rows of (depth, states, cumulative).
    pub fn cumulative(&self) -> impl Iterator<Item = (u32, u64, u64)> + '_ {
        self.layers.iter().enumerate().scan(0u64, |acc, (d, &n)| {
            *acc += n;
            Some((d as u32, n, *acc))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statistics_of_a_hand_made_distribution() {
        // 2x2 by hand: the blank walks a 4-cycle of cells while 3 tiles rotate; 12 states,
        // one per depth 0 and 6, two at each depth between.
        let d = Distribution {
            layers: vec![1, 2, 2, 2, 2, 2, 1],
        };
        assert_eq!(d.total(), 12);
        assert_eq!(d.eccentricity(), 6);
        assert_eq!(d.depth_sum(), 36);
        assert_eq!(d.mean(), Fraction { num: 3, den: 1 });
        assert_eq!(d.median(), 3);
        assert_eq!(d.widest(), (1, 2));
        assert_eq!(Fraction::new(10, 4).to_string(), "5/2");
        assert_eq!(d.mean().to_string(), "3");
        assert_eq!(d.cumulative().last(), Some((6, 1, 12)));
    }

    /// Rounding by hand: 568/45 = 12.6222…, 2/3 = 0.666…7, 1/8 = 0.125 exactly, 19/20 = 0.95,
    /// and 0.9999995 rounds up across the point.
    #[test]
    fn decimals_say_whether_they_are_exact() {
        let f = |n, d| Fraction::new(n, d);
        assert_eq!(f(568, 45).decimal(6), ("12.622222".into(), false));
        assert_eq!(f(2, 3).decimal(6), ("0.666667".into(), false));
        assert_eq!(f(1, 8).decimal(6), ("0.125".into(), true));
        assert_eq!(f(19, 20).decimal(1), ("1.0".into(), false));
        assert_eq!(f(1999999, 2000000).decimal(6), ("1.000000".into(), false));
        assert_eq!(f(3, 1).decimal(6), ("3".into(), true));
        assert_eq!(f(7, 2).decimal(0), ("4".into(), false));
        assert_eq!(f(568, 45).with_decimal(6), "568/45 ≈ 12.622222");
        assert_eq!(f(1, 4).with_decimal(6), "1/4 = 0.25");
        assert_eq!(f(6, 2).with_decimal(6), "3");
        assert_eq!("22859/1008".parse::<Fraction>(), Ok(f(22859, 1008)));
        assert_eq!("6/4".parse::<Fraction>(), Ok(f(3, 2)));
        assert_eq!("3".parse::<Fraction>(), Ok(f(3, 1)));
        for bad in ["", "1/0", "-1/2", "1/", "/2", "1.5", "+3", "1/2/3"] {
            assert!(bad.parse::<Fraction>().is_err(), "{bad}");
        }
    }
}

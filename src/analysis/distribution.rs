//! Facts derived from the number of states at each depth: radius, exact mean, median, widest layer.

use std::fmt;

/// States per depth, from depth 0 (the goal) to the radius.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Distribution {
    pub layers: Vec<u64>,
}

/// A non-negative fraction in lowest terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fraction {
    pub num: u128,
    pub den: u128,
}

impl Fraction {
    pub fn new(num: u128, den: u128) -> Fraction {
        assert!(den > 0, "a fraction needs a non-zero denominator");
        let g = gcd(num, den);
        Fraction {
            num: num / g,
            den: den / g,
        }
    }

    pub fn to_f64(self) -> f64 {
        self.num as f64 / self.den as f64
    }
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

impl fmt::Display for Fraction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.num, self.den)
    }
}

impl Distribution {
    pub fn total(&self) -> u64 {
        self.layers.iter().sum()
    }

    /// The largest depth: the most moves any state needs.
    pub fn radius(&self) -> u32 {
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
        self.radius()
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
        assert_eq!(d.radius(), 6);
        assert_eq!(d.depth_sum(), 36);
        assert_eq!(d.mean(), Fraction { num: 3, den: 1 });
        assert_eq!(d.median(), 3);
        assert_eq!(d.widest(), (1, 2));
        assert_eq!(Fraction::new(10, 4).to_string(), "5/2");
        assert_eq!(d.cumulative().last(), Some((6, 1, 12)));
    }
}

//! Exact configuration counts for any board size, in arbitrary precision.

use num_bigint::BigUint;

use crate::puzzle::board::Shape;

/// The counts the theorem speaks of: RC! configurations, half reachable from the goal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Counts {
    /// All configurations: (RC)!.
    pub total: BigUint,
    /// Those that reach the goal: (RC)!/2, or RC on a line.
    pub reachable: BigUint,
    /// The others.
    pub unreachable: BigUint,
}

/// n!, exactly: the product of 2..=n split in halves, so that the large multiplications are of
/// numbers of equal size (where num-bigint's Karatsuba and Toom-3 pay) instead of a growing
/// product times a word n times over (quadratic: 10^6! took a minute).
pub fn factorial(n: u64) -> BigUint {
    product(2, n.max(1))
}

/// lo · (lo + 1) · … · hi (1 if hi < lo).
fn product(lo: u64, hi: u64) -> BigUint {
    if hi < lo {
        return BigUint::from(1u32);
    }
    if hi - lo < 16 {
        return (lo..=hi).fold(BigUint::from(1u32), |acc, k| acc * k);
    }
    let mid = lo + (hi - lo) / 2;
    product(lo, mid) * product(mid + 1, hi)
}

/// RC!, and its two halves: for R, C ≥ 2 exactly half the configurations are reachable. On a
/// line (1×n) only the n positions of the blank among the tiles in goal order are.
pub fn counts(shape: Shape) -> Counts {
    let total = factorial(shape.cells() as u64);
    let reachable = if shape.is_line() {
        BigUint::from(shape.cells())
    } else {
        &total / 2u32
    };
    let unreachable = &total - &reachable;
    Counts {
        total,
        reachable,
        unreachable,
    }
}

/// The counts of a board in decimal (`count --json`): exact integers of any size, as decimal
/// strings, since JSON readers round large numbers.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct DecimalCounts {
    /// `RxC`.
    pub board: String,
    /// R x C.
    pub cells: usize,
    /// A line (1xN or Nx1): the blank only slides along it.
    pub line: bool,
    /// (RC)!, every configuration.
    pub total: String,
    /// Those that reach the goal: (RC)!/2 (N on a line).
    pub reachable: String,
    /// The others.
    pub unreachable: String,
}

impl DecimalCounts {
    /// The counts of `shape` (see `decimal_counts`).
    pub fn of(shape: Shape) -> DecimalCounts {
        let (total, reachable, unreachable) = decimal_counts(shape);
        DecimalCounts {
            board: shape.to_string(),
            cells: shape.cells(),
            line: shape.is_line(),
            total,
            reachable,
            unreachable,
        }
    }
}

/// The counts of `shape` in decimal: (total, reachable, unreachable). Only the total is
/// converted from binary (the costly part: 5.6 million digits for 1000x1000); its halves are
/// halved in decimal, digit by digit.
pub fn decimal_counts(shape: Shape) -> (String, String, String) {
    if shape.is_line() {
        let c = counts(shape);
        return (
            c.total.to_string(),
            c.reachable.to_string(),
            c.unreachable.to_string(),
        );
    }
    let total = factorial(shape.cells() as u64).to_string();
    let half = half_of_decimal(&total);
    (total, half.clone(), half)
}

/// `digits` (a decimal number, even) divided by 2, by long division.
fn half_of_decimal(digits: &str) -> String {
    let mut out = String::with_capacity(digits.len());
    let mut carry = 0u8;
    for d in digits.bytes() {
        let v = carry * 10 + (d - b'0');
        let q = v / 2;
        carry = v % 2;
        if !(out.is_empty() && q == 0) {
            out.push(char::from(b'0' + q));
        }
    }
    debug_assert_eq!(carry, 0, "an even number");
    if out.is_empty() {
        out.push('0');
    }
    out
}

/// States reachable from the goal as a machine integer, when it fits: (RC)!/2 (the states the
/// engine indexes), or n on a line.
pub fn reachable_u64(shape: Shape) -> Option<u64> {
    if shape.is_line() {
        return Some(shape.cells() as u64);
    }
    (2..=shape.cells() as u64)
        .try_fold(1u64, |acc, k| acc.checked_mul(k))
        .map(|f| f / 2)
}

/// Edges of the graph of the states reachable from the goal (a move joins two states, counted
/// once), when it fits: each blank cell holds an equal share of the states, and a state has
/// as many moves as its blank has neighbours, so the edges are states × (Σ degrees) / (2 ×
/// cells). What traversed-edges-per-second (TEPS, as Graph500 counts it) divides.
pub fn edges_u128(shape: Shape) -> Option<u128> {
    let (r, c) = (shape.rows as u128, shape.cols as u128);
    let degrees = 2 * (r * (c - 1) + c * (r - 1));
    let states = u128::from(reachable_u64(shape)?);
    Some(states * degrees / (2 * r * c))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// By hand: the 2x2 graph is a cycle of 12 states (12 edges); a line of n cells a path
    /// of n states (n - 1 edges); 3x3: 181440 states, degrees 2+3+2+3+4+3+2+3+2 = 24 over 9
    /// cells, 181440 × 24 / 18 = 241920 edges.
    #[test]
    fn edges_by_hand() {
        let shape = |r, c| Shape::new(r, c).unwrap();
        assert_eq!(edges_u128(shape(2, 2)), Some(12));
        assert_eq!(edges_u128(shape(1, 5)), Some(4));
        assert_eq!(edges_u128(shape(3, 3)), Some(241_920));
    }

    /// The decimal halves agree with the binary ones, and the product tree with the plain
    /// product, on sizes around the tree's leaves and beyond.
    #[test]
    fn decimal_counts_agree_with_binary() {
        for (r, c) in [
            (2, 2),
            (2, 3),
            (3, 3),
            (4, 4),
            (5, 7),
            (10, 10),
            (1, 7),
            (30, 31),
        ] {
            let shape = Shape::new(r, c).unwrap();
            let b = counts(shape);
            let plain = (2..=shape.cells() as u64).fold(BigUint::from(1u32), |a, k| a * k);
            assert_eq!(b.total, plain, "{shape}");
            let d = decimal_counts(shape);
            assert_eq!(
                d,
                (
                    b.total.to_string(),
                    b.reachable.to_string(),
                    b.unreachable.to_string()
                ),
                "{shape}"
            );
        }
    }

    #[test]
    fn known_counts() {
        let c = counts(Shape::new(4, 4).unwrap());
        // 16! = 20922789888000 (Gong: "2.092279 x 10^13").
        assert_eq!(c.total.to_string(), "20922789888000");
        assert_eq!(c.reachable.to_string(), "10461394944000");
        assert_eq!(c.unreachable, c.reachable);
        assert_eq!(reachable_u64(Shape::new(3, 3).unwrap()), Some(181_440));
        assert_eq!(reachable_u64(Shape::new(2, 6).unwrap()), Some(239_500_800));
        assert_eq!(reachable_u64(Shape::new(5, 5).unwrap()), None);
        // 100! has 158 digits.
        assert_eq!(
            counts(Shape::new(10, 10).unwrap()).total.to_string().len(),
            158
        );
    }
}

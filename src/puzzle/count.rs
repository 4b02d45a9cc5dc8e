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

/// n!, exactly.
pub fn factorial(n: u64) -> BigUint {
    (2..=n).fold(BigUint::from(1u32), |acc, k| acc * k)
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

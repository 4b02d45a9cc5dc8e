//! Lines (1×n and n×1 boards): the blank only moves along the line, no tile ever passes another,
//! so a configuration reaches exactly the n configurations with the same tile order. These are
//! searched by a plain breadth-first search over explicit boards (n states), apart from the
//! engine, whose theory needs R, C ≥ 2.

use std::collections::{HashMap, VecDeque};

use crate::puzzle::board::Board;
use crate::puzzle::metric::Metric;

/// Every board reachable from `start` with its distance (moves counted in `metric`), in
/// breadth-first order.
pub fn reach(start: &Board, metric: Metric) -> Vec<(Board, u32)> {
    let mut depth = HashMap::from([(start.clone(), 0u32)]);
    let mut order = vec![(start.clone(), 0)];
    let mut queue = VecDeque::from([start.clone()]);
    while let Some(b) = queue.pop_front() {
        let d = depth[&b];
        for nb in b.neighbours_in(metric) {
            if !depth.contains_key(&nb) {
                depth.insert(nb.clone(), d + 1);
                order.push((nb.clone(), d + 1));
                queue.push_back(nb);
            }
        }
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::board::{Cell, Shape};

    #[test]
    fn a_line_reaches_its_n_blank_positions_and_the_eccentricity_is_the_far_end() {
        for n in 2..=8 {
            for shape in [Shape::new(1, n).unwrap(), Shape::new(n, 1).unwrap()] {
                for g in 0..n {
                    let reached = reach(&Board::goal(shape, Cell(g)), Metric::Single);
                    assert_eq!(reached.len(), n, "{shape}");
                    let eccentricity = reached.iter().map(|r| r.1).max().unwrap();
                    assert_eq!(eccentricity as usize, g.max(n - 1 - g));
                    assert!(reached.iter().all(|(b, _)| b
                        .tiles()
                        .collect::<Vec<_>>()
                        .windows(2)
                        .all(|w| w[0] < w[1])));
                }
            }
        }
    }
}

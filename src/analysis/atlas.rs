//! The atlas of a board: the search from a goal in every cell, one cell of each class of cells
//! under the board's symmetries, and what they say of the state graph of one parity class.
//!
//! Two goals with the blank in the same cell differ by a relabelling of the tiles, and a
//! symmetry of the board (a reflection, a half turn, on a square a quarter turn or a transpose)
//! maps the moves of one goal's configurations onto another's: both are isomorphisms of the
//! state graph, so the distribution from a goal depends only on its blank cell's class. Over
//! the cells, the largest eccentricity (most moves from a goal) is the graph's **diameter**,
//! the smallest its **radius**, and the mean of the cells' mean distances is the mean distance
//! between two configurations of one class drawn at random (each cell holds the blank in the
//! same number of configurations of a class).

use crate::analysis::distribution::Fraction;
use crate::analysis::Analysis;
use crate::puzzle::board::{Cell, Shape};
use crate::puzzle::metric::Metric;

/// The classes of cells of `shape` under its symmetries, each ascending, ordered by their
/// first cell (which stands for the class).
pub fn cell_classes(shape: Shape) -> Vec<Vec<Cell>> {
    let (rows, cols) = (shape.rows, shape.cols);
    let images = |r: usize, c: usize| {
        let (fr, fc) = (rows - 1 - r, cols - 1 - c);
        let mut all = vec![(r, c), (fr, c), (r, fc), (fr, fc)];
        if rows == cols {
            all.extend([(c, r), (fc, r), (c, fr), (fc, fr)]);
        }
        all.into_iter().map(|(r, c)| shape.cell(r, c))
    };
    let mut classes: Vec<Vec<Cell>> = vec![];
    for cell in 0..shape.cells() {
        if classes.iter().any(|k| k.contains(&Cell(cell))) {
            continue;
        }
        let (r, c) = (shape.row(Cell(cell)), shape.col(Cell(cell)));
        let mut class: Vec<Cell> = images(r, c).collect();
        class.sort_by_key(|c| c.0);
        class.dedup();
        classes.push(class);
    }
    classes
}

/// One class of goal cells: the search from the goal with its blank in the class's first cell.
#[derive(Clone, Debug)]
pub struct CellFigures {
    /// The cells of the class, ascending; the first is the one searched.
    pub cells: Vec<Cell>,
    /// The most moves any configuration needs to reach the goal (the cell's eccentricity).
    pub eccentricity: u32,
    /// Configurations at that distance.
    pub antipodes: usize,
    /// Σ depth · states.
    pub depth_sum: u128,
    /// The states (one class: (RC)!/2).
    pub states: u64,
    /// The smallest depth with at least half the states at or below it.
    pub median: u32,
}

impl CellFigures {
    /// The figures of the analysis from the goal in `cells[0]`, standing for `cells`.
    pub fn of(a: &Analysis, cells: Vec<Cell>) -> CellFigures {
        let d = &a.distribution;
        CellFigures {
            cells,
            eccentricity: d.eccentricity(),
            antipodes: a.antipodes.len(),
            depth_sum: d.depth_sum(),
            states: d.total(),
            median: d.median(),
        }
    }

    /// The figures of the states per depth `layers` from the goal in `cells[0]` (a search read
    /// back from its reports), standing for `cells`.
    pub fn from_layers(layers: &[u64], cells: Vec<Cell>) -> CellFigures {
        let d = crate::analysis::distribution::Distribution {
            layers: layers.to_vec(),
        };
        CellFigures {
            cells,
            eccentricity: d.eccentricity(),
            antipodes: layers.last().copied().unwrap_or(0) as usize,
            depth_sum: d.depth_sum(),
            states: d.total(),
            median: d.median(),
        }
    }

    /// The exact mean distance to the goal.
    pub fn mean(&self) -> Fraction {
        Fraction::new(self.depth_sum, u128::from(self.states))
    }
}

/// The atlas of one board in one metric: every class of goal cells and what they add up to.
#[derive(Clone, Debug)]
pub struct Atlas {
    /// The board.
    pub shape: Shape,
    /// How moves were counted.
    pub metric: Metric,
    /// One entry a class of cells (`cell_classes`).
    pub classes: Vec<CellFigures>,
}

impl Atlas {
    /// The diameter of the state graph: the largest eccentricity, and the cells attaining it.
    pub fn diameter(&self) -> (u32, Vec<Cell>) {
        self.extreme(|a, b| a > b)
    }

    /// The radius: the smallest eccentricity, and the cells attaining it.
    pub fn radius(&self) -> (u32, Vec<Cell>) {
        self.extreme(|a, b| a < b)
    }

    fn extreme(&self, better: impl Fn(u32, u32) -> bool) -> (u32, Vec<Cell>) {
        let classes = self.classes.iter().map(|k| (k.eccentricity, &k.cells[..]));
        extreme(classes, better)
    }

    /// The exact mean distance between two configurations of one class: the cells' mean
    /// distances averaged over every cell, Σ |class| · depth sum / (states · cells).
    pub fn mean_distance(&self) -> Fraction {
        let num: u128 = self
            .classes
            .iter()
            .map(|k| k.cells.len() as u128 * k.depth_sum)
            .sum();
        let states = u128::from(self.classes[0].states);
        Fraction::new(num, states * self.shape.cells() as u128)
    }
}

/// The best eccentricity of `classes` (eccentricity, members) by `better` (`>` for the
/// largest, `<` for the smallest), and the members of every class attaining it, ascending: a
/// diameter or a radius, of a board's goal cells or of a graph's blank vertices.
pub fn extreme<'a, T: Copy + Ord + 'a>(
    classes: impl Iterator<Item = (u32, &'a [T])> + Clone,
    better: impl Fn(u32, u32) -> bool,
) -> (u32, Vec<T>) {
    let best = classes
        .clone()
        .map(|(e, _)| e)
        .reduce(|a, b| if better(b, a) { b } else { a })
        .expect("a class");
    let mut members: Vec<T> = classes
        .filter(|&(e, _)| e == best)
        .flat_map(|(_, m)| m.iter().copied())
        .collect();
    members.sort_unstable();
    (best, members)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The classes partition the cells: a rectangle's corners, edges and centre; a square's
    /// corners, edge cells, and centre (4x4: corners, edges, the four middle cells).
    #[test]
    fn cell_classes_partition_the_board() {
        let classes = |r, c| -> Vec<Vec<usize>> {
            cell_classes(Shape::new(r, c).unwrap())
                .into_iter()
                .map(|k| k.into_iter().map(|c| c.0).collect())
                .collect()
        };
        assert_eq!(
            classes(3, 3),
            vec![vec![0, 2, 6, 8], vec![1, 3, 5, 7], vec![4]]
        );
        assert_eq!(classes(2, 3), vec![vec![0, 2, 3, 5], vec![1, 4]]);
        assert_eq!(
            classes(4, 4),
            vec![
                vec![0, 3, 12, 15],
                vec![1, 2, 4, 7, 8, 11, 13, 14],
                vec![5, 6, 9, 10]
            ]
        );
        assert_eq!(
            classes(3, 4),
            vec![vec![0, 3, 8, 11], vec![1, 2, 9, 10], vec![4, 7], vec![5, 6]]
        );
    }
}

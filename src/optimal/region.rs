//! Cell masks of a board (at most 32 cells): the neighbours of a set of cells and the region
//! the blank reaches through cells no pattern tile holds, which a pattern database's search
//! crosses at no cost.

use crate::puzzle::board::Shape;

/// A board's cells as bit masks: bit i is cell i in reading order.
#[derive(Clone, Debug)]
pub struct Geometry {
    /// On boards up to 16 cells, the region of every (free cells, seed cell): 2 MiB, of which
    /// a search touches the few free-cell sets its pattern leaves (12,870 for 8 tiles of 16),
    /// which stay in cache; beyond, regions are grown cell layer by cell layer.
    table: Option<Vec<u16>>,
    cols: u32,
    all: u32,
    /// Every cell but those of the first column (where a step left from the next one lands).
    not_first_col: u32,
    /// Every cell but those of the last column.
    not_last_col: u32,
}

impl Geometry {
    /// The masks of `shape` (at most 32 cells).
    pub fn new(shape: Shape) -> Geometry {
        let n = shape.cells();
        debug_assert!(n <= 32);
        let all = if n == 32 { u32::MAX } else { (1u32 << n) - 1 };
        let mut first = 0u32;
        let mut last = 0u32;
        for r in 0..shape.rows {
            first |= 1 << (r * shape.cols);
            last |= 1 << (r * shape.cols + shape.cols - 1);
        }
        let mut g = Geometry {
            table: None,
            cols: shape.cols as u32,
            all,
            not_first_col: all & !first,
            not_last_col: all & !last,
        };
        if n <= 16 {
            let mut table = vec![0u16; 1 << 20];
            for free in 0..1u32 << n {
                for seed in 0..n {
                    if free & 1 << seed != 0 {
                        table[(free << 4 | seed as u32) as usize] = g.grow(1 << seed, free) as u16;
                    }
                }
            }
            g.table = Some(table);
        }
        g
    }

    /// Every cell.
    pub fn all(&self) -> u32 {
        self.all
    }

    /// The cells next to some cell of `cells` (not `cells` themselves unless adjacent).
    #[inline(always)]
    pub fn neighbours(&self, cells: u32) -> u32 {
        let right = (cells & self.not_last_col) << 1;
        let left = (cells & self.not_first_col) >> 1;
        let down = cells.checked_shl(self.cols).unwrap_or(0);
        let up = cells >> self.cols;
        (right | left | down | up) & self.all
    }

    /// The cells of `free` connected to cell `seed` (a cell of `free`) through `free`.
    #[inline(always)]
    pub fn region(&self, seed: u32, free: u32) -> u32 {
        match &self.table {
            Some(t) => u32::from(t[(free << 4 | seed) as usize]),
            None => self.grow(1 << seed, free),
        }
    }

    /// The cells of `free` connected to `seed` (cells of `free`) through `free`, grown one
    /// layer of neighbours at a time.
    #[inline(always)]
    fn grow(&self, seed: u32, free: u32) -> u32 {
        let mut region = seed;
        loop {
            let grown = (region | self.neighbours(region)) & free;
            if grown == region {
                return region;
            }
            region = grown;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbours_stay_on_the_board() {
        let s: Shape = "3x4".parse().unwrap();
        let g = Geometry::new(s);
        for c in 0..12 {
            let expected: u32 = s
                .neighbours(crate::puzzle::board::Cell(c))
                .map(|n| 1 << n.0)
                .sum();
            assert_eq!(g.neighbours(1 << c), expected, "cell {c}");
        }
        let s: Shape = "4x8".parse().unwrap();
        let g = Geometry::new(s);
        assert_eq!(g.all(), u32::MAX);
        assert_eq!(g.neighbours(1 << 31), (1 << 30) | (1 << 23));
    }

    #[test]
    fn regions_follow_free_cells() {
        // 3x3: tiles on the middle column split the free cells in two.
        let g = Geometry::new("3x3".parse().unwrap());
        let wall = (1 << 1) | (1 << 4) | (1 << 7);
        let free = g.all() & !wall;
        let left = (1 << 0) | (1 << 3) | (1 << 6);
        assert_eq!(g.region(3, free), left);
        assert_eq!(g.region(8, free), free & !left);
        assert_eq!(g.region(4, g.all()), g.all());
        assert_eq!(g.grow(1 << 8, free), free & !left);
        // Past 16 cells, without the table.
        let g = Geometry::new("3x6".parse().unwrap());
        let wall = (1 << 2) | (1 << 8) | (1 << 14);
        assert_eq!(g.region(0, g.all() & !wall), 0b11 | 0b11 << 6 | 0b11 << 12);
    }
}

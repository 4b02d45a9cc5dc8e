//! Uniformly random solvable boards, reproducible from a seed.
//!
//! A uniform shuffle of all cells (Fisher–Yates) is uniform over all (RC)! configurations.
//! Swapping the first two tiles is a bijection between the two classes, so applying it exactly
//! when the shuffle is unsolvable gives a uniform solvable board.

use crate::puzzle::board::{Board, Cell, Shape};
use crate::puzzle::parity::solvable_by_sign;

/// SplitMix64: a small, well-mixed generator; the same seed gives the same boards everywhere.
pub struct Rng(u64);

impl Rng {
    /// A generator seeded with `seed`: the same seed, the same numbers.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// A generator no file can anticipate (seeded by the standard library's per-process random
    /// keys): for choosing what to check of untrusted input.
    pub fn unpredictable() -> Rng {
        use std::hash::{BuildHasher, Hasher};
        let keys = std::collections::hash_map::RandomState::new();
        Rng(keys.build_hasher().finish())
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (Lemire's multiply-and-reject).
    pub fn below(&mut self, n: u64) -> u64 {
        loop {
            let m = u128::from(self.next_u64()) * u128::from(n);
            let low = m as u64;
            if low >= n.wrapping_neg() % n {
                return (m >> 64) as u64;
            }
        }
    }
}

/// A uniformly random board of `shape` that can reach the goal with blank on `goal`.
pub fn solvable_board(shape: Shape, goal: Cell, rng: &mut Rng) -> Board {
    let n = shape.cells();
    if shape.is_line() {
        // The n solvable boards of a line: tiles in order, the blank anywhere.
        let mut board = Board::goal(shape, goal);
        let target = Cell(rng.below(n as u64) as usize);
        while board.blank() != target {
            let step = if board.blank().0 < target.0 { 1 } else { n - 1 };
            board = board.slide(Cell((board.blank().0 + step) % n));
        }
        return board;
    }
    let mut cells: Vec<u32> = (0..n as u32).collect();
    for i in (1..n).rev() {
        cells.swap(i, rng.below(i as u64 + 1) as usize);
    }
    let mut board = Board::new(shape, cells).expect("a permutation");
    // The sign test alone: `solvability` also counts inversions and words its rule.
    if !solvable_by_sign(&board, goal) {
        let mut cells = board.cells().to_vec();
        let tiles: Vec<usize> = (0..n).filter(|&i| cells[i] != 0).take(2).collect();
        cells.swap(tiles[0], tiles[1]);
        board = Board::new(shape, cells).expect("a permutation");
    }
    board
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::parity::solvability;
    use std::collections::HashMap;

    #[test]
    fn boards_are_solvable_reproducible_and_uniform_on_2x2() {
        let shape = Shape::new(2, 2).unwrap();
        let goal = Cell(3);
        let mut rng = Rng::new(1);
        let mut counts: HashMap<Board, u32> = HashMap::new();
        for _ in 0..12_000 {
            let b = solvable_board(shape, goal, &mut rng);
            assert!(solvability(&b, goal).solvable);
            *counts.entry(b).or_default() += 1;
        }
        // 12 solvable boards, about 1000 each; a chi-square bound far beyond chance.
        assert_eq!(counts.len(), 12);
        let chi2: f64 = counts
            .values()
            .map(|&c| (f64::from(c) - 1000.0).powi(2) / 1000.0)
            .sum();
        assert!(chi2 < 40.0, "chi-square {chi2} over 11 degrees of freedom");
        let line = Shape::new(1, 6).unwrap();
        for _ in 0..50 {
            assert!(solvability(&solvable_board(line, Cell(5), &mut rng), Cell(5)).solvable);
        }
        let a = solvable_board(Shape::new(20, 20).unwrap(), Cell(399), &mut Rng::new(7));
        let b = solvable_board(Shape::new(20, 20).unwrap(), Cell(399), &mut Rng::new(7));
        assert_eq!(a, b);
    }
}

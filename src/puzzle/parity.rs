//! Solvability for boards of any size, by two independent methods that must agree:
//! inversion parity (the seeds' rule, O(n log n) with a Fenwick tree) and the sign of the
//! board as a permutation of cells by cycle decomposition (Calabro's O(n) test).

use crate::puzzle::board::{Board, Cell, Shape};

/// Inversions of a sequence of distinct values in `1..=max`: pairs out of order.
/// O(n log n): a Fenwick tree counts, for each value, the larger values already seen.
pub fn inversions(seq: &[u32]) -> u64 {
    let max = seq.iter().copied().max().unwrap_or(0) as usize;
    let mut tree = vec![0u32; max + 1];
    let mut inv = 0u64;
    for (seen, &v) in seq.iter().enumerate() {
        // Count seen values <= v, so the rest of the `seen` values are larger: inversions.
        let mut i = v as usize;
        let mut not_larger = 0u64;
        while i > 0 {
            not_larger += u64::from(tree[i]);
            i &= i - 1;
        }
        inv += seen as u64 - not_larger;
        let mut i = v as usize;
        while i <= max {
            tree[i] += 1;
            i += i & i.wrapping_neg();
        }
    }
    inv
}

/// Parity (0 even, 1 odd) of a permutation of `0..n` given as `perm[i]`, by counting cycles:
/// a permutation with c cycles is a product of n - c transpositions. O(n).
pub fn sign_parity(perm: &[usize]) -> usize {
    let mut visited = vec![false; perm.len()];
    let mut cycles = 0;
    for start in 0..perm.len() {
        if visited[start] {
            continue;
        }
        cycles += 1;
        let mut i = start;
        while !visited[i] {
            visited[i] = true;
            i = perm[i];
        }
    }
    (perm.len() - cycles) & 1
}

/// A parity class, as reports name it: the goal's (`solvable`) or the other half
/// (`unsolvable`); the engine numbers them 0 and 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Class {
    /// The goal's class: the boards that reach the goal.
    Solvable,
    /// The other half.
    Unsolvable,
}

impl Class {
    /// The class the engine numbers `class` (0 the goal's).
    pub fn of(class: u8) -> Class {
        match class {
            0 => Class::Solvable,
            _ => Class::Unsolvable,
        }
    }

    /// Its name in reports: `solvable`, `unsolvable`.
    pub fn name(self) -> &'static str {
        match self {
            Class::Solvable => "solvable",
            Class::Unsolvable => "unsolvable",
        }
    }
}

impl std::fmt::Display for Class {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.pad(self.name())
    }
}

/// The verdict with everything that went into it, for both methods.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Solvability {
    /// The board can reach the goal.
    pub solvable: bool,
    /// Inversions among the tiles in reading order, blank left out.
    pub inversions: u64,
    /// The blank's row counted from the bottom, 1-based (the seeds' K).
    pub blank_row_from_bottom: usize,
    /// The goal blank's row counted from the bottom, 1-based (1 for the usual goal).
    pub goal_row_from_bottom: usize,
    /// The rule of the seeds that decides, in words.
    pub rule: String,
    /// Method 2: parity of the board as a permutation of cells (tile -> its goal cell).
    pub sign_parity: usize,
    /// Method 2: taxicab distance from the blank to the goal blank cell.
    pub blank_distance: usize,
}

/// Method 1 alone: the seeds' inversion rule, generalised to any goal blank cell.
///
/// A horizontal move keeps the tile sequence; a vertical one moves a tile past C-1 others,
/// changing the inversion count by C-1 mod 2. The goal has 0 inversions, so a board is
/// solvable iff inversions + (C-1)·(rows between blank and goal blank) is even.
pub fn solvable_by_inversions(board: &Board, goal: Cell) -> bool {
    let shape = board.shape();
    let tiles: Vec<u32> = board.tiles().collect();
    let rows_apart = shape.row(board.blank()).abs_diff(shape.row(goal));
    (inversions(&tiles) + ((shape.cols - 1) * rows_apart) as u64).is_multiple_of(2)
}

/// Method 2 alone: the sign of the board as a permutation of cells equals the parity of the
/// blank's distance to its goal cell (every move is one transposition and one step).
pub fn solvable_by_sign(board: &Board, goal: Cell) -> bool {
    sign_parity(&cell_permutation(board, goal)) == board.shape().distance(board.blank(), goal) & 1
}

/// `perm[cell]` = the goal cell of what lies on `cell` (the blank belongs on `goal`).
fn cell_permutation(board: &Board, goal: Cell) -> Vec<usize> {
    // Tile t's goal cell: tiles fill the cells in reading order, skipping the goal blank.
    board
        .cells()
        .iter()
        .map(|&t| match t as usize {
            0 => goal.0,
            t if t <= goal.0 => t - 1,
            t => t,
        })
        .collect()
}

/// Both methods, with the explanation. Panics only if they disagree, which the theorem forbids.
pub fn solvability(board: &Board, goal: Cell) -> Solvability {
    let shape = board.shape();
    let tiles: Vec<u32> = board.tiles().collect();
    let inversions = inversions(&tiles);
    let blank = board.blank();
    let by_inversions = solvable_by_inversions(board, goal);
    let by_sign = solvable_by_sign(board, goal);
    assert_eq!(
        by_inversions, by_sign,
        "the two solvability tests disagree on {board}"
    );
    // On a line the blank cannot take a tile past another: parity is necessary, not enough.
    let in_order = tiles.windows(2).all(|w| w[0] < w[1]);
    let line = shape.is_line();
    Solvability {
        solvable: if line { in_order } else { by_inversions },
        inversions,
        blank_row_from_bottom: shape.rows - shape.row(blank),
        goal_row_from_bottom: shape.rows - shape.row(goal),
        rule: if line {
            format!(
                "{shape} is a line: no tile can pass another, so solvable iff the tiles are in \
                 order ({})",
                if in_order { "they are" } else { "they are not" }
            )
        } else {
            rule_text(shape, shape.row(blank), shape.row(goal))
        },
        sign_parity: sign_parity(&cell_permutation(board, goal)),
        blank_distance: shape.distance(blank, goal),
    }
}

fn rule_text(shape: Shape, blank_row: usize, goal_row: usize) -> String {
    let parity = |n: usize| if n.is_multiple_of(2) { "even" } else { "odd" };
    if shape.cols % 2 == 1 {
        return format!(
            "width {} is odd: solvable iff the inversion count is even",
            shape.cols
        );
    }
    let apart = blank_row.abs_diff(goal_row);
    if goal_row == shape.rows - 1 {
        let from_bottom = shape.rows - blank_row;
        format!(
            "width {} is even and the blank is on row {from_bottom} from the bottom ({}): \
             solvable iff the inversion count is {}",
            shape.cols,
            parity(from_bottom),
            parity(apart)
        )
    } else {
        format!(
            "width {} is even and the blank is {apart} row(s) from the goal blank's row ({}): \
             solvable iff the inversion count is {}",
            shape.cols,
            parity(apart),
            parity(apart)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(super) fn naive_inversions(seq: &[u32]) -> u64 {
        let mut n = 0;
        for i in 0..seq.len() {
            for j in i + 1..seq.len() {
                n += u64::from(seq[i] > seq[j]);
            }
        }
        n
    }

    #[test]
    fn inversion_examples_from_the_seeds() {
        // Ryan's fig. 5: 49 inversions.
        let fig5 = [12, 1, 10, 2, 7, 11, 4, 14, 5, 9, 15, 8, 13, 6, 3];
        assert_eq!(inversions(&fig5), 49);
        // Gong's 3x2 example 4,5,1,3,2 has 7; the 4x2 example 7,2,1,4,6,3,5 has 10.
        assert_eq!(inversions(&[4, 5, 1, 3, 2]), 7);
        assert_eq!(inversions(&[7, 2, 1, 4, 6, 3, 5]), 10);
        for seq in [vec![], vec![1], vec![3, 2, 1], vec![2, 4, 1, 3]] {
            assert_eq!(inversions(&seq), naive_inversions(&seq));
        }
    }

    #[test]
    fn seed_verdicts() {
        let last = |b: &Board| Cell(b.shape().cells() - 1);
        // Ryan fig. 3: last two tiles swapped, unsolvable.
        let fig3 = Board::parse("1 2 3 4/5 6 7 8/9 10 11 12/13 15 14 0", None).unwrap();
        assert!(!solvability(&fig3, last(&fig3)).solvable);
        // Ryan fig. 4: 49 inversions, blank on row 2 from bottom (even): solvable.
        let fig4 = Board::parse("12 1 10 2/7 11 4 14/5 0 9 15/8 13 6 3", None).unwrap();
        let s = solvability(&fig4, last(&fig4));
        assert!(s.solvable);
        assert_eq!((s.inversions, s.blank_row_from_bottom), (49, 2));
        // The geeksforgeeks 8-puzzle: 1 8 2/0 4 3/7 6 5 is solvable (10 inversions).
        let g = Board::parse("1 8 2/0 4 3/7 6 5", None).unwrap();
        let s = solvability(&g, last(&g));
        assert!(s.solvable);
        assert_eq!(s.inversions, 10);
    }

    mod properties {
        use super::super::*;
        use super::naive_inversions;
        use proptest::prelude::*;

        /// A random board of a random shape from 2x2 to 12x12, and a random goal cell.
        fn board_and_goal() -> impl Strategy<Value = (Board, Cell)> {
            (2usize..=12, 2usize..=12)
                .prop_flat_map(|(r, c)| {
                    let n = r * c;
                    (
                        Just((0..n as u32).collect::<Vec<_>>()).prop_shuffle(),
                        0..n,
                        Just(Shape::new(r, c).unwrap()),
                    )
                })
                .prop_map(|(cells, goal, shape)| (Board::new(shape, cells).unwrap(), Cell(goal)))
        }

        proptest! {
            #[test]
            fn inversion_parity_and_cycle_sign_agree((board, goal) in board_and_goal()) {
                prop_assert_eq!(solvable_by_inversions(&board, goal), solvable_by_sign(&board, goal));
            }

            #[test]
            fn moves_keep_and_swaps_flip_solvability((board, goal) in board_and_goal()) {
                let s = solvable_by_inversions(&board, goal);
                for nb in board.neighbours() {
                    prop_assert_eq!(solvable_by_sign(&nb, goal), s);
                }
                let mut cells = board.cells().to_vec();
                let tiles: Vec<usize> = (0..cells.len()).filter(|&i| cells[i] != 0).take(2).collect();
                cells.swap(tiles[0], tiles[1]);
                let swapped = Board::new(board.shape(), cells).unwrap();
                prop_assert_eq!(solvable_by_sign(&swapped, goal), !s);
                prop_assert_eq!(solvable_by_inversions(&swapped, goal), !s);
            }

            #[test]
            fn fenwick_inversions_equal_the_quadratic_count(seq in Just((1..60u32).collect::<Vec<_>>()).prop_shuffle()) {
                prop_assert_eq!(inversions(&seq), naive_inversions(&seq));
            }

            #[test]
            fn boards_print_and_parse_back((board, _goal) in board_and_goal()) {
                prop_assert_eq!(Board::parse(&board.to_string(), None).unwrap(), board.clone());
                prop_assert_eq!(Board::parse(&board.grid(), None).unwrap(), board);
            }
        }
    }
}

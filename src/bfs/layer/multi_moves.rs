//! The moves of the multi-tile metric in the index: where each slide of the blank takes a state.
//!
//! A horizontal slide keeps the tile sequence: its target is another slot of the same rank
//! (`Slides::row`). A vertical slide of k rows moves k tiles of the blank's column one row
//! each: in the sequence (the tiles in reading order), a window of k·C entries between the
//! blank's two cells is rearranged and nothing else moves, so only the window's Lehmer digits
//! change. The new ones are counted from the tile values (the cursor's sequence) and the set of
//! values after the window, and the full rank changes by Σ (d'ⱼ - dⱼ)·(m-1-j)! over the window.

use super::multi::MAX_COLUMN;
use crate::index::rank::{Cursor, MAX_TILES};
use crate::index::space::StateSpace;
use crate::puzzle::board::Cell;

/// A vertical slide of the blank: the window of sequence entries it rearranges and where its
/// target lies in a rank.
#[derive(Clone, Copy, Debug, Default)]
pub struct Column {
    /// The target's slot in its rank.
    pub(super) slot: u64,
    /// The window's first sequence entry, and its length (k·C entries for a slide of k rows).
    pub(super) at: u8,
    pub(super) len: u8,
    /// The window after the slide: entry t is the entry `from[t]` of the sequence before it.
    pub(super) from: [u8; MAX_TILES],
}

/// The multi-tile moves of every slot of a rank (the blank cell of each), precomputed.
#[derive(Clone, Debug)]
pub struct Slides {
    /// `row[j]`: the slots of a rank whose blank is in the row of slot j's blank, j's own but
    /// (bit t for slot t): the targets of j's horizontal slides, same rank.
    pub(super) row: Vec<u32>,
    /// `columns[j]`: the vertical slides of slot j's blank, one per other row (the first R-1;
    /// a fixed array, not a vector: no length to load and no bounds to check).
    pub(super) columns: Vec<[Column; MAX_COLUMN]>,
    /// `runs[q]`: the rows of a word whose first slot is slot q of its rank (`Run`).
    pub(super) runs: Vec<Vec<Run>>,
    /// Slots a rank (n).
    width: u64,
    /// Tiles (m), and the values they take as a mask ((1 << m) - 1).
    tiles: usize,
    all: u32,
}

impl Slides {
    /// The slides of `space`'s board (in the engine's orientation).
    pub fn new(space: &StateSpace) -> Slides {
        let shape = space.shape;
        let c = shape.cols;
        let n = shape.cells();
        let mut row = vec![0u32; n];
        let mut columns = vec![[Column::default(); MAX_COLUMN]; n];
        for (j, &b) in space.blanks.iter().enumerate() {
            let b = usize::from(b);
            let mut vertical = 0;
            for to in 0..n {
                if to == b {
                    continue;
                }
                if shape.row(Cell(to)) == shape.row(Cell(b)) {
                    row[j] |= 1 << space.slot[to];
                } else if shape.col(Cell(to)) == shape.col(Cell(b)) {
                    columns[j][vertical % MAX_COLUMN] = column(space, b, to, c);
                    vertical += 1;
                }
            }
        }
        Slides {
            runs: (0..n).map(|q| runs(&row, q, n)).collect(),
            row,
            columns,
            width: space.width(),
            tiles: space.tiles(),
            all: (1u32 << space.tiles()) - 1,
        }
    }

    /// The index of the target of `slide` from the state of rank `rank` whose sequence is in
    /// `cursor` (after `Indexer::seek`), on an index of `weights`.
    #[inline(always)]
    pub(super) fn target(
        &self,
        slide: &Column,
        cursor: &Cursor,
        rank: u64,
        weights: &[u64],
    ) -> u64 {
        let (d, seq) = (&cursor.digits, &cursor.seq);
        let (at, len) = (usize::from(slide.at), usize::from(slide.len));
        // The values after the window: the same set before and after the slide.
        let mut after = self.all & !cursor.placed[(at + len) % (MAX_TILES + 1)];
        let mut delta = 0i64;
        for t in (0..len).rev() {
            let x = seq[usize::from(slide.from[t]) % MAX_TILES];
            let digit = (after & ((1u32 << x) - 1)).count_ones();
            after |= 1 << x;
            let j = (at + t) % MAX_TILES;
            delta += (i64::from(digit) - i64::from(d[j])) * weights[j] as i64;
        }
        // The full rank's last digit (weight 1) is its parity digit m-2.
        let full = (rank << 1 | u64::from(d[(self.tiles - 2) % MAX_TILES])) as i64;
        ((full + delta) as u64 >> 1) * self.width + slide.slot
    }
}

/// The slots of a word holding the blanks of one row of one rank (the row's cells are
/// consecutive slots of a rank): a horizontal slide from any of them reaches all the others.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Run {
    /// The run's slots in the word (low bits).
    pub(super) mask: u64,
    /// Its slots at the end of the word before, and at the start of the word after.
    pub(super) before: u8,
    pub(super) after: u8,
}

/// The runs of a word whose first slot is slot q of its rank (n slots a rank), given the rows
/// of each slot (`Slides::row`).
fn runs(row: &[u32], q: usize, n: usize) -> Vec<Run> {
    let mut runs: Vec<Run> = vec![];
    let mut s = 0;
    while s < 32 {
        let j = (q + s) % n;
        // The run of slot j: its row's slots, j's own included (consecutive in the rank).
        let all = row[j] | 1 << j;
        let first = all.trailing_zeros() as usize;
        let len = all.count_ones() as usize;
        let (start, end) = (s as isize - (j - first) as isize, s + (first + len - j));
        let in_word = start.max(0) as usize..end.min(32);
        runs.push(Run {
            mask: in_word.clone().fold(0, |m, t| m | 1 << (2 * t)),
            before: (-start).max(0) as u8,
            after: end.saturating_sub(32) as u8,
        });
        s = in_word.end;
    }
    runs
}

/// The vertical slide of a blank from cell `b` to cell `to` of its column (`c` columns).
fn column(space: &StateSpace, b: usize, to: usize, c: usize) -> Column {
    let mut slide = Column {
        slot: u64::from(space.slot[to]),
        ..Column::default()
    };
    // Sequence entry i holds the tile of cell i before the blank's cell, of cell i+1 after.
    let (at, len) = (b.min(to), b.abs_diff(to));
    for t in 0..len {
        let i = at + t;
        let from = if to < b {
            // Up: the window holds cells to+1..=b after the slide; the column's cells take the
            // tile from the cell above (entry i+1-C), the others keep theirs (entry i+1).
            if (i + 1 - to).is_multiple_of(c) {
                i + 1 - c
            } else {
                i + 1
            }
        } else if (i - b).is_multiple_of(c) {
            // Down: the window holds cells b..to-1 after the slide; the column's cells take
            // the tile from the cell below (entry i+C-1), the others keep theirs (entry i-1).
            i + c - 1
        } else {
            i - 1
        };
        slide.from[t] = from as u8;
    }
    slide.at = at as u8;
    slide.len = len as u8;
    slide
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::board::Shape;
    use crate::puzzle::metric::Metric;

    /// The runs of every word place cover its 32 slots once, each slot's run holding exactly
    /// its horizontal slides' targets that are in the word, and the others counted before or
    /// after it.
    #[test]
    fn runs_hold_the_horizontal_slides_of_a_word() {
        for (r, c) in [(2, 2), (2, 3), (3, 3), (3, 4), (2, 7), (4, 4), (2, 8)] {
            let shape = Shape::new(r, c).unwrap();
            let space = StateSpace::in_metric(shape, Cell(0), 0, Metric::Multi).unwrap();
            let slides = Slides::new(&space);
            let n = space.width() as usize;
            for q in 0..n {
                let runs = &slides.runs[q];
                let mut covered = 0u64;
                for run in runs {
                    assert_eq!(covered & run.mask, 0);
                    covered |= run.mask;
                    let slots: Vec<usize> =
                        (0..32).filter(|&s| run.mask >> (2 * s) & 1 == 1).collect();
                    for &s in &slots {
                        let j = (q + s) % n;
                        let row = slides.row[j] | 1 << j;
                        // The targets of slot s, in word positions (its rank starts at s - j).
                        let want: Vec<isize> = (0..n)
                            .filter(|&t| row >> t & 1 == 1)
                            .map(|t| s as isize - j as isize + t as isize)
                            .collect();
                        let before = want.iter().filter(|&&p| p < 0).count();
                        let after = want.iter().filter(|&&p| p >= 32).count();
                        let inside: Vec<usize> = want
                            .iter()
                            .filter(|&&p| (0..32).contains(&p))
                            .map(|&p| p as usize)
                            .collect();
                        assert_eq!(inside, slots, "{shape} q {q} slot {s}");
                        assert_eq!((run.before as usize, run.after as usize), (before, after));
                    }
                }
                assert_eq!(covered, crate::bfs::table::LOW_BITS, "{shape} q {q}");
            }
        }
    }

    /// Every multi-tile neighbour computed in the index (same-rank slots for horizontal slides,
    /// the window's digits for vertical ones) is the index of a neighbour the board's own
    /// slides give, and every one of those is found.
    #[test]
    fn slide_targets_match_ranking_the_slid_boards() {
        for (r, c) in [
            (2, 2),
            (2, 3),
            (3, 3),
            (2, 5),
            (3, 4),
            (4, 4),
            (2, 7),
            (4, 3),
        ] {
            let shape = Shape::new(r, c).unwrap();
            for goal in [0, shape.cells() - 1, shape.cells() / 2] {
                for class in [0, 1] {
                    let space =
                        StateSpace::in_metric(shape, Cell(goal), class, Metric::Multi).unwrap();
                    let slides = Slides::new(&space);
                    let weights = space.indexer.weights();
                    let step = (space.states() / 3000).max(1);
                    for index in (0..space.states()).step_by(step as usize) {
                        let board = space.board(index);
                        let mut want: Vec<u64> = board
                            .slides()
                            .map(|b| space.index(&b).expect("same class"))
                            .collect();
                        let (blank, rank) = space.split(index);
                        let j = (index % space.width()) as usize;
                        let mut cursor = Cursor::new();
                        space.indexer.seek(&mut cursor, rank, space.parity[blank.0]);
                        let mut got: Vec<u64> = (0..space.width())
                            .filter(|&t| slides.row[j] >> t & 1 == 1)
                            .map(|t| rank * space.width() + t)
                            .collect();
                        for slide in &slides.columns[j][..space.shape.rows - 1] {
                            got.push(slides.target(slide, &cursor, rank, weights));
                        }
                        want.sort_unstable();
                        got.sort_unstable();
                        assert_eq!(got, want, "{shape} goal {goal} class {class}: {board}");
                    }
                }
            }
        }
    }
}

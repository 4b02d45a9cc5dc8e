//! The moves of the multi-tile metric in the index: where each slide of the blank takes a state.
//!
//! A horizontal slide keeps the tile sequence: its target is another slot of the same rank
//! (`Slides::row`). A vertical slide of k rows moves k tiles of the blank's column one row
//! each: in the sequence (the tiles in reading order), a window of k·C entries between the
//! blank's two cells is rearranged and nothing else moves, so only the window's Lehmer digits
//! change. The new ones are counted from the tile values (the cursor's sequence) and the set of
//! values after the window, and the full rank changes by Σ (d'ⱼ - dⱼ)·(m-1-j)! over the window.

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
    /// `columns[j]`: the vertical slides of slot j's blank, one per other row.
    pub(super) columns: Vec<Vec<Column>>,
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
        let mut columns = vec![vec![]; n];
        for (j, &b) in space.blanks.iter().enumerate() {
            let b = usize::from(b);
            for to in 0..n {
                if to == b {
                    continue;
                }
                if shape.row(Cell(to)) == shape.row(Cell(b)) {
                    row[j] |= 1 << space.slot[to];
                } else if shape.col(Cell(to)) == shape.col(Cell(b)) {
                    columns[j].push(column(space, b, to, c));
                }
            }
        }
        Slides {
            row,
            columns,
            width: space.width(),
            tiles: space.tiles(),
            all: (1u32 << space.tiles()) - 1,
        }
    }

    /// The index of the target of `slide` from the state of rank `rank` whose sequence is in
    /// `cursor` (after `Indexer::seek`), `before[i]` holding the values of its first i entries
    /// (`Prefix`), on an index of `weights`.
    #[inline(always)]
    pub(super) fn target(
        &self,
        slide: &Column,
        cursor: &Cursor,
        before: &Prefix,
        rank: u64,
        weights: &[u64],
    ) -> u64 {
        let (d, seq) = (&cursor.digits, &cursor.seq);
        let (at, len) = (usize::from(slide.at), usize::from(slide.len));
        // The values after the window: the same set before and after the slide.
        let mut after = self.all & !before.0[(at + len) % (MAX_TILES + 1)];
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

/// The values of the first i entries of a sequence, for every i (bit v for value v).
#[derive(Clone, Copy, Debug)]
pub struct Prefix(pub(super) [u32; MAX_TILES + 1]);

impl Prefix {
    /// The prefixes of the sequence in `cursor` (its first `tiles` entries).
    #[inline(always)]
    pub(super) fn of(cursor: &Cursor, tiles: usize) -> Prefix {
        let mut p = [0u32; MAX_TILES + 1];
        for i in 0..tiles.min(MAX_TILES) {
            p[i + 1] = p[i] | 1 << cursor.seq[i];
        }
        Prefix(p)
    }
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
                        let before = Prefix::of(&cursor, space.tiles());
                        let mut got: Vec<u64> = (0..space.width())
                            .filter(|&t| slides.row[j] >> t & 1 == 1)
                            .map(|t| rank * space.width() + t)
                            .collect();
                        for slide in &slides.columns[j] {
                            got.push(slides.target(slide, &cursor, &before, rank, weights));
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

//! The moves of the multi-tile metric in the index: where each slide of the blank takes a state.
//!
//! A horizontal slide keeps the tile sequence: its target is another slot of the same rank
//! (`Slides::row`). A vertical slide of k rows is k steps of one row the same way, and a step
//! turns a window of C sequence entries (the tiles in reading order): down, the window's last
//! entry (the tile below the blank) moves first; up, its first moves last. Only the window's
//! Lehmer digits change, and their new values follow from the old ones alone (`down_delta`,
//! `up_delta`: the comparisons a turn needs are read off the digits in one pass, C-1 steps), so
//! the full rank changes by Σ (d'ⱼ - dⱼ)·(m-1-j)! over the window. The steps of one slide turn
//! disjoint, adjacent windows, and a step leaves the digits of every other window as they were
//! (a digit counts the smaller entries after it, a set the step does not change): a slide's
//! change is the sum of its steps' changes, each read from the state's own digits, and a slide
//! of two rows adds one step to the slide of one. Boards of at most 3 rows and 4 columns read a
//! step's change from a table of every window's digits instead (`step_table`).

use crate::bfs::layer::multi::row_masks::RowMasks;
use crate::index::rank::{Cursor, DIGITS};
use crate::index::space::StateSpace;
use crate::puzzle::board::Cell;

/// A vertical slide of the blank: its last step (one row), and where its target lies in a rank.
#[derive(Clone, Copy, Debug, Default)]
pub struct ColumnSlide {
    /// The target's slot in its rank.
    pub(in crate::bfs::layer) slot: u64,
    /// The first entry of the window the last step turns.
    pub(in crate::bfs::layer) at: u8,
    /// Whether the blank moves down (the window's last entry moves first) or up.
    pub(in crate::bfs::layer) down: bool,
    /// All ones if the slide is the one before it in `Slides::columns` and one row more (its
    /// change adds to that one's), zero if it is a slide of one row.
    pub(in crate::bfs::layer) chain: i64,
    /// On a board with `step_tables`: where the changes of the last step's window start in
    /// `Slides::steps`, and the strides of the window's first K digits there (its last
    /// digit's is 1).
    pub(in crate::bfs::layer) table: u32,
    pub(in crate::bfs::layer) strides: [u16; 3],
}

/// The most vertical slides of a state: R-1, with R ≤ 4 rows in the engine's orientation (at
/// most 17 cells, rows ≤ columns).
pub(in crate::bfs::layer) const MAX_COLUMN: usize = 3;

/// Whether boards with `per` + 1 rows and `k` + 1 columns read a step's change from a table of
/// its window's digits (`Slides::steps`) instead of computing it: those of at most 4 columns
/// and 3 rows, where the table is small (3x4: 19,008 windows a direction, 76 kB) and the
/// changes fit an i32 (at most 11 tiles). A constant of the kernels' `PER` and `K`.
pub(in crate::bfs::layer) const fn step_tables(per: usize, k: usize) -> bool {
    per <= 2 && k <= 3
}

/// The multi-tile moves of every slot of a rank (the blank cell of each), precomputed.
#[derive(Clone, Debug)]
pub struct Slides {
    /// `row[j]`: the slots of a rank whose blank is in the row of slot j's blank, j's own but
    /// (bit t for slot t): the targets of j's horizontal slides, same rank.
    pub(in crate::bfs::layer) row: Vec<u32>,
    /// `columns[j]`: the vertical slides of slot j's blank, one per other row (the first R-1),
    /// down the column and then up it, each one row longer than the one before it (a fixed
    /// array, not a vector: no length to load and no bounds to check).
    pub(in crate::bfs::layer) columns: Vec<[ColumnSlide; MAX_COLUMN]>,
    /// The change of every step of a window of K + 1 digits, down and up, for each first
    /// position of the window, in the order of the digits' mixed radix (`step_tables`; empty
    /// on other boards).
    steps: Vec<i32>,
    /// The rows of a rank within a word.
    pub(in crate::bfs::layer) masks: RowMasks,
    /// Slots a rank (n).
    width: u64,
    /// Tiles (m), and C - 1: the entries a step's moving tile passes.
    tiles: usize,
    passes: usize,
}

impl Slides {
    /// The slides of `space`'s board (in the engine's orientation).
    pub fn new(space: &StateSpace) -> Slides {
        let shape = space.shape();
        let c = shape.cols;
        // At most 17 cells, rows ≤ columns: the kernels' widths (`Pending::flush`).
        assert!(
            matches!((shape.rows, c), (2, 2..=8) | (3, 3..=5) | (4, 4)),
            "the multi-tile kernels of {shape}"
        );
        let n = shape.cells();
        let (tiles, k) = (space.tiles(), c - 1);
        let tabled = step_tables(shape.rows - 1, k);
        let (steps, starts) = if tabled {
            step_table(space.indexer().weights(), tiles, k)
        } else {
            (vec![], vec![])
        };
        let mut row = vec![0u32; n];
        let mut columns = vec![[ColumnSlide::default(); MAX_COLUMN]; n];
        for (j, &b) in space.blanks().iter().enumerate() {
            let b = usize::from(b);
            for to in 0..n {
                if to != b && shape.row(Cell(to)) == shape.row(Cell(b)) {
                    row[j] |= 1 << space.slots()[to];
                }
            }
            let (r, rows) = (shape.row(Cell(b)), shape.rows);
            let down = (1..rows - r).map(|k| (true, k, b + (k - 1) * c, b + k * c));
            let up = (1..=r).map(|k| (false, k, b - k * c, b - k * c));
            for (t, (down, rows, at, to)) in down.chain(up).enumerate() {
                let (table, strides) = if tabled {
                    (starts[2 * at + usize::from(!down)], strides(tiles - at, k))
                } else {
                    (0, [0; 3])
                };
                columns[j][t % MAX_COLUMN] = ColumnSlide {
                    slot: u64::from(space.slots()[to]),
                    at: at as u8,
                    down,
                    chain: if rows > 1 { -1 } else { 0 },
                    table,
                    strides,
                };
            }
        }
        Slides {
            masks: RowMasks::new(c),
            row,
            columns,
            steps,
            width: space.width(),
            tiles,
            passes: k,
        }
    }

    /// C - 1: the entries a step's moving tile passes (the `K` of `targets`).
    pub(in crate::bfs::layer) fn passes(&self) -> usize {
        self.passes
    }

    /// The indices of the targets of the first `PER` vertical slides of slot `j` (all R-1 of
    /// them) from the state of rank `rank` whose digits are in `cursor` (after
    /// `Indexer::seek_digits`), on an index of `weights`, on a board of K + 1 columns (a
    /// constant: the steps' loops unroll).
    #[inline(always)]
    pub(in crate::bfs::layer) fn targets<const PER: usize, const K: usize>(
        &self,
        j: usize,
        cursor: &Cursor,
        rank: u64,
        weights: &[u64; DIGITS],
    ) -> [u64; PER] {
        let d = &cursor.digits;
        // The full rank's last digit (weight 1) is its parity digit m-2.
        let full = (rank << 1 | u64::from(d[(self.tiles - 2) % DIGITS])) as i64;
        let columns = &self.columns[j];
        let mut change = 0i64;
        // A loop, not `array::from_fn`: its closure would stay a function of its own
        // (`bits::bit_instructions!`).
        let mut targets = [0u64; PER];
        for (target, slide) in targets.iter_mut().zip(columns) {
            let at = usize::from(slide.at);
            let step = if const { step_tables(PER, K) } {
                // The window's digits in the mixed radix of its first position.
                let (at, k) = (at % 16, K % 4);
                let mut at_window = slide.table as usize + usize::from(d[at + k]);
                for t in 0..k {
                    at_window += usize::from(d[at + t]) * usize::from(slide.strides[t]);
                }
                i64::from(self.steps[at_window])
            } else if slide.down {
                down_delta::<K>(weights, d, at)
            } else {
                up_delta::<K>(weights, d, at)
            };
            change = (change & slide.chain) + step;
            *target = ((full + change) as u64 >> 1) * self.width + slide.slot;
        }
        targets
    }
}

/// The changes of every step on a board of `tiles` tiles and K + 1 = `k` + 1 columns (index
/// `weights`), computed by `down_delta` and `up_delta`: for each first position i of a window
/// (every i + k < tiles), its down steps then its up steps, each for every value of the
/// window's digits (d[i + t] < tiles - i - t) in their mixed radix; and where the steps of
/// position i start, down then up (`starts[2i]`, `starts[2i + 1]`).
fn step_table(weights: &[u64; DIGITS], tiles: usize, k: usize) -> (Vec<i32>, Vec<u32>) {
    assert!(
        (1..=3).contains(&k),
        "step tables of windows of 2 to 4 entries"
    );
    let (mut steps, mut starts) = (vec![], vec![]);
    for i in 0..tiles - k {
        let radix = |t: usize| tiles - i - t;
        let windows: usize = (0..=k).map(radix).product();
        for down in [true, false] {
            starts.push(u32::try_from(steps.len()).expect("a small table"));
            let mut d = [0u8; DIGITS];
            for mut w in 0..windows {
                // The window's digits, last first.
                for t in (0..=k).rev() {
                    d[i + t] = (w % radix(t)) as u8;
                    w /= radix(t);
                }
                let step = match (k, down) {
                    (1, true) => down_delta::<1>(weights, &d, i),
                    (2, true) => down_delta::<2>(weights, &d, i),
                    (_, true) => down_delta::<3>(weights, &d, i),
                    (1, false) => up_delta::<1>(weights, &d, i),
                    (2, false) => up_delta::<2>(weights, &d, i),
                    (_, false) => up_delta::<3>(weights, &d, i),
                };
                steps.push(i32::try_from(step).expect("a step of at most 11 tiles"));
            }
        }
    }
    (steps, starts)
}

/// The strides of the first `k` digits of a window whose first digit has `radix` values (the
/// next one less, and so on; the last digit's stride is 1).
fn strides(radix: usize, k: usize) -> [u16; 3] {
    let mut strides = [0u16; 3];
    for (t, stride) in strides.iter_mut().enumerate().take(k) {
        let product: usize = (t + 1..=k).map(|u| radix - u).product();
        *stride = u16::try_from(product).expect("a small window");
    }
    strides
}

/// The change in full rank when the blank moves down a row: the last entry z of the window of
/// `K` + 1 entries at `i` moves first, the others one on (digits `d`, weights `w`). Entry i+t
/// gains nothing after it but loses z if z is smaller, which it is when z ranks below it among
/// the entries after it: z's rank among the entries from i+t+1 on, followed from d[i+k] down.
#[inline(always)]
fn down_delta<const K: usize>(w: &[u64; DIGITS], d: &[u8; DIGITS], i: usize) -> i64 {
    // i + K ≤ 22 < DIGITS: no bounds to check.
    let (i, k) = (i % 16, K % 8);
    let mut r = i64::from(d[i + k]);
    let mut delta = 0i64;
    for t in (0..k).rev() {
        let z_smaller = i64::from(r < i64::from(d[i + t]));
        r += 1 - z_smaller;
        let new = i64::from(d[i + t]) - z_smaller;
        delta += (new - i64::from(d[i + t + 1])) * w[i + t + 1] as i64;
    }
    // z's rank among the window's others and the entries after: its digit now.
    delta + (r - i64::from(d[i])) * w[i] as i64
}

/// The change in full rank when the blank moves up a row: the first entry x of the window of
/// `K` + 1 entries at `i` moves last, the others one back (see `down_delta`). With c the count
/// of entries from i+t on that are smaller than x (d[i] for t = 1), entry i+t is smaller than x
/// exactly when c > d[i+t] (its digit counts the entries after it below it); it gains x after it
/// if x is smaller, and x's new digit is the count left after the window.
#[inline(always)]
fn up_delta<const K: usize>(w: &[u64; DIGITS], d: &[u8; DIGITS], i: usize) -> i64 {
    let (i, k) = (i % 16, K % 8);
    let mut c = i64::from(d[i]);
    let mut delta = 0i64;
    for t in 1..k + 1 {
        let smaller = i64::from(c > i64::from(d[i + t]));
        c -= smaller;
        let new = i64::from(d[i + t]) + 1 - smaller;
        delta += (new - i64::from(d[i + t - 1])) * w[i + t - 1] as i64;
    }
    delta + (c - i64::from(d[i + k])) * w[i + k] as i64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::puzzle::Puzzle;
    use crate::puzzle::board::Shape;
    use crate::puzzle::metric::Metric;

    /// The rows a word's masks spread over are the horizontal slides' targets: for every word
    /// place q and slot s, `spread` of s gives the slots of the word holding s's slides and
    /// s itself, and the masks of the words beside it hold the others.
    #[test]
    fn row_masks_hold_the_horizontal_slides_of_a_word() {
        for (r, c) in [(2, 2), (2, 3), (3, 3), (3, 4), (2, 7), (4, 4), (2, 8)] {
            let shape = Shape::new(r, c).unwrap();
            let space =
                StateSpace::new(&Puzzle::board(shape, Cell(0), Metric::Multi).unwrap(), 0).unwrap();
            let slides = Slides::new(&space);
            let n = space.width() as usize;
            for q in 0..n {
                let p = slides.masks.phase(q);
                for s in 0..32 {
                    let j = (q + s) % n;
                    let row = slides.row[j] | 1 << j;
                    // The targets of slot s, in word positions (its rank starts at s - j).
                    let want: Vec<isize> = (0..n)
                        .filter(|&t| row >> t & 1 == 1)
                        .map(|t| s as isize - j as isize + t as isize)
                        .collect();
                    let inside = want
                        .iter()
                        .filter(|&&t| (0..32).contains(&t))
                        .fold(0u64, |m, &t| m | 1 << (2 * t));
                    let spread = RowMasks::spread(p, 1 << (2 * s));
                    assert_eq!(spread, inside, "{shape} q {q} slot {s}");
                    let before = want.iter().filter(|&&t| t < 0).count();
                    let after = want.iter().filter(|&&t| t >= 32).count();
                    if before > 0 {
                        assert_eq!(spread & 1, 1, "{shape} q {q} slot {s}: the first row");
                        assert_eq!(p.back.count_ones() as usize, before);
                    }
                    if after > 0 {
                        assert_eq!(spread >> 62, 1, "{shape} q {q} slot {s}: the last row");
                        assert_eq!(p.ahead.count_ones() as usize, after);
                    }
                }
            }
        }
    }

    /// `Slides::targets` of `PER` slides for the board's width.
    fn vertical<const PER: usize>(
        slides: &Slides,
        j: usize,
        cursor: &Cursor,
        rank: u64,
        weights: &[u64; DIGITS],
    ) -> Vec<u64> {
        let targets = match slides.passes() {
            1 => Slides::targets::<PER, 1>,
            2 => Slides::targets::<PER, 2>,
            3 => Slides::targets::<PER, 3>,
            4 => Slides::targets::<PER, 4>,
            5 => Slides::targets::<PER, 5>,
            6 => Slides::targets::<PER, 6>,
            _ => Slides::targets::<PER, 7>,
        };
        targets(slides, j, cursor, rank, weights).to_vec()
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
            (2, 8),
            (4, 3),
        ] {
            let shape = Shape::new(r, c).unwrap();
            for goal in [0, shape.cells() - 1, shape.cells() / 2] {
                for class in [0, 1] {
                    let space = StateSpace::new(
                        &Puzzle::board(shape, Cell(goal), Metric::Multi).unwrap(),
                        class,
                    )
                    .unwrap();
                    let slides = Slides::new(&space);
                    let weights = space.indexer().weights();
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
                        space
                            .indexer()
                            .seek_digits(&mut cursor, rank, space.parity()[blank.0]);
                        let mut got: Vec<u64> = (0..space.width())
                            .filter(|&t| slides.row[j] >> t & 1 == 1)
                            .map(|t| rank * space.width() + t)
                            .collect();
                        got.extend(match space.shape().rows {
                            2 => vertical::<1>(&slides, j, &cursor, rank, weights),
                            3 => vertical::<2>(&slides, j, &cursor, rank, weights),
                            _ => vertical::<3>(&slides, j, &cursor, rank, weights),
                        });
                        want.sort_unstable();
                        got.sort_unstable();
                        assert_eq!(got, want, "{shape} goal {goal} class {class}: {board}");
                    }
                }
            }
        }
    }
}

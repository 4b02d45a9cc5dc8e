//! Per-word lookup tables: by the place of a word's first slot in its rank, its slots'
//! vertical moves, blank colours and slides.

use crate::bfs::layer::single::neighbours::Single;
use crate::bfs::layer::turn::{delta_tables, moves, BlankMoves, Turn};
use crate::index::puzzle::Ground;
use crate::index::space::StateSpace;
use crate::puzzle::board::Cell;

/// The `colour` of a scan that looks at the slots of both blank colours (`WordPlaces::colour`).
pub const ANY_COLOUR: usize = 2;

/// The vertical moves of the blank of one slot of a rank, and the parity of the sequences that
/// go with it, by place p from a rank's first slot: those of slot p % n of the rank p / n on.
#[derive(Clone, Copy, Debug)]
pub struct Vertical {
    /// How many ranks on from the first the state is (p / n).
    pub(in crate::bfs::layer) carry: u8,
    pub(in crate::bfs::layer) parity: u8,
    /// The state's slot in its rank (p % n), and the slots of its slides (a pull's).
    pub(in crate::bfs::layer) slot: u8,
    pub(in crate::bfs::layer) slides: [u8; 2],
    pub(in crate::bfs::layer) up: Turn,
    pub(in crate::bfs::layer) down: Turn,
}

/// What a scan needs to know of a word's slots, by the place q (`0..n`) of the word's first
/// slot in its rank (n slots a rank): computed once a search, not once a task (a 2x7 layer has
/// 12,000 tasks).
pub struct WordPlaces {
    /// `blocks[c][q][k]`: the slots holding a blank of colour c (`colour_masks`; every slot
    /// for `ANY_COLOUR`) of the word k words on from one whose first slot is at place q (its
    /// place is q + 32 k mod n), for k < 64: a scan's block of 64 words reads them without a
    /// division.
    pub(in crate::bfs::layer) blocks: [Vec<[u64; 64]>; 3],
    /// `ons[q][k]`: `words_on(q, k)` for k < 64, looked up by a scan's visit of a word.
    pub(in crate::bfs::layer) ons: Vec<[(u32, u32); 64]>,
    /// `split[pos]` = (pos / n, pos % n), for the positions a word reaches from its first slot
    /// (`pos < n + 32`, at most 49): no division in the loop.
    pub(in crate::bfs::layer) split: [(u8, u8); 64],
    /// ⌈2³² / n⌉: `words_on` divides by n with a multiplication.
    inverse: u64,
    /// n, the slots of a rank.
    width: u64,
    /// The slides inside a word (`word_slides`, 32 entries).
    pub(in crate::bfs::layer) slides: [WordSlides; 32],
    /// The vertical moves of the state at each place p (`0..n + 32`) from a rank's first slot
    /// (64 entries, so that `p % 64` needs no bounds check): a batch's states are (rank, p).
    pub(in crate::bfs::layer) verticals: [Vertical; 64],
    /// `pairs[q]`: the slots of a word whose blank has both vertical moves (a blank of a middle
    /// row), or every slot unless the board has three columns; the others' one move is in
    /// `singles`. On three columns a push queues the two kinds apart, so that no state computes
    /// and offers a move its blank cannot make (a quarter of 3x4's vertical moves). On two,
    /// where a move costs less to compute, a second queue added instructions and saved no
    /// time (`docs/log/constants.md`): the pairs take every state there.
    pub(in crate::bfs::layer) pairs: [u64; 32],
    /// The one vertical move of the state at each place p, as `verticals` (unused at the
    /// places of `pairs`).
    pub(in crate::bfs::layer) singles: [Single; 64],
    /// `ends[q]`: the slots of a word whose blank has one vertical move (a top or bottom
    /// row), whatever the columns: a push skips the move of such a state reached by it
    /// (`push::Push::select`).
    pub(in crate::bfs::layer) ends: [u64; 32],
    /// With three columns, the change in full rank of each vertical move by its window's
    /// digits (`delta_tables`).
    pub(in crate::bfs::layer) deltas: Vec<i64>,
}

impl WordPlaces {
    /// The places of `space`'s words.
    pub fn new(space: &StateSpace) -> WordPlaces {
        let width = space.width();
        // A graph's moves are `layer::graph`'s: its slots have no board moves here.
        let board = matches!(space.puzzle().ground(), Ground::Board(_));
        let mut moves = match board {
            true => moves(space),
            false => (0..space.blanks().len())
                .map(|b| BlankMoves::none(space, b))
                .collect(),
        };
        let deltas = delta_tables(space, &mut moves);
        let verticals = std::array::from_fn(|p| {
            let (carry, j) = (p as u64 / width, (p as u64 % width) as usize);
            let b = usize::from(space.blanks()[j]);
            let m = &moves[b];
            Vertical {
                carry: carry as u8,
                parity: space.parity()[b],
                slot: j as u8,
                slides: m.slides.map(|slide| slide as u8),
                up: m.up,
                down: m.down,
            }
        });
        let three = space.shape().cols == 3;
        let singles = std::array::from_fn(|p| {
            let v: &Vertical = &verticals[p];
            // The move the blank can make, if it has one.
            let turn = if v.up.valid != 0 { v.up } else { v.down };
            Single {
                carry: v.carry,
                parity: v.parity,
                turn,
            }
        });
        // The slots of a word of phase q whose blank's vertical moves pass `keep`.
        let slots_where = |keep: &dyn Fn(&BlankMoves) -> bool| {
            (0..width)
                .map(|q| {
                    (0..32u64)
                        .filter(|s| {
                            keep(&moves[usize::from(space.blanks()[((q + s) % width) as usize])])
                        })
                        .fold(0, |m, s| m | 1 << (2 * s))
                })
                .collect()
        };
        // `ons[q][k]`: (q + 32 k) / n and (q + 32 k) mod n.
        let ons: Vec<[(u32, u32); 64]> = (0..width)
            .map(|q| {
                std::array::from_fn(|k| {
                    let pos = q + 32 * k as u64;
                    ((pos / width) as u32, (pos % width) as u32)
                })
            })
            .collect();
        let pairs = slots_where(&|m| !three || (m.up.valid != 0 && m.down.valid != 0));
        let ends = slots_where(&|m| board && (m.up.valid != 0) != (m.down.valid != 0));
        WordPlaces {
            deltas,
            pairs: first_32(pairs),
            ends: first_32(ends),
            singles,
            blocks: [0, 1, 2].map(|c| {
                let masks = colour_masks(space, c);
                ons.iter()
                    .map(|on: &[(u32, u32); 64]| on.map(|(_, qk)| masks[qk as usize]))
                    .collect()
            }),
            ons,
            split: std::array::from_fn(|pos| {
                ((pos as u64 / width) as u8, (pos as u64 % width) as u8)
            }),
            inverse: (1u64 << 32).div_ceil(width),
            width,
            slides: match board {
                true => first_32(word_slides(space)),
                false => [WordSlides::default(); 32],
            },
            verticals,
        }
    }

    /// Where the word `k` words on from one whose first slot is at place q starts: (ranks
    /// on, its place). (q + 32 k) / n by a multiplication by ⌈2³² / n⌉, exact while
    /// (q + 32 k) n < 2³² (the excess of ⌈2³² / n⌉ n over 2³² is below n): a scan's blocks
    /// of 64 words keep q + 32 k below 2,100.
    #[inline(always)]
    pub(in crate::bfs::layer) fn words_on(&self, q: u64, k: u64) -> (u64, u64) {
        let pos = q + 32 * k;
        let ranks = (pos * self.inverse) >> 32;
        (ranks, pos - ranks * self.width)
    }
}

/// The first 32 entries of `v` (at most 17, a rank's slots), the rest default.
fn first_32<T: Copy + Default>(v: Vec<T>) -> [T; 32] {
    let mut a = [T::default(); 32];
    a[..v.len()].copy_from_slice(&v);
    a
}

/// `masks[q]`: the slots of a word whose first slot is slot q of its rank (n slots a rank)
/// that hold a blank of colour `colour` (the low bit of each 2-bit slot); every slot for
/// `ANY_COLOUR`.
pub fn colour_masks(space: &StateSpace, colour: usize) -> Vec<u64> {
    let width = space.width();
    (0..width)
        .map(|q| {
            (0..32u64)
                .filter(|s| {
                    let b = space.blanks()[((q + s) % width) as usize];
                    colour == ANY_COLOUR || space.colour(Cell(b as usize)) == colour
                })
                .fold(0, |m, s| m | 1 << (2 * s))
        })
        .collect()
}

/// The slides of the states of a word whose first slot is slot q of its rank, as masks of the
/// low bits of their slots (see `word_slides`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WordSlides {
    /// The slots whose blank can slide right to the next slot, in the same word.
    pub right: u64,
    /// The slots whose blank can slide left to the previous slot, in the same word.
    pub left: u64,
    /// Slot 31 if its blank can slide right (to the next word's first slot).
    pub right_out: u64,
    /// Slot 0 if its blank can slide left (to the previous word's last slot).
    pub left_out: u64,
}

/// `slides[q]`: the slides of the states of a word whose first slot is slot q of its rank (n
/// slots a rank). A slide keeps the sequence and moves the blank to the next or previous cell
/// of its row, which is the next or previous slot (the cells of a row are consecutive in their
/// group), so its target is the source's bit shifted by one slot, or the first or last slot of
/// the next or previous word.
pub fn word_slides(space: &StateSpace) -> Vec<WordSlides> {
    let width = space.width();
    let shape = space.shape();
    (0..width)
        .map(|q| {
            let mut slides = WordSlides::default();
            for s in 0..32u64 {
                let j = (q + s) % width;
                let b = Cell(space.blanks()[j as usize] as usize);
                let bit = 1 << (2 * s);
                for to in shape.neighbours(b) {
                    if shape.row(to) != shape.row(b) {
                        continue;
                    }
                    let t = u64::from(space.slots()[to.0]);
                    // The target's place in the word: the rank's slots start at s - j.
                    assert!(t == j + 1 || t + 1 == j, "a slide to a far slot");
                    match (t == j + 1, s) {
                        (true, 31) => slides.right_out |= bit,
                        (true, _) => slides.right |= bit,
                        (false, 0) => slides.left_out |= bit,
                        (false, _) => slides.left |= bit,
                    }
                }
            }
            slides
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::puzzle::Puzzle;
    use crate::index::rank::Cursor;
    use crate::puzzle::board::Shape;
    use crate::puzzle::metric::Metric;

    /// `words_on` is the division it stands for, on boards of 4 to 16 slots a rank, over the
    /// reach of a scan's block of 64 words and beyond.
    #[test]
    fn words_on_is_the_division() {
        for (r, c) in [
            (2, 2),
            (2, 3),
            (2, 4),
            (3, 3),
            (2, 5),
            (3, 4),
            (2, 7),
            (4, 4),
        ] {
            let space = StateSpace::new(
                &Puzzle::board(Shape::new(r, c).unwrap(), Cell(0), Metric::Single).unwrap(),
                0,
            )
            .unwrap();
            let places = WordPlaces::new(&space);
            let n = space.width();
            for q in 0..n {
                for k in 0..=256 {
                    let pos = q + 32 * k;
                    assert_eq!(
                        places.words_on(q, k),
                        (pos / n, pos % n),
                        "{r}x{c} q {q} k {k}"
                    );
                }
            }
        }
    }

    /// The masks of `word_slides` hold exactly the slides of every state, each once: those
    /// whose target is in the source's word, and those leaving it.
    #[test]
    fn word_slides_are_exactly_the_slides_inside_a_word() {
        for (r, c) in [(3, 2), (2, 3), (3, 3), (4, 3), (3, 4), (7, 2), (4, 4)] {
            let shape = Shape::new(r, c).unwrap();
            for goal in [0, shape.cells() - 1] {
                let space = StateSpace::new(
                    &Puzzle::board(shape, Cell(goal), Metric::Single).unwrap(),
                    0,
                )
                .unwrap();
                let slides = word_slides(&space);
                let width = space.width();
                // Every slot of every word phase q: one rank-aligned run of slots is enough.
                for index in 0..(32 * width).min(space.states()) {
                    let (w, s) = (index / 32, index % 32);
                    let q = ((w * 32) % width) as usize;
                    let board = space.board(index);
                    let (blank, rank) = space.split(index);
                    let mut want = WordSlides::default();
                    for b in board.neighbours() {
                        let n = space.index(&b).unwrap();
                        let (to, to_rank) = space.split(n);
                        if to_rank != rank || space.shape().row(to) != space.shape().row(blank) {
                            continue;
                        }
                        let bit = 1u64 << (2 * s);
                        assert!(n == index + 1 || n + 1 == index, "{shape} {index}");
                        match (n == index + 1, n / 32 == w) {
                            (true, true) => want.right |= bit,
                            (true, false) => want.right_out |= bit,
                            (false, true) => want.left |= bit,
                            (false, false) => want.left_out |= bit,
                        }
                    }
                    let slot = |m: u64| m & 3 << (2 * s);
                    let all = slides[q];
                    let got = WordSlides {
                        right: slot(all.right),
                        left: slot(all.left),
                        right_out: slot(all.right_out),
                        left_out: slot(all.left_out),
                    };
                    assert_eq!(got, want, "{shape} goal {goal} index {index}");
                }
            }
        }
    }

    /// On three columns, the one vertical move of a blank in the top or bottom row
    /// (`WordPlaces::singles`, read from the delta tables) lands where ranking the moved board
    /// from scratch does; `pairs` holds exactly the slots whose blank has two vertical moves.
    #[test]
    fn single_vertical_moves_match_direct_ranking() {
        for (r, c) in [(3, 3), (4, 3), (3, 4), (5, 3)] {
            let shape = Shape::new(r, c).unwrap();
            for goal in [0, shape.cells() - 1, shape.cells() / 2] {
                let space = StateSpace::new(
                    &Puzzle::board(shape, Cell(goal), Metric::Single).unwrap(),
                    0,
                )
                .unwrap();
                assert_eq!(space.shape().cols, 3, "the engine's columns");
                let places = WordPlaces::new(&space);
                let width = space.width();
                let step = (space.states() / 5000).max(1);
                for index in (0..space.states()).step_by(step as usize) {
                    let board = space.board(index);
                    let (blank, rank) = space.split(index);
                    let j = index % width;
                    // Vertical on the engine's board (which may be the transpose).
                    let row = |n: u64| space.shape().row(space.split(n).0);
                    let vertical: Vec<u64> = board
                        .neighbours()
                        .map(|b| space.index(&b).expect("same class"))
                        .filter(|&n| row(n) != row(index))
                        .collect();
                    // Word phase 0: place j of the rank's first slot is slot j.
                    let paired = places.pairs[0] >> (2 * j) & 1 == 1;
                    assert_eq!(
                        paired,
                        vertical.len() == 2,
                        "{shape} goal {goal} board {board}"
                    );
                    if paired {
                        continue;
                    }
                    let one = &places.singles[j as usize];
                    assert_eq!((one.carry, one.parity), (0, space.parity()[blank.0]));
                    let mut cursor = Cursor::new();
                    space.indexer().seek_digits(&mut cursor, rank, one.parity);
                    let parity_at = space.tiles() - 2;
                    let got = one.target(&places.deltas, &cursor.digits, rank, parity_at, width);
                    assert_eq!(vec![got], vertical, "{shape} goal {goal} board {board}");
                }
            }
        }
    }

    /// `ends` holds exactly the slots whose blank has one vertical move, counted on the board
    /// (its neighbours in another row), for every word phase, on two, three and four columns.
    #[test]
    fn ends_are_the_slots_with_one_vertical_move() {
        for (r, c) in [(2, 2), (3, 2), (2, 5), (4, 3), (3, 4), (4, 4), (5, 3)] {
            let shape = Shape::new(r, c).unwrap();
            for goal in [0, shape.cells() - 1] {
                let space = StateSpace::new(
                    &Puzzle::board(shape, Cell(goal), Metric::Single).unwrap(),
                    0,
                )
                .unwrap();
                let places = WordPlaces::new(&space);
                let width = space.width();
                for index in 0..(32 * width).min(space.states()) {
                    let (w, s) = (index / 32, index % 32);
                    let q = ((w * 32) % width) as usize;
                    let (blank, _) = space.split(index);
                    let row = |n: u64| space.shape().row(space.split(n).0);
                    let vertical = space
                        .board(index)
                        .neighbours()
                        .map(|b| space.index(&b).expect("same class"))
                        .filter(|&n| row(n) != space.shape().row(blank))
                        .count();
                    let end = places.ends[q] >> (2 * s) & 1 == 1;
                    assert_eq!(end, vertical == 1, "{shape} goal {goal} index {index}");
                }
            }
        }
    }
}

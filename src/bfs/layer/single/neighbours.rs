//! The neighbours of one state, from its digits: the four targets of a push or a pull, and
//! the plain visit of every neighbour the planners and benches use.

use crate::bfs::layer::turn::{
    rotate_left_delta, rotate_right_delta, short_delta, BlankMoves, Turn,
};
use crate::index::rank::{Cursor, DIGITS};
use crate::index::space::StateSpace;
use crate::puzzle::board::Cell;

/// The one vertical move of a blank in the top or bottom row, on a board of three columns, by
/// place p from a rank's first slot (as `Vertical`).
#[derive(Clone, Copy, Debug)]
pub struct Single {
    /// How many ranks on from the first the state is (p / n).
    pub(in crate::bfs::layer) carry: u8,
    pub(in crate::bfs::layer) parity: u8,
    pub(in crate::bfs::layer) turn: Turn,
}

impl Single {
    /// The index of this move's target from a state of sequence rank `rank` whose Lehmer
    /// digits are `d` (its parity digit at `parity_at`, below 16; `width` slots a rank), read
    /// from the tables `deltas` (`delta_tables`).
    #[inline(always)]
    pub(in crate::bfs::layer) fn target(
        &self,
        deltas: &[i64],
        d: &[u8; DIGITS],
        rank: u64,
        parity_at: usize,
        width: u64,
    ) -> u64 {
        let full = (rank << 1 | u64::from(d[parity_at % 16])) as i64;
        ((full + self.turn.looked_up(deltas, d)) as u64 >> 1) * width + self.turn.slot
    }
}

/// Calls `visit` with the index of every neighbour of the state (`blank`, `rank`).
#[inline(always)]
pub fn for_each_neighbour(
    space: &StateSpace,
    moves: &[BlankMoves],
    cursor: &mut Cursor,
    blank: Cell,
    rank: u64,
    mut visit: impl FnMut(u64),
) {
    space
        .indexer()
        .seek_digits(cursor, rank, space.parity()[blank.0]);
    let base = space.index_of(blank, rank) - u64::from(space.slots()[blank.0]);
    let own = base + u64::from(space.slots()[blank.0]);
    for n in neighbours::<0>(space, &moves[blank.0], cursor, base, rank) {
        if n != own {
            visit(n);
        }
    }
}

/// The columns of the engine's board: `COLS` if it is not 0, else read from `space` (a
/// constant lets the window loops unroll). The scans are instantiated for 2, 3 and 4
/// (`Kernels::single`); 0 is `for_each_neighbour`'s, for any board.
#[inline(always)]
fn cols<const COLS: usize>(space: &StateSpace) -> usize {
    if COLS == 0 {
        space.shape().cols
    } else {
        COLS
    }
}

/// The targets of the vertical moves (up, down) of a state whose sequence (rank `rank`) is in
/// `cursor`; a move the blank cannot make gives the state's own index.
#[inline(always)]
pub(in crate::bfs::layer) fn vertical<const COLS: usize>(
    space: &StateSpace,
    up: &Turn,
    down: &Turn,
    cursor: &Cursor,
    rank: u64,
    parity_at: usize,
    deltas: Option<&[i64]>,
) -> [u64; 2] {
    let (d, w) = (&cursor.digits, space.indexer().weights());
    // The parity digit, m - 2 (`parity_at`, below 16).
    let full = (rank << 1 | u64::from(d[parity_at % 16])) as i64;
    let k = cols::<COLS>(space) - 1;
    let short = COLS == 2 || COLS == 3;
    let to = |t: &Turn, delta: i64| {
        // A short form's stand-in has no terms: its delta is 0 already.
        let delta = if short { delta } else { delta & t.valid };
        let new = (full + delta) as u64 >> 1;
        new * t.width + t.slot
    };
    // With three columns and the tables of `WordPlaces`, read from them; with two or three, a
    // linear form of the window's digits.
    if let (3, Some(deltas)) = (COLS, deltas) {
        return [
            to(up, up.looked_up(deltas, d)),
            to(down, down.looked_up(deltas, d)),
        ];
    }
    let [up_delta, down_delta] = if short {
        [
            short_delta::<COLS>(up, d, true),
            short_delta::<COLS>(down, d, false),
        ]
    } else {
        [
            rotate_left_delta(w, d, up.window as usize, k),
            rotate_right_delta(w, d, down.window as usize, k),
        ]
    };
    [to(up, up_delta), to(down, down_delta)]
}

/// The four move targets of a state whose sequence (rank `rank`) is in `cursor` and starts at
/// table index `base`: slides first (same cache line), then up and down. A move the blank
/// cannot make gives the state's own index.
#[inline(always)]
pub(in crate::bfs::layer) fn neighbours<const COLS: usize>(
    space: &StateSpace,
    moves: &BlankMoves,
    cursor: &Cursor,
    base: u64,
    rank: u64,
) -> [u64; 4] {
    let parity_at = space.tiles() - 2;
    let [up, down] = vertical::<COLS>(space, &moves.up, &moves.down, cursor, rank, parity_at, None);
    [
        base + u64::from(moves.slides[0]),
        base + u64::from(moves.slides[1]),
        up,
        down,
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bfs::layer::turn::{delta_tables, moves};
    use crate::index::puzzle::Puzzle;
    use crate::puzzle::board::Shape;
    use crate::puzzle::metric::Metric;

    /// Incremental neighbour indices equal ranking the neighbouring boards from scratch.
    #[test]
    fn neighbour_indices_match_direct_ranking() {
        for (r, c) in [
            (2, 2),
            (3, 2),
            (2, 3),
            (3, 3),
            (4, 3),
            (3, 4),
            (4, 4),
            (2, 7),
            (7, 2),
        ] {
            let shape = Shape::new(r, c).unwrap();
            for goal in [0, shape.cells() - 1, shape.cells() / 2] {
                let space = StateSpace::new(
                    &Puzzle::board(shape, Cell(goal), Metric::Single).unwrap(),
                    0,
                )
                .unwrap();
                let moves = moves(&space);
                let mut tabled = moves.clone();
                let deltas = delta_tables(&space, &mut tabled);
                let step = (space.states() / 5000).max(1);
                for index in (0..space.states()).step_by(step as usize) {
                    let board = space.board(index);
                    let mut want: Vec<u64> = board
                        .neighbours()
                        .map(|b| space.index(&b).expect("same class"))
                        .collect();
                    let mut got = vec![];
                    let (blank, rank) = space.split(index);
                    for_each_neighbour(&space, &moves, &mut Cursor::new(), blank, rank, |n| {
                        got.push(n)
                    });
                    want.sort_unstable();
                    got.sort_unstable();
                    assert_eq!(got, want, "{shape} goal {goal} board {board}");
                    // The instantiation the engine runs for these columns (with two or three,
                    // the linear forms of `short_delta`) gives them too.
                    let mut cursor = Cursor::new();
                    let parity = space.parity()[blank.0];
                    space.indexer().seek_digits(&mut cursor, rank, parity);
                    let (m, base) = (&moves[blank.0], rank * space.width());
                    let targets = match space.shape().cols {
                        2 => neighbours::<2>(&space, m, &cursor, base, rank),
                        3 => neighbours::<3>(&space, m, &cursor, base, rank),
                        4 => neighbours::<4>(&space, m, &cursor, base, rank),
                        _ => unreachable!("the engine has 2 to 4 columns here"),
                    };
                    let mut fast: Vec<u64> = targets.into_iter().filter(|&n| n != index).collect();
                    fast.sort_unstable();
                    assert_eq!(fast, want, "{shape} goal {goal} board {board}");
                    // With three columns, a batch reads the vertical moves from tables.
                    if space.shape().cols == 3 {
                        let parity_at = space.tiles() - 2;
                        let (up, down) = (&tabled[blank.0].up, &tabled[blank.0].down);
                        let read = vertical::<3>(
                            &space,
                            up,
                            down,
                            &cursor,
                            rank,
                            parity_at,
                            Some(&deltas),
                        );
                        assert_eq!(read, targets[2..], "{shape} goal {goal} board {board}");
                    }
                }
            }
        }
    }
}

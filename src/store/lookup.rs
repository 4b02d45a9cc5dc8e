//! Distances read from a saved table (`saved`) by descents over indices: from a state, step to
//! a neighbour one layer closer to the goal (single-tile moves: the code of depth - 1 mod 4)
//! until the goal, with the engine's moves (no board built on the way).
//!
//! A descent ends where it meets a state of the first layers (`near_goal`), whose depth is
//! known. A horizontal move keeps the tile sequence (the same rank, another blank cell), so its
//! target costs nothing to compute; a vertical one needs the rank's digits
//! (`bfs::layer::for_each_neighbour`). A step tries the horizontal neighbours first and computes
//! the vertical ones only when no horizontal one is closer. A lone descent waits on memory at
//! every step; `LANES` descents are interleaved, each computing the neighbours it will try and
//! prefetching their words, which it reads a round later, when the other lanes have stepped:
//! the waits overlap.

use std::fs::File;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::bfs::coding::Coding;
use crate::bfs::layer::{for_each_neighbour, BlankMoves};
use crate::bfs::table::Table;
use crate::error::{Damage, Error};
use crate::index::rank::Cursor;
use crate::index::space::StateSpace;
use crate::puzzle::board::Cell;
use crate::store::near_goal::NearGoal;

/// Descents interleaved: enough to cover a miss to memory with the steps of the others.
const LANES: usize = 16;

/// Where an open table's words are read from.
pub(super) enum Words {
    /// Memory: the words opening read, in a table on huge pages where the system gives them
    /// (a probe's page is then rarely missing from the TLB).
    Memory(Table),
    /// The file, from byte `at` (after the header and the layer counts).
    File { file: File, at: u64 },
}

/// The descents of one table: its index, words and moves, its goal's index and eccentricity
/// (no honest descent is longer), and the path named in errors.
pub(super) struct Descents<'a> {
    space: &'a StateSpace,
    words: &'a Words,
    moves: &'a [BlankMoves],
    /// The states nearest the goal, with their depths: a descent ends at the first it meets.
    near: &'a NearGoal,
    goal_colour: usize,
    eccentricity: u32,
    path: &'a std::path::Path,
    /// The cells beside each engine cell in its row, and how many there are.
    sides: Vec<([usize; 2], usize)>,
}

/// One descent under way: the output slot it fills, the state it stands on, that state's depth
/// mod 4 (`FRESH` until its code is read), the steps taken, the state's neighbours it will try
/// (the horizontal ones, or all of them once those are not closer: `all`), whose words were
/// prefetched, and the digits of its rank (`Cursor`: a lane's steps stay near each other, the
/// lanes' ranks do not).
struct Lane {
    cursor: Cursor,
    at: usize,
    index: u64,
    /// `index` split: its engine blank cell and rank (a horizontal step keeps the rank).
    blank: usize,
    rank: u64,
    /// The blank cells of the horizontal neighbours in `near`.
    sides: [usize; 2],
    depth: u32,
    steps: u32,
    near: [u64; 4],
    n: usize,
    all: bool,
}

/// The depth of a lane whose start's code is still to be read.
const FRESH: u32 = u32::MAX;

impl<'a> Descents<'a> {
    /// The descents of the table of `space` held in `words` (at `path`), whose moves are
    /// `moves`, to the state `goal` (the states `near` it known), none longer than
    /// `eccentricity`.
    pub fn new(
        space: &'a StateSpace,
        words: &'a Words,
        path: &'a std::path::Path,
        moves: &'a [BlankMoves],
        goal: u64,
        near: &'a NearGoal,
        eccentricity: u32,
    ) -> Descents<'a> {
        let cols = space.shape().cols;
        let sides = (0..space.shape().cells())
            .map(|b| {
                let beside = [
                    (b % cols > 0).then(|| b - 1),
                    (b % cols + 1 < cols).then(|| b + 1),
                ];
                let mut sides = ([0; 2], 0);
                for c in beside.into_iter().flatten() {
                    sides.0[sides.1] = c;
                    sides.1 += 1;
                }
                sides
            })
            .collect();
        Descents {
            space,
            words,
            moves,
            near,
            goal_colour: space.colour(space.split(goal).0),
            eccentricity,
            path,
            sides,
        }
    }

    /// The steps from each state of `starts` to the goal, in order; an error where the table is
    /// found wrong (a state unsettled, no neighbour closer, a descent longer than the
    /// eccentricity) or the file cannot be read.
    pub fn steps(&self, starts: &[u64]) -> Vec<Result<u32, Error>> {
        match self.words {
            Words::Memory(table) => self.steps_reading(starts, &InMemory(table.words())),
            Words::File { .. } => self.steps_reading(starts, &InFile(self.words, self.path)),
        }
    }

    /// `steps`, the codes read by `codes` (in memory, a read that cannot fail, inlined).
    fn steps_reading<C: Codes>(&self, starts: &[u64], codes: &C) -> Vec<Result<u32, Error>> {
        let mut out: Vec<Result<u32, Error>> = (0..starts.len()).map(|_| Ok(0)).collect();
        let mut lanes: Vec<Lane> = Vec::with_capacity(LANES);
        let mut next = 0;
        loop {
            while lanes.len() < LANES && next < starts.len() {
                codes.prefetch(starts[next]);
                let (blank, rank) = self.space.split(starts[next]);
                lanes.push(Lane {
                    cursor: Cursor::new(),
                    at: next,
                    index: starts[next],
                    blank: blank.0,
                    rank,
                    sides: [0; 2],
                    depth: FRESH,
                    steps: 0,
                    near: [0; 4],
                    n: 0,
                    all: false,
                });
                next += 1;
            }
            if lanes.is_empty() {
                return out;
            }
            let mut k = 0;
            while k < lanes.len() {
                match self.advance(&mut lanes[k], codes) {
                    None => k += 1,
                    Some(result) => {
                        out[lanes[k].at] = result;
                        lanes.swap_remove(k);
                    }
                }
            }
        }
    }

    /// One step of `lane`: its start's depth read, or a step to the neighbour one layer closer
    /// (or, when no horizontal neighbour is, every neighbour computed and prefetched for the
    /// next round); then the horizontal neighbours of where it stands computed and prefetched.
    /// `Some` once the descent has ended (at the goal, or on a wrong table).
    fn advance<C: Codes>(&self, lane: &mut Lane, codes: &C) -> Option<Result<u32, Error>> {
        let (space, coding) = (self.space, Coding::Coloured);
        if lane.depth == FRESH {
            let parity = (space.colour(Cell(lane.blank)) ^ self.goal_colour) as u32;
            let code = match codes.code(lane.index) {
                Ok(c) => c,
                Err(e) => return Some(Err(e)),
            };
            let Some(depth) = coding.depth_of(code, parity) else {
                return Some(Err(
                    self.wrong(format!("state {} is not settled", lane.index))
                ));
            };
            lane.depth = depth;
        } else {
            let depth = (lane.depth + 3) % 4;
            let want = coding.code_at(depth);
            let mut closer = None;
            for (k, &t) in lane.near[..lane.n].iter().enumerate() {
                match codes.code(t) {
                    Ok(c) if c == want => {
                        closer = Some((k, t));
                        break;
                    }
                    Ok(_) => {}
                    Err(e) => return Some(Err(e)),
                }
            }
            let Some((k, t)) = closer else {
                if !lane.all {
                    let (blank, rank) = (Cell(lane.blank), lane.rank);
                    let (near, n) = (&mut lane.near, &mut lane.n);
                    *n = 0;
                    for_each_neighbour(space, self.moves, &mut lane.cursor, blank, rank, |t| {
                        near[*n] = t;
                        *n += 1;
                    });
                    lane.all = true;
                    prefetch_near(lane, codes);
                    return None;
                }
                let why = format!("no neighbour of state {} is one move closer", lane.index);
                return Some(Err(self.wrong(why)));
            };
            (lane.index, lane.depth, lane.steps) = (t, depth, lane.steps + 1);
            if lane.all {
                let (blank, rank) = space.split(t);
                (lane.blank, lane.rank) = (blank.0, rank);
            } else {
                lane.blank = lane.sides[k];
            }
        }
        if let Some(depth) = self.near.get(lane.index) {
            if depth % 4 != lane.depth {
                let why = format!("state {} is {depth} moves from the goal", lane.index);
                return Some(Err(self.wrong(why)));
            }
            return Some(Ok(lane.steps + depth));
        }
        if lane.steps >= self.eccentricity {
            let why = "a descent longer than the eccentricity".to_string();
            return Some(Err(self.wrong(why)));
        }
        let (sides, n) = self.sides[lane.blank];
        for (k, &side) in sides[..n].iter().enumerate() {
            lane.near[k] = space.index_of(Cell(side), lane.rank);
        }
        (lane.sides, lane.n, lane.all) = (sides, n, false);
        prefetch_near(lane, codes);
        None
    }

    /// The error of a table a descent found wrong.
    fn wrong(&self, why: String) -> Error {
        Error::Table {
            path: self.path.to_path_buf(),
            damage: format!("{why}: the table is wrong").into(),
        }
    }
}

/// Prefetches the words of the neighbours `lane` will try.
fn prefetch_near<C: Codes>(lane: &Lane, codes: &C) {
    for &t in &lane.near[..lane.n] {
        codes.prefetch(t);
    }
}

/// How descents read codes: from memory or from the file.
trait Codes {
    /// The code of state `index` (of the table's class).
    fn code(&self, index: u64) -> Result<u64, Error>;
    /// Asks for the word of state `index` to be brought into the cache (in memory).
    fn prefetch(&self, index: u64);
}

/// A table's words in memory.
struct InMemory<'a>(&'a [AtomicU64]);

impl Codes for InMemory<'_> {
    #[inline(always)]
    fn code(&self, index: u64) -> Result<u64, Error> {
        let word = self.0[(index / 32) as usize].load(Ordering::Relaxed);
        Ok((word >> (2 * (index % 32))) & 3)
    }

    #[inline(always)]
    fn prefetch(&self, index: u64) {
        Table::prefetch_in(self.0, index);
    }
}

/// A table read from its file (at the path named in errors), a `pread` a code.
struct InFile<'a>(&'a Words, &'a std::path::Path);

impl Codes for InFile<'_> {
    fn code(&self, index: u64) -> Result<u64, Error> {
        code(self.0, self.1, index)
    }

    fn prefetch(&self, _: u64) {}
}

/// The code of state `index` (of the table's class) in `words`, read from memory or the file
/// at `path` (an error if the file has changed so that it cannot be read).
#[inline(always)]
pub(super) fn code(words: &Words, path: &std::path::Path, index: u64) -> Result<u64, Error> {
    let word = match words {
        Words::Memory(words) => words.word((index / 32) as usize),
        Words::File { file, at } => {
            let mut word = [0; 8];
            read_at(file, &mut word, at + index / 32 * 8).map_err(|e| Error::Table {
                path: path.to_path_buf(),
                damage: Damage::mismatch(format!("changed while in use: {e}")),
            })?;
            u64::from_le_bytes(word)
        }
    };
    Ok((word >> (2 * (index % 32))) & 3)
}

/// Fills `buf` from `file` at `offset`, without moving the file's position.
#[cfg(unix)]
fn read_at(file: &File, buf: &mut [u8], offset: u64) -> std::io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(file, buf, offset)
}

/// Fills `buf` from `file` at `offset`.
#[cfg(not(unix))]
fn read_at(mut file: &File, buf: &mut [u8], offset: u64) -> std::io::Result<()> {
    use std::io::{Read, Seek, SeekFrom};
    file.seek(SeekFrom::Start(offset))?;
    file.read_exact(buf)
}

//! Saved distance tables: the finished BFS table on disk, from which the exact optimal distance
//! of every state, and an optimal solution, can be recovered.
//!
//! The table holds depth mod 4 for every state of the class (its code gives bit 1, the colour of
//! its blank cell bit 0; see `bfs::table`). From a state at depth d every neighbour is at d-1 or
//! d+1, which differ mod 4, so a neighbour holding d-1 mod 4 is always there: walking to such
//! neighbours reaches the start (the goal) in exactly d steps, which gives both the distance and
//! an optimal path. In the multi-tile metric the code is 1 + depth mod 3: a neighbour is at d-1,
//! d or d+1, three residues apart, so the walk to a neighbour holding d-1 mod 3 works the same.
//!
//! File layout (little-endian): a 64-byte header, the layer counts (eccentricity + 1 of them), then
//! the table's words.
//!
//! | bytes | field |
//! |---|---|
//! | 0..8 | magic `TSTABLE\0` |
//! | 8..12 | format version |
//! | 12..16, 16..20 | rows, cols (the user's orientation) |
//! | 20..24 | goal blank cell (index in reading order) |
//! | 24..28 | eccentricity |
//! | 28 | class (0 solvable) |
//! | 29 | 1 if the engine worked transposed |
//! | 30 | 1 in the multi-tile metric (0 single-tile, as in files older than it) |
//! | 32..40 | states |
//! | 40..48 | checksum of the layer counts and the words, in order |
//! | 48..56 | checksum of bytes 0..48 |
//!
//! The index layout is the engine's (see `space`); a change of layout changes the version.
//!
//! Opening checks more than the checksums, which a forger recomputes: the layer counts must be
//! a distribution of the board's (RC)!/2 states, and the table's settled states, recounted by
//! depth mod 4 from their codes and blank colours, must be those the layers give. One changed
//! code is then always refused. A forgery that keeps every count (codes of a whole region
//! shifted by 2, say) is beyond a file check: a table is trusted as its search wrote it.
//! Opening reads the file once (its checksum). A table that fits in half the memory this
//! process may still take (`room`) keeps the words it read, and a query reads them there; a
//! larger one is read again, 8 bytes a probe, with positioned reads. The file is not
//! memory-mapped: a mapped file truncated by another process while in use kills the reader
//! (SIGBUS), whereas a read of a shortened file is an error like any other.

use crate::index::puzzle::Puzzle;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;

use crate::bfs::coding::Coding;
use crate::bfs::layer::{moves, BlankMoves};
use crate::bfs::moves::coding;
use crate::bfs::table::Table;
use crate::bfs::Recount;
use crate::error::{Damage, Error};
use crate::index::space::StateSpace;
use crate::puzzle::board::{Board, Cell, Shape};
use crate::puzzle::construct::Taxicab;
use crate::puzzle::metric::Metric;
use crate::store::header::{
    checksum, le_words, reseal_header, words_from, Checksum, HeaderReader, HeaderWriter,
};
use crate::store::lookup::{self, Descents, Words};
use crate::store::near_goal::NearGoal;
use rayon::prelude::*;

const MAGIC: &[u8; 8] = b"TSTABLE\0";
/// Version 4: the layer counts before the words. Version 3 had the words alone (the rank-major
/// layout of `space`, both parities of a rank side by side, 2 bits per state: depth mod 4 with
/// the blank's colour, 32 states per word); version 2 the sequences of each parity in a region
/// of their own, version 1 depth mod 3.
const VERSION: u32 = 4;
const HEADER: usize = 64;
/// Bytes of header fields; their checksum follows.
const FIELDS: usize = 48;

/// Writes `table` (the finished search of `space` from its goal, whose layers hold `layers`
/// states) to `path`, through a temporary file and a rename. The words are streamed, not
/// copied in memory.
pub fn save(path: &Path, space: &StateSpace, table: &Table, layers: &[u64]) -> Result<(), Error> {
    save_stream(path, space, layers, |sink| {
        let mut buf = Vec::with_capacity(1 << 16);
        for chunk in table.words().chunks(1 << 16) {
            buf.clear();
            buf.extend(chunk.iter().map(|w| w.load(Ordering::Relaxed)));
            sink(&buf)?;
        }
        Ok(())
    })
}

/// Writes the table of the finished search of `space` (whose layers hold `layers` states) to
/// `path`, its words given in order, in parts, by `fill` to the sink it gets (a distributed
/// search gathers them from its ranks). The header, whose checksum covers every word, is
/// written last, over a placeholder; the file is renamed into place only if everything was
/// written.
pub fn save_stream(
    path: &Path,
    space: &StateSpace,
    layers: &[u64],
    fill: impl FnOnce(&mut dyn FnMut(&[u64]) -> std::io::Result<()>) -> std::io::Result<()>,
) -> Result<(), Error> {
    let expected = space.states().div_ceil(32);
    crate::store::atomic::write_atomic_with(path, |out| {
        out.write_all(&[0; HEADER])?;
        let mut sum = Checksum::new();
        for &n in layers {
            sum.add(n);
            out.write_all(&n.to_le_bytes())?;
        }
        let mut written = 0u64;
        fill(&mut |words: &[u64]| {
            for &w in words {
                sum.add(w);
                out.write_all(&w.to_le_bytes())?;
            }
            written += words.len() as u64;
            Ok(())
        })?;
        if written != expected {
            return Err(std::io::Error::other(format!(
                "{written} table words given, {expected} expected"
            )));
        }
        let head = HeaderWriter::new(MAGIC, VERSION)
            .u32(space.user_shape().rows as u32)
            .u32(space.user_shape().cols as u32)
            .u32(space.user_goal().0 as u32)
            .u32(layers.len() as u32 - 1)
            .bytes(&[
                space.class(),
                u8::from(space.transposed()),
                space.metric().byte(),
                0,
            ])
            .u64(space.states())
            .u64(sum.value())
            .finish(HEADER);
        out.seek(SeekFrom::Start(0))?;
        out.write_all(&head)
    })
}

/// Recomputes the checksums of a saved table's image (words, then header) over what is there,
/// as a forger would: the file then gets past the checksums to the checks behind them (tests,
/// fuzzing).
pub fn reseal(bytes: &mut [u8]) {
    if bytes.len() >= HEADER {
        let sum = checksum(words_from(bytes, HEADER).into_iter());
        bytes[40..48].copy_from_slice(&sum.to_le_bytes());
        reseal_header(bytes, FIELDS);
    }
}

/// A saved table, open for queries.
pub struct SavedTable {
    /// The table's file.
    pub path: PathBuf,
    /// The board, in the user's orientation.
    pub shape: Shape,
    /// The goal's blank cell.
    pub goal: Cell,
    /// The most moves any state of the table needs.
    pub eccentricity: u32,
    /// States at each depth, from the goal (depth 0) to the eccentricity.
    pub layers: Vec<u64>,
    space: StateSpace,
    words: Words,
    /// The engine's single-tile moves of each blank cell, for descents over indices (`None`
    /// in the multi-tile metric, whose descents go by boards).
    moves: Option<Vec<BlankMoves>>,
    /// The goal's index.
    goal_index: u64,
    /// The states of the first layers with their depths, made by the first descents.
    near: std::sync::OnceLock<NearGoal>,
    /// Each tile's taxicab distance from each cell, which every answer is checked against.
    taxicab: Taxicab,
}

/// Where `SavedTable::open_keeping` keeps a table's words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keep {
    /// In memory if they take at most half the memory this process may still take
    /// (`room::available_bytes`; a gigabyte where that is not known), else in the file.
    Auto,
    /// In memory.
    Memory,
    /// In the file, read a word a probe.
    File,
}

/// The board, goal and space a table's header describes, and its eccentricity, checked against each
/// other and against what the tool saves (`bad` makes the error of a header that is wrong).
fn header_space(
    h: &HeaderReader,
    bad: impl Fn(Damage) -> Error,
) -> Result<(Shape, Cell, StateSpace, u32), Error> {
    let shape = Shape::new(h.u32(12) as usize, h.u32(16) as usize)
        .map_err(|e| bad(format!("bad shape in header: {e}").into()))?;
    if shape.is_line() {
        return Err(bad(format!(
            "header says {shape}, a line, which has no table"
        )
        .into()));
    }
    let goal = Cell(h.u32(20) as usize);
    let (class, transposed) = (h.byte(28), h.byte(29) != 0);
    let Some(metric) = Metric::from_byte(h.byte(30)) else {
        return Err(bad("bad metric in header".into()));
    };
    if goal.0 >= shape.cells() {
        return Err(bad("bad goal blank in header".into()));
    }
    // Tables are saved from searches from the goal only (`--save-table` refuses `--from`),
    // so their class is the goal's: a header saying otherwise would make every answer
    // wrong.
    if class != 0 {
        return Err(bad(
            "bad class in header (a saved table holds the goal's class)".into(),
        ));
    }
    if transposed != metric.transposes(shape) {
        return Err(bad("bad orientation in header".into()));
    }
    let space = StateSpace::new(&Puzzle::board(shape, goal, metric)?, class)?;
    let states = h.u64(32);
    if states != space.states() {
        return Err(bad(format!(
            "header says {states} states, {shape} has {}",
            space.states()
        )
        .into()));
    }
    // A descent stops after `eccentricity` steps: a forged eccentricity must not let a forged table
    // walk (and store) a path of billions of boards. No board is farther from the goal
    // than its constructive solution (`construct`: about 2 moves per unit of (R+C)·R·C);
    // five times that is a bound no honest table reaches.
    let eccentricity = h.u32(24);
    let most = 10 * (shape.rows + shape.cols) * shape.cells() + 100;
    if eccentricity as usize > most {
        return Err(bad(format!(
            "the header's eccentricity {eccentricity} is impossible for {shape}"
        )
        .into()));
    }
    Ok((shape, goal, space, eccentricity))
}

impl SavedTable {
    /// Opens and checks a saved table: magic, version, header checksum, length, and the
    /// checksum of every word. Any mismatch is a clear error, never a wrong answer. Its words
    /// are kept in memory where they fit (`Keep::Auto`).
    pub fn open(path: &Path) -> Result<SavedTable, Error> {
        SavedTable::open_keeping(path, Keep::Auto)
    }

    /// `open`, keeping the words where `keep` says.
    pub fn open_keeping(path: &Path, keep: Keep) -> Result<SavedTable, Error> {
        let bad = |why: Damage| Error::Table {
            path: path.to_path_buf(),
            damage: why,
        };
        let read = |source| Error::Read {
            path: path.to_path_buf(),
            source,
        };
        let (mut file, head) = crate::store::header::read_head(path, HEADER)?;
        let h = HeaderReader::open(&head, MAGIC, VERSION, FIELDS, "table")
            .map_err(|why| bad(crate::store::header::table_damage(why)))?;
        let (shape, goal, space, eccentricity) = header_space(&h, bad)?;
        let states = space.states();
        let words = states.div_ceil(32) as usize;
        let n_layers = eccentricity as usize + 1;
        let want = HEADER + 8 * n_layers + words * 8;
        let length = file.metadata().map_err(read)?.len();
        if length != want as u64 {
            return Err(bad(Damage::length(format!(
                "truncated or padded: {length} bytes, expected {want}"
            ))));
        }
        let mut bytes = vec![0u8; 8 * n_layers];
        file.read_exact(&mut bytes).map_err(read)?;
        let layers: Vec<u64> = le_words(&bytes).collect();
        let total = layers.iter().try_fold(0u64, |t, &n| t.checked_add(n));
        if layers[0] != 1 || layers.contains(&0) || total != Some(states) {
            return Err(bad(
                "its layer counts are not a distribution of its states".into()
            ));
        }
        let start_colour = space.colour(space.split(space.goal_index()).0);
        let recount = Recount::new(&space, start_colour);
        let coding = coding(&space);
        let resident = match keep {
            Keep::Memory => true,
            Keep::File => false,
            Keep::Auto => {
                let room = crate::store::room::available_bytes().unwrap_or(1 << 30);
                words as u64 * 8 <= room / 2
            }
        };
        let mut kept = resident.then(|| Table::new(states));
        let (sum, residues) =
            read_words(&mut file, words, &layers, &recount, coding, &mut kept).map_err(read)?;
        if sum != h.u64(40) {
            return Err(bad(Damage::checksum(
                "the table is corrupted (checksum mismatch)",
            )));
        }
        if !coding.residues_agree(&layers, residues) {
            let modulus = coding.modulus();
            return Err(bad(format!(
                "its states by depth mod {modulus} are not its layers': the table is wrong"
            )
            .into()));
        }
        Ok(SavedTable {
            path: path.to_path_buf(),
            shape,
            goal,
            eccentricity,
            layers,
            moves: (space.metric() == Metric::Single).then(|| moves(&space)),
            goal_index: space.goal_index(),
            near: std::sync::OnceLock::new(),
            taxicab: Taxicab::new(shape, goal),
            space,
            words: match kept {
                Some(words) => Words::Memory(words),
                None => Words::File {
                    file,
                    at: (HEADER + 8 * n_layers) as u64,
                },
            },
        })
    }

    /// The code of state `index` (of the table's class), read from memory or the file (an
    /// error if the file has changed so that it cannot be read).
    fn code(&self, index: u64) -> Result<u64, Error> {
        lookup::code(&self.words, &self.path, index)
    }

    /// Whether the table's words are kept in memory (else each probe reads the file).
    pub fn in_memory(&self) -> bool {
        matches!(self.words, Words::Memory(_))
    }

    /// The code of `board`, `None` if it is not in the table's class.
    fn code_of(&self, board: &Board) -> Result<Option<u64>, Error> {
        self.space.index(board).map(|i| self.code(i)).transpose()
    }

    /// The index of `board`, or why the table has none: another size, or the other class.
    fn check(&self, board: &Board) -> Result<u64, Error> {
        if board.shape() != self.shape {
            return Err(Error::Board(format!(
                "{board} is a {} board; the table is for {}",
                board.shape(),
                self.shape
            )));
        }
        self.space.index(board).ok_or_else(|| {
            Error::Unsolvable(format!(
                "{board} cannot reach the goal: {}",
                crate::puzzle::parity::solvability(board, self.goal).rule
            ))
        })
    }

    /// An optimal solution: the boards from `board` to the goal, both included.
    pub fn solve(&self, board: &Board) -> Result<Vec<Board>, Error> {
        self.check(board)?;
        let goal = Board::goal(self.shape, self.goal);
        let mut path = vec![board.clone()];
        let mut here = board.clone();
        let wrong = |why: Damage| Error::Table {
            path: self.path.clone(),
            damage: why,
        };
        let metric = self.space.metric();
        let coding = coding(&self.space);
        let modulus = coding.modulus();
        let code = self.code_of(&here)?.expect("checked");
        // The depth mod 4 (the code and the blank's colour against the goal's) or mod 3 (the
        // code), as the moves code it.
        let parity = self.shape.colour(here.blank()) ^ self.shape.colour(self.goal);
        let Some(mut depth) = coding.depth_of(code, parity as u32) else {
            return Err(wrong(
                format!("{here} is not settled: the table is wrong").into(),
            ));
        };
        while here != goal {
            // One neighbour is a layer closer: it holds depth - 1.
            depth = (depth + modulus - 1) % modulus;
            let want = coding.code_at(depth);
            let mut next = None;
            for n in here.neighbours_in(metric) {
                if self.code_of(&n)? == Some(want) {
                    next = Some(n);
                    break;
                }
            }
            let next = next.ok_or_else(|| {
                wrong(
                    format!("no neighbour of {here} is one move closer: the table is wrong").into(),
                )
            })?;
            if path.len() as u32 > self.eccentricity {
                return Err(wrong(Damage::from(
                    "a descent longer than the eccentricity: the table is wrong",
                )));
            }
            here = next;
            path.push(here.clone());
        }
        self.above_taxicab(board, path.len() - 1)?;
        Ok(path)
    }

    /// How the table counts moves.
    pub fn metric(&self) -> Metric {
        self.space.metric()
    }

    /// The exact optimal number of moves from `board` to the goal (`distances` of one board).
    pub fn distance(&self, board: &Board) -> Result<u32, Error> {
        self.distances(std::slice::from_ref(board))
            .pop()
            .expect("one answer a board")
    }

    /// The exact optimal number of moves from each of `boards` to the goal, in order, found in
    /// parallel (on the current rayon pool): the length of the descent `solve` makes, walked
    /// over indices with the engine's moves where the moves are single tiles, many descents at
    /// once (`lookup`), and checked as `solve` checks it. A board of another size or class
    /// gets its error, as `solve` gives it.
    pub fn distances(&self, boards: &[Board]) -> Vec<Result<u32, Error>> {
        /// Boards a task descends from.
        const TASK: usize = 1 << 12;
        let Some(moves) = &self.moves else {
            return boards
                .par_iter()
                .map(|b| Ok(self.solve(b)?.len() as u32 - 1))
                .collect();
        };
        let near = self
            .near
            .get_or_init(|| NearGoal::new(&self.space, moves, self.goal_index, &self.layers));
        let descents = Descents::new(
            &self.space,
            &self.words,
            &self.path,
            moves,
            self.goal_index,
            near,
            self.eccentricity,
        );
        let parts: Vec<Vec<Result<u32, Error>>> = boards
            .par_chunks(TASK)
            .map(|part| {
                let checked: Vec<Result<u64, Error>> = part.iter().map(|b| self.check(b)).collect();
                let starts: Vec<u64> = checked
                    .iter()
                    .filter_map(|c| c.as_ref().ok())
                    .copied()
                    .collect();
                let mut steps = descents.steps(&starts).into_iter();
                part.iter()
                    .zip(checked)
                    .map(|(board, c)| {
                        c?;
                        let steps = steps.next().expect("a descent a start")?;
                        self.above_taxicab(board, steps as usize)?;
                        Ok(steps)
                    })
                    .collect()
            })
            .collect();
        parts.into_iter().flatten().collect()
    }

    /// Refuses a solution of `board` in `moves` moves shorter than the tiles' taxicab
    /// distances allow (over the most a move changes them: 1 tile a cell, or in the multi-tile
    /// metric up to one less than the longer side): a cheap check of an answer against a
    /// table forged beyond what opening it can see.
    fn above_taxicab(&self, board: &Board, moves: usize) -> Result<(), Error> {
        let per_move = self.space.metric().most_taxicab_change(self.shape);
        let bound = self.taxicab.of(board).div_ceil(per_move);
        if moves < bound {
            return Err(Error::Table {
                path: self.path.clone(),
                damage: format!(
                    "{board} in {moves} moves, under its taxicab bound {bound}: the table is wrong"
                )
                .into(),
            });
        }
        Ok(())
    }
}

/// Reads the `words` words that follow the layer counts in `file` (from where the file is, in
/// parts of 1 MB), writing them into `kept` if given: the checksum of `layers` and the words,
/// and the settled states by depth mod 4 (`recount`; by depth mod 3 where `coding` is cyclic).
fn read_words(
    file: &mut File,
    words: usize,
    layers: &[u64],
    recount: &Recount,
    coding: Coding,
    kept: &mut Option<Table>,
) -> std::io::Result<(u64, [u64; 4])> {
    const PART: usize = 1 << 17;
    let mut sum = Checksum::new();
    layers.iter().for_each(|&n| sum.add(n));
    let mut tally = [0u64; 4];
    let mut buf = vec![0u8; PART * 8];
    let (mut w, mut place) = (0, recount.place(0));
    while w < words {
        let part = &mut buf[..(words - w).min(PART) * 8];
        file.read_exact(part)?;
        if let Some(kept) = kept.as_ref() {
            kept.load(w, &le_words(part).collect::<Vec<u64>>());
        }
        let words = le_words(part).inspect(|&word| sum.add(word));
        match coding {
            Coding::Coloured => recount.add_all(&mut place, words, &mut tally),
            // Codes 1 + depth mod 3.
            Coding::Cyclic => words.for_each(|word| {
                for (k, n) in tally.iter_mut().take(3).enumerate() {
                    *n += u64::from(Table::matching(word, k as u64 + 1).count_ones());
                }
            }),
        }
        w += part.len() / 8;
    }
    let residues = match coding {
        Coding::Coloured => recount.residues(tally),
        Coding::Cyclic => tally,
    };
    Ok((sum.value(), residues))
}

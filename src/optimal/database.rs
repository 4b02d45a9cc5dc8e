//! Pattern databases on disk and in memory: one file per pattern, checked when opened.
//!
//! File layout (little-endian): a 128-byte header, then one byte per placement (its distance,
//! `UNREACHED` for placements no search reaches), zero-padded to a whole word.
//!
//! | bytes | field |
//! |---|---|
//! | 0..8 | magic `TSPATDB\0` |
//! | 8..12 | format version |
//! | 12..16, 16..20 | rows, cols |
//! | 20..24 | goal blank cell (index in reading order) |
//! | 24..28 | tiles in the pattern (k) |
//! | 28..32 | the largest entry |
//! | 32..40 | placements: RC! / (RC-k)! |
//! | 40..48 | checksum of the entries (as little-endian words) |
//! | 48..56 | placements reached |
//! | 56..88 | the tiles, one byte each, ascending, zero-padded |
//! | 88..96 | checksum of bytes 0..88 |
//!
//! Entries are indexed by `index::partial` ranks of the tiles' cells, in the order of the
//! tiles. A database is read whole into memory (a query is one random byte, millions a second),
//! straight into memory of the size its header implies (no second copy); it is not
//! memory-mapped, for the reason saved tables are not: a mapped file shortened by another
//! process kills the reader (SIGBUS), where a read is an error like any other.
//!
//! Opening checks the checksums and then what any database of the pattern satisfies: the
//! goal's placement is the only one at 0, no entry exceeds the largest, the placements
//! reached are those the header gives, and entries agree with their neighbours'
//! (`consistency`: all of them in a small database, a random sample in a large one;
//! `pdb --verify` checks all). A forgery that keeps every entry consistent with its neighbours
//! and the checksums resealed still opens; solutions are verified by replay, and called
//! optimal only if the heuristic stays within the moves left along them (`ida`).

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use crate::error::{Damage, Error};
use crate::index::partial::Arrangements;
use crate::optimal::build::{Built, UNREACHED};
use crate::optimal::pages::Pages;
use crate::optimal::pattern::{check_shape, Pattern, MAX_CELLS};
use crate::puzzle::board::{Cell, Shape};
use crate::store::header::{
    checksum, le_words, reseal_header, words_from, HeaderReader, HeaderWriter,
};

const MAGIC: &[u8; 8] = b"TSPATDB\0";
const VERSION: u32 = 1;
const HEADER: usize = 128;
/// Bytes of header fields; their checksum follows.
const FIELDS: usize = 88;
/// Bytes of entries read at a time (the first part checked before the others are read).
const READ_PART: usize = 1 << 24;
/// Placements at distance 0 (one in a database) past which a file is refused while it is read.
const MANY_ZEROS: usize = 4096;

/// A pattern database in memory.
#[derive(Debug)]
pub struct Database {
    /// Its pattern.
    pub pattern: Pattern,
    arrangements: Arrangements,
    entries: Pages,
    /// The largest entry (the most moves of the pattern's tiles any placement needs).
    pub max: u8,
    /// Placements the search reached.
    pub reached: u64,
}

impl Database {
    /// The database of a finished search of `pattern`.
    pub fn new(pattern: Pattern, built: Built) -> Result<Database, Error> {
        let arrangements = Arrangements::new(pattern.shape.cells(), pattern.tiles.len())?;
        if built.entries.len() as u64 != arrangements.count() {
            return Err(Error::Check(format!(
                "{} entries for pattern {pattern}, which has {} placements",
                built.entries.len(),
                arrangements.count()
            )));
        }
        let reached = built.entries.iter().filter(|&&e| e != UNREACHED).count() as u64;
        let max = built
            .entries
            .iter()
            .copied()
            .filter(|&e| e != UNREACHED)
            .max()
            .unwrap_or(0);
        Ok(Database {
            pattern,
            arrangements,
            entries: built.entries,
            max,
            reached,
        })
    }

    /// The entry of the placement with the pattern's tiles (in order) on `at` (distinct cells of
    /// the board: checked in debug builds only, as this is IDA*'s inner loop).
    #[inline]
    pub fn get(&self, at: &[u8]) -> u8 {
        self.entries[self.arrangements.rank(at) as usize]
    }

    /// Its placements (reached or not).
    pub fn placements(&self) -> u64 {
        self.entries.len() as u64
    }

    /// The entry of the placement of rank `rank` (below `placements`).
    #[inline]
    pub fn entry(&self, rank: u64) -> u8 {
        self.entries[rank as usize]
    }

    /// How its placements are ranked.
    pub fn arrangements(&self) -> &Arrangements {
        &self.arrangements
    }

    /// How many placements have each entry 0..=max: the database's distribution.
    pub fn histogram(&self) -> Vec<u64> {
        let mut counts = vec![0u64; usize::from(self.max) + 1];
        for &e in self.entries.iter() {
            if e != UNREACHED {
                counts[usize::from(e)] += 1;
            }
        }
        counts
    }

    /// The mean entry over the placements reached.
    pub fn mean(&self) -> f64 {
        let h = self.histogram();
        let sum: u64 = h.iter().enumerate().map(|(d, &n)| d as u64 * n).sum();
        sum as f64 / self.reached.max(1) as f64
    }

    /// The file name of `pattern`'s database: board, goal blank (its cell `R,C`, 1-based, as
    /// report folders name it) and tiles: `3x3-blank-3-3-tiles-1-2-3-4.pdb`.
    pub fn file_name(pattern: &Pattern) -> String {
        let (shape, goal) = (pattern.shape, pattern.goal);
        format!(
            "{shape}-blank-{}-{}-tiles-{}.pdb",
            shape.row(goal) + 1,
            shape.col(goal) + 1,
            pattern.label()
        )
    }

    /// The database's file image.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = self.header();
        bytes.extend_from_slice(&self.entries);
        bytes.resize(HEADER + self.entries.len().div_ceil(8) * 8, 0);
        bytes
    }

    /// The file's header: its fields, with the checksum of the entries (zero-padded to a word).
    fn header(&self) -> Vec<u8> {
        let whole = self.entries.len() / 8 * 8;
        let mut tail = [0u8; 8];
        tail[..self.entries.len() - whole].copy_from_slice(&self.entries[whole..]);
        let words = le_words(&self.entries[..whole])
            .chain(le_words(&tail).take(usize::from(whole < self.entries.len())));
        let mut tiles = [0u8; 32];
        for (slot, &t) in tiles.iter_mut().zip(&self.pattern.tiles) {
            *slot = t as u8;
        }
        let p = &self.pattern;
        HeaderWriter::new(MAGIC, VERSION)
            .u32(p.shape.rows as u32)
            .u32(p.shape.cols as u32)
            .u32(p.goal.0 as u32)
            .u32(p.tiles.len() as u32)
            .u32(u32::from(self.max))
            .u64(self.entries.len() as u64)
            .u64(checksum(words))
            .u64(self.reached)
            .bytes(&tiles)
            .finish(HEADER)
    }

    /// Writes the database to `dir` under its `file_name`, through a temporary file and a
    /// rename (the entries streamed, not copied); returns the path.
    pub fn save(&self, dir: &Path) -> Result<PathBuf, Error> {
        let path = dir.join(Database::file_name(&self.pattern));
        crate::store::atomic::write_atomic_with(&path, |out| {
            out.write_all(&self.header())?;
            out.write_all(&self.entries)?;
            let pad = self.entries.len().div_ceil(8) * 8 - self.entries.len();
            out.write_all(&[0u8; 8][..pad])
        })?;
        Ok(path)
    }

    /// Opens and checks the database in `path`: its header first, then its entries read
    /// straight into memory of the size the header implies.
    pub fn open(path: &Path) -> Result<Database, Error> {
        let read = |source| Error::Read {
            path: path.to_path_buf(),
            source,
        };
        let bad = |why: Damage| Error::Database {
            path: path.to_path_buf(),
            damage: why,
        };
        let mut file = crate::store::atomic::open_regular(path).map_err(read)?;
        let len = file.metadata().map_err(read)?.len();
        let mut head = vec![0u8; HEADER.min(usize::try_from(len).unwrap_or(HEADER))];
        file.read_exact(&mut head).map_err(read)?;
        let head = Head::read(&head, len).map_err(bad)?;
        let body_len = usize::try_from(len - HEADER as u64)
            .map_err(|_| bad("too large for this machine".into()))?;
        crate::analysis::memory::room_for(body_len as f64, None).map_err(|limit| {
            Error::NoRoom {
                what: format!("the pattern database {}", path.display()),
                needed: body_len as u64,
                limit,
            }
        })?;
        let mut body = Pages::zeroed(body_len).map_err(read)?;
        // Read a part at a time, the first checked before the rest is read: a file of the
        // right length whose entries are not a database's (a sparse file reads as zeros) is
        // refused there, not after the whole claim is in memory. (A few wrong entries are left
        // to the checksum, whose message says what they are.)
        let count = head.count as usize;
        for (k, part) in body.chunks_mut(READ_PART).enumerate() {
            file.read_exact(part).map_err(read)?;
            let entries = &part[..part.len().min(count)];
            if k == 0 && entries.iter().filter(|&&e| e == 0).count() > MANY_ZEROS {
                return Err(bad(Damage::from(format!(
                    "its entries are not a database's: more than {MANY_ZEROS} placements at \
                     distance 0 in its first {} bytes (a sparse or overwritten file)",
                    part.len()
                ))));
            }
        }
        if file.read(&mut [0u8; 1]).map_err(read)? != 0 {
            return Err(bad("it grew while it was read".into()));
        }
        head.with_body(body).map_err(bad)
    }

    /// The database of a file image, or what is wrong with it.
    pub fn from_bytes(bytes: &[u8]) -> Result<Database, Damage> {
        let head = Head::read(bytes, bytes.len() as u64)?;
        let body = Pages::copy(&bytes[HEADER..]).map_err(|e| e.to_string())?;
        head.with_body(body)
    }
}

/// What a database file's header says, checked against itself and the file's length.
struct Head {
    pattern: Pattern,
    arrangements: Arrangements,
    count: u64,
    max: u32,
    reached: u64,
    sum: u64,
}

impl Head {
    /// The header of a file of `len` bytes that begins with `bytes`.
    fn read(bytes: &[u8], len: u64) -> Result<Head, Damage> {
        let h = HeaderReader::open(bytes, MAGIC, VERSION, FIELDS, "pattern database")?;
        if bytes.len() < HEADER {
            return Err(Damage::length(format!("truncated: {len} bytes")));
        }
        let shape = Shape::new(h.u32(12) as usize, h.u32(16) as usize)
            .map_err(|e| format!("bad board in header: {e}"))?;
        check_shape(shape).map_err(|e| format!("bad board in header: {e}"))?;
        let goal = h.u32(20) as usize;
        let k = h.u32(24) as usize;
        if goal >= shape.cells() || k == 0 || k >= shape.cells() || k > MAX_CELLS {
            return Err("bad goal blank or tile count in header".into());
        }
        let tiles: Vec<u32> = (0..k).map(|i| u32::from(h.byte(56 + i))).collect();
        if !tiles.windows(2).all(|w| w[0] < w[1]) || (56 + k..88).any(|i| h.byte(i) != 0) {
            return Err("bad tile list in header".into());
        }
        let pattern = Pattern::new(shape, Cell(goal), &tiles)
            .map_err(|e| format!("bad pattern in header: {e}"))?;
        let arrangements = Arrangements::new(shape.cells(), k).map_err(|e| e.to_string())?;
        let count = arrangements.count();
        if h.u64(32) != count {
            return Err(format!(
                "header says {} placements, {pattern} of {shape} has {count}",
                h.u64(32)
            )
            .into());
        }
        let want = count
            .div_ceil(8)
            .checked_mul(8)
            .and_then(|d| d.checked_add(HEADER as u64));
        if want != Some(len) {
            return Err(Damage::length(format!(
                "truncated or padded: {len} bytes, expected {}",
                want.map_or("more than a u64".into(), |w| w.to_string())
            )));
        }
        Ok(Head {
            pattern,
            arrangements,
            count,
            max: h.u32(28),
            reached: h.u64(48),
            sum: h.u64(40),
        })
    }

    /// The database, if `body` (the bytes after the header) is what the header says.
    fn with_body(self, mut body: Pages) -> Result<Database, Damage> {
        if checksum(le_words(&body)) != self.sum {
            return Err(Damage::checksum(
                "the entries are corrupted (checksum mismatch)",
            ));
        }
        let count = self.count as usize;
        if body[count..].iter().any(|&b| b != 0) {
            return Err("bad padding after the entries".into());
        }
        body.truncate(count);
        let entries = body;
        let reached = entries.iter().filter(|&&e| e != UNREACHED).count() as u64;
        let zeros = entries.iter().filter(|&&e| e == 0).count();
        let start = self.arrangements.rank(&self.pattern.goal_cells()) as usize;
        let top = entries.iter().copied().filter(|&e| e != UNREACHED).max();
        if entries[start] != 0 || zeros != 1 {
            return Err("the goal's placement is not the only one at distance 0".into());
        }
        if top.map(u32::from) != Some(self.max) || reached != self.reached {
            return Err("its entries are not those its header describes".into());
        }
        let db = Database {
            pattern: self.pattern,
            arrangements: self.arrangements,
            entries,
            max: self.max as u8,
            reached,
        };
        // The entries a load checks differ from run to run.
        db.check_sample(&mut crate::puzzle::random::Rng::unpredictable())?;
        Ok(db)
    }
}

/// Recomputes the checksums of a database's image (entries, then header) over what is there,
/// as a forger would: the file then gets past the checksums to the checks behind them.
pub fn reseal(bytes: &mut [u8]) {
    if bytes.len() >= HEADER {
        let sum = checksum(words_from(bytes, HEADER).into_iter());
        bytes[40..48].copy_from_slice(&sum.to_le_bytes());
        reseal_header(bytes, FIELDS);
    }
}

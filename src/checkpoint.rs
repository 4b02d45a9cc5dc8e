//! Checkpoints: the search's state at a layer boundary, saved so that a run can be stopped
//! (Ctrl-C, SIGTERM, a crash) and continued with exactly the same results.
//!
//! One file, `DIR/checkpoint.tsc`, written to a temporary file, synced and renamed over the
//! previous one (then the directory is synced): a crash while saving leaves the previous
//! checkpoint intact. Layout (little-endian):
//!
//! | bytes | field |
//! |---|---|
//! | 0..8 | magic `TSCHKPT\0` |
//! | 8..12 | format version |
//! | 12..16, 16..20 | rows, cols (the user's orientation) |
//! | 20..24 | goal blank cell |
//! | 24 | class; 25: 1 if the engine works transposed; 26: 1 if pulling; 27: 1 if the layer before the last is unsettled |
//! | 28..32 | zero |
//! | 32..40 | start index |
//! | 40..48 | states |
//! | 48..52 | layers saved (L) |
//! | 56..64 | recorded frontier length F, `u64::MAX` if none |
//! | 64..72 | seconds of search before this checkpoint (f64 bits) |
//! | 72..80 | checksum of everything after the header |
//! | 80..88 | checksum of bytes 0..80 |
//!
//! then L layer counts, F frontier indices and the table's words (all u64). The body's
//! checksum is taken over chunks of `CHUNK_WORDS` words in parallel, then over the chunks'.

use std::fs::File;
use std::io::{BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;

use crate::bfs::table::Table;
use crate::bfs::{Boundary, Resume};
use crate::error::Error;
use crate::saved::{checksum, le_words};
use crate::space::StateSpace;

const MAGIC: &[u8; 8] = b"TSCHKPT\0";
/// Version 2: the index layout and table codes of saved tables version 2 (see `saved`), and
/// the fields above. (Version 1 held depth mod 3 in the table.)
pub const VERSION: u32 = 2;
const HEADER: usize = 96;
const CHUNK_WORDS: usize = 1 << 20;

static STOP: AtomicBool = AtomicBool::new(false);

/// Asks a running search to save a checkpoint at the next layer boundary and stop (called from
/// the signal handler).
pub fn request_stop() {
    STOP.store(true, Ordering::SeqCst);
}

pub fn stop_requested() -> bool {
    STOP.load(Ordering::SeqCst)
}

/// Where and how often to save, and whether to continue from a saved checkpoint.
#[derive(Clone, Copy)]
pub struct Options<'a> {
    pub dir: &'a Path,
    /// Save at a layer boundary once this long has passed since the last save (zero: every
    /// layer).
    pub every: std::time::Duration,
    pub resume: bool,
    /// Told of each save: depth and seconds the save took.
    pub saved: &'a (dyn Fn(u32, f64) + Sync),
}

/// The checkpoint file in `dir`.
pub fn file(dir: &Path) -> PathBuf {
    dir.join("checkpoint.tsc")
}

/// Removes the checkpoint of `dir` (after a finished run has written its reports).
pub fn remove(dir: &Path) -> Result<(), Error> {
    match std::fs::remove_file(file(dir)) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(Error::Write {
            path: file(dir),
            source: e,
        }),
        _ => Ok(()),
    }
}

fn body_checksum(
    layers: &[u64],
    frontier: &[u64],
    chunks: impl IndexedParallelIterator<Item = u64>,
) -> u64 {
    let words: Vec<u64> = chunks.collect();
    checksum(
        [
            checksum(layers.iter().copied()),
            checksum(frontier.iter().copied()),
        ]
        .into_iter()
        .chain(words),
    )
}

/// Saves the state at `b` for `space`, atomically; `seconds` of search so far.
pub fn save(dir: &Path, space: &StateSpace, b: &Boundary, seconds: f64) -> Result<(), Error> {
    let words = b.table.words();
    let frontier = b.frontier.unwrap_or(&[]);
    let data = body_checksum(
        b.layers,
        frontier,
        words
            .par_chunks(CHUNK_WORDS)
            .map(|c| checksum(c.iter().map(|w| w.load(Ordering::Relaxed)))),
    );
    let mut head = Vec::with_capacity(HEADER);
    head.extend_from_slice(MAGIC);
    head.extend_from_slice(&VERSION.to_le_bytes());
    head.extend_from_slice(&(space.user_shape.rows as u32).to_le_bytes());
    head.extend_from_slice(&(space.user_shape.cols as u32).to_le_bytes());
    head.extend_from_slice(&(space.user_goal.0 as u32).to_le_bytes());
    head.extend_from_slice(&[
        space.class,
        u8::from(space.transposed),
        u8::from(b.pulling),
        u8::from(b.unsettled),
    ]);
    head.extend_from_slice(&[0; 4]);
    head.extend_from_slice(&b.start.to_le_bytes());
    head.extend_from_slice(&space.states().to_le_bytes());
    head.extend_from_slice(&(b.layers.len() as u32).to_le_bytes());
    head.extend_from_slice(&[0; 4]);
    let flen = b.frontier.map_or(u64::MAX, |f| f.len() as u64);
    head.extend_from_slice(&flen.to_le_bytes());
    head.extend_from_slice(&seconds.to_bits().to_le_bytes());
    head.extend_from_slice(&data.to_le_bytes());
    let hsum = checksum(le_words(&head[..80]));
    head.extend_from_slice(&hsum.to_le_bytes());
    head.resize(HEADER, 0);
    crate::report::write_atomic_with(&file(dir), |out| {
        out.write_all(&head)?;
        for &n in b.layers.iter().chain(frontier) {
            out.write_all(&n.to_le_bytes())?;
        }
        let mut buf = Vec::with_capacity(CHUNK_WORDS * 8);
        for chunk in words.chunks(CHUNK_WORDS) {
            buf.clear();
            for w in chunk {
                buf.extend_from_slice(&w.load(Ordering::Relaxed).to_le_bytes());
            }
            out.write_all(&buf)?;
        }
        Ok(())
    })
}

/// A checkpoint read back, with the seconds of search it records.
pub struct Loaded {
    pub resume: Resume,
    pub seconds: f64,
}

/// Reads the checkpoint of `dir` for a search of `space` from `start`. Anything that does not
/// match (another board, goal, class, start or format version), a short file or a checksum
/// mismatch is an error naming the reason.
pub fn load(dir: &Path, space: &StateSpace, start: u64) -> Result<Loaded, Error> {
    let path = file(dir);
    let bad = |why: String| Error::Checkpoint {
        path: path.clone(),
        why,
    };
    let f = File::open(&path).map_err(|e| {
        bad(if e.kind() == std::io::ErrorKind::NotFound {
            "no checkpoint there (start a run with --checkpoint DIR)".into()
        } else {
            e.to_string()
        })
    })?;
    let mut r = BufReader::with_capacity(8 << 20, f);
    let short = |e: std::io::Error| bad(format!("truncated ({e})"));
    let mut head = [0u8; HEADER];
    r.read_exact(&mut head).map_err(short)?;
    if &head[..8] != MAGIC {
        return Err(bad("not a tilespace checkpoint".into()));
    }
    let u32_at = |o: usize| u32::from_le_bytes(head[o..o + 4].try_into().expect("4 bytes"));
    let u64_at = |o: usize| u64::from_le_bytes(head[o..o + 8].try_into().expect("8 bytes"));
    if u32_at(8) != VERSION {
        return Err(bad(format!(
            "format version {} (this tilespace reads version {VERSION})",
            u32_at(8)
        )));
    }
    if checksum(le_words(&head[..80])) != u64_at(80) {
        return Err(bad("the header is corrupted (checksum mismatch)".into()));
    }
    let (rows, cols, goal) = (
        u32_at(12) as usize,
        u32_at(16) as usize,
        u32_at(20) as usize,
    );
    let ours = space.user_shape;
    if (rows, cols) != (ours.rows, ours.cols) {
        return Err(bad(format!(
            "it is a checkpoint of {rows}x{cols}, not of {ours}"
        )));
    }
    if goal != space.user_goal.0 {
        return Err(bad(format!(
            "its goal blank is {}, not {}",
            ours.cell_label(crate::board::Cell(goal)),
            ours.cell_label(space.user_goal)
        )));
    }
    if head[24] != space.class || u64_at(32) != start {
        return Err(bad("it is a search from another start board".into()));
    }
    if head[25] != u8::from(space.transposed) || u64_at(40) != space.states() {
        return Err(bad("its index layout differs from this version's".into()));
    }
    let n_layers = u32_at(48) as usize;
    let flen = u64_at(56);
    if n_layers == 0 || n_layers > 10_000 || (flen != u64::MAX && flen > space.states()) {
        return Err(bad("impossible layer or frontier counts".into()));
    }
    let mut read_u64s = |n: usize| -> Result<Vec<u64>, Error> {
        let mut bytes = vec![0u8; n * 8];
        r.read_exact(&mut bytes).map_err(short)?;
        Ok(le_words(&bytes).collect())
    };
    let layers = read_u64s(n_layers)?;
    let frontier = if flen == u64::MAX {
        None
    } else {
        Some(read_u64s(flen as usize)?)
    };
    let n_words = space.states().div_ceil(32) as usize;
    let mut words = vec![0u64; n_words];
    let mut sums = Vec::with_capacity(n_words.div_ceil(CHUNK_WORDS));
    let mut buf = vec![0u8; CHUNK_WORDS * 8];
    for chunk in words.chunks_mut(CHUNK_WORDS) {
        let bytes = &mut buf[..chunk.len() * 8];
        r.read_exact(bytes).map_err(short)?;
        for (w, b) in chunk.iter_mut().zip(bytes.chunks_exact(8)) {
            *w = u64::from_le_bytes(b.try_into().expect("8 bytes"));
        }
        sums.push(checksum(chunk.iter().copied()));
    }
    if r.read(&mut [0u8; 1]).map_err(short)? != 0 {
        return Err(bad("longer than its header says".into()));
    }
    let data = body_checksum(
        &layers,
        frontier.as_deref().unwrap_or(&[]),
        sums.into_par_iter(),
    );
    if data != u64_at(72) {
        return Err(bad("the data is corrupted (checksum mismatch)".into()));
    }
    Ok(Loaded {
        resume: Resume {
            start,
            layers,
            frontier,
            pulling: head[26] != 0,
            unsettled: head[27] != 0,
            table: Table::from_words(words),
        },
        seconds: f64::from_bits(u64_at(64)),
    })
}

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
//! | 12..16, 16..20 | rows, cols (the user's orientation; 1 and n on a graph of n vertices) |
//! | 20..24 | goal blank cell (vertex) |
//! | 24 | class; 25: 1 if the engine works transposed; 26: 1 if pulling; 27: 1 if the layer before the last is unsettled |
//! | 28 | 1 in the multi-tile metric (0 in the single-tile one, and in files older than it); 29..32: zero |
//! | 32..40 | start index |
//! | 40..48 | states |
//! | 48..52 | layers saved (L) |
//! | 52..56 | the graph's key (`StateSpace::graph_key`); 0 on a board |
//! | 56..64 | recorded frontier length F, `u64::MAX` if none |
//! | 64..72 | seconds of search before this checkpoint (f64 bits) |
//! | 72..80 | checksum of everything after the header |
//! | 80..88 | checksum of bytes 0..80 |
//!
//! then L layer counts, F frontier indices and the table's words (all u64). The body's
//! checksum is taken over chunks of `CHUNK_WORDS` words in parallel, then over the chunks'.

use std::io::{BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;

use crate::bfs::coding::Coding;
use crate::bfs::moves::coding;
use crate::bfs::table::Table;
use crate::bfs::SearchState;
use crate::error::{Damage, Error};
use crate::index::space::StateSpace;
use crate::puzzle::metric::Metric;
use crate::store::header::{
    checksum, le_words, reseal_header, u64_at, words_from, BoardFields, HeaderReader, HeaderWriter,
};

const MAGIC: &[u8; 8] = b"TSCHKPT\0";
/// Version 3: the index layout and table codes of saved tables version 3 (see `saved`), and
/// the fields above. (Version 2 had the two-region layout, version 1 depth mod 3.)
pub const VERSION: u32 = 3;
const HEADER: usize = 96;
/// Bytes of header fields; their checksum follows.
const FIELDS: usize = 80;
/// Words of table a chunk checksum of the body covers.
pub(crate) const CHUNK_WORDS: usize = 1 << 20;

/// Where and how often to save, whether to continue from a saved checkpoint, and when to stop.
#[derive(Clone, Copy)]
pub struct Options<'a> {
    /// The directory of the checkpoint.
    pub dir: &'a Path,
    /// Save at a layer boundary once this long has passed since the last save (zero: every
    /// layer).
    pub every: std::time::Duration,
    /// Continue from the checkpoint in `dir` rather than start anew.
    pub resume: bool,
    /// Continue from the search saved in this other directory instead, saving in `dir` (which
    /// must hold no checkpoint): a checkpoint of one process or of ranks, or (for one process)
    /// a search on disk stopped at a layer boundary (`store::disk::whole`).
    pub from: Option<&'a Path>,
    /// Once set (by a signal handler, say), the search saves at the next layer boundary and
    /// stops with `Error::Interrupted`.
    pub stop: &'a AtomicBool,
    /// Told of each save: depth and seconds the save took.
    pub saved: &'a (dyn Fn(u32, f64) + Sync),
}

impl Options<'_> {
    /// Where the search goes on from: `from`, or `dir` if resuming; `None` for a new search.
    pub fn source(&self) -> Option<&Path> {
        self.from.or(self.resume.then_some(self.dir))
    }
}

/// The checkpoint file in `dir`.
pub fn file(dir: &Path) -> PathBuf {
    dir.join("checkpoint.tsc")
}

/// Whether a file named `name` in a checkpoint directory is the checkpoint's: one process's
/// file, a distributed run's manifest and shards, their temporaries and the directory's lock.
/// A run removes them as it goes, so no other output of the run may be one of them.
pub fn owns(name: &str) -> bool {
    let hidden = name.strip_prefix('.');
    let file = hidden.map_or(name, |n| n.split(".tmp-").next().unwrap_or(n));
    hidden == Some("checkpoint.lock")
        || file == "checkpoint.tsc"
        || file == "manifest.tsm"
        || (file.starts_with("shard-") && file.ends_with(".tss"))
}

/// Removes the checkpoint of `dir` (after a finished run has written its reports), and the
/// temporaries of saves of it cut short by a kill.
pub fn remove(dir: &Path) -> Result<(), Error> {
    crate::store::atomic::remove_dead_temporaries(&file(dir));
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

/// Saves `state`, a search of `space`, atomically; `seconds` of search so far.
pub fn save(
    dir: &Path,
    space: &StateSpace,
    state: &SearchState,
    seconds: f64,
) -> Result<(), Error> {
    let words = state.table.words();
    let frontier = state.frontier.as_deref().unwrap_or(&[]);
    let data = body_checksum(
        &state.layers,
        frontier,
        words
            .par_chunks(CHUNK_WORDS)
            .map(|c| checksum(c.iter().map(|w| w.load(Ordering::Relaxed)))),
    );
    let flen = state.frontier.as_ref().map_or(u64::MAX, |f| f.len() as u64);
    let flags = [u8::from(state.pulling), u8::from(state.unsettled)];
    let head = HeaderWriter::new(MAGIC, VERSION)
        .board(BoardFields::of(space), flags)
        .bytes(&[space.metric().byte(), 0, 0, 0])
        .u64(state.start)
        .u64(space.states())
        .u32(state.layers.len() as u32)
        .u32(space.graph_key())
        .u64(flen)
        .u64(seconds.to_bits())
        .u64(data)
        .finish(HEADER);
    crate::store::atomic::write_atomic_with(&file(dir), |out| {
        out.write_all(&head)?;
        for &n in state.layers.iter().chain(frontier) {
            out.write_all(&n.to_le_bytes())?;
        }
        state.table.write_to(out)
    })
}

/// Recomputes the checksums of a checkpoint's image (body, then header) over what is there,
/// with the layer and frontier counts its header gives, as a forger would (tests, fuzzing).
pub fn reseal(bytes: &mut [u8]) {
    let (Some(layers), Some(flen)) = (u64_at(bytes, 48), u64_at(bytes, 56)) else {
        return;
    };
    if bytes.len() < HEADER {
        return;
    }
    let words = words_from(bytes, HEADER);
    let n_layers = (layers as u32 as usize).min(words.len());
    let flen = match flen {
        u64::MAX => 0,
        n => n.min((words.len() - n_layers) as u64) as usize,
    };
    let (layers, rest) = words.split_at(n_layers);
    let (frontier, table) = rest.split_at(flen);
    let sums = table
        .par_chunks(CHUNK_WORDS)
        .map(|c| checksum(c.iter().copied()));
    let data = body_checksum(layers, frontier, sums);
    bytes[72..80].copy_from_slice(&data.to_le_bytes());
    reseal_header(bytes, FIELDS);
}

/// A checkpoint read back, with the seconds of search it records.
pub struct Loaded {
    /// The search as it was saved.
    pub state: SearchState,
    /// Seconds of search before the save.
    pub seconds: f64,
}

/// Reads the checkpoint of `dir` for a search of `space` from `start`. Anything that does not
/// match (another board, goal, class, start or format version), a short file or a checksum
/// mismatch is an error naming the reason.
pub fn load(dir: &Path, space: &StateSpace, start: u64) -> Result<Loaded, Error> {
    let path = file(dir);
    let bad = |why: Damage| Error::Checkpoint {
        path: path.clone(),
        damage: why,
    };
    let f = crate::store::atomic::open_regular(&path).map_err(|e| {
        bad(if e.kind() == std::io::ErrorKind::NotFound {
            Damage::missing("no checkpoint there (start a run with --checkpoint DIR)")
        } else {
            e.to_string().into()
        })
    })?;
    let length = f.metadata().map_err(|e| bad(e.to_string().into()))?.len();
    let mut r = BufReader::with_capacity(8 << 20, f);
    let mut head = [0u8; HEADER];
    r.read_exact(&mut head)
        .map_err(|e| bad(Damage::length(format!("truncated ({e})"))))?;
    let h = HeaderReader::open(&head, MAGIC, VERSION, FIELDS, "checkpoint").map_err(|why| {
        bad(match &head[..8] {
            b"TSTOKCKP" => Damage::mismatch(
                "a checkpoint of a puzzle of tokens: resume it with the --goal it was started with",
            ),
            _ => why,
        })
    })?;
    check_matches(&h, space, start).map_err(&bad)?;
    check_length(&h, space, length).map_err(&bad)?;
    let body = read_body(&mut r, &h, space).map_err(&bad)?;
    let state = SearchState {
        start,
        layers: body.layers,
        frontier: body.frontier,
        pulling: h.byte(26) != 0,
        unsettled: h.byte(27) != 0,
        table: Table::from_words(body.words),
    };
    check_consistent(&state, space).map_err(&bad)?;
    Ok(Loaded {
        state,
        seconds: f64::from_bits(h.u64(64)),
    })
}

/// One process's checkpoint opened to be read by ranks (`store::resume`): its header checked
/// against the search, its layer counts read, its recorded frontier (which ranks rebuild by a
/// scan) passed over, positioned at the table's words, whose checksums are the reader's to
/// take.
pub(crate) struct OpenWhole {
    /// The file, at the table's first word.
    pub file: Opened,
    /// Seconds of search before the save.
    pub seconds: f64,
    /// The checksums of the layer counts and of the frontier, which the body's checksum starts
    /// with (then one checksum per `CHUNK_WORDS` words of table).
    pub leading: [u64; 2],
    /// The body's checksum, as the header gives it.
    pub sum: u64,
}

/// A saved file (one process's or a shard) opened to be read in parts: its header checked, its
/// layer counts read, positioned at its table's words.
pub(crate) struct Opened {
    /// The file.
    pub path: PathBuf,
    /// Positioned at the first word of the table.
    pub reader: BufReader<std::fs::File>,
    /// The layer counts.
    pub layers: Vec<u64>,
    /// Whether the search was pulling, and the layer before the last unsettled.
    pub flags: [bool; 2],
}

/// Opens the checkpoint of `dir` for a search of `space` from `start` to be read in parts.
pub(crate) fn open_whole(dir: &Path, space: &StateSpace, start: u64) -> Result<OpenWhole, Error> {
    let path = file(dir);
    let bad = |why: Damage| Error::Checkpoint {
        path: path.clone(),
        damage: why,
    };
    let f = crate::store::atomic::open_regular(&path).map_err(|e| bad(e.to_string().into()))?;
    let length = f.metadata().map_err(|e| bad(e.to_string().into()))?.len();
    let mut reader = BufReader::with_capacity(8 << 20, f);
    let short = |e: std::io::Error| bad(Damage::length(format!("truncated ({e})")));
    let mut head = [0u8; HEADER];
    reader.read_exact(&mut head).map_err(short)?;
    let h = HeaderReader::open(&head, MAGIC, VERSION, FIELDS, "checkpoint").map_err(&bad)?;
    check_matches(&h, space, start).map_err(&bad)?;
    check_length(&h, space, length).map_err(&bad)?;
    let n_layers = h.u32(48) as usize;
    let flen = match h.u64(56) {
        u64::MAX => 0,
        n => n,
    };
    if n_layers == 0 || n_layers > 10_000 || flen > space.states() {
        return Err(bad("impossible layer or frontier counts".into()));
    }
    let mut bytes = vec![0u8; n_layers * 8];
    reader.read_exact(&mut bytes).map_err(short)?;
    let layers: Vec<u64> = le_words(&bytes).collect();
    let mut frontier = crate::store::header::Checksum::new();
    let mut buf = vec![0u8; CHUNK_WORDS * 8];
    let mut left = flen as usize;
    while left > 0 {
        let bytes = &mut buf[..left.min(CHUNK_WORDS) * 8];
        reader.read_exact(bytes).map_err(short)?;
        le_words(bytes).for_each(|w| frontier.add(w));
        left -= bytes.len() / 8;
    }
    Ok(OpenWhole {
        leading: [checksum(layers.iter().copied()), frontier.value()],
        seconds: f64::from_bits(h.u64(64)),
        sum: h.u64(72),
        file: Opened {
            layers,
            flags: [h.byte(26) != 0, h.byte(27) != 0],
            reader,
            path,
        },
    })
}

/// The depth of the checkpoint in `dir` as its header gives it, `None` if it has no readable
/// header (left for `load` to explain).
pub(crate) fn saved_depth(dir: &Path) -> Option<u32> {
    let mut head = [0u8; HEADER];
    let mut f = crate::store::atomic::open_regular(&file(dir)).ok()?;
    f.read_exact(&mut head).ok()?;
    let h = HeaderReader::open(&head, MAGIC, VERSION, FIELDS, "checkpoint").ok()?;
    h.u32(48).checked_sub(1)
}

/// Why the file's length is not the one its header's counts give, if so: checked before
/// anything is allocated, so that a small file claiming a huge frontier is refused at once.
fn check_length(h: &HeaderReader, space: &StateSpace, length: u64) -> Result<(), Damage> {
    let n_layers = u64::from(h.u32(48));
    let flen = match h.u64(56) {
        u64::MAX => 0,
        n => n,
    };
    let words = space.states().div_ceil(32);
    let want = [n_layers, flen, words]
        .iter()
        .try_fold(HEADER as u64, |sum, &n| sum.checked_add(n.checked_mul(8)?));
    match want {
        Some(want) if want == length => Ok(()),
        Some(want) => Err(Damage::length(format!(
            "truncated or padded: {length} bytes, its header says {want}"
        ))),
        None => Err("impossible layer or frontier counts".into()),
    }
}

/// Why a checkpoint's contents cannot be a search's state at a layer boundary, if so (a file
/// crafted, its checksums recomputed, or damaged in memory before they were taken): the layers
/// start with the start alone and are never empty; the table marks exactly as many states as
/// the layers hold, and holds `FRONTIER` in exactly the last layer (and the one before it
/// after a pull); a recorded frontier is that many distinct states holding `FRONTIER`. In the
/// multi-tile metric, the states holding each code 1 + d mod 3 are the layers' at depths d mod
/// 3, and a recorded frontier holds its depth's code.
fn check_consistent(state: &SearchState, space: &StateSpace) -> Result<(), Damage> {
    let layers = &state.layers;
    let depth = layers.len() - 1;
    let codes = [1, 2, 3].map(|c| state.table.count(c));
    let coding = coding(space);
    check_codes(layers, state.unsettled, codes, coding, space.states())?;
    let code = coding.frontier(depth as u32);
    if let Some(list) = &state.frontier {
        let mut sorted = list.clone();
        sorted.sort_unstable();
        sorted.dedup();
        let listed = sorted.len() == list.len() && list.len() as u64 == layers[depth];
        if !listed
            || sorted
                .iter()
                .any(|&i| i >= space.states() || state.table.get(i) != code)
        {
            return Err("its recorded frontier is not its last layer".into());
        }
    }
    Ok(())
}

/// Why a table (or all shards of one) whose codes 1, 2 and 3 are held by `codes` states cannot
/// be that of a search of `states` states in `metric` at a layer boundary with `layers`, if so:
/// single-tile, `check_counts` with the frontier's code; multi-tile, the states holding each code
/// 1 + d mod 3 are the layers' at depths d mod 3 (and the frontier test of `check_counts`
/// holds by construction).
pub(crate) fn check_codes(
    layers: &[u64],
    unsettled: bool,
    codes: [u64; 3],
    coding: Coding,
    states: u64,
) -> Result<(), String> {
    let seen = codes.iter().sum();
    match coding {
        Coding::Coloured => {
            let frontier = codes[crate::bfs::table::FRONTIER as usize - 1];
            check_counts(layers, unsettled, seen, frontier, states)
        }
        Coding::Cyclic => {
            let last = *layers.last().ok_or("impossible layer counts")?;
            check_counts(layers, false, seen, last, states)?;
            if !coding.residues_agree(layers, [codes[0], codes[1], codes[2], 0]) {
                return Err("its table's depths are not its layers'".into());
            }
            Ok(())
        }
    }
}

/// Why layer counts cannot be those of a search of `states` states at a layer boundary whose
/// table(s) mark `seen` states and hold `frontier` states in the frontier (`unsettled`: the
/// layer before the last is still marked frontier, after a pull), if so.
pub(crate) fn check_counts(
    layers: &[u64],
    unsettled: bool,
    seen: u64,
    frontier: u64,
    states: u64,
) -> Result<(), String> {
    let total = layers.iter().try_fold(0u64, |s, &n| s.checked_add(n));
    if layers.first() != Some(&1) || layers.contains(&0) || total.is_none_or(|t| t > states) {
        return Err("impossible layer counts".into());
    }
    if seen != total.unwrap_or(0) {
        return Err("its table does not hold the states its layers count".into());
    }
    let depth = layers.len() - 1;
    let unsettled = if unsettled && depth > 0 {
        layers[depth - 1]
    } else {
        0
    };
    if frontier != layers[depth] + unsettled {
        return Err("its table's frontier is not its last layer".into());
    }
    Ok(())
}

/// Why a checkpoint whose header's metric field holds `field` is not of `space`'s metric, if
/// so (files written before the metric was recorded hold 0, the single-tile metric's).
pub(crate) fn check_metric(field: u32, space: &StateSpace) -> Result<(), Damage> {
    if field == u32::from(space.metric().byte()) {
        return Ok(());
    }
    let theirs = u8::try_from(field).ok().and_then(Metric::from_byte);
    Err(match theirs {
        Some(theirs) => format!(
            "it is a search in the {theirs}-tile metric, not the {}-tile one",
            space.metric()
        ),
        None => "its metric field is none of the metrics'".into(),
    }
    .into())
}

/// Why a checkpoint's header is not one of this search (board, goal, start, layout), if so.
fn check_matches(h: &HeaderReader, space: &StateSpace, start: u64) -> Result<(), Damage> {
    // The metric first: it decides the orientation that `check_board` checks.
    check_metric(u32::from(h.byte(28)), space)?;
    check_board(h, space)?;
    if h.u32(52) != space.graph_key() {
        return Err(match space.graph_key() {
            0 => "it is a search of a graph's puzzle, not of a board".into(),
            _ => "it is a search of another graph's puzzle".into(),
        });
    }
    if h.u64(32) != start {
        return Err("it is a search from another start board".into());
    }
    if h.u64(40) != space.states() {
        return Err("its index layout differs from this version's".into());
    }
    Ok(())
}

/// Why the board fields that checkpoints and their shards start with (rows, cols, goal blank at
/// bytes 12..24; class and orientation at 24 and 25) are not those of `space`, if so.
pub(crate) fn check_board(h: &HeaderReader, space: &StateSpace) -> Result<(), Damage> {
    let (rows, cols, goal) = (h.u32(12) as usize, h.u32(16) as usize, h.u32(20) as usize);
    let ours = space.user_shape();
    if (rows, cols) != (ours.rows, ours.cols) {
        // A graph's space is a row of its vertices (a board of one row has no table).
        let named = |rows: usize, cols: usize| match rows {
            1 => format!("a graph of {cols} vertices"),
            _ => format!("{rows}x{cols}"),
        };
        return Err(format!(
            "it is a checkpoint of {}, not of {}",
            named(rows, cols),
            named(ours.rows, ours.cols)
        )
        .into());
    }
    if goal != space.user_goal().0 {
        // A graph's cells are its vertices, numbered from 1 as the user gave them.
        let label = |cell: usize| match ours.rows {
            1 => format!("vertex {}", cell + 1),
            _ => ours.cell_label(crate::puzzle::board::Cell(cell)),
        };
        return Err(format!(
            "its goal blank is {}, not {}",
            label(goal),
            label(space.user_goal().0)
        )
        .into());
    }
    if h.byte(24) != space.class() {
        return Err("it is a search from another start board".into());
    }
    if h.byte(25) != u8::from(space.transposed()) {
        return Err("its index layout differs from this version's".into());
    }
    Ok(())
}

/// What follows a checkpoint's header.
struct Body {
    layers: Vec<u64>,
    frontier: Option<Vec<u64>>,
    words: Vec<u64>,
}

/// Reads the layer counts, the frontier and the table after the header `h`, checking their
/// lengths and checksum.
fn read_body(r: &mut impl Read, h: &HeaderReader, space: &StateSpace) -> Result<Body, Damage> {
    let short = |e: std::io::Error| format!("truncated ({e})");
    let n_layers = h.u32(48) as usize;
    let flen = h.u64(56);
    if n_layers == 0 || n_layers > 10_000 || (flen != u64::MAX && flen > space.states()) {
        return Err("impossible layer or frontier counts".into());
    }
    let mut read_u64s = |n: usize| -> Result<Vec<u64>, String> {
        let mut bytes = vec![0u8; n * 8];
        r.read_exact(&mut bytes).map_err(short)?;
        Ok(le_words(&bytes).collect())
    };
    let layers = read_u64s(n_layers)?;
    let frontier = (flen != u64::MAX)
        .then(|| read_u64s(flen as usize))
        .transpose()?;
    let n_words = space.states().div_ceil(32) as usize;
    let mut words = vec![0u64; n_words];
    let mut sums = Vec::with_capacity(n_words.div_ceil(CHUNK_WORDS));
    let mut buf = vec![0u8; CHUNK_WORDS * 8];
    for chunk in words.chunks_mut(CHUNK_WORDS) {
        let bytes = &mut buf[..chunk.len() * 8];
        r.read_exact(bytes).map_err(short)?;
        for (w, b) in chunk.iter_mut().zip(le_words(bytes)) {
            *w = b;
        }
        sums.push(checksum(chunk.iter().copied()));
    }
    if r.read(&mut [0u8; 1]).map_err(short)? != 0 {
        return Err(Damage::length("longer than its header says"));
    }
    let data = body_checksum(
        &layers,
        frontier.as_deref().unwrap_or(&[]),
        sums.into_par_iter(),
    );
    if data != h.u64(72) {
        return Err(Damage::checksum(
            "the data is corrupted (checksum mismatch)",
        ));
    }
    Ok(Body {
        layers,
        frontier,
        words,
    })
}

#[cfg(test)]
mod tests {
    use crate::index::puzzle::Puzzle;
    use std::sync::Mutex;

    use super::*;
    use crate::bfs::{search, Driver, Outcome};
    use crate::puzzle::board::{Cell, Shape};

    /// The state of a 3x3 search at the boundary after layer `depth`, copied.
    fn state_at(space: &StateSpace, depth: u32) -> SearchState {
        let saved = Mutex::new(None);
        let hook = |b: &SearchState| -> Result<bool, Error> {
            if b.depth() < depth {
                return Ok(false);
            }
            let words = b.table.words().iter().map(|w| w.load(Ordering::Relaxed));
            *saved.lock().unwrap() = Some(SearchState {
                start: b.start,
                layers: b.layers.clone(),
                frontier: b.frontier.clone(),
                pulling: b.pulling,
                unsettled: b.unsettled,
                table: Table::from_words(words.collect()),
            });
            Ok(true)
        };
        let driver = Driver {
            hook: Some(&hook),
            ..Driver::new(&|_| {})
        };
        let out = search(space, space.goal_index(), driver, None).unwrap();
        assert!(matches!(out, Outcome::Stopped { .. }));
        saved.into_inner().unwrap().unwrap()
    }

    /// Checkpoints crafted with valid checksums are refused for what they claim: a huge
    /// frontier in a small file (before allocating it), a frontier index off the board, a
    /// table bit flipped (a state marked that no layer counts, a frontier state settled, a
    /// settled one made frontier), and layer counts that do not add up.
    #[test]
    fn crafted_checkpoints_are_refused() {
        let space = StateSpace::new(
            &Puzzle::board(Shape::new(3, 3).unwrap(), Cell(8), Metric::Single).unwrap(),
            0,
        )
        .unwrap();
        let start = space.goal_index();
        let dir = tempfile::tempdir().unwrap();
        let refused = |state: &SearchState| -> String {
            save(dir.path(), &space, state, 1.0).unwrap();
            match load(dir.path(), &space, start) {
                Err(Error::Checkpoint { damage, .. }) => damage.what,
                Err(e) => panic!("wrong error: {e}"),
                Ok(_) => panic!("a crafted checkpoint was accepted"),
            }
        };
        let good = state_at(&space, 6);
        assert!(good.frontier.is_some(), "a recorded frontier at depth 6");
        save(dir.path(), &space, &good, 1.0).unwrap();
        assert!(load(dir.path(), &space, start).is_ok());

        // A huge frontier claimed in the header, its checksum recomputed.
        let path = file(dir.path());
        let mut bytes = std::fs::read(&path).unwrap();
        bytes[56..64].copy_from_slice(&(1u64 << 40).to_le_bytes());
        let sum = checksum(le_words(&bytes[..FIELDS]));
        bytes[FIELDS..FIELDS + 8].copy_from_slice(&sum.to_le_bytes());
        std::fs::write(&path, &bytes).unwrap();
        let why = match load(dir.path(), &space, start) {
            Err(Error::Checkpoint { damage, .. }) => damage.what,
            _ => panic!("a huge frontier was accepted"),
        };
        assert!(why.contains("its header says"), "{why}");

        let copy = |s: &SearchState| SearchState {
            start: s.start,
            layers: s.layers.clone(),
            frontier: s.frontier.clone(),
            pulling: s.pulling,
            unsettled: s.unsettled,
            table: Table::from_words(
                s.table
                    .words()
                    .iter()
                    .map(|w| w.load(Ordering::Relaxed))
                    .collect(),
            ),
        };
        let mut off_board = copy(&good);
        off_board.frontier.as_mut().unwrap()[0] = space.states() + 5;
        assert!(refused(&off_board).contains("recorded frontier"));

        let frontier_state = good.frontier.as_ref().unwrap()[0];
        let unseen = (0..space.states())
            .find(|&i| good.table.get(i) == 0)
            .unwrap();
        let settled_state = (0..space.states())
            .find(|&i| good.table.get(i) >= 2)
            .unwrap();
        for (index, flip, what) in [
            (unseen, 1, "table does not hold"),
            (frontier_state, 2, "frontier is not its last layer"),
            (settled_state, 2, "frontier is not its last layer"),
        ] {
            let flipped = copy(&good);
            let w = &flipped.table.words()[(index / 32) as usize];
            w.fetch_xor(flip << (2 * (index % 32)), Ordering::Relaxed);
            assert!(refused(&flipped).contains(what), "{index} ^ {flip}");
        }
        let mut layers = copy(&good);
        layers.layers[2] += 1;
        assert!(refused(&layers).contains("table does not hold"));
        let mut empty = copy(&good);
        empty.layers[3] = 0;
        assert!(refused(&empty).contains("impossible layer counts"));
    }
}

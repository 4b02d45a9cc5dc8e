//! Checkpoints of a search of tokens (`analyze --goal TOKENS --checkpoint DIR`): the search of
//! arrangements (`bfs::arrangements`) saved at a layer boundary, so that a run stopped by a
//! signal, killed or crashed goes on with `--resume DIR` to exactly the same results.
//!
//! The file is the checkpoint directory's `checkpoint.tsc` (the name a search of tiles saves,
//! so that one directory holds one search and the same files are refused, locked and removed),
//! written to a temporary file, synced and renamed over the one before. Its layout is a saved
//! table of tokens' (`store::tokens`), magic `TSTOKCKP`: the header, the goal, the graph's
//! graph6 text, the layer counts so far, then the search's table (codes 0, 1 or 2 for the last
//! layer, 3 expanded) and, where the depths are kept (`--save-table`), their table. Header
//! fields past a table's: byte 30, the last layer's code; 31, 1 if the depths are kept; 48..56,
//! the seconds of search before the save (f64 bits); the header's checksum at 56..64.
//!
//! Reading checks more than the checksums: the goal, ground and metric must be the run's; the
//! layers a search's; the table's codes counted must be the layers' (the last layer coded as
//! saved, every earlier one 3, none of the other code); the depths' table must code exactly the
//! expanded arrangements, as many at each depth mod 3 as the layers give.

use std::io::Seek;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::Mutex;
use std::time::Instant;

use crate::bfs::arrangements::{Checkpoints, Pause};
use crate::bfs::table::Table;
use crate::error::{Damage, Error};
use crate::index::goal_index::Symbols;
use crate::index::puzzle::Ground;
use crate::puzzle::metric::Metric;
use crate::puzzle::tokens::Tokens;
use crate::store::checkpoint::{file, Options};
use crate::store::header::{Checksum, HeaderReader};
use crate::store::tokens::{
    check_counts, code_counts, read_words, write, Fields, File, Saving, HEADER,
};

const MAGIC: &[u8; 8] = b"TSTOKCKP";
const VERSION: u32 = 1;
/// Bytes of header fields; their checksum follows.
const FIELDS: usize = 56;

/// What a search of tokens is: where they sit, how they move, the goal, whether the depths
/// are kept.
#[derive(Clone, Copy)]
pub struct Searched<'a> {
    /// Where the tokens sit.
    pub ground: &'a Ground,
    /// How they move.
    pub metric: Metric,
    /// The goal searched from.
    pub goal: &'a Tokens,
    /// Whether the depths are kept (`--save-table`).
    pub depths: bool,
}

/// The checkpoints of one search of tokens as `Options` ask (saved once `every` has passed
/// since the last, and at the boundary a stop is asked at), for `bfs::arrangements`.
pub struct TokenCheckpoints<'a> {
    options: Options<'a>,
    of: Searched<'a>,
    /// When the last save ended (or the search began).
    last: Mutex<Instant>,
    /// The search's clock, and the seconds of search before the boundary resumed.
    clock: Instant,
    before: AtomicU64,
    /// Whether a save was made in `options.dir`: a second search resumes from there.
    saved: AtomicBool,
}

impl<'a> TokenCheckpoints<'a> {
    /// The checkpoints of the search `of` as `options` ask.
    pub fn new(options: Options<'a>, of: Searched<'a>) -> TokenCheckpoints<'a> {
        TokenCheckpoints {
            options,
            of,
            last: Mutex::new(Instant::now()),
            clock: Instant::now(),
            before: AtomicU64::new(0f64.to_bits()),
            saved: AtomicBool::new(false),
        }
    }

    /// Seconds of search before the boundary the search resumed from (0 for a new search).
    pub fn seconds_before(&self) -> f64 {
        f64::from_bits(self.before.load(Relaxed))
    }
}

impl Checkpoints for TokenCheckpoints<'_> {
    fn resume(&self) -> Result<Option<Pause<Table>>, Error> {
        // A save of this run's is the newest boundary; its seconds count this run's clock.
        if self.saved.load(Relaxed) {
            return load(self.options.dir, &self.of).map(|(b, _)| Some(b));
        }
        let Some(dir) = self.options.source() else {
            return Ok(None);
        };
        let (boundary, seconds) = load(dir, &self.of)?;
        self.before.store(seconds.to_bits(), Relaxed);
        Ok(Some(boundary))
    }

    fn reached(&self, at: &Pause<&[AtomicU64]>, stopping: bool) -> Result<(), Error> {
        let mut last = self.last.lock().expect("not poisoned");
        if !stopping && last.elapsed() < self.options.every {
            return Ok(());
        }
        let began = Instant::now();
        let seconds = self.seconds_before() + self.clock.elapsed().as_secs_f64();
        save(self.options.dir, &self.of, at, seconds)?;
        self.saved.store(true, Relaxed);
        *last = Instant::now();
        let depth = at.layers.len() as u32 - 1;
        (self.options.saved)(depth, began.elapsed().as_secs_f64());
        if stopping {
            return Err(Error::Interrupted {
                depth,
                dir: self.options.dir.to_path_buf(),
            });
        }
        Ok(())
    }
}

/// Saves the boundary `at` of the search `of` in `dir` atomically; `seconds` of search so far.
fn save(dir: &Path, of: &Searched, at: &Pause<&[AtomicU64]>, seconds: f64) -> Result<(), Error> {
    let header = File {
        magic: MAGIC,
        version: VERSION,
        flags: [at.code as u8, u8::from(at.depths.is_some())],
        seconds: Some(seconds),
    };
    let saving = Saving {
        ground: of.ground,
        metric: of.metric,
        goal: of.goal,
        layers: &at.layers,
    };
    let tables: Vec<&[AtomicU64]> = std::iter::once(at.table).chain(at.depths).collect();
    write(&file(dir), &header, &saving, &tables)
}

/// Recomputes the checksums of a checkpoint's image as a forger would (tests, fuzzing).
pub fn reseal(bytes: &mut [u8]) {
    crate::store::tokens::reseal_fields(bytes, FIELDS);
}

/// Reads the checkpoint of `dir`, which must be a boundary of the search `of`: the boundary,
/// and the seconds of search before it.
fn load(dir: &Path, of: &Searched) -> Result<(Pause<Table>, f64), Error> {
    let path = file(dir);
    let bad = |why: Damage| Error::Checkpoint {
        path: path.clone(),
        damage: why,
    };
    let (mut f, head) = match crate::store::header::read_head(&path, HEADER) {
        Err(Error::Read { source, .. }) if source.kind() == std::io::ErrorKind::NotFound => {
            return Err(bad(Damage::missing(
                "no checkpoint there (start a run with --checkpoint DIR)",
            )))
        }
        other => other?,
    };
    let h = HeaderReader::open(&head, MAGIC, VERSION, FIELDS, "checkpoint of tokens").map_err(
        |why| match head.get(..8) {
            Some(b"TSCHKPT\0") => bad(Damage::mismatch(
                "a checkpoint of a search of tiles: resume it without --goal",
            )),
            _ => bad(why),
        },
    )?;
    let fields = Fields::read(&h).map_err(|why| bad(why.into()))?;
    let (code, kept) = (u64::from(h.byte(30)), h.byte(31));
    if !(1..=2).contains(&code) || kept > 1 {
        return Err(bad(
            format!("flags {code} and {kept}: not a checkpoint's").into()
        ));
    }
    if (kept == 1) != of.depths {
        return Err(bad(Damage::mismatch(match of.depths {
            true => "saved without --save-table: resume it without, or start anew",
            false => "saved with --save-table: resume it with a --save-table FILE",
        })));
    }
    let tables = 1 + u64::from(kept);
    let length = f.metadata().map_err(|e| bad(e.to_string().into()))?.len();
    if length != fields.length(tables) {
        return Err(bad(Damage::length(format!(
            "truncated or padded: {length} bytes, expected {}",
            fields.length(tables)
        ))));
    }
    crate::store::room::fits(length as f64).map_err(|limit| Error::NoRoom {
        what: format!("the checkpoint {}", path.display()),
        needed: length,
        limit,
    })?;
    let mut words = f
        .seek(std::io::SeekFrom::Start(HEADER as u64))
        .and_then(|_| read_words(&mut f, length))
        .map_err(|e| bad(e.to_string().into()))?;
    if words.len() as u64 * 8 + HEADER as u64 != length {
        return Err(bad(Damage::length("changed while it was read")));
    }
    let mut sum = Checksum::new();
    words.iter().for_each(|&w| sum.add(w));
    if sum.value() != h.u64(40) {
        return Err(bad(Damage::checksum(
            "the checkpoint is corrupted (checksum mismatch)",
        )));
    }
    let pre = fields.preamble(&words).map_err(|why| bad(why.into()))?;
    if pre.goal != *of.goal || pre.ground != *of.ground || fields.metric != of.metric {
        let (goal, ground) = match &pre.ground {
            Ground::Board(shape) => (pre.goal.rows(shape.cols), shape.to_string()),
            Ground::Graph(g) => (pre.goal.to_string(), format!("a graph of {}", g.vertices())),
        };
        return Err(bad(Damage::mismatch(format!(
            "a checkpoint of the goal \"{goal}\" on {ground} ({} moves), not of this search",
            fields.metric.adjective(),
        ))));
    }
    words.drain(..pre.words);
    let depths = (kept == 1).then(|| words.split_off(fields.table_words() as usize));
    // The search's table keeps only its own words (a realloc that shrinks moves nothing).
    words.shrink_to_fit();
    let goal = pre
        .index
        .rank_of(&Symbols::of(of.goal).encode(of.goal).expect("its labels"));
    check_codes(
        &pre.layers,
        code,
        &words,
        depths.as_deref(),
        goal,
        fields.arrangements,
    )
    .map_err(|why| bad(why.into()))?;
    let boundary = Pause {
        layers: pre.layers,
        code,
        table: Table::from_words(words),
        depths: depths.map(Table::from_words),
    };
    Ok((boundary, f64::from_bits(h.u64(48))))
}

/// Refuses a boundary whose codes are not its layers' (see the module's documentation): the
/// search's `table`, its last layer coded `code`; the `depths` where kept; `goal` the start's
/// rank.
fn check_codes(
    layers: &[u64],
    code: u64,
    table: &[u64],
    depths: Option<&[u64]>,
    goal: u64,
    arrangements: u64,
) -> Result<(), String> {
    check_counts(layers, arrangements)?;
    let (last, before) = layers.split_last().expect("a layer");
    let mut want = [0u64; 3];
    want[code as usize - 1] = *last;
    want[2] = before.iter().sum();
    let found = code_counts(table, arrangements)?;
    if found != want {
        return Err(format!(
            "its arrangements by code ({found:?}) are not its layers' ({want:?})"
        ));
    }
    let slot = |t: &[u64], r: u64| (t[(r / 32) as usize] >> (2 * (r % 32))) & 3;
    let start = if before.is_empty() { code } else { 3 };
    if slot(table, goal) != start {
        return Err("the goal is not coded as the search's start".into());
    }
    let Some(depths) = depths else {
        return Ok(());
    };
    let mut want = [0u64; 3];
    for (d, &n) in before.iter().enumerate() {
        want[d % 3] += n;
    }
    const LOW: u64 = 0x5555_5555_5555_5555;
    let expanded = |w: u64| w & (w >> 1) & LOW;
    let coded = |w: u64| (w | (w >> 1)) & LOW;
    if table
        .iter()
        .zip(depths)
        .any(|(&t, &d)| expanded(t) != coded(d))
    {
        return Err("its depths are not those of the arrangements expanded".into());
    }
    if code_counts(depths, arrangements)? != want {
        return Err("its depths are not its layers'".into());
    }
    if !before.is_empty() && slot(depths, goal) != 1 {
        return Err("the goal's depth is not 0".into());
    }
    Ok(())
}

//! The journal of a search on disk: where it stands, rewritten (beside, synced, renamed) after
//! every shard a pass completes, so that a kill at any moment leaves the last shard completed
//! recoverable.
//!
//! File `search.tsj`: the header every saved search starts with (`store::header`: magic
//! `TSDISK\0\0`, version, the board fields of `header::BoardFields` with no flags, the metric
//! and the graph key (0: a board) as u32s, four zero bytes, the start, the shard shift, and the
//! checksum of those 56 bytes), then little-endian u64 words: shards, pass, shards done in the
//! pass, finishing (1 in the pass that settles the last layer), the claims' recording given up
//! (1), late, found, the seconds run so far (an f64's bits); then counted lists (a length, then
//! the words): the layers at the pass's start, the frontier's list (a length of 2^64-1 for
//! none), the next layer's list; then per shard the pass that wrote its file (2^64-1: never
//! written, every state unseen) and its checksum; then per shard and per claim file (behind into
//! this pass, ahead and behind into the next layer) its length in words and checksum; then per
//! shard its states of the frontier's layer and of the next layer known so far; and last the
//! checksum of every word before it, the header's included.

use std::path::Path;

use crate::error::{Damage, DamageKind, Error};
use crate::index::space::StateSpace;
use crate::store::header::{
    checksum, le_words, reseal_header, BoardFields, HeaderReader, HeaderWriter,
};

use super::layout::{journal_file, Layout};

const MAGIC: &[u8; 8] = b"TSDISK\0\0";
/// Version 2: on the header of every saved search (version 1 had words of its own).
const VERSION: u32 = 2;
/// Bytes of the header, and of its fields (their checksum follows).
const HEADER: usize = 64;
const FIELDS: usize = 56;
/// Words a shard takes at the journal's end.
const PER_SHARD: usize = 10;
/// No list, no file.
pub const NONE: u64 = u64::MAX;

/// A claim file's committed length (words) and checksum (`header::Checksum` of its words).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sealed {
    /// Words committed.
    pub words: u64,
    /// Checksum of those words, in order.
    pub sum: u64,
}

/// A shard's file as the journal names it: the pass that wrote it (`NONE`: none yet, every
/// state unseen) and the checksum of its words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShardRecord {
    /// The pass that wrote it.
    pub pass: u64,
    /// Checksum of its words.
    pub sum: u64,
}

impl ShardRecord {
    /// No file yet.
    pub const NONE: ShardRecord = ShardRecord { pass: NONE, sum: 0 };

    /// Whether a pass wrote the file.
    pub fn written(self) -> bool {
        self.pass != NONE
    }
}

/// Where a search on disk stands.
#[derive(Clone, Debug, PartialEq)]
pub struct Journal {
    /// The board, goal, class and metric, as the index's fields (checked on resume).
    pub ident: [u64; 6],
    /// The index the search started from.
    pub start: u64,
    /// How the table is cut.
    pub layout: Layout,
    /// The layer being expanded (the frontier's depth).
    pub pass: u32,
    /// Shards the pass has completed.
    pub done: usize,
    /// The pass settles and lists the last layer instead of expanding it (single-tile).
    pub finishing: bool,
    /// The recording of the next layer's list was given up in this pass.
    pub given_up: bool,
    /// States the pass has added to the frontier's layer so far (claims that waited a pass).
    pub late: u64,
    /// States of the next layer the pass has marked so far.
    pub found: u64,
    /// Seconds the search has run, over every run of it, at this commit.
    pub seconds: f64,
    /// The layers at the pass's start (the last is the frontier, short of its late states).
    pub layers: Vec<u64>,
    /// The frontier's indices, if recorded (with the late ones found so far).
    pub frontier: Option<Vec<u64>>,
    /// The next layer's indices found so far, if recorded (the antipodes, when finishing).
    pub next: Vec<u64>,
    /// Per shard: its file.
    pub shards: Vec<ShardRecord>,
    /// Per shard: the claims behind it into the frontier's layer (applied in this pass).
    pub behind_now: Vec<Sealed>,
    /// Per shard: the claims ahead into the next layer (applied in this pass).
    pub ahead_next: Vec<Sealed>,
    /// Per shard: the claims behind into the next layer (applied in the next pass).
    pub behind_next: Vec<Sealed>,
    /// Per shard: its states of the frontier's layer known so far (a shard with none, and no
    /// claims waiting for it, is skipped).
    pub frontier_in: Vec<u64>,
    /// Per shard: its states of the next layer marked so far.
    pub next_in: Vec<u64>,
}

/// The fields of `space` a journal must match: rows, cols, goal blank, class, transposed,
/// metric.
pub fn ident(space: &StateSpace) -> [u64; 6] {
    [
        space.user_shape().rows as u64,
        space.user_shape().cols as u64,
        space.user_goal().0 as u64,
        u64::from(space.class()),
        u64::from(space.transposed()),
        u64::from(space.metric().byte()),
    ]
}

/// What the journal's `ident` says where it differs from `want`'s: "not the search asked for:
/// its metric is 7 (none), not 0 (single)".
pub fn differences(ident: &[u64; 6], want: &[u64; 6]) -> String {
    const NAMES: [&str; 6] = [
        "rows",
        "columns",
        "goal blank cell",
        "parity class",
        "transposition",
        "metric",
    ];
    let show = |field: usize, v: u64| match field {
        5 => {
            let name = u8::try_from(v)
                .ok()
                .and_then(crate::puzzle::metric::Metric::from_byte)
                .map_or("none", |m| m.name());
            format!("{v} ({name})")
        }
        _ => v.to_string(),
    };
    let said: Vec<String> = (0..6)
        .filter(|&k| ident[k] != want[k])
        .map(|k| {
            let (got, asked) = (show(k, ident[k]), show(k, want[k]));
            format!("its {} is {got}, not {asked}", NAMES[k])
        })
        .collect();
    format!("not the search asked for: {}", said.join("; "))
}

/// The journal in `dir`, checked against the search asked for.
pub(super) fn open(dir: &Path, space: &StateSpace, start: u64) -> Result<Journal, Error> {
    let mut j = Journal::read(dir)?;
    let refuse = |what: String| Error::Checkpoint {
        path: dir.to_path_buf(),
        damage: Damage::new(DamageKind::Mismatch, what),
    };
    let want = ident(space);
    if j.ident != want {
        return Err(refuse(differences(&j.ident, &want)));
    }
    if j.start != start {
        return Err(refuse(format!(
            "it searches from state {}, not {start}",
            j.start
        )));
    }
    let layout = Layout::new(space.states(), j.layout.shift);
    if layout.shards() != j.shards.len() {
        return Err(refuse(format!(
            "its {} shards of 2^{} states do not cover this board",
            j.shards.len(),
            layout.shift
        )));
    }
    j.layout = layout;
    if let Some(what) = j.contents_differ(space.states()) {
        return Err(Error::Checkpoint {
            path: dir.to_path_buf(),
            damage: Damage::new(DamageKind::Contents, what),
        });
    }
    Ok(j)
}

impl Journal {
    /// The journal of a search not begun: the start alone at depth 0, no file written.
    pub fn begin(space: &StateSpace, start: u64, layout: Layout) -> Journal {
        let n = layout.shards();
        Journal {
            ident: ident(space),
            start,
            layout,
            pass: 0,
            done: 0,
            finishing: false,
            given_up: false,
            late: 0,
            found: 0,
            seconds: 0.0,
            layers: vec![1],
            frontier: Some(vec![start]),
            next: vec![],
            shards: vec![ShardRecord::NONE; n],
            behind_now: vec![Sealed::default(); n],
            ahead_next: vec![Sealed::default(); n],
            behind_next: vec![Sealed::default(); n],
            frontier_in: (0..n)
                .map(|k| u64::from(k == layout.shard_of(start)))
                .collect(),
            next_in: vec![0; n],
        }
    }

    /// The file's image: the header, then the words and their checksum.
    fn image(&self) -> Vec<u8> {
        let [rows, cols, goal, class, transposed, metric] = self.ident;
        let board = BoardFields {
            rows: rows as u32,
            cols: cols as u32,
            goal: goal as u32,
            class: class as u8,
            transposed: transposed as u8,
        };
        let head = HeaderWriter::new(MAGIC, VERSION)
            .board(board, [0, 0])
            .u32(metric as u32)
            .u32(0)
            .u32(0)
            .u64(self.start)
            .u64(u64::from(self.layout.shift))
            .finish(HEADER);
        let mut w: Vec<u64> = le_words(&head).collect();
        w.extend([
            self.layout.shards() as u64,
            u64::from(self.pass),
            self.done as u64,
            u64::from(self.finishing),
            u64::from(self.given_up),
            self.late,
            self.found,
            self.seconds.to_bits(),
        ]);
        let list = |w: &mut Vec<u64>, l: &[u64]| {
            w.push(l.len() as u64);
            w.extend_from_slice(l);
        };
        list(&mut w, &self.layers);
        match &self.frontier {
            Some(l) => list(&mut w, l),
            None => w.push(NONE),
        }
        list(&mut w, &self.next);
        for s in &self.shards {
            w.extend([s.pass, s.sum]);
        }
        for files in [&self.behind_now, &self.ahead_next, &self.behind_next] {
            for s in files {
                w.extend([s.words, s.sum]);
            }
        }
        for (&f, &n) in self.frontier_in.iter().zip(&self.next_in) {
            w.extend([f, n]);
        }
        w.push(checksum(w.iter().copied()));
        w.iter().flat_map(|w| w.to_le_bytes()).collect()
    }

    /// Writes the journal into `dir` (beside, synced, renamed).
    pub fn commit(&self, dir: &Path) -> Result<(), Error> {
        crate::store::atomic::write_atomic(&journal_file(dir), &self.image())
    }

    /// The journal in `dir`, checked whole (its checksum, its lengths, its fields' ranges).
    pub fn read(dir: &Path) -> Result<Journal, Error> {
        let path = journal_file(dir);
        let bytes = match crate::store::atomic::read_regular(&path) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                let what = if super::layout::holds_search(dir) {
                    "the journal search.tsj is missing, and the search's other files cannot be \
                     read without it: remove the directory and start again"
                } else {
                    "it holds no search on disk (no search.tsj)"
                };
                return Err(Error::Checkpoint {
                    path: dir.to_path_buf(),
                    damage: Damage::missing(what),
                });
            }
            Err(source) => return Err(Error::Read { path, source }),
        };
        Journal::parse(&bytes).map_err(|damage| Error::Checkpoint { path, damage })
    }

    /// The journal of a file image (any bytes: untrusted).
    pub fn parse(bytes: &[u8]) -> Result<Journal, Damage> {
        let h = HeaderReader::open(bytes, MAGIC, VERSION, FIELDS, "journal of a search on disk")?;
        let b = BoardFields::read(&h);
        let ident = [
            b.rows,
            b.cols,
            b.goal,
            b.class.into(),
            b.transposed.into(),
            h.u32(28),
        ];
        let ident = ident.map(u64::from);
        let (start, shift) = (h.u64(40), h.u64(48));
        if h.u32(32) != 0 || h.u32(36) != 0 {
            return Err(Damage::mismatch("a journal of a graph's puzzle"));
        }
        let w = sealed_words(bytes)?;
        let body = &w[..w.len() - 1];
        let mut r = Words {
            w: body,
            at: HEADER / 8,
        };
        let shards = r.next()?;
        let pass = r.next()?;
        let done = r.next()?;
        let finishing = r.flag()?;
        let given_up = r.flag()?;
        let late = r.next()?;
        let found = r.next()?;
        let seconds = f64::from_bits(r.next()?);
        let bad = |what: String| Damage::new(crate::error::DamageKind::Contents, what);
        if !(u64::from(super::layout::MIN_SHIFT)..=u64::from(super::layout::MAX_SHIFT))
            .contains(&shift)
        {
            return Err(bad(format!("a shard of 2^{shift} states")));
        }
        let layers = r.list()?;
        if layers.is_empty() || pass != layers.len() as u64 - 1 {
            return Err(bad(format!(
                "pass {pass} with {} layers counted",
                layers.len()
            )));
        }
        let frontier = match r.peek()? {
            NONE => {
                r.next()?;
                None
            }
            _ => Some(r.list()?),
        };
        let next = r.list()?;
        let shards = usize::try_from(shards).map_err(|_| bad("too many shards".into()))?;
        if done > shards as u64 || shards.checked_mul(PER_SHARD) != Some(r.left()) {
            return Err(Damage::length(format!(
                "{shards} shards, {done} done, and {} words of them",
                r.left()
            )));
        }
        let mut pairs = (0..shards * 5).map(|_| (r.next().unwrap(), r.next().unwrap()));
        let files: Vec<ShardRecord> = (pairs.by_ref().take(shards))
            .map(|(pass, sum)| ShardRecord { pass, sum })
            .collect();
        let mut sealed = || -> Vec<Sealed> {
            pairs
                .by_ref()
                .take(shards)
                .map(|(words, sum)| Sealed { words, sum })
                .collect()
        };
        let (behind_now, ahead_next, behind_next) = (sealed(), sealed(), sealed());
        let (frontier_in, next_in) = pairs.unzip();
        Ok(Journal {
            ident,
            start,
            layout: Layout {
                states: 0,
                shift: shift as u32,
            },
            pass: pass as u32,
            done: done as usize,
            finishing,
            given_up,
            late,
            found,
            seconds: if seconds.is_finite() && seconds >= 0.0 {
                seconds
            } else {
                0.0
            },
            layers,
            frontier,
            next,
            shards: files,
            behind_now,
            ahead_next,
            behind_next,
            frontier_in,
            next_in,
        })
    }
}

impl Journal {
    /// Why the journal's contents cannot be those of a search over `states` states, if so: a
    /// journal resealed with a valid checksum is still untrusted. Its indices (start, lists)
    /// are below `states`; its counts (layers, late and found states, each shard's) add up to
    /// at most `states`; the first layer is the start alone; no shard's file is of a later pass.
    pub fn contents_differ(&self, states: u64) -> Option<String> {
        let past =
            |what: &str, i: u64| format!("its {what} names state {i}, past the class's {states}");
        if self.start >= states {
            return Some(past("start", self.start));
        }
        let lists = [
            ("frontier", self.frontier.as_deref().unwrap_or(&[])),
            ("next layer", &self.next),
        ];
        for (what, list) in lists {
            if let Some(&i) = list.iter().find(|&&i| i >= states) {
                return Some(past(what, i));
            }
        }
        if self.layers[0] != 1 {
            return Some(format!(
                "its first layer has {} states, not the start alone",
                self.layers[0]
            ));
        }
        let sum = |xs: &[u64]| xs.iter().try_fold(0u64, |a, &x| a.checked_add(x));
        let layers = [&self.layers[..], &[self.late, self.found]].concat();
        let counts = [
            ("layers, late and found states", sum(&layers)),
            ("shards' frontier states", sum(&self.frontier_in)),
            ("shards' next-layer states", sum(&self.next_in)),
        ];
        for (what, total) in counts {
            match total {
                Some(n) if n <= states => {}
                _ => {
                    return Some(format!(
                        "its {what} add up to more than the class's {states} states"
                    ))
                }
            }
        }
        let pass = u64::from(self.pass);
        if let Some(k) = self
            .shards
            .iter()
            .position(|s| s.written() && s.pass > pass)
        {
            return Some(format!(
                "its shard {k} was written in pass {}, after this pass {pass}",
                self.shards[k].pass
            ));
        }
        None
    }
}

/// Recomputes the checksums of a journal's image, its header's then its words' (a forgery the
/// contents checks must catch: tests, and the fuzz target's control byte, ask for it); an image
/// of no whole words after its header is left alone.
pub fn reseal(bytes: &mut [u8]) {
    if bytes.len() < HEADER + 8 || !bytes.len().is_multiple_of(8) {
        return;
    }
    reseal_header(bytes, FIELDS);
    let n = bytes.len() - 8;
    let sum = checksum(le_words(&bytes[..n]));
    bytes[n..].copy_from_slice(&sum.to_le_bytes());
}

/// A journal's words after its header (opened), their length and checksum checked.
fn sealed_words(bytes: &[u8]) -> Result<Vec<u64>, Damage> {
    if !bytes.len().is_multiple_of(8) || bytes.len() < HEADER + 8 {
        return Err(Damage::length(format!(
            "{} bytes, not a journal's header and whole words",
            bytes.len()
        )));
    }
    let w: Vec<u64> = le_words(bytes).collect();
    let (body, sum) = w.split_at(w.len() - 1);
    if checksum(body.iter().copied()) != sum[0] {
        return Err(Damage::checksum("the journal's checksum does not match it"));
    }
    Ok(w)
}

/// A reader of a journal's words that reports running out as damage.
struct Words<'a> {
    w: &'a [u64],
    at: usize,
}

impl Words<'_> {
    fn peek(&self) -> Result<u64, Damage> {
        self.w
            .get(self.at)
            .copied()
            .ok_or_else(|| Damage::length("the journal ends early"))
    }

    fn next(&mut self) -> Result<u64, Damage> {
        let v = self.peek()?;
        self.at += 1;
        Ok(v)
    }

    fn flag(&mut self) -> Result<bool, Damage> {
        match self.next()? {
            0 => Ok(false),
            1 => Ok(true),
            v => Err(Damage::new(
                crate::error::DamageKind::Contents,
                format!("a flag of {v}"),
            )),
        }
    }

    fn list(&mut self) -> Result<Vec<u64>, Damage> {
        let n = self.next()?;
        if n > self.left() as u64 {
            return Err(Damage::length(format!(
                "a list of {n} words, {} left",
                self.left()
            )));
        }
        let l = self.w[self.at..self.at + n as usize].to_vec();
        self.at += n as usize;
        Ok(l)
    }

    fn left(&self) -> usize {
        self.w.len() - self.at
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::puzzle::Puzzle;
    use crate::puzzle::board::{Cell, Shape};
    use crate::puzzle::metric::Metric;

    /// A journal reads back as written; every cut of it, and every bit flipped in it, is
    /// refused with a reason, never read as another journal and never a panic.
    #[test]
    fn a_journal_reads_back_and_refuses_damage() {
        let shape = Shape::new(3, 3).unwrap();
        let space =
            StateSpace::new(&Puzzle::board(shape, Cell(8), Metric::Single).unwrap(), 0).unwrap();
        let mut j = Journal::begin(&space, 17, Layout::new(space.states(), 14));
        j.done = 3;
        j.late = 5;
        j.seconds = 1.5;
        j.layers = vec![1, 2, 4];
        j.pass = 2;
        j.next = vec![7, 9];
        j.behind_now[1] = Sealed { words: 3, sum: 11 };
        let bytes = j.image();
        let mut back = Journal::parse(&bytes).unwrap();
        back.layout.states = space.states();
        assert_eq!(back, j);
        for cut in 0..bytes.len() {
            assert!(Journal::parse(&bytes[..cut]).is_err(), "cut at {cut}");
        }
        for bit in 0..bytes.len() * 8 {
            let mut b = bytes.clone();
            b[bit / 8] ^= 1 << (bit % 8);
            assert!(Journal::parse(&b).is_err(), "bit {bit}");
        }
    }
}

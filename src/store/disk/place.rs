//! The `Place` of a search whose table is on disk: a layer is one pass over the shards in
//! order, each loaded into a window on the index (`Table::window`), completed with the claims
//! waiting for it, expanded, written back and released.

use std::io::{Read, Write};
use std::path::Path;
use std::sync::atomic::AtomicU64;
use std::sync::Mutex;
use std::time::Instant;

use rayon::prelude::*;
use rustix::fs::Advice;

use crate::bfs::layer::{claim_all_coded, Codes, Found, Kernels, LayerScan};
use crate::bfs::place::{keep, DiskLayer, Lagging, Place, Recording};
use crate::bfs::policy::Way;
use crate::bfs::recount::settle;
use crate::bfs::shard::Mine;
use crate::bfs::table::Table;
use crate::bfs::{Schedule, SearchState};
use crate::error::{Damage, Error};
use crate::index::space::StateSpace;
use crate::store::header::Checksum;

use super::claims::{read_claims, Outbox};
use super::journal::{Journal, Sealed, ShardRecord, NONE};
use super::layout::{claim_file, shard_file, Bound, Layout};

/// Bytes read or written at a time.
const CHUNK: usize = 8 << 20;

/// A table in shard files under a directory, worked on a shard at a time.
pub(super) struct DiskTable<'a> {
    pub dir: &'a Path,
    pub layout: Layout,
    pub space: &'a StateSpace,
    spans: [(u64, u64); 1],
    /// Claims buffered before they are appended to their files.
    budget: usize,
    inner: Mutex<Inner>,
    /// Seconds the search ran before this run, and when this run began.
    before: f64,
    started: Instant,
}

struct Inner {
    journal: Journal,
    /// States the last pass added to the layer it expanded.
    late: u64,
    io: DiskLayer,
    /// `io` when the driver last asked (`Place::disk`).
    told: DiskLayer,
}

/// What a pass does to each shard after its waiting claims: expand the frontier, or settle
/// and list the last layer.
enum Work<'s, T: ?Sized> {
    Expand(&'s LayerScan<'s, T>, &'s Kernels<T>),
    /// Settle the frontier, of blank colour `colour`, whose codes are `codes`.
    Finish {
        colour: usize,
        codes: Codes,
    },
}

// References and codes: copied whatever `T` is.
impl<T: ?Sized> Clone for Work<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T: ?Sized> Copy for Work<'_, T> {}

impl<T: ?Sized> Work<'_, T> {
    /// Begins (or goes on with) the pass of the journal `j` of `dir` that does this work: its
    /// codes, whether its layer is recorded, and whether it finishes the search.
    fn begins(&self, j: &mut Journal, dir: &Path) -> Result<(Codes, bool, bool), Error> {
        let (codes, record, finishing) = match *self {
            Work::Expand(scan, _) => (scan.codes, scan.record, false),
            Work::Finish { codes, .. } => (codes, false, true),
        };
        if j.done > 0 && j.finishing != finishing {
            return Err(Error::Check(format!(
                "the journal of {} stands in pass {} of another kind",
                dir.display(),
                j.pass
            )));
        }
        j.finishing = finishing;
        Ok((codes, record, finishing))
    }
}

impl<'a> DiskTable<'a> {
    pub fn new(dir: &'a Path, space: &'a StateSpace, journal: Journal, budget: usize) -> Self {
        let journal_seconds = journal.seconds;
        DiskTable {
            dir,
            layout: journal.layout,
            space,
            spans: [(0, space.states())],
            budget,
            inner: Mutex::new(Inner {
                journal,
                late: 0,
                io: DiskLayer::default(),
                told: DiskLayer::default(),
            }),
            before: journal_seconds,
            started: Instant::now(),
        }
    }

    /// Seconds the search has run, over every run of it.
    pub fn seconds(&self) -> f64 {
        self.before + self.started.elapsed().as_secs_f64()
    }

    /// The disk's figures so far.
    pub fn io(&self) -> DiskLayer {
        self.inner.lock().expect("no pass panicked").io
    }

    /// The journal as it stands.
    pub fn journal(&self) -> Journal {
        self.inner.lock().expect("no pass panicked").journal.clone()
    }

    /// Commits the boundary after a pass: `state` is the search after the layer it completed.
    pub fn boundary(&self, state: &SearchState) -> Result<(), Error> {
        let mut inner = self.inner.lock().expect("no pass panicked");
        let j = &mut inner.journal;
        let consumed = j.pass;
        let n = self.layout.shards();
        j.pass = state.depth();
        j.done = 0;
        j.finishing = false;
        j.given_up = false;
        j.late = 0;
        j.found = 0;
        j.layers = state.layers.clone();
        j.frontier = state.frontier.clone();
        j.next = vec![];
        j.behind_now = std::mem::replace(&mut j.behind_next, vec![Sealed::default(); n]);
        j.ahead_next = vec![Sealed::default(); n];
        j.frontier_in = std::mem::replace(&mut j.next_in, vec![0; n]);
        j.seconds = self.seconds();
        j.commit(self.dir)?;
        for k in 0..n {
            remove(&claim_file(self.dir, consumed, k, Bound::Behind))?;
        }
        Ok(())
    }

    /// One pass over the shards from where the journal stands: each loaded, completed with the
    /// claims behind it into the frontier's layer (listed into `list` if given) and the claims
    /// ahead into the next layer, then worked on, written back and released.
    fn pass<T: ?Sized + Sync>(
        &self,
        table: &Table,
        work: Work<T>,
        mut list: Option<&mut Vec<u64>>,
        recording: Option<&Recording>,
        schedule: &Schedule,
    ) -> Result<Found, Error> {
        let mut inner = self.inner.lock().expect("no pass panicked");
        let inner = &mut *inner;
        let j = &mut inner.journal;
        let (dir, layout, p) = (self.dir, self.layout, j.pass);
        let (codes, record, finishing) = work.begins(j, dir)?;
        // Late claims join the frontier, which holds its code until it is expanded.
        let (late_code, next_code) = (codes.frontier, codes.next);
        if j.given_up {
            if let Some(r) = recording {
                r.give_up();
            }
        }
        let before = Found {
            states: j.found,
            marked: std::mem::take(&mut j.next),
        };
        let mut found = match work {
            Work::Expand(..) => keep(recording, before),
            Work::Finish { .. } => before,
        };
        let mut late = j.late;
        // Whether shard `n` has a frontier to expand or claims to settle in this pass.
        let busy = |j: &Journal, n: usize| {
            j.frontier_in[n] > 0
                || j.behind_now[n].words > 0
                || (!finishing && j.ahead_next[n].words > 0)
        };
        for k in j.done..layout.shards() {
            if !busy(j, k) {
                // Nothing to expand, settle or claim here.
                j.done = k + 1;
                continue;
            }
            let (late_before, found_before) = (late, found.states);
            let clock = Instant::now();
            let span = layout.span(k);
            let (a, b) = layout.words(k);
            let words = table.span(a, b);
            inner.io.read += load_shard(dir, table, &layout, k, j.shards[k])?;
            if !j.shards[k].written() && p == 0 && layout.shard_of(j.start) == k {
                table.visit(j.start, late_code);
            }
            let path = claim_file(dir, p, k, Bound::Behind);
            inner.io.read += read_claims(&path, j.behind_now[k], span.0..span.1, |part| {
                let f = claim_all_coded(table, part, list.is_some(), late_code);
                late += f.states;
                if let Some(l) = list.as_deref_mut() {
                    l.extend(f.marked);
                }
            })?;
            inner.io.waiting += clock.elapsed().as_secs_f64();
            // The disk reads the next shard's files while this one is worked on.
            if let Some(next) = (k + 1..layout.shards()).find(|&n| busy(j, n)) {
                if j.shards[next].written() {
                    prefetch(&shard_file(dir, next, j.shards[next].pass as u32));
                }
                prefetch(&claim_file(dir, p, next, Bound::Behind));
            }
            match work {
                Work::Expand(scan, kernels) => {
                    let clock = Instant::now();
                    let path = claim_file(dir, p + 1, k, Bound::Ahead);
                    inner.io.read += read_claims(&path, j.ahead_next[k], span.0..span.1, |part| {
                        let f = claim_all_coded(table, part, record, next_code);
                        found.add(keep(recording, f));
                    })?;
                    inner.io.waiting += clock.elapsed().as_secs_f64();
                    let mut out =
                        Outbox::new(dir, p + 1, k, &j.ahead_next, &j.behind_next, self.budget);
                    let pushed =
                        self.push_shard(scan, kernels, k, &mut out, recording, schedule)?;
                    found.add(pushed);
                    let clock = Instant::now();
                    inner.io.written += out.seal(&mut j.ahead_next, &mut j.behind_next)?;
                    inner.io.waiting += clock.elapsed().as_secs_f64();
                }
                Work::Finish { colour, codes } => {
                    found.add(settle(
                        self.space,
                        table,
                        &[span],
                        colour,
                        codes.done,
                        true,
                        schedule,
                    ));
                }
            }
            let clock = Instant::now();
            let path = shard_file(dir, k, p);
            let sum = write_shard(&path, words)?;
            inner.io.written += (b - a) as u64 * 8;
            table.release(a, b);
            let tally = Tally {
                late,
                late_before,
                found: &found,
                found_before,
            };
            self.commit_shard(j, k, sum, tally, recording, list.as_deref())?;
            inner.io.waiting += clock.elapsed().as_secs_f64();
        }
        inner.late = late;
        Ok(found)
    }
}

/// What a pass has found by the end of a shard, and had before it.
struct Tally<'a> {
    /// States added to the frontier's layer (late claims).
    late: u64,
    late_before: u64,
    /// States of the next layer.
    found: &'a Found,
    found_before: u64,
}

impl DiskTable<'_> {
    /// Commits shard `k`, just written with checksum `sum`, to the journal `j` with what the
    /// pass has found so far (`tally`; the lists), then removes the files it replaces.
    fn commit_shard(
        &self,
        j: &mut Journal,
        k: usize,
        sum: u64,
        tally: Tally,
        recording: Option<&Recording>,
        list: Option<&Vec<u64>>,
    ) -> Result<(), Error> {
        let Tally {
            late,
            late_before,
            found,
            found_before,
        } = tally;
        let (dir, p) = (self.dir, j.pass);
        let old = j.shards[k].pass;
        j.shards[k] = ShardRecord {
            pass: u64::from(p),
            sum,
        };
        j.done = k + 1;
        j.frontier_in[k] += late - late_before;
        j.next_in[k] += found.states - found_before;
        j.late = late;
        j.found = found.states;
        j.given_up = recording.is_some_and(|r| !r.kept());
        j.next = if j.given_up {
            vec![]
        } else {
            found.marked.clone()
        };
        j.frontier = list.cloned();
        j.seconds = self.seconds();
        j.commit(dir)?;
        if old != NONE && old != u64::from(p) {
            remove(&shard_file(dir, k, old as u32))?;
        }
        remove(&claim_file(dir, p + 1, k, Bound::Ahead))
    }

    /// Pushes the frontier of shard `k` (loaded) with `kernels`, its claims into other shards
    /// buffered in `out`: what it marked here, kept by `recording`.
    fn push_shard<T: ?Sized + Sync>(
        &self,
        scan: &LayerScan<T>,
        kernels: &Kernels<T>,
        k: usize,
        out: &mut Outbox,
        recording: Option<&Recording>,
        schedule: &Schedule,
    ) -> Result<Found, Error> {
        let layout = self.layout;
        let span = layout.span(k);
        let here = LayerScan {
            mine: layout.mine(k),
            ..*scan
        };
        let tasks = schedule.tasks_of(span.0, span.1);
        let push = kernels.push_shard;
        // Tasks scanned between two looks at the buffers: their targets (about four a state at
        // most) fit the claims' budget.
        let per = (self.budget as u64 / 4 / schedule.chunk.max(1)) as usize;
        let batch = per.max(4 * rayon::current_num_threads());
        let mut found = Found::default();
        for batch in tasks.chunks(batch) {
            let parts: Vec<(Found, Vec<u64>)> = batch
                .par_iter()
                .map(|&task| {
                    let mut targets = vec![];
                    let f = keep(recording, push(&here, task, &mut targets));
                    (f, targets)
                })
                .collect();
            for (f, targets) in parts {
                found.add(f);
                out.add(&targets, &layout)?;
            }
        }
        Ok(found)
    }
}

impl Place for DiskTable<'_> {
    type Telemetry = DiskLayer;

    fn spans(&self) -> &[(u64, u64)] {
        &self.spans
    }

    fn mine(&self) -> Mine {
        Mine::all()
    }

    fn keeps_aids(&self) -> bool {
        false
    }

    /// A push, a shard at a time (`Lagging::way`).
    fn build<T: ?Sized + Sync>(
        &self,
        scan: &LayerScan<T>,
        kernels: &Kernels<T>,
        _way: Way,
        list: Option<&mut Vec<u64>>,
        recording: Option<&Recording>,
        schedule: &Schedule,
    ) -> Result<Vec<Found>, Error> {
        let work = Work::Expand(scan, kernels);
        let found = self.pass(scan.table, work, list, recording, schedule)?;
        Ok(vec![found])
    }

    /// What the disk did since the last call.
    fn telemetry(&self, _work: std::time::Duration) -> DiskLayer {
        let mut inner = self.inner.lock().expect("no pass panicked");
        let (now, told) = (inner.io, inner.told);
        inner.told = now;
        DiskLayer {
            read: now.read - told.read,
            written: now.written - told.written,
            waiting: now.waiting - told.waiting,
        }
    }

    fn lagging(&self) -> Option<&dyn Lagging> {
        Some(self)
    }
}

impl Lagging for DiskTable<'_> {
    /// Every layer is pushed a shard at a time, whatever way the policy chose (a list or a
    /// pull would read other shards).
    fn way(&self, _chosen: Way) -> Way {
        Way::Push
    }

    fn late(&self) -> u64 {
        self.inner.lock().expect("no pass panicked").late
    }

    fn finish_last(
        &self,
        state: &SearchState,
        colour: usize,
        codes: Codes,
        schedule: &Schedule,
    ) -> Result<(Vec<u64>, u64), Error> {
        let work: Work<()> = Work::Finish { colour, codes };
        let last = self.pass(&state.table, work, None, None, schedule)?;
        Ok((last.marked, self.late()))
    }
}

/// Removes `path` if it is there.
pub(super) fn remove(path: &Path) -> Result<(), Error> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(Error::Write {
            path: path.to_path_buf(),
            source: e,
        }),
        _ => Ok(()),
    }
}

/// Loads shard `k` into `table` from its file as the journal names it (none written: every
/// state unseen, nothing to read); returns the bytes read.
pub(super) fn load_shard(
    dir: &Path,
    table: &Table,
    layout: &Layout,
    k: usize,
    file: ShardRecord,
) -> Result<u64, Error> {
    if !file.written() {
        return Ok(0);
    }
    let (a, b) = layout.words(k);
    read_shard(&shard_file(dir, k, file.pass as u32), table, a, b, file.sum)
}

/// Reads the shard file `path` into words `a..b` of `table`, checking its length and its
/// checksum against `sum`; returns the bytes read.
fn read_shard(path: &Path, table: &Table, a: usize, b: usize, sum: u64) -> Result<u64, Error> {
    let read_err = |source| Error::Read {
        path: path.to_path_buf(),
        source,
    };
    let damaged = |damage| Error::Checkpoint {
        path: path.to_path_buf(),
        damage,
    };
    let mut f = crate::store::atomic::open_regular(path).map_err(|source| {
        if source.kind() == std::io::ErrorKind::NotFound {
            damaged(Damage::new(
                crate::error::DamageKind::Missing,
                "a shard the journal names is missing",
            ))
        } else {
            read_err(source)
        }
    })?;
    let want = (b - a) as u64 * 8;
    let len = f.metadata().map_err(read_err)?.len();
    if len != want {
        return Err(damaged(Damage::length(format!(
            "{len} bytes, a shard of {want}"
        ))));
    }
    let mut check = Checksum::new();
    let most = (b - a).min(CHUNK / 8);
    let mut bytes = vec![0u8; most * 8];
    let mut at = a;
    let mut words = Vec::with_capacity(most);
    while at < b {
        let n = (b - at).min(CHUNK / 8);
        f.read_exact(&mut bytes[..n * 8]).map_err(read_err)?;
        words.clear();
        words.extend(crate::store::header::le_words(&bytes[..n * 8]));
        words.iter().for_each(|&w| check.add(w));
        table.load(at, &words);
        at += n;
    }
    uncache(&f);
    if check.value() != sum {
        table.release(a, b);
        return Err(damaged(Damage::checksum(
            "its words do not match the journal's checksum",
        )));
    }
    Ok(want)
}

/// Writes `words` to the shard file `path` and syncs it; returns their checksum.
pub(super) fn write_shard(path: &Path, words: &[AtomicU64]) -> Result<u64, Error> {
    let err = |source| Error::Write {
        path: path.to_path_buf(),
        source,
    };
    let mut f = std::fs::File::create(path).map_err(err)?;
    let mut check = Checksum::new();
    let mut bytes = Vec::with_capacity(words.len().min(CHUNK / 8) * 8);
    for part in words.chunks(CHUNK / 8) {
        bytes.clear();
        for w in part {
            let w = w.load(std::sync::atomic::Ordering::Relaxed);
            check.add(w);
            bytes.extend_from_slice(&w.to_le_bytes());
        }
        f.write_all(&bytes).map_err(err)?;
    }
    f.sync_data().map_err(err)?;
    uncache(&f);
    Ok(check.value())
}

/// Asks the kernel to read the file at `path` into the page cache now, in the background (if
/// it is there: a claim file may not be; if it is not a regular file, the load says so). The
/// next shard's files are read so while the shard before is expanded: the read overlaps the
/// work, with the next shard's pages in the cache beside the one in the window (the half of
/// `--max-memory` the window leaves).
fn prefetch(path: &Path) {
    if let Ok(f) = crate::store::atomic::open_regular(path) {
        advise(&f, Advice::WillNeed);
    }
}

/// Drops the pages of `f` from the page cache once they are read or written and synced: the
/// table's files stay out of the memory that `--max-memory` keeps the search from (the cache
/// would otherwise grow by the whole table, evicting other work's pages), and each pass reads
/// from the disk, as a table past the memory must.
fn uncache(f: &std::fs::File) {
    advise(f, Advice::DontNeed);
}

/// `posix_fadvise` of the whole of `f`. Advice only: a failure changes nothing.
fn advise(f: &std::fs::File, advice: Advice) {
    let _ = rustix::fs::fadvise(f, 0, None, advice);
}

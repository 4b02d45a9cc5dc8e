//! A search whose table is on disk: boards past the machine's memory on one machine, as the
//! field's records were set (Korf, "Minimizing Disk I/O in Two-Bit Breadth-First Search",
//! AAAI 2008).
//!
//! The 2-bit table is cut into contiguous shards (`layout`), one file each; at most one shard is
//! in memory, in a window on the whole index (`Table::window`), with the buffers of claims bound
//! for other shards. A layer is one pass over the shards in order (`place`): load a shard, apply
//! the claims waiting for it, expand its frontier with the engine's shard scans (targets in the
//! shard claimed at once, the others buffered and appended to the claim file of the shard they
//! fall in: `claims`), write it back, release it. Claims into a shard ahead are applied when
//! that shard is loaded in the same pass; claims into a shard behind wait for the next pass,
//! which completes the layer before expanding it, so a layer's count is known one pass late
//! (the driver's lagging `Place`). All disk I/O is sequential: whole shards, appended and
//! read-whole claim files.
//!
//! After every shard the journal is rewritten (`journal`): a kill at any moment loses at most
//! the shard being worked on, and `resume` goes on from the last shard completed. Shard files
//! carry the pass that wrote them in their name, so a shard is never overwritten before the
//! journal names its new file; claim files are cut back to the length the journal commits.
//! A search stopped at a layer boundary moves between disk and memory whole (`whole`).

mod claims;
pub mod journal;
pub mod layout;
mod place;
pub mod whole;

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::bfs::driver::{self, Finished};
use crate::bfs::policy::Scan;
use crate::bfs::table::Table;
use crate::bfs::{DiskLayer, Driver, LayerDone, Outcome, Schedule, Search, SearchState};
use crate::error::{Error, Limit, Needed};
use crate::index::space::StateSpace;

use journal::{open, Journal};
pub use layout::holds_search;
use layout::{claim_file, journal_file, names, our_files, shard_file, Bound, Layout};
use place::DiskTable;

/// How a search on disk runs.
#[derive(Clone, Copy, Debug)]
pub struct DiskOptions<'a> {
    /// The directory of the table's files.
    pub dir: &'a Path,
    /// Bytes of memory the search may hold: a shard and the claims' buffers.
    pub memory: u64,
    /// Shards of 2^shift states instead of the largest that fit `memory` (tests).
    pub shift: Option<u32>,
    /// Go on from the journal in `dir` instead of starting.
    pub resume: bool,
    /// Stops the search at the next layer boundary once set.
    pub stop: Option<&'a AtomicBool>,
}

/// What a search on disk keeps of its finished table (`Search::table`): the shard files.
#[derive(Debug)]
pub struct DiskShards {
    /// How the table was cut.
    pub layout: Layout,
    /// The disk's figures over this run: bytes read and written, seconds spent on them.
    pub io: DiskLayer,
}

/// The smallest memory a search on disk accepts: a shard of a few pages and the buffers.
pub const MIN_MEMORY: u64 = 1 << 18;

/// The claims buffered before they are appended: an eighth of the memory, 256 MB at most.
fn claim_budget(memory: u64) -> usize {
    ((memory / 8).min(256 << 20) / 8).max(1024) as usize
}

/// The shards a search of `space` in `memory` bytes uses: the largest whose table takes at most
/// half of it.
pub fn layout_for(space: &StateSpace, memory: u64) -> Layout {
    Layout::within(space.states(), memory / 2)
}

/// The least memory a search cut as `layout` runs in: `layout_for`'s rule the other way.
fn memory_for(layout: &Layout) -> u64 {
    2 * layout.shard_bytes()
}

/// Bytes of disk a search of `space` with `layout` needs: the table, one shard more (a shard is
/// written beside its old file), and room for the claims of the widest layer (as much again as
/// the table: a margin chosen, not a bound proved).
pub fn disk_needed(space: &StateSpace, layout: &Layout) -> u64 {
    let table = space.states().div_ceil(32) * 8;
    2 * table + layout.shard_bytes()
}

/// Bytes free to this user on the file system holding `dir`.
pub fn disk_free(dir: &Path) -> Option<u64> {
    let st = rustix::fs::statvfs(dir).ok()?;
    Some(st.f_bavail.saturating_mul(st.f_frsize))
}

/// The BFS from `start` with its table in shard files under `options.dir`, from the start or
/// from where the journal there stands (`options.resume`), until the end or a stop.
pub(crate) fn search_on_disk(
    space: &StateSpace,
    start: u64,
    options: DiskOptions,
    schedule: Schedule,
    progress: &(dyn Fn(LayerDone) + Sync),
) -> Result<Outcome<Search<DiskShards>>, Error> {
    let dir = options.dir;
    let _lock = claim(dir, options.memory)?;
    let journal = if options.resume {
        let j = open(dir, space, start)?;
        fits(dir, &j.layout, options.memory)?;
        tidy(dir, &j)?;
        j
    } else {
        let j = Journal::begin(space, start, new_layout(space, options)?);
        j.commit(dir)?;
        j
    };
    let layout = journal.layout;
    let table = Table::window(space.states()).map_err(|e| Error::TooLarge {
        shape: space.user_shape().to_string(),
        needed: Needed::AddressSpace(space.states().div_ceil(32) * 8),
        limit: Limit::Mapping(e.to_string()),
    })?;
    let state = SearchState {
        start,
        layers: journal.layers.clone(),
        frontier: journal.frontier.clone(),
        pulling: false,
        unsettled: false,
        table,
    };
    let place = DiskTable::new(dir, space, journal, claim_budget(options.memory));
    let hook = |s: &SearchState| -> Result<bool, Error> {
        place.boundary(s)?;
        Ok(options.stop.is_some_and(|f| f.load(Ordering::Relaxed)))
    };
    let driver = Driver {
        schedule,
        progress,
        hook: Some(&hook),
        aid_bytes: None,
    };
    let Finished { state, antipodes } = match driver::run(space, &place, driver, Scan::Push, state)?
    {
        Outcome::Done(f) => f,
        Outcome::Stopped { depth } => return Ok(Outcome::Stopped { depth }),
    };
    let colour = space.colour(space.split(start).0);
    let (seen, residues) = recount(&place, &state.table, colour, &schedule)?;
    Ok(Outcome::Done(Search {
        layers: state.layers,
        antipodes,
        seen,
        residues,
        seconds: place.seconds(),
        threads: rayon::current_num_threads(),
        table_bytes: space.states().div_ceil(32) * 8,
        table: DiskShards {
            layout,
            io: place.io(),
        },
    }))
}

/// Makes `dir` a directory of a search on disk and holds it (its lock), for a search that may
/// hold `memory` bytes; refused if another run holds it.
fn claim(dir: &Path, memory: u64) -> Result<crate::store::lock::Lock, Error> {
    if memory < MIN_MEMORY {
        return Err(Error::Argument(format!(
            "a search on disk needs at least {} kB of memory",
            MIN_MEMORY / 1000
        )));
    }
    if dir.exists() && !dir.is_dir() {
        return Err(Error::Argument(format!(
            "{} is not a directory: a search on disk keeps its files in one",
            dir.display()
        )));
    }
    std::fs::create_dir_all(dir).map_err(|source| Error::Write {
        path: dir.to_path_buf(),
        source,
    })?;
    crate::store::atomic::check_writable(dir)?;
    crate::store::lock::try_exclusive(&dir.join("search"))?.ok_or_else(|| {
        Error::Argument(format!(
            "another run is using {} (its lock is held)",
            dir.display()
        ))
    })
}

/// How a new search of `space` on disk is cut (`options`), in a directory that holds no other
/// run's files and a disk with room for it.
fn new_layout(space: &StateSpace, options: DiskOptions) -> Result<Layout, Error> {
    let dir = options.dir;
    refuse_used(dir)?;
    let layout = match options.shift {
        Some(s) => Layout::new(space.states(), s),
        None => layout_for(space, options.memory),
    };
    let needed = disk_needed(space, &layout);
    if let Some(free) = disk_free(dir).filter(|&f| f < needed) {
        return Err(Error::NoRoom {
            what: format!(
                "the table of {} on disk, with its claims",
                space.user_shape()
            ),
            needed,
            limit: Limit::DiskFree {
                bytes: free,
                dir: dir.to_path_buf(),
            },
        });
    }
    Ok(layout)
}

/// Writes `loaded`, a search of `space` read into memory at a layer boundary (a checkpoint),
/// into `options.dir` as a new search on disk, for `search_on_disk` with `resume` to go on
/// with (`whole::save_whole`).
pub fn begin_from(
    space: &StateSpace,
    loaded: crate::store::checkpoint::Loaded,
    options: DiskOptions,
) -> Result<(), Error> {
    let _lock = claim(options.dir, options.memory)?;
    let layout = new_layout(space, options)?;
    whole::save_whole(options.dir, space, loaded.state, loaded.seconds, layout)
}

/// The states marked in the finished shards and their counts at each depth mod 4 (mod 3),
/// read back from the files (their checksums checked again).
fn recount(
    place: &DiskTable,
    table: &Table,
    start_colour: usize,
    schedule: &Schedule,
) -> Result<(u64, [u64; 4]), Error> {
    let j = place.journal();
    let (mut seen, mut residues) = (0, [0u64; 4]);
    for k in 0..place.layout.shards() {
        let (a, b) = place.layout.words(k);
        place::load_shard(place.dir, table, &place.layout, k, j.shards[k])?;
        seen += table.seen_in(a, b);
        let span = place.layout.span(k);
        let r = crate::bfs::residues(
            place.space,
            table,
            &[span],
            start_colour,
            crate::bfs::moves::coding(place.space),
            schedule,
        );
        (0..4).for_each(|i| residues[i] += r[i]);
        table.release(a, b);
    }
    Ok((seen, residues))
}

/// The words of the finished table in `dir`, in order, handed to `sink` a shard's part at a
/// time (to save it as a table file).
pub fn stream_table(
    dir: &Path,
    space: &StateSpace,
    sink: &mut dyn FnMut(&[u64]) -> std::io::Result<()>,
) -> Result<(), Error> {
    let j = Journal::read(dir)?;
    let layout = Layout::new(space.states(), j.layout.shift);
    let table = Table::window(space.states()).map_err(|source| Error::Read {
        path: dir.to_path_buf(),
        source,
    })?;
    for k in 0..layout.shards() {
        let (a, b) = layout.words(k);
        place::load_shard(dir, &table, &layout, k, j.shards[k])?;
        let words: Vec<u64> = table
            .span(a, b)
            .iter()
            .map(|w| w.load(Ordering::Relaxed))
            .collect();
        table.release(a, b);
        sink(&words).map_err(|source| Error::Write {
            path: dir.to_path_buf(),
            source,
        })?;
    }
    Ok(())
}

/// Removes every file of a search on disk from `dir` (the directory stays if anything else is
/// in it).
pub fn remove(dir: &Path) -> Result<(), Error> {
    for name in our_files(dir)? {
        if name != "search.tsj" {
            place::remove(&dir.join(&name))?;
        }
    }
    // The journal last: until it goes, the directory still says what it holds.
    place::remove(&journal_file(dir))?;
    place::remove(&dir.join(".search.lock"))?;
    let _ = std::fs::remove_dir(dir);
    Ok(())
}

/// Refuses to start a search in a directory holding one, or holding a checkpoint (whose
/// `--resume` the search's files would then shadow).
fn refuse_used(dir: &Path) -> Result<(), Error> {
    let names = names(dir)?;
    if names.iter().any(|n| layout::owns(n)) {
        return Err(Error::Argument(format!(
            "{} holds a search on disk already: go on with --resume {0}, or remove it",
            dir.display()
        )));
    }
    if let Some(name) = names.iter().find(|n| crate::store::checkpoint::owns(n)) {
        return Err(Error::Argument(format!(
            "{} holds a checkpoint's file ({name}): a search on disk needs a directory of its own",
            dir.display()
        )));
    }
    Ok(())
}

/// Refuses to resume a search whose shards take more memory than `memory` allows: the shards
/// were cut when it began and cannot change.
fn fits(dir: &Path, layout: &Layout, memory: u64) -> Result<(), Error> {
    let needed = memory_for(layout);
    if memory < needed {
        let bytes = |b: u64| crate::units::human_bytes(b as f64);
        return Err(Error::Argument(format!(
            "the search on disk in {} was cut into shards of {} when it began: it needs {} of \
             memory to go on, over the {} it may use (--max-memory, or the memory available)",
            dir.display(),
            bytes(layout.shard_bytes()),
            bytes(needed),
            bytes(memory)
        )));
    }
    Ok(())
}

/// Makes `dir` what the journal says: files a crashed pass left past the last committed shard
/// removed, claim files cut to their committed lengths.
fn tidy(dir: &Path, j: &Journal) -> Result<(), Error> {
    let mut keep: Vec<String> = vec!["search.tsj".into()];
    let name = |p: std::path::PathBuf| p.file_name().unwrap().to_string_lossy().into_owned();
    for (k, file) in j.shards.iter().enumerate() {
        if file.written() {
            keep.push(name(shard_file(dir, k, file.pass as u32)));
        }
    }
    let files = [
        (j.pass, Bound::Behind, &j.behind_now),
        (j.pass + 1, Bound::Ahead, &j.ahead_next),
        (j.pass + 1, Bound::Behind, &j.behind_next),
    ];
    for (layer, bound, sealed) in files {
        for (k, &s) in sealed.iter().enumerate() {
            let path = claim_file(dir, layer, k, bound);
            // Claims ahead into shards already done were applied; the rest are cut back.
            let applied = bound == Bound::Ahead && k < j.done;
            if s.words > 0 && !applied {
                claims::cut(&path, s)?;
                keep.push(name(path));
            }
        }
    }
    for n in our_files(dir)? {
        if !keep.contains(&n) {
            place::remove(&dir.join(&n))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;

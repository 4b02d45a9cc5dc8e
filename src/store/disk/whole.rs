//! A search moved between memory and disk at a layer boundary: a search on disk read into one
//! table in memory (`load_whole`: where a search begun on disk goes on once a machine with the
//! memory runs it, `store::resume::load_one`) or into the shards of ranks (`AtBoundary`, read
//! by `store::resume::load_rank`), and a search in memory written as a search on disk
//! (`save_whole`: where a checkpointed search goes on once the memory is short).

use std::path::{Path, PathBuf};

use crate::bfs::layer::claim_all_coded;
use crate::bfs::moves::codes_of;
use crate::bfs::table::Table;
use crate::bfs::SearchState;
use crate::error::{Damage, DamageKind, Error};
use crate::index::space::StateSpace;
use crate::store::checkpoint::Loaded;

use super::claims::read_claims;
use super::journal::{open, Journal, ShardRecord};
use super::layout::{claim_file, shard_file, Bound, Layout};
use super::place::{load_shard, write_shard};

/// A search on disk stopped at a layer boundary, its journal read and checked, to be read into
/// memory: its shard files (`shard_files`), then what the pass after the boundary would have
/// added to the frontier's layer (`late`).
pub struct AtBoundary {
    dir: PathBuf,
    journal: Journal,
    /// The frontier's code, as the pass would have written it.
    code: u64,
}

/// A shard file of a search on disk.
pub struct ShardFile {
    /// The file.
    pub path: PathBuf,
    /// The table's words it holds, `words.0..words.1`, in order.
    pub words: (usize, usize),
    /// Their checksum, as the journal records it.
    pub sum: u64,
}

impl AtBoundary {
    /// The search on disk in `dir` (of `space` from `start`); a journal that stands in the
    /// middle of a pass (a run killed, not stopped) is refused: the search goes on on disk to
    /// the next boundary first.
    pub fn open(dir: &Path, space: &StateSpace, start: u64) -> Result<AtBoundary, Error> {
        let journal = open(dir, space, start)?;
        if journal.done > 0 || journal.finishing {
            return Err(Error::Checkpoint {
                path: dir.to_path_buf(),
                damage: Damage::new(
                    DamageKind::Mismatch,
                    format!(
                        "the search on disk stands in the middle of layer {}'s pass: go on with \
                         it on disk (--resume {}) to the end of that layer first",
                        journal.pass,
                        dir.display()
                    ),
                ),
            });
        }
        let code = codes_of(space, journal.pass).frontier;
        Ok(AtBoundary {
            dir: dir.to_path_buf(),
            journal,
            code,
        })
    }

    /// The shard files that hold states: a shard never written holds none.
    pub fn shard_files(&self) -> Vec<ShardFile> {
        let j = &self.journal;
        (0..j.layout.shards())
            .filter(|&k| j.shards[k].written())
            .map(|k| ShardFile {
                path: shard_file(&self.dir, k, j.shards[k].pass as u32),
                words: j.layout.words(k),
                sum: j.shards[k].sum,
            })
            .collect()
    }

    /// Marks in `table`, among the states `mine` selects, the frontier's states the shards do
    /// not hold: the start before the first pass, and the claims that waited for the next pass
    /// (each claim file's checksum and contents checked), added to `list` if given. Returns the
    /// claims newly marked, which the frontier's layer does not count yet.
    pub fn late(
        &self,
        table: &Table,
        mine: impl Fn(u64) -> bool,
        mut list: Option<&mut Vec<u64>>,
    ) -> Result<u64, Error> {
        let j = &self.journal;
        if j.pass == 0 && mine(j.start) {
            table.visit(j.start, self.code);
        }
        let mut late = 0;
        let mut kept = vec![];
        for k in 0..j.layout.shards() {
            let path = claim_file(&self.dir, j.pass, k, Bound::Behind);
            let (lo, hi) = j.layout.span(k);
            read_claims(&path, j.behind_now[k], lo..hi, |part| {
                kept.clear();
                kept.extend(part.iter().copied().filter(|&i| mine(i)));
                let found = claim_all_coded(table, &kept, list.is_some(), self.code);
                late += found.states;
                if let Some(list) = list.as_deref_mut() {
                    list.extend(found.marked);
                }
            })?;
        }
        Ok(late)
    }

    /// The search as a search in memory at the same boundary: every shard read into one table
    /// (checksums and contents checked as a resume on disk checks them), and the claims the
    /// pass after the boundary would have added to the frontier's layer applied, so that the
    /// layers are complete.
    pub fn into_memory(self, space: &StateSpace) -> Result<Loaded, Error> {
        let table = Table::new(space.states());
        let j = &self.journal;
        for k in 0..j.layout.shards() {
            load_shard(&self.dir, &table, &j.layout, k, j.shards[k])?;
        }
        let mut frontier = j.frontier.clone();
        let late = self.late(&table, |_| true, frontier.as_mut())?;
        let mut layers = j.layers.clone();
        *layers.last_mut().expect("a journal has a layer") += late;
        let state = SearchState {
            start: j.start,
            layers,
            frontier,
            pulling: false,
            unsettled: false,
            table,
        };
        Ok(Loaded {
            state,
            seconds: j.seconds,
        })
    }

    /// The layer counts at the boundary, before `late`'s.
    pub fn layers(&self) -> &[u64] {
        &self.journal.layers
    }

    /// The frontier's list at the boundary, if the search records it, before `late`'s.
    pub fn frontier(&self) -> Option<&[u64]> {
        self.journal.frontier.as_deref()
    }

    /// The seconds of search the journal records.
    pub fn seconds(&self) -> f64 {
        self.journal.seconds
    }
}

/// The search on disk in `dir` (of `space` from `start`), as a search in memory at the same
/// boundary (`AtBoundary::into_memory`).
pub fn load_whole(dir: &Path, space: &StateSpace, start: u64) -> Result<Loaded, Error> {
    AtBoundary::open(dir, space, start)?.into_memory(space)
}

/// Writes `state`, a search of `space` in memory at a layer boundary (`seconds` of search so
/// far), into the empty directory `dir` as a search on disk cut as `layout`, for
/// `search_on_disk` to go on with (`resume`): every shard written as if the pass that ended at
/// the boundary had, no claim waiting, and the layer before the frontier settled if a pull left
/// it holding the frontier's code.
pub fn save_whole(
    dir: &Path,
    space: &StateSpace,
    mut state: SearchState,
    seconds: f64,
    layout: Layout,
) -> Result<(), Error> {
    let depth = state.depth();
    if state.unsettled {
        let colour = space.colour(space.split(state.start).0) ^ (depth as usize & 1);
        let before = codes_of(space, depth).before;
        let all = [(0, space.states())];
        let schedule = crate::bfs::Schedule::default();
        crate::bfs::settle(
            space,
            &state.table,
            &all,
            colour ^ 1,
            before,
            false,
            &schedule,
        );
        state.unsettled = false;
    }
    let mut j = Journal::begin(space, state.start, layout);
    for k in 0..layout.shards() {
        let (a, b) = layout.words(k);
        let sum = write_shard(&shard_file(dir, k, depth), state.table.span(a, b))?;
        j.shards[k] = ShardRecord {
            pass: u64::from(depth),
            sum,
        };
    }
    j.pass = depth;
    j.seconds = seconds;
    // Which shards hold the frontier is not counted: none is skipped in the first pass.
    j.frontier_in = vec![1; layout.shards()];
    j.layers = state.layers;
    j.frontier = state.frontier;
    j.commit(dir)
}

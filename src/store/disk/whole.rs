//! A search moved between memory and disk at a layer boundary: a search on disk read into one
//! table in memory (`load_whole`: where a search begun on disk goes on once a machine with the
//! memory runs it, `store::resume::load_one`), and a search in memory written as a search on
//! disk (`save_whole`: where a checkpointed search goes on once the memory is short).

use std::path::Path;

use crate::bfs::layer::claim_all_coded;
use crate::bfs::moves::codes_of;
use crate::bfs::table::Table;
use crate::bfs::SearchState;
use crate::error::{Damage, DamageKind, Error};
use crate::index::space::StateSpace;
use crate::store::checkpoint::Loaded;

use super::claims::read_claims;
use super::journal::{open, Journal};
use super::layout::{claim_file, shard_file, Bound, Layout};
use super::place::{load_shard, write_shard};

/// The search on disk in `dir` (of `space` from `start`), as a search in memory at the same
/// boundary: every shard read into one table (checksums and contents checked as a resume on
/// disk checks them), and the claims the pass after the boundary would have added to the
/// frontier's layer applied, so that the layers are complete. A journal that stands in the
/// middle of a pass (a run killed, not stopped) is refused: the search goes on on disk to the
/// next boundary first.
pub fn load_whole(dir: &Path, space: &StateSpace, start: u64) -> Result<Loaded, Error> {
    let j = open(dir, space, start)?;
    if j.done > 0 || j.finishing {
        return Err(Error::Checkpoint {
            path: dir.to_path_buf(),
            damage: Damage::new(
                DamageKind::Mismatch,
                format!(
                    "the search on disk stands in the middle of layer {}'s pass: go on with it \
                     on disk (--resume {}) to the end of that layer first",
                    j.pass,
                    dir.display()
                ),
            ),
        });
    }
    let table = Table::new(space.states());
    let layout = j.layout;
    for k in 0..layout.shards() {
        load_shard(dir, &table, &layout, k, j.shards[k])?;
    }
    // The frontier's late states hold its code, as the pass would have written it.
    let code = codes_of(space, j.pass).frontier;
    if j.pass == 0 {
        table.visit(start, code);
    }
    let mut frontier = j.frontier;
    let mut late = 0;
    for k in 0..layout.shards() {
        let path = claim_file(dir, j.pass, k, Bound::Behind);
        read_claims(&path, j.behind_now[k], layout.span(k), |part| {
            let found = claim_all_coded(&table, part, frontier.is_some(), code);
            late += found.states;
            if let Some(list) = frontier.as_mut() {
                list.extend(found.marked);
            }
        })?;
    }
    let mut layers = j.layers;
    *layers.last_mut().expect("a journal has a layer") += late;
    let state = SearchState {
        start,
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
        j.shards[k] = (u64::from(depth), sum);
    }
    j.pass = depth;
    j.seconds = seconds;
    // Which shards hold the frontier is not counted: none is skipped in the first pass.
    j.frontier_in = vec![1; layout.shards()];
    j.layers = state.layers;
    j.frontier = state.frontier;
    j.commit(dir)
}

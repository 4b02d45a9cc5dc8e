//! A search on disk stopped at a layer boundary, read into one table in memory: where a search
//! begun on disk goes on once a machine with the memory runs it (`store::resume::load_one`).

use std::path::Path;

use crate::bfs::layer::claim_all_coded;
use crate::bfs::moves::codes_of;
use crate::bfs::table::Table;
use crate::bfs::SearchState;
use crate::error::{Damage, DamageKind, Error};
use crate::index::space::StateSpace;
use crate::store::checkpoint::Loaded;

use super::claims::read_claims;
use super::journal::open;
use super::layout::{claim_file, Bound};
use super::place::load_shard;

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

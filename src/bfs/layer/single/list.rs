//! List expansion: a recorded frontier expanded from its indices.

use crate::bfs::layer::scan::{Found, LayerScan, SingleScan};
use crate::bfs::layer::single::push::Push;

/// Expands the listed frontier states (ascending indices): marks their unseen neighbours
/// `FRONTIER` and settles them.
pub fn expand_list<const COLS: usize>(scan: &SingleScan, frontier: &[u64]) -> Found {
    push_list::<COLS, false>(scan, frontier, |_| {})
}

/// List expansion on a shard: as `expand_list` (the listed states are this shard's), but the
/// neighbours outside the shard (`scan.mine`) are appended to `remote`, for their owners.
pub fn expand_list_shard<const COLS: usize>(
    scan: &SingleScan,
    frontier: &[u64],
    remote: &mut Vec<u64>,
) -> Found {
    push_list::<COLS, true>(scan, frontier, |n| remote.push(n))
}

#[inline(always)]
fn push_list<const COLS: usize, const SHARDED: bool>(
    scan: &SingleScan,
    frontier: &[u64],
    remote: impl FnMut(u64),
) -> Found {
    let LayerScan {
        space,
        tables: moves,
        table,
        codes,
        ..
    } = *scan;
    let mut push = Push::<COLS, SHARDED, _>::new(scan, remote);
    let width = space.width();
    for &i in frontier {
        let (rank, j) = (i / width, (i % width) as usize);
        let base = rank * width;
        // Slides (one to the state itself, a slide the blank cannot make, finds it seen).
        for slide in moves[usize::from(space.blanks()[j])].slides {
            push.target(base + u64::from(slide));
        }
        push.vertical(rank, j);
        table.settle((i / 32) as usize, 1 << (2 * (i % 32)), codes.done);
    }
    push.finish()
}

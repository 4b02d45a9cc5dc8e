//! One analysis run by the ranks of a group, each holding a shard of the table: the same
//! `Analysis`, on every rank, as one machine gives.

use crate::analysis::analyze::{Found, Job};
use crate::analysis::memory;
use crate::analysis::{Analysis, AnalyzeOptions};
use crate::bfs::LayerDone;
use crate::dist::{search_sharded, Budget, Group};
use crate::error::Error;
use crate::puzzle::board::{Board, Cell, Shape};

/// `analyze_from` over the ranks of `group`: every rank calls it with the same arguments, and
/// every rank gets the same analysis. Each rank checks its memory (its share of the table and
/// `budget`'s buffers against `options.max_memory`, per rank, and the memory its node has for
/// each of its ranks) before any rank allocates, and all refuse together.
pub fn analyze_sharded(
    shape: Shape,
    goal: Cell,
    start: Option<&Board>,
    options: AnalyzeOptions,
    group: &dyn Group,
    budget: Budget,
    progress: &(dyn Fn(LayerDone) + Sync),
) -> Result<Analysis, Error> {
    if options.save_table.is_some() || options.checkpoint.is_some() {
        return Err(Error::Argument(
            "--save-table, --checkpoint and --resume do not run across MPI ranks yet: run them \
             in one process"
                .into(),
        ));
    }
    let limit = memory::rank_limit(options.max_memory, group.node_ranks());
    let mine = match limit {
        None => 1,
        Some(l) => memory::ranks_needed(shape, l, budget.bytes()).unwrap_or(u64::MAX),
    };
    let needed = if shape.is_line() { 1 } else { group.max(mine) };
    memory::check_sharded(shape, group.size(), limit, budget.bytes(), needed)?;
    let job = match Job::new(shape, goal, start)? {
        Ok(job) => job,
        Err(line) => return Ok(line),
    };
    let found = search_sharded(
        &job.space,
        job.start_index,
        group,
        options.schedule,
        budget,
        progress,
    )?;
    Ok(job.conclude(Found {
        layers: found.layers,
        antipodes: &found.antipodes,
        seen: found.seen,
        threads: found.threads,
        seconds: found.seconds,
        table_bytes: found.table_bytes,
    }))
}

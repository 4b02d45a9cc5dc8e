//! What a command sets up before it works: its worker threads and its random seed.

use anyhow::Result;

/// `seed`, or one from the clock, which is then printed on stderr (so that the run can be
/// repeated with `--seed`).
pub fn seed_or_clock(seed: Option<u64>) -> u64 {
    seed.unwrap_or_else(|| {
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        eprintln!("seed {seed}");
        seed
    })
}

/// Address space a run needs beside its threads' (the heap's first arenas, buffers, the
/// progress display), and each thread's (its 2 MiB stack, its guard page, its share of the
/// allocator's arenas): under `ulimit -v` with less left, threads fail to start or an
/// allocation aborts the process, so a run is refused before it starts instead.
const BASE_ADDRESS_SPACE: u64 = 12 << 20;
const THREAD_ADDRESS_SPACE: u64 = 2 << 20;

/// Refuses to start `threads` worker threads (all cores if `None`) where the address-space
/// limit leaves too little for them: one line, exit 2, never an abort.
pub fn check_address_space(threads: Option<usize>) -> Result<()> {
    let threads = threads.unwrap_or_else(tilespace::analysis::threads::cores) as u64;
    let needed = BASE_ADDRESS_SPACE + threads * THREAD_ADDRESS_SPACE;
    match tilespace::store::room::address_space_room() {
        Some(left) if left < needed => anyhow::bail!(tilespace::Error::NoRoom {
            what: format!("a run on {}", super::counted(threads, "thread")),
            needed,
            limit: tilespace::error::Limit::Available {
                bytes: left,
                under: "left under the address-space limit (ulimit -v)",
            },
        }),
        _ => Ok(()),
    }
}

/// Why `threads` worker threads could not start, in one line (rayon's error names its cause
/// already: a context above it printed it twice).
fn no_threads(threads: usize, e: rayon::ThreadPoolBuildError) -> anyhow::Error {
    anyhow::anyhow!(
        "cannot start {} ({e}): give fewer --threads, or raise the limits on processes and \
         memory (ulimit -u, ulimit -v)",
        super::counted(threads as u64, "worker thread")
    )
}

/// A worker pool of `threads` threads (all cores if `None`).
pub fn thread_pool(threads: Option<usize>) -> Result<rayon::ThreadPool> {
    let threads = threads.unwrap_or_else(tilespace::analysis::threads::cores);
    check_address_space(Some(threads))?;
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| no_threads(threads, e))
}

/// Sizes rayon's global pool (`threads`, all cores if `None`): the pool of a distributed run,
/// whose search runs on the main thread (the one that calls MPI).
pub fn global_pool(threads: Option<usize>) -> Result<()> {
    check_address_space(threads)?;
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(n) = threads {
        builder = builder.num_threads(n);
    }
    builder.build_global().map_err(|e| {
        no_threads(
            threads.unwrap_or_else(tilespace::analysis::threads::cores),
            e,
        )
    })
}

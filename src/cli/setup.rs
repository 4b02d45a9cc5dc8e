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

/// A worker pool of `threads` threads (all cores if `None`).
pub fn thread_pool(threads: Option<usize>) -> Result<rayon::ThreadPool> {
    let threads =
        threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    use anyhow::Context;
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .context("cannot start the worker threads")
}

/// Sizes rayon's global pool (`threads`, all cores if `None`): the pool of a distributed run,
/// whose search runs on the main thread (the one that calls MPI).
pub fn global_pool(threads: Option<usize>) -> Result<()> {
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(n) = threads {
        builder = builder.num_threads(n);
    }
    use anyhow::Context;
    builder
        .build_global()
        .context("cannot start the worker threads")
}

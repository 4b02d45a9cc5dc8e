//! The stop signals (Ctrl-C, SIGTERM, SIGHUP, SIGUSR1) and the launcher a process was started
//! by (mpirun, mpiexec, srun).

use anyhow::Result;

/// Set once the run has stopped and says how to go on: a signal then arriving (mpirun aborting
/// the job because another rank exited first with the stop status) is not announced.
static SETTLED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// The run has stopped where a signal asked: a later first signal goes unannounced.
pub fn signals_settled() {
    SETTLED.store(true, std::sync::atomic::Ordering::SeqCst);
}

/// A flag that the first stop signal sets, saying `stopping: {what}` (the work then stops
/// where it can without losing anything); a second one stops at once (exit 130). The stop
/// signals: Ctrl-C (SIGINT), SIGTERM and SIGHUP, and SIGUSR1, the one batch schedulers are
/// asked to send before a job's time limit (Slurm's `--signal=USR1@SECONDS`; mpirun forwards
/// it to every rank). One handler per process: the first caller's message stays.
pub fn stop_on_signal(what: &'static str) -> Result<&'static std::sync::atomic::AtomicBool> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM, SIGUSR1};
    use std::sync::atomic::{AtomicBool, Ordering};
    static STOP: AtomicBool = AtomicBool::new(false);
    static HANDLED: std::sync::Once = std::sync::Once::new();
    let mut failed = None;
    HANDLED.call_once(|| {
        match signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP, SIGUSR1]) {
            Ok(mut signals) => {
                std::thread::spawn(move || {
                    for _ in signals.forever() {
                        if STOP.swap(true, Ordering::SeqCst) {
                            // At once: no destructor runs, so the temporary of a save under
                            // way (a checkpoint's) is removed here.
                            tilespace::store::atomic::remove_in_flight();
                            std::process::exit(130);
                        }
                        if launcher_rank().unwrap_or(0) == 0 && !SETTLED.load(Ordering::SeqCst) {
                            eprintln!("tilespace: stopping: {what}");
                        }
                    }
                });
            }
            Err(e) => failed = Some(e),
        }
    });
    match failed {
        Some(e) => Err(anyhow::anyhow!("cannot handle stop signals: {e}")),
        None => Ok(&STOP),
    }
}

/// This process's rank in the job, as its launcher tells it (OpenMPI's mpirun, MPICH's
/// mpiexec, Slurm's srun), read from the environment before MPI is initialised: a signal
/// reaches every rank, and only the first says so.
fn launcher_rank() -> Option<u64> {
    [
        "OMPI_COMM_WORLD_RANK",
        "PMI_RANK",
        "PMIX_RANK",
        "SLURM_PROCID",
    ]
    .iter()
    .find_map(|v| std::env::var(v).ok()?.parse().ok())
}

/// Whether this process was started by an MPI launcher (mpirun, mpiexec, srun with PMI): only
/// then is MPI initialised, so that a plain `tilespace analyze` runs as usual.
#[cfg(feature = "mpi")]
pub fn mpi_launched() -> bool {
    [
        "OMPI_COMM_WORLD_SIZE",
        "PMI_SIZE",
        "PMIX_RANK",
        "PMI_RANK",
        "MPI_LOCALNRANKS",
    ]
    .iter()
    .any(|v| std::env::var_os(v).is_some())
}

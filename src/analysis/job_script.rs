//! The Slurm job script of a plan (`plan --sbatch`): `docs/slurm/analyze.sbatch`, the script CI
//! submits, with its #SBATCH lines set for the plan's ranks, threads, memory and time limit.

use crate::analysis::plan::Plan;
use crate::error::Error;
use crate::units::{duration_words, human_bytes};

/// The job script documented in `docs/slurm/analyze.sbatch`, the one CI submits to Slurm.
pub const JOB_SCRIPT: &str = include_str!("../../docs/slurm/analyze.sbatch");

/// Seconds before the time limit at which the job script asks Slurm for SIGUSR1.
pub const SIGNAL_LEAD: u64 = 600;

/// How a job of a plan is laid out on the cluster.
#[derive(Clone, Debug)]
pub struct SlurmJob {
    /// The job's time limit, in seconds.
    pub time_limit: u64,
    /// Ranks on each node.
    pub ranks_per_node: usize,
    /// Threads of each rank.
    pub threads_per_rank: usize,
    /// Memory of each rank, in bytes (by default a tenth more than the plan's figure, at least
    /// 1 GiB).
    pub mem_per_rank: Option<u64>,
}

/// `JOB_SCRIPT` for plan `p`: its #SBATCH lines set for the ranks, threads, memory and time
/// limit of `job`, its board the plan's, and a header with what the plan expects (the memory a
/// rank needs, the `expected` seconds of a calibration's projection if there is one, and the
/// jobs that time takes).
pub fn job_script(p: &Plan, job: &SlurmJob, expected: Option<f64>) -> Result<String, Error> {
    let limit = job.time_limit;
    if limit <= SIGNAL_LEAD + 60 {
        return Err(Error::Argument(format!(
            "--time-limit {limit} s leaves no time to work: the job is warned {SIGNAL_LEAD} s \
             before its limit"
        )));
    }
    let nodes = p.ranks.div_ceil(job.ranks_per_node);
    if nodes * job.ranks_per_node != p.ranks {
        return Err(Error::Argument(format!(
            "{} ranks do not fill nodes of {} (--ranks-per-node)",
            p.ranks, job.ranks_per_node
        )));
    }
    // A tenth more than the plan's figure, at least 1 GB: the process beyond its buffers.
    let need = job
        .mem_per_rank
        .unwrap_or(((p.rank_bytes * 1.1) as u64).max(1 << 30));
    if (need as f64) < p.rank_bytes {
        return Err(Error::Argument(format!(
            "--mem-per-rank {} is less than a rank of {} on {} ranks needs ({})",
            human_bytes(need as f64),
            p.shape,
            p.ranks,
            human_bytes(p.rank_bytes)
        )));
    }
    let mem_mb = need.div_ceil(1 << 20);
    let threads = job.threads_per_rank;
    let hours = |s: u64| format!("{}:{:02}:{:02}", s / 3600, s % 3600 / 60, s % 60);
    let expected = match expected {
        Some(t) => {
            let jobs = (t / (limit - SIGNAL_LEAD) as f64).ceil().max(1.0) as u64;
            format!(
                "# Expected (the calibration's lower bound, `tilespace plan --calibrate`): {}, so at \
                 least {jobs} job{} of {} ({} requeue{}).",
                duration_words(t),
                if jobs == 1 { "" } else { "s" },
                duration_words(limit as f64),
                jobs - 1,
                if jobs == 2 { "" } else { "s" },
            )
        }
        None => "# No expected time: no calibration (`tilespace plan --calibrate`).".into(),
    };
    let mut out = format!(
        "# `tilespace plan {} --ranks {} --sbatch`: {} states, {} a rank (table {}), {} ranks on \
         {nodes} node{}.\n{expected}\n",
        p.shape,
        p.ranks,
        p.states,
        human_bytes(p.rank_bytes),
        human_bytes(p.shard_bytes as f64),
        p.ranks,
        if nodes == 1 { "" } else { "s" },
    );
    let settings = [
        ("#SBATCH --nodes=", nodes.to_string()),
        ("#SBATCH --ntasks-per-node=", job.ranks_per_node.to_string()),
        ("#SBATCH --cpus-per-task=", threads.to_string()),
        (
            "#SBATCH --mem-per-cpu=",
            format!("{}M", mem_mb.div_ceil(threads as u64)),
        ),
        ("#SBATCH --time=", hours(limit)),
        ("#SBATCH --signal=", format!("USR1@{SIGNAL_LEAD}")),
        ("BOARD=", format!("${{BOARD:-{}}}", p.shape)),
    ];
    let mut lines = JOB_SCRIPT.lines();
    // The header goes after the shebang.
    let shebang = lines.next().unwrap_or_default();
    out = format!("{shebang}\n{out}");
    for line in lines {
        match settings.iter().find(|(start, _)| line.starts_with(start)) {
            Some((start, value)) => {
                // The value replaced; the line's comment kept, in its column if it fits.
                let rest = &line[start.len()..];
                let at = rest.find("  #").map_or(rest.len(), |i| i);
                let comment = rest[at..].trim_start();
                let setting = format!("{start}{value}");
                if comment.is_empty() {
                    out += &format!("{setting}\n");
                } else {
                    let column = (start.len() + at + 2).max(setting.len() + 1);
                    out += &format!("{setting:<column$}{comment}\n");
                }
            }
            None => out += &format!("{line}\n"),
        }
    }
    Ok(out)
}

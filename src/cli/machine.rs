//! What a benchmark record says of the machine: CPU, logical and physical cores, NUMA nodes,
//! memory, kernel, and the load average, read from /proc and /sys (Linux; "unknown" elsewhere).

use serde::Serialize;
use tilespace::analysis::memory;

/// The machine a benchmark ran on.
#[derive(Clone, Debug, Serialize)]
pub struct Machine {
    pub cpu: String,
    /// The clock /proc/cpuinfo gives the first CPU now (`cpu MHz`), in MHz.
    pub cpu_mhz: Option<f64>,
    /// The highest clock cpufreq allows (`cpuinfo_max_freq`), in MHz; None where the kernel
    /// does not say (a VM, mostly).
    pub cpu_max_mhz: Option<f64>,
    /// Hardware threads the OS schedules on (what `--threads` counts).
    pub logical_cores: usize,
    /// Distinct (package, core) pairs in /proc/cpuinfo; None where it does not say.
    pub physical_cores: Option<usize>,
    /// /sys/devices/system/node/node*; None where there is no such folder.
    pub numa_nodes: Option<usize>,
    pub memory_bytes: Option<u64>,
    pub kernel: String,
}

impl Machine {
    pub fn read() -> Machine {
        let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
        let cpu = cpuinfo
            .lines()
            .find(|l| l.starts_with("model name"))
            .and_then(|l| l.split(':').nth(1))
            .map_or("unknown".to_string(), |m| m.trim().to_string());
        let mhz = cpuinfo
            .lines()
            .find(|l| l.starts_with("cpu MHz"))
            .and_then(|l| l.split(':').nth(1))
            .and_then(|m| m.trim().parse::<f64>().ok());
        let max_khz =
            std::fs::read_to_string("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq")
                .ok()
                .and_then(|k| k.trim().parse::<f64>().ok());
        Machine {
            cpu,
            cpu_mhz: mhz.map(|m| (m * 10.0).round() / 10.0),
            cpu_max_mhz: max_khz.map(|k| (k / 100.0).round() / 10.0),
            logical_cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
            physical_cores: physical_cores(&cpuinfo),
            numa_nodes: numa_nodes(),
            memory_bytes: memory::total_bytes(),
            kernel: std::fs::read_to_string("/proc/sys/kernel/osrelease")
                .map_or("unknown".into(), |s| format!("Linux {}", s.trim())),
        }
    }
}

/// Distinct `physical id` and `core id` pairs.
fn physical_cores(cpuinfo: &str) -> Option<usize> {
    let mut cores = std::collections::BTreeSet::new();
    for block in cpuinfo.split("\n\n") {
        let field = |key: &str| {
            block
                .lines()
                .find(|l| l.starts_with(key))
                .and_then(|l| l.split(':').nth(1))
                .map(|v| v.trim().to_string())
        };
        if let (Some(package), Some(core)) = (field("physical id"), field("core id")) {
            cores.insert((package, core));
        }
    }
    (!cores.is_empty()).then_some(cores.len())
}

fn numa_nodes() -> Option<usize> {
    let dir = std::fs::read_dir("/sys/devices/system/node").ok()?;
    let n = dir
        .filter_map(|e| e.ok())
        .filter(|e| {
            let name = e.file_name();
            let name = name.to_string_lossy();
            name.strip_prefix("node")
                .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
        })
        .count();
    (n > 0).then_some(n)
}

/// Cores busy with work (any process's) over `window`, from /proc/stat: what is running now,
/// which the load average, a minute-long decaying mean, reports late.
pub fn busy_cores(window: std::time::Duration, cores: usize) -> Option<f64> {
    let (busy0, total0) = stat_times()?;
    std::thread::sleep(window);
    let (busy1, total1) = stat_times()?;
    let total = total1.checked_sub(total0).filter(|&t| t > 0)?;
    Some(busy1.saturating_sub(busy0) as f64 / total as f64 * cores as f64)
}

/// CPU time, in the kernel's clock ticks: every CPU's busy and total time (/proc/stat), and
/// this process's own (/proc/self/stat: user and system). Two readings tell how many cores
/// other work kept busy between them (`other_busy_cores`).
#[derive(Clone, Copy, Debug)]
pub struct CpuTimes {
    busy: u64,
    total: u64,
    own: u64,
}

impl CpuTimes {
    /// Now, where /proc says.
    pub fn now() -> Option<CpuTimes> {
        let (busy, total) = stat_times()?;
        let own = std::fs::read_to_string("/proc/self/stat").ok()?;
        // The fields after the command's name (which may hold spaces) in parentheses.
        let fields: Vec<&str> = own.rsplit_once(')')?.1.split_whitespace().collect();
        // utime and stime: the 14th and 15th fields, the 12th and 13th after the name.
        let own = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
        Some(CpuTimes { busy, total, own })
    }

    /// Cores kept busy by other processes from `self` to `later`: all the busy time less this
    /// process's, over the time that passed.
    pub fn other_busy_cores(self, later: CpuTimes, cores: usize) -> Option<f64> {
        let total = later.total.checked_sub(self.total).filter(|&t| t > 0)?;
        let busy = later.busy.saturating_sub(self.busy);
        let own = later.own.saturating_sub(self.own);
        Some(busy.saturating_sub(own) as f64 / total as f64 * cores as f64)
    }
}

/// Busy and total ticks of every CPU together (/proc/stat's first line).
fn stat_times() -> Option<(u64, u64)> {
    let text = std::fs::read_to_string("/proc/stat").ok()?;
    let times: Vec<u64> = text
        .lines()
        .next()?
        .split_whitespace()
        .skip(1)
        .take(8)
        .map(|v| v.parse().ok())
        .collect::<Option<_>>()?;
    // user nice system idle iowait irq softirq steal
    let idle = times.get(3)? + times.get(4)?;
    let total: u64 = times.iter().sum();
    Some((total - idle, total))
}

/// The 1-, 5- and 15-minute load averages (/proc/loadavg).
pub fn load_average() -> Option<[f64; 3]> {
    let text = std::fs::read_to_string("/proc/loadavg").ok()?;
    let mut it = text.split_whitespace().map(|v| v.parse::<f64>().ok());
    Some([it.next()??, it.next()??, it.next()??])
}

/// Bytes of the buffer `random_reads` reads: past the caches, so that the reads go to memory.
pub const RANDOM_READ_BYTES: usize = 1 << 30;

/// Random 8-byte reads a second from a buffer of `RANDOM_READ_BYTES`, on one thread, at
/// addresses that do not depend on each other (the engine's prefetched probes): the memory's
/// random-access rate, which on a shared VM drifts from hour to hour, to quote beside times
/// measured in the same run. `None` if the buffer does not fit in the memory available (with
/// room to spare: a gigabyte of headroom) or cannot be had.
pub fn random_reads() -> Option<f64> {
    let words = RANDOM_READ_BYTES / 8;
    tilespace::analysis::memory::room_for(2.0 * RANDOM_READ_BYTES as f64, None).ok()?;
    let mut buf: Vec<u64> = vec![];
    buf.try_reserve_exact(words).ok()?;
    // Written, so that every page is backed by memory (zero pages would all be one page).
    buf.extend(0..words as u64);
    let reads = 1u64 << 24;
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    let mut sum = 0u64;
    let clock = std::time::Instant::now();
    for _ in 0..reads {
        // xorshift64: the next address does not wait for the last read.
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        sum = sum.wrapping_add(buf[(x as usize) & (words - 1)]);
    }
    std::hint::black_box(sum);
    Some(reads as f64 / clock.elapsed().as_secs_f64())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two packages of two cores with two hardware threads each: 8 logical, 4 physical.
    #[test]
    fn physical_cores_count_distinct_package_and_core() {
        let mut text = String::new();
        for (package, core) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
            for _ in 0..2 {
                text +=
                    &format!("processor\t: x\nphysical id\t: {package}\ncore id\t\t: {core}\n\n");
            }
        }
        assert_eq!(physical_cores(&text), Some(4));
        assert_eq!(physical_cores("processor : 0\n"), None);
    }
}

//! What a benchmark record says of the machine (`Machine`): CPU, logical and physical cores,
//! NUMA nodes, memory, kernel; the cores other work keeps busy and the load average; and the
//! memory's random-access rate (`random_reads`). Read through `sysinfo` where it says (on any
//! OS it knows); the highest clock and the NUMA nodes, which it does not, from Linux's /sys
//! (`None` elsewhere).

use serde::Serialize;
use sysinfo::{CpuRefreshKind, Pid, ProcessRefreshKind, ProcessesToUpdate, RefreshKind, System};

use crate::analysis::memory;

/// The machine a benchmark ran on.
#[derive(Clone, Debug, Serialize)]
pub struct Machine {
    /// The first CPU's brand ("unknown" where none is said).
    pub cpu: String,
    /// The clock of the first CPU now, in MHz; None where it is not said.
    pub cpu_mhz: Option<f64>,
    /// The highest clock cpufreq allows (`cpuinfo_max_freq`), in MHz; None where the kernel
    /// does not say (a VM, mostly).
    pub cpu_max_mhz: Option<f64>,
    /// Hardware threads the OS schedules on (what `--threads` counts).
    pub logical_cores: usize,
    /// Physical cores; None where the OS does not say.
    pub physical_cores: Option<usize>,
    /// /sys/devices/system/node/node*; None where there is no such folder.
    pub numa_nodes: Option<usize>,
    /// The memory this process may use (`analysis::memory::total_bytes`).
    pub memory_bytes: Option<u64>,
    /// The kernel's name and version ("Linux 6.1.0-…").
    pub kernel: String,
}

impl Machine {
    /// This machine, now.
    pub fn read() -> Machine {
        let cpus = System::new_with_specifics(
            RefreshKind::nothing().with_cpu(CpuRefreshKind::nothing().with_frequency()),
        );
        let first = cpus.cpus().first();
        let cpu = first
            .map(|c| c.brand().trim().to_string())
            .filter(|b| !b.is_empty());
        let mhz = first.map(|c| c.frequency()).filter(|&f| f > 0);
        let max_khz =
            std::fs::read_to_string("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq")
                .ok()
                .and_then(|k| k.trim().parse::<f64>().ok());
        Machine {
            cpu: cpu.unwrap_or_else(|| "unknown".into()),
            cpu_mhz: mhz.map(|m| m as f64),
            cpu_max_mhz: max_khz.map(|k| (k / 100.0).round() / 10.0),
            logical_cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
            physical_cores: System::physical_core_count(),
            numa_nodes: numa_nodes(),
            memory_bytes: memory::total_bytes(),
            kernel: System::kernel_long_version(),
        }
    }
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

/// Cores busy with work (any process's) over `window` (at least sysinfo's least interval):
/// what is running now, which the load average, a minute-long decaying mean, reports late.
pub fn busy_cores(window: std::time::Duration, cores: usize) -> Option<f64> {
    let mut system = System::new();
    system.refresh_cpu_usage();
    std::thread::sleep(window.max(sysinfo::MINIMUM_CPU_UPDATE_INTERVAL));
    system.refresh_cpu_usage();
    busy(system.global_cpu_usage(), cores)
}

/// All CPUs' use in percent (`global_cpu_usage`) as the cores it keeps busy; None where the OS
/// does not say (no CPU listed, or a use outside 0 to 100).
fn busy(percent: f32, cores: usize) -> Option<f64> {
    (0.0..=100.0)
        .contains(&percent)
        .then(|| f64::from(percent) / 100.0 * cores as f64)
}

/// The machine's CPU use and this process's since a reading (`CpuUse::start`): how many cores
/// other work kept busy between it and `other_busy_cores`.
pub struct CpuUse {
    system: System,
    me: Pid,
    /// This process's CPU time at the reading, in milliseconds.
    own: u64,
    clock: std::time::Instant,
}

impl CpuUse {
    /// A reading now; None where the OS does not tell this process's CPU time.
    pub fn start() -> Option<CpuUse> {
        let me = sysinfo::get_current_pid().ok()?;
        let mut system = System::new();
        let own = Self::own_time(&mut system, me)?;
        // Last: the machine's use is measured from here (a process refresh reads the CPUs too).
        system.refresh_cpu_usage();
        Some(CpuUse {
            system,
            me,
            own,
            clock: std::time::Instant::now(),
        })
    }

    /// This process's CPU time, in milliseconds: all its threads', user and system.
    fn own_time(system: &mut System, me: Pid) -> Option<u64> {
        let kind = ProcessRefreshKind::nothing().with_cpu();
        system.refresh_processes_specifics(ProcessesToUpdate::Some(&[me]), false, kind);
        Some(system.process(me)?.accumulated_cpu_time())
    }

    /// Cores kept busy by other processes since the reading, on average: the cores all the
    /// CPUs' use kept busy, less this process's CPU time over the time that passed.
    pub fn other_busy_cores(mut self, cores: usize) -> Option<f64> {
        self.system.refresh_cpu_usage();
        let seconds = self.clock.elapsed().as_secs_f64();
        let all = busy(self.system.global_cpu_usage(), cores)?;
        let own = Self::own_time(&mut self.system, self.me)?.checked_sub(self.own)?;
        let own = own as f64 / 1000.0 / seconds.max(1e-3);
        Some((all - own).max(0.0))
    }
}

/// The 1-, 5- and 15-minute load averages; None where the OS has none (Windows).
pub fn load_average() -> Option<[f64; 3]> {
    let l = System::load_average();
    cfg!(unix).then_some([l.one, l.five, l.fifteen])
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
    memory::room_for(2.0 * RANDOM_READ_BYTES as f64, None).ok()?;
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

    /// A use in percent is the share of the cores busy; one the OS got wrong is none.
    #[test]
    fn a_cpu_use_is_cores_busy() {
        assert_eq!(busy(50.0, 2), Some(1.0));
        assert_eq!(busy(0.0, 8), Some(0.0));
        assert_eq!(busy(100.0, 4), Some(4.0));
        assert_eq!(busy(f32::NAN, 4), None);
        assert_eq!(busy(100.5, 4), None);
    }

    /// On Linux, what /proc says: the cores this process may run on, a brand and a kernel.
    #[cfg(target_os = "linux")]
    #[test]
    fn this_machine_reads_as_proc_says() {
        let m = Machine::read();
        assert!(m.logical_cores >= 1);
        assert!(m.kernel.starts_with("Linux "), "{}", m.kernel);
        let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap();
        let model = cpuinfo
            .lines()
            .find(|l| l.starts_with("model name"))
            .and_then(|l| l.split(':').nth(1))
            .map(|m| m.trim().to_string());
        if let Some(model) = model {
            assert_eq!(m.cpu, model);
        }
        assert!(m.physical_cores.is_some_and(|p| p >= 1));
    }
}

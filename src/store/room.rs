//! How much memory this process may still take: what decides whether a saved table is kept in
//! memory (`saved`), and what the searches' guards (`analysis::memory`) weigh their needs
//! against.

/// The memory this process may still take, where it is known: the least of `MemAvailable`
/// (/proc/meminfo), what its cgroup's limit leaves (v2 `memory.max`, v1
/// `memory.limit_in_bytes`, less what the cgroup uses), and what the address-space limit
/// (`ulimit -v`) leaves of this process's address space.
pub fn available_bytes() -> Option<u64> {
    available().map(|(bytes, _)| bytes)
}

/// `Ok` if `needed` bytes fit in the memory available now; otherwise the limit they exceed.
pub fn fits(needed: f64) -> Result<(), crate::error::Limit> {
    match available() {
        Some((bytes, under)) if needed > bytes as f64 => {
            Err(crate::error::Limit::Available { bytes, under })
        }
        _ => Ok(()),
    }
}

/// `available_bytes`, with what sets it, for messages.
pub fn available() -> Option<(u64, &'static str)> {
    [
        meminfo("MemAvailable:").map(|b| (b, "available")),
        cgroup_room().map(|b| (b, "left under the cgroup's memory limit")),
        address_space_room().map(|b| (b, "left under the address-space limit (ulimit -v)")),
    ]
    .into_iter()
    .flatten()
    .min_by_key(|&(b, _)| b)
}

/// What the cgroup's memory limit leaves, if it has one (Linux, cgroup v2 or v1).
fn cgroup_room() -> Option<u64> {
    let number =
        |path: &str| -> Option<u64> { std::fs::read_to_string(path).ok()?.trim().parse().ok() };
    let groups = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    for line in groups.lines() {
        let mut parts = line.splitn(3, ':');
        let (Some(_), Some(controllers), Some(path)) = (parts.next(), parts.next(), parts.next())
        else {
            continue;
        };
        let (mount, limit, usage) = if controllers.is_empty() {
            ("/sys/fs/cgroup", "memory.max", "memory.current")
        } else if controllers.split(',').any(|c| c == "memory") {
            (
                "/sys/fs/cgroup/memory",
                "memory.limit_in_bytes",
                "memory.usage_in_bytes",
            )
        } else {
            continue;
        };
        // The cgroup's directory; inside a container's cgroup namespace, the mount's root.
        for dir in [format!("{mount}{path}"), mount.to_string()] {
            if let Some(max) = number(&format!("{dir}/{limit}")) {
                // v1 says "no limit" with a number near 2^63 (v2's "max" does not parse).
                if max >= 1 << 60 {
                    break;
                }
                // Usage counts the page cache; the inactive part of it is reclaimable (the
                // figure `docker stats` shows subtracts it too).
                let usage = number(&format!("{dir}/{usage}")).unwrap_or(0);
                let stat =
                    std::fs::read_to_string(format!("{dir}/memory.stat")).unwrap_or_default();
                let cache = stat
                    .lines()
                    .filter_map(|l| l.split_once(' '))
                    .find(|(k, _)| *k == "total_inactive_file" || *k == "inactive_file")
                    .and_then(|(_, v)| v.trim().parse::<u64>().ok())
                    .unwrap_or(0);
                return Some(max.saturating_sub(usage.saturating_sub(cache)));
            }
        }
    }
    None
}

/// What the address-space limit (`ulimit -v`) leaves of this process's address space, if
/// there is such a limit (Linux).
/// What the address-space limit (`ulimit -v`) leaves of this process's address space, if it
/// has one.
pub fn address_space_room() -> Option<u64> {
    let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = limits
        .lines()
        .find(|l| l.starts_with("Max address space"))?;
    let soft: u64 = line.split_whitespace().nth(3)?.parse().ok()?;
    let used = std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            let l = s.lines().find(|l| l.starts_with("VmSize:"))?.to_string();
            l.split_whitespace().nth(1)?.parse::<u64>().ok()
        })
        .unwrap_or(0)
        * 1024;
    Some(soft.saturating_sub(used))
}

/// `MemTotal` from /proc/meminfo, where there is one.
pub fn total_bytes() -> Option<u64> {
    meminfo("MemTotal:")
}

fn meminfo(key: &str) -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with(key))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

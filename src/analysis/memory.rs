//! What a search needs in memory, and the guard that refuses before allocating.

use crate::bfs::moves::{with_moves, MoveKind, WithMoves};
use crate::bfs::policy::record_cap;
use crate::bfs::policy::LIST_RATIO;
use crate::bfs::Schedule;
use crate::error::{Error, Limit, Needed};
use crate::graph::Graph;
use crate::index::puzzle::Puzzle;
use crate::index::puzzle::MIN_VERTICES;
use crate::puzzle::board::Shape;
use crate::puzzle::count::counts;
use crate::puzzle::metric::Metric;

/// Memory a search needs besides its table and its recorded layers: the threads' buffers and
/// the lists of the tasks running.
pub const WORKING_BYTES: f64 = 64e6;

/// Bytes of a search's recorded layers: the list being expanded and the one being found, each
/// of at most `policy::record_cap` indices of 8 bytes (the default schedule's cap, and the
/// largest layer worth listing on `shape`'s table). On a rank, the share of a list it holds is
/// at most that.
pub fn list_bytes(shape: Shape) -> f64 {
    let words = table_bytes(shape) / 8.0;
    let cap = (Schedule::default().record_cap as f64).min((words / LIST_RATIO as f64).floor());
    16.0 * cap
}

/// What a search of `shape` (or one rank of it) needs besides its table (or its share of it):
/// the recorded layers and the working memory.
pub fn working_bytes(shape: Shape) -> f64 {
    list_bytes(shape) + WORKING_BYTES
}

/// Bytes of the aids the moves of `metric` keep beside the table in one process by default
/// (`MoveKind::aid_bytes`: the multi-tile push's bit a row; none in the single-tile metric).
pub fn rows_bytes(shape: Shape, metric: Metric) -> f64 {
    struct Aids(f64, usize);
    impl WithMoves for Aids {
        type Output = f64;
        fn run<M: MoveKind>(self) -> f64 {
            M::aid_bytes(self.0, self.1)
        }
    }
    with_moves(metric, Aids(table_bytes(shape), shape.rows.max(shape.cols)))
}

/// Bytes of the pushes' deferred claims in one process (`bfs::layer::deferred`), at most.
pub fn deferred_bytes(shape: Shape) -> f64 {
    use crate::bfs::layer::deferred::most_bytes;
    // A table past u64's range (22 cells and more) is budgeted as u64::MAX states.
    let states = counts(shape).reachable.to_string().parse::<u64>();
    most_bytes(states.unwrap_or(u64::MAX / 8)) as f64
}

/// What a search of `shape` in `metric` needs in memory in one process: the table, the
/// recorded layers, the working memory, the deferred claims and, in the multi-tile metric, a
/// bit a row.
pub fn needed_bytes(shape: Shape, metric: Metric) -> f64 {
    table_bytes(shape) + working_bytes(shape) + deferred_bytes(shape) + rows_bytes(shape, metric)
}

/// Bytes of the 2-bit table for `shape`, exact, for any size (as f64 beyond u64's range).
pub fn table_bytes(shape: Shape) -> f64 {
    // (RC)!/2 states at 2 bits: (RC)!/8 bytes.
    let reachable = counts(shape).reachable;
    let words = (reachable + 31u32) / 32u32;
    (words * 8u32)
        .to_string()
        .parse::<f64>()
        .unwrap_or(f64::INFINITY)
}

pub use crate::store::room::{available, available_bytes, total_bytes};

/// A number and the unit after it (`1.5G` gives 1.5 and `G`), or None without a number.
fn number_and_unit(text: &str) -> Option<(f64, &str)> {
    let t = text.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    Some((num.parse().ok()?, unit.trim()))
}

/// Parses `12G`, `512M`, `64k`, `1.5G` or plain bytes (decimal units: 1G = 10^9 bytes).
pub fn parse_size(text: &str) -> Result<u64, String> {
    let (num, unit) =
        number_and_unit(text).ok_or_else(|| format!("'{text}' is not a size like 12G or 512M"))?;
    let scale = match unit.to_ascii_uppercase().trim_end_matches('B') {
        "" => 1.0,
        "K" => 1e3,
        "M" => 1e6,
        "G" => 1e9,
        "T" => 1e12,
        _ => return Err(format!("'{text}' has an unknown unit (use k, M, G or T)")),
    };
    let bytes = num * scale;
    // 2^64 bytes and more (a float cast would saturate to u64::MAX silently).
    if bytes >= u64::MAX as f64 {
        return Err(format!(
            "'{text}' is more memory than a 64-bit machine addresses"
        ));
    }
    Ok(bytes as u64)
}

/// Parses a duration as humantime does (`5m`, `90s`, `1h 30m`, `2d`, `250ms`), or seconds
/// without a unit (`0`, `1.5`); at most a year. A unit given twice (`1h 1h`, which humantime
/// adds up) is refused as the typo it most likely is.
pub fn parse_duration(text: &str) -> Result<std::time::Duration, String> {
    let units: Vec<&str> = text
        .split(|c: char| !c.is_ascii_alphabetic())
        .filter(|u| !u.is_empty())
        .collect();
    if (1..units.len()).any(|i| units[..i].contains(&units[i])) {
        return Err(format!("'{text}' gives a unit twice"));
    }
    let seconds = match text.trim().parse::<f64>() {
        Ok(seconds) => seconds,
        Err(_) => humantime::parse_duration(text.trim())
            .map_err(|e| format!("'{text}' is not a duration like 5m, 90s or 1h ({e})"))?
            .as_secs_f64(),
    };
    // At most a year: longer is "never" in practice, and `from_secs_f64` panics on values past
    // what a Duration holds.
    const YEAR: f64 = 365.0 * 24.0 * 3600.0;
    if !(0.0..=YEAR).contains(&seconds) {
        return Err(format!("'{text}' is out of range (0 to a year)"));
    }
    Ok(std::time::Duration::from_secs_f64(seconds))
}

/// Refuses a board whose search in any of `metrics` (run one after another) would not fit
/// (table and working memory against `--max-memory` and against the memory available now),
/// before anything is allocated.
pub fn check(shape: Shape, metrics: &[Metric], max_memory: Option<u64>) -> Result<(), Error> {
    if shape.is_line() {
        // n explicit boards, not a table.
        return Ok(());
    }
    if shape.cells() > crate::index::rank::MAX_TILES + 1 {
        // Before its size is computed: (RC)! of a 1000x1000 board takes a while.
        return Err(Error::TooLarge {
            shape: shape.to_string(),
            needed: Needed::BeyondIndex,
            limit: Limit::Cells(crate::index::rank::MAX_TILES + 1),
        });
    }
    // At least the single-tile search's needs (the table's own), whatever `metrics` holds.
    let needed = metrics
        .iter()
        .map(|&metric| needed_bytes(shape, metric))
        .fold(needed_bytes(shape, Metric::Single), f64::max);
    room_for(needed, max_memory).map_err(|limit| Error::TooLarge {
        shape: shape.to_string(),
        needed: Needed::Bytes(needed.round() as u64),
        limit,
    })
}

/// Refuses a search of `puzzle` that would not fit under `max_memory` or in the memory
/// available: a board's as `check` says, a graph's by `graph_bytes`.
pub fn check_puzzle(puzzle: &Puzzle, max_memory: Option<u64>) -> Result<(), Error> {
    let Some(graph) = puzzle.graph_of() else {
        return check(puzzle.shape(), &[puzzle.metric()], max_memory);
    };
    let needed = graph_bytes(graph)?;
    room_for(needed as f64, max_memory).map_err(|limit| Error::NoRoom {
        what: format!("the puzzle on a graph of {} vertices", graph.vertices()),
        needed,
        limit,
    })
}

/// The memory a search of the puzzle on `graph` needs: its table (2 bits a state of its
/// index), the recorded layers (two lists of at most the record cap) and the working memory;
/// a graph too small for the index is walked (`walk_bytes`).
pub fn graph_bytes(graph: &Graph) -> Result<u64, Error> {
    let n = graph.vertices();
    if n < MIN_VERTICES {
        return Ok(walk_bytes(n));
    }
    if n > crate::index::rank::MAX_TILES + 1 {
        return Err(Error::Graph(format!(
            "it has {n} vertices; the index covers graphs of {MIN_VERTICES} to {} vertices",
            crate::index::rank::MAX_TILES + 1
        )));
    }
    // The index: the goal's class of a bipartite graph, all n! configurations of another.
    let all = crate::graph::wilson::factorial(n as u64);
    let words = (all / if graph.is_bipartite() { 2 } else { 1 }).div_ceil(32);
    // A layer that may be the last is recorded in the larger of the cap and 2^16.
    let cap = record_cap(Schedule::default().record_cap, words).max(1 << 16);
    Ok(words * 8 + 16 * cap + WORKING_BYTES as u64)
}

/// The memory a walk of a graph on `n` vertices needs (`theorem --graph`, and graphs too small
/// for the index): a bit a configuration, and 4 bytes a configuration for the frontiers: a
/// layer's 4-byte ranks and the next layer's twice while its parts are joined, the widest
/// layer taken as a third of all n! (torus:3x4's widest holds 17% of 12!; its walk peaked at
/// 1.41 GB, under the 2.0 GB this allows).
pub fn walk_bytes(n: usize) -> u64 {
    crate::bfs::walk::bits_bytes(n) * 33
}

/// Refuses a walk of the puzzle on `graph` that the walk does not take (more than 12 vertices)
/// or `walks` such walks at once that would not fit under `max_memory` or in the memory
/// available (`walk_bytes` each).
pub fn check_walk_room(graph: &Graph, walks: u64, max_memory: Option<u64>) -> Result<(), Error> {
    crate::bfs::walk::Configurations::new(graph)?;
    let needed = walk_bytes(graph.vertices()) * walks;
    room_for(needed as f64, max_memory).map_err(|limit| Error::NoRoom {
        what: match walks {
            1 => format!("the puzzle on a graph of {} vertices", graph.vertices()),
            k => format!(
                "walking {k} graphs of {} vertices at once (one a thread)",
                graph.vertices()
            ),
        },
        needed,
        limit,
    })
}

/// Refuses a walk of `tokens`'s arrangements on `graph` that the walk does not number (2^32
/// or more) or that would not fit under `max_memory` or in the memory available: a bit an
/// arrangement and the frontiers, 33 times the bits as for a walk of every configuration.
pub fn check_token_walk_room(
    graph: &Graph,
    tokens: &crate::puzzle::tokens::Tokens,
    max_memory: Option<u64>,
) -> Result<(), Error> {
    let (ranks, _) = crate::bfs::walk::token_ranks(graph, tokens)?;
    let needed = ranks.arrangements().div_ceil(8) * 33;
    room_for(needed as f64, max_memory).map_err(|limit| Error::NoRoom {
        what: format!(
            "the arrangements of {} on a graph of {} vertices",
            tokens.notation(),
            graph.vertices()
        ),
        needed,
        limit,
    })
}

/// `Ok` if `needed` bytes fit under `--max-memory` and in the memory available now; otherwise
/// the limit they exceed.
pub fn room_for(needed: f64, max_memory: Option<u64>) -> Result<(), Limit> {
    if let Some(max) = max_memory {
        if needed > max as f64 {
            return Err(Limit::MaxMemory(max));
        }
    }
    crate::store::room::fits(needed)
}

/// The least number of ranks whose shares of `shape`'s table fit `per_rank` bytes each, beside
/// `buffers` bytes of exchange buffers and the working memory; `None` if no number of ranks does.
pub fn ranks_needed(shape: Shape, per_rank: f64, buffers: u64) -> Option<u64> {
    let room = per_rank - working_bytes(shape) - buffers as f64;
    if room <= 0.0 {
        return None;
    }
    // Each shard may hold up to 32 sequence ranks more than its share (word alignment).
    Some((table_bytes(shape) / room).ceil().max(1.0) as u64)
}

/// What one rank of a sharded search needs: its share of the table, the exchange buffers and
/// the working memory.
pub fn rank_bytes(shape: Shape, ranks: usize, buffers: u64) -> f64 {
    (table_bytes(shape) / ranks as f64).ceil() + buffers as f64 + working_bytes(shape)
}

/// The memory one rank may use: `--max-memory` (per rank), and the memory available on its node
/// shared by the `node_ranks` ranks there. `None` if neither is known.
pub fn rank_limit(max_memory: Option<u64>, node_ranks: usize) -> Option<f64> {
    let avail = available_bytes().map(|a| a as f64 / node_ranks.max(1) as f64);
    match (max_memory.map(|m| m as f64), avail) {
        (Some(m), Some(a)) => Some(m.min(a)),
        (m, a) => m.or(a),
    }
}

/// Refuses a sharded search of `shape` over `ranks` ranks that needs more than `limit` bytes
/// on a rank (`needed_ranks`: the most ranks any rank found necessary), naming how many
/// ranks would do.
pub fn check_sharded(
    shape: Shape,
    ranks: usize,
    limit: Option<f64>,
    buffers: u64,
    needed_ranks: u64,
) -> Result<(), Error> {
    if shape.cells() > crate::index::rank::MAX_TILES + 1 {
        // The shards keep no bits a row (`Place::keeps_rows`).
        return check(shape, &[Metric::Single], None);
    }
    if needed_ranks <= ranks as u64 {
        return Ok(());
    }
    let per_rank = rank_bytes(shape, ranks, buffers);
    Err(Error::TooLarge {
        shape: shape.to_string(),
        needed: Needed::PerRank {
            bytes: per_rank.round() as u64,
            ranks,
        },
        limit: Limit::Rank {
            bytes: limit.map(|l| l as u64),
            ranks_needed: (needed_ranks != u64::MAX).then_some(needed_ranks),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::units::human_bytes;

    #[test]
    fn table_sizes_of_known_boards() {
        let s = |r, c| Shape::new(r, c).unwrap();
        // 12!/2 = 239500800 states at 2 bits: 59875200 bytes.
        assert_eq!(table_bytes(s(3, 4)), 59_875_200.0);
        assert_eq!(human_bytes(table_bytes(s(2, 7))), "10.9 GB");
        assert_eq!(human_bytes(table_bytes(s(4, 4))), "2.6 TB");
        assert_eq!(human_bytes(table_bytes(s(3, 5))), "163.5 GB");
        // Beside the table: two lists of 2^24 indices (268 MB), 64 MB of buffers and 2^25
        // deferred claims of 4 bytes (134 MB); in the multi-tile metric, a bit a row, a bit per
        // C states (every row: at most an eighth of the table). 4x4: 16!/8 bytes of table,
        // 2615.82 GB single-tile, and 326.92 GB of row bits (16!/2 / 4 / 8).
        let needs =
            |shape, metrics: &[Metric], max| check(shape, metrics, max).unwrap_err().to_string();
        let (single, multi, both) = (&[Metric::Single], &[Metric::Multi], &Metric::ALL);
        assert!(needs(s(4, 4), single, None).contains("2.6 TB"));
        assert!(needs(s(4, 4), multi, None).contains("2.9 TB"));
        // 3x5: 15!/8 bytes, 163.93 GB single-tile, and 16.35 GB of row bits (15!/2 / 5 / 8).
        assert!(needs(s(3, 5), single, None).contains("163.9 GB"));
        assert!(needs(s(3, 5), multi, None).contains("180.3 GB"));
        // 2x7: 14!/8 bytes, 11.36 GB single-tile, and 0.78 GB of row bits (14!/2 / 7 / 8); a
        // run of both metrics needs what the larger does.
        let limit = Some(11_000_000_000);
        assert!(needs(s(2, 7), single, limit).contains("11.4 GB"));
        assert!(needs(s(2, 7), multi, limit).contains("12.1 GB"));
        assert!(needs(s(2, 7), both, limit).contains("12.1 GB"));
        assert!(needs(s(2, 7), multi, Some(12_100_000_000)).contains("12.1 GB"));
        // 3x4's lists: 16 bytes for each of 7,484,400 words over 32.
        assert_eq!(list_bytes(s(3, 4)), 16.0 * (7_484_400 / 32) as f64);
        assert!(check(s(3, 3), single, Some(1000))
            .unwrap_err()
            .to_string()
            .contains("--max-memory"));
        assert!(check(s(3, 3), both, None).is_ok());
    }

    #[test]
    fn durations_parse() {
        use std::time::Duration;
        assert_eq!(parse_duration("5m"), Ok(Duration::from_secs(300)));
        assert_eq!(parse_duration("90s"), Ok(Duration::from_secs(90)));
        assert_eq!(parse_duration("0"), Ok(Duration::ZERO));
        assert_eq!(parse_duration("250ms"), Ok(Duration::from_millis(250)));
        assert_eq!(parse_duration("2d"), Ok(Duration::from_secs(2 * 24 * 3600)));
        assert!(parse_duration("soon").is_err());
        assert_eq!(parse_duration("1h 30m"), Ok(Duration::from_secs(5400)));
        assert_eq!(parse_duration("1.5"), Ok(Duration::from_millis(1500)));
        assert!(parse_duration("3x").is_err());
        assert!(parse_duration("1h 1h").is_err());
        assert!(parse_duration("-5").is_err());
        assert!(parse_duration("NaN").is_err());
        assert!(parse_duration("400d").is_err());
    }

    #[test]
    fn sizes_parse() {
        assert_eq!(parse_size("12G"), Ok(12_000_000_000));
        assert_eq!(parse_size("512MB"), Ok(512_000_000));
        assert_eq!(parse_size("1.5g"), Ok(1_500_000_000));
        assert_eq!(parse_size("4096"), Ok(4096));
        assert!(parse_size("lots").is_err());
        assert!(parse_size("3Q").is_err());
    }
}

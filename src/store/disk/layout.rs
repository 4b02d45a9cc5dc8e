//! How a table on disk is cut into shards, and the names of the files in its directory.

use std::path::{Path, PathBuf};

use crate::bfs::shard::Mine;
use crate::error::Error;

/// Contiguous shards of 2^shift states each (the last one shorter): consecutive indices share
/// their tile sequence's leading digits, so most moves stay inside a shard (horizontal ones
/// never leave their sequence, and a vertical one changes only the digits of its window).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// States of the index.
    pub states: u64,
    /// A shard holds 2^shift states.
    pub shift: u32,
}

/// The smallest shard: one word of the table.
pub const MIN_SHIFT: u32 = 5;
/// The largest shard: 2^36 states (16 GiB of table).
pub const MAX_SHIFT: u32 = 36;

impl Layout {
    /// Shards of 2^shift states (`MIN_SHIFT..=MAX_SHIFT`).
    pub fn new(states: u64, shift: u32) -> Layout {
        assert!(
            (MIN_SHIFT..=MAX_SHIFT).contains(&shift),
            "a shard of whole words"
        );
        Layout { states, shift }
    }

    /// The largest shards whose table takes at most `bytes` (at least one word's).
    pub fn within(states: u64, bytes: u64) -> Layout {
        // 2^shift states take 2^(shift-2) bytes.
        let most = 63 - bytes.max(8).leading_zeros() + 2;
        let whole = 64 - states.saturating_sub(1).leading_zeros();
        Layout::new(states, most.min(whole).clamp(MIN_SHIFT, MAX_SHIFT))
    }

    /// How many shards.
    pub fn shards(&self) -> usize {
        self.states.div_ceil(1 << self.shift) as usize
    }

    /// The states of shard `j`.
    pub fn span(&self, j: usize) -> (u64, u64) {
        let lo = (j as u64) << self.shift;
        (lo, (lo + (1 << self.shift)).min(self.states))
    }

    /// The table words of shard `j`.
    pub fn words(&self, j: usize) -> (usize, usize) {
        let (lo, hi) = self.span(j);
        ((lo / 32) as usize, hi.div_ceil(32) as usize)
    }

    /// Bytes of the largest shard's table.
    pub fn shard_bytes(&self) -> u64 {
        let (a, b) = self.words(0);
        (b - a) as u64 * 8
    }

    /// The shard holding `index`.
    #[inline]
    pub fn shard_of(&self, index: u64) -> usize {
        (index >> self.shift) as usize
    }

    /// The ownership test of shard `j`, for the engine's shard scans.
    pub fn mine(&self, j: usize) -> Mine {
        Mine::contiguous(self.shift, self.shards() as u32, j as u32)
    }
}

/// The file of shard `j` as pass `pass` wrote it.
pub fn shard_file(dir: &Path, j: usize, pass: u32) -> PathBuf {
    dir.join(format!("shard-{j}-pass-{pass}.tsw"))
}

/// Which claims a claim file holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// Claims into a shard after the one that made them: applied in the same pass.
    Ahead,
    /// Claims into a shard before the one that made them: applied in the next pass.
    Behind,
}

/// The file of the claims of layer `layer` into shard `j` that are `bound` so.
pub fn claim_file(dir: &Path, layer: u32, j: usize, bound: Bound) -> PathBuf {
    let kind = match bound {
        Bound::Ahead => "ahead",
        Bound::Behind => "behind",
    };
    dir.join(format!("claims-{layer}-{kind}-{j}.tsc"))
}

/// The journal: where the search stands (`journal`).
pub fn journal_file(dir: &Path) -> PathBuf {
    dir.join("search.tsj")
}

/// Whether `name` is a file a search on disk keeps in its directory.
pub fn owns(name: &str) -> bool {
    let ours = |prefix: &str, ext: &str| name.starts_with(prefix) && name.ends_with(ext);
    name == "search.tsj" || ours("shard-", ".tsw") || ours("claims-", ".tsc")
}

/// The names of the files in `dir` (none if it does not exist).
pub(super) fn names(dir: &Path) -> Result<Vec<String>, Error> {
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(vec![]),
        Err(source) => {
            return Err(Error::Read {
                path: dir.to_path_buf(),
                source,
            })
        }
    };
    Ok(entries
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .collect())
}

/// The names of the files of a search on disk in `dir`.
pub(super) fn our_files(dir: &Path) -> Result<Vec<String>, Error> {
    Ok(names(dir)?.into_iter().filter(|n| owns(n)).collect())
}

/// Whether `dir` holds a file of a search on disk (its journal, a shard, a claim file): what
/// `--resume` of it must go on with, even if its journal is gone.
pub fn holds_search(dir: &Path) -> bool {
    our_files(dir).is_ok_and(|f| !f.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Shards cover the index once, in order, on words; `shard_of` and `mine` agree with them;
    /// `within` gives the largest shards that fit.
    #[test]
    fn shards_cover_the_index_and_fit_their_room() {
        for (states, bytes) in [(360, 8), (20160, 64), (20160, 1 << 20), (1_814_400, 4096)] {
            let l = Layout::within(states, bytes);
            assert!(l.shard_bytes() <= bytes.max(8), "{states} in {bytes}");
            if l.shards() > 1 {
                let twice = Layout::new(states, l.shift + 1);
                assert!(
                    twice.shard_bytes() > bytes,
                    "{states} in {bytes}: not the largest"
                );
            }
            let mut next = 0;
            for j in 0..l.shards() {
                let (lo, hi) = l.span(j);
                assert_eq!((lo, lo % 32), (next, 0));
                for i in [lo, (lo + hi) / 2, hi - 1] {
                    assert_eq!(l.shard_of(i), j);
                    assert!((0..l.shards()).all(|k| l.mine(k).holds(i) == (k == j)));
                }
                next = hi;
            }
            assert_eq!(next, states);
        }
    }
}

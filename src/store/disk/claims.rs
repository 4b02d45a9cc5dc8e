//! Claim files: the targets a shard's expansion found in other shards, appended to one file per
//! shard they fall in and read back whole, in order, when that shard is loaded.
//!
//! A file holds little-endian u64 indices. The journal keeps each file's committed length and
//! the checksum of its words: what lies past the length is a crashed pass's and is cut off on
//! resume, and a file whose words do not match the checksum is refused.

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use crate::error::{Damage, Error};
use crate::store::header::Checksum;

use super::journal::Sealed;
use super::layout::{claim_file, Bound, Layout};

/// Words read from a claim file at a time.
pub const READ_WORDS: usize = 1 << 20;

/// The claims of one layer bound for other shards, buffered in memory and appended to their
/// files when the buffers hold `budget` indices.
pub struct Outbox<'a> {
    dir: &'a Path,
    layer: u32,
    /// The shard whose expansion makes these claims.
    from: usize,
    buffers: Vec<Vec<u64>>,
    buffered: usize,
    budget: usize,
    /// Each destination's file as committed before, and as appended since.
    sealed: Vec<Sealed>,
    sums: Vec<Checksum>,
    open: Vec<Option<File>>,
    /// Bytes appended.
    pub written: u64,
}

impl<'a> Outbox<'a> {
    /// The claims of layer `layer` made by shard `from`, with the files as `ahead` and `behind`
    /// hold them (ahead of `from` and behind it).
    pub fn new(
        dir: &'a Path,
        layer: u32,
        from: usize,
        ahead: &[Sealed],
        behind: &[Sealed],
        budget: usize,
    ) -> Outbox<'a> {
        let sealed: Vec<Sealed> = (0..ahead.len())
            .map(|j| if j > from { ahead[j] } else { behind[j] })
            .collect();
        Outbox {
            dir,
            layer,
            from,
            buffers: vec![vec![]; ahead.len()],
            buffered: 0,
            budget: budget.max(1),
            sums: sealed
                .iter()
                .map(|s| match s.words {
                    0 => Checksum::new(),
                    _ => Checksum::resume(s.sum),
                })
                .collect(),
            sealed,
            open: (0..ahead.len()).map(|_| None).collect(),
            written: 0,
        }
    }

    fn path(&self, j: usize) -> PathBuf {
        let bound = if j > self.from {
            Bound::Ahead
        } else {
            Bound::Behind
        };
        claim_file(self.dir, self.layer, j, bound)
    }

    /// Buffers `targets` (none in shard `from`), appending the buffers to their files once they
    /// hold the budget.
    pub fn add(&mut self, targets: &[u64], layout: &Layout) -> Result<(), Error> {
        for &t in targets {
            self.buffers[layout.shard_of(t)].push(t);
        }
        self.buffered += targets.len();
        if self.buffered >= self.budget {
            self.flush()?;
        }
        Ok(())
    }

    /// Appends every buffer to its file.
    pub fn flush(&mut self) -> Result<(), Error> {
        for j in 0..self.buffers.len() {
            if self.buffers[j].is_empty() {
                continue;
            }
            let path = self.path(j);
            let err = |source| Error::Write {
                path: path.clone(),
                source,
            };
            if self.open[j].is_none() {
                let mut f = OpenOptions::new()
                    .create(true)
                    .truncate(false)
                    .write(true)
                    .open(&path)
                    .map_err(err)?;
                f.seek(SeekFrom::Start(self.sealed[j].words * 8))
                    .map_err(err)?;
                self.open[j] = Some(f);
            }
            let mut bytes = Vec::with_capacity(self.buffers[j].len() * 8);
            for &t in &self.buffers[j] {
                self.sums[j].add(t);
                bytes.extend_from_slice(&t.to_le_bytes());
            }
            let f = self.open[j].as_mut().expect("opened above");
            f.write_all(&bytes).map_err(err)?;
            self.sealed[j].words += self.buffers[j].len() as u64;
            self.written += bytes.len() as u64;
            self.buffers[j].clear();
        }
        self.buffered = 0;
        Ok(())
    }

    /// Flushes and syncs every file appended to: their lengths and checksums now, for the
    /// journal (`ahead` and `behind` updated).
    pub fn seal(mut self, ahead: &mut [Sealed], behind: &mut [Sealed]) -> Result<u64, Error> {
        self.flush()?;
        for (j, f) in self.open.iter().enumerate() {
            if let Some(f) = f {
                f.sync_data().map_err(|source| Error::Write {
                    path: self.path(j),
                    source,
                })?;
            }
        }
        for j in 0..self.sealed.len() {
            let s = Sealed {
                words: self.sealed[j].words,
                sum: self.sums[j].value(),
            };
            if j > self.from {
                ahead[j] = s;
            } else if j < self.from {
                behind[j] = s;
            }
        }
        Ok(self.written)
    }
}

/// Feeds the committed words of a claim file to `apply` in parts of `READ_WORDS`, checking
/// each index lies in `span` and the words against the checksum; returns the bytes read.
pub fn read_claims(
    path: &Path,
    sealed: Sealed,
    span: std::ops::Range<u64>,
    mut apply: impl FnMut(&[u64]),
) -> Result<u64, Error> {
    if sealed.words == 0 {
        return Ok(0);
    }
    let damaged = |what: String| Error::Checkpoint {
        path: path.to_path_buf(),
        damage: Damage::new(crate::error::DamageKind::Contents, what),
    };
    let mut f = crate::store::atomic::open_regular(path).map_err(|source| match source.kind() {
        std::io::ErrorKind::NotFound => missing(path),
        _ => Error::Read {
            path: path.to_path_buf(),
            source,
        },
    })?;
    let mut sum = Checksum::new();
    let mut left = sealed.words;
    let most = sealed.words.min(READ_WORDS as u64) as usize;
    let mut bytes = vec![0u8; most * 8];
    let mut words = Vec::with_capacity(most);
    while left > 0 {
        let n = left.min(READ_WORDS as u64) as usize;
        f.read_exact(&mut bytes[..n * 8]).map_err(|source| {
            if source.kind() == std::io::ErrorKind::UnexpectedEof {
                Error::Checkpoint {
                    path: path.to_path_buf(),
                    damage: Damage::length(format!(
                        "shorter than the {} claims the journal commits",
                        sealed.words
                    )),
                }
            } else {
                Error::Read {
                    path: path.to_path_buf(),
                    source,
                }
            }
        })?;
        words.clear();
        words.extend(crate::store::header::le_words(&bytes[..n * 8]));
        for &w in &words {
            sum.add(w);
        }
        if let Some(&w) = words.iter().find(|&&w| !span.contains(&w)) {
            return Err(damaged(format!(
                "a claim of state {w}, outside its shard's {span:?}"
            )));
        }
        apply(&words);
        left -= n as u64;
    }
    if sum.value() != sealed.sum {
        return Err(Error::Checkpoint {
            path: path.to_path_buf(),
            damage: Damage::checksum("its claims do not match the journal's checksum"),
        });
    }
    Ok(sealed.words * 8)
}

/// A claim file the journal commits claims to, not there: the search cannot go on without it.
fn missing(path: &Path) -> Error {
    Error::Checkpoint {
        path: path.to_path_buf(),
        damage: Damage::missing(
            "a claim file the journal names is missing (the search on disk cannot go on without \
             it: remove the directory and start again)",
        ),
    }
}

/// Cuts a claim file to its committed length (what a crashed pass appended past it goes), or
/// removes it if nothing is committed.
pub fn cut(path: &Path, sealed: Sealed) -> Result<(), Error> {
    let err = |source| Error::Write {
        path: path.to_path_buf(),
        source,
    };
    if sealed.words == 0 {
        return match std::fs::remove_file(path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(err(e)),
            _ => Ok(()),
        };
    }
    let f = OpenOptions::new()
        .write(true)
        .open(path)
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => missing(path),
            _ => err(e),
        })?;
    let len = f.metadata().map_err(err)?.len();
    if len < sealed.words * 8 {
        return Err(Error::Checkpoint {
            path: path.to_path_buf(),
            damage: Damage::length(format!(
                "{len} bytes, shorter than the {} claims the journal commits",
                sealed.words
            )),
        });
    }
    f.set_len(sealed.words * 8).map_err(err)?;
    f.sync_data().map_err(err)
}

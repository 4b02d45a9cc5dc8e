//! The library's error type: each variant is one line a user can act on, with the facts a
//! caller matches on (sizes as numbers, paths, the kind of damage) in fields of their own.

use std::fmt;
use std::path::PathBuf;

use crate::units::human_bytes;

/// Everything the library refuses or fails at. `kind` sorts it for a caller (the CLI picks its
/// exit status from it); `Display` is the one line a user reads, `Debug` the fields.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A board size that is malformed, too small, or too large for what was asked.
    #[error("bad board size: {0}")]
    Shape(String),
    /// A board that is malformed: wrong count, a repeated or missing tile, ragged rows.
    #[error("bad board: {0}")]
    Board(String),
    /// A goal blank cell that is malformed or off the board.
    #[error("bad goal blank: {0}")]
    Blank(String),
    /// A graph that is malformed, or not one a sliding puzzle can be played on (disconnected,
    /// a loop, a repeated edge, too many vertices).
    #[error("bad graph: {0}")]
    Graph(String),
    /// Any other argument of a library call out of range or malformed.
    #[error("bad argument: {0}")]
    Argument(String),
    /// The search would not fit: what it needs (table and working memory) and the limit.
    #[error("{shape} is too large to enumerate here: its search needs {needed}, {limit}")]
    TooLarge {
        /// The board, `RxC`.
        shape: String,
        /// What the search needs.
        needed: Needed,
        /// The limit it exceeds.
        limit: Limit,
    },
    /// Other work that would not fit in memory: what it is, the bytes it needs, and the limit.
    #[error("{what} needs about {}, {limit}", human_bytes(*.needed as f64))]
    NoRoom {
        /// The work, as a phrase.
        what: String,
        /// The bytes it needs.
        needed: u64,
        /// The limit it exceeds.
        limit: Limit,
    },
    /// A file that could not be written.
    #[error("cannot write {path}: {source}")]
    Write {
        /// The file.
        path: PathBuf,
        /// The OS's reason.
        source: std::io::Error,
    },
    /// A file that could not be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// The OS's reason.
        source: std::io::Error,
    },
    /// A file read whole whose contents are not what they must be (reports, positions, CSVs).
    #[error("cannot read {path}: {damage}")]
    Damaged {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        damage: Damage,
    },
    /// A saved table that cannot be used: not one, another version, truncated, corrupted.
    #[error("bad table {path}: {damage}")]
    Table {
        /// The table's file.
        path: PathBuf,
        /// What is wrong with it.
        damage: Damage,
    },
    /// A pattern database that cannot be used: not one, another board, damaged.
    #[error("bad pattern database {path}: {damage}")]
    Database {
        /// The database's file or directory.
        path: PathBuf,
        /// What is wrong with it.
        damage: Damage,
    },
    /// Pattern databases whose values exceed the moves a solution has left: not a lower bound,
    /// so no solution found with them can be called optimal (damaged or forged files).
    #[error(
        "the pattern databases are not a lower bound: {0} (damaged or forged: build them again)"
    )]
    Inadmissible(String),
    /// A search gave up at a limit the user set, without an answer.
    #[error("gave up: {0}")]
    GaveUp(String),
    /// Work stopped on request (Ctrl-C) before it finished; nothing was written.
    #[error("stopped on request: {0}")]
    Stopped(String),
    /// A checkpoint that cannot be used: missing, another board or version, damaged.
    #[error("cannot resume from {path}: {damage}")]
    Checkpoint {
        /// The checkpoint's file or directory.
        path: PathBuf,
        /// What is wrong with it.
        damage: Damage,
    },
    /// A run stopped on request after saving a checkpoint of depth `depth` in `dir`.
    #[error("interrupted after depth {depth}: checkpoint saved in {}", dir.display())]
    Interrupted {
        /// The last depth completed and saved.
        depth: u32,
        /// The checkpoint's directory.
        dir: PathBuf,
    },
    /// Another rank of a distributed run failed (it reports why); this one stops with it.
    #[error("another rank failed while {0}")]
    OtherRank(String),
    /// The board is in the other class: no solution exists.
    #[error("not solvable: {0}")]
    Unsolvable(String),
    /// A verification the tool performs on its own results failed: a bug, never bad input.
    #[error("check failed: {0}")]
    Check(String),
}

/// What sort of failure an `Error` is, for a caller deciding what to do (or which status to
/// exit with) without looking at its words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// Input that can be corrected: a board, a size, a goal, an argument.
    Input,
    /// The work does not fit in memory (or in the index).
    Resources,
    /// The operating system refused a read or a write.
    Io,
    /// A file whose contents are wrong: damaged, another kind or version, forged.
    Damaged,
    /// A search gave up at a limit the user set.
    GaveUp,
    /// Work stopped on request (with or without a checkpoint).
    Stopped,
    /// Another rank of a distributed run failed.
    OtherRank,
    /// The board has no solution (the other class).
    Unsolvable,
    /// One of the tool's checks of its own results failed: a bug.
    Bug,
}

impl Error {
    /// What sort of failure this is.
    pub fn kind(&self) -> ErrorKind {
        match self {
            Error::Shape(_)
            | Error::Board(_)
            | Error::Blank(_)
            | Error::Graph(_)
            | Error::Argument(_) => ErrorKind::Input,
            Error::TooLarge { .. } | Error::NoRoom { .. } => ErrorKind::Resources,
            Error::Write { .. } | Error::Read { .. } => ErrorKind::Io,
            Error::Damaged { .. }
            | Error::Table { .. }
            | Error::Database { .. }
            | Error::Checkpoint { .. }
            | Error::Inadmissible(_) => ErrorKind::Damaged,
            Error::GaveUp(_) => ErrorKind::GaveUp,
            Error::Stopped(_) | Error::Interrupted { .. } => ErrorKind::Stopped,
            Error::OtherRank(_) => ErrorKind::OtherRank,
            Error::Unsolvable(_) => ErrorKind::Unsolvable,
            Error::Check(_) => ErrorKind::Bug,
        }
    }

    /// A file whose contents are not what they must be (`Error::Damaged`), for `why`.
    pub fn damaged(path: impl Into<PathBuf>, why: impl Into<Damage>) -> Error {
        Error::Damaged {
            path: path.into(),
            damage: why.into(),
        }
    }

    /// The file this error is about: one read, written or refused.
    pub fn path(&self) -> Option<&std::path::Path> {
        match self {
            Error::Write { path, .. }
            | Error::Read { path, .. }
            | Error::Damaged { path, .. }
            | Error::Table { path, .. }
            | Error::Database { path, .. }
            | Error::Checkpoint { path, .. } => Some(path),
            _ => None,
        }
    }
}

/// What is wrong with a file: its kind, and the words that say where and how.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Damage {
    /// The kind of damage.
    pub kind: DamageKind,
    /// What is wrong, as a clause ("truncated or padded: 12 bytes, expected 16").
    pub what: String,
}

/// The kinds of damage a file can have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum DamageKind {
    /// Not the length its header implies: cut short, padded, or longer than it may be.
    Length,
    /// A checksum does not match what it covers.
    Checksum,
    /// Another kind of file, format version, board or search than the one asked for.
    Mismatch,
    /// Contents that contradict themselves or what they must be.
    Contents,
    /// Not there at all.
    Missing,
}

impl Damage {
    /// Damage of `kind`, described by `what`.
    pub fn new(kind: DamageKind, what: impl Into<String>) -> Damage {
        Damage {
            kind,
            what: what.into(),
        }
    }

    /// A file of the wrong length.
    pub fn length(what: impl Into<String>) -> Damage {
        Damage::new(DamageKind::Length, what)
    }

    /// A checksum that does not match.
    pub fn checksum(what: impl Into<String>) -> Damage {
        Damage::new(DamageKind::Checksum, what)
    }

    /// A file or directory that is not there.
    pub fn missing(what: impl Into<String>) -> Damage {
        Damage::new(DamageKind::Missing, what)
    }

    /// Another kind, version, board or search.
    pub fn mismatch(what: impl Into<String>) -> Damage {
        Damage::new(DamageKind::Mismatch, what)
    }
}

/// Contents that are wrong otherwise (`DamageKind::Contents`).
impl From<String> for Damage {
    fn from(what: String) -> Damage {
        Damage::new(DamageKind::Contents, what)
    }
}

impl From<&str> for Damage {
    fn from(what: &str) -> Damage {
        Damage::from(what.to_string())
    }
}

impl fmt::Display for Damage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.what)
    }
}

/// What a search needs that it cannot have.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Needed {
    /// Bytes of memory.
    Bytes(u64),
    /// Bytes of memory on each of `ranks` ranks.
    PerRank {
        /// Bytes a rank needs.
        bytes: u64,
        /// Ranks of the search.
        ranks: usize,
    },
    /// Bytes of address space on each rank, of which it touches its share.
    AddressSpace(u64),
    /// More states than the index can address.
    BeyondIndex,
}

impl fmt::Display for Needed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Needed::Bytes(b) => f.write_str(&human_bytes(b as f64)),
            Needed::PerRank { bytes, ranks } => {
                write!(f, "{} on each of {ranks} ranks", human_bytes(bytes as f64))
            }
            Needed::AddressSpace(b) => write!(
                f,
                "{:.1} GB of address space on each rank (of which it uses its share)",
                b as f64 * 1e-9
            ),
            Needed::BeyondIndex => f.write_str("more than the index can address"),
        }
    }
}

/// The limit work would exceed.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Limit {
    /// `--max-memory`, in bytes.
    MaxMemory(u64),
    /// The bytes of memory left now, and under what (`available`: the kernel's estimate of
    /// memory available; or the cgroup's or the address-space limit).
    Available {
        /// Bytes left.
        bytes: u64,
        /// What leaves them, as words after "is".
        under: &'static str,
    },
    /// The index handles boards of at most this many cells.
    Cells(usize),
    /// The bytes a rank has (if known), and the ranks the search would need (`None`: a rank
    /// has less than its buffers and working memory, so no number of ranks would do).
    Rank {
        /// Bytes a rank may use.
        bytes: Option<u64>,
        /// The fewest ranks that would do.
        ranks_needed: Option<u64>,
    },
    /// Mapping the table's address space failed, for this reason.
    Mapping(String),
    /// The bytes free on the file system of a directory.
    DiskFree {
        /// Bytes free to this user.
        bytes: u64,
        /// The directory.
        dir: PathBuf,
    },
}

impl fmt::Display for Limit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Limit::MaxMemory(b) => write!(f, "over --max-memory {}", human_bytes(*b as f64)),
            Limit::Available { bytes, under } => {
                write!(f, "but only {} is {under}", human_bytes(*bytes as f64))
            }
            Limit::Cells(n) => write!(f, "and the index handles at most {n} cells"),
            Limit::Rank {
                bytes,
                ranks_needed,
            } => {
                let have = bytes.map_or("too little".into(), |b| human_bytes(b as f64));
                match ranks_needed {
                    None => write!(
                        f,
                        "but a rank has {have}, less than its buffers and working memory"
                    ),
                    Some(n) => write!(f, "but a rank has {have}: it needs at least {n} such ranks"),
                }
            }
            Limit::DiskFree { bytes, dir } => write!(
                f,
                "but only {} is free on the disk of {}",
                human_bytes(*bytes as f64),
                dir.display()
            ),
            Limit::Mapping(why) => write!(
                f,
                "and mapping it failed ({why}; vm.overcommit_memory=2 refuses it)"
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each structured field reads as the words users have always seen, `Debug` shows the
    /// fields, and the kinds sort the variants.
    #[test]
    fn structured_errors_read_as_one_line() {
        let e = Error::TooLarge {
            shape: "4x4".into(),
            needed: Needed::Bytes(653_837_184_000 / 4),
            limit: Limit::MaxMemory(1_000_000_000),
        };
        let line = "4x4 is too large to enumerate here: its search needs 163.5 GB, over \
                    --max-memory 1.0 GB";
        assert_eq!(e.to_string(), line);
        assert!(
            format!("{e:?}").starts_with("TooLarge { shape: \"4x4\""),
            "{e:?}"
        );
        assert_eq!(e.kind(), ErrorKind::Resources);
        let ranks = Error::TooLarge {
            shape: "2x7".into(),
            needed: Needed::PerRank {
                bytes: 2_800_000_000,
                ranks: 4,
            },
            limit: Limit::Rank {
                bytes: Some(1_500_000_000),
                ranks_needed: Some(8),
            },
        };
        assert_eq!(
            ranks.to_string(),
            "2x7 is too large to enumerate here: its search needs 2.8 GB on each of 4 ranks, \
             but a rank has 1.5 GB: it needs at least 8 such ranks"
        );
        let room = Error::NoRoom {
            what: "a sample of 10 boards".into(),
            needed: 2048,
            limit: Limit::Available {
                bytes: 1024,
                under: "available",
            },
        };
        assert_eq!(
            room.to_string(),
            "a sample of 10 boards needs about 2.0 kB, but only 1.0 kB is available"
        );
        let damaged = Error::damaged("r.csv", "line 3: 2 fields");
        assert_eq!(damaged.to_string(), "cannot read r.csv: line 3: 2 fields");
        assert_eq!(damaged.kind(), ErrorKind::Damaged);
        assert_eq!(damaged.path(), Some(std::path::Path::new("r.csv")));
        let Error::Damaged { damage, .. } = damaged else {
            unreachable!()
        };
        assert_eq!(damage.kind, DamageKind::Contents);
        assert_eq!(Error::Check("x".into()).kind(), ErrorKind::Bug);
        assert_eq!(Error::Board("x".into()).kind(), ErrorKind::Input);
    }
}

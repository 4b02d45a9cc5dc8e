//! The library's error type: each variant is one line a user can act on.

use std::path::PathBuf;

/// Everything the library refuses or fails at. `exit_code` maps it for the CLI.
#[derive(Debug, thiserror::Error)]
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
    /// Any other argument out of range or malformed.
    #[error("bad argument: {0}")]
    Argument(String),
    /// The search would not fit: what it needs (table and working memory) and what the limit is.
    #[error("{shape} is too large to enumerate here: its search needs {needed}, {limit}")]
    TooLarge {
        /// The board, `RxC`.
        shape: String,
        /// The memory the search needs, for people (`11.2 GB`).
        needed: String,
        /// The limit and where it comes from, as a clause.
        limit: String,
    },
    /// Other work that would not fit in memory: what it is, what it needs, and the limit.
    #[error("{what} needs about {needed}, {limit}")]
    NoRoom {
        /// The work, as a phrase.
        what: String,
        /// The memory it needs, for people.
        needed: String,
        /// The limit and where it comes from, as a clause.
        limit: String,
    },
    /// A file that could not be written.
    #[error("cannot write {path}: {source}")]
    Write {
        /// The file.
        path: PathBuf,
        /// The OS's reason.
        source: std::io::Error,
    },
    /// A file that could not be read, or whose contents are not what they must be.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// The OS's reason, or what is wrong with the contents (`InvalidData`).
        source: std::io::Error,
    },
    /// A saved table that cannot be used: not one, another version, truncated, corrupted.
    #[error("bad table {path}: {why}")]
    Table {
        /// The table's file.
        path: PathBuf,
        /// What is wrong with it.
        why: String,
    },
    /// A pattern database that cannot be used: not one, another board, damaged.
    #[error("bad pattern database {path}: {why}")]
    Database {
        /// The database's file or directory.
        path: PathBuf,
        /// What is wrong with it.
        why: String,
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
    #[error("cannot resume from {path}: {why}")]
    Checkpoint {
        /// The checkpoint's file or directory.
        path: PathBuf,
        /// What is wrong with it.
        why: String,
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
    /// The board is in the other class: no solution exists (exit status 1, like `solvable`).
    #[error("not solvable: {0}")]
    Unsolvable(String),
    /// A verification the tool performs on its own results failed: a bug, never bad input.
    #[error("check failed: {0}")]
    Check(String),
}

impl Error {
    /// A file whose contents are not what they must be: `Error::Read` of `path`, with `why` as
    /// an `InvalidData` cause.
    pub fn damaged(path: impl Into<PathBuf>, why: impl Into<String>) -> Error {
        Error::Read {
            path: path.into(),
            source: std::io::Error::new(std::io::ErrorKind::InvalidData, why.into()),
        }
    }
}

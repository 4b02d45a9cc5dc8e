//! The library's error type: each variant is one line a user can act on.

use std::path::PathBuf;

/// Everything the library refuses or fails at. `exit_code` maps it for the CLI.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("bad board size: {0}")]
    Shape(String),
    #[error("bad board: {0}")]
    Board(String),
    #[error("bad goal blank: {0}")]
    Blank(String),
    /// Any other argument out of range or malformed.
    #[error("bad argument: {0}")]
    Argument(String),
    /// The search would not fit: what it needs (table and working memory) and what the limit is.
    #[error("{shape} is too large to enumerate here: its search needs {needed}, {limit}")]
    TooLarge {
        shape: String,
        needed: String,
        limit: String,
    },
    /// Other work that would not fit in memory: what it is, what it needs, and the limit.
    #[error("{what} needs about {needed}, {limit}")]
    NoRoom {
        what: String,
        needed: String,
        limit: String,
    },
    #[error("cannot write {path}: {source}")]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot read {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    /// A saved table that cannot be used: not one, another version, truncated, corrupted.
    #[error("bad table {path}: {why}")]
    Table { path: PathBuf, why: String },
    /// A checkpoint that cannot be used: missing, another board or version, damaged.
    #[error("cannot resume from {path}: {why}")]
    Checkpoint { path: PathBuf, why: String },
    /// A run stopped on request after saving a checkpoint of depth `depth` in `dir`.
    #[error("interrupted after depth {depth}: checkpoint saved in {}", dir.display())]
    Interrupted { depth: u32, dir: PathBuf },
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

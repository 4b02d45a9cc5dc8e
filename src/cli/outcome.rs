//! How a command ends: its status (`Done`, or `No` for a negative answer), a stop that says
//! how to go on, and the tool's own refusal of an argument; `main` turns each into the exit
//! status.

/// How a command ended without an error: `Done`, or `No` for a negative answer (a board not
/// solvable, a check that did not hold). `main` turns it into the exit status.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Done,
    No,
}

impl Status {
    /// `Done` if `ok`, else `No`.
    pub fn of(ok: bool) -> Status {
        if ok {
            Status::Done
        } else {
            Status::No
        }
    }
}

/// A run stopped on request after saving a checkpoint: what to type to go on.
#[derive(Debug)]
pub struct Stopped(pub String);

impl std::fmt::Display for Stopped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Stopped {}

/// An argument the command line refuses (exit status 2): a value out of range, options that
/// contradict each other, a file that does not fit what was asked. The library's own
/// refusals are its `Error`s; these are the tool's.
#[derive(Debug, thiserror::Error)]
#[error("bad argument: {0}")]
pub struct BadArgument(pub String);

//! The ranks a distributed run shares, and their agreement on how each step went.

use anyhow::Result;

/// The ranks this process shares a distributed run with: `None` for an ordinary run.
pub type Ranks<'a> = Option<&'a dyn tilespace::dist::Group>;

/// Whether every rank got `Ok` (a collective: every rank must call it at the same point); a
/// rank whose own result was fine gets an error when another's was not, so that all stop.
pub fn agree<T>(ranks: Ranks, result: Result<T>) -> Result<T> {
    let Some(group) = ranks else {
        return result;
    };
    let failed = group.max(u64::from(result.is_err()));
    match result {
        Ok(_) if failed != 0 => Err(anyhow::Error::new(OtherRank)),
        r => r,
    }
}

/// Another rank of a distributed run failed (it says why); this one stops too.
#[derive(Debug)]
pub struct OtherRank;

impl std::fmt::Display for OtherRank {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("another rank failed")
    }
}

impl std::error::Error for OtherRank {}

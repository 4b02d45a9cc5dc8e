//! The agreement on a result every rank of a distributed search must share (`agreed`); the
//! collectives themselves are `bfs::group::Group`, which one process makes with itself.

pub use crate::bfs::group::Group;

/// `result` on every rank if every rank's was `Ok`; otherwise each rank whose own result was
/// fine gets `Error::OtherRank` (naming what the group was `doing`), so that all stop together
/// and none waits for a rank that gave up. A collective: every rank calls it at the same point.
pub fn agreed<T>(
    group: &dyn Group,
    doing: &str,
    result: Result<T, crate::error::Error>,
) -> Result<T, crate::error::Error> {
    let failed = group.max(u64::from(result.is_err()));
    match result {
        Ok(_) if failed != 0 => Err(crate::error::Error::OtherRank(doing.into())),
        r => r,
    }
}

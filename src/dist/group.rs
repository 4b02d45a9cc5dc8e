//! What the ranks of a distributed search do together: the collectives (`Group`), and the
//! agreement on a result every rank must share (`agreed`).

/// The collective operations a distributed search needs. Every rank of the group calls each
/// operation the same number of times, in the same order.
pub trait Group {
    /// This rank, `0..size()`.
    fn rank(&self) -> usize;
    /// How many ranks the group has.
    fn size(&self) -> usize;
    /// Ranks of the group on this rank's machine, sharing its memory.
    fn node_ranks(&self) -> usize;
    /// The sum of `x` over all ranks, on every rank.
    fn sum(&self, x: u64) -> u64;
    /// The maximum of `x` over all ranks, on every rank.
    fn max(&self, x: u64) -> u64;
    /// Sends `out[k]` to rank k, for every k; returns what each rank sent to this one, by rank.
    fn exchange(&self, out: Vec<Vec<u64>>) -> Vec<Vec<u64>>;
    /// `exchange`, what arrives concatenated in rank order (a copy less under MPI).
    fn exchange_flat(&self, out: Vec<Vec<u64>>) -> Vec<u64> {
        self.exchange(out).concat()
    }
    /// Every rank's `mine`, concatenated in rank order, on every rank.
    fn all_gather(&self, mine: Vec<u64>) -> Vec<u64>;
}

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

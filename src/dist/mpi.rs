//! The group of an MPI job (`mpirun -np P tilespace ...`, or Slurm's `srun`): the collectives of
//! `Group` as MPI calls on `MPI_COMM_WORLD`. Only the main thread of each rank calls MPI (the
//! engine's worker threads never do), so MPI is initialised with `MPI_THREAD_FUNNELED`.

use mpi::collective::SystemOperation;
use mpi::datatype::{Partition, PartitionMut};
use mpi::topology::{Communicator, SimpleCommunicator};
use mpi::traits::*;
use mpi::Count;

use super::Group;

/// The ranks of the MPI job this process is part of.
pub struct MpiGroup {
    world: SimpleCommunicator,
    /// Ranks of this job on this node (they share its memory).
    node_ranks: usize,
    _universe: mpi::environment::Universe,
}

impl MpiGroup {
    /// Sends `out[k]` to rank k, for every k: what arrived, concatenated in rank order, and
    /// how much came from each rank.
    fn all_to_all(&self, out: Vec<Vec<u64>>) -> (Vec<u64>, Vec<Count>) {
        let (send_counts, send_displs) = counts_and_displs(out.iter().map(Vec::len));
        let mut recv_counts = vec![0 as Count; self.size()];
        self.world
            .all_to_all_into(&send_counts[..], &mut recv_counts[..]);
        let (recv_counts, recv_displs) = counts_and_displs(recv_counts.iter().map(|&c| c as usize));
        let send: Vec<u64> = out.concat();
        let mut recv = vec![0u64; recv_counts.iter().map(|&c| c as usize).sum()];
        {
            let sent = Partition::new(&send[..], &send_counts[..], &send_displs[..]);
            let mut got = PartitionMut::new(&mut recv[..], &recv_counts[..], &recv_displs[..]);
            self.world.all_to_all_varcount_into(&sent, &mut got);
        }
        (recv, recv_counts)
    }

    /// Initialises MPI; `None` if it cannot be.
    pub fn init() -> Option<MpiGroup> {
        let (universe, _) = mpi::initialize_with_threading(mpi::environment::Threading::Funneled)?;
        let world = universe.world();
        let node_ranks = world.split_shared(world.rank()).size() as usize;
        Some(MpiGroup {
            world,
            node_ranks,
            _universe: universe,
        })
    }

    /// Ends the whole job at once (every rank) with `code`: for a rank that cannot go on, so
    /// that the others do not wait for it forever.
    pub fn abort(&self, code: i32) -> ! {
        self.world.abort(code)
    }
}

/// MPI counts and displacements (`int`) of parts of these lengths.
fn counts_and_displs(lens: impl Iterator<Item = usize>) -> (Vec<Count>, Vec<Count>) {
    let counts: Vec<Count> = lens
        .map(|n| Count::try_from(n).expect("an exchange of fewer than 2^31 indices per rank"))
        .collect();
    let mut displs = Vec::with_capacity(counts.len());
    let mut at: Count = 0;
    for &c in &counts {
        displs.push(at);
        at = at
            .checked_add(c)
            .expect("an exchange of fewer than 2^31 indices in all");
    }
    (counts, displs)
}

impl Group for MpiGroup {
    fn rank(&self) -> usize {
        self.world.rank() as usize
    }

    fn size(&self) -> usize {
        self.world.size() as usize
    }

    fn node_ranks(&self) -> usize {
        self.node_ranks
    }

    fn sum(&self, x: u64) -> u64 {
        let mut total = 0u64;
        self.world
            .all_reduce_into(&x, &mut total, SystemOperation::sum());
        total
    }

    fn max(&self, x: u64) -> u64 {
        let mut most = 0u64;
        self.world
            .all_reduce_into(&x, &mut most, SystemOperation::max());
        most
    }

    fn exchange(&self, out: Vec<Vec<u64>>) -> Vec<Vec<u64>> {
        let (recv, recv_counts) = self.all_to_all(out);
        let mut parts = Vec::with_capacity(self.size());
        let mut rest = &recv[..];
        for &c in &recv_counts {
            let (part, tail) = rest.split_at(c as usize);
            parts.push(part.to_vec());
            rest = tail;
        }
        parts
    }

    fn exchange_flat(&self, out: Vec<Vec<u64>>) -> Vec<u64> {
        self.all_to_all(out).0
    }

    fn all_gather(&self, mine: Vec<u64>) -> Vec<u64> {
        let len = Count::try_from(mine.len()).expect("fewer than 2^31 indices");
        let mut lens = vec![0 as Count; self.size()];
        self.world.all_gather_into(&len, &mut lens[..]);
        let (counts, displs) = counts_and_displs(lens.iter().map(|&c| c as usize));
        let mut all = vec![0u64; counts.iter().map(|&c| c as usize).sum()];
        {
            let mut got = PartitionMut::new(&mut all[..], &counts[..], &displs[..]);
            self.world.all_gather_varcount_into(&mine[..], &mut got);
        }
        all
    }
}

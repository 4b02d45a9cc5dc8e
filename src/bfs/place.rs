//! Where the table of a search lives (`Place`): what the layer loop (`driver`) asks of one
//! table in this process, a rank's shard, or shard files on disk; and the recording of a
//! layer's indices that every place keeps the same way.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

use crate::bfs::group::{Group, Solo};
use crate::bfs::layer::{Codes, Found, Kernels, LayerScan};
use crate::bfs::policy::Way;
use crate::bfs::recount::settle;
use crate::bfs::schedule::Schedule;
use crate::bfs::shard::Mine;
use crate::bfs::state::SearchState;
use crate::error::Error;
use crate::index::space::StateSpace;

/// The disk's work in the pass that completed a layer of a search with its table on disk.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct DiskLayer {
    /// Bytes read: shards and claims.
    pub read: u64,
    /// Bytes written: shards and claims.
    pub written: u64,
    /// Seconds spent reading, writing and syncing (the rest of the pass expanded).
    pub waiting: f64,
}

/// Where the table of a search lives, and how a layer is built there.
///
/// A place may **lag** (`lag`): a table on disk is built a shard at a time, in one pass a
/// layer, and the claims a shard makes into shards the pass has left behind wait for the next
/// pass. Its build from layer d then leaves layer d+1 short of those claims, and the next build
/// (or `finish_last`, after the last layer) adds them: `late` says how many states that added
/// to the layer it expanded. The loop reports a layer once it is complete.
pub trait Place {
    /// The spans of the index whose states this place holds (ascending, starting on words).
    fn spans(&self) -> &[(u64, u64)];
    /// Which neighbours a scan here claims itself (all of them, in one table).
    fn mine(&self) -> Mine;
    /// Whether the scans here may keep aids beside the table (the multi-tile push's bit a row,
    /// `layer::Rows`): one table holding every state, built by the kernels that keep them.
    fn keeps_aids(&self) -> bool;
    /// The places of the search this one is part of, whose collectives the loop makes (a
    /// search in one process is its only place: `Solo`).
    fn group(&self) -> &dyn Group {
        &Solo
    }
    /// The way this place builds a layer the policy chose `way` for: that one, unless the
    /// place has fewer ways (what it returns is what the layer is reported built by).
    fn way(&self, chosen: Way) -> Way {
        chosen
    }
    /// Builds this place's part of the next layer by `way` with `kernels`, from the frontier's
    /// `list` if `way` is `List`: what its tasks found, each kept by `recording` (`keep`).
    fn build<T: ?Sized + Sync>(
        &self,
        scan: &LayerScan<T>,
        kernels: &Kernels<T>,
        way: Way,
        list: Option<&mut Vec<u64>>,
        recording: Option<&Recording>,
        schedule: &Schedule,
    ) -> Result<Vec<Found>, Error>;
    /// How many layers behind the one it builds a build completes: 0 where a build completes
    /// the layer it builds, 1 where it completes the layer it expands (see above).
    fn lag(&self) -> u32 {
        0
    }
    /// States the last build added to the layer it expanded (here; 0 unless the place lags).
    fn late(&self) -> u64 {
        0
    }
    /// What the disk did since the last call (`None` for a table in memory).
    fn disk(&self) -> Option<DiskLayer> {
        None
    }
    /// Settles the last layer of a search whose table tells the frontier by its blank's
    /// `colour` (`codes`: the frontier's), and lists it here: its indices, and the states it
    /// gained (0 unless the place lags). By default, one pass over the table's spans.
    fn finish_last(
        &self,
        space: &StateSpace,
        state: &SearchState,
        colour: usize,
        codes: Codes,
        schedule: &Schedule,
    ) -> Result<(Vec<u64>, u64), Error> {
        settle_unsettled(space, self, state, colour, codes.before, schedule);
        let last = settle(
            space,
            &state.table,
            self.spans(),
            colour,
            codes.done,
            true,
            schedule,
        );
        Ok((last.marked, 0))
    }
}

/// Settles the layer before the frontier (whose blank colour is `colour`) if a pull left it
/// holding `FRONTIER`: settles it with `before`, the code of its depth.
pub fn settle_unsettled<P: Place + ?Sized>(
    space: &StateSpace,
    place: &P,
    state: &SearchState,
    colour: usize,
    before: u64,
    schedule: &Schedule,
) {
    if state.unsettled {
        settle(
            space,
            &state.table,
            place.spans(),
            colour ^ 1,
            before,
            false,
            schedule,
        );
    }
}

/// The recording of a layer's indices at one place, given up once they outgrow the room it was
/// given: its tasks' lists are kept while they fit, so the lists of a layer never take more
/// than the room (and the lists of the tasks running).
pub struct Recording {
    room: AtomicU64,
    given_up: AtomicBool,
}

impl Recording {
    /// Room for `cap` indices.
    pub(crate) fn new(cap: u64) -> Recording {
        Recording {
            room: AtomicU64::new(cap),
            given_up: AtomicBool::new(false),
        }
    }

    /// What a task found, with its list if it still fits (the recording is given up otherwise).
    pub(crate) fn keep(&self, mut found: Found) -> Found {
        let n = found.marked.len() as u64;
        if n > 0
            && (self.given_up.load(Relaxed)
                || self
                    .room
                    .fetch_update(Relaxed, Relaxed, |room| room.checked_sub(n))
                    .is_err())
        {
            self.given_up.store(true, Relaxed);
            found.marked = Vec::new();
        }
        found
    }

    /// Gives the recording up (a place that lost part of the layer's list).
    pub fn give_up(&self) {
        self.given_up.store(true, Relaxed);
    }

    /// Every task's list was kept: the layer is recorded whole here.
    pub fn kept(&self) -> bool {
        !self.given_up.load(Relaxed)
    }
}

/// What a task found, kept by `recording` if the layer is recorded (as it is otherwise: its
/// scan listed nothing).
pub fn keep(recording: Option<&Recording>, found: Found) -> Found {
    match recording {
        Some(r) => r.keep(found),
        None => found,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A recording keeps lists while they fit its room, and once one does not, keeps none.
    #[test]
    fn a_recording_is_given_up_when_its_lists_outgrow_the_room() {
        let found = |n: u64| Found {
            states: n,
            marked: (0..n).collect(),
        };
        let r = Recording::new(10);
        assert_eq!(r.keep(found(4)).marked.len(), 4);
        assert_eq!(r.keep(found(0)).marked.len(), 0);
        assert_eq!(r.keep(found(6)).marked.len(), 6);
        assert!(r.kept());
        let over = r.keep(found(1));
        assert_eq!((over.states, over.marked.len()), (1, 0));
        assert!(!r.kept());
        let r = Recording::new(10);
        assert!(r.keep(found(11)).marked.is_empty());
        // Given up, a list that would fit is dropped too (the layer's list is incomplete).
        assert!(r.keep(found(1)).marked.is_empty());
        assert!(!r.kept());
    }
}

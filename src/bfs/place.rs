//! Where the table of a search lives (`Place`): what the layer loop (`driver`) asks of one
//! table in this process, a rank's shard, or shard files on disk; and the recording of a
//! layer's indices that every place keeps the same way.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::time::Duration;

use crate::bfs::group::{Busy, Group, Solo};
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

/// What a place tells of a layer beside the loop's figures (`LayerDone::place`): its
/// `Place::Telemetry`, the same type for every place.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum PlaceLayer {
    /// One table in this process: nothing.
    #[default]
    Memory,
    /// Across ranks: how busy they were building it.
    Ranks(Busy),
    /// The table on disk: what its pass read and wrote.
    Disk(DiskLayer),
}

impl From<()> for PlaceLayer {
    fn from(_: ()) -> PlaceLayer {
        PlaceLayer::Memory
    }
}

/// A group of one rank is one table.
impl From<Option<Busy>> for PlaceLayer {
    fn from(busy: Option<Busy>) -> PlaceLayer {
        busy.map_or(PlaceLayer::Memory, PlaceLayer::Ranks)
    }
}

impl From<DiskLayer> for PlaceLayer {
    fn from(disk: DiskLayer) -> PlaceLayer {
        PlaceLayer::Disk(disk)
    }
}

/// Where the table of a search lives, and how a layer is built there: what every place does.
/// What only some do is behind their own types: the collectives of ranks (`group`, a `Group`)
/// and the lag of a table on disk (`lagging`, a `Lagging`).
pub trait Place {
    /// What this place tells of a layer it built: nothing in memory (`()`), the ranks' work
    /// (`Option<Busy>`), the disk's reads and writes (`DiskLayer`).
    type Telemetry: Into<PlaceLayer>;
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
    /// What this place tells of the layer it last built, in which it worked `work` (less its
    /// time in collectives). On ranks a collective: every rank calls it at the same point.
    fn telemetry(&self, work: Duration) -> Self::Telemetry;
    /// How this place lags, if it does (a table on disk; see `Lagging`).
    fn lagging(&self) -> Option<&dyn Lagging> {
        None
    }
}

/// A place whose builds complete a layer one pass late: a table on disk is built a shard at a
/// time, in one pass a layer, and the claims a shard makes into shards the pass has left
/// behind wait for the next pass. Its build from layer d then leaves layer d+1 short of those
/// claims, and the next build (or `finish_last`, after the last layer) adds them: `late` says
/// how many states that added to the layer it expanded. The loop reports a layer once it is
/// complete.
pub trait Lagging {
    /// The way it builds a layer the policy chose `chosen` for (what it returns is what the
    /// layer is reported built by).
    fn way(&self, chosen: Way) -> Way;
    /// States the last build added to the layer it expanded.
    fn late(&self) -> u64;
    /// Settles the last layer (its frontier's `codes`, blank `colour`) and lists it, in one
    /// pass: its indices, and the states it gained.
    fn finish_last(
        &self,
        state: &SearchState,
        colour: usize,
        codes: Codes,
        schedule: &Schedule,
    ) -> Result<(Vec<u64>, u64), Error>;
}

/// How many layers behind the one it builds a build at `place` completes: 0 where a build
/// completes the layer it builds, 1 where it completes the layer it expands (`Lagging`).
pub fn lag<P: Place + ?Sized>(place: &P) -> u32 {
    u32::from(place.lagging().is_some())
}

/// Settles the last layer of a search whose table tells the frontier by its blank's `colour`
/// (`codes`: the frontier's), and lists it at `place`: its indices, and the states it gained (0
/// unless the place lags). One pass over the place's spans, or its `Lagging`'s pass.
pub fn finish_last<P: Place + ?Sized>(
    place: &P,
    space: &StateSpace,
    state: &SearchState,
    colour: usize,
    codes: Codes,
    schedule: &Schedule,
) -> Result<(Vec<u64>, u64), Error> {
    if let Some(lagging) = place.lagging() {
        return lagging.finish_last(state, colour, codes, schedule);
    }
    settle_unsettled(space, place, state, colour, codes.before, schedule);
    let last = settle(
        space,
        &state.table,
        place.spans(),
        colour,
        codes.done,
        true,
        schedule,
    );
    Ok((last.marked, 0))
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

//! The layer loop, written once for every place a table can live.
//!
//! `run` takes a search from one layer boundary to the next until the last: it reads the
//! boundary (the frontier's size, the unseen states of the next colour), lets `policy` choose
//! how to build the layer and whether to record it, builds it where the table lives, counts it,
//! tells the caller (`LayerDone`), calls the hook, and at the end settles and lists the last
//! layer. Where the table lives is a `Place`, a type parameter (monomorphised: the hot loops
//! are the place's, called once per task):
//! - `bfs::local::Local`: one table in this process, its tasks on the rayon pool;
//! - `dist::search::Sharded`: this rank's shard of a group's table, layers built in rounds of
//!   exchange with the other ranks;
//! - `store::disk::place::OnDisk`: a table in shard files, one shard in memory at a time, a
//!   layer one pass over them; it lags (see `Place`): a layer is complete one pass late.
//!
//! Every decision the loop makes is taken from global figures (the layer counts, the table's
//! size), so the ranks of a group take the same ones without talking; what a place holds is
//! summed by `Place::total` (a collective on ranks). The metric is a value of the search's
//! index, not a type: the codes of a depth (`Codes::at`, `Codes::multi`), which states are
//! unseen (`ColourCounts`) and the scans (`layer::Kernels`) follow it.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

use crate::bfs::layer::{self, Codes, Found, LayerScan, Rows, Slides, WordPlaces, ANY_COLOUR};
use crate::bfs::policy::{self, Scan, Way};
use crate::bfs::recount::settle;
use crate::bfs::schedule::Schedule;
use crate::bfs::shard::Mine;
use crate::bfs::state::SearchState;
use crate::error::Error;
use crate::index::space::StateSpace;
use crate::puzzle::board::Cell;
use crate::puzzle::metric::Metric;

/// What the engine tells its caller after each layer.
#[derive(Clone, Copy, Debug)]
pub struct LayerDone {
    /// The depth just completed.
    pub depth: u32,
    /// States at this depth.
    pub states: u64,
    /// States at this depth or less.
    pub seen: u64,
    /// How the layer was built (`None` for the start layer).
    pub way: Option<Way>,
    /// Seconds the layer took to build.
    pub seconds: f64,
    /// Across ranks: how busy they were building it (`None` on one machine).
    pub busy: Option<Busy>,
    /// With the table on disk: what its pass read and wrote (`None` in memory).
    pub disk: Option<DiskLayer>,
}

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

/// Seconds the ranks of a distributed search spent working on a layer (its time less the time
/// in collectives): the busiest rank's and the mean over ranks. Every layer waits for its
/// busiest rank, so Σ mean / Σ max over a run is its load balance (1 is perfect).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Busy {
    /// The busiest rank's work, in seconds.
    pub max: f64,
    /// The mean rank's work, in seconds.
    pub mean: f64,
}

/// In the multi-tile metric, a layer is recorded whenever the states unseen before it fit the
/// record cap, or this many on a table whose cap is smaller (the last layer takes every state
/// unseen before it, so it is recorded whenever it fits). A last layer larger than that (none
/// is known: the last layers are small) ends the search in an error.
const LAST_ROOM: u64 = 1 << 16;

/// Called after every layer but the last, with the search's state at that boundary (on ranks,
/// this rank's: it may use the group, which every rank calls at the same point); `Ok(true)`
/// stops the search there.
pub type Hook<'a> = &'a dyn Fn(&SearchState) -> Result<bool, Error>;

/// The caller's side of a search: its granularity, a callback after each layer, and a hook at
/// each layer boundary (checkpoints, stopping).
#[derive(Clone, Copy)]
pub struct Driver<'a> {
    /// How layers are built (list, push or pull) and in what tasks.
    pub schedule: Schedule,
    /// Told of each layer as it completes (on ranks, with the global counts).
    pub progress: &'a (dyn Fn(LayerDone) + Sync),
    /// Called at each layer boundary (checkpoints, stopping); none for a plain search.
    pub hook: Option<Hook<'a>>,
    /// The bytes of the multi-tile push's bits a row (`Rows::budget` of the table if none).
    pub row_bytes: Option<u64>,
}

impl<'a> Driver<'a> {
    /// The default schedule, a progress callback, no hook.
    pub fn new(progress: &'a (dyn Fn(LayerDone) + Sync)) -> Driver<'a> {
        Driver {
            schedule: Schedule::default(),
            progress,
            hook: None,
            row_bytes: None,
        }
    }
}

/// How a search with a hook ended.
#[derive(Debug)]
pub enum Outcome<T> {
    /// The search reached its last layer.
    Done(T),
    /// The hook asked to stop after this depth.
    Stopped {
        /// The last depth completed.
        depth: u32,
    },
}

/// Where the table of a search lives, and how a layer is built there.
///
/// A place may **lag** (`lags`): a table on disk is built a shard at a time, in one pass a
/// layer, and the claims a shard makes into shards the pass has left behind wait for the next
/// pass. Its build from layer d then leaves layer d+1 short of those claims, and the next build
/// (or `finish_last`, after the last layer) adds them: `late` says how many states that added
/// to the layer it expanded. The loop reports a layer once it is complete.
pub trait Place {
    /// The spans of the index whose states this place holds (ascending, starting on words).
    fn spans(&self) -> &[(u64, u64)];
    /// Which neighbours a scan here claims itself (all of them, in one table).
    fn mine(&self) -> Mine;
    /// Whether a multi-tile search here keeps a bit a row (`layer::Rows`): one table holding
    /// every state, built by the kernels that keep them.
    fn keeps_rows(&self) -> bool;
    /// `n`, a count of this place, summed over every place of the search (by default the
    /// place is the search's only one, as are the defaults below).
    fn total(&self, n: u64) -> u64 {
        n
    }
    /// Whether `yes` holds at every place.
    fn everywhere(&self, yes: bool) -> bool {
        yes
    }
    /// Builds this place's part of the next layer by `way`, from the frontier's `list` if
    /// `way` is `List`: what its tasks found, each kept by `recording` (`keep`).
    fn build(
        &self,
        scan: &LayerScan,
        way: Way,
        list: Option<&mut Vec<u64>>,
        recording: Option<&Recording>,
        schedule: &Schedule,
    ) -> Result<Vec<Found>, Error>;
    /// Time spent so far waiting for other places.
    fn waited(&self) -> Duration {
        Duration::ZERO
    }
    /// How busy the places were on a layer this one worked `work` on (`None` for one place).
    fn busy(&self, _work: Duration) -> Option<Busy> {
        None
    }
    /// The indices of `mine` (this place's) and every other place's, ascending.
    fn gather(&self, mut mine: Vec<u64>) -> Vec<u64> {
        use rayon::slice::ParallelSliceMut;
        mine.par_sort_unstable();
        mine
    }
    /// Whether a build completes the layer it expands, not the one it builds (see above).
    fn lags(&self) -> bool {
        false
    }
    /// States the last build added to the layer it expanded (here; 0 unless the place lags).
    fn late(&self) -> u64 {
        0
    }
    /// What the disk did since the last call (`None` for a table in memory).
    fn disk(&self) -> Option<DiskLayer> {
        None
    }
    /// Settles the last layer of a single-tile search, whose blank has `colour`, and lists it
    /// here: its indices, and the states it gained (0 unless the place lags). By default, one
    /// pass over the table's spans.
    fn finish_last(
        &self,
        space: &StateSpace,
        state: &SearchState,
        colour: usize,
        schedule: &Schedule,
    ) -> Result<(Vec<u64>, u64), Error> {
        settle_unsettled(space, self, state, colour, schedule);
        let done = Codes::at(state.depth()).done;
        let last = settle(
            space,
            &state.table,
            self.spans(),
            colour,
            done,
            true,
            schedule,
        );
        Ok((last.marked, 0))
    }
}

/// A search run to its end: its state after the last layer and the last layer's indices.
pub struct Finished {
    /// The state: the layers, and the table (here, its part) with every state settled.
    pub state: SearchState,
    /// Indices of the states at the maximum depth, over all places, ascending.
    pub antipodes: Vec<u64>,
}

/// Runs the search `state` is the boundary of, at `place`, to its end or until the hook stops
/// it, building unrecorded layers as `scan` says. A layer's indices are recorded when it is
/// predicted to have at most `policy::record_cap` states (`policy::record_next`), and given up
/// if it has more at any place.
pub fn run<P: Place>(
    space: &StateSpace,
    place: &P,
    driver: Driver,
    scan: Scan,
    mut state: SearchState,
) -> Result<Outcome<Finished>, Error> {
    let schedule = &driver.schedule;
    let moves = layer::moves(space);
    let places = WordPlaces::new(space);
    let multi = space.metric == Metric::Multi;
    let slides = multi.then(|| Slides::new(space));
    // The bits a row, where the place keeps them (`layer::rows`): made at a push and dropped at
    // a list or a pull, which read none, so that they never share the memory with the lists
    // recorded at the start and the end. Made anew, every bit set, they are valid at any depth
    // (a push only ever clears them).
    let table_bytes = space.states().div_ceil(32) * 8;
    let row_bytes = (multi && place.keeps_rows())
        .then(|| driver.row_bytes.unwrap_or(Rows::budget(table_bytes)));
    let row_share = row_bytes.map(|b| Rows::share(space.states(), space.shape.cols, b));
    let mut rows = None;
    let start_colour = space.shape.colour(space.split(state.start).0);
    let table_words = space.states().div_ceil(32);
    let cap = policy::record_cap(schedule.record_cap, table_words);
    let last_room = cap.max(LAST_ROOM);
    let mut colours = ColourCounts::new(space, start_colour, &state.layers);
    // A lagging place's frontier is complete only after the next build: it is told then.
    let lags = place.lags();
    let mut last_way = None;
    if !lags {
        (driver.progress)(LayerDone {
            depth: state.depth(),
            states: state.layers[state.depth() as usize],
            seen: colours.seen(),
            way: None,
            seconds: 0.0,
            busy: None,
            disk: None,
        });
    }
    let mut ended_early = false;
    loop {
        let clock = Instant::now();
        let waited = place.waited();
        let depth = state.depth();
        let colour = start_colour ^ (depth as usize & 1);
        let unseen = colours.unseen(colour ^ 1);
        if unseen == 0 {
            // Every state of the next layer's colour is seen: this is the last layer.
            break;
        }
        let frontier = state.layers[depth as usize];
        let way = choose(scan, &mut state, unseen, table_words, (multi, row_share));
        if way != Way::Push {
            rows = None;
        } else if rows.is_none() {
            rows = row_bytes.map(|b| Rows::within(space.states(), space.shape.cols, b));
        }
        if way != Way::Pull {
            // Claims are about to write the colour of the layer before this one: if a pull
            // left it holding FRONTIER, it is settled first.
            settle_unsettled(space, place, &state, colour, schedule);
        }
        let before = depth.checked_sub(1).map(|d| state.layers[d as usize]);
        // In the multi-tile metric the last layer must be listed (the table cannot tell it from
        // the layers 3, 6, … before it): a layer that may be the last (it cannot have more
        // states than are unseen) is recorded if those fit (`LAST_ROOM`).
        // A lagging place's `unseen` still counts the states its frontier gains in this build:
        // every multi-tile layer is recorded while it fits, as any may be the last.
        let recording = if multi && (lags || unseen <= last_room) {
            Some(Recording::new(last_room))
        } else {
            policy::record_next(frontier, before, cap).then(|| Recording::new(cap))
        };
        let layer_scan = LayerScan {
            space,
            moves: &moves,
            places: &places,
            slides: slides.as_ref(),
            table: &state.table,
            colour: match (multi, way) {
                (true, _) => ANY_COLOUR,
                (false, Way::Pull) => colour ^ 1,
                (false, _) => colour,
            },
            codes: if multi {
                Codes::multi(depth)
            } else {
                Codes::at(depth)
            },
            record: recording.is_some(),
            mine: place.mine(),
            rows: rows.as_ref(),
        };
        let frontier_list = state.frontier.as_mut();
        let found = place.build(
            &layer_scan,
            way,
            frontier_list,
            recording.as_ref(),
            schedule,
        )?;
        let here: u64 = found.iter().map(|f| f.states).sum();
        let states = place.total(here);
        let busy = place.busy(clock.elapsed().saturating_sub(place.waited() - waited));
        if lags {
            // The frontier's layer is complete now.
            let late = place.total(place.late());
            state.layers[depth as usize] += late;
            colours.add(colour, late);
            let (now, seen) = (state.layers[depth as usize], colours.seen());
            (driver.progress)(LayerDone {
                depth,
                states: now,
                seen,
                // The build before made most of it; after a resume, this one is all there is.
                way: last_way.or(Some(way)),
                seconds: clock.elapsed().as_secs_f64(),
                busy,
                disk: place.disk(),
            });
            if now == 0 {
                return Err(Error::Check(format!(
                    "the search from {} found no state at depth {depth}",
                    state.start
                )));
            }
            if states == 0 && colours.unseen(colour ^ 1) == 0 {
                // The frontier was the last layer (multi-tile: the single-tile loop knows
                // before the build); its list, completed by the build, is the antipodes.
                ended_early = true;
                break;
            }
        }
        last_way = Some(way);
        if states == 0 && !lags {
            // Only a class the moves do not connect could leave unseen states behind, and the
            // engine only sees connected ones (R, C ≥ 2); the frontier has been settled.
            return Err(Error::Check(format!(
                "the search from {} stopped at depth {depth} with {unseen} states unseen",
                state.start
            )));
        }
        // A multi-tile layer settles nothing: its codes are final once written.
        state.unsettled = !multi && way == Way::Pull;
        // Every place recorded the layer whole, or none keeps its part.
        let kept = recording.is_some_and(|r| place.everywhere(r.kept()));
        // The list expanded is freed before the one found is put together.
        state.frontier = None;
        state.frontier = kept.then(|| concatenate(found, here));
        state.layers.push(states);
        colours.add(colour ^ 1, states);
        if !lags {
            (driver.progress)(LayerDone {
                depth: depth + 1,
                states,
                seen: colours.seen(),
                way: Some(way),
                seconds: clock.elapsed().as_secs_f64(),
                busy,
                disk: None,
            });
        }
        if let Some(hook) = driver.hook {
            if hook(&state)? {
                return Ok(Outcome::Stopped { depth: depth + 1 });
            }
        }
    }
    let antipodes = if multi {
        if lags && !ended_early {
            // Every state is seen, the frontier's last late claims with them: it is complete.
            let n = state.layers[state.depth() as usize];
            (driver.progress)(LayerDone {
                depth: state.depth(),
                states: n,
                seen: colours.seen(),
                way: last_way,
                seconds: 0.0,
                busy: None,
                disk: None,
            });
        }
        let Some(last) = state.frontier.take() else {
            return Err(Error::Check(format!(
                "the last layer of the search from {} ({} states) was not listed",
                state.start,
                state.layers[state.depth() as usize]
            )));
        };
        place.gather(last)
    } else {
        let clock = Instant::now();
        let depth = state.depth();
        let colour = start_colour ^ (depth as usize & 1);
        let (last, late) = place.finish_last(space, &state, colour, schedule)?;
        let late = place.total(late);
        if lags {
            state.layers[depth as usize] += late;
            colours.add(colour, late);
            (driver.progress)(LayerDone {
                depth,
                states: state.layers[depth as usize],
                seen: colours.seen(),
                way: last_way,
                seconds: clock.elapsed().as_secs_f64(),
                busy: None,
                disk: place.disk(),
            });
        }
        place.gather(last)
    };
    Ok(Outcome::Done(Finished { state, antipodes }))
}

/// How to build the layer after `state`'s frontier, with `unseen` states of its colour left
/// (`policy::choose`, from global figures only, so that every place makes the same choice);
/// `state` notes whether the layers are pulled from now on. A multi-tile push expands the layers
/// 3, 6, … before the frontier too (they hold its code), unless the place keeps a bit a row.
fn choose(
    scan: Scan,
    state: &mut SearchState,
    unseen: u64,
    table_words: u64,
    (multi, rows): (bool, Option<f64>),
) -> Way {
    let depth = state.depth() as usize;
    let frontier = state.layers[depth];
    // In the rows without a bit (`layer::Rows`), a multi-tile push expands the older layers too.
    let scanned = if multi {
        let older: u64 = state.layers.iter().rev().step_by(3).skip(1).sum();
        frontier + (older as f64 * (1.0 - rows.unwrap_or(0.0))) as u64
    } else {
        frontier
    };
    let (way, pulling) = policy::choose(
        scan,
        policy::Boundary {
            listed: state.frontier.as_ref().map(|_| frontier),
            frontier: scanned,
            push_cost: if multi {
                policy::MULTI_PUSH_COST
            } else {
                policy::PUSH_COST
            },
            unseen,
            table_words,
            pulling: state.pulling,
        },
    );
    state.pulling = pulling;
    way
}

/// Settles the layer before the frontier (whose blank colour is `colour`) if a pull left it
/// holding `FRONTIER`.
fn settle_unsettled<P: Place + ?Sized>(
    space: &StateSpace,
    place: &P,
    state: &SearchState,
    colour: usize,
    schedule: &Schedule,
) {
    if state.unsettled {
        let code = Codes::at(state.depth()).before;
        settle(
            space,
            &state.table,
            place.spans(),
            colour ^ 1,
            code,
            false,
            schedule,
        );
    }
}

/// How many states of each blank colour the class has and the search has seen (in the
/// multi-tile metric, whose layers mix colours, of either colour: `any`).
pub struct ColourCounts {
    /// States whose blank has each colour: m!/2 per cell.
    total: [u64; 2],
    seen: [u64; 2],
    any: bool,
}

impl ColourCounts {
    /// The counts after `layers`, for a search from a state whose blank has `start_colour`.
    pub fn new(space: &StateSpace, start_colour: usize, layers: &[u64]) -> ColourCounts {
        let mut total = [0u64; 2];
        for b in 0..space.shape.cells() {
            total[space.shape.colour(Cell(b))] += space.half;
        }
        // Layer d has the colour of the start's blank flipped d times.
        let mut seen = [0u64; 2];
        for (d, n) in layers.iter().enumerate() {
            seen[start_colour ^ (d & 1)] += n;
        }
        ColourCounts {
            total,
            seen,
            any: space.metric == Metric::Multi,
        }
    }

    /// States of this blank colour not seen yet (of either colour, in the multi-tile metric).
    pub fn unseen(&self, colour: usize) -> u64 {
        if self.any {
            self.total[0] + self.total[1] - self.seen()
        } else {
            self.total[colour] - self.seen[colour]
        }
    }

    /// `states` more of this colour are seen.
    pub fn add(&mut self, colour: usize, states: u64) {
        self.seen[colour] += states;
    }

    /// States seen, of both colours.
    pub fn seen(&self) -> u64 {
        self.seen[0] + self.seen[1]
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
    fn new(cap: u64) -> Recording {
        Recording {
            room: AtomicU64::new(cap),
            given_up: AtomicBool::new(false),
        }
    }

    /// What a task found, with its list if it still fits (the recording is given up otherwise).
    fn keep(&self, mut found: Found) -> Found {
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

/// The lists of `found` in one, of `states` indices, each part freed once copied (so they take
/// the memory of one list and a part, not of two).
fn concatenate(found: Vec<Found>, states: u64) -> Vec<u64> {
    let mut all = Vec::with_capacity(states as usize);
    for part in found {
        all.extend_from_slice(&part.marked);
    }
    all
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

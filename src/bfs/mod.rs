//! The engine: layer-synchronous parallel breadth-first search from a start state over a
//! 2-bit table.
//!
//! Layer d+1 is built from layer d alone (bipartite graph: neighbours of depth d lie at d±1).
//! The table marks the frontier exactly (`table`: `FRONTIER` with the layer's blank colour;
//! expanded states are settled), so no state is expanded twice. Three ways to build a layer,
//! the cheapest chosen each time (`policy`); all give the same layer:
//! - **list**: a layer small enough to have been recorded (its indices kept as it was found) is
//!   expanded from its list, sorted so that consecutive states share their unranking work;
//! - **push**: scan the table for the frontier and claim its unseen neighbours, settling the
//!   frontier as it goes;
//! - **pull**: scan for unseen states of the next colour and mark those with a neighbour in the
//!   frontier. Exact (an unseen state's neighbours are at depth d or more), and its cost is the
//!   number of unseen states (each about as costly as a push expansion), so it takes over once
//!   they are fewer than the frontier. Every task reads the
//!   frontier, so a pull leaves it unsettled: the next pull settles it in each task's own slots
//!   before marking there, and a list or push layer after a pull settles it in one pass first.
//!
//! The search ends when every state of the next layer's colour is seen; the last layer then
//! still holds `FRONTIER`, and one pass lists it (the antipodes) and settles it.
//!
//! The work is split into tasks of consecutive states handed to rayon (`schedule`); the result
//! does not depend on the thread count or the schedule. The engine prints nothing: after each
//! layer it tells its caller what it found, how and in what time (`LayerDone`).

// Engine internals: public for the benches, the fuzz targets and the layers above, hidden
// from the documentation and outside any stability promise.
#[doc(hidden)]
pub mod layer;
#[doc(hidden)]
pub mod policy;
#[doc(hidden)]
pub mod schedule;
#[doc(hidden)]
pub mod shard;
#[doc(hidden)]
pub mod state;
#[doc(hidden)]
pub mod table;

use std::sync::atomic::AtomicBool;
use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering::Relaxed;
use std::time::Instant;

use rayon::prelude::*;

use crate::error::Error;
use crate::index::space::StateSpace;
use crate::puzzle::board::Cell;
use layer::{BlankMoves, Codes, Found, LayerScan, WordPlaces};
use policy::{Scan, Way};
pub use schedule::{Schedule, Task};
pub use state::SearchState;
use table::{Table, FRONTIER};

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

/// The raw outcome of a search: per-depth counts and the states of the last layer.
#[derive(Debug)]
pub struct Search {
    /// States per depth from the start.
    pub layers: Vec<u64>,
    /// Indices of the states at the maximum depth, ascending.
    pub antipodes: Vec<u64>,
    /// Wall time, from allocating the table to the last layer.
    pub seconds: f64,
    /// Threads the search ran on.
    pub threads: usize,
    /// The finished table: every state of the class is settled, holding its depth mod 4 with
    /// its blank's colour (see `table`). Its marked states (`Table::seen`) are counted
    /// independently of the layers.
    pub table: Table,
}

/// Called after every layer but the last, with the search's state at that boundary; `Ok(true)`
/// stops the search there.
pub type Hook<'a> = &'a (dyn Fn(&SearchState) -> Result<bool, Error> + Sync);

/// The caller's side of a search: its granularity, a callback after each layer, and a hook at
/// each layer boundary (checkpoints, stopping).
#[derive(Clone, Copy)]
pub struct Driver<'a> {
    /// How layers are built (list, push or pull) and in what tasks.
    pub schedule: Schedule,
    /// Told of each layer as it completes.
    pub progress: &'a (dyn Fn(LayerDone) + Sync),
    /// Called at each layer boundary (checkpoints, stopping); none for a plain search.
    pub hook: Option<Hook<'a>>,
}

impl<'a> Driver<'a> {
    /// The default schedule, a progress callback, no hook.
    pub fn new(progress: &'a (dyn Fn(LayerDone) + Sync)) -> Driver<'a> {
        Driver {
            schedule: Schedule::default(),
            progress,
            hook: None,
        }
    }
}

/// How a search with a hook ended.
pub enum Outcome {
    /// The search reached its last layer.
    Done(Search),
    /// The hook asked to stop after this depth.
    Stopped {
        /// The last depth completed.
        depth: u32,
    },
}

/// Runs the BFS from the state `start` (an index of `space`) on the current rayon pool: the
/// layers are its distances. Continues from `resume` if given (its start must be `start`).
pub fn search(
    space: &StateSpace,
    start: u64,
    driver: Driver,
    resume: Option<SearchState>,
) -> Result<Outcome, Error> {
    search_with(space, start, driver, Scan::Auto, resume)
}

/// `search` without a hook, which always runs to the end.
pub fn search_from(
    space: &StateSpace,
    start: u64,
    schedule: Schedule,
    progress: &(dyn Fn(LayerDone) + Sync),
) -> Result<Search, Error> {
    let driver = Driver {
        schedule,
        progress,
        hook: None,
    };
    match search_with(space, start, driver, Scan::Auto, None)? {
        Outcome::Done(s) => Ok(s),
        Outcome::Stopped { .. } => unreachable!("without a hook a search never stops"),
    }
}

/// How many states of each blank colour the class has and the search has seen.
pub struct ColourCounts {
    /// States whose blank has each colour: m!/2 per cell.
    total: [u64; 2],
    seen: [u64; 2],
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
        ColourCounts { total, seen }
    }

    /// States of this blank colour not seen yet.
    pub fn unseen(&self, colour: usize) -> u64 {
        self.total[colour] - self.seen[colour]
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

/// One BFS from `start`, or from where `resume` left it, building unrecorded layers as `scan`
/// says. A layer's indices are recorded when it is predicted to have at most
/// `policy::record_cap` states (`policy::record_next`), and given up if it has more.
fn search_with(
    space: &StateSpace,
    start: u64,
    driver: Driver,
    scan: Scan,
    resume: Option<SearchState>,
) -> Result<Outcome, Error> {
    let clock = Instant::now();
    let moves = layer::moves(space);
    let places = layer::WordPlaces::new(space);
    let mut state = resume.unwrap_or_else(|| SearchState::begin(space, start));
    let start_colour = space.shape.colour(space.split(start).0);
    let mut colours = ColourCounts::new(space, start_colour, &state.layers);
    (driver.progress)(LayerDone {
        depth: state.depth(),
        states: state.layers[state.depth() as usize],
        seen: state.layers.iter().sum(),
        way: None,
        seconds: 0.0,
        busy: None,
    });
    loop {
        let layer_clock = Instant::now();
        let depth = state.depth();
        let next_colour = start_colour ^ (depth as usize & 1) ^ 1;
        let unseen = colours.unseen(next_colour);
        if unseen == 0 {
            // Every state of the next layer's colour is seen: this is the last layer.
            break;
        }
        let frontier = state.layers[depth as usize];
        let (way, pulling) = policy::choose(
            scan,
            policy::Boundary {
                listed: state.frontier.as_ref().map(|f| f.len() as u64),
                frontier,
                unseen,
                table_words: state.table.bytes() / 8,
                pulling: state.pulling,
            },
        );
        state.pulling = pulling;
        let cap = policy::record_cap(driver.schedule.record_cap, state.table.bytes() / 8);
        let before = depth.checked_sub(1).map(|d| state.layers[d as usize]);
        let recording = policy::record_next(frontier, before, cap).then(|| Recording::new(cap));
        let found = build_layer(
            space,
            (&moves, &places),
            &mut state,
            way,
            recording.as_ref(),
            &driver.schedule,
        );
        let states: u64 = found.iter().map(|r| r.states).sum();
        if states == 0 {
            // Only a class the moves do not connect could leave unseen states behind, and the
            // engine only sees connected ones (R, C ≥ 2); the frontier has been settled.
            return Err(Error::Check(format!(
                "the search from {start} stopped at depth {depth} with {unseen} states unseen"
            )));
        }
        state.unsettled = way == Way::Pull;
        // The list expanded is freed before the one found is put together.
        state.frontier = None;
        state.frontier = recording
            .filter(|r| r.kept())
            .map(|_| concatenate(found, states));
        state.layers.push(states);
        colours.add(next_colour, states);
        (driver.progress)(LayerDone {
            depth: depth + 1,
            states,
            seen: colours.seen(),
            way: Some(way),
            seconds: layer_clock.elapsed().as_secs_f64(),
            busy: None,
        });
        if let Some(hook) = driver.hook {
            if hook(&state)? {
                return Ok(Outcome::Stopped { depth: depth + 1 });
            }
        }
    }
    let (layers, antipodes, table) = finish(space, state, start_colour, &driver.schedule);
    Ok(Outcome::Done(Search {
        layers,
        antipodes,
        seconds: clock.elapsed().as_secs_f64(),
        threads: rayon::current_num_threads(),
        table,
    }))
}

/// Builds the layer after `state`'s last one, by `way`: what each task found.
fn build_layer(
    space: &StateSpace,
    (moves, places): (&[BlankMoves], &WordPlaces),
    state: &mut SearchState,
    way: Way,
    recording: Option<&Recording>,
    schedule: &Schedule,
) -> Vec<Found> {
    let depth = state.depth();
    let colour = space.shape.colour(space.split(state.start).0) ^ (depth as usize & 1);
    let codes = Codes::at(depth);
    if way != Way::Pull {
        // Claims are about to write the colour of the layer before this one: if a pull left it
        // holding FRONTIER, it is settled first.
        settle_unsettled(space, state, colour, schedule);
    }
    let scan = LayerScan {
        space,
        moves,
        places,
        table: &state.table,
        colour: if way == Way::Pull { colour ^ 1 } else { colour },
        codes,
        record: recording.is_some(),
        mine: shard::Mine::all(),
    };
    let keep = |found: Found| match recording {
        Some(r) => r.keep(found),
        None => found,
    };
    match (way, &mut state.frontier) {
        (Way::List, Some(frontier)) => {
            frontier.par_sort_unstable();
            let expand = lister(space.shape.cols);
            frontier
                .par_chunks(schedule.list_chunk.max(1))
                .map(|part| keep(expand(&scan, part)))
                .collect()
        }
        _ => {
            let expand = expander(space.shape.cols, way == Way::Pull);
            schedule.each_task_scattered(space, |task| keep(expand(&scan, task)))
        }
    }
}

/// The recording of a layer's indices, given up once they outgrow the room it was given: its
/// tasks' lists are kept while they fit, so the lists of a layer never take more than the
/// room (and the lists of the tasks running).
struct Recording {
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

    /// Every task's list was kept: the layer is recorded whole.
    fn kept(&self) -> bool {
        !self.given_up.load(Relaxed)
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

/// Settles the last layer, which still holds `FRONTIER` (and the one before it, after a pull),
/// listing the last: the layer counts, the antipodes (ascending) and the finished table.
fn finish(
    space: &StateSpace,
    state: SearchState,
    start_colour: usize,
    schedule: &Schedule,
) -> (Vec<u64>, Vec<u64>, Table) {
    let depth = state.depth();
    let colour = start_colour ^ (depth as usize & 1);
    let codes = Codes::at(depth);
    settle_unsettled(space, &state, colour, schedule);
    let all = [(0, space.states())];
    let last = settle(
        space,
        &state.table,
        &all,
        colour,
        codes.done,
        true,
        schedule,
    );
    debug_assert_eq!(last.states, state.layers[depth as usize]);
    let mut antipodes = last.marked;
    antipodes.par_sort_unstable();
    (state.layers, antipodes, state.table)
}

/// Settles the layer before the frontier (whose blank colour is `colour`) if a pull left it
/// holding `FRONTIER`.
fn settle_unsettled(space: &StateSpace, state: &SearchState, colour: usize, schedule: &Schedule) {
    if state.unsettled {
        let code = Codes::at(state.depth()).before;
        let all = [(0, space.states())];
        settle(space, &state.table, &all, colour ^ 1, code, false, schedule);
    }
}

/// Settles every state of `spans` (the table, or a rank's blocks) holding `FRONTIER` whose
/// blank has colour `colour` with `code`; counts them and, if `record`, lists them (ascending).
pub fn settle(
    space: &StateSpace,
    table: &Table,
    spans: &[(u64, u64)],
    colour: usize,
    code: u64,
    record: bool,
    schedule: &Schedule,
) -> Found {
    let places = layer::WordPlaces::new(space);
    let parts = schedule.each_task_of(spans, |task| {
        layer::settle_scan(space, &places, table, task, colour, code, record)
    });
    Found {
        states: parts.iter().map(|p| p.states).sum(),
        marked: parts.into_iter().flat_map(|p| p.marked).collect(),
    }
}

/// The states of `spans` (the table, or a rank's blocks) of a finished table at each depth
/// mod 4, read from their codes and blank colours (`table::depth_mod4`) for a search from a
/// state whose blank has `start_colour`: an independent recount of the layers (see
/// `residues_agree`).
pub fn residues(
    space: &StateSpace,
    table: &Table,
    spans: &[(u64, u64)],
    start_colour: usize,
    schedule: &Schedule,
) -> [u64; 4] {
    let recount = Recount::new(space, start_colour);
    let parts = schedule.each_task_of(spans, |task| {
        let mut tally = [0u64; 4];
        // Each word is counted by the task holding its first slot (spans start on words).
        let words = task.lo.div_ceil(32)..task.hi.div_ceil(32);
        let mut place = recount.place(words.start);
        let words = table.span(words.start as usize, words.end as usize);
        recount.add_all(
            &mut place,
            words.iter().map(|w| w.load(Relaxed)),
            &mut tally,
        );
        tally
    });
    let tally = parts.iter().fold([0; 4], |mut all, t| {
        (0..4).for_each(|k| all[k] += t[k]);
        all
    });
    recount.residues(tally)
}

/// The recount of `residues`, word by word (for words read from a file, too), following the
/// place of each word's first slot in its rank (`Recount::place`, then `Recount::add`)
/// instead of dividing for it, with a tally of fixed slots and `popcnt` (`add_all`): a
/// division a word made the recount of 2x7 a noticeable pause after its last layer.
pub struct Recount {
    width: u64,
    colour0: Vec<u64>,
    /// The place of the next word's first slot, by the place of this word's.
    next: Vec<u32>,
    start_colour: usize,
}

impl Recount {
    /// For a search of `space` from a state whose blank has `start_colour`.
    pub fn new(space: &StateSpace, start_colour: usize) -> Recount {
        let width = space.width();
        Recount {
            width,
            colour0: layer::colour_masks(space, 0),
            next: (0..width).map(|q| ((q + 32) % width) as u32).collect(),
            start_colour,
        }
    }

    /// The place of word `w`'s first slot in its rank: the `place` to add word `w` at.
    pub fn place(&self, w: u64) -> usize {
        ((w * 32) % self.width) as usize
    }

    /// Adds the settled states of the word (value `word`) whose first slot is at `place` in its
    /// rank to `tally`, by code and blank colour (`Recount::residues` turns a tally into
    /// depths mod 4, which depend on the start's colour), and moves `place` on to the next
    /// word's.
    #[inline]
    pub fn add(&self, place: &mut usize, word: u64, tally: &mut [u64; 4]) {
        let colour0 = self.colour0[*place];
        *place = self.next[*place] as usize;
        let [two, three] = [2, 3].map(|code| Table::matching(word, code));
        let colour1 = !colour0 & table::LOW_BITS;
        tally[0] += u64::from((two & colour0).count_ones());
        tally[1] += u64::from((two & colour1).count_ones());
        tally[2] += u64::from((three & colour0).count_ones());
        tally[3] += u64::from((three & colour1).count_ones());
    }

    /// `add` for each of `words` in turn, with `popcnt` where the CPU has it (checked at run
    /// time; the default x86-64 target counts a word's bits in about 15 instructions, and the
    /// recount took 1.33% of 2x6's run at 1 thread without it, 0.34% with it).
    pub fn add_all(
        &self,
        place: &mut usize,
        words: impl Iterator<Item = u64>,
        tally: &mut [u64; 4],
    ) {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("popcnt") {
            // SAFETY: this CPU has the instruction the function is compiled to use.
            return unsafe { self.add_all_popcnt(place, words, tally) };
        }
        words.for_each(|w| self.add(place, w, tally));
    }

    /// `add_all` compiled with `popcnt`.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    fn add_all_popcnt(
        &self,
        place: &mut usize,
        words: impl Iterator<Item = u64>,
        tally: &mut [u64; 4],
    ) {
        let (mut p, mut t) = (*place, *tally);
        for w in words {
            self.add(&mut p, w, &mut t);
        }
        (*place, *tally) = (p, t);
    }

    /// The states of a tally (`add`) by depth mod 4.
    pub fn residues(&self, tally: [u64; 4]) -> [u64; 4] {
        let mut counts = [0u64; 4];
        for (k, n) in tally.into_iter().enumerate() {
            let (code, colour) = (2 + (k >> 1) as u64, k & 1);
            let parity = (colour ^ self.start_colour) as u32;
            counts[table::depth_mod4(code, parity) as usize] += n;
        }
        counts
    }
}

/// Whether the counts at each depth mod 4 equal the layers' (`residues`).
pub fn residues_agree(layers: &[u64], residues: [u64; 4]) -> bool {
    let mut want = [0u64; 4];
    for (d, n) in layers.iter().enumerate() {
        want[d % 4] += n;
    }
    want == residues
}

/// A scan of one task of the table: push or pull.
type Expand = fn(&LayerScan, Task) -> Found;

/// A push on a shard: the targets in other shards are appended to the vector.
pub type ExpandShard = fn(&LayerScan, Task, &mut Vec<u64>) -> Found;

/// A pull on a shard: (state, neighbour) queries for other shards are appended to the vector.
pub type PullShard = fn(&LayerScan, Task, &mut Vec<(u64, u64)>) -> Found;

/// A list expansion on a shard: the targets in other shards are appended to the vector.
pub type ListShard = fn(&LayerScan, &[u64], &mut Vec<u64>) -> Found;

/// The shard list expansion for this column count.
pub fn shard_lister(cols: usize) -> ListShard {
    match cols {
        2 => layer::expand_list_shard::<2>,
        3 => layer::expand_list_shard::<3>,
        4 => layer::expand_list_shard::<4>,
        _ => layer::expand_list_shard::<0>,
    }
}

/// The shard pull for this column count.
pub fn shard_puller(cols: usize) -> PullShard {
    match cols {
        2 => layer::pull_shard::<2>,
        3 => layer::pull_shard::<3>,
        4 => layer::pull_shard::<4>,
        _ => layer::pull_shard::<0>,
    }
}

/// The shard push for this column count.
pub fn shard_expander(cols: usize) -> ExpandShard {
    match cols {
        2 => layer::expand_shard::<2>,
        3 => layer::expand_shard::<3>,
        4 => layer::expand_shard::<4>,
        _ => layer::expand_shard::<0>,
    }
}

/// The scan for this column count (instantiated for 2, 3 and 4 columns, the engine's
/// orientations of boards up to 17 cells).
fn expander(cols: usize, pull: bool) -> Expand {
    match (cols, pull) {
        (2, false) => layer::expand_scan::<2>,
        (3, false) => layer::expand_scan::<3>,
        (4, false) => layer::expand_scan::<4>,
        (_, false) => layer::expand_scan::<0>,
        (2, true) => layer::expand_pull::<2>,
        (3, true) => layer::expand_pull::<3>,
        (4, true) => layer::expand_pull::<4>,
        (_, true) => layer::expand_pull::<0>,
    }
}

/// An expansion of part of a listed frontier.
type ExpandList = fn(&LayerScan, &[u64]) -> Found;

/// The list expansion for this column count.
fn lister(cols: usize) -> ExpandList {
    match cols {
        2 => layer::expand_list::<2>,
        3 => layer::expand_list::<3>,
        4 => layer::expand_list::<4>,
        _ => layer::expand_list::<0>,
    }
}

impl SearchState {
    /// The state before the first layer: the start alone, recorded, holding `FRONTIER`.
    fn begin(space: &StateSpace, start: u64) -> SearchState {
        let table = Table::new(space.states());
        table.visit(start, FRONTIER);
        SearchState {
            start,
            layers: vec![1],
            frontier: Some(vec![start]),
            pulling: false,
            unsettled: false,
            table,
        }
    }
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::board::{Cell, Shape};

    const RECORD_CAP: u64 = 1 << 22;

    fn recording(cap: u64) -> Schedule {
        Schedule {
            record_cap: cap,
            ..Schedule::default()
        }
    }

    fn searched(space: &StateSpace, start: u64, cap: u64, scan: Scan) -> Search {
        let driver = Driver {
            schedule: recording(cap),
            ..Driver::new(&|_| {})
        };
        match search_with(space, start, driver, scan, None) {
            Ok(Outcome::Done(s)) => s,
            _ => panic!("the search failed"),
        }
    }

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

    /// Caps that recorded layers outgrow (given up mid-layer, over many small tasks: 3x3 gives
    /// up layers at caps 5, 37 and 177, its table's words over `LIST_RATIO`) and caps they fit
    /// give the layers and antipodes of a search that records nothing.
    #[test]
    fn recordings_given_up_or_kept_give_the_same_search() {
        for (r, c) in [(3, 3), (2, 5)] {
            let shape = Shape::new(r, c).unwrap();
            let space = StateSpace::new(shape, Cell(shape.cells() - 1)).unwrap();
            let start = space.goal_index();
            let scanned = searched(&space, start, 0, Scan::Auto);
            for cap in [1, 5, 37, 200, 1500] {
                let driver = Driver {
                    schedule: Schedule {
                        chunk: 64,
                        sequential_states: 0,
                        list_chunk: 2,
                        record_cap: cap,
                    },
                    ..Driver::new(&|_| {})
                };
                let Ok(Outcome::Done(s)) = search_with(&space, start, driver, Scan::Auto, None)
                else {
                    panic!("{shape} cap {cap}: the search failed");
                };
                assert_eq!(s.layers, scanned.layers, "{shape} cap {cap}");
                assert_eq!(s.antipodes, scanned.antipodes, "{shape} cap {cap}");
            }
        }
    }

    /// Push only, pull only and the automatic choice, with nothing recorded on the way (so the
    /// scans build every layer and the last is read off the table), all give the layers and
    /// antipodes of the search that expands recorded lists, from any goal and either class.
    #[test]
    fn every_way_of_building_layers_agrees() {
        for (r, c) in [(2, 3), (3, 2), (2, 4), (3, 3)] {
            let shape = Shape::new(r, c).unwrap();
            for goal in [0, shape.cells() / 2, shape.cells() - 1] {
                for class in [0, 1] {
                    let space = StateSpace::with_class(shape, Cell(goal), class).unwrap();
                    let start = if class == 0 {
                        space.goal_index()
                    } else {
                        space.states() / 3
                    };
                    let listed = searched(&space, start, RECORD_CAP, Scan::Auto);
                    assert_eq!(listed.layers.iter().sum::<u64>(), space.states());
                    for scan in [Scan::Auto, Scan::Push, Scan::Pull] {
                        let scanned = searched(&space, start, 0, scan);
                        let what = format!("{shape} goal {goal} class {class} {scan:?}");
                        assert_eq!(scanned.layers, listed.layers, "{what}");
                        assert_eq!(scanned.antipodes, listed.antipodes, "{what}");
                        assert_eq!(scanned.table.seen(), space.states(), "{what}");
                    }
                }
            }
        }
    }

    /// The recount of a finished table by depth mod 4 equals its layers' (from any goal, either
    /// class, tasks not on word bounds), and a single settled code flipped (depth 4k+2 read as
    /// 4k, say) breaks it, though the marked count stays right.
    #[test]
    fn residues_recount_the_layers_and_catch_a_flipped_code() {
        for (r, c) in [(2, 3), (3, 3), (2, 4)] {
            let shape = Shape::new(r, c).unwrap();
            for goal in [0, shape.cells() - 1] {
                for class in [0, 1] {
                    let space = StateSpace::with_class(shape, Cell(goal), class).unwrap();
                    let start = space.states() / 3;
                    let done = search_from(&space, start, Schedule::default(), &|_| {}).unwrap();
                    let colour = space.shape.colour(space.split(start).0);
                    let all = [(0, space.states())];
                    let odd = Schedule {
                        chunk: 77,
                        sequential_states: 0,
                        ..Schedule::default()
                    };
                    for schedule in [Schedule::default(), odd] {
                        let got = residues(&space, &done.table, &all, colour, &schedule);
                        assert!(residues_agree(&done.layers, got), "{shape} {goal} {class}");
                    }
                    // Settling with code 0 flips bit 0 of a slot's code: 2 and 3 swap.
                    let i = space.states() / 2;
                    done.table.settle((i / 32) as usize, 1 << (2 * (i % 32)), 0);
                    let got = residues(&space, &done.table, &all, colour, &odd);
                    assert!(!residues_agree(&done.layers, got), "{shape} {goal} {class}");
                    assert_eq!(done.table.seen(), space.states());
                }
            }
        }
    }

    /// A search stopped at any layer boundary and resumed from a copy of its state gives the
    /// layers, antipodes and final table of the search that never stopped: whatever was
    /// building that layer (list, push or pull, and with the layer before it left unsettled by
    /// a pull or not).
    #[test]
    fn stopping_and_resuming_at_every_layer_changes_nothing() {
        use std::sync::atomic::Ordering::Relaxed;
        for (r, c, cap, scan) in [
            (3, 3, RECORD_CAP, Scan::Auto),
            (2, 4, RECORD_CAP, Scan::Auto),
            (3, 3, 0, Scan::Pull),
            (2, 4, 0, Scan::Push),
        ] {
            let shape = Shape::new(r, c).unwrap();
            let space = StateSpace::new(shape, Cell(shape.cells() - 1)).unwrap();
            let start = space.goal_index();
            let whole = searched(&space, start, cap, scan);
            let words = |t: &Table| {
                t.words()
                    .iter()
                    .map(|w| w.load(Relaxed))
                    .collect::<Vec<_>>()
            };
            let radius = whole.layers.len() as u32 - 1;
            let mut unsettled_seen = false;
            for stop in 1..radius {
                let saved: std::sync::Mutex<Option<SearchState>> = Default::default();
                let hook = |b: &SearchState| -> Result<bool, Error> {
                    if b.depth() < stop {
                        return Ok(false);
                    }
                    *saved.lock().unwrap() = Some(SearchState {
                        start: b.start,
                        layers: b.layers.to_vec(),
                        frontier: b.frontier.clone(),
                        pulling: b.pulling,
                        unsettled: b.unsettled,
                        table: Table::from_words(words(&b.table)),
                    });
                    Ok(true)
                };
                let driver = Driver {
                    schedule: recording(cap),
                    progress: &|_| {},
                    hook: Some(&hook),
                };
                let first = search_with(&space, start, driver, scan, None);
                assert!(matches!(first, Ok(Outcome::Stopped { depth }) if depth == stop));
                let resume = saved.lock().unwrap().take().unwrap();
                unsettled_seen |= resume.unsettled;
                let driver = Driver {
                    schedule: recording(cap),
                    ..Driver::new(&|_| {})
                };
                let rest = search_with(&space, start, driver, scan, Some(resume));
                let Ok(Outcome::Done(rest)) = rest else {
                    panic!("{shape} resumed at {stop} failed");
                };
                assert_eq!(rest.layers, whole.layers, "{shape} stop {stop}");
                assert_eq!(rest.antipodes, whole.antipodes, "{shape} stop {stop}");
                assert_eq!(
                    words(&rest.table),
                    words(&whole.table),
                    "{shape} stop {stop}"
                );
            }
            if scan == Scan::Pull {
                assert!(
                    unsettled_seen,
                    "{shape}: no stop after a pull layer was tried"
                );
            }
        }
    }
}

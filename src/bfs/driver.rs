//! The layer loop, written once for every place a table can live.
//!
//! `run` takes a search from one layer boundary to the next until the last: it reads the
//! boundary (the frontier's size, the unseen states of the next colour), lets `policy` choose
//! how to build the layer and whether to record it, builds it where the table lives, counts it,
//! tells the caller (`LayerDone`), calls the hook, and at the end settles and lists the last
//! layer. Two axes are type parameters (monomorphised: the hot loops are called once per task):
//! where the table lives, a `Place` (`bfs::place`):
//! - `bfs::local::Local`: one table in this process, its tasks on the rayon pool;
//! - `dist::search::Sharded`: this rank's shard of a group's table, layers built in rounds of
//!   exchange with the other ranks;
//! - `store::disk::place::DiskTable`: a table in shard files, one shard in memory at a time, a
//!   layer one pass over them; it lags (`Place::lag`): a layer is complete one pass late, and
//!   the loop tells the caller of it then;
//!
//! and the kind of moves, a `MoveKind` (`bfs::moves`): its codes, its scans and tables, how many
//! states are left to find and how its search ends. The loop asks neither which it runs.
//!
//! Every decision the loop makes is taken from global figures (the layer counts, the table's
//! size), so the ranks of a group take the same ones without talking; what a place holds is
//! summed through `Place::group` (a collective on ranks).

use std::time::Instant;

use crate::bfs::group::{everywhere, Group};
use crate::bfs::layer::{Found, Kernels, LayerScan, WordPlaces};
use crate::bfs::moves::{with_moves_of, Aids, ColourCounts, Ended, MoveKind, WithMoves};
use crate::bfs::place::{lag, settle_unsettled, Place, PlaceLayer, Recording};
use crate::bfs::policy::{self, Scan, Way};
use crate::bfs::schedule::Schedule;
use crate::bfs::state::SearchState;
use crate::error::Error;
use crate::index::space::StateSpace;

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
    /// What the place tells of it: the ranks' work, the disk's reads and writes (the
    /// `Place::Telemetry` of where the table lives).
    pub place: PlaceLayer,
}

/// A layer that may be the last, of moves that record it then (`MoveKind::may_be_last`), is
/// recorded whenever the states unseen before it fit the record cap, or this many on a table
/// whose cap is smaller (the last layer takes every state unseen before it, so it is recorded
/// whenever it fits). A last layer larger than that (none is known: the last layers are small)
/// ends the search in an error.
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
    /// The bytes of aids the scans keep beside the table where the place allows them (the
    /// multi-tile push's bits a row: `layer::Rows::budget` of the table if none).
    pub aid_bytes: Option<u64>,
}

impl<'a> Driver<'a> {
    /// The default schedule, a progress callback, no hook.
    pub fn new(progress: &'a (dyn Fn(LayerDone) + Sync)) -> Driver<'a> {
        Driver {
            schedule: Schedule::default(),
            progress,
            hook: None,
            aid_bytes: None,
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

/// A search run to its end: its state after the last layer and the last layer's indices.
pub struct Finished {
    /// The state: the layers, and the table (here, its part) with every state settled.
    pub state: SearchState,
    /// Indices of the states at the maximum depth, over all places, ascending.
    pub antipodes: Vec<u64>,
}

/// Runs the search `state` is the boundary of, at `place`, to its end or until the hook stops
/// it, building unrecorded layers as `scan` says, with the moves of `space`'s metric. A layer's
/// indices are recorded when it is predicted to have at most `policy::record_cap` states
/// (`policy::record_next`), and given up if it has more at any place.
pub fn run<P: Place>(
    space: &StateSpace,
    place: &P,
    driver: Driver,
    scan: Scan,
    state: SearchState,
) -> Result<Outcome<Finished>, Error> {
    let work = Work {
        space,
        place,
        driver,
        scan,
        state,
    };
    with_moves_of(space, work)
}

/// `run`'s arguments, waiting for the moves' type.
struct Work<'a, P> {
    space: &'a StateSpace,
    place: &'a P,
    driver: Driver<'a>,
    scan: Scan,
    state: SearchState,
}

impl<P: Place> WithMoves for Work<'_, P> {
    type Output = Result<Outcome<Finished>, Error>;

    fn run<M: MoveKind>(self) -> Self::Output {
        let Work {
            space,
            place,
            driver,
            scan,
            state,
        } = self;
        let aids = match (place.keeps_aids(), driver.aid_bytes) {
            (false, _) => Aids::None,
            (true, None) => Aids::Default,
            (true, Some(bytes)) => Aids::Bytes(bytes),
        };
        let moves = M::new(space, aids);
        let table_words = space.states().div_ceil(32);
        let cap = policy::record_cap(driver.schedule.record_cap, table_words);
        let start_colour = space.colour(space.split(state.start).0);
        let mut layers = Layers {
            space,
            place,
            driver,
            scan,
            kernels: moves.kernels(),
            moves,
            places: WordPlaces::new(space),
            start_colour,
            table_words,
            cap,
            colours: ColourCounts::new(space, start_colour, &state.layers),
            lag: lag(place),
            told: state.depth(),
            ways: vec![None; state.layers.len()],
            emptied: None,
        };
        layers.run(state)
    }
}

/// The layer loop of one search: where the table lives, the moves, and what the loop knows
/// between layers.
struct Layers<'a, P, M: MoveKind> {
    space: &'a StateSpace,
    place: &'a P,
    driver: Driver<'a>,
    scan: Scan,
    moves: M,
    kernels: Kernels<M::Tables>,
    places: WordPlaces,
    start_colour: usize,
    table_words: u64,
    /// The most states a recorded layer may have (`policy::record_cap`).
    cap: u64,
    colours: ColourCounts,
    /// How many layers behind the one it builds the place's build completes (`place::lag`):
    /// the last `lag` layers of the state are not complete yet.
    lag: u32,
    /// The first depth whose layer the caller has not been told of.
    told: u32,
    /// How each layer was built, by depth (`None` for those built before this run).
    ways: Vec<Option<Way>>,
    /// The way of a build from the frontier that found nothing, where that ends the search
    /// (`MoveKind::ends_when_empty`).
    emptied: Option<Way>,
}

/// How a step went, for the caller told of the layer it completed.
#[derive(Clone, Copy)]
struct Build {
    /// When it started (`None`: no build completed the layer).
    clock: Option<Instant>,
    place: PlaceLayer,
    /// Its way (the layer's own, if this run built the layer).
    way: Option<Way>,
}

impl Build {
    /// No build: the layers a search starts from.
    const NONE: Build = Build {
        clock: None,
        place: PlaceLayer::Memory,
        way: None,
    };
}

/// How a layer step ended.
enum Step {
    /// The next layer is built; the search goes on.
    Built,
    /// The frontier is the last layer: nothing is left to find beyond it.
    Last,
    /// A lagging place completed the frontier and found nothing beyond it: it was the last
    /// layer, and its list is the antipodes.
    Completed,
    /// The hook stopped the search after this depth.
    Stopped(u32),
}

impl<P: Place, M: MoveKind> Layers<'_, P, M> {
    fn run(&mut self, mut state: SearchState) -> Result<Outcome<Finished>, Error> {
        // The frontier is complete unless the place lags: it is told once it is.
        self.tell(&state, complete(&state, self.lag), Build::NONE)?;
        let completed = loop {
            match self.step(&mut state)? {
                Step::Built => {}
                Step::Last => break false,
                Step::Completed => break true,
                Step::Stopped(depth) => return Ok(Outcome::Stopped { depth }),
            }
        };
        self.finish(state, completed)
    }

    /// Tells the caller of each layer before depth `complete` it has not been told of (one at
    /// most, but at the end): completed by `build`. A complete layer without states is an error.
    fn tell(&mut self, state: &SearchState, complete: u32, build: Build) -> Result<(), Error> {
        while self.told < complete {
            let depth = self.told;
            let states = state.layers[depth as usize];
            if states == 0 {
                return Err(Error::Check(format!(
                    "the search from {} found no state at depth {depth}",
                    state.start
                )));
            }
            (self.driver.progress)(LayerDone {
                depth,
                states,
                seen: state.layers[..=depth as usize].iter().sum(),
                // The build before made most of a lagging place's layer; after a resume, the
                // one that completed it is all there is.
                way: self.ways[depth as usize].or(build.way),
                seconds: build.clock.map_or(0.0, |c| c.elapsed().as_secs_f64()),
                place: build.place,
            });
            self.told += 1;
        }
        Ok(())
    }

    /// Builds the layer after `state`'s frontier, counts it with the states the build added to
    /// the frontier (where the place lags), tells the caller of the layer that completed and
    /// calls the hook.
    fn step(&mut self, state: &mut SearchState) -> Result<Step, Error> {
        let (space, place, schedule) = (self.space, self.place, &self.driver.schedule);
        let clock = Instant::now();
        let waited = place.group().waited();
        let depth = state.depth();
        let colour = self.start_colour ^ (depth as usize & 1);
        let unseen = M::unseen(&self.colours, colour);
        if unseen == 0 {
            // Every state the next layer could hold is seen: this is the last layer.
            return Ok(Step::Last);
        }
        let chosen = self.choose(state, unseen);
        let way = place.lagging().map_or(chosen, |l| l.way(chosen));
        self.moves.prepare(way);
        let codes = M::codes(depth);
        if way != Way::Pull {
            // Claims are about to write the colour of the layer before this one: if a pull
            // left it holding FRONTIER, it is settled first.
            settle_unsettled(space, place, state, colour, codes.before, schedule);
        }
        let recording = self.recording(state, unseen);
        let scan = LayerScan {
            space,
            tables: self.moves.tables(),
            places: &self.places,
            table: &state.table,
            colour: M::scan_colour(way, colour),
            codes,
            record: recording.is_some(),
            mine: place.mine(),
            defer: None,
        };
        let list = state.frontier.as_mut();
        let found = place.build(
            &scan,
            &self.kernels,
            way,
            list,
            recording.as_ref(),
            schedule,
        )?;
        let here: u64 = found.iter().map(|f| f.states).sum();
        let group = place.group();
        let states = group.sum(here);
        let work = clock.elapsed().saturating_sub(group.waited() - waited);
        let build = Build {
            clock: Some(clock),
            place: place.telemetry(work).into(),
            way: Some(way),
        };
        // The frontier's late states (none unless the place lags).
        let late = group.sum(place.lagging().map_or(0, |l| l.late()));
        state.layers[depth as usize] += late;
        self.colours.add(colour, late);
        if states == 0 {
            if M::unseen(&self.colours, colour) == 0 {
                // Late states completed the frontier and every state is seen (as none was
                // unseen at the boundary, only a lagging place gets here): it was the last.
                self.tell(state, depth + 1, build)?;
                return Ok(Step::Completed);
            }
            if self.lag == 0 {
                return self.emptied(state, way, unseen);
            }
        }
        state.unsettled = M::unsettles(way);
        // Every place recorded the layer whole, or none keeps its part.
        let kept = recording.is_some_and(|r| everywhere(group, r.kept()));
        // The list expanded is freed before the one found is put together.
        state.frontier = None;
        state.frontier = kept.then(|| concatenate(found, here));
        state.layers.push(states);
        self.ways.push(Some(way));
        self.colours.add(colour ^ 1, states);
        self.tell(state, complete(state, self.lag), build)?;
        match self.driver.hook {
            Some(hook) if hook(state)? => Ok(Step::Stopped(depth + 1)),
            _ => Ok(Step::Built),
        }
    }

    /// After a build by `way` from `state`'s frontier that found nothing, at a place where none
    /// comes late, with `unseen` states left: the end of the search, for moves where the goal's
    /// component may be exhausted so; an error otherwise.
    fn emptied(&mut self, state: &SearchState, way: Way, unseen: u64) -> Result<Step, Error> {
        if self.moves.ends_when_empty() {
            // The goal's component is exhausted: the frontier was the last layer.
            self.emptied = Some(way);
            return Ok(Step::Last);
        }
        // Only a class the moves do not connect could leave unseen states behind, and the
        // engine only sees connected ones (R, C ≥ 2; on a graph, those Wilson's theorem says
        // are: this would contradict it); the frontier has been settled.
        Err(Error::Check(format!(
            "the search from {} stopped at depth {} with {unseen} states unseen",
            state.start,
            state.depth()
        )))
    }

    /// The recording of the next layer's indices, if it is recorded: when it is predicted to
    /// fit the cap, or may be the last of moves that must list it (`MoveKind::may_be_last`).
    fn recording(&self, state: &SearchState, unseen: u64) -> Option<Recording> {
        let depth = state.depth() as usize;
        let room = self.cap.max(LAST_ROOM);
        if self.moves.may_be_last(self.lag, unseen, room) {
            return Some(Recording::new(room));
        }
        let before = depth.checked_sub(1).map(|d| state.layers[d]);
        policy::record_next(state.layers[depth], before, self.cap).then(|| Recording::new(self.cap))
    }

    /// How to build the layer after `state`'s frontier, with `unseen` states left for it
    /// (`policy::choose`, from global figures only, so that every place makes the same
    /// choice); `state` notes whether the layers are pulled from now on.
    fn choose(&self, state: &mut SearchState, unseen: u64) -> Way {
        let frontier = state.layers[state.depth() as usize];
        let (way, pulling) = policy::choose(
            self.scan,
            policy::Boundary {
                listed: state.frontier.as_ref().map(|_| frontier),
                frontier: self.moves.scanned(&state.layers),
                push_cost: M::PUSH_COST,
                unseen,
                table_words: self.table_words,
                pulling: state.pulling,
            },
        );
        state.pulling = pulling;
        way
    }

    /// Lists the last layer (with the states it gained, where the place lags and lists it in
    /// a pass), tells the caller of it if it has not been, and gathers it from every place.
    /// `completed`: a lagging place's build already completed it.
    fn finish(
        &mut self,
        mut state: SearchState,
        completed: bool,
    ) -> Result<Outcome<Finished>, Error> {
        let (space, place) = (self.space, self.place);
        let clock = Instant::now();
        let depth = state.depth();
        let colour = self.start_colour ^ (depth as usize & 1);
        let ended = Ended {
            colour,
            emptied: self.emptied,
        };
        let (last, late) = M::last(place, space, &mut state, ended, &self.driver.schedule)?;
        let late = late.filter(|_| !completed).map(|n| place.group().sum(n));
        // Every state is seen: the frontier is complete with the last late claims.
        state.layers[depth as usize] += late.unwrap_or(0);
        self.colours.add(colour, late.unwrap_or(0));
        // A lagging place's pass completed the last layer: it tells of that pass.
        let build = match late {
            Some(_) if self.lag > 0 => Build {
                clock: Some(clock),
                place: place.telemetry(clock.elapsed()).into(),
                ..Build::NONE
            },
            _ => Build::NONE,
        };
        self.tell(&state, depth + 1, build)?;
        let antipodes = gather(place.group(), last);
        Ok(Outcome::Done(Finished { state, antipodes }))
    }
}

/// The depth below which `state`'s layers are complete at a place whose builds complete layers
/// `lag` behind the one they build.
fn complete(state: &SearchState, lag: u32) -> u32 {
    (state.depth() + 1).saturating_sub(lag)
}

/// The indices of `mine` (this place's) and every other place's, ascending.
fn gather(group: &dyn Group, mine: Vec<u64>) -> Vec<u64> {
    use rayon::slice::ParallelSliceMut;
    let mut all = group.all_gather(mine);
    all.par_sort_unstable();
    all
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

//! What a kind of moves is (`MoveKind`), what it is given (`Aids`) and what it counts with
//! (`ColourCounts`); and work waiting for a kind of moves as a type (`WithMoves`).

use crate::bfs::layer::{Codes, Kernels};
use crate::bfs::place::Place;
use crate::bfs::policy::Way;
use crate::bfs::schedule::Schedule;
use crate::bfs::state::SearchState;
use crate::error::Error;
use crate::index::space::StateSpace;
use crate::puzzle::board::Cell;

/// A kind of moves: its scans, its codes, and how its search ends.
pub trait MoveKind: Sync + Sized {
    /// What the scans read besides the table (`layer::LayerScan::tables`).
    type Tables: ?Sized + Sync;
    /// The weight of a frontier state against an unseen one in the choice of a layer's way
    /// (`policy::Boundary::push_cost`).
    const PUSH_COST: u64;
    /// How the finished table's codes tell depths apart (what persistence, the recount and
    /// the descents of saved tables read).
    const CODING: crate::bfs::coding::Coding;
    /// The moves of `space`, with the aids beside the table `aids` allows.
    fn new(space: &StateSpace, aids: Aids) -> Self;
    /// The tables the scans read.
    fn tables(&self) -> &Self::Tables;
    /// The scans.
    fn kernels(&self) -> Kernels<Self::Tables>;
    /// The most bytes the aids beside a table of `table_bytes` take by default (`Aids`) on a
    /// board whose longer side is `side` (the engine's rows): none unless the kind keeps some.
    fn aid_bytes(_table_bytes: f64, _side: usize) -> f64 {
        0.0
    }
    /// The codes of the step that expands layer `depth`.
    fn codes(depth: u32) -> Codes;
    /// The blank colour of the states a scan of layer `depth` by `way` looks at
    /// (`layer::WordPlaces::colour`), the frontier's being `colour`.
    fn scan_colour(way: Way, colour: usize) -> usize;
    /// The states the layer after a frontier of blank colour `colour` may still find.
    fn unseen(counts: &ColourCounts, colour: usize) -> u64;
    /// Readies the tables for a layer built by `way` (makes or drops its aids).
    fn prepare(&mut self, _way: Way) {}
    /// The states a push of the layer after `layers` scans.
    fn scanned(&self, layers: &[u64]) -> u64 {
        layers[layers.len() - 1]
    }
    /// Whether a layer built by `way` leaves its frontier holding its code, for the next
    /// layer to settle (`SearchState::unsettled`).
    fn unsettles(way: Way) -> bool;
    /// Whether the next layer is recorded because it may be the last, which only its list can
    /// name: `unseen` states are left, `room` fit the record, and the place's builds complete
    /// layers `lag` behind (`place::lag`).
    fn may_be_last(&self, lag: u32, unseen: u64, room: u64) -> bool;
    /// Whether the search may end before every state is seen, at a layer that finds nothing
    /// (the goal's component may be smaller than the index); otherwise such a layer is an
    /// error.
    fn ends_when_empty(&self) -> bool {
        false
    }
    /// The last layer, `state`'s frontier (`ended` says how), listed at `place`: its indices
    /// here, and `Some` of the states the place added to it if it made a pass to list them
    /// (`place::finish_last`).
    fn last<P: Place>(
        place: &P,
        space: &StateSpace,
        state: &mut SearchState,
        ended: Ended,
        schedule: &Schedule,
    ) -> Result<(Vec<u64>, Option<u64>), Error>;
}

/// How a search ended, for `MoveKind::last`.
#[derive(Clone, Copy, Debug)]
pub struct Ended {
    /// The blank colour of the last layer's states.
    pub colour: usize,
    /// The way of the build from the last layer that found nothing (`ends_when_empty`), if
    /// the search learnt so that it was the last.
    pub emptied: Option<Way>,
}

/// The last layer as `MoveKind::last` gives it, from the frontier's list, recorded because it
/// might be the last (an error if it was not).
pub(super) fn recorded_last(state: &mut SearchState) -> Result<(Vec<u64>, Option<u64>), Error> {
    match state.frontier.take() {
        Some(last) => Ok((last, None)),
        None => Err(Error::Check(format!(
            "the last layer of the search from {} ({} states) was not listed",
            state.start,
            state.layers[state.depth() as usize]
        ))),
    }
}

/// The memory the scans may keep aids to themselves in beside the table (the multi-tile push's
/// bit a row, `layer::Rows`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Aids {
    /// None: the place's scans keep none (`Place::keeps_aids`).
    None,
    /// As much as the moves think right for the table.
    Default,
    /// This many bytes.
    Bytes(u64),
}

/// Work to run with a kind of moves as a type (`with_moves`).
pub trait WithMoves {
    /// What the work gives.
    type Output;
    /// Runs it with the moves `M`.
    fn run<M: MoveKind>(self) -> Self::Output;
}

/// How many states of each blank colour the class has and the search has seen (the layers of
/// a search alternate its colours as the start's blank flips; a kind of moves whose layers mix
/// them counts the two together: `MoveKind::unseen`).
pub struct ColourCounts {
    /// States whose blank has each colour: m!/2 per slot.
    total: [u64; 2],
    seen: [u64; 2],
}

impl ColourCounts {
    /// The counts after `layers`, for a search from a state whose blank has `start_colour`.
    pub fn new(space: &StateSpace, start_colour: usize, layers: &[u64]) -> ColourCounts {
        let mut total = [0u64; 2];
        for &b in space.blanks() {
            total[space.colour(Cell(usize::from(b)))] += space.half();
        }
        // Layer d has the colour of the start's blank flipped d times.
        let mut seen = [0u64; 2];
        for (d, n) in layers.iter().enumerate() {
            seen[start_colour ^ (d & 1)] += n;
        }
        ColourCounts { total, seen }
    }

    /// States whose blank has this colour not seen yet.
    pub fn unseen_of(&self, colour: usize) -> u64 {
        self.total[colour] - self.seen[colour]
    }

    /// States of either colour not seen yet.
    pub fn unseen(&self) -> u64 {
        self.total[0] + self.total[1] - self.seen()
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

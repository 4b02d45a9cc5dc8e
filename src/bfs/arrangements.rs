//! The breadth-first search over arrangements (pebble motion: several blanks, labels that
//! repeat), on a table of 2 bits an arrangement, on every thread.
//!
//! An arrangement is ranked by an `index::arrangement::ArrangementIndex` (any multiset's, or
//! distinct tiles' beside blanks, `index::tiles`). The table codes each rank 0 (not reached), F
//! or N (the frontier's code and the next layer's, 1 and 2 in turn) or 3 (its layer expanded).
//! A layer's step expands every frontier state (found by a scan of the table, or from the list
//! of the states the last step found, when they were few), claims each target not reached yet
//! with N (an atomic or: one thread counts it), and marks the state 3; once fewer states are
//! left than twice the frontier, each of them looks for a neighbour in the frontier instead (a
//! pull), and the frontier is marked 3 after. Moves need not alternate any colour: a state is
//! claimed once, whatever its neighbours' layers.
//!
//! Where the distances are kept (`--save-table`), a second table of 2 bits an arrangement codes
//! each as 1 + its depth mod 3, written word by word as its layer is marked 3. (The search's
//! own codes cannot hold it: depth mod 3 in them would leave a scan unable to tell the
//! frontier from the layers 3, 6, … before it, and expanding those again cost 2.3 times the
//! instructions of 2x5 with two blanks.) A neighbour of a state at depth d is at d-1, d or d+1,
//! three codes apart, so a walk through codes of d-1 reaches the goal in d moves
//! (`store::tokens`).
//!
//! At each layer boundary the search tells a `Checkpoints` (`store::token_checkpoint`) its
//! layers and tables, which it may save; a search resumed starts from a saved boundary, its
//! frontier found by a scan.
//!
//! The targets of a state are batched and their words prefetched before any is claimed. A
//! blank's move onto the cell next to it in cell order changes only the blanks' digit, so its
//! target is found without ranking the tiles again.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

use rayon::prelude::*;

use crate::error::Error;
use crate::graph::Graph;
use crate::index::arrangement::{ArrangementIndex, Bits, Portable, MAX_CELLS};
use crate::puzzle::board::{Cell, Shape};
use crate::puzzle::metric::Metric;

/// Words of the table a task scans.
const CHUNK_WORDS: usize = 1 << 11;

/// States of a listed frontier a task expands.
const CHUNK_STATES: usize = 1 << 12;

/// Targets computed (their words prefetched) before any is claimed.
const BATCH: usize = 64;

/// Room for a batch and one state's targets past it (a blank of each cell, each with a
/// neighbour of each other cell).
const BATCH_ROOM: usize = BATCH + MAX_CELLS * MAX_CELLS;

/// A layer is kept as a list (expanded from it, not from a scan of the table) if it has at
/// most this fraction of the table's states, or `LISTED_LEAST`.
const LISTED_PART: u64 = 128;
const LISTED_LEAST: u64 = 1 << 16;

/// The moves of the blanks: `neighbours[v]`, the cells a token slides from onto a blank on v;
/// where a move slides the blank farther (the multi-tile metric, one blank), `lines[v]`, the
/// cells of each straight line from v, nearest first.
pub struct ArrangementMoves {
    neighbours: Vec<u32>,
    lines: Vec<Vec<Vec<u32>>>,
}

impl ArrangementMoves {
    /// A move of `metric` on a board of `shape` (at most 32 cells): a tile slides onto a blank
    /// beside it, or the blank slides up to `metric.farthest_slide` cells along its row or
    /// column, the tiles between following it.
    pub fn of_board(shape: Shape, metric: Metric) -> ArrangementMoves {
        let farthest = metric.farthest_slide(shape);
        let line = |v: usize, (dr, dc): (isize, isize)| -> Vec<u32> {
            let (mut r, mut c) = (shape.row(Cell(v)) as isize, shape.col(Cell(v)) as isize);
            let mut cells = vec![];
            while cells.len() < farthest {
                (r, c) = (r + dr, c + dc);
                if r < 0 || c < 0 || r >= shape.rows as isize || c >= shape.cols as isize {
                    break;
                }
                cells.push(shape.cell(r as usize, c as usize).0 as u32);
            }
            cells
        };
        let directions = [(-1, 0), (1, 0), (0, -1), (0, 1)];
        ArrangementMoves {
            neighbours: (0..shape.cells())
                .map(|v| shape.neighbours(Cell(v)).fold(0, |m, u| m | 1 << u.0))
                .collect(),
            lines: match farthest {
                1 => vec![],
                _ => (0..shape.cells())
                    .map(|v| directions.iter().map(|&d| line(v, d)).collect())
                    .collect(),
            },
        }
    }

    /// A token moves along an edge of `graph` onto a blank (the single-tile metric).
    pub fn of_graph(graph: &Graph) -> ArrangementMoves {
        ArrangementMoves {
            neighbours: (0..graph.vertices())
                .map(|v| graph.neighbour_mask(v))
                .collect(),
            lines: vec![],
        }
    }
    /// The arrangements one move takes `symbols` to (0 a blank), symbol by symbol: for walks
    /// over a saved table, one arrangement at a time.
    pub fn targets(&self, symbols: &[u8]) -> Vec<Vec<u8>> {
        let mut out = vec![];
        for a in (0..symbols.len()).filter(|&a| symbols[a] == 0) {
            if self.lines.is_empty() {
                let mut from = self.neighbours[a];
                while from != 0 {
                    let b = from.trailing_zeros() as usize;
                    from &= from - 1;
                    if symbols[b] != 0 {
                        let mut t = symbols.to_vec();
                        t.swap(a, b);
                        out.push(t);
                    }
                }
                continue;
            }
            // The blank slides along each line, the tokens it passes following it.
            for line in &self.lines[a] {
                let (mut t, mut at) = (symbols.to_vec(), a);
                for &c in line {
                    t.swap(at, c as usize);
                    at = c as usize;
                    out.push(t.clone());
                }
            }
        }
        out
    }
}

/// What a search over arrangements found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArrangementsFound {
    /// States at each depth from the start.
    pub layers: Vec<u64>,
    /// The ranks of the last layer's states, in increasing order.
    pub last: Vec<u64>,
    /// The states the table holds as reached at the end, counted again from its codes.
    pub marked: u64,
    /// Bytes of the table.
    pub table_bytes: u64,
    /// Where asked for, each arrangement's code 1 + depth mod 3 (0: not reached).
    pub depths: Option<Depths>,
}

/// The finished search's depths mod 3, 2 bits an arrangement (see the module's documentation).
#[derive(Debug)]
pub struct Depths(pub crate::bfs::table::Table);

impl PartialEq for Depths {
    fn eq(&self, other: &Depths) -> bool {
        let words =
            |d: &Depths| -> Vec<u64> { d.0.words().iter().map(|w| w.load(Relaxed)).collect() };
        words(self) == words(other)
    }
}

impl Eq for Depths {}

impl Clone for Depths {
    fn clone(&self) -> Depths {
        let words = self.0.words().iter().map(|w| w.load(Relaxed)).collect();
        Depths(crate::bfs::table::Table::from_words(words))
    }
}

/// What a search over arrangements is asked beside its moves: to keep the depths, to stop at
/// the next layer once `stop` is set, and to save and resume at layer boundaries.
#[derive(Clone, Copy, Default)]
pub struct Asked<'a> {
    /// Keep every arrangement's depth mod 3 (`ArrangementsFound::depths`).
    pub depths: bool,
    /// Set (by a signal's handler, say): the search ends with `Error::Stopped`, or where it
    /// checkpoints, with what `Checkpoints::reached` returns.
    pub stop: Option<&'a AtomicBool>,
    /// Where the search is saved at layer boundaries and resumed from.
    pub checkpoints: Option<&'a dyn Checkpoints>,
}

/// A search's state at a layer boundary, as saved: every layer's count (the last one's states
/// are the frontier), the table's codes (3: expanded; `code`: the last layer; 0: not reached)
/// and, where the depths are kept, their table (the layers before the last coded).
pub struct Pause<T> {
    /// States at each depth from the start.
    pub layers: Vec<u64>,
    /// The last layer's code in `table` (1 or 2).
    pub code: u64,
    /// The search's codes, 2 bits an arrangement.
    pub table: T,
    /// Where the depths are kept, 1 + depth mod 3 of each state expanded.
    pub depths: Option<T>,
}

/// Where a search over arrangements saves itself at layer boundaries and goes on from
/// (`store::token_checkpoint`): the engine asks, the store reads and writes.
pub trait Checkpoints: Sync {
    /// The boundary to go on from, if any: the saved one (read anew on each call, the second
    /// search of a wide last layer's included), else `None` to start at the beginning.
    fn resume(&self) -> Result<Option<Pause<crate::bfs::table::Table>>, Error>;
    /// Told each boundary reached (`stopping`: a stop was asked); saves it when due, and
    /// returns the error that ends the search when stopping.
    fn reached(&self, at: &Pause<&[AtomicU64]>, stopping: bool) -> Result<(), Error>;
}

/// Searches every arrangement `ranks` numbers that the moves reach from rank `start`, on the
/// current rayon pool, as `asked`; `progress` is told each layer's depth and the states found
/// so far.
pub fn search_arrangements<R: ArrangementIndex>(
    ranks: &R,
    moves: &ArrangementMoves,
    start: u64,
    asked: Asked,
    progress: &(dyn Fn(u32, u64) + Sync),
) -> Result<ArrangementsFound, Error> {
    let listed_most = (ranks.count() / LISTED_PART).max(LISTED_LEAST);
    search_listing(ranks, moves, start, listed_most, asked, progress)
}

/// `search_arrangements`, layers of at most `listed_most` states listed.
fn search_listing<R: ArrangementIndex>(
    ranks: &R,
    moves: &ArrangementMoves,
    start: u64,
    listed_most: u64,
    asked: Asked,
    progress: &(dyn Fn(u32, u64) + Sync),
) -> Result<ArrangementsFound, Error> {
    // Whether moves slide along lines is a type of the step, so that a search whose moves do
    // not asks nothing of lines at each state.
    let once = if moves.lines.is_empty() {
        search_once::<R, false>
    } else {
        search_once::<R, true>
    };
    let search = Search {
        ranks,
        moves,
        start,
        listed_most,
        asked,
    };
    let first = once(&search, None, progress)?;
    if first.last.len() as u64 == *first.layers.last().expect("a layer") {
        return Ok(first);
    }
    // The last layer was too wide to list as it was found: it is listed on a second search,
    // whatever its width (it is known now).
    let depth = first.layers.len() as u32 - 1;
    let again = once(&search, Some(depth), &|_, _| {})?;
    debug_assert_eq!(again.layers, first.layers);
    Ok(again)
}

/// What a search is asked: the index, the moves, the start's rank, how many states a layer
/// listed holds at most, and `Asked`.
struct Search<'a, R> {
    ranks: &'a R,
    moves: &'a ArrangementMoves,
    start: u64,
    listed_most: u64,
    asked: Asked<'a>,
}

/// One search; the layer at depth `list_all` (if any) is listed whatever its width.
fn search_once<R: ArrangementIndex, const SLIDES: bool>(
    search: &Search<R>,
    list_all: Option<u32>,
    progress: &(dyn Fn(u32, u64) + Sync),
) -> Result<ArrangementsFound, Error> {
    let &Search {
        ranks,
        moves,
        start,
        listed_most,
        ..
    } = search;
    let total = ranks.count();
    let words = total.div_ceil(32) as usize;
    let Pause {
        mut layers,
        mut code,
        table: owner,
        depths: depth_owner,
    } = begin(search, total, list_all)?;
    let table = owner.words();
    let depth_words = depth_owner.as_ref().map(|t| t.words());
    // A resumed search finds its frontier by a scan.
    let mut frontier = (listed_most > 0 && layers.len() == 1).then(|| vec![start]);
    loop {
        let depth = layers.len() as u32;
        let stopping = search.asked.stop.is_some_and(|s| s.load(Relaxed));
        if let Some(c) = search.asked.checkpoints {
            let at = Pause {
                layers: layers.clone(),
                code,
                table,
                depths: depth_words,
            };
            c.reached(&at, stopping)?;
        }
        if stopping {
            return Err(Error::Stopped(format!(
                "the search of arrangements, after depth {}",
                depth - 1
            )));
        }
        let step = Step::<R, SLIDES> {
            ranks,
            moves,
            table,
            frontier: code,
            depths: depth_words.map(|d| (d, 1 + u64::from(depth - 1) % 3)),
            listed_most: if list_all == Some(depth) {
                u64::MAX
            } else {
                listed_most
            },
        };
        let seen: u64 = layers.iter().sum();
        let width = *layers.last().expect("a layer");
        // Fewer states left than twice the frontier: each looks for a neighbour in it, and
        // most stop at their first moves.
        let pull = total - seen < 2 * width;
        let found = step.layer(frontier.as_deref(), pull, total);
        if found.new == 0 {
            break;
        }
        layers.push(found.new);
        progress(depth, layers.iter().sum());
        frontier = (found.new <= step.listed_most).then_some(found.list);
        code ^= 3;
    }
    let last = match frontier {
        Some(mut list) => {
            list.par_sort_unstable();
            list
        }
        None => vec![],
    };
    let marked = table
        .par_iter()
        .map(|w| {
            let w = w.load(Relaxed);
            u64::from(((w | w >> 1) & 0x5555_5555_5555_5555).count_ones())
        })
        .sum();
    Ok(ArrangementsFound {
        layers,
        last,
        marked,
        table_bytes: words as u64 * 8,
        depths: depth_owner.map(Depths),
    })
}

/// Where a search starts: the saved boundary it resumes, else the start alone in a new table
/// (huge pages where the kernel gives them: most targets are a random word of the table). A
/// search that lists the layer at depth `list_all` resumes only a boundary before it.
fn begin<R: ArrangementIndex>(
    search: &Search<R>,
    total: u64,
    list_all: Option<u32>,
) -> Result<Pause<crate::bfs::table::Table>, Error> {
    let saved = search.asked.checkpoints.map(|c| c.resume()).transpose()?;
    let before = |b: &Pause<_>| list_all.is_none_or(|d| b.layers.len() as u64 <= u64::from(d));
    if let Some(b) = saved.flatten().filter(before) {
        assert_eq!(
            b.table.words().len() as u64,
            total.div_ceil(32),
            "checked on load"
        );
        assert_eq!(b.depths.is_some(), search.asked.depths, "checked on load");
        return Ok(b);
    }
    let table = crate::bfs::table::Table::new(total);
    let start = search.start;
    table.words()[(start / 32) as usize].store(1 << (2 * (start % 32)), Relaxed);
    Ok(Pause {
        layers: vec![1],
        code: 1,
        table,
        depths: search
            .asked
            .depths
            .then(|| crate::bfs::table::Table::new(total)),
    })
}

/// The slots of `word` (2 bits each) coded `code` (1 or 2), as their low bits.
#[inline(always)]
fn coded(word: u64, code: u64) -> u64 {
    const LOW: u64 = 0x5555_5555_5555_5555;
    let (low, high) = (word & LOW, (word >> 1) & LOW);
    if code == 1 {
        low & !high
    } else {
        high & !low
    }
}

/// What one task of a step found: how many states, and the states while they are few; and
/// its working room: the targets waiting to be claimed, the state being expanded.
struct Found<S> {
    new: u64,
    list: Vec<u64>,
    /// Boxed: a task's `Found` is moved at each step of rayon's fold and reduce.
    batch: Box<[u64; BATCH_ROOM]>,
    waiting: usize,
    state: S,
}

impl<S: Default> Default for Found<S> {
    fn default() -> Found<S> {
        Found {
            new: 0,
            list: vec![],
            batch: Box::new([0; BATCH_ROOM]),
            waiting: 0,
            state: S::default(),
        }
    }
}

impl<S> Found<S> {
    /// Both tasks' states; the list dropped once they are past `listed_most` (the layer is
    /// then scanned for).
    fn join(mut self, mut other: Found<S>, listed_most: u64) -> Found<S> {
        self.new += other.new;
        if self.new > listed_most {
            self.list = vec![];
            return self;
        }
        if self.list.len() < other.list.len() {
            std::mem::swap(&mut self.list, &mut other.list);
        }
        self.list.extend_from_slice(&other.list);
        self
    }
}

/// One layer's step: expanding the states coded `frontier`; `SLIDES`, by the moves' lines
/// (`ArrangementMoves::lines`) rather than to neighbours; where the depths are kept, their
/// words and the frontier's code there (1 + depth mod 3).
struct Step<'a, R, const SLIDES: bool> {
    ranks: &'a R,
    moves: &'a ArrangementMoves,
    table: &'a [AtomicU64],
    frontier: u64,
    depths: Option<(&'a [AtomicU64], u64)>,
    listed_most: u64,
}

impl<R: ArrangementIndex, const SLIDES: bool> Step<'_, R, SLIDES> {
    /// The next layer, by a pull (`pull`: the frontier settled after, and where the depths
    /// are kept, even when it finds nothing), from the frontier's `list`, or by a scan of
    /// the table for the frontier; `total` arrangements.
    fn layer(&self, list: Option<&[u64]>, pull: bool, total: u64) -> Found<R::State> {
        let words = self.table.len();
        let join = |a: Found<R::State>, b| a.join(b, self.listed_most);
        let chunks = || (0..words.div_ceil(CHUNK_WORDS)).into_par_iter();
        let part = |c: usize| c * CHUNK_WORDS..(c * CHUNK_WORDS + CHUNK_WORDS).min(words);
        match list {
            _ if pull => {
                let found = chunks()
                    .fold(Found::default, |mut f, c| {
                        self.pull_words(part(c), total, &mut f);
                        f
                    })
                    .reduce(Found::default, join);
                if found.new > 0 || self.depths.is_some() {
                    self.settle();
                }
                found
            }
            Some(list) => list
                .par_chunks(CHUNK_STATES)
                .fold(Found::default, |mut f, c| {
                    self.expand_list(c, &mut f);
                    f
                })
                .reduce(Found::default, join),
            None => chunks()
                .fold(Found::default, |mut f, c| {
                    self.expand_words(part(c), &mut f);
                    f
                })
                .reduce(Found::default, join),
        }
    }

    /// Codes every state of the frontier 3 (and its depth where they are kept), after a pull,
    /// which leaves them.
    fn settle(&self) {
        self.table.par_iter().enumerate().for_each(|(w, word)| {
            let mine = coded(word.load(Relaxed), self.frontier);
            if mine != 0 {
                self.settle_word(w, mine);
            }
        });
    }

    /// Codes 3 the frontier's slots `mine` (their low bits) of word `w`, and their depth where
    /// the depths are kept.
    #[inline(always)]
    fn settle_word(&self, w: usize, mine: u64) {
        let settle = if self.frontier == 1 { mine << 1 } else { mine };
        self.table[w].fetch_or(settle, Relaxed);
        if let Some((depths, code)) = self.depths {
            // `mine` has a slot's low bit set: times the code (at most 3) fills the slot.
            depths[w].fetch_or(mine * code, Relaxed);
        }
    }

    fn expand_words(&self, words: std::ops::Range<usize>, found: &mut Found<R::State>) {
        #[cfg(target_arch = "x86_64")]
        if crate::bfs::bits::has_bit_instructions() {
            // SAFETY: this CPU has the instructions `expand_words_bmi2` is compiled for.
            return unsafe { self.expand_words_bmi2(words, found) };
        }
        self.expand_words_with::<Portable>(words, found)
    }

    fn pull_words(&self, words: std::ops::Range<usize>, total: u64, found: &mut Found<R::State>) {
        #[cfg(target_arch = "x86_64")]
        if crate::bfs::bits::has_bit_instructions() {
            // SAFETY: as `expand_words`.
            return unsafe { self.pull_words_bmi2(words, total, found) };
        }
        self.pull_words_with::<Portable>(words, total, found)
    }

    /// # Safety
    /// As `expand_words_bmi2`.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1,bmi2")]
    unsafe fn pull_words_bmi2(
        &self,
        words: std::ops::Range<usize>,
        total: u64,
        found: &mut Found<R::State>,
    ) {
        self.pull_words_with::<crate::index::arrangement::Bmi2>(words, total, found)
    }

    /// Codes N every state not reached yet with a neighbour in the frontier.
    #[inline(always)]
    fn pull_words_with<B: Bits>(
        &self,
        words: std::ops::Range<usize>,
        total: u64,
        found: &mut Found<R::State>,
    ) {
        const LOW: u64 = 0x5555_5555_5555_5555;
        let next = 3 ^ self.frontier;
        for w in words {
            let word = self.table[w].load(Relaxed);
            let mut unseen = !(word | word >> 1) & LOW;
            // The slots past the last arrangement are not states.
            let first = w as u64 * 32;
            if total - first < 32 {
                unseen &= (1u64 << (2 * (total - first))) - 1;
            }
            let mut marks = 0;
            while unseen != 0 {
                let slot = unseen.trailing_zeros() / 2;
                unseen &= unseen - 1;
                let state = first + u64::from(slot);
                if self.touches_frontier::<B>(state, &mut found.state) {
                    marks |= next << (2 * slot);
                    found.new += 1;
                    if (found.list.len() as u64) < self.listed_most {
                        found.list.push(state);
                    }
                }
            }
            if marks != 0 {
                self.table[w].fetch_or(marks, Relaxed);
            }
        }
    }

    /// Whether a move of `state` leads into the frontier.
    #[inline(always)]
    fn touches_frontier<B: Bits>(&self, state: u64, u: &mut R::State) -> bool {
        self.ranks.unrank_state::<B>(state, u);
        self.each_target::<B>(state, u, |target| {
            let code = self.table[(target / 32) as usize].load(Relaxed) >> (2 * (target % 32));
            code & 3 == self.frontier
        })
    }

    /// Calls `visit` with the rank of each move's target from `u` (the state of rank `rank`)
    /// until it says to stop (true); whether it did.
    #[inline(always)]
    fn each_target<B: Bits>(
        &self,
        rank: u64,
        u: &R::State,
        visit: impl FnMut(u64) -> bool,
    ) -> bool {
        if SLIDES {
            self.slides::<B>(rank, u, visit)
        } else {
            self.targets::<B>(u, visit)
        }
    }

    /// `each_target` where the one blank slides along lines (`ArrangementMoves::lines`): a
    /// slide of one cell is the swap `moved` ranks from the state; a longer one is the tokens
    /// of the line shifted toward the blank's cell, ranked from the symbols.
    fn slides<B: Bits>(&self, rank: u64, u: &R::State, mut visit: impl FnMut(u64) -> bool) -> bool {
        let cells = self.moves.neighbours.len();
        let blank = R::blank_cells(u).trailing_zeros();
        let mut symbols = [0u8; MAX_CELLS];
        let mut slid = [0u8; MAX_CELLS];
        let mut unranked = false;
        for line in &self.moves.lines[blank as usize] {
            let Some((&first, farther)) = line.split_first() else {
                continue;
            };
            if visit(self.ranks.moved::<B>(u, blank, first)) {
                return true;
            }
            if farther.is_empty() {
                continue;
            }
            if !std::mem::replace(&mut unranked, true) {
                self.ranks.symbols_of(rank, &mut symbols[..cells]);
            }
            slid[..cells].copy_from_slice(&symbols[..cells]);
            slid.swap(blank as usize, first as usize);
            let mut at = first as usize;
            for &c in farther {
                slid.swap(at, c as usize);
                at = c as usize;
                if visit(self.ranks.rank_of(&slid[..cells])) {
                    return true;
                }
            }
        }
        false
    }

    /// Calls `visit` with the rank of each move's target from `u` until it says to stop
    /// (true); whether it did.
    #[inline(always)]
    fn targets<B: Bits>(&self, u: &R::State, mut visit: impl FnMut(u64) -> bool) -> bool {
        let blanks = R::blank_cells(u);
        let mut each = blanks;
        while each != 0 {
            let a = each.trailing_zeros();
            each &= each - 1;
            let mut from = self.moves.neighbours[a as usize] & !blanks;
            while from != 0 {
                let b = from.trailing_zeros();
                from &= from - 1;
                if visit(self.ranks.moved::<B>(u, a, b)) {
                    return true;
                }
            }
        }
        false
    }

    fn expand_list(&self, states: &[u64], found: &mut Found<R::State>) {
        #[cfg(target_arch = "x86_64")]
        if crate::bfs::bits::has_bit_instructions() {
            // SAFETY: as `expand_words`.
            return unsafe { self.expand_list_bmi2(states, found) };
        }
        self.expand_list_with::<Portable>(states, found)
    }

    /// # Safety
    /// The CPU must have `popcnt`, BMI1 and BMI2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1,bmi2")]
    unsafe fn expand_words_bmi2(&self, words: std::ops::Range<usize>, found: &mut Found<R::State>) {
        self.expand_words_with::<crate::index::arrangement::Bmi2>(words, found)
    }

    /// # Safety
    /// As `expand_words_bmi2`.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1,bmi2")]
    unsafe fn expand_list_bmi2(&self, states: &[u64], found: &mut Found<R::State>) {
        self.expand_list_with::<crate::index::arrangement::Bmi2>(states, found)
    }

    #[inline(always)]
    fn expand_words_with<B: Bits>(
        &self,
        words: std::ops::Range<usize>,
        found: &mut Found<R::State>,
    ) {
        for w in words {
            let mine = coded(self.table[w].load(Relaxed), self.frontier);
            if mine == 0 {
                continue;
            }
            let mut left = mine;
            while left != 0 {
                let slot = u64::from(left.trailing_zeros() / 2);
                left &= left - 1;
                self.expand::<B>(w as u64 * 32 + slot, found);
                if found.waiting >= BATCH {
                    self.claim_batch(found);
                }
            }
            self.settle_word(w, mine);
        }
        self.claim_batch(found);
    }

    #[inline(always)]
    fn expand_list_with<B: Bits>(&self, states: &[u64], found: &mut Found<R::State>) {
        for &s in states {
            self.expand::<B>(s, found);
            self.settle_word((s / 32) as usize, 1 << (2 * (s % 32)));
            if found.waiting >= BATCH {
                self.claim_batch(found);
            }
        }
        self.claim_batch(found);
    }

    /// Adds every target of state `state` to the batch, its word prefetched.
    #[inline(always)]
    fn expand<B: Bits>(&self, state: u64, found: &mut Found<R::State>) {
        self.ranks.unrank_state::<B>(state, &mut found.state);
        let Found {
            state: u,
            batch,
            waiting,
            ..
        } = found;
        self.each_target::<B>(state, u, |target| {
            prefetch(&self.table[(target / 32) as usize]);
            batch[*waiting] = target;
            *waiting += 1;
            false
        });
    }

    /// Codes each target of the batch N if it is not reached yet, counting it (and listing
    /// it) once.
    #[inline(always)]
    fn claim_batch(&self, found: &mut Found<R::State>) {
        let next = 3 ^ self.frontier;
        for &state in &found.batch[..found.waiting] {
            let word = &self.table[(state / 32) as usize];
            let shift = 2 * (state % 32);
            if (word.load(Relaxed) >> shift) & 3 != 0 {
                continue;
            }
            if (word.fetch_or(next << shift, Relaxed) >> shift) & 3 == 0 {
                found.new += 1;
                if (found.list.len() as u64) < self.listed_most {
                    found.list.push(state);
                }
            }
        }
        found.waiting = 0;
    }
}

/// Asks the CPU to bring `word` into its cache.
#[inline(always)]
fn prefetch(word: &AtomicU64) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch only hints; any address may be given.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>(word.as_ptr() as *const i8);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = word;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bfs::walk::{token_ranks, walk_tokens};
    use crate::graph::family;
    use crate::index::arrangement::ArrangementRank;
    use crate::index::tiles::TileRank;
    use crate::puzzle::tokens::Tokens;

    /// The goal's class by the search, on one thread and on several, and with no list at all
    /// (every layer scanned for), over either index: the layers of the walk over the
    /// lexicographic ranks, and the last layer's arrangements a plain search's.
    #[test]
    fn the_search_finds_the_walks_layers() {
        for (g, goal) in [
            (family::grid(3, 3).unwrap(), "1 2 3 4 5 6 7 0 0"),
            (family::grid(3, 3).unwrap(), "1 1 1 2 2 2 3 3 0"),
            (family::grid(2, 4).unwrap(), "1 2 3 4 5 6 7 0"),
            (family::grid(2, 4).unwrap(), "0 2 3 0 5 6 7 0"),
            (family::theta0(), "1 1 2 3 4 5 0"),
            (family::theta0(), "1 2 3 4 5 6 0"),
            (family::petersen(), "1 1 2 2 3 3 0 0 0 0"),
            (family::petersen(), "1 2 3 4 5 6 0 0 0 0"),
            (family::cycle(6).unwrap(), "1 1 2 2 0 0"),
            (family::path(5).unwrap(), "1 2 0 3 0"),
        ] {
            let n = g.vertices();
            let tokens = Tokens::parse(goal, n).unwrap();
            let walked = walk_tokens(&g, &tokens, &|_| {}).unwrap();
            let (lexicographic, symbols) = token_ranks(&g, &tokens).unwrap();
            let counts: Vec<usize> = tokens.multiplicities().values().copied().collect();
            let ranks = ArrangementRank::new(&counts).unwrap();
            assert_eq!(lexicographic.arrangements(), ranks.arrangements());
            check(&g, &ranks, &symbols, &walked, goal);
            if tokens.tiles_distinct() {
                let tiles = TileRank::new(n - tokens.blanks(), tokens.blanks()).unwrap();
                check(&g, &tiles, &symbols, &walked, goal);
            }
        }
    }

    const KEEP: Asked = Asked {
        depths: true,
        stop: None,
        checkpoints: None,
    };

    /// A stop set before the search ends it before its first layer, in an error.
    #[test]
    fn a_stop_ends_the_search() {
        let g = family::grid(3, 3).unwrap();
        let ranks = ArrangementRank::new(&[2, 7]).unwrap();
        let stop = AtomicBool::new(true);
        let asked = Asked {
            depths: false,
            stop: Some(&stop),
            checkpoints: None,
        };
        let moves = ArrangementMoves::of_graph(&g);
        let found = search_arrangements(&ranks, &moves, 0, asked, &|_, _| {});
        assert!(matches!(found, Err(Error::Stopped(_))), "{found:?}");
    }

    /// Every boundary saved in memory; the search stopped (as by a signal) at depth `stop_at`.
    struct Memory {
        saved: std::sync::Mutex<Option<Pause<Vec<u64>>>>,
        stop_at: u32,
    }

    impl Checkpoints for Memory {
        fn resume(&self) -> Result<Option<Pause<crate::bfs::table::Table>>, Error> {
            let saved = self.saved.lock().unwrap();
            Ok(saved.as_ref().map(|b| Pause {
                layers: b.layers.clone(),
                code: b.code,
                table: crate::bfs::table::Table::from_words(b.table.clone()),
                depths: b.depths.clone().map(crate::bfs::table::Table::from_words),
            }))
        }

        fn reached(&self, at: &Pause<&[AtomicU64]>, stopping: bool) -> Result<(), Error> {
            assert!(!stopping, "no stop asked");
            let words = |t: &[AtomicU64]| t.iter().map(|w| w.load(Relaxed)).collect();
            *self.saved.lock().unwrap() = Some(Pause {
                layers: at.layers.clone(),
                code: at.code,
                table: words(at.table),
                depths: at.depths.map(words),
            });
            let depth = at.layers.len() as u32 - 1;
            match depth == self.stop_at {
                true => Err(Error::Stopped(format!("at {depth}"))),
                false => Ok(()),
            }
        }
    }

    /// A search stopped at any boundary (its first, one in the middle, its last) and resumed
    /// from what it saved there finds what it finds at one go: layers, last layer, depths;
    /// with every layer listed as it can be, and with none (the last layer then listed by a
    /// second search, which resumes only a boundary before it).
    #[test]
    fn a_search_resumed_at_any_boundary_finds_the_same() {
        for (g, counts, goal) in [
            (family::grid(3, 3).unwrap(), vec![2, 7], "0 0 1 1 1 1 1 1 1"),
            (family::theta0(), vec![2, 1, 1, 1, 1, 1], "1 1 2 3 4 5 0"),
        ] {
            let ranks = ArrangementRank::new(&counts).unwrap();
            let tokens = Tokens::parse(goal, g.vertices()).unwrap();
            let symbols = crate::index::goal_index::Symbols::of(&tokens).encode(&tokens);
            let start = ranks.rank_of(&symbols.unwrap());
            let moves = ArrangementMoves::of_graph(&g);
            for listed in [1 << 16, 0] {
                let whole = search_listing(&ranks, &moves, start, listed, KEEP, &|_, _| {});
                let whole = whole.unwrap();
                let last = whole.layers.len() as u32 - 1;
                for stop_at in [0, last / 2, last] {
                    let memory = Memory {
                        saved: std::sync::Mutex::new(None),
                        stop_at,
                    };
                    let asked = Asked {
                        checkpoints: Some(&memory),
                        ..KEEP
                    };
                    let stopped = search_listing(&ranks, &moves, start, listed, asked, &|_, _| {});
                    assert!(
                        matches!(stopped, Err(Error::Stopped(_))),
                        "{goal} at {stop_at}"
                    );
                    let on = Memory {
                        saved: memory.saved,
                        stop_at: u32::MAX,
                    };
                    let asked = Asked {
                        checkpoints: Some(&on),
                        ..KEEP
                    };
                    // Told only the layers past the boundary: the saved ones are not searched
                    // again.
                    let told = std::sync::Mutex::new(vec![]);
                    let progress = |depth, _| told.lock().unwrap().push(depth);
                    let resumed = search_listing(&ranks, &moves, start, listed, asked, &progress);
                    assert_eq!(resumed.unwrap(), whole, "{goal} from {stop_at}, {listed}");
                    let told = told.into_inner().unwrap();
                    assert_eq!(told, (stop_at + 1..=last).collect::<Vec<_>>(), "{goal}");
                }
            }
        }
    }

    fn check<R: ArrangementIndex>(
        g: &crate::graph::Graph,
        ranks: &R,
        symbols: &[u8],
        walked: &crate::bfs::walk::Walk,
        goal: &str,
    ) {
        let n = g.vertices();
        let moves = ArrangementMoves::of_graph(g);
        let start = ranks.rank_of(symbols);
        for threads in [1, 3] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let found =
                pool.install(|| search_arrangements(ranks, &moves, start, KEEP, &|_, _| {}));
            let found = found.unwrap();
            assert_eq!(found.layers, walked.goal_depths, "{goal} on {threads}");
            assert_eq!(found.marked, walked.goal_states(), "{goal}");
            let depths = found.depths.as_ref().expect("asked for");
            let mut last: Vec<Vec<u8>> = found
                .last
                .iter()
                .map(|&r| {
                    let mut a = vec![0; n];
                    ranks.symbols_of(r, &mut a);
                    a
                })
                .collect();
            last.sort();
            // The last layer and every depth by a plain search over explicit arrangements.
            let mut layer = vec![symbols.to_vec()];
            let mut seen = std::collections::HashMap::from([(symbols.to_vec(), 0u64)]);
            loop {
                let depth = seen[&layer[0]] + 1;
                let mut next = vec![];
                for a in &layer {
                    for (u, v) in (0..n).flat_map(|u| g.neighbours(u).map(move |v| (u, v))) {
                        let mut b = a.clone();
                        if b[u] == 0 && b[v] != 0 {
                            b.swap(u, v);
                            if !seen.contains_key(&b) {
                                seen.insert(b.clone(), depth);
                                next.push(b);
                            }
                        }
                    }
                }
                if next.is_empty() {
                    break;
                }
                layer = next;
            }
            layer.sort();
            assert_eq!(last, layer, "{goal}");
            // Each rank's code: 1 + its depth mod 3 where reached, else 0.
            let mut a = vec![0; n];
            for rank in 0..ranks.count() {
                ranks.symbols_of(rank, &mut a);
                let want = seen.get(&a).map_or(0, |d| 1 + d % 3);
                assert_eq!(depths.0.get(rank), want, "{goal}: {a:?}");
            }
        }
        // Nothing listed: every layer scanned for, the last found by a second search; without
        // the depths, the same search.
        let unlisted = search_listing(ranks, &moves, start, 0, KEEP, &|_, _| {}).unwrap();
        let listed = search_arrangements(ranks, &moves, start, KEEP, &|_, _| {}).unwrap();
        assert_eq!(unlisted, listed, "{goal}");
        let mut bare =
            search_arrangements(ranks, &moves, start, Asked::default(), &|_, _| {}).unwrap();
        assert!(bare.depths.is_none());
        bare.depths = listed.depths.clone();
        assert_eq!(bare, listed, "{goal}");
    }
}

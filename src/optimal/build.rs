//! Builds a pattern database: the exact distance of every placement of a pattern's tiles, by a
//! breadth-first search of the pattern's abstract space from its goal.
//!
//! An abstract state is where the pattern's tiles are and where the blank is; the other tiles
//! are indistinguishable. A move of the blank over one of those costs nothing (it moves no
//! pattern tile); a move of a pattern tile costs one. So the blank's position matters only up
//! to its region: the free cells (no pattern tile) connected to it. The search is a 0-1 BFS
//! over (placement, region): each layer moves one pattern tile into the region next to it, and
//! the region it leaves behind (the whole region is reached at once, at no cost). A placement's
//! entry is the least depth of any of its regions: the distance with the blank wherever it
//! helps, the value additive partitions are built from (Korf & Felner, AIJ 2002; Felner, Korf
//! & Hanan, JAIR 2004).
//!
//! Placements are ranked densely (`index::partial`). Each has one word: the cells of the
//! regions reached so far, and above them 1 + the depth it was first reached at, so a probe
//! touches one cache line. A layer is a list of its states, the tiles' and the blank's cells
//! packed in a u64 (no unranking to expand them). Layers are expanded in parallel (rayon); a
//! region is claimed by an atomic OR of its cells, so each is expanded once, and the probes are
//! fetched ahead in batches (they miss the cache; together they overlap). The words are in
//! huge pages where the system gives them.

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering};

use rayon::prelude::*;

use crate::bfs::bits::bit_instructions;
use crate::error::Error;
use crate::index::partial::Arrangements;
use crate::optimal::pages::Pages;
use crate::optimal::pattern::{check_shape, Pattern};
use crate::optimal::region::Geometry;

/// The entry of a placement the search never reached (none of a solvable board's).
pub const UNREACHED: u8 = u8::MAX;

/// Bytes a search of `pattern` uses: a word per placement (4 bytes up to 24 cells, 8 beyond)
/// and the largest layer's list and the next (8 bytes per state; the largest layer measured
/// holds a third of the placements: 4x4's 7 and 8 tiles, 32% and 34%), and the entries.
pub fn bytes_needed(pattern: &Pattern) -> Result<f64, Error> {
    let placements = Arrangements::new(pattern.shape.cells(), pattern.tiles.len())?.count() as f64;
    let word = if pattern.shape.cells() <= 24 {
        4.0
    } else {
        8.0
    };
    Ok(placements * (word + 1.0) + 2.0 * 0.4 * placements * 8.0)
}

/// A finished search: the database's entries and how the search went.
#[derive(Debug)]
pub struct Built {
    /// The distance of each placement (by rank), `UNREACHED` for those no search reaches.
    pub entries: Pages,
    /// (placement, region) pairs first reached at each depth.
    pub layers: Vec<u64>,
}

/// One finished layer of a search, for progress.
#[derive(Clone, Copy, Debug)]
pub struct LayerBuilt {
    /// The depth just reached.
    pub depth: u32,
    /// The (placement, region) pairs at that depth.
    pub states: u64,
    /// Placements reached so far.
    pub placements: u64,
    /// All placements.
    pub total: u64,
}

/// Searches `pattern`'s abstract space from its goal; `done` hears of each layer, and `stop`
/// (when set) ends the search with an error between layers.
pub fn build(
    pattern: &Pattern,
    done: &(dyn Fn(LayerBuilt) + Sync),
    stop: Option<&AtomicBool>,
) -> Result<Built, Error> {
    check_shape(pattern.shape)?;
    if pattern.shape.cells() <= 24 {
        Search::<AtomicU32>::new(pattern)?.run(pattern, done, stop)
    } else {
        Search::<AtomicU64>::new(pattern)?.run(pattern, done, stop)
    }
}

/// A placement's word: its regions' cells below `DEPTH_SHIFT`, 1 + its depth above.
trait Word: Sync + Send + Sized {
    const DEPTH_SHIFT: u32;
    fn load(&self) -> u64;
    fn fetch_or(&self, bits: u64) -> u64;
}

impl Word for AtomicU32 {
    const DEPTH_SHIFT: u32 = 24;
    #[inline(always)]
    fn load(&self) -> u64 {
        u64::from(AtomicU32::load(self, Ordering::Relaxed))
    }
    #[inline(always)]
    fn fetch_or(&self, bits: u64) -> u64 {
        u64::from(AtomicU32::fetch_or(self, bits as u32, Ordering::Relaxed))
    }
}

impl Word for AtomicU64 {
    const DEPTH_SHIFT: u32 = 32;
    #[inline(always)]
    fn load(&self) -> u64 {
        AtomicU64::load(self, Ordering::Relaxed)
    }
    #[inline(always)]
    fn fetch_or(&self, bits: u64) -> u64 {
        AtomicU64::fetch_or(self, bits, Ordering::Relaxed)
    }
}

/// A search's tables.
struct Search<W> {
    arrangements: Arrangements,
    geometry: Geometry,
    pack: Packing,
    /// Per placement, its word.
    words: Zeroed<W>,
}

impl<W: Word> Search<W> {
    fn new(pattern: &Pattern) -> Result<Search<W>, Error> {
        let arrangements = Arrangements::new(pattern.shape.cells(), pattern.tiles.len())?;
        let count = usize::try_from(arrangements.count())
            .map_err(|_| Error::Argument("too many placements for this machine".into()))?;
        let words = Zeroed::new(count)
            .map_err(|e| Error::Argument(format!("cannot map {count} placements: {e}")))?;
        Ok(Search {
            arrangements,
            geometry: Geometry::new(pattern.shape),
            pack: Packing::of(pattern)?,
            words,
        })
    }

    fn run(
        self,
        pattern: &Pattern,
        done: &(dyn Fn(LayerBuilt) + Sync),
        stop: Option<&AtomicBool>,
    ) -> Result<Built, Error> {
        let goal_cells = pattern.goal_cells();
        let start = self.arrangements.rank(&goal_cells);
        let blank = pattern.goal.0 as u32;
        let occupied = goal_cells.iter().fold(0u32, |m, &c| m | 1 << c);
        let region = self.geometry.region(blank, self.geometry.all() & !occupied);
        self.words[start as usize].fetch_or(u64::from(region) | 1 << W::DEPTH_SHIFT);
        // A layer is kept in parts of at most PART states, moved, never copied, from the
        // workers that make them to those that expand them, and emptied parts are reused (one
        // large list per layer meant fresh pages, faulted in and zeroed by the kernel, for
        // every layer).
        let mut frontier = vec![vec![self.pack.pack(&goal_cells, blank as u8)]];
        let spare = std::sync::Mutex::new(vec![]);
        let mut layers = vec![1u64];
        let mut placements = 1u64;
        let total = self.arrangements.count();
        done(LayerBuilt {
            depth: 0,
            states: 1,
            placements,
            total,
        });
        loop {
            if stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
                return Err(Error::Stopped(format!(
                    "building {pattern} of {}",
                    pattern.shape
                )));
            }
            let depth = layers.len() as u32;
            if depth >= u32::from(UNREACHED) {
                return Err(Error::Argument(format!(
                    "pattern {pattern} of {} has placements more than {} moves away: past what a database entry holds",
                    pattern.shape,
                    UNREACHED - 1
                )));
            }
            let entry = u64::from(depth + 1) << W::DEPTH_SHIFT;
            // One worker per thread takes the layer's parts in order from a shared counter: the
            // workers move through the table together, bucket by bucket.
            let taken = AtomicUsize::new(0);
            let parts: Vec<Parts> = (0..rayon::current_num_threads())
                .into_par_iter()
                .map(|_| worker(&self, &frontier, &taken, entry, &spare))
                .collect();
            // The lists just expanded are emptied and kept for the next layer's parts.
            let mut emptied = std::mem::take(&mut frontier);
            emptied.iter_mut().for_each(Vec::clear);
            spare.lock().expect("not poisoned").extend(emptied);
            placements += parts.iter().map(|p| p.1).sum::<u64>();
            let mut next: Vec<(u16, Vec<u64>)> = parts.into_iter().flat_map(|p| p.0).collect();
            // In order of the first two tiles' cells: the layer is then expanded range of the
            // table by range of the table (see `Claims`).
            next.sort_by_key(|p| p.0);
            frontier = next.into_iter().map(|p| p.1).collect();
            let len: usize = frontier.iter().map(Vec::len).sum();
            if len == 0 {
                break;
            }
            layers.push(len as u64);
            done(LayerBuilt {
                depth,
                states: len as u64,
                placements,
                total,
            });
        }
        let mut entries = Pages::zeroed(self.words.len()).map_err(|e| {
            Error::Argument(format!(
                "cannot map {} bytes for the database of {pattern}: {e}",
                self.words.len()
            ))
        })?;
        entries
            .par_iter_mut()
            .zip(self.words.par_iter())
            .for_each(|(e, w)| *e = ((w.load() >> W::DEPTH_SHIFT) as u8).wrapping_sub(1));
        Ok(Built { entries, layers })
    }

    /// The body of `worker`, inlined into both of its copies.
    #[inline(always)]
    fn worker_any(
        &self,
        layer: &[Vec<u64>],
        taken: &AtomicUsize,
        entry: u64,
        spare: &Spare,
    ) -> Parts {
        let mut claims = Claims {
            words: &self.words,
            entry,
            bits: self.pack.bits,
            bucket_tiles: self.pack.items.min(2) as u32,
            pending: Vec::with_capacity(PENDING + 64),
            next: vec![],
            spare,
            done: vec![],
            first: 0,
        };
        while let Some(part) = layer.get(taken.fetch_add(1, Ordering::Relaxed)) {
            for &item in part {
                self.expand(item, &mut claims);
            }
        }
        claims.flush();
        for (bucket, part) in claims.next.into_iter().enumerate() {
            if !part.is_empty() {
                claims.done.push((bucket as u16, part));
            }
        }
        (claims.done, claims.first)
    }

    /// Expands the region of `item` (a packed state): every move of a pattern tile into the
    /// region, each with the region it leaves the blank, to `claims`.
    #[inline(always)]
    fn expand(&self, item: u64, claims: &mut Claims<W>) {
        let g = &self.geometry;
        let mut at = [0u8; 32];
        let at = &mut at[..self.pack.items];
        let (blank, last) = self.pack.unpack(item, at);
        let occupied = at.iter().fold(0u32, |m, &c| m | 1 << c);
        let free = g.all() & !occupied;
        let region = g.region(blank, free);
        // Per tile, the rank's part and the cells of the tiles before it: a move of tile i
        // ranks only tiles i and after again.
        let mut before = [(0u64, 0u64); 32];
        let (mut rank, mut taken) = (0, 0);
        for i in 0..at.len() {
            before[i] = (rank, taken);
            rank += self.arrangements.term(i, at[i], taken);
            taken |= 1 << at[i];
        }
        for i in 0..at.len() {
            let from = at[i];
            let mut targets = g.neighbours(1 << from) & region;
            if i == last {
                // Back where it came from: the layer before.
                targets &= !(1 << blank);
            }
            while targets != 0 {
                let to = targets.trailing_zeros();
                targets &= targets - 1;
                at[i] = to as u8;
                let reached = g.region(u32::from(from), (free | 1 << from) & !(1 << to));
                let next = self.pack.moved(item, i, from, to as u8);
                let (rank, taken) = before[i];
                claims.push(
                    self.arrangements.rank_from(i, rank, taken, at),
                    reached,
                    next,
                );
            }
            at[i] = from;
        }
        if claims.pending.len() >= PENDING {
            claims.flush();
        }
    }
}

/// A state in a layer's list: the pattern tiles' cells and the blank's, `bits` bits each, in
/// one u64 (4 bits on boards up to 16 cells, 5 up to 32), so that expanding it needs no
/// unranking; and above them, where there is room, 1 + the tile whose move made the state
/// (0 if none): moving it back leads to the layer before, which is never new, so it is not
/// tried (a fifth of the probes of 4x4's 7 and 8 tiles).
#[derive(Clone, Copy, Debug)]
struct Packing {
    bits: u32,
    items: usize,
    /// Whether the last tile moved is kept.
    last: bool,
}

bit_instructions! {
    /// Expands the parts of `layer` not yet `taken` (a counter shared by the workers): the
    /// regions claimed for the next layer (whose placements reached first get `entry`) and how
    /// many placements were reached first (ranks count cells with the CPU's population count).
    fn worker[W: Word][W](
        search: &Search<W>,
        layer: &[Vec<u64>],
        taken: &AtomicUsize,
        entry: u64,
        spare: &Spare,
    ) -> Parts {
        search.worker_any(layer, taken, entry, spare)
    }
}

impl Packing {
    fn of(pattern: &Pattern) -> Result<Packing, Error> {
        let bits = if pattern.shape.cells() <= 16 { 4 } else { 5 };
        let items = pattern.tiles.len();
        let used = (items as u32 + 1) * bits;
        if used > 64 {
            return Err(Error::Argument(format!(
                "pattern {pattern} has {items} tiles: at most {} on {}",
                64 / bits - 1,
                pattern.shape
            )));
        }
        Ok(Packing {
            bits,
            items,
            last: used + 5 <= 64,
        })
    }

    fn pack(&self, at: &[u8], blank: u8) -> u64 {
        let cells = at
            .iter()
            .rev()
            .fold(0u64, |v, &c| v << self.bits | u64::from(c));
        cells | u64::from(blank) << (self.bits as usize * self.items)
    }

    /// Unpacks the tiles' cells into `at`; returns the blank's cell and the index of the tile
    /// moved last (`usize::MAX` if none is known).
    #[inline(always)]
    fn unpack(&self, item: u64, at: &mut [u8]) -> (u32, usize) {
        let mask = (1u64 << self.bits) - 1;
        for (i, c) in at.iter_mut().enumerate() {
            *c = (item >> (i as u32 * self.bits) & mask) as u8;
        }
        let blank_at = self.items as u32 * self.bits;
        let last = if self.last {
            (item >> (blank_at + self.bits)) as usize
        } else {
            0
        };
        ((item >> blank_at & mask) as u32, last.wrapping_sub(1))
    }

    /// `item` with tile `i` moved from `from` to `to`, and the blank on `from`.
    #[inline(always)]
    fn moved(&self, item: u64, i: usize, from: u8, to: u8) -> u64 {
        let blank_at = self.items as u32 * self.bits;
        let cells = item & ((1u64 << blank_at) - 1);
        let cells = cells ^ u64::from(from ^ to) << (i as u32 * self.bits);
        let last = if self.last {
            (i as u64 + 1) << (blank_at + self.bits)
        } else {
            0
        };
        cells | u64::from(from) << blank_at | last
    }
}

/// Successors waiting to be claimed: their words are fetched ahead.
const PENDING: usize = 256;

/// States in a part of a layer.
const PART: usize = 1 << 13;

/// Emptied parts of layers, for new parts.
type Spare = std::sync::Mutex<Vec<Vec<u64>>>;

/// A worker's share of the next layer: parts with their buckets, and the placements reached first.
type Parts = (Vec<(u16, Vec<u64>)>, u64);

/// One worker's claims: successors pending, and the regions it claimed for the next layer, in
/// parts by bucket: the first two tiles' cells. The placements of a bucket are a range of ranks
/// (those tiles' digits are the rank's leading ones), so a layer taken bucket by bucket moves
/// through the table range by range: the moves of the other tiles, all but two in k, probe
/// within the range (4x4's 8 tiles: 8.6 MB of 2 GB), which the cache keeps.
struct Claims<'a, W> {
    words: &'a [W],
    /// 1 + the next layer's depth, shifted into place.
    entry: u64,
    /// Bits per cell in a packed state, and the tiles whose cells make its bucket.
    bits: u32,
    bucket_tiles: u32,
    /// (rank, region cells, packed state).
    pending: Vec<(u64, u32, u64)>,
    /// Per bucket, the part being filled; the parts full.
    next: Vec<Vec<u64>>,
    spare: &'a Spare,
    done: Vec<(u16, Vec<u64>)>,
    /// Placements this worker reached first.
    first: u64,
}

impl<W: Word> Claims<'_, W> {
    /// The bucket of a packed state: its first tiles' cells, the first one leading.
    #[inline(always)]
    fn bucket(&self, item: u64) -> usize {
        let mask = (1u64 << self.bits) - 1;
        (0..self.bucket_tiles).fold(0, |b, i| b << self.bits | (item >> (i * self.bits) & mask))
            as usize
    }

    #[inline(always)]
    fn push(&mut self, rank: u64, reached: u32, item: u64) {
        crate::bfs::table::prefetch(&self.words[rank as usize]);
        self.pending.push((rank, reached, item));
    }

    /// Claims the pending regions not reached before: each is pushed to `next`, and a
    /// placement reached for the first time gets the layer's depth. (Two workers reaching a
    /// placement first in the same layer both write that depth; an OR of equal bits.)
    #[inline(always)]
    fn flush(&mut self) {
        let regions = (1u64 << W::DEPTH_SHIFT) - 1;
        for &(rank, reached, item) in &self.pending {
            let word = &self.words[rank as usize];
            let reached = u64::from(reached);
            let seen = word.load();
            if seen & reached == 0 {
                let depth = if seen & regions == 0 { self.entry } else { 0 };
                let old = word.fetch_or(reached | depth);
                if old & reached == 0 {
                    self.first += u64::from(old & regions == 0);
                    let bucket = self.bucket(item);
                    if bucket >= self.next.len() {
                        self.next.resize_with(bucket + 1, Vec::new);
                    }
                    let part = &mut self.next[bucket];
                    if part.len() == part.capacity() {
                        let new = self.spare.lock().expect("not poisoned").pop();
                        let mut new = new.unwrap_or_default();
                        new.reserve(PART);
                        let full = std::mem::replace(part, new);
                        if !full.is_empty() {
                            self.done.push((bucket as u16, full));
                        }
                    }
                    self.next[bucket].push(item);
                }
            }
        }
        self.pending.clear();
    }
}

/// Zeroed atomics, in huge pages where the system gives them (see `pages`).
struct Zeroed<A> {
    pages: Pages,
    len: usize,
    _atomic: std::marker::PhantomData<A>,
}

impl<A: Word> Zeroed<A> {
    fn new(len: usize) -> std::io::Result<Zeroed<A>> {
        let bytes = len
            .checked_mul(std::mem::size_of::<A>())
            .ok_or(std::io::ErrorKind::OutOfMemory)?;
        Ok(Zeroed {
            pages: Pages::huge(bytes)?,
            len,
            _atomic: std::marker::PhantomData,
        })
    }
}

impl<A: Word> std::ops::Deref for Zeroed<A> {
    type Target = [A];

    fn deref(&self) -> &[A] {
        // SAFETY: the mapping is page-aligned (so aligned for A), `len` atomics long and zeroed;
        // the words (AtomicU32, AtomicU64) have their integer's layout, for which any bytes are
        // valid; they are only accessed through atomic operations.
        unsafe { std::slice::from_raw_parts(self.pages.as_ptr() as *const A, self.len) }
    }
}

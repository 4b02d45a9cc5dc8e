//! Batches of states whose targets are computed together and prefetched a batch ahead of
//! their test (`Batch`, every kind of moves'; the single-tile scans' is `single::verticals`).

/// The one prefetching batcher of every kind of moves' scans: states (`S`) wait until a batch
/// is full; a flush computes the targets (`O`) of each state waiting, prefetching their words,
/// and hands back those the batch before computed, whose words are in cache by then.
///
/// A target lands far from its state (a vertical move, a tenth of the table away on 2x6, from
/// the top row), so a batch's targets are computed together and tested while the next batch is
/// computed: the CPU never waits on one target's load to compute the next, and the atomic
/// claims, which wait for every load before them, find their words there. Each step is a short
/// loop of its own, with few values live: the scan of the words, the computing of targets and
/// the claims no longer share registers (one loop doing all three kept a third of its values on
/// the stack).
pub(super) struct Batch<S, O> {
    states: [S; ROOM],
    waiting: usize,
    /// What the last two batches computed, a value a state: the last one's are in
    /// `computed[last]`, `ready` of them.
    computed: [[O; ROOM]; 2],
    last: usize,
    ready: usize,
}

/// States a batch holds: its targets are tested a batch after their prefetch, the longer the
/// better up to 32 (`docs/log/constants.md`).
const BATCH: usize = 32;

/// States a batch has room for: a batch is computed once it holds `BATCH`, and a word adds up
/// to 32 at once.
pub(super) const ROOM: usize = BATCH + 32;

impl<S: Copy, O: Copy> Batch<S, O> {
    /// An empty batch, its arrays filled with `state` and `out` until written.
    pub(super) fn new(state: S, out: O) -> Self {
        Batch {
            states: [state; ROOM],
            waiting: 0,
            computed: [[out; ROOM]; 2],
            last: 0,
            ready: 0,
        }
    }

    /// Adds `state`; true if the batch is full (then flushed: a batch never holds more).
    #[inline(always)]
    pub(super) fn add(&mut self, state: S) -> bool {
        self.states[self.waiting % ROOM] = state;
        self.waiting += 1;
        self.waiting >= BATCH
    }

    /// Computes what each state waiting leads to (`compute` writes it, prefetching the words
    /// it will read); returns what the batch before computed. The states waiting are then
    /// ready, and the batch empty.
    ///
    /// `compute` must be `#[inline(always)]`: a closure is otherwise a function of its own,
    /// compiled without the bit instructions (`bits::bit_instructions!`) and called once a
    /// state (2x5 multi-tile: 7% more instructions).
    #[inline(always)]
    pub(super) fn flush(&mut self, mut compute: impl FnMut(S, &mut O)) -> &[O] {
        let before = self.last;
        self.last ^= 1;
        // A batch never holds more than `ROOM`: it is flushed once it holds `BATCH`.
        let held = self.waiting;
        for (&state, to) in self.states[..held]
            .iter()
            .zip(&mut self.computed[self.last])
        {
            compute(state, to);
        }
        let ready = std::mem::replace(&mut self.ready, held);
        self.waiting = 0;
        &self.computed[before][..ready]
    }
}

impl<O: Copy> Batch<u64, O> {
    /// Adds the states of a word's slots `mask` (low bits), its first slot being slot q of rank
    /// `rank0`, as `rank0 << 6 | p` (the state at place p from that rank's first slot: slot
    /// p % n of rank `rank0 + p / n`; a rank has n ≤ 17 slots, and p < n + 32); true if the
    /// batch is full.
    ///
    /// A word holds about three frontier states in the bulk layers, a count the branch
    /// predictor cannot guess: a loop over them missed its exit once a word (cachegrind's branch
    /// simulation of 2x6: 87 M of the run's 201 M mispredictions). The first four slots are
    /// written whether they exist or not (a missing one writes a value past the batch's end)
    /// and the end moves past those that do; only a word with more loops.
    #[inline(always)]
    pub(super) fn add_word(&mut self, rank0: u64, q: u64, mask: u64) -> bool {
        let at = self.waiting % BATCH;
        let base = rank0 << 6 | q;
        let mut m = mask;
        for k in 0..4 {
            self.states[at + k] = base + u64::from(m.trailing_zeros() / 2);
            m &= m.wrapping_sub(1);
        }
        let mut k = 4;
        while m != 0 {
            self.states[(at + k) % ROOM] = base + u64::from(m.trailing_zeros() / 2);
            m &= m - 1;
            k += 1;
        }
        self.waiting = at + mask.count_ones() as usize;
        self.waiting >= BATCH
    }
}

//! Claims of neighbours for the next layer, buffered so that their words are prefetched.

use std::sync::atomic::Ordering::Relaxed;
use std::sync::MutexGuard;

use super::batch::ROOM;
use super::deferred::{Deferred, Plain, Sink};
use super::scan::Found;
use crate::bfs::table::{Table, FRONTIER};

/// Claims of neighbours for the next layer: the count (and, if `record`, the indices) of the
/// states this task marked.
///
/// A target is first tested with a plain load, and most are seen already. Whether one is unseen
/// is a coin toss the branch predictor loses, so the test does not branch: every target is
/// written to a small buffer, whose end advances only past unseen ones, and the buffer is
/// claimed (atomically, see `Table::claim_unseen`) when full, in a loop whose branches almost
/// always go the same way; or, in a push on one table, handed to this thread's sink, whose
/// claims are made once the layer's tasks are done (`deferred`).
pub(super) struct Claims<'a> {
    table: &'a Table,
    found: u64,
    record: bool,
    /// The code claims write: `FRONTIER` (by `Table::claim_unseen`), or a multi-tile depth's.
    code: u64,
    marked: Vec<u64>,
    pending: [u64; PENDING],
    waiting: usize,
    /// Where the claims are deferred to (`deferred`), with its region shift, if they are.
    sink: Option<(MutexGuard<'a, Sink>, u32)>,
    /// The sinks' owner, which a claim made atomically stops the plain settling of.
    defer: Option<&'a Deferred>,
    /// The task's leave to settle its words with plain stores, if it has it.
    plain: Option<Plain<'a>>,
}

/// Targets buffered before they are claimed: room for a batch's targets (`offer_all`).
const PENDING: usize = 4 * ROOM;

/// The most targets `Claims::offer_all` takes at once.
pub(super) const OFFER_MOST: usize = PENDING - 4;

impl<'a> Claims<'a> {
    pub(super) fn new(table: &'a Table, record: bool) -> Self {
        Claims::coded(table, record, FRONTIER)
    }

    /// Claims that write `code`.
    pub(super) fn coded(table: &'a Table, record: bool, code: u64) -> Self {
        Claims {
            table,
            found: 0,
            record,
            code,
            marked: vec![],
            pending: [0; PENDING],
            waiting: 0,
            sink: None,
            defer: None,
            plain: None,
        }
    }

    /// These claims deferred to this thread's sink of `defer`, if given and free.
    pub(super) fn deferring(mut self, defer: Option<&'a Deferred>) -> Self {
        self.sink = defer.and_then(|d| Some((d.sink()?, d.shift())));
        self.defer = defer;
        self
    }

    /// These claims deferred, and the task's words settled with plain stores while none of
    /// the layer's claims is made atomically (`deferred::Plain`), if `defer` allows it.
    pub(super) fn settling_plainly(mut self, defer: Option<&'a Deferred>) -> Self {
        self = self.deferring(defer);
        self.plain = defer.and_then(Deferred::plain);
        self
    }

    /// Whether the task may settle its next word with plain stores.
    #[inline(always)]
    pub(super) fn settles_plainly(&mut self) -> bool {
        match &self.plain {
            Some(plain) if plain.holds() => true,
            Some(_) => {
                self.plain = None;
                false
            }
            None => false,
        }
    }

    /// Buffers `index` if it is unseen now.
    #[inline(always)]
    pub(super) fn offer(&mut self, index: u64) {
        self.buffer(index, self.table.get(index) == 0);
    }

    /// Offers every target of `targets`, at most `PENDING - 4` (`offer` with the buffer's end kept
    /// in a register, and room made for all of them first: no test in the loop).
    #[inline(always)]
    pub(super) fn offer_all(&mut self, targets: &[u64]) {
        // `buffer` may add one more.
        if self.waiting + targets.len() > PENDING - 4 {
            self.claim();
        }
        let words = self.table.span(0, self.table.index_words());
        let mut waiting = self.waiting;
        for &index in targets {
            let unseen = (words[(index / 32) as usize].load(Relaxed) >> (2 * (index % 32))) & 3;
            self.pending[waiting % PENDING] = index;
            waiting += usize::from(unseen == 0);
        }
        self.waiting = waiting;
    }

    /// Buffers `index` to be claimed (a pull marks the state it tests).
    #[inline(always)]
    pub(super) fn push(&mut self, index: u64) {
        self.buffer(index, true);
    }

    /// Writes `index` past the buffer's end and moves the end past it if `keep`, without a
    /// branch; claims the buffer when it might not take four more.
    #[inline(always)]
    pub(super) fn buffer(&mut self, index: u64, keep: bool) {
        self.pending[self.waiting % PENDING] = index;
        self.waiting += usize::from(keep);
        if self.waiting > PENDING - 4 {
            self.claim();
        }
    }

    /// Claims the buffer, with the claim of its code chosen once a buffer: a test in the loop
    /// would cost the single-tile engine, whose claims are its hottest loop, on every claim.
    #[inline(never)]
    fn claim(&mut self) {
        if let Some((sink, shift)) = &mut self.sink {
            // Those a full region hands back are claimed now.
            self.waiting = sink.take(&mut self.pending[..self.waiting], *shift);
        }
        if self.waiting == 0 {
            return;
        }
        if let Some(defer) = self.defer {
            // No task may settle plainly while this one claims atomically.
            self.plain = None;
            defer.share();
        }
        let code = self.code;
        if code == FRONTIER {
            self.claim_by(|table, index| table.claim_unseen(index));
        } else {
            self.claim_by(|table, index| table.claim_code(index, code));
        }
    }

    #[inline(always)]
    fn claim_by(&mut self, claim: impl Fn(&Table, u64) -> bool) {
        for &index in &self.pending[..self.waiting] {
            // Every index buffered was unseen when offered (or, for a pull, is an unseen state
            // of the task's own).
            let won = claim(self.table, index);
            self.found += u64::from(won);
            if self.record && won {
                self.marked.push(index);
            }
        }
        self.waiting = 0;
    }

    pub(super) fn finish(mut self) -> Found {
        self.claim();
        Found {
            states: self.found,
            marked: self.marked,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Claims their sinks take leave the tasks settling plainly; a claim made atomically (its
    /// region full) first stops every task's plain settling, its own too.
    #[test]
    fn a_claim_made_atomically_stops_plain_settling() {
        let table = Table::new(4096);
        for (room, atomic) in [(1 << 12, false), (0, true)] {
            let d = Deferred::with_room(4096, 1, room).tasks_of(64);
            let mut claims = Claims::new(&table, false).settling_plainly(Some(&d));
            assert!(claims.settles_plainly(), "room {room}");
            claims.push(7);
            let found = claims.finish();
            assert_eq!(found.states, u64::from(atomic), "room {room}");
            assert_eq!(d.plain().is_none(), atomic, "room {room}");
            let made: u64 = d
                .apply(&table, FRONTIER, false)
                .iter()
                .map(|f| f.states)
                .sum();
            assert_eq!(made, u64::from(!atomic), "room {room}");
            assert_eq!(table.get(7), FRONTIER, "room {room}");
            table.words()[0].store(0, Relaxed);
        }
    }
}

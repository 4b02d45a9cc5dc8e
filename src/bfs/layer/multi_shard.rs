//! The multi-tile metric on a rank's shard of the table (`dist`): push, pull and list, each
//! state's slides routed to this shard or to the rank that holds them.
//!
//! The codes are those of one table (`multi`): 0 unseen, 1 + depth mod 3. A push claims the
//! targets this shard holds with the next code and hands the others to their owners (who claim
//! them with `claim_all_coded`); a pull marks an unseen state of this shard when a neighbour in
//! this shard holds the frontier's code, and asks the owners of its other neighbours whether
//! theirs do. A state's slides are walked one state at a time (a division by the rank's width
//! a state): the rows of a rank need not lie in one shard, so the one-table scans' word-wide
//! claims, which read the words beside a frontier word, are not used here.

use super::claims::Claims;
use super::multi::Pending;
use super::multi_moves::Slides;
use super::scan::{Found, MultiScan};
use crate::bfs::bits::bit_instructions;
use crate::bfs::schedule::Task;
use crate::bfs::shard::Mine;
use crate::bfs::table::Table;

/// Slots of a task whose code is `code`: calls `visit(rank, slot, index)` for each, in order.
#[inline(always)]
fn each_with_code(
    scan: &MultiScan,
    Task { lo, hi }: Task,
    code: u64,
    mut visit: impl FnMut(u64, usize, u64),
) {
    let width = scan.space.width();
    for w in lo / 32..=(hi - 1) / 32 {
        let mut mask = Table::matching(scan.table.word(w as usize), code);
        while mask != 0 {
            let index = w * 32 + u64::from(mask.trailing_zeros() / 2);
            mask &= mask - 1;
            if (lo..hi).contains(&index) {
                visit(index / width, (index % width) as usize, index);
            }
        }
    }
}

/// The shard's claims and the targets for other shards.
struct Route<'a, 'r> {
    claims: Claims<'a>,
    remote: &'r mut Vec<u64>,
    mine: Mine,
}

impl Route<'_, '_> {
    #[inline(always)]
    fn target(&mut self, n: u64) {
        if self.mine.holds(n) {
            self.claims.offer(n);
        } else {
            self.remote.push(n);
        }
    }
}

/// A push on a shard: every slide of the states it is handed, claimed here or sent. Its methods
/// are inlined into the compiled copy of the kernels (`bits::bit_instructions!`).
struct ShardPush<'s, 'a, 'r, const PER: usize> {
    scan: &'s MultiScan<'a>,
    slides: &'s Slides,
    pending: Pending<PER>,
    route: Route<'a, 'r>,
}

impl<'s, 'a, 'r, const PER: usize> ShardPush<'s, 'a, 'r, PER> {
    fn new(scan: &'s MultiScan<'a>, remote: &'r mut Vec<u64>) -> Self {
        ShardPush {
            scan,
            slides: &scan.tables.slides,
            pending: Pending::new(scan.space),
            route: Route {
                claims: Claims::coded(scan.table, scan.record, scan.codes.next),
                remote,
                mine: scan.mine,
            },
        }
    }

    #[inline(always)]
    fn state(&mut self, rank: u64, j: usize, index: u64) {
        let base = index - j as u64;
        let mut row = self.slides.row[j];
        while row != 0 {
            self.route.target(base + u64::from(row.trailing_zeros()));
            row &= row - 1;
        }
        if self.pending.add(rank, j, index) {
            self.flush();
        }
    }

    #[inline(always)]
    fn flush(&mut self) {
        let (targets, _) = self.pending.flush(self.scan, self.slides);
        for state in targets {
            for &n in &state[..PER] {
                self.route.target(n);
            }
        }
    }

    #[inline(always)]
    fn finish(mut self) -> Found {
        // The last states' targets, then the batch before them.
        self.flush();
        self.flush();
        self.route.claims.finish()
    }
}

bit_instructions! {
    /// Push on a shard in the multi-tile metric: the slides of the states of `task` holding the
    /// frontier's code, claimed here with the next code or appended to `remote`.
    pub fn push_multi_shard[const PER: usize][PER](
        scan: &MultiScan,
        task: Task,
        remote: &mut Vec<u64>,
    ) -> Found {
        let mut push = ShardPush::<PER>::new(scan, remote);
        each_with_code(scan, task, scan.codes.done, |rank, j, index| {
            push.state(rank, j, index)
        });
        push.finish()
    }
}

/// List expansion on a shard in the multi-tile metric: as `push_multi_shard`, over listed
/// frontier states of this shard.
pub fn list_multi_shard<const PER: usize>(
    scan: &MultiScan,
    frontier: &[u64],
    remote: &mut Vec<u64>,
) -> Found {
    let mut push = ShardPush::<PER>::new(scan, remote);
    let width = scan.space.width();
    for &i in frontier {
        push.state(i / width, (i % width) as usize, i);
    }
    push.finish()
}

/// Pull on a shard in the multi-tile metric: marks with the next code each unseen state of
/// `task` with a neighbour in this shard holding the frontier's code; for the others, appends
/// (state, neighbour) for each neighbour another shard holds, to be asked. A state found here
/// may also have asked (its vertical slides are tested a batch later): the answer then finds
/// it marked, and claims nothing twice.
pub fn pull_multi_shard<const PER: usize>(
    scan: &MultiScan,
    task: Task,
    queries: &mut Vec<(u64, u64)>,
) -> Found {
    let slides = &scan.tables.slides;
    let (table, mine, code) = (scan.table, scan.mine, scan.codes.done);
    let mut claims = Claims::coded(table, scan.record, scan.codes.next);
    let mut pending = Pending::<PER>::new(scan.space);
    let test = |targets: &[u64], index: u64, claims: &mut Claims, queries: &mut Vec<_>| {
        let here = targets
            .iter()
            .any(|&n| mine.holds(n) && table.get(n) == code);
        if here {
            claims.push(index);
        } else {
            queries.extend(
                targets
                    .iter()
                    .filter(|&&n| !mine.holds(n))
                    .map(|&n| (index, n)),
            );
        }
        here
    };
    let flush = |pending: &mut Pending<PER>, claims: &mut Claims, queries: &mut Vec<_>| {
        let (targets, indices) = pending.flush(scan, slides);
        for (state, &index) in targets.iter().zip(indices) {
            test(&state[..PER], index, claims, queries);
        }
    };
    each_with_code(scan, task, 0, |rank, j, index| {
        let base = index - j as u64;
        let mut row = slides.row[j];
        let mut horizontal = [0u64; 32];
        let mut k = 0;
        while row != 0 {
            horizontal[k] = base + u64::from(row.trailing_zeros());
            row &= row - 1;
            k += 1;
        }
        if !test(&horizontal[..k], index, &mut claims, queries) && pending.add(rank, j, index) {
            flush(&mut pending, &mut claims, queries);
        }
    });
    // The last states' neighbours, then the test of the batch before them.
    flush(&mut pending, &mut claims, queries);
    flush(&mut pending, &mut claims, queries);
    claims.finish()
}

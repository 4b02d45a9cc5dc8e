//! Settling a table's frontier, and the recount of a finished table by depth mod 4: an
//! independent check of the layers.

use std::sync::atomic::Ordering::Relaxed;

use crate::bfs::bits::bit_instructions;
use crate::bfs::coding::Coding;
use crate::bfs::layer::{self, Found};
use crate::bfs::schedule::Schedule;
use crate::bfs::table::{self, Table};
use crate::index::space::StateSpace;

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
/// state whose blank has `start_colour` (by depth mod 3 from the codes alone where `coding`,
/// the moves' code convention, is `Cyclic`): an independent recount of the layers
/// (`Coding::residues_agree`).
pub fn residues(
    space: &StateSpace,
    table: &Table,
    spans: &[(u64, u64)],
    start_colour: usize,
    coding: Coding,
    schedule: &Schedule,
) -> [u64; 4] {
    if coding == Coding::Cyclic {
        return cyclic_residues(table, spans, schedule);
    }
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

/// `residues` of a table coded `Coding::Cyclic`: the states holding each code 1 + d mod 3, by
/// d mod 3 (the fourth count is 0).
fn cyclic_residues(table: &Table, spans: &[(u64, u64)], schedule: &Schedule) -> [u64; 4] {
    let parts = schedule.each_task_of(spans, |task| {
        let words = task.lo.div_ceil(32)..task.hi.div_ceil(32);
        let words = table.span(words.start as usize, words.end as usize);
        count_codes(words)
    });
    parts.iter().fold([0; 4], |mut all, t| {
        (0..3).for_each(|k| all[k] += t[k + 1]);
        all
    })
}

bit_instructions! {
    /// The slots of `words` holding each code.
    fn count_codes[][](words: &[std::sync::atomic::AtomicU64]) -> [u64; 4] {
        let mut tally = [0u64; 4];
        for w in words {
            let w = w.load(Relaxed);
            for (code, n) in tally.iter_mut().enumerate().skip(1) {
                *n += u64::from(Table::matching(w, code as u64).count_ones());
            }
        }
        tally
    }
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

    /// `add` for each of `words` in turn (with `popcnt` where the CPU has it).
    pub fn add_all(
        &self,
        place: &mut usize,
        words: impl Iterator<Item = u64>,
        tally: &mut [u64; 4],
    ) {
        add_words(self, place, words, tally)
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

bit_instructions! {
    /// `Recount::add` for each of `words` in turn.
    fn add_words[][](
        recount: &Recount,
        place: &mut usize,
        words: impl Iterator<Item = u64>,
        tally: &mut [u64; 4],
    ) -> () {
        let (mut p, mut t) = (*place, *tally);
        for w in words {
            recount.add(&mut p, w, &mut t);
        }
        (*place, *tally) = (p, t);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bfs::search_from;
    use crate::index::puzzle::Puzzle;
    use crate::puzzle::board::{Cell, Shape};
    use crate::puzzle::metric::Metric;

    /// The recount of a finished table by depth mod 4 equals its layers' (from any goal, either
    /// class, tasks not on word bounds), and a single settled code flipped (depth 4k+2 read as
    /// 4k, say) breaks it, though the marked count stays right.
    #[test]
    fn residues_recount_the_layers_and_catch_a_flipped_code() {
        for (r, c) in [(2, 3), (3, 3), (2, 4)] {
            let shape = Shape::new(r, c).unwrap();
            for goal in [0, shape.cells() - 1] {
                for class in [0, 1] {
                    let space = StateSpace::new(
                        &Puzzle::board(shape, Cell(goal), Metric::Single).unwrap(),
                        class,
                    )
                    .unwrap();
                    let start = space.states() / 3;
                    let done = search_from(&space, start, Schedule::default(), &|_| {}).unwrap();
                    let colour = space.colour(space.split(start).0);
                    let all = [(0, space.states())];
                    let odd = Schedule {
                        chunk: 77,
                        sequential_states: 0,
                        ..Schedule::default()
                    };
                    for schedule in [Schedule::default(), odd] {
                        let got = residues(
                            &space,
                            &done.table,
                            &all,
                            colour,
                            Coding::Coloured,
                            &schedule,
                        );
                        assert!(
                            Coding::Coloured.residues_agree(&done.layers, got),
                            "{shape} {goal} {class}"
                        );
                    }
                    // Settling with code 0 flips bit 0 of a slot's code: 2 and 3 swap.
                    let i = space.states() / 2;
                    done.table.settle((i / 32) as usize, 1 << (2 * (i % 32)), 0);
                    let got = residues(&space, &done.table, &all, colour, Coding::Coloured, &odd);
                    assert!(
                        !Coding::Coloured.residues_agree(&done.layers, got),
                        "{shape} {goal} {class}"
                    );
                    assert_eq!(done.table.seen(), space.states());
                }
            }
        }
    }
}

//! The states nearest the goal with their exact depths, found by a search of their own: where
//! a descent (`lookup`) reaches one, it stops and adds its depth.
//!
//! Every descent ends in the few layers around the goal (3x4's first 17 layers hold 55,998 of
//! 239,500,800 states), so a few tens of thousands of states cut each descent's last dozen or
//! more steps. They are kept in an open-addressed table of about a megabyte, which stays in
//! the cache, where the steps they replace each wait on memory. The depths come from a plain
//! breadth-first search over indices with the engine's moves, not from the table; a descent
//! that meets one checks it against its own depth mod 4, the table's.

use crate::bfs::layer::{for_each_neighbour, BlankMoves};
use crate::index::rank::Cursor;
use crate::index::space::StateSpace;

/// The most states kept: layers are added while their states number at most this.
const MOST: u64 = 1 << 16;

/// An empty slot.
const EMPTY: u64 = u64::MAX;

/// The states of the first layers from the goal, each with its depth.
pub(super) struct NearGoal {
    keys: Vec<u64>,
    depths: Vec<u8>,
    shift: u32,
}

impl NearGoal {
    /// The states of the first layers from `goal` whose counts `layers` gives, as many as fit
    /// in `MOST` states (the goal's at least).
    pub fn new(space: &StateSpace, moves: &[BlankMoves], goal: u64, layers: &[u64]) -> NearGoal {
        let mut kept = 0;
        let deepest = layers
            .iter()
            .take_while(|&&n| {
                kept += n;
                kept <= MOST
            })
            .count()
            .max(1);
        let slots = (2 * kept.clamp(1, MOST)).next_power_of_two();
        let mut near = NearGoal {
            keys: vec![EMPTY; slots as usize],
            depths: vec![0; slots as usize],
            shift: 64 - slots.trailing_zeros(),
        };
        near.insert(goal, 0);
        let (mut layer, mut cursor) = (vec![goal], Cursor::new());
        for depth in 1..deepest {
            let mut next = Vec::new();
            for &s in &layer {
                let (blank, rank) = space.split(s);
                for_each_neighbour(space, moves, &mut cursor, blank, rank, |t| {
                    if near.get(t).is_none() {
                        near.insert(t, depth as u8);
                        next.push(t);
                    }
                });
            }
            layer = next;
        }
        near
    }

    /// The slot `index` hashes to first.
    #[inline(always)]
    fn slot(&self, index: u64) -> usize {
        (index.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize
    }

    fn insert(&mut self, index: u64, depth: u8) {
        let mask = self.keys.len() - 1;
        let mut i = self.slot(index);
        while self.keys[i] != EMPTY {
            i = (i + 1) & mask;
        }
        (self.keys[i], self.depths[i]) = (index, depth);
    }

    /// The depth of state `index` if it is kept.
    #[inline(always)]
    pub fn get(&self, index: u64) -> Option<u32> {
        let mask = self.keys.len() - 1;
        let mut i = self.slot(index);
        loop {
            match self.keys[i] {
                k if k == index => return Some(u32::from(self.depths[i])),
                EMPTY => return None,
                _ => i = (i + 1) & mask,
            }
        }
    }

    /// States kept.
    #[cfg(test)]
    fn len(&self) -> usize {
        self.keys.iter().filter(|&&k| k != EMPTY).count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bfs::layer::moves;
    use crate::index::puzzle::Puzzle;
    use crate::puzzle::board::{Cell, Shape};
    use crate::puzzle::metric::Metric;

    /// The kept states are the first layers' whole, each at the depth the published
    /// distribution gives it: 3x3 from a corner (Reinefeld 1993; data/reference/
    /// stm_3x3_corner.csv: 1, 2, 4, 8, 16, 20, 39, 62, 116, 152, 286, 396, 748, 1024, ...).
    #[test]
    fn the_first_layers_are_kept_whole() {
        let shape = Shape::new(3, 3).unwrap();
        let space =
            StateSpace::new(&Puzzle::board(shape, Cell(8), Metric::Single).unwrap(), 0).unwrap();
        let published = [1u64, 2, 4, 8, 16, 20, 39, 62, 116, 152, 286, 396, 748, 1024];
        let mut layers = published.to_vec();
        // A layer past the limit is left out, with the ones after it.
        layers.extend([MOST, 1]);
        let near = NearGoal::new(&space, &moves(&space), space.goal_index(), &layers);
        assert_eq!(near.len() as u64, published.iter().sum::<u64>());
        let mut by_depth = vec![0u64; published.len()];
        for (k, &key) in near.keys.iter().enumerate() {
            if key != EMPTY {
                by_depth[near.depths[k] as usize] += 1;
                assert_eq!(near.get(key), Some(u32::from(near.depths[k])));
            }
        }
        assert_eq!(by_depth, published);
        assert_eq!(near.get(space.goal_index()), Some(0));
        assert_eq!(near.get(space.states() + 7), None);
    }
}

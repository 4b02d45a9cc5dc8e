//! A database's entries checked against their neighbours', as any true database's are: what
//! the checksums cannot tell (a file whose entries were changed and its checksums recomputed).
//!
//! A placement's entry d is the least depth of its (placement, region) states (`build`). So if
//! d > 0, some region of the free cells (one whose depth is d) has both
//! - **a way down**: a move of a pattern tile into it gives a placement of entry at most d − 1
//!   (the last move of a shortest way to the placement, undone), and
//! - **no step up of more than one**: every move of a tile into it gives a placement of entry
//!   at most d + 1,
//!
//! which is checked. An entry raised breaks the second fact at a neighbour below it, one
//! lowered breaks the first at itself, unless the neighbours that would tell are reached
//! through other regions than the one that joins them (crowded placements, where a move of a
//! tile splits or joins the blank's cost-free region, so that neighbours' entries differ by more
//! than one): there a change passes. Measured, one entry changed by one move is caught in 78% to
//! 97% of the entries of a database (the tests); entries swapped, nearly always. Only a rebuild
//! is exact (`pdb` into another directory, then compare the files). Placements no search
//! reaches are not checked.
//!
//! Cost: some 30 entries read at random per entry checked: every entry of a small database, or
//! a random sample, at every load; every entry by `pdb --verify` (4x4's 7-8 databases: 575
//! million placements in 67 s on 2 cores).

use rayon::prelude::*;

use crate::optimal::build::UNREACHED;
use crate::optimal::database::Database;
use crate::optimal::region::Geometry;

/// Entries checked at every load: all of a database up to this many placements, a random
/// sample of this many beyond (each check reads some 30 entries at random: a small part of the
/// 0.1 s that the checks add to the 1.1 s load of 4x4's 7-8 pair).
pub const CHECKED_AT_LOAD: u64 = 1 << 14;

impl Database {
    /// Checks every entry (`pdb --verify`); the first placement whose entry its neighbours
    /// contradict, by rank, with the reason.
    pub fn check_all(&self) -> Result<(), String> {
        self.check_ranks((0..self.placements()).into_par_iter())
    }

    /// Checks `CHECKED_AT_LOAD` entries: all of a small database, else some chosen by `rng`.
    pub fn check_sample(&self, rng: &mut crate::puzzle::random::Rng) -> Result<(), String> {
        let count = self.placements();
        if count <= CHECKED_AT_LOAD {
            return self.check_all();
        }
        let ranks: Vec<u64> = (0..CHECKED_AT_LOAD).map(|_| rng.below(count)).collect();
        self.check_ranks(ranks.into_par_iter())
    }

    fn check_ranks(&self, ranks: impl ParallelIterator<Item = u64>) -> Result<(), String> {
        let geometry = Geometry::new(self.pattern.shape);
        let k = self.pattern.tiles.len();
        let bad = ranks.find_map_any(|p| {
            let mut at = [0u8; 32];
            self.arrangements().unrank(p, &mut at[..k]);
            self.contradiction(&geometry, &mut at[..k], p)
                .map(|why| format!("placement {p} (tiles {}): {why}", self.describe(&at[..k])))
        });
        match bad {
            None => Ok(()),
            Some(why) => Err(format!(
                "its entries contradict each other: {why} (a damaged or forged database: build it again)"
            )),
        }
    }

    /// Why the entry of placement `p` (tiles on `at`) cannot be its distance, if so.
    fn contradiction(&self, geometry: &Geometry, at: &mut [u8], p: u64) -> Option<String> {
        let d = self.entry(p);
        if d == UNREACHED || d == 0 {
            return None;
        }
        let occupied = at.iter().fold(0u32, |m, &c| m | 1 << c);
        let free = geometry.all() & !occupied;
        // The entry after moving tile i to cell c.
        let moved = |at: &mut [u8], i: usize, c: u8| {
            let from = at[i];
            at[i] = c;
            let e = self.entry(self.arrangements().rank(at));
            at[i] = from;
            e
        };
        // The region whose depth is d: every move into it leads to at most d + 1, and one
        // (the last move of a shortest way, undone) to at most d - 1.
        let mut left = free;
        let (mut any_down, mut any_steady) = (false, false);
        while left != 0 {
            let region = geometry.region(left.trailing_zeros(), free);
            left &= !region;
            let (mut down, mut steady) = (false, true);
            for i in 0..at.len() {
                let mut targets = geometry.neighbours(1 << at[i]) & region;
                while targets != 0 && steady {
                    let c = targets.trailing_zeros() as u8;
                    targets &= targets - 1;
                    let e = moved(at, i, c);
                    steady = e != UNREACHED && e <= d + 1;
                    down |= e < d;
                }
            }
            if down && steady {
                return None;
            }
            any_down |= down;
            any_steady |= steady;
        }
        Some(if !any_down {
            format!("entry {d}, but no move of a tile leads to an entry below it")
        } else if !any_steady {
            format!(
                "entry {d}, but from every region of the blank some move of a tile leads to an entry above {}",
                d + 1
            )
        } else {
            format!(
                "entry {d}, but no region of the blank has both a move to an entry below it and none above {}",
                d + 1
            )
        })
    }

    /// The pattern's tiles with their cells, `tile@cell` (cells in reading order from 0).
    fn describe(&self, at: &[u8]) -> String {
        let cells: Vec<String> = self
            .pattern
            .tiles
            .iter()
            .zip(at)
            .map(|(t, c)| format!("{t}@{c}"))
            .collect();
        cells.join(" ")
    }
}

#[cfg(test)]
mod tests {
    use crate::optimal::build::build;
    use crate::optimal::database::{reseal, Database};
    use crate::optimal::pattern::Pattern;
    use crate::puzzle::board::{Cell, Shape};

    fn database(shape: &str, tiles: &[u32]) -> Database {
        let shape: Shape = shape.parse().unwrap();
        let p = Pattern::new(shape, Cell(shape.cells() - 1), tiles).unwrap();
        Database::new(p.clone(), build(&p, &|_| {}, None).unwrap()).unwrap()
    }

    /// Every entry of freshly built databases passes, crowded ones (one free cell, placements
    /// unreached) and roomy ones alike.
    #[test]
    fn built_databases_are_consistent() {
        for (shape, tiles) in [
            ("3x3", &[1, 2, 3, 4][..]),
            ("3x3", &[5, 6, 7, 8]),
            ("2x3", &[1, 2, 3, 4, 5]),
            ("2x4", &[1, 3, 5]),
            ("3x4", &[1, 2, 5, 6, 9]),
        ] {
            let db = database(shape, tiles);
            assert_eq!(db.check_all(), Ok(()), "{shape} {tiles:?}");
        }
    }

    /// Any two entries of different values swapped (checksums recomputed, so the file opens) is
    /// caught, for every pair tried; and `open` refuses the resealed file.
    #[test]
    fn swapped_entries_are_caught() {
        let db = database("3x3", &[1, 2, 3, 4]);
        let image = db.to_bytes();
        let count = db.placements() as usize;
        let mut tried = 0;
        for (a, b) in [(1, 2000), (17, 1500), (400, 3000), (5, 2900), (999, 1000)] {
            let (ea, eb) = (image[128 + a], image[128 + b]);
            if ea == eb || ea == 0 || eb == 0 || a >= count || b >= count {
                continue;
            }
            tried += 1;
            let mut forged = image.clone();
            forged.swap(128 + a, 128 + b);
            reseal(&mut forged);
            let why = Database::from_bytes(&forged).unwrap_err();
            assert!(why.what.contains("contradict"), "{why}");
        }
        assert!(tried >= 3);
    }

    /// One entry raised or lowered by one, the smallest change there is, is caught in most
    /// cases: every such change of every entry of five databases tried (measured: 2x3 1-3
    /// 189/229, 3x3 1-3 877/981, 3x3 1-4 5266/6015, 3x4 1-3 2518/2603, 2x4 1-4 2620/3341; a
    /// change of two is caught about as often).
    #[test]
    fn an_entry_off_by_one_is_caught() {
        let databases = [
            ("2x3", &[1, 2, 3][..]),
            ("3x3", &[1, 2, 3]),
            ("3x3", &[1, 2, 3, 4]),
            ("3x4", &[1, 2, 3]),
            ("2x4", &[1, 2, 3, 4]),
        ];
        for (shape, tiles) in databases {
            let db = database(shape, tiles);
            let image = db.to_bytes();
            let (mut tried, mut caught) = (0, 0);
            for p in 0..db.placements() as usize {
                for delta in [1i16, -1] {
                    let e = i16::from(image[128 + p]) + delta;
                    if image[128 + p] == 0 || e <= 0 || e >= i16::from(db.max) {
                        continue;
                    }
                    let mut forged = image.clone();
                    forged[128 + p] = e as u8;
                    reseal(&mut forged);
                    tried += 1;
                    caught += usize::from(Database::from_bytes(&forged).is_err());
                }
            }
            assert!(caught * 100 >= tried * 75, "{shape}: {caught} of {tried}");
        }
    }
}

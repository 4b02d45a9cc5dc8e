//! Patterns: the tiles one pattern database follows (the others are indistinguishable), and the
//! partitions of a board's tiles into disjoint patterns whose databases add up.

use std::fmt;

use crate::error::Error;
use crate::puzzle::board::{Cell, Shape};

/// Boards a pattern database handles: a cell mask fits a u32 (region masks), and the
/// arrangements are ranked in u64s.
pub const MAX_CELLS: usize = 32;

/// Some tiles of a board with a goal: the pattern's state is where those tiles are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pattern {
    /// The board.
    pub shape: Shape,
    /// The goal's blank cell.
    pub goal: Cell,
    /// The tiles, ascending (each in 1..RC).
    pub tiles: Vec<u32>,
}

/// The goal's cell of `tile` on a board whose goal blank is `goal` (tiles 1, 2, … in reading
/// order around the blank).
pub fn goal_cell(tile: u32, goal: Cell) -> usize {
    let t = tile as usize - 1;
    if t < goal.0 {
        t
    } else {
        t + 1
    }
}

impl Pattern {
    /// A pattern of `tiles` (any order, each once, in 1..RC) on `shape` with goal blank
    /// `goal`.
    pub fn new(shape: Shape, goal: Cell, tiles: &[u32]) -> Result<Pattern, Error> {
        check_shape(shape)?;
        let mut sorted = tiles.to_vec();
        sorted.sort_unstable();
        if sorted.is_empty() {
            return Err(Error::Argument("a pattern needs at least one tile".into()));
        }
        let n = shape.cells() as u32;
        if let Some(&t) = sorted.iter().find(|&&t| t == 0 || t >= n) {
            return Err(Error::Argument(format!(
                "tile {t} is not on a {shape} board (tiles 1..{})",
                n - 1
            )));
        }
        if let Some(w) = sorted.windows(2).find(|w| w[0] == w[1]) {
            return Err(Error::Argument(format!(
                "tile {} is twice in one pattern",
                w[0]
            )));
        }
        if goal.0 >= shape.cells() {
            return Err(Error::Blank(format!("cell {} is not on {shape}", goal.0)));
        }
        Ok(Pattern {
            shape,
            goal,
            tiles: sorted,
        })
    }

    /// The goal cells of the pattern's tiles, in the order of `tiles`.
    pub fn goal_cells(&self) -> Vec<u8> {
        self.tiles
            .iter()
            .map(|&t| goal_cell(t, self.goal) as u8)
            .collect()
    }

    /// The tiles as written in file names and reports: `1-2-3`.
    pub fn label(&self) -> String {
        let tiles: Vec<String> = self.tiles.iter().map(u32::to_string).collect();
        tiles.join("-")
    }
}

impl fmt::Display for Pattern {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let tiles: Vec<String> = self.tiles.iter().map(u32::to_string).collect();
        write!(f, "{{{}}}", tiles.join(","))
    }
}

/// Refuses boards the databases do not handle: lines (their tiles never pass each other: the
/// distance is the blank's) and boards past `MAX_CELLS` cells.
pub fn check_shape(shape: Shape) -> Result<(), Error> {
    if shape.is_line() {
        return Err(Error::Shape(format!(
            "{shape} is a line: its tiles never change order, so no pattern database is needed \
             (the distance is how far the blank is from its goal cell)"
        )));
    }
    if shape.cells() > MAX_CELLS {
        return Err(Error::Shape(format!(
            "{shape} has {} cells: pattern databases handle at most {MAX_CELLS}",
            shape.cells()
        )));
    }
    Ok(())
}

/// Splits the tiles 1..RC in order into consecutive groups of the sizes of `spec` (`7-8`,
/// `5-5-5`), which must add up to the RC-1 tiles.
pub fn split(shape: Shape, goal: Cell, spec: &str) -> Result<Vec<Pattern>, Error> {
    check_shape(shape)?;
    let tiles = shape.cells() - 1;
    let bad = || {
        Error::Argument(format!(
            "'{spec}' is not a partition: give group sizes joined by '-' that add up to the {tiles} tiles of {shape}, e.g. {}",
            example(tiles)
        ))
    };
    let sizes: Vec<usize> = spec
        .split('-')
        .map(|s| s.trim().parse::<usize>().ok().filter(|&n| n > 0))
        .collect::<Option<_>>()
        .ok_or_else(bad)?;
    if sizes.iter().sum::<usize>() != tiles {
        return Err(bad());
    }
    let mut next = 1u32;
    sizes
        .iter()
        .map(|&k| {
            let group: Vec<u32> = (next..next + k as u32).collect();
            next += k as u32;
            Pattern::new(shape, goal, &group)
        })
        .collect()
}

/// A partition of `tiles` tiles into groups of at most 8, as an example for messages.
fn example(tiles: usize) -> String {
    // Groups of at most 8 tiles, and at least two (one group is the whole puzzle).
    let groups = tiles.div_ceil(8).max(2).min(tiles.max(1));
    let mut sizes = vec![tiles / groups; groups];
    for s in sizes.iter_mut().take(tiles % groups) {
        *s += 1;
    }
    let sizes: Vec<String> = sizes.iter().map(usize::to_string).collect();
    sizes.join("-")
}

/// Parses one `--pattern` list: tiles joined by commas (`1,2,5,6`).
pub fn parse_tiles(text: &str) -> Result<Vec<u32>, Error> {
    text.split(',')
        .map(|s| {
            s.trim().parse::<u32>().map_err(|_| {
                Error::Argument(format!(
                    "'{text}' is not a list of tiles: give tile numbers joined by commas, e.g. 1,2,5,6"
                ))
            })
        })
        .collect()
}

/// Checks that `patterns` (of one board and goal) are disjoint and cover every tile: a
/// partition, whose databases' values add up to a lower bound.
pub fn check_partition(patterns: &[Pattern]) -> Result<(), Error> {
    let Some(first) = patterns.first() else {
        return Err(Error::Argument("no patterns given".into()));
    };
    let n = first.shape.cells();
    let mut owner = vec![None; n];
    for (i, p) in patterns.iter().enumerate() {
        if p.shape != first.shape || p.goal != first.goal {
            return Err(Error::Argument(format!(
                "patterns {} and {} are of different boards or goals",
                first, p
            )));
        }
        for &t in &p.tiles {
            if let Some(j) = owner[t as usize] {
                return Err(Error::Argument(format!(
                    "tile {t} is in two patterns, {} and {p}: patterns must be disjoint to add up",
                    patterns[j]
                )));
            }
            owner[t as usize] = Some(i);
        }
    }
    let missing: Vec<String> = (1..n)
        .filter(|&t| owner[t].is_none())
        .map(|t| t.to_string())
        .collect();
    if !missing.is_empty() {
        return Err(Error::Argument(format!(
            "tile{} {} in no pattern: the patterns must cover all {} tiles",
            if missing.len() == 1 { " is" } else { "s are" },
            missing.join(", "),
            n - 1
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(s: &str) -> Shape {
        s.parse().unwrap()
    }

    #[test]
    fn splits_in_reading_order() {
        let p = split(shape("4x4"), Cell(0), "7-8").unwrap();
        assert_eq!(p[0].tiles, (1..=7).collect::<Vec<_>>());
        assert_eq!(p[1].tiles, (8..=15).collect::<Vec<_>>());
        // Blank first: tile 1 sits on cell 1; blank last: on cell 0.
        assert_eq!(p[0].goal_cells()[0], 1);
        assert_eq!(
            split(shape("3x3"), Cell(8), "4-4").unwrap()[1].goal_cells(),
            [4, 5, 6, 7]
        );
        check_partition(&p).unwrap();
        assert_eq!(split(shape("4x4"), Cell(15), "5-5-5").unwrap().len(), 3);
    }

    #[test]
    fn refuses_what_is_not_a_partition() {
        let s = shape("3x3");
        for bad in ["4-3", "4-5", "", "4--4", "a-b", "0-8", "8-0"] {
            assert!(split(s, Cell(8), bad).is_err(), "{bad}");
        }
        let a = Pattern::new(s, Cell(8), &[1, 2, 3, 4]).unwrap();
        let b = Pattern::new(s, Cell(8), &[4, 5, 6, 7, 8]).unwrap();
        let e = check_partition(&[a.clone(), b]).unwrap_err().to_string();
        assert!(e.contains("tile 4 is in two patterns"), "{e}");
        let c = Pattern::new(s, Cell(8), &[5, 6]).unwrap();
        let e = check_partition(&[a, c]).unwrap_err().to_string();
        assert!(e.contains("tiles are 7, 8 in no pattern"), "{e}");
        assert!(Pattern::new(s, Cell(8), &[9]).is_err());
        assert!(Pattern::new(s, Cell(8), &[1, 1]).is_err());
        assert!(Pattern::new(s, Cell(8), &[]).is_err());
        assert!(parse_tiles("1,2,x").is_err());
        assert!(split(shape("1x5"), Cell(0), "4").is_err());
        assert!(split(shape("6x6"), Cell(0), "35").is_err());
    }
}

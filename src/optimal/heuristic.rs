//! The additive heuristic: a partition's databases summed, and on square boards whose goal
//! blank is on the diagonal the same sum over the board's mirror image, the larger taken.
//!
//! Mirroring the board across its main diagonal, and renaming each tile after the tile whose
//! goal cell is the mirror of its own, maps the goal to itself and every solution to a
//! solution: the mirror image is exactly as far from the goal, so its sum is a lower bound
//! too (Korf & Felner, AIJ 2002, "reflected" lookups).

use std::path::Path;

use crate::error::Error;
use crate::optimal::database::Database;
use crate::optimal::pattern::{check_partition, goal_cell, Pattern};
use crate::puzzle::board::{Board, Cell, Shape};

/// A partition's databases, for one board and goal.
#[derive(Clone, Debug)]
pub struct Heuristic {
    /// The board.
    pub shape: Shape,
    /// The goal's blank cell.
    pub goal: Cell,
    /// The databases, one per pattern.
    pub databases: Vec<Database>,
    /// Per tile, its database and its place among that database's tiles.
    pub(crate) owner: Vec<(u8, u8)>,
    /// The mirror, where the goal allows one.
    pub(crate) mirror: Option<Mirror>,
}

/// The reflection across the main diagonal of a square board.
#[derive(Clone, Debug)]
pub(crate) struct Mirror {
    /// The cell each cell goes to.
    pub cell: Vec<u8>,
    /// The tile each tile is renamed to.
    pub tile: Vec<u32>,
}

impl Heuristic {
    /// The heuristic of `databases`, which must be a partition of one board's tiles.
    pub fn new(databases: Vec<Database>) -> Result<Heuristic, Error> {
        let patterns: Vec<Pattern> = databases.iter().map(|d| d.pattern.clone()).collect();
        check_partition(&patterns)?;
        let (shape, goal) = (patterns[0].shape, patterns[0].goal);
        let mut owner = vec![(u8::MAX, u8::MAX); shape.cells()];
        for (d, p) in patterns.iter().enumerate() {
            for (slot, &t) in p.tiles.iter().enumerate() {
                owner[t as usize] = (d as u8, slot as u8);
            }
        }
        Ok(Heuristic {
            shape,
            goal,
            databases,
            owner,
            mirror: Mirror::of(shape, goal),
        })
    }

    /// Opens the databases in `dir` (every `.pdb` file there): they must be one partition of
    /// one board's tiles.
    pub fn open(dir: &Path) -> Result<Heuristic, Error> {
        let bad = |why: String| Error::Database {
            path: dir.to_path_buf(),
            why,
        };
        let read = |source| Error::Read {
            path: dir.to_path_buf(),
            source,
        };
        let mut files = vec![];
        for entry in std::fs::read_dir(dir).map_err(read)? {
            let path = entry.map_err(read)?.path();
            if path.extension().is_some_and(|e| e == "pdb") {
                files.push(path);
            }
        }
        files.sort();
        if files.is_empty() {
            return Err(bad(
                "no .pdb files here: build them with `tilespace pdb RxC --partition ... --out DIR`"
                    .into(),
            ));
        }
        let databases = files
            .iter()
            .map(|f| Database::open(f))
            .collect::<Result<Vec<_>, _>>()?;
        let first = &databases[0].pattern;
        if let Some(other) = databases
            .iter()
            .find(|d| d.pattern.shape != first.shape || d.pattern.goal != first.goal)
        {
            return Err(bad(format!(
                "it holds databases of {} (blank on cell {}) and of {} (blank on cell {}): keep one board and goal per directory",
                first.shape, first.goal.0, other.pattern.shape, other.pattern.goal.0
            )));
        }
        Heuristic::new(databases)
            .map_err(|e| bad(format!("its databases are not one partition: {e}")))
    }

    /// Whether lookups are also made on the mirror image.
    pub fn mirrored(&self) -> bool {
        self.mirror.is_some()
    }

    /// The heuristic's value of `board` (solvable or not); an error for a board of another size.
    pub fn value(&self, board: &Board) -> Result<u32, Error> {
        if board.shape() != self.shape {
            return Err(Error::Board(format!(
                "{board} is a {} board; the pattern databases are for {}",
                board.shape(),
                self.shape
            )));
        }
        let sum = |cell_of: &dyn Fn(u32) -> u8| -> u32 {
            self.databases
                .iter()
                .map(|d| {
                    let at: Vec<u8> = d.pattern.tiles.iter().map(|&t| cell_of(t)).collect();
                    u32::from(d.get(&at))
                })
                .sum()
        };
        let mut pos = vec![0u8; self.shape.cells()];
        for (c, &t) in board.cells().iter().enumerate() {
            pos[t as usize] = c as u8;
        }
        let plain = sum(&|t| pos[t as usize]);
        Ok(match &self.mirror {
            None => plain,
            Some(m) => {
                // Tile t of the image is the tile renamed to t, on the mirror of its cell.
                let mut source = vec![0u32; self.shape.cells()];
                for (t, &to) in m.tile.iter().enumerate() {
                    source[to as usize] = t as u32;
                }
                plain.max(sum(&|t| m.cell[pos[source[t as usize] as usize] as usize]))
            }
        })
    }
}

impl Mirror {
    /// The diagonal reflection of a square board whose goal blank is on the diagonal.
    fn of(shape: Shape, goal: Cell) -> Option<Mirror> {
        if shape.rows != shape.cols || shape.transpose_cell(goal) != goal {
            return None;
        }
        let cell: Vec<u8> = (0..shape.cells())
            .map(|c| shape.transpose_cell(Cell(c)).0 as u8)
            .collect();
        let mut at_goal = vec![0u32; shape.cells()];
        for t in 1..shape.cells() as u32 {
            at_goal[goal_cell(t, goal)] = t;
        }
        let tile = (0..shape.cells() as u32)
            .map(|t| {
                if t == 0 {
                    0
                } else {
                    at_goal[cell[goal_cell(t, goal)] as usize]
                }
            })
            .collect();
        Some(Mirror { cell, tile })
    }
}

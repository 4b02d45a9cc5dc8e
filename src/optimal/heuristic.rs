//! The additive heuristic: a partition's databases summed, and on square boards whose goal
//! blank is on the diagonal the same sum over the board's mirror image, the larger taken;
//! with several partitions, the largest of all their sums.
//!
//! Mirroring the board across its main diagonal, and renaming each tile after the tile whose
//! goal cell is the mirror of its own, maps the goal to itself and every solution to a
//! solution: the mirror image is exactly as far from the goal, so its sum is a lower bound
//! too (Korf & Felner, AIJ 2002, "reflected" lookups). Each partition's sum is a lower bound,
//! so their maximum is one (Korf & Felner's "maximum of several additive heuristics").

use std::path::{Path, PathBuf};

use crate::error::Error;
use crate::optimal::database::Database;
use crate::optimal::pattern::{check_partition, goal_cell, Pattern};
use crate::puzzle::board::{Board, Cell, Shape};

/// The most sums (partitions and their mirror images) a heuristic takes the maximum of: each
/// costs a database lookup per move.
pub const MAX_VIEWS: usize = 4;

/// One or more partitions' databases, for one board and goal.
#[derive(Debug)]
pub struct Heuristic {
    /// The board.
    pub shape: Shape,
    /// The goal's blank cell.
    pub goal: Cell,
    /// The databases of every partition, one per pattern.
    pub databases: Vec<Database>,
    /// The sums whose maximum is the heuristic.
    pub(crate) views: Vec<View>,
}

/// One sum: a partition's databases over the board as it is or as its mirror image.
#[derive(Clone, Debug)]
pub(crate) struct View {
    /// The partition's databases (indices into `databases`).
    pub dbs: Vec<usize>,
    /// Per tile (after renaming), its database (index into `dbs`) and its place among that
    /// database's tiles.
    pub owner: Vec<(u8, u8)>,
    /// The cell each cell goes to (itself unless mirrored).
    pub cell: Vec<u8>,
    /// The tile each tile is renamed to (itself unless mirrored).
    pub tile: Vec<u32>,
}

impl Heuristic {
    /// The heuristic of `databases`, which must be a partition of one board's tiles.
    pub fn new(databases: Vec<Database>) -> Result<Heuristic, Error> {
        Heuristic::of_partitions(vec![databases])
    }

    /// The maximum over `partitions`, each a partition of the same board's tiles for the same
    /// goal (at most `MAX_VIEWS` sums, counting mirror images).
    pub fn of_partitions(partitions: Vec<Vec<Database>>) -> Result<Heuristic, Error> {
        let mut databases = vec![];
        let mut views = vec![];
        let mut board: Option<(Shape, Cell)> = None;
        for partition in partitions {
            let patterns: Vec<Pattern> = partition.iter().map(|d| d.pattern.clone()).collect();
            check_partition(&patterns)?;
            let (shape, goal) = (patterns[0].shape, patterns[0].goal);
            if let Some((s, g)) = board.filter(|&b| b != (shape, goal)) {
                return Err(Error::Argument(format!(
                    "the partitions are of {s} with the goal blank on {} and of {shape} with it on {}: they must be of one board and goal",
                    s.cell_label(g),
                    shape.cell_label(goal)
                )));
            }
            board = Some((shape, goal));
            let dbs: Vec<usize> = (databases.len()..databases.len() + partition.len()).collect();
            let mut owner = vec![(u8::MAX, u8::MAX); shape.cells()];
            for (d, p) in patterns.iter().enumerate() {
                for (slot, &t) in p.tiles.iter().enumerate() {
                    owner[t as usize] = (d as u8, slot as u8);
                }
            }
            let plain = View {
                dbs: dbs.clone(),
                owner: owner.clone(),
                cell: (0..shape.cells() as u8).collect(),
                tile: (0..shape.cells() as u32).collect(),
            };
            views.push(plain);
            if let Some((cell, tile)) = mirror(shape, goal) {
                views.push(View {
                    dbs,
                    owner,
                    cell,
                    tile,
                });
            }
            databases.extend(partition);
        }
        let Some((shape, goal)) = board else {
            return Err(Error::Argument("no pattern databases".into()));
        };
        if views.len() > MAX_VIEWS {
            return Err(Error::Argument(format!(
                "{} partitions make {} sums (counting mirror images); at most {MAX_VIEWS} are looked up per move",
                views.len().div_ceil(if mirror(shape, goal).is_some() { 2 } else { 1 }),
                views.len()
            )));
        }
        Ok(Heuristic {
            shape,
            goal,
            databases,
            views,
        })
    }

    /// The maximum over the partitions in `dirs`, each opened by `open`.
    pub fn open_all(dirs: &[PathBuf]) -> Result<Heuristic, Error> {
        let mut partitions = vec![];
        for dir in dirs {
            partitions.push(Heuristic::open(dir)?.databases);
        }
        Heuristic::of_partitions(partitions).map_err(|e| match e {
            Error::Argument(why) => {
                let list: Vec<String> = dirs.iter().map(|d| d.display().to_string()).collect();
                Error::Argument(format!("--pdb {}: {why}", list.join(" --pdb ")))
            }
            e => e,
        })
    }

    /// The database files of `dir`: every `.pdb` file there, sorted.
    pub fn files(dir: &Path) -> Result<Vec<PathBuf>, Error> {
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
        Ok(files)
    }

    /// Opens the databases in `dir` (every `.pdb` file there): they must be one partition of
    /// one board's tiles.
    pub fn open(dir: &Path) -> Result<Heuristic, Error> {
        let bad = |why: String| Error::Database {
            path: dir.to_path_buf(),
            damage: why.into(),
        };
        let files = Heuristic::files(dir)?;
        if files.is_empty() {
            return Err(bad(
                "no .pdb files here: build them with `tilespace pdb RxC --partition ... --pdb DIR`"
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

    /// Whether lookups are also made on mirror images.
    pub fn mirrored(&self) -> bool {
        self.views
            .iter()
            .any(|v| v.cell.iter().enumerate().any(|(c, &to)| c != to as usize))
    }

    /// The partitions whose sums are taken.
    pub fn partitions(&self) -> usize {
        self.views
            .iter()
            .map(|v| v.dbs[0])
            .collect::<std::collections::BTreeSet<_>>()
            .len()
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
        let mut pos = vec![0u8; self.shape.cells()];
        for (c, &t) in board.cells().iter().enumerate() {
            pos[t as usize] = c as u8;
        }
        Ok(self
            .views
            .iter()
            .map(|v| {
                // Tile t of the view is the tile renamed to t, on the view's image of its cell.
                let mut source = vec![0u32; self.shape.cells()];
                for (t, &to) in v.tile.iter().enumerate() {
                    source[to as usize] = t as u32;
                }
                v.dbs
                    .iter()
                    .map(|&d| {
                        let db = &self.databases[d];
                        let at: Vec<u8> = db
                            .pattern
                            .tiles
                            .iter()
                            .map(|&t| v.cell[pos[source[t as usize] as usize] as usize])
                            .collect();
                        u32::from(db.get(&at))
                    })
                    .sum::<u32>()
            })
            .max()
            .unwrap_or(0))
    }
}

/// The reflection across the main diagonal of a square board whose goal blank is on the
/// diagonal: the cell each cell goes to, the tile each tile is renamed to.
fn mirror(shape: Shape, goal: Cell) -> Option<(Vec<u8>, Vec<u32>)> {
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
    Some((cell, tile))
}

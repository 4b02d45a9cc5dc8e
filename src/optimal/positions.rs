//! The positions file of a sample (`tilespace sample --positions FILE`): each board's row is appended (and synced)
//! as soon as the board is solved, so a sample that is stopped, killed or crashes loses none of
//! its solved boards, and `--resume` goes on from the file. At the end the file is rewritten,
//! atomically, in the order the boards were drawn.
//!
//! A resumed file is untrusted input. Each row must name a board drawn from the seed (so
//! another seed's or board's file is refused), not twice, with a distance of the board's
//! parity (every move flips the blank's colour), at least the heuristic's lower bound and at
//! most the length of the constructive solver's solution; an incomplete last line (a write cut
//! off by a crash or a full disk) is dropped. Then `RESOLVED` rows chosen at random are solved
//! again and must agree: a distance changed within those bounds passes unless its row is one
//! of them (each changed row is caught with probability `RESOLVED` / rows).

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::error::Error;
use crate::optimal::heuristic::Heuristic;
use crate::puzzle::board::{Board, Cell};
use crate::store::{atomic, lock};

/// Resumed rows solved again at random, each costing about one board's search.
pub const RESOLVED: usize = 4;

/// Solves again up to `RESOLVED` of the rows of `found` (chosen at random) with `solve`; an
/// error naming the first whose distance differs.
pub fn recheck(
    path: &Path,
    found: &[Option<Position>],
    solve: impl Fn(usize) -> Result<u32, Error>,
) -> Result<(), Error> {
    let rows: Vec<usize> = (0..found.len()).filter(|&i| found[i].is_some()).collect();
    let mut rng = crate::puzzle::random::Rng::unpredictable();
    let mut chosen: Vec<usize> = vec![];
    while chosen.len() < RESOLVED.min(rows.len()) {
        let i = rows[rng.below(rows.len() as u64) as usize];
        if !chosen.contains(&i) {
            chosen.push(i);
        }
    }
    for i in chosen {
        let p = found[i].as_ref().expect("chosen among the rows found");
        let distance = solve(i)?;
        if distance != p.distance {
            return Err(Error::damaged(path, format!(
                        "{} is {distance} moves from the goal, not {} as the file says (solved again): a damaged or edited file",
                        p.board, p.distance
                    )));
        }
    }
    Ok(())
}

/// One board of the sample, as written.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Position {
    /// The board, in the text form.
    pub board: String,
    /// Its distance from the goal, solved.
    pub distance: u32,
    /// The nodes its search took.
    pub nodes: u64,
    /// The seconds its search took.
    pub seconds: f64,
}

const HEADER: &str = "board,distance,nodes,seconds";

/// The most seconds a row may say its board took (about 32 years): sums of rows stay finite.
const MAX_SECONDS: f64 = 1e9;

/// The rows of `solved` (in that order) as the file holds them.
pub fn csv<'a>(solved: impl IntoIterator<Item = &'a Position>) -> String {
    let mut text = format!("{HEADER}\n");
    for p in solved {
        text += &row(p);
    }
    text
}

fn row(p: &Position) -> String {
    format!("{},{},{},{:.6}\n", p.board, p.distance, p.nodes, p.seconds)
}

/// A positions file being written: rows appended as boards are solved.
pub struct PositionsFile {
    path: PathBuf,
    file: Mutex<(File, Instant)>,
    _lock: lock::Lock,
}

/// Synced at most this often (a sample of small boards solves thousands a second).
const SYNC_EVERY: Duration = Duration::from_secs(1);

impl PositionsFile {
    /// Opens `path` for a sample of `drawn`: with `resume`, the boards it already holds (checked,
    /// see the module) are returned in their places, the rest `None`, with whether an
    /// incomplete last line (a cut-off write) was dropped; without, it must be empty or absent
    /// (a sample's rows are never thrown away). Another process writing the same file is
    /// refused.
    pub fn open(
        path: &Path,
        resume: bool,
        drawn: &[Board],
        goal: Cell,
        h: &Heuristic,
    ) -> Result<(PositionsFile, Vec<Option<Position>>, bool), Error> {
        atomic::check_target(path)?;
        let held = lock::try_exclusive(path)?.ok_or_else(|| {
            Error::Argument(format!(
                "{}: another sample is writing this file",
                path.display()
            ))
        })?;
        let mut found = vec![None; drawn.len()];
        if !resume && std::fs::metadata(path).is_ok_and(|m| m.len() > 0) {
            return Err(Error::Argument(format!(
                "{} already holds rows of a sample: continue it with --resume, or give another \
                 --positions path",
                path.display()
            )));
        }
        let mut torn = false;
        if resume {
            check_length(path, drawn.len(), h.shape.cells())?;
            match atomic::read_regular(path) {
                Ok(bytes) => {
                    let (rows, cut) = parse(path, &bytes, drawn, goal, h)?;
                    torn = cut;
                    for (i, p) in rows {
                        found[i] = Some(p);
                    }
                }
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(source) => {
                    return Err(Error::Read {
                        path: path.to_path_buf(),
                        source,
                    })
                }
            }
        }
        // The checked rows, and nothing else, start the file (a torn line is gone).
        atomic::write_atomic(path, csv(found.iter().flatten()).as_bytes())?;
        let file = OpenOptions::new()
            .append(true)
            .open(path)
            .map_err(|source| Error::Write {
                path: path.to_path_buf(),
                source,
            })?;
        Ok((
            PositionsFile {
                path: path.to_path_buf(),
                file: Mutex::new((file, Instant::now())),
                _lock: held,
            },
            found,
            torn,
        ))
    }

    /// Appends `p`'s row (one write, synced at most every second).
    pub fn append(&self, p: &Position) -> Result<(), Error> {
        let mut guard = self.file.lock().unwrap_or_else(|e| e.into_inner());
        let (file, synced) = &mut *guard;
        let write = |source| Error::Write {
            path: self.path.clone(),
            source,
        };
        file.write_all(row(p).as_bytes()).map_err(write)?;
        if synced.elapsed() >= SYNC_EVERY {
            file.sync_data().map_err(write)?;
            *synced = Instant::now();
        }
        Ok(())
    }

    /// Rewrites the file with `solved` in the order drawn, atomically (under the lock).
    pub fn finish(self, solved: &[Position]) -> Result<(), Error> {
        atomic::write_atomic(&self.path, csv(solved).as_bytes())
    }
}

/// Refuses, before it is read into memory, a file longer than the rows of `boards` boards of
/// `cells` cells can be (a board's text takes at most 3 bytes a cell, the numbers and commas
/// 64), or one that would not fit in memory.
fn check_length(path: &Path, boards: usize, cells: usize) -> Result<(), Error> {
    let Ok(len) = std::fs::metadata(path).map(|m| m.len()) else {
        return Ok(()); // a missing file is a sample not begun; others fail when read
    };
    let most = (HEADER.len() as u64 + 1)
        .saturating_add((boards as u64).saturating_mul(3 * cells as u64 + 64));
    let refuse = |why: String| Error::damaged(path, why);
    if len > most {
        return Err(refuse(format!(
            "{len} bytes, more than the rows of {boards} boards can take ({most}): not this sample's positions file"
        )));
    }
    let memory = crate::analysis::memory::room_for(len as f64, None);
    memory.map_err(|limit| refuse(format!("{len} bytes to read, {limit}")))
}

/// The checked rows of a positions file (`bytes`, read from `path`) of a sample of `drawn`,
/// each with the index of its drawn board, and whether an incomplete last line was dropped.
pub fn parse(
    path: &Path,
    bytes: &[u8],
    drawn: &[Board],
    goal: Cell,
    h: &Heuristic,
) -> Result<(Vec<(usize, Position)>, bool), Error> {
    let bad = |line: usize, why: String| Error::damaged(path, format!("line {line}: {why}"));
    let text = std::str::from_utf8(bytes).map_err(|e| bad(1, format!("not UTF-8 text ({e})")))?;
    let torn = !text.is_empty() && !text.ends_with('\n');
    let complete = match text.rfind('\n') {
        Some(end) => &text[..end],
        None => "",
    };
    let mut lines = complete.lines().enumerate().map(|(i, l)| (i + 1, l));
    match lines.next() {
        None => return Ok((vec![], torn)),
        Some((_, HEADER)) => {}
        Some((n, other)) => {
            return Err(bad(
                n,
                format!("expected the header `{HEADER}`, found `{other}`"),
            ))
        }
    }
    // The drawn boards not yet matched, by their text (a small board may be drawn twice).
    let mut unmatched: HashMap<String, Vec<usize>> = HashMap::new();
    for (i, b) in drawn.iter().enumerate().rev() {
        unmatched.entry(b.to_string()).or_default().push(i);
    }
    let shape = h.shape;
    let mut rows = vec![];
    for (n, line) in lines {
        let fields: Vec<&str> = line.split(',').collect();
        let [board, distance, nodes, seconds] = fields[..] else {
            return Err(bad(
                n,
                format!("expected 4 fields ({HEADER}), found {}", fields.len()),
            ));
        };
        let parsed = Board::parse(board, Some(shape)).map_err(|e| bad(n, e.to_string()))?;
        let text = parsed.to_string();
        let index = unmatched
            .get_mut(&text)
            .and_then(|v| v.pop())
            .ok_or_else(|| {
                bad(
                    n,
                    format!(
                        "{text} is not one of this sample's boards (another seed or count?), or is there twice"
                    ),
                )
            })?;
        let number = |field: &str, what: &str| -> Result<u64, Error> {
            field
                .parse::<u64>()
                .map_err(|_| bad(n, format!("{what} `{field}` is not a whole number")))
        };
        let distance = u32::try_from(number(distance, "distance")?)
            .map_err(|_| bad(n, format!("distance {distance} is out of range")))?;
        let nodes = number(nodes, "nodes")?;
        let seconds = seconds
            .parse::<f64>()
            .ok()
            .filter(|s| (0.0..=MAX_SECONDS).contains(s))
            .ok_or_else(|| bad(n, format!("seconds `{seconds}` is not a time")))?;
        rows.push((
            n,
            parsed,
            index,
            Position {
                board: text,
                distance,
                nodes,
                seconds,
            },
        ));
    }
    check_bounds(&rows, goal, h, bad)?;
    let rows = rows.into_iter().map(|(_, _, i, p)| (i, p)).collect();
    Ok((rows, torn))
}

/// The bounds of each row's distance (see the module), in parallel: the costly part (a
/// solution built per row). The first row that fails is named by `bad`.
fn check_bounds(
    rows: &[(usize, Board, usize, Position)],
    goal: Cell,
    h: &Heuristic,
    bad: impl Fn(usize, String) -> Error + Sync,
) -> Result<(), Error> {
    let shape = h.shape;
    let checked: Vec<Result<(), Error>> = rows
        .par_iter()
        .map(|(n, board, _, p)| {
            let distance = p.distance;
            let bound = h.value(board)?;
            let blank = shape.distance(board.blank(), goal) % 2;
            let most = crate::puzzle::construct::solve(board, goal)?.moves.len();
            if distance < bound || distance as usize > most || distance as usize % 2 != blank {
                let parity = ["even", "odd"][blank];
                return Err(bad(
                    *n,
                    format!(
                        "{} cannot be {distance} moves from the goal: its distance is at least {bound} (the pattern databases), at most {most} (a solution built for it) and {parity} (the blank's colour)",
                        p.board
                    ),
                ));
            }
            Ok(())
        })
        .collect();
    checked.into_iter().collect()
}

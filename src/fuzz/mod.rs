//! Entry points for fuzzing: each feeds arbitrary bytes to one reader of untrusted input and
//! panics only if that reader breaks its contract. A reader returns a value or an error; it
//! never panics, never allocates beyond the memory guard, and what it accepts behaves as valid
//! input does (a board it parses prints back to itself, a solution from a table it opens is a
//! chain of moves to the goal, a checkpoint it resumes ends in a result that is either marked
//! unverified or the true one).
//!
//! `cargo fuzz` runs them for deep runs (`fuzz/`, `scripts/fuzz.sh`), the test suite on a
//! bounded number of generated and mutated inputs (`tests/fuzz.rs`). Files are given whole,
//! after one control byte whose low bit says whether to recompute their checksums first (a
//! forgery, which must be caught by the checks behind the checksums); `seeds` gives valid
//! inputs to mutate; the disk search's files have a module of their own (`disk`).

mod disk;

use crate::index::puzzle::Puzzle;
use crate::puzzle::metric::Metric;
use std::path::Path;
use std::sync::atomic::AtomicBool;

use crate::analysis::memory::{parse_duration, parse_size};
use crate::analysis::{analyze, analyze_at, Analysis, AnalyzeOptions, TableAt};
use crate::dist::{threads, Budget};
use crate::error::Error;
use crate::index::space::StateSpace;
use crate::puzzle::board::{Board, Cell, GoalBlank, Shape};
use crate::puzzle::moves::{self, Moves};
use crate::store::{checkpoint, saved, shards};

/// The readers fuzzed, by name (the names of the `cargo fuzz` targets).
pub const TARGETS: [&str; 17] = [
    "board",
    "size",
    "blank",
    "duration",
    "memory_size",
    "moves",
    "table",
    "checkpoint",
    "shards",
    "reports",
    "pattern_db",
    "journal",
    "disk_files",
    "positions",
    "graph",
    "token_table",
    "token_checkpoint",
];

/// Runs target `name` on `data`.
pub fn run(name: &str, data: &[u8]) {
    match name {
        "board" => board(data),
        "size" => size(data),
        "blank" => blank(data),
        "duration" => duration(data),
        "memory_size" => memory_size(data),
        "moves" => moves(data),
        "table" => table(data),
        "checkpoint" => checkpoint(data),
        "shards" => shards(data),
        "reports" => reports(data),
        "pattern_db" => pattern_db(data),
        "journal" => journal(data),
        "disk_files" => disk::disk_files(data),
        "positions" => positions(data),
        "graph" => graph(data),
        "token_table" => token_table(data),
        "token_checkpoint" => token_checkpoint(data),
        _ => panic!("no fuzz target {name}"),
    }
}

/// `data` as text, and split at the first `|` (the text before it, if any, and after).
fn split(data: &[u8]) -> (Option<String>, String) {
    let text = String::from_utf8_lossy(data);
    match text.split_once('|') {
        Some((a, b)) => (Some(a.to_string()), b.to_string()),
        None => (None, text.into_owned()),
    }
}

/// `SIZE|BOARD` or `BOARD`: a board that parses prints back to itself; on boards of up to 9
/// cells, a solvable one has an index, which gives the board back, and an unsolvable one has
/// none.
pub fn board(data: &[u8]) {
    let (size, text) = split(data);
    let shape = size.and_then(|s| s.parse::<Shape>().ok());
    let Ok(b) = Board::parse(&text, shape) else {
        return;
    };
    assert_eq!(
        Board::parse(&b.to_string(), Some(b.shape())).ok(),
        Some(b.clone())
    );
    let goal = Cell(b.shape().cells() - 1);
    let solvable = crate::puzzle::parity::solvability(&b, goal).solvable;
    if b.shape().cells() <= 9 && !b.shape().is_line() {
        let space = StateSpace::new(&Puzzle::board(b.shape(), goal, Metric::Single).unwrap(), 0)
            .expect("a small board has a space");
        match space.index(&b) {
            Some(i) => assert_eq!(space.board(i), b),
            None => assert!(!solvable, "{b} is solvable but has no index"),
        }
    }
}

/// A board size: what parses prints back to itself.
pub fn size(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    if let Ok(shape) = text.parse::<Shape>() {
        assert_eq!(shape.to_string().parse::<Shape>().ok(), Some(shape));
        assert!(shape.cells() >= 1);
    }
}

/// `SIZE|CELL`: a goal blank cell that parses and resolves is on the board.
pub fn blank(data: &[u8]) {
    let (size, text) = split(data);
    let shape = size
        .and_then(|s| s.parse::<Shape>().ok())
        .unwrap_or(Shape::new(3, 3).expect("3x3"));
    if let Ok(cell) = text.parse::<GoalBlank>().and_then(|g| g.resolve(shape)) {
        assert!(cell.0 < shape.cells());
    }
}

/// A graph, as `--graph SPEC` (a family), a file (graph6 or an edge list) or a graph6 list
/// gives it: what is accepted is connected, prints to a graph6 string that reads back to the
/// same graph, and on up to 7 vertices walks into components that cover every configuration
/// and never disagree with the theorems.
pub fn graph(data: &[u8]) {
    use crate::graph::{graph6, spec, Graph};
    let text = String::from_utf8_lossy(data);
    let check = |g: Graph| {
        assert_eq!(graph6::decode(&graph6::encode(&g)).ok(), Some(g.clone()));
        if g.vertices() <= 7 {
            let t = crate::analysis::graph_theorem::verify(&g, g.vertices() - 1, &|_| {})
                .expect("a small graph walks");
            let covered: u64 = t.walk.sizes().iter().map(|(s, c)| s * c).sum();
            assert_eq!(covered, t.walk.configurations);
            assert_ne!(t.agrees(), Some(false), "{}", graph6::encode(&g));
        }
    };
    if let Some(Ok(g)) = spec::family(&text) {
        check(g);
    }
    if let Ok(g) = spec::from_text(&text) {
        check(g);
    }
    if let Ok(list) = crate::analysis::graph_theorem::read_graph6_list(&text) {
        list.graphs.into_iter().take(4).for_each(check);
    }
}

/// A duration (`--checkpoint-every`): at most a year.
pub fn duration(data: &[u8]) {
    if let Ok(d) = parse_duration(&String::from_utf8_lossy(data)) {
        assert!(d.as_secs() <= 366 * 24 * 3600, "{d:?}");
    }
}

/// A memory size (`--max-memory`).
pub fn memory_size(data: &[u8]) {
    let _ = parse_size(&String::from_utf8_lossy(data));
}

/// `BOARD|MOVES` (a 3x3 board if the first part is not one): the moves replay from the
/// board, or are refused, and the tiles they move are as many as they are.
pub fn moves(data: &[u8]) {
    let (board, text) = split(data);
    let start = board
        .and_then(|b| Board::parse(&b, None).ok())
        .unwrap_or_else(|| Board::goal(Shape::new(3, 3).expect("3x3"), Cell(8)));
    let Ok(m) = Moves::parse(&text) else {
        return;
    };
    if moves::replay(&start, &m).is_ok() {
        assert_eq!(m.tiles(&start).map(|t| t.len()).ok(), Some(m.len()));
    }
}

/// The control byte and the file after it, resealed if its low bit is set.
fn file_of(data: &[u8], reseal: impl FnOnce(&mut [u8])) -> (u8, Vec<u8>) {
    let Some((&control, rest)) = data.split_first() else {
        return (0, vec![]);
    };
    let mut bytes = rest.to_vec();
    if control & 1 != 0 {
        reseal(&mut bytes);
    }
    (control, bytes)
}

fn scratch() -> tempfile::TempDir {
    tempfile::tempdir().expect("a scratch directory")
}

/// A saved table: opened or refused; if opened, a solution of the goal and of its neighbours is
/// a chain of moves ending at the goal, or an error.
pub fn table(data: &[u8]) {
    let (_, bytes) = file_of(data, saved::reseal);
    let dir = scratch();
    let path = dir.path().join("t.tst");
    std::fs::write(&path, &bytes).expect("scratch write");
    let Ok(t) = saved::SavedTable::open(&path) else {
        return;
    };
    let goal = Board::goal(t.shape, t.goal);
    for b in std::iter::once(goal.clone()).chain(goal.neighbours()) {
        if let Ok(path) = t.solve(&b) {
            assert_eq!(path.first(), Some(&b));
            assert_eq!(path.last(), Some(&goal));
            assert!(path
                .windows(2)
                .all(|w| w[0].neighbours().any(|n| n == w[1])));
        }
    }
}

/// A saved table of tokens: opened or refused; if opened, the way of each arrangement one
/// move from the goal, and of the goal, is a chain of moves ending at the goal, or an error.
pub fn token_table(data: &[u8]) {
    use crate::store::tokens::{reseal, TokenTable};
    let (_, bytes) = file_of(data, reseal);
    let dir = scratch();
    let path = dir.path().join("t.tst");
    std::fs::write(&path, &bytes).expect("scratch write");
    let Ok(t) = TokenTable::open(&path) else {
        return;
    };
    let goal = t.goal().clone();
    let moves = match t.ground() {
        crate::index::puzzle::Ground::Board(shape) => {
            crate::bfs::arrangements::ArrangementMoves::of_board(*shape, t.metric())
        }
        crate::index::puzzle::Ground::Graph(g) => {
            crate::bfs::arrangements::ArrangementMoves::of_graph(g)
        }
    };
    let symbols = crate::index::goal_index::Symbols::of(&goal);
    let near = moves.targets(&symbols.encode(&goal).expect("its labels"));
    for start in std::iter::once(goal.clone()).chain(near.iter().map(|s| symbols.decode(s))) {
        if let Ok(way) = t.solve(&start) {
            assert_eq!(way.first(), Some(&start));
            assert_eq!(way.last(), Some(&goal));
            assert!(way.len() <= t.layers().len());
        }
    }
}

/// The searches of tokens whose checkpoints `token_checkpoint` reads (its control byte's
/// second bit picks one): two blanks and colours on a board, their depths kept; colours on a
/// graph; the multi-tile metric, the depths kept.
fn token_searches() -> [(
    crate::index::puzzle::Ground,
    crate::puzzle::tokens::Tokens,
    Metric,
    bool,
); 3] {
    use crate::index::puzzle::Ground;
    let board = Ground::Board(Shape::new(2, 3).expect("a board"));
    let cycle = Ground::Graph(crate::graph::family::cycle(6).expect("a cycle"));
    let tokens = |t| crate::puzzle::tokens::Tokens::parse(t, 6).expect("tokens");
    [
        (board.clone(), tokens("1 1 2 2 0 0"), Metric::Single, true),
        (cycle, tokens("1 1 2 2 0 0"), Metric::Single, false),
        (board, tokens("1 2 3 4 5 0"), Metric::Multi, true),
    ]
}

/// The search of tokens `search` (of `token_searches`) resumed from the checkpoint in `dir`, or
/// stopped by `stop` once it is set (and its checkpoint saved there), as `progress` says.
fn token_search_in(
    dir: &Path,
    search: usize,
    resume: bool,
    stop: &AtomicBool,
    progress: &(dyn Fn(u32, u64) + Sync),
) -> Result<crate::analysis::arrangements::ArrangementAnalysis, Error> {
    use crate::analysis::arrangements::{analyze_tokens, TokenOptions};
    let (ground, goal, metric, depths) = &token_searches()[search];
    let table = dir.join("t.tst");
    let options = TokenOptions {
        save_table: depths.then_some(table.as_path()),
        checkpoint: Some(checkpoint::Options {
            dir,
            every: std::time::Duration::from_secs(3600),
            resume,
            from: None,
            stop,
            saved: &|_, _| {},
        }),
        ..Default::default()
    };
    analyze_tokens(ground, goal, *metric, options, progress)
}

/// A checkpoint of a search of tokens: refused, or resumed to a result (checked by the
/// analysis, marked unverified where a forgery leads it astray) without a panic.
pub fn token_checkpoint(data: &[u8]) {
    use crate::store::token_checkpoint::reseal;
    let (control, bytes) = file_of(data, reseal);
    let dir = scratch();
    std::fs::write(checkpoint::file(dir.path()), &bytes).expect("scratch write");
    let search = usize::from(control >> 1) % token_searches().len();
    let _ = token_search_in(
        dir.path(),
        search,
        true,
        &AtomicBool::new(false),
        &|_, _| {},
    );
}

/// Checkpoints of the searches of `token_searches`, each stopped after depth 2.
fn token_checkpoint_seeds() -> Vec<Vec<u8>> {
    (0..token_searches().len())
        .map(|search| {
            let dir = scratch();
            let stop = AtomicBool::new(false);
            let at_two = |depth, _| {
                if depth == 2 {
                    stop.store(true, std::sync::atomic::Ordering::Relaxed);
                }
            };
            let stopped = token_search_in(dir.path(), search, false, &stop, &at_two);
            assert!(matches!(stopped, Err(Error::Interrupted { depth: 2, .. })));
            let file = std::fs::read(checkpoint::file(dir.path())).expect("the checkpoint");
            // The seed itself resumes to the checked result.
            stop.store(false, std::sync::atomic::Ordering::Relaxed);
            let resumed = token_search_in(dir.path(), search, true, &stop, &|_, _| {});
            assert!(resumed.expect("resumed").verified);
            [&[(search as u8) << 1][..], &file].concat()
        })
        .collect()
}

/// A pattern database: opened or refused; if opened, every entry can be looked up, and when it
/// is a whole partition (one pattern of every tile) IDA* from the goal's neighbours, with a
/// node limit, gives a solution replayed to the goal, or an error.
pub fn pattern_db(data: &[u8]) {
    use crate::optimal::{database, heuristic::Heuristic, ida};
    let (_, bytes) = file_of(data, database::reseal);
    let Ok(db) = database::Database::from_bytes(&bytes) else {
        return;
    };
    let (shape, goal) = (db.pattern.shape, db.pattern.goal);
    let Ok(h) = Heuristic::new(vec![db]) else {
        return;
    };
    let start = Board::goal(shape, goal);
    for b in std::iter::once(start.clone()).chain(start.neighbours()) {
        let limits = ida::Limits {
            max_nodes: Some(20_000),
            stop: None,
        };
        if let Ok(s) = ida::solve(&h, &b, limits) {
            assert_eq!(moves::replay(&b, &s.moves).expect("legal moves"), start);
        }
    }
}

/// The searches that file targets resume, chosen by the control byte's bits 1 and 2.
fn search_of(control: u8) -> (Shape, Cell) {
    let (r, c, goal) = [(2, 3, 5), (3, 3, 8), (2, 3, 0), (3, 2, 5)][usize::from(control >> 1) & 3];
    (Shape::new(r, c).expect("small"), Cell(goal))
}

/// A resumed search's result: an error, a result marked unverified, or the true one.
fn check_resumed(shape: Shape, goal: Cell, result: Result<Analysis, Error>) {
    if let Ok(a) = result {
        if a.verified {
            let truth = analyze(
                &Puzzle::board(shape, goal, Metric::Single).unwrap(),
                AnalyzeOptions::default(),
                &|_| {},
            )
            .expect("truth");
            assert_eq!(a.distribution.layers, truth.distribution.layers, "verified");
            assert_eq!(a.antipodes, truth.antipodes, "verified");
        }
    }
}

/// A checkpoint of a small search (chosen by the control byte): refused, or resumed to the
/// end (in one process, or on ranks: `resume_where`) with a result that `check_resumed`
/// accepts.
pub fn checkpoint(data: &[u8]) {
    let (control, bytes) = file_of(data, checkpoint::reseal);
    let (shape, goal) = search_of(control);
    let dir = scratch();
    std::fs::write(checkpoint::file(dir.path()), &bytes).expect("scratch write");
    check_resumed(shape, goal, resume_where(control, shape, goal, dir.path()));
}

/// The search saved in `dir` resumed where bits 3 and 4 of the control byte say: in one
/// process (0), or on 1 to 3 ranks; the first rank's result (every rank fails if one does).
fn resume_where(control: u8, shape: Shape, goal: Cell, dir: &Path) -> Result<Analysis, Error> {
    let stop = AtomicBool::new(false);
    let options = AnalyzeOptions {
        checkpoint: Some(resume_in(dir, &stop)),
        ..AnalyzeOptions::default()
    };
    match usize::from(control >> 3) & 3 {
        0 => analyze_at(
            &Puzzle::board(shape, goal, Metric::Single)?,
            None,
            TableAt::Memory,
            options,
            &|_| {},
        ),
        ranks => {
            let results = threads::run(ranks, |group| {
                let budget = Budget::default();
                let at = TableAt::Ranks { group, budget };
                analyze_at(
                    &Puzzle::board(shape, goal, Metric::Single)?,
                    None,
                    at,
                    options,
                    &|_| {},
                )
            });
            results.into_iter().next().expect("a rank")
        }
    }
}

fn resume_in<'a>(dir: &'a Path, stop: &'a AtomicBool) -> checkpoint::Options<'a> {
    checkpoint::Options {
        dir,
        every: std::time::Duration::from_secs(3600),
        resume: true,
        from: None,
        stop,
        saved: &|_, _| {},
    }
}

/// The journal of a search on disk of a small board (chosen by the control byte), alone in its
/// directory: refused, or resumed to the end with a result that `check_resumed` accepts.
pub fn journal(data: &[u8]) {
    let (control, bytes) = file_of(data, crate::store::disk::journal::reseal);
    let (shape, goal) = search_of(control);
    let dir = scratch();
    std::fs::write(dir.path().join("search.tsj"), &bytes).expect("scratch write");
    check_resumed(shape, goal, on_disk(shape, goal, dir.path(), None, &|_| {}));
}

/// The sample the positions target reads files of: 12 boards of 2x3 drawn from seed 7, with
/// the databases of one pattern of every tile.
fn positions_sample() -> &'static (crate::optimal::heuristic::Heuristic, Vec<Board>, Cell) {
    use crate::optimal::{
        build::build, database::Database, heuristic::Heuristic, pattern::Pattern,
    };
    static SAMPLE: std::sync::OnceLock<(Heuristic, Vec<Board>, Cell)> = std::sync::OnceLock::new();
    SAMPLE.get_or_init(|| {
        let (shape, goal) = (Shape::new(2, 3).expect("small"), Cell(5));
        let p = Pattern::new(shape, goal, &[1, 2, 3, 4, 5]).expect("a pattern");
        let built = build(&p, &|_| {}, None).expect("a small build");
        let h = Heuristic::new(vec![Database::new(p, built).expect("a database")]).expect("one");
        let mut rng = crate::puzzle::random::Rng::new(7);
        let drawn = (0..12)
            .map(|_| crate::puzzle::random::solvable_board(shape, goal, &mut rng))
            .collect();
        (h, drawn, goal)
    })
}

/// A positions file of `positions_sample`'s sample: refused, or rows each of a board drawn
/// (each drawn board once) with a distance in the bounds the reader checks, which `csv` writes
/// back to a file that reads to the same rows.
pub fn positions(data: &[u8]) {
    use crate::optimal::positions::{csv, parse};
    let (h, drawn, goal) = positions_sample();
    let path = Path::new("positions.csv");
    let Ok((rows, _)) = parse(path, data, drawn, *goal, h) else {
        return;
    };
    let mut seen = vec![false; drawn.len()];
    for (i, p) in &rows {
        assert_eq!(p.board, drawn[*i].to_string(), "row of the board drawn");
        assert!(
            !std::mem::replace(&mut seen[*i], true),
            "a drawn board once"
        );
    }
    let text = csv(rows.iter().map(|(_, p)| p));
    let (again, torn) = parse(path, text.as_bytes(), drawn, *goal, h).expect("its own rows");
    assert!(!torn);
    let key = |r: &[(usize, crate::optimal::positions::Position)]| -> Vec<(usize, u32, u64)> {
        r.iter().map(|(i, p)| (*i, p.distance, p.nodes)).collect()
    };
    assert_eq!(key(&again), key(&rows));
}

/// Files of `positions_sample` holding every board with its distance (solved by IDA*), and the
/// first half of one cut in a line.
fn positions_seeds() -> Vec<Vec<u8>> {
    use crate::optimal::{ida, positions};
    let (h, drawn, _) = positions_sample();
    let rows: Vec<positions::Position> = drawn
        .iter()
        .map(|b| {
            let limits = ida::Limits {
                max_nodes: None,
                stop: None,
            };
            let s = ida::solve(h, b, limits).expect("a 2x3 board solves");
            positions::Position {
                board: b.to_string(),
                distance: s.moves.len() as u32,
                nodes: 100,
                seconds: 0.25,
            }
        })
        .collect();
    let whole = positions::csv(&rows).into_bytes();
    let cut = whole[..whole.len() / 2].to_vec();
    vec![whole, cut]
}

/// The analysis of `shape` from `goal` with its table on disk in `dir` (shards of 2^5 states):
/// begun anew and stopped by `stop` if given, otherwise going on from the search there.
fn on_disk(
    shape: Shape,
    goal: Cell,
    dir: &Path,
    stop: Option<&AtomicBool>,
    progress: &(dyn Fn(crate::bfs::LayerDone) + Sync),
) -> Result<Analysis, Error> {
    let disk = crate::analysis::OnDisk {
        dir,
        resume: stop.is_none(),
        from: None,
        stop,
        shift: Some(crate::store::disk::layout::MIN_SHIFT),
    };
    let (at, options) = (TableAt::Disk(disk), AnalyzeOptions::default());
    analyze_at(
        &Puzzle::board(shape, goal, Metric::Single)?,
        None,
        at,
        options,
        progress,
    )
}

/// The checkpoint of a distributed search on one rank: a control byte, the manifest's length
/// (2 bytes, little-endian), the manifest, the shard (whose data checksum goes into the
/// manifest when resealed). Refused, or resumed (on 1 rank, in one process or on 2 or 3 ranks:
/// `resume_where`) with a result `check_resumed` accepts.
pub fn shards(data: &[u8]) {
    let Some((&control, rest)) = data.split_first() else {
        return;
    };
    let (m_len, rest) = match rest {
        [a, b, rest @ ..] => (usize::from(u16::from_le_bytes([*a, *b])), rest),
        _ => return,
    };
    let (manifest, shard) = rest.split_at(m_len.min(rest.len()));
    let (mut manifest, mut shard) = (manifest.to_vec(), shard.to_vec());
    if control & 1 != 0 {
        if let Some(sum) = shards::reseal_shard(&mut shard) {
            if let Some(first) = manifest.get_mut(72..80) {
                first.copy_from_slice(&sum.to_le_bytes());
            }
        }
        shards::reseal_manifest(&mut manifest);
    }
    let (shape, goal) = search_of(control);
    let dir = scratch();
    std::fs::write(shards::manifest_file(dir.path()), &manifest).expect("scratch write");
    // The shard under the name the manifest's depth gives.
    let depth = manifest
        .get(32..36)
        .map_or(0, |d| u32::from_le_bytes(d.try_into().expect("4")));
    let name = format!("shard-0-of-1-depth-{depth}.tss");
    std::fs::write(dir.path().join(name), &shard).expect("scratch write");
    // Bits 3 and 4 clear: on the 1 rank that saved it (set: in one process, on 2 or 3 ranks).
    let on = if control & 0x18 == 0 {
        0x08
    } else {
        control ^ 0x08
    };
    check_resumed(shape, goal, resume_where(on, shape, goal, dir.path()));
}

/// A report file (the control byte picks depths.csv, antipodes.csv or summary.csv) read back
/// by the commands that read it, and a summary rendered as paper tables.
pub fn reports(data: &[u8]) {
    use crate::report::{paper, read_antipodes, read_depths, read_summary};
    let Some((&control, text)) = data.split_first() else {
        return;
    };
    let dir = scratch();
    let path = dir.path().join("file.csv");
    std::fs::write(&path, text).expect("scratch write");
    match control % 3 {
        0 => {
            if let Ok(rows) = read_depths(&path) {
                assert!(!rows.is_empty());
            }
        }
        1 => {
            let _ = read_antipodes(&path, Shape::new(3, 3).expect("3x3"));
        }
        _ => {
            if let Ok(rows) = read_summary(&path) {
                for format in [paper::Format::Markdown, paper::Format::Latex] {
                    let _ = paper::render(&rows, format, None);
                }
            }
        }
    }
}

/// Valid inputs of target `name`, to mutate: each file target's files from real runs (tables
/// of each search `search_of` picks, checkpoints after a few depths), resealing off.
pub fn seeds(name: &str) -> Vec<Vec<u8>> {
    let text = |items: &[&str]| items.iter().map(|s| s.as_bytes().to_vec()).collect();
    match name {
        "board" => text(&["8 6 7/2 5 4/3 0 1", "3x3|1 2 3 4 5 6 7 8 0", "1x4|1 0 2 3"]),
        "size" => text(&["4x4", "2x7", "1x12", "290x290"]),
        "blank" => text(&["3x3|last", "4x4|center", "2x5|1,3", "3x3|first"]),
        "duration" => text(&["10m", "2h", "90s", "1d"]),
        "memory_size" => text(&["16G", "512MiB", "1.5 GB", "100000"]),
        "moves" => text(&[
            "1 2 3/4 5 6/7 0 8|R",
            "8 6 7/2 5 4/3 0 1|UULDDRRUULDL",
            "|LLUU",
        ]),
        "table" => (0..4)
            .map(|k| [&[0u8][..], &table_file(k)].concat())
            .collect(),
        "checkpoint" => checkpoint_seeds(),
        "shards" => shard_seeds(),
        "reports" => report_seeds(),
        "pattern_db" => pattern_db_seeds(),
        "journal" => journal_seeds(),
        "disk_files" => disk::seeds(),
        "positions" => positions_seeds(),
        "token_table" => token_table_seeds(),
        "token_checkpoint" => token_checkpoint_seeds(),
        "graph" => text(&[
            "theta:1,2,2",
            "torus:3x3",
            "graph6:Dhc",
            "F[UAG",
            "1 2\n2 3\n3 1\n3 4\n",
            ">>graph6<<Dhc\nDQc\n",
        ]),
        _ => panic!("no fuzz target {name}"),
    }
}

/// Journals of each search of `search_of` with its table on disk, stopped after depth 2 (its
/// shards are not in the target's directory: a resume of one as it is must be refused, and of
/// a mutation, refused or right).
fn journal_seeds() -> Vec<Vec<u8>> {
    let mut seeds = vec![];
    for k in 0..4u8 {
        let (shape, goal) = search_of(k << 1);
        let dir = stopped_at(2, |dir, stop, progress| {
            let _ = on_disk(shape, goal, dir, Some(stop), progress);
        });
        let file = std::fs::read(dir.path().join("search.tsj")).expect("saved");
        seeds.push([&[k << 1][..], &file].concat());
    }
    seeds
}

/// Databases of a whole 2x3 partition (one pattern of every tile) and of part of 3x3's.
fn pattern_db_seeds() -> Vec<Vec<u8>> {
    use crate::optimal::{build::build, database::Database, pattern::Pattern};
    [("2x3", 5, vec![1, 2, 3, 4, 5]), ("3x3", 8, vec![1, 2, 3])]
        .into_iter()
        .map(|(s, g, tiles)| {
            let p = Pattern::new(s.parse().expect("a size"), Cell(g), &tiles).expect("a pattern");
            let built = build(&p, &|_| {}, None).expect("a small build");
            let bytes = Database::new(p, built).expect("a database").to_bytes();
            [&[0u8][..], &bytes].concat()
        })
        .collect()
}

/// Tables of tokens: two blanks and colours on a board, colours on a graph, the multi-tile
/// metric.
fn token_table_seeds() -> Vec<Vec<u8>> {
    use crate::analysis::arrangements::analyze_tokens;
    use crate::index::puzzle::Ground;
    let board = |r, c| Ground::Board(Shape::new(r, c).expect("a board"));
    let cycle = Ground::Graph(crate::graph::family::cycle(6).expect("a cycle"));
    [
        (board(2, 3), "1 1 2 2 0 0", Metric::Single),
        (cycle, "1 1 2 2 0 0", Metric::Single),
        (board(2, 3), "1 2 3 4 5 0", Metric::Multi),
    ]
    .into_iter()
    .map(|(ground, goal, metric)| {
        let dir = scratch();
        let path = dir.path().join("t.tst");
        let goal = crate::puzzle::tokens::Tokens::parse(goal, 6).expect("tokens");
        let options = crate::analysis::arrangements::TokenOptions {
            save_table: Some(&path),
            ..Default::default()
        };
        analyze_tokens(&ground, &goal, metric, options, &|_, _| {}).expect("a search");
        [&[0u8][..], &std::fs::read(&path).expect("the table")].concat()
    })
    .collect()
}

/// The saved table of search `k` of `search_of`.
fn table_file(k: u8) -> Vec<u8> {
    let (shape, goal) = search_of(k << 1);
    let dir = scratch();
    let path = dir.path().join("t.tst");
    let options = AnalyzeOptions {
        save_table: Some(&path),
        ..AnalyzeOptions::default()
    };
    analyze(
        &Puzzle::board(shape, goal, Metric::Single).unwrap(),
        options,
        &|_| {},
    )
    .expect("a small search");
    std::fs::read(&path).expect("the table")
}

/// Runs `search` (which saves checkpoints in the directory it is given) until it stops after
/// `depth`; returns the directory.
fn stopped_at(
    depth: u32,
    search: impl FnOnce(&Path, &AtomicBool, &(dyn Fn(crate::bfs::LayerDone) + Sync)),
) -> tempfile::TempDir {
    let dir = scratch();
    let stop = AtomicBool::new(false);
    let stopper = |l: crate::bfs::LayerDone| {
        if l.depth == depth {
            stop.store(true, std::sync::atomic::Ordering::SeqCst);
        }
    };
    search(dir.path(), &stop, &stopper);
    dir
}

fn save_in<'a>(dir: &'a Path, stop: &'a AtomicBool) -> checkpoint::Options<'a> {
    checkpoint::Options {
        resume: false,
        from: None,
        ..resume_in(dir, stop)
    }
}

/// Checkpoints of each search of `search_of`, after depths 2 and 9.
fn checkpoint_seeds() -> Vec<Vec<u8>> {
    let mut seeds = vec![];
    for k in 0..4u8 {
        let (shape, goal) = search_of(k << 1);
        for depth in [2, 9] {
            let dir = stopped_at(depth, |dir, stop, progress| {
                let options = AnalyzeOptions {
                    checkpoint: Some(save_in(dir, stop)),
                    ..AnalyzeOptions::default()
                };
                let _ = analyze_at(
                    &Puzzle::board(shape, goal, Metric::Single).unwrap(),
                    None,
                    TableAt::Memory,
                    options,
                    progress,
                );
            });
            let file = std::fs::read(checkpoint::file(dir.path())).expect("saved");
            seeds.push([&[k << 1][..], &file].concat());
        }
    }
    seeds
}

/// Shard checkpoints (one rank) of each search of `search_of`, after depths 2 and 9.
fn shard_seeds() -> Vec<Vec<u8>> {
    let mut seeds = vec![];
    for k in 0..4u8 {
        let (shape, goal) = search_of(k << 1);
        for depth in [2u32, 9] {
            let dir = stopped_at(depth, |dir, stop, progress| {
                let options = AnalyzeOptions {
                    checkpoint: Some(save_in(dir, stop)),
                    ..AnalyzeOptions::default()
                };
                threads::run(1, |group| {
                    let budget = Budget::default();
                    let at = TableAt::Ranks { group, budget };
                    let _ = analyze_at(
                        &Puzzle::board(shape, goal, Metric::Single).unwrap(),
                        None,
                        at,
                        options,
                        progress,
                    );
                });
            });
            let manifest = std::fs::read(shards::manifest_file(dir.path())).expect("saved");
            let shard = dir.path().join(format!("shard-0-of-1-depth-{depth}.tss"));
            let shard = std::fs::read(shard).expect("saved");
            let len = (manifest.len() as u16).to_le_bytes();
            seeds.push([&[k << 1][..], &len, &manifest, &shard].concat());
        }
    }
    seeds
}

/// The reports of a 3x3 analysis, each after the control byte that picks its reader.
fn report_seeds() -> Vec<Vec<u8>> {
    let dir = scratch();
    let shape = Shape::new(3, 3).expect("3x3");
    let a = analyze(
        &Puzzle::board(shape, Cell(8), Metric::Single).unwrap(),
        AnalyzeOptions::default(),
        &|_| {},
    )
    .expect("3x3");
    let paths = crate::report::write_all(dir.path(), &a).expect("scratch reports");
    [
        (0u8, &paths.depths),
        (1, &paths.antipodes),
        (2, &paths.summary),
    ]
    .into_iter()
    .map(|(k, p)| [&[k][..], &std::fs::read(p).expect("written")].concat())
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The positions target's seeds reach its accepting path: the whole file reads to a row of
    /// every board, the cut one to fewer with its last line dropped, and a row whose distance is
    /// off by two (parity kept) under the databases' bound is refused.
    #[test]
    fn positions_seeds_are_read() {
        use crate::optimal::positions::parse;
        let (h, drawn, goal) = positions_sample();
        let path = Path::new("positions.csv");
        let seeds = positions_seeds();
        let (rows, torn) = parse(path, &seeds[0], drawn, *goal, h).expect("the whole file");
        assert_eq!((rows.len(), torn), (drawn.len(), false));
        let (rows, torn) = parse(path, &seeds[1], drawn, *goal, h).expect("the cut file");
        assert!(torn && rows.len() < drawn.len());
        let text = String::from_utf8(seeds[0].clone()).expect("text");
        let far = rows
            .iter()
            .find(|(_, p)| p.distance >= 2)
            .map(|(_, p)| p.clone())
            .expect("a board 2 moves or more away");
        let row = format!("{},{},", far.board, far.distance);
        let forged = text.replacen(&row, &format!("{},{},", far.board, far.distance - 2), 1);
        assert!(parse(path, forged.as_bytes(), drawn, *goal, h).is_err());
        positions(&seeds[0]);
        positions(&seeds[1]);
    }
}

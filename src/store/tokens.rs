//! Saved tables of tokens (pebble motion: labels that repeat, several blanks): every
//! arrangement's depth mod 3 from the goal, 2 bits each (`bfs::arrangements`), from which the
//! exact optimal distance of any arrangement, and an optimal way to the goal, are recovered: a
//! neighbour of an arrangement at depth d is at d-1, d or d+1, three codes apart, so a walk
//! through codes of d-1 reaches the goal in exactly d moves.
//!
//! File layout (little-endian): a 64-byte header, then 8-byte words: the goal's token on each
//! cell, the length of the graph's graph6 text and its bytes (none on a board, zeros to the
//! word's end), the layer counts (eccentricity + 1 of them), then the table's words.
//!
//! | bytes | field |
//! |---|---|
//! | 0..8 | magic `TSTOKENS` |
//! | 8..12 | format version |
//! | 12..16 | cells |
//! | 16..20, 20..24 | rows, cols (0 and 0 on a graph) |
//! | 24..28 | eccentricity |
//! | 28 | metric (`Metric::byte`) |
//! | 29 | index (`GoalIndex::byte`) |
//! | 32..40 | arrangements (the index's count) |
//! | 40..48 | checksum of the words after the header, in order |
//! | 48..56 | checksum of bytes 0..48 |
//!
//! Opening checks more than the checksums, which a forger recomputes: the ground, goal, metric
//! and index must agree with each other; the layer counts must start with the goal alone and
//! have no empty layer; and the table's arrangements counted by code must be those the layers
//! give at each depth mod 3, the goal's code that of depth 0 and nothing coded past the last
//! arrangement. The table is read into memory (at most 1 GiB: 2^32 arrangements).

use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};

use crate::bfs::arrangements::{ArrangementMoves, Depths};
use crate::error::{Damage, Error};
use crate::graph::Graph;
use crate::index::arrangement::MAX_RANKS;
use crate::index::goal_index::{GoalIndex, Symbols};
use crate::index::puzzle::Ground;
use crate::puzzle::board::Shape;
use crate::puzzle::metric::Metric;
use crate::puzzle::tokens::Tokens;
use crate::store::header::{le_words, Checksum, HeaderReader, HeaderWriter};

const MAGIC: &[u8; 8] = b"TSTOKENS";
const VERSION: u32 = 1;
pub(crate) const HEADER: usize = 64;
/// Bytes of header fields; their checksum follows.
const FIELDS: usize = 48;

/// What a table of tokens is of: where the tokens sit, how they move, the goal, the layers.
pub struct Saving<'a> {
    /// Where the tokens sit.
    pub ground: &'a Ground,
    /// How they move.
    pub metric: Metric,
    /// The goal searched from.
    pub goal: &'a Tokens,
    /// Arrangements at each depth from the goal.
    pub layers: &'a [u64],
}

/// Whether the file at `path` starts as a table of tokens does (else it is read as another
/// kind; an unreadable file is left to that reader's error).
pub fn is_token_table(path: &Path) -> bool {
    let mut magic = [0u8; 8];
    crate::store::atomic::open_regular(path)
        .and_then(|mut f| f.read_exact(&mut magic))
        .is_ok_and(|()| &magic == MAGIC)
}

/// The words after the header but the table's: the goal, the graph's graph6 text, the layers.
pub(crate) fn preamble(ground: &Ground, goal: &Tokens, layers: &[u64]) -> Vec<u64> {
    let mut words: Vec<u64> = goal.cells().iter().map(|&t| u64::from(t)).collect();
    let text = match ground {
        Ground::Board(_) => String::new(),
        Ground::Graph(g) => crate::graph::graph6::encode(g),
    };
    words.push(text.len() as u64);
    words.extend(text.as_bytes().chunks(8).map(|c| {
        let mut b = [0u8; 8];
        b[..c.len()].copy_from_slice(c);
        u64::from_le_bytes(b)
    }));
    words.extend_from_slice(layers);
    words
}

/// Writes the depths of a finished search (`of`) to `path`, through a temporary file and a
/// rename.
pub fn save(path: &Path, of: &Saving, depths: &Depths) -> Result<(), Error> {
    let file = File {
        magic: MAGIC,
        version: VERSION,
        flags: [0, 0],
        seconds: None,
    };
    write(path, &file, of, &[depths.0.words()])
}

/// What a file of tokens' header holds beside a search's fields: its magic and version, two
/// flags (bytes 30 and 31), and the seconds of search (bytes 48..56) where it records them.
pub(crate) struct File {
    pub magic: &'static [u8; 8],
    pub version: u32,
    pub flags: [u8; 2],
    pub seconds: Option<f64>,
}

/// Writes a file of tokens (a saved table's layout, `file` its header) of the search `of` with
/// `tables` after the preamble, through a temporary file and a rename.
pub(crate) fn write(
    path: &Path,
    file: &File,
    of: &Saving,
    tables: &[&[std::sync::atomic::AtomicU64]],
) -> Result<(), Error> {
    let index = GoalIndex::of(of.goal)?;
    let (rows, cols) = match of.ground {
        Ground::Board(shape) => (shape.rows as u32, shape.cols as u32),
        Ground::Graph(_) => (0, 0),
    };
    crate::store::atomic::write_atomic_with(path, |out| {
        // The words streamed after a blank header, their checksum added as they go; the
        // header last.
        out.write_all(&[0; HEADER])?;
        let mut sum = Checksum::new();
        let table = tables.iter().flat_map(|t| t.iter());
        let words = preamble(of.ground, of.goal, of.layers)
            .into_iter()
            .chain(table.map(|w| w.load(std::sync::atomic::Ordering::Relaxed)));
        for w in words {
            sum.add(w);
            out.write_all(&w.to_le_bytes())?;
        }
        let [a, b] = file.flags;
        let mut head = HeaderWriter::new(file.magic, file.version)
            .u32(of.goal.len() as u32)
            .u32(rows)
            .u32(cols)
            .u32(of.layers.len() as u32 - 1)
            .bytes(&[of.metric.byte(), index.byte(), a, b])
            .u64(index.count())
            .u64(sum.value());
        if let Some(seconds) = file.seconds {
            head = head.u64(seconds.to_bits());
        }
        out.seek(std::io::SeekFrom::Start(0))?;
        out.write_all(&head.finish(HEADER))
    })
}

/// Recomputes the checksums of a table of tokens' image (the words after the header, then the
/// header) over what is there, as a forger would: the file then gets past the checksums to the
/// checks behind them (tests, fuzzing). Too short an image is left alone.
pub fn reseal(bytes: &mut [u8]) {
    reseal_fields(bytes, FIELDS);
}

/// `reseal` of a file of tokens whose header fields take `fields` bytes (a checkpoint's too).
pub(crate) fn reseal_fields(bytes: &mut [u8], fields: usize) {
    if bytes.len() >= HEADER {
        let sum = crate::store::header::checksum(le_words(&bytes[HEADER..]));
        bytes[40..48].copy_from_slice(&sum.to_le_bytes());
        crate::store::header::reseal_header(bytes, fields);
    }
}

/// A saved table of tokens, opened and checked.
pub struct TokenTable {
    path: PathBuf,
    ground: Ground,
    metric: Metric,
    goal: Tokens,
    layers: Vec<u64>,
    index: GoalIndex,
    symbols: Symbols,
    moves: ArrangementMoves,
    words: Vec<u64>,
}

impl TokenTable {
    /// Opens the table at `path`, refusing one damaged or forged (see the module's
    /// documentation) or past the memory available.
    pub fn open(path: &Path) -> Result<TokenTable, Error> {
        let bad = |why: Damage| Error::Table {
            path: path.to_path_buf(),
            damage: why,
        };
        let read = |source| Error::Read {
            path: path.to_path_buf(),
            source,
        };
        let (mut file, head) = crate::store::header::read_head(path, HEADER)?;
        let h = HeaderReader::open(&head, MAGIC, VERSION, FIELDS, "table of tokens")
            .map_err(|why| bad(crate::store::header::table_damage(why)))?;
        if head[FIELDS + 8..].iter().any(|&b| b != 0) {
            return Err(bad("the header's padding is not zeros".into()));
        }
        let fields = Fields::read(&h).map_err(|why| bad(why.into()))?;
        let length = file.metadata().map_err(read)?.len();
        if length != fields.length(1) {
            return Err(bad(Damage::length(format!(
                "truncated or padded: {length} bytes, expected {}",
                fields.length(1)
            ))));
        }
        crate::store::room::fits(length as f64).map_err(|limit| Error::NoRoom {
            what: format!("the table of tokens {}", path.display()),
            needed: length,
            limit,
        })?;
        let words = read_words(&mut file, length).map_err(read)?;
        let mut sum = Checksum::new();
        if words.len() as u64 * 8 + HEADER as u64 != length {
            return Err(bad(Damage::length("changed while it was read")));
        }
        words.iter().for_each(|&w| sum.add(w));
        if sum.value() != h.u64(40) {
            return Err(bad(Damage::checksum(
                "the table is corrupted (checksum mismatch)",
            )));
        }
        let opened = fields.contents(words).map_err(|why| bad(why.into()))?;
        Ok(TokenTable {
            path: path.to_path_buf(),
            ..opened
        })
    }

    /// Where the tokens sit.
    pub fn ground(&self) -> &Ground {
        &self.ground
    }

    /// How moves are counted.
    pub fn metric(&self) -> Metric {
        self.metric
    }

    /// The goal.
    pub fn goal(&self) -> &Tokens {
        &self.goal
    }

    /// Arrangements at each depth from the goal.
    pub fn layers(&self) -> &[u64] {
        &self.layers
    }

    /// `tokens` as the command line writes them: a board's rows split by `/`.
    pub fn written(&self, tokens: &Tokens) -> String {
        match &self.ground {
            Ground::Board(shape) => tokens.rows(shape.cols),
            Ground::Graph(_) => tokens.to_string(),
        }
    }

    /// The tokens of `text`: a board string drawing the table's board, or a graph's tokens in
    /// its vertex order.
    pub fn parse(&self, text: &str) -> Result<Tokens, Error> {
        match &self.ground {
            Ground::Board(shape) => Tokens::parse_board(text, *shape),
            Ground::Graph(g) => Tokens::parse(text, g.vertices()),
        }
    }

    /// The code of rank `rank`: 1 + its depth mod 3, 0 if the goal does not reach it.
    fn code(&self, rank: u64) -> u64 {
        (self.words[(rank / 32) as usize] >> (2 * (rank % 32))) & 3
    }

    /// An optimal way from `start` to the goal: the arrangements, both ends included. An
    /// arrangement of other tokens is an error of the board; one the goal does not reach is
    /// `Error::Unsolvable`.
    pub fn solve(&self, start: &Tokens) -> Result<Vec<Tokens>, Error> {
        let wrong = |why: String| Error::Table {
            path: self.path.clone(),
            damage: why.into(),
        };
        let symbols = self.symbols_of(start)?;
        let goal = self
            .index
            .rank_of(&self.symbols.encode(&self.goal).expect("its labels"));
        let mut rank = self.index.rank_of(&symbols);
        let mut code = self.code(rank);
        if code == 0 {
            return Err(Error::Unsolvable(format!(
                "{} cannot reach the goal {}: the goal reaches {} of the {} arrangements of {}, \
                 not it",
                self.written(start),
                self.written(&self.goal),
                self.layers.iter().sum::<u64>(),
                self.index.count(),
                self.goal.notation()
            )));
        }
        let mut path = vec![symbols];
        while rank != goal {
            // The code of depth d - 1: one of the neighbours holds it, and is one move closer.
            let want = if code == 1 { 3 } else { code - 1 };
            let here = path.last().expect("a start");
            let next = self
                .moves
                .targets(here)
                .into_iter()
                .map(|t| (self.index.rank_of(&t), t))
                .find(|&(r, _)| self.code(r) == want);
            let Some((r, t)) = next else {
                return Err(wrong(format!(
                    "no move of {} is one closer to the goal: the table is wrong",
                    self.written(&self.symbols.decode(here))
                )));
            };
            if path.len() >= self.layers.len() {
                return Err(wrong(
                    "a way to the goal longer than the eccentricity: the table is wrong".into(),
                ));
            }
            (rank, code) = (r, want);
            path.push(t);
        }
        Ok(path.iter().map(|s| self.symbols.decode(s)).collect())
    }

    /// The exact optimal number of moves from `start` to the goal (the length of `solve`'s
    /// way).
    pub fn distance(&self, start: &Tokens) -> Result<u32, Error> {
        Ok(self.solve(start)?.len() as u32 - 1)
    }

    /// The symbols of `start`, refused unless it is an arrangement of the goal's tokens.
    fn symbols_of(&self, start: &Tokens) -> Result<Vec<u8>, Error> {
        if start.len() != self.goal.len() || start.multiplicities() != self.goal.multiplicities() {
            return Err(Error::Board(format!(
                "{} is not an arrangement of the table's tokens {}",
                self.written(start),
                self.goal.notation()
            )));
        }
        Ok(self.symbols.encode(start).expect("the goal's labels"))
    }
}

/// The words of `file` (of `length` bytes) from where it stands (past the header) to its end,
/// read a part at a time: the file's bytes are not held twice.
pub(crate) fn read_words(file: &mut std::fs::File, length: u64) -> std::io::Result<Vec<u64>> {
    let mut words: Vec<u64> = Vec::with_capacity((length as usize).saturating_sub(HEADER) / 8);
    let mut part = vec![0u8; 1 << 20];
    loop {
        let n = read_full(file, &mut part)?;
        words.extend(le_words(&part[..n - n % 8]));
        if n < part.len() {
            return Ok(words);
        }
    }
}

/// Reads into `buf` until it is full or the file ends; how many bytes it read.
fn read_full(file: &mut std::fs::File, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match file.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

/// A table's header fields (or a checkpoint's, `store::token_checkpoint`), read and checked
/// against each other.
pub(crate) struct Fields {
    pub cells: usize,
    pub board: Option<Shape>,
    /// The last depth (of the search so far, in a checkpoint).
    pub eccentricity: u32,
    pub metric: Metric,
    pub index: u8,
    pub arrangements: u64,
}

/// What the words after a header hold before the table, read and checked against the header:
/// the goal, where its tokens sit, its index, the layer counts.
pub(crate) struct Preamble {
    pub goal: Tokens,
    pub ground: Ground,
    pub index: GoalIndex,
    pub layers: Vec<u64>,
    /// Words of the preamble: the first table's word follows.
    pub words: usize,
}

impl Fields {
    pub(crate) fn read(h: &HeaderReader) -> Result<Fields, String> {
        let cells = h.u32(12) as usize;
        let (rows, cols) = (h.u32(16) as usize, h.u32(20) as usize);
        if !(2..=crate::index::arrangement::MAX_CELLS).contains(&cells) {
            return Err(format!("{cells} cells: a table has 2 to 32"));
        }
        let board = match (rows, cols) {
            (0, 0) => None,
            (r, c) if r.checked_mul(c) == Some(cells) => {
                Some(Shape::new(r, c).map_err(|e| e.to_string())?)
            }
            _ => return Err(format!("a {rows}x{cols} board of {cells} cells")),
        };
        let metric = Metric::from_byte(h.byte(28))
            .ok_or_else(|| format!("metric byte {}: neither single- nor multi-tile", h.byte(28)))?;
        let arrangements = h.u64(32);
        if arrangements == 0 || arrangements > MAX_RANKS {
            return Err(format!(
                "{arrangements} arrangements: a table holds 1 to 2^32"
            ));
        }
        let eccentricity = h.u32(24);
        if u64::from(eccentricity) >= arrangements {
            return Err(format!(
                "eccentricity {eccentricity} of {arrangements} arrangements"
            ));
        }
        Ok(Fields {
            cells,
            board,
            eccentricity,
            metric,
            index: h.byte(29),
            arrangements,
        })
    }

    /// Words of a table.
    pub(crate) fn table_words(&self) -> u64 {
        self.arrangements.div_ceil(32)
    }

    /// The length of a file of `tables` tables (the graph6 text's words, which the preamble
    /// gives, are checked again there).
    pub(crate) fn length(&self, tables: u64) -> u64 {
        HEADER as u64
            + 8 * (self.cells as u64 + 1 + u64::from(self.eccentricity) + 1)
            + 8 * tables * self.table_words()
            + 8 * self.graph_words_most()
    }

    /// Words of a graph6 text of a graph of `cells` vertices (none on a board).
    fn graph_words_most(&self) -> u64 {
        match self.board {
            Some(_) => 0,
            None => {
                let n = self.cells as u64;
                (1 + (n * (n - 1) / 2).div_ceil(6)).div_ceil(8)
            }
        }
    }

    /// The table from the words after the header, checked (see the module's documentation).
    fn contents(self, mut words: Vec<u64>) -> Result<TokenTable, String> {
        let Preamble {
            goal,
            ground,
            index,
            layers,
            words: at,
        } = self.preamble(&words)?;
        // The table's words moved to the front, not copied (a table may be a gigabyte).
        words.drain(..at);
        let table = words;
        check_layers(&layers, &table, self.arrangements)?;
        let symbols = Symbols::of(&goal);
        let goal_rank = index.rank_of(&symbols.encode(&goal).expect("its labels"));
        if (table[(goal_rank / 32) as usize] >> (2 * (goal_rank % 32))) & 3 != 1 {
            return Err("the goal's code is not depth 0's: the table is wrong".into());
        }
        let moves = match &ground {
            Ground::Board(shape) => ArrangementMoves::of_board(*shape, self.metric),
            Ground::Graph(g) => ArrangementMoves::of_graph(g),
        };
        Ok(TokenTable {
            path: PathBuf::new(),
            ground,
            metric: self.metric,
            goal,
            layers,
            index,
            symbols,
            moves,
            words: table,
        })
    }

    /// The preamble of `words` (those after the header), checked against the header.
    pub(crate) fn preamble(&self, words: &[u64]) -> Result<Preamble, String> {
        let n = self.cells;
        let goal: Vec<u32> = words[..n]
            .iter()
            .map(|&t| u32::try_from(t).map_err(|_| format!("token {t} past 2^32")))
            .collect::<Result<_, _>>()?;
        let goal = Tokens::new(goal).map_err(|e| e.to_string())?;
        // Before any index is built for it.
        if goal.arrangements() != num_bigint::BigUint::from(self.arrangements) {
            return Err(format!(
                "its goal {} has {} arrangements, its header {}",
                goal.notation(),
                goal.arrangements(),
                self.arrangements
            ));
        }
        let text_len = words[n] as usize;
        let text_words = text_len.div_ceil(8);
        if text_words as u64 != self.graph_words_most() {
            return Err(format!("a graph6 text of {text_len} bytes for {n} cells"));
        }
        let bytes: Vec<u8> = words[n + 1..n + 1 + text_words]
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .take(text_len)
            .collect();
        let ground = match self.board {
            Some(shape) => Ground::Board(shape),
            None => {
                let text = String::from_utf8(bytes).map_err(|_| "its graph6 is not text")?;
                // A graph is connected by construction.
                let g: Graph = crate::graph::graph6::decode(&text).map_err(|e| e.to_string())?;
                if g.vertices() != n {
                    return Err(format!(
                        "its graph {text} is not a connected graph on {n} vertices"
                    ));
                }
                Ground::Graph(g)
            }
        };
        let on_graph = matches!(ground, Ground::Graph(_));
        if (on_graph && !self.metric.moves_on_graphs()) || !self.metric.moves_tokens(goal.blanks())
        {
            return Err(format!(
                "{} moves are not defined for its tokens",
                self.metric.adjective()
            ));
        }
        let index = GoalIndex::of(&goal).map_err(|e| e.to_string())?;
        if index.byte() != self.index || index.count() != self.arrangements {
            return Err(format!(
                "its index (byte {}, {} arrangements) is not its goal's",
                self.index, self.arrangements
            ));
        }
        let at = n + 1 + text_words;
        let layers = words[at..at + self.eccentricity as usize + 1].to_vec();
        Ok(Preamble {
            goal,
            ground,
            index,
            words: at + layers.len(),
            layers,
        })
    }
}

/// Refuses layer counts that are not a search's (the goal alone first, none empty, no more
/// than the arrangements) or that the table's codes, counted, do not give at each depth mod 3;
/// or a code past the last arrangement.
fn check_layers(layers: &[u64], table: &[u64], arrangements: u64) -> Result<(), String> {
    check_counts(layers, arrangements)?;
    let mut want = [0u64; 3];
    for (d, &n) in layers.iter().enumerate() {
        want[d % 3] += n;
    }
    let found = code_counts(table, arrangements)?;
    if found != want {
        return Err(format!(
            "its arrangements by depth mod 3 ({found:?}) are not its layers' ({want:?}): the \
             table is wrong"
        ));
    }
    Ok(())
}

/// Refuses layer counts that are not a search's: the start alone first, none empty, no more
/// than the arrangements in all.
pub(crate) fn check_counts(layers: &[u64], arrangements: u64) -> Result<(), String> {
    let total = layers.iter().try_fold(0u64, |t, &n| t.checked_add(n));
    if layers.first() != Some(&1) || layers.contains(&0) || total.is_none_or(|t| t > arrangements) {
        return Err("its layer counts are not a search's".into());
    }
    Ok(())
}

/// How many slots of `table` hold codes 1, 2 and 3; refused if a slot past the last of
/// `arrangements` holds one.
pub(crate) fn code_counts(table: &[u64], arrangements: u64) -> Result<[u64; 3], String> {
    const LOW: u64 = 0x5555_5555_5555_5555;
    let mut found = [0u64; 3];
    for (w, &word) in table.iter().enumerate() {
        let (low, high) = (word & LOW, (word >> 1) & LOW);
        found[0] += u64::from((low & !high).count_ones());
        found[1] += u64::from((high & !low).count_ones());
        found[2] += u64::from((low & high).count_ones());
        let first = w as u64 * 32;
        if arrangements - first < 32 && word >> (2 * (arrangements - first)) != 0 {
            return Err("a code past its last arrangement".into());
        }
    }
    Ok(found)
}

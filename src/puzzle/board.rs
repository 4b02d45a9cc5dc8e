//! Board geometry: `Shape` (R×C), cells, goal blank cells, and `Board` with its text form.
//!
//! Text form, accepted wherever a board is read: rows separated by `/` or newlines, tiles by
//! spaces and/or commas, the blank as `0` or `_` (`"1 2 3/4 5 6/7 8 0"`); or one flat row with an
//! explicit shape. Boards print in the same one-line form, blank as `0`.

use std::fmt;
use std::str::FromStr;

use crate::error::Error;

/// Largest side accepted when parsing a shape: keeps `rows * cols` far from overflow while
/// allowing the "any size" solvability and count commands (1000x1000 is a million tiles).
pub const MAX_SIDE: usize = 1000;

/// A board of `rows` × `cols` cells, read row by row (cell index = row * cols + col).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Shape {
    /// Rows (R).
    pub rows: usize,
    /// Columns (C).
    pub cols: usize,
}

impl Shape {
    /// A shape of at least 2 cells. Lines (1×n, n×1) are accepted: their blank only moves along
    /// the line, so they are handled apart from the R, C ≥ 2 theory (see `Shape::is_line`).
    pub fn new(rows: usize, cols: usize) -> Result<Shape, Error> {
        // Sides first: their product is then far from overflowing.
        if rows > MAX_SIDE || cols > MAX_SIDE {
            return Err(Error::Shape(format!(
                "{rows}x{cols}: sides are limited to {MAX_SIDE}"
            )));
        }
        if rows == 0 || cols == 0 || rows * cols < 2 {
            return Err(Error::Shape(format!(
                "{rows}x{cols}: a board needs at least 2 cells"
            )));
        }
        Ok(Shape { rows, cols })
    }

    /// R × C.
    pub fn cells(self) -> usize {
        self.rows * self.cols
    }

    /// 1×n or n×1: the tiles can never pass each other.
    pub fn is_line(self) -> bool {
        self.rows == 1 || self.cols == 1
    }

    /// The board with rows and columns exchanged.
    pub fn transposed(self) -> Shape {
        Shape {
            rows: self.cols,
            cols: self.rows,
        }
    }

    /// The cell at `row`, `col` (0-based).
    pub fn cell(self, row: usize, col: usize) -> Cell {
        debug_assert!(row < self.rows && col < self.cols);
        Cell(row * self.cols + col)
    }

    /// The row of `cell` (0-based).
    pub fn row(self, cell: Cell) -> usize {
        cell.0 / self.cols
    }

    /// The column of `cell` (0-based).
    pub fn col(self, cell: Cell) -> usize {
        cell.0 % self.cols
    }

    /// The same cell seen in the transposed shape.
    pub fn transpose_cell(self, cell: Cell) -> Cell {
        self.transposed().cell(self.col(cell), self.row(cell))
    }

    /// Checkerboard colour of a cell: every move flips it.
    pub fn colour(self, cell: Cell) -> usize {
        (self.row(cell) + self.col(cell)) & 1
    }

    /// Taxicab distance between two cells.
    pub fn distance(self, a: Cell, b: Cell) -> usize {
        self.row(a).abs_diff(self.row(b)) + self.col(a).abs_diff(self.col(b))
    }

    /// The cells one move away from `cell`, in the order up, down, left, right.
    pub fn neighbours(self, cell: Cell) -> impl Iterator<Item = Cell> {
        let (r, c) = (self.row(cell), self.col(cell));
        let up = (r > 0).then(|| Cell(cell.0 - self.cols));
        let down = (r + 1 < self.rows).then(|| Cell(cell.0 + self.cols));
        let left = (c > 0).then(|| Cell(cell.0 - 1));
        let right = (c + 1 < self.cols).then(|| Cell(cell.0 + 1));
        [up, down, left, right].into_iter().flatten()
    }

    /// `RxC` with 1-based `R,C` for a cell, as users write it.
    pub fn cell_label(self, cell: Cell) -> String {
        format!("{},{}", self.row(cell) + 1, self.col(cell) + 1)
    }

    /// Name of the report directory: `RxC`, or `RxC-blank-R-C` for a goal blank other than last.
    pub fn report_name(self, goal: Cell) -> String {
        if goal.0 == self.cells() - 1 {
            self.to_string()
        } else {
            format!("{self}-blank-{}-{}", self.row(goal) + 1, self.col(goal) + 1)
        }
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.rows, self.cols)
    }
}

impl FromStr for Shape {
    type Err = Error;

    fn from_str(s: &str) -> Result<Shape, Error> {
        let bad = || {
            Error::Shape(format!(
                "'{s}' is not a board size like 3x3 (rows x columns)"
            ))
        };
        let (r, c) = s.trim().split_once(['x', 'X', '×']).ok_or_else(bad)?;
        let r: usize = r.trim().parse().map_err(|_| bad())?;
        let c: usize = c.trim().parse().map_err(|_| bad())?;
        Shape::new(r, c)
    }
}

/// A cell index in reading order (0-based). Users see `R,C` 1-based.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(pub usize);

/// Where the blank sits in the goal. The goal has tiles 1, 2, … in reading order around it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GoalBlank {
    /// Bottom-right cell: the usual 15-puzzle goal.
    Last,
    /// Top-left cell.
    First,
    /// Row ⌈R/2⌉, column ⌈C/2⌉ (1-based): the centre, or the upper-left of the central cells.
    Center,
    /// Row and column, 1-based.
    At(usize, usize),
    /// The cell (or a graph's vertex) of this number, 1-based, in reading order.
    Vertex(usize),
}

impl GoalBlank {
    /// The cell this names on `shape`, or why it names none.
    pub fn resolve(self, shape: Shape) -> Result<Cell, Error> {
        match self {
            GoalBlank::Last => Ok(Cell(shape.cells() - 1)),
            GoalBlank::First => Ok(Cell(0)),
            GoalBlank::Center => Ok(shape.cell((shape.rows - 1) / 2, (shape.cols - 1) / 2)),
            GoalBlank::Vertex(v) => {
                if v == 0 || v > shape.cells() {
                    Err(Error::Blank(format!(
                        "blank cell {v} is outside the {shape} board (cells 1..={} in reading order)",
                        shape.cells()
                    )))
                } else {
                    Ok(Cell(v - 1))
                }
            }
            GoalBlank::At(r, c) => {
                if r == 0 || c == 0 || r > shape.rows || c > shape.cols {
                    Err(Error::Blank(format!(
                        "blank cell {r},{c} is outside the {shape} board (rows 1..={}, columns 1..={})",
                        shape.rows, shape.cols
                    )))
                } else {
                    Ok(shape.cell(r - 1, c - 1))
                }
            }
        }
    }
}

/// As typed: `last`, `first`, `center` or `R,C`.
impl fmt::Display for GoalBlank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GoalBlank::Last => f.write_str("last"),
            GoalBlank::First => f.write_str("first"),
            GoalBlank::Center => f.write_str("center"),
            GoalBlank::At(r, c) => write!(f, "{r},{c}"),
            GoalBlank::Vertex(v) => write!(f, "{v}"),
        }
    }
}

impl FromStr for GoalBlank {
    type Err = Error;

    fn from_str(s: &str) -> Result<GoalBlank, Error> {
        match s.trim().to_ascii_lowercase().as_str() {
            "last" => Ok(GoalBlank::Last),
            "first" => Ok(GoalBlank::First),
            "center" | "centre" => Ok(GoalBlank::Center),
            other => {
                let bad = || {
                    Error::Blank(format!(
                        "'{s}' is not a blank cell: use last, first, center, R,C or a cell \
                         number (1-based)"
                    ))
                };
                if let Ok(v) = other.parse() {
                    return Ok(GoalBlank::Vertex(v));
                }
                let (r, c) = other.split_once(',').ok_or_else(bad)?;
                Ok(GoalBlank::At(
                    r.trim().parse().map_err(|_| bad())?,
                    c.trim().parse().map_err(|_| bad())?,
                ))
            }
        }
    }
}

/// A configuration: `cells[i]` is the tile on cell `i`, 0 for the blank.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    shape: Shape,
    cells: Vec<u32>,
}

impl Board {
    /// The memory one board of `shape` holds: itself, its cells, and the allocator's word or
    /// two beside them.
    pub fn bytes(shape: Shape) -> f64 {
        (std::mem::size_of::<Board>() + 4 * shape.cells() + 16) as f64
    }

    /// A board from its cells, checked: one blank, tiles 1..RC-1 each exactly once.
    pub fn new(shape: Shape, cells: Vec<u32>) -> Result<Board, Error> {
        let n = shape.cells();
        // The common case, up to 64 cells, in one pass: n tiles below n, all different.
        if n <= 64 && cells.len() == n {
            let seen = cells
                .iter()
                .try_fold(0u64, |seen, &t| (t < n as u32).then(|| seen | 1 << t));
            if seen.is_some_and(|seen| seen.count_ones() as usize == n) {
                return Ok(Board { shape, cells });
            }
        }
        if cells.len() != n {
            return Err(Error::Board(format!(
                "a {shape} board has {n} cells, got {}",
                cells.len()
            )));
        }
        if let Some(&t) = cells.iter().find(|&&t| t as usize >= n) {
            return Err(Error::Board(format!(
                "tile {t} is out of range for {shape} (tiles are 1..{}, blank 0 or _)",
                n - 1
            )));
        }
        let mut count = vec![0usize; n];
        for &t in &cells {
            count[t as usize] += 1;
        }
        // With n cells in range, a repeated tile always leaves another one out: name both.
        if let Some(twice) = count.iter().position(|&c| c > 1) {
            let missing = count
                .iter()
                .position(|&c| c == 0)
                .expect("a repeat leaves a gap");
            let what = |t: usize| {
                if t == 0 {
                    "the blank (0 or _)".to_string()
                } else {
                    format!("tile {t}")
                }
            };
            return Err(Error::Board(format!(
                "{} appears {} times and {} is missing",
                what(twice),
                count[twice],
                what(missing)
            )));
        }
        Ok(Board { shape, cells })
    }

    /// The goal: tiles 1, 2, … in reading order, the blank on `blank`.
    pub fn goal(shape: Shape, blank: Cell) -> Board {
        let mut cells = Vec::with_capacity(shape.cells());
        let mut next = 1;
        for i in 0..shape.cells() {
            if i == blank.0 {
                cells.push(0);
            } else {
                cells.push(next);
                next += 1;
            }
        }
        Board { shape, cells }
    }

    /// Parses the text form; `shape` (given by `--shape`) is required for a flat list and
    /// checked otherwise.
    pub fn parse(text: &str, shape: Option<Shape>) -> Result<Board, Error> {
        Board::parse_for(text, shape, "--shape is")
    }

    /// `parse`, with the words that say where `shape` came from, as the subject and verb of a
    /// clause (`--shape is`, `the table is for`, `the pattern databases are for`), for the error
    /// when the board's rows say otherwise.
    pub fn parse_for(text: &str, shape: Option<Shape>, whose: &str) -> Result<Board, Error> {
        match parse_plain(text, shape) {
            Some(board) => Ok(board),
            None => parse_general(text, shape, whose),
        }
    }

    /// Its size.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The tile in each cell, in reading order; 0 is the blank.
    pub fn cells(&self) -> &[u32] {
        &self.cells
    }

    /// The blank's cell.
    pub fn blank(&self) -> Cell {
        Cell(
            self.cells
                .iter()
                .position(|&t| t == 0)
                .expect("a board has a blank"),
        )
    }

    /// The tiles in reading order, blank left out: the sequence the parity rules speak of.
    pub fn tiles(&self) -> impl Iterator<Item = u32> + '_ {
        self.cells.iter().copied().filter(|&t| t != 0)
    }

    /// The board after sliding the tile on `from` into the blank (`from` must neighbour it).
    pub fn slide(&self, from: Cell) -> Board {
        let blank = self.blank();
        debug_assert_eq!(self.shape.distance(blank, from), 1);
        let mut cells = self.cells.clone();
        cells.swap(blank.0, from.0);
        Board {
            shape: self.shape,
            cells,
        }
    }

    /// Every board one move away.
    pub fn neighbours(&self) -> impl Iterator<Item = Board> + '_ {
        self.shape.neighbours(self.blank()).map(|c| self.slide(c))
    }

    /// The same position in the transposed shape, tiles relabelled so that the goal with blank
    /// on `goal` maps to the goal with blank on the transposed cell. Distances are unchanged.
    pub fn transposed(&self, goal: Cell) -> Board {
        let t_shape = self.shape.transposed();
        let t_goal = Board::goal(t_shape, self.shape.transpose_cell(goal));
        let here_goal = Board::goal(self.shape, goal);
        // relabel[t] = the label, in the transposed goal, of the cell where tile t belongs.
        let mut relabel = vec![0u32; self.cells.len()];
        for (i, &t) in here_goal.cells.iter().enumerate() {
            relabel[t as usize] = t_goal.cells[self.shape.transpose_cell(Cell(i)).0];
        }
        let mut cells = vec![0u32; self.cells.len()];
        for (i, &t) in self.cells.iter().enumerate() {
            cells[self.shape.transpose_cell(Cell(i)).0] = relabel[t as usize];
        }
        Board {
            shape: t_shape,
            cells,
        }
    }

    /// Several lines, columns aligned, blank as `_`: for people, not for parsing back.
    pub fn grid(&self) -> String {
        let width = (self.cells.len() - 1).to_string().len();
        let mut out = String::new();
        for row in self.cells.chunks(self.shape.cols) {
            let line: Vec<String> = row
                .iter()
                .map(|&t| match t {
                    0 => format!("{:>width$}", "_"),
                    t => format!("{t:>width$}"),
                })
                .collect();
            out.push_str(&line.join(" "));
            out.push('\n');
        }
        out
    }
}

/// `Board::parse_for` of any text: rows split at '/' or new lines, tiles at spaces or commas,
/// `_` the blank; the error names what is wrong.
fn parse_general(text: &str, shape: Option<Shape>, whose: &str) -> Result<Board, Error> {
    let rows: Vec<Vec<u32>> = text
        .split(['/', '\n'])
        .map(str::trim)
        .filter(|r| !r.is_empty())
        .map(parse_row)
        .collect::<Result<_, _>>()?;
    if rows.is_empty() {
        return Err(Error::Board("empty board".to_string()));
    }
    let shape = match (shape, rows.len()) {
        (Some(shape), 1) => shape,
        (None, 1) => {
            return Err(Error::Board(format!(
                "one row of {} tiles: separate rows with '/' or give --shape RxC",
                rows[0].len()
            )))
        }
        (shape, nrows) => {
            let width = rows[0].len();
            if let Some((i, r)) = rows.iter().enumerate().find(|(_, r)| r.len() != width) {
                return Err(Error::Board(format!(
                    "ragged rows: row {} has {} tiles, row 1 has {width}",
                    i + 1,
                    r.len()
                )));
            }
            let found = Shape::new(nrows, width)?;
            if let Some(shape) = shape {
                if shape != found {
                    return Err(Error::Board(format!(
                        "the board is {found} but {whose} {shape}"
                    )));
                }
            }
            found
        }
    };
    Board::new(shape, rows.concat())
}

/// `parse_for`'s common case in one pass, nothing allocated but the cells: rows of decimal
/// tile numbers separated by spaces, rows by '/', the same number in every row. `None` for
/// anything else, valid or not (`parse_for` then reads it and names what is wrong).
fn parse_plain(text: &str, shape: Option<Shape>) -> Option<Board> {
    let mut cells = Vec::with_capacity(shape.map_or(16, Shape::cells));
    let (mut rows, mut width, mut in_row) = (0, 0, 0);
    let mut number: Option<u32> = None;
    let mut end_row = |in_row: &mut usize| {
        let fits = *in_row > 0 && (rows == 0 || *in_row == width);
        (width, rows, *in_row) = (*in_row, rows + 1, 0);
        fits
    };
    for &b in text.as_bytes().iter().chain(b"/") {
        match b {
            b'0'..=b'9' => {
                let digit = u32::from(b - b'0');
                number = Some(number.unwrap_or(0).checked_mul(10)?.checked_add(digit)?);
            }
            b' ' | b'/' => {
                if let Some(t) = number.take() {
                    cells.push(t);
                    in_row += 1;
                }
                if b == b'/' && !end_row(&mut in_row) {
                    return None;
                }
            }
            _ => return None,
        }
    }
    let shape = match (shape, rows) {
        (Some(shape), 1) => shape,
        (None, 1) => return None,
        (given, _) => {
            let found = Shape::new(rows, width).ok()?;
            if given.is_some_and(|g| g != found) {
                return None;
            }
            found
        }
    };
    Board::new(shape, cells).ok()
}

fn parse_row(row: &str) -> Result<Vec<u32>, Error> {
    row.split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
        .map(|t| match t {
            "_" => Ok(0),
            t => t
                .parse::<u32>()
                .map_err(|_| Error::Board(format!("'{t}' is not a tile number (blank is 0 or _)"))),
        })
        .collect()
}

impl fmt::Display for Board {
    /// Tiles separated by spaces, rows by '/' (`push_text`'s text).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut digits = itoa::Buffer::new();
        for (i, &t) in self.cells.iter().enumerate() {
            if i > 0 {
                f.write_str(self.separator_before(i))?;
            }
            f.write_str(digits.format(t))?;
        }
        Ok(())
    }
}

impl Board {
    /// Appends the text form to `out`: tiles separated by spaces, rows by '/', the digits
    /// written without the formatting machinery (a million answers print a million boards).
    pub fn push_text(&self, out: &mut Vec<u8>) {
        let mut digits = itoa::Buffer::new();
        for (i, &t) in self.cells.iter().enumerate() {
            if i > 0 {
                out.extend_from_slice(self.separator_before(i).as_bytes());
            }
            out.extend_from_slice(digits.format(t).as_bytes());
        }
    }

    /// What the text form writes before the tile of cell `i` (> 0): '/' where a row starts.
    fn separator_before(&self, i: usize) -> &'static str {
        if i.is_multiple_of(self.shape.cols) {
            "/"
        } else {
            " "
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(r: usize, c: usize) -> Shape {
        Shape::new(r, c).unwrap()
    }

    mod properties {
        use super::super::*;
        use proptest::prelude::*;

        /// A random board of a random shape from 2x2 to 12x12.
        fn board() -> impl Strategy<Value = Board> {
            (2usize..=12, 2usize..=12)
                .prop_flat_map(|(r, c)| {
                    let cells: Vec<u32> = (0..(r * c) as u32).collect();
                    (Just(cells).prop_shuffle(), Just(Shape::new(r, c).unwrap()))
                })
                .prop_map(|(cells, shape)| Board::new(shape, cells).unwrap())
        }

        /// Text made of tile numbers, separators and characters the fast reader leaves to
        /// the general one.
        fn text() -> impl Strategy<Value = String> {
            let token = prop_oneof![
                (0u32..12).prop_map(|t| t.to_string()),
                Just(" ".to_string()),
                Just("/".to_string()),
                Just("_".to_string()),
                Just(",".to_string()),
                Just("\n".to_string()),
                Just("\t".to_string()),
                Just("+1".to_string()),
                Just("99999999999".to_string()),
            ];
            prop::collection::vec(token, 0..30).prop_map(|t| t.concat())
        }

        proptest! {
            /// Every board's text reads back as it, on the fast path, with or without its shape
            /// given, and as one flat row with it.
            #[test]
            fn a_board_read_from_its_text_is_itself(board in board()) {
                let text = board.to_string();
                prop_assert_eq!(parse_plain(&text, None), Some(board.clone()));
                prop_assert_eq!(parse_plain(&text, Some(board.shape())), Some(board.clone()));
                let flat = text.replace('/', " ");
                prop_assert_eq!(parse_plain(&flat, Some(board.shape())), Some(board.clone()));
                let general = parse_general(&flat, Some(board.shape()), "it is");
                prop_assert_eq!(general.map_err(|e| e.to_string()), Ok(board));
            }

            /// What the fast reader accepts, the general one reads the same; what it leaves,
            /// `parse_for` answers as the general one does.
            #[test]
            fn the_fast_reader_agrees_with_the_general_one(text in text(), flat in any::<bool>()) {
                let shape = flat.then(|| Shape::new(3, 4).unwrap());
                let text_of = |r: Result<Board, Error>| r.map_err(|e| e.to_string());
                let general = text_of(parse_general(&text, shape, "it is"));
                match parse_plain(&text, shape) {
                    Some(board) => prop_assert_eq!(Ok(board), general),
                    None => prop_assert_eq!(text_of(Board::parse_for(&text, shape, "it is")), general),
                }
            }

            /// `new` accepts exactly the cells holding every number below the cell count once.
            #[test]
            fn new_accepts_exactly_permutations(cells in prop::collection::vec(0u32..14, 12)) {
                let mut sorted = cells.clone();
                sorted.sort_unstable();
                let permutation = sorted == (0..12).collect::<Vec<u32>>();
                prop_assert_eq!(Board::new(Shape::new(3, 4).unwrap(), cells).is_ok(), permutation);
            }
        }
    }

    #[test]
    fn parses_every_accepted_form() {
        let want = Board::goal(s(3, 3), Cell(8));
        for text in [
            "1 2 3/4 5 6/7 8 0",
            "1,2,3\n4,5,6\n7,8,_\n",
            " 1, 2 3 / 4 5 6 /7 8 _ ",
        ] {
            assert_eq!(Board::parse(text, None).unwrap(), want, "{text}");
        }
        assert_eq!(
            Board::parse("1 2 3 4 5 6 7 8 0", Some(s(3, 3))).unwrap(),
            want
        );
        assert_eq!(want.to_string(), "1 2 3/4 5 6/7 8 0");
    }

    #[test]
    fn rejects_bad_boards_naming_the_problem() {
        let err = |t: &str, sh| Board::parse(t, sh).unwrap_err().to_string();
        assert!(err("1 2/3 3", None)
            .contains("tile 3 appears 2 times and the blank (0 or _) is missing"));
        assert!(err("1 2/0 0", None)
            .contains("the blank (0 or _) appears 2 times and tile 3 is missing"));
        assert!(err("1 2/3 4", None).contains("tile 4 is out of range"));
        assert!(err("1 2 3/0 4", None).contains("ragged rows: row 2 has 2 tiles"));
        assert!(err("1 2/x 0", None).contains("'x' is not a tile number"));
        assert!(err("1 2 3 0", None).contains("--shape"));
        assert!(err("1 2 3 0", Some(s(3, 3))).contains("has 9 cells, got 4"));
        assert!(err("1 2/3 0", Some(s(3, 3))).contains("the board is 2x2 but --shape is 3x3"));
        let e = Board::parse_for("1 2/3 0", Some(s(3, 3)), "the table is for").unwrap_err();
        assert!(e
            .to_string()
            .contains("the board is 2x2 but the table is for 3x3"));
        assert!(err("1 2 3 4 5 6 7 8 9", Some(s(3, 3))).contains("out of range"));
    }

    #[test]
    fn shapes_and_blanks_parse() {
        assert_eq!("4x4".parse::<Shape>().unwrap(), s(4, 4));
        assert_eq!("2×5".parse::<Shape>().unwrap(), s(2, 5));
        assert!("1x5".parse::<Shape>().unwrap().is_line());
        assert!("1x1".parse::<Shape>().is_err());
        assert!("0x4".parse::<Shape>().is_err());
        assert!("3by3".parse::<Shape>().is_err());
        let sh = s(3, 4);
        let cell = |b: &str| b.parse::<GoalBlank>().unwrap().resolve(sh).unwrap();
        assert_eq!(cell("last"), Cell(11));
        assert_eq!(cell("first"), Cell(0));
        assert_eq!(cell("center"), Cell(5));
        assert_eq!(cell("2,3"), Cell(6));
        assert!("4,1".parse::<GoalBlank>().unwrap().resolve(sh).is_err());
        for typed in ["last", "first", "center", "2,3"] {
            assert_eq!(typed.parse::<GoalBlank>().unwrap().to_string(), typed);
        }
    }

    #[test]
    fn transposing_twice_is_identity_and_goal_maps_to_goal() {
        let sh = s(2, 3);
        for g in 0..6 {
            let goal = Board::goal(sh, Cell(g));
            let tg = goal.transposed(Cell(g));
            assert_eq!(tg, Board::goal(sh.transposed(), sh.transpose_cell(Cell(g))));
            let b = Board::parse("5 4 0/1 3 2", None).unwrap();
            let back = b.transposed(Cell(g)).transposed(sh.transpose_cell(Cell(g)));
            assert_eq!(back, b);
        }
    }
}

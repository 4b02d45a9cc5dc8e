//! `tilespace distance` and `tilespace solve`: questions about single boards. With a saved table
//! the answers are optimal; without one, `solve` builds a solution for any size.

use std::borrow::Cow;
use std::io::Write;
use std::path::PathBuf;

use anyhow::Result;
use clap::Args;
use rayon::prelude::*;
use tilespace::optimal::heuristic::Heuristic;
use tilespace::optimal::ida::Limits;
use tilespace::optimal::solver::{Effort, Solution, Solver};
use tilespace::puzzle::construct;
use tilespace::store::saved::SavedTable;
use tilespace::{Board, Cell, Error, GoalBlank, Metric, Shape};

use super::values::{at_least_one_u64, thread_count};
use super::{counted, BadArgument};

#[derive(Args, Debug)]
pub struct QueryArgs {
    /// Boards, e.g. "8 6 7/2 5 4/3 0 1" (or read them with --input)
    #[arg(value_name = "BOARD")]
    pub boards: Vec<String>,
    /// The table written by `analyze RxC --save-table FILE` (optimal answers), or with `--goal
    /// TOKENS` (arrangements of its tokens). Without it, `solve` builds a solution row by row
    /// for any size (not optimal)
    #[arg(long, value_name = "FILE")]
    pub table: Option<PathBuf>,
    /// The boards' size when each is given as one flat list
    #[arg(long, value_name = "RxC")]
    pub shape: Option<Shape>,
    /// Goal blank cell: last, first, center, R,C or a cell number (1-based); a table knows its own
    #[arg(long, value_name = "CELL")]
    pub blank: Option<GoalBlank>,
    /// Also read boards from FILE, one per line ('-' for stdin); a .csv file gives its `board`
    /// column, and its `optimal` column (if any) is checked against the answers
    #[arg(long, value_name = "FILE")]
    pub input: Option<PathBuf>,
    /// Pattern databases built by `tilespace pdb` in DIR: optimal answers by IDA* (any board
    /// the databases are for), with the nodes and time each took; repeat for several
    /// partitions (the largest of their sums is taken)
    #[arg(long, value_name = "DIR", conflicts_with = "table")]
    pub pdb: Vec<PathBuf>,
    /// How moves are counted (default: the table's; single otherwise): multi needs a table saved
    /// by `analyze --metric multi --save-table`
    #[arg(long, value_name = "METRIC")]
    pub metric: Option<Metric>,
    /// Only optimal answers: needs --pdb DIR or --table FILE (without it `solve` may build a
    /// solution that is not optimal)
    #[arg(long)]
    pub optimal: bool,
    /// With --pdb: boards solved at once (default: all cores)
    #[arg(long, short = 'j', value_name = "N", value_parser = thread_count, requires = "pdb")]
    pub threads: Option<usize>,
    /// With --pdb: give up on a board after N nodes (an error for that board)
    #[arg(long, value_name = "N", value_parser = at_least_one_u64, requires = "pdb")]
    pub max_nodes: Option<u64>,
    /// A bad board (of --input or the command line), or one given up on at --max-nodes, is
    /// reported on stderr and skipped, and the others answered; the exit status is then 2
    #[arg(long)]
    pub keep_going: bool,
    /// One CSV row per board instead of text
    #[arg(long, conflicts_with = "json")]
    pub csv: bool,
    /// One JSON document with every answer instead of text
    #[arg(long)]
    pub json: bool,
}

/// One board's reply: a solution, or (from a table, to `distance`) its length alone.
enum Reply {
    Solved(Solution),
    Distance(usize),
}

impl Reply {
    /// Moves counted in the reply's metric.
    fn len(&self) -> usize {
        match self {
            Reply::Solved(a) => a.len(),
            Reply::Distance(n) => *n,
        }
    }
}

/// Answers every board: `No` if one is not solvable; bad input is an error.
pub fn run(args: QueryArgs, solve: bool) -> Result<super::Status> {
    if args.optimal && !solve {
        anyhow::bail!(BadArgument(
            "--optimal is for `solve`: the answers of `distance` are always optimal".into()
        ));
    }
    let source = source(&args, solve)?;
    let (shape, whose) = match &source {
        Solver::Table(_) => (source.shape(), "the table is for"),
        Solver::Patterns(_) => (source.shape(), "the pattern databases are for"),
        Solver::Construct { .. } => (args.shape, "--shape is"),
    };
    let Parsed {
        boards,
        published,
        mut skipped,
    } = parse_boards(&args, shape, whose)?;
    if let Solver::Construct { .. } = source {
        check_memory(&boards, args.json)?;
    }
    let format = if args.json {
        Format::Json
    } else if args.csv {
        Format::Csv
    } else {
        Format::Text
    };
    let mut printer = Printer {
        out: std::io::BufWriter::new(std::io::stdout().lock()),
        format,
        solve,
        searched: matches!(source, Solver::Patterns(_)),
        json: vec![],
        line: vec![],
    };
    printer.header()?;
    let mut all_solvable = true;
    let mut unsolvable = vec![];
    let (mut agree, mut disagree) = (0usize, vec![]);
    // The answers may come from a thread of the scope (`answers`), ahead of the printing.
    std::thread::scope(|scope| -> Result<()> {
        let answers = answers(scope, &source, &boards, &args, solve)?;
        for ((board, result), length) in boards.iter().zip(answers).zip(&published) {
            if let (Ok(a), Some(length)) = (&result, length) {
                if a.len() == *length {
                    agree += 1;
                } else {
                    disagree.push(format!("{board}: {} moves, {length} given", a.len()));
                }
            }
            match result {
                Ok(Reply::Solved(a)) => printer.answer(board, &a)?,
                Ok(Reply::Distance(n)) => printer.distance(board, n, None)?,
                // An answer like any other, on stdout, whether one board or many (exit status 1).
                Err(Error::Unsolvable(why)) => {
                    all_solvable = false;
                    unsolvable.push(board);
                    printer.unsolvable(board, &why)?;
                }
                // A board given up on (--max-nodes) is, with --keep-going, named and skipped.
                Err(e @ Error::GaveUp(_)) if args.keep_going => {
                    eprintln!("tilespace: skipped: {board}: {e}");
                    skipped += 1;
                }
                Err(e) => return Err(e.into()),
            }
            // The constructive solver's answers come one at a time, each shown when found.
            if matches!(source, Solver::Construct { .. }) {
                printer.out.flush()?;
            }
        }
        Ok(())
    })?;
    printer.finish()?;
    if let Some(hint) = other_goal_hint(&source, &unsolvable) {
        eprintln!("tilespace: {hint}");
    }
    lengths_agree(&args, agree, &disagree)?;
    skipped_at_end(skipped as u64)?;
    Ok(super::Status::of(all_solvable))
}

/// Refuses answers that disagree with the `optimal` column of `--input` (`agree` of them
/// agreed; `disagree` names the others), after saying how many agreed.
pub(super) fn lengths_agree(args: &QueryArgs, agree: usize, disagree: &[String]) -> Result<()> {
    let Some(path) = args.input.as_ref().filter(|_| agree + disagree.len() > 0) else {
        return Ok(());
    };
    eprintln!(
        "tilespace: {agree} of {} lengths agree with the `optimal` column of {}",
        agree + disagree.len(),
        path.display()
    );
    if !disagree.is_empty() {
        anyhow::bail!(Error::Check(format!(
            "{} answers disagree with {}: {}",
            disagree.len(),
            path.display(),
            disagree.join("; ")
        )));
    }
    Ok(())
}

/// Ends a run that skipped `skipped` boards (named as they were) with exit status 2: not an
/// argument refused, the others were answered.
pub(super) fn skipped_at_end(skipped: u64) -> Result<()> {
    if skipped > 0 {
        anyhow::bail!(
            "{} skipped (named above); the others were answered",
            counted(skipped, "board")
        );
    }
    Ok(())
}

/// Every board, parsed before any answer is printed, with the optimal length given beside it
/// (`--input`'s `optimal` column), and how many were skipped: a bad line of `--input` is named,
/// and with `--keep-going` reported and skipped (the status is then 2, after the answers).
fn parse_boards(args: &QueryArgs, shape: Option<Shape>, whose: &str) -> Result<Parsed> {
    if let Some(why) = split_board(&args.boards) {
        anyhow::bail!(BadArgument(why));
    }
    let input = read_input(args)?;
    let texts = board_texts(args, input.as_deref())?;
    // Parsed on every core (a million lines of --input take a second on one). Where one is
    // bad, parsed again with the errors, taken in order: the first bad line is the one named.
    let parsed: Option<Vec<Board>> = texts
        .par_iter()
        .map(|t| Board::parse_for(&t.text, shape, whose).ok())
        .collect();
    if let Some(boards) = parsed {
        return Ok(Parsed {
            boards,
            published: texts.iter().map(|t| t.published).collect(),
            skipped: 0,
        });
    }
    let mut boards = Vec::with_capacity(texts.len());
    let mut published = Vec::with_capacity(texts.len());
    let mut skipped = 0usize;
    let parsed: Vec<_> = texts
        .par_iter()
        .map(|t| Board::parse_for(&t.text, shape, whose))
        .collect();
    for (text, parsed) in texts.iter().zip(parsed) {
        match parsed {
            Ok(b) => {
                boards.push(b);
                published.push(text.published);
            }
            Err(e) => {
                let e = match (text.line, &args.input) {
                    (Some(n), Some(path)) => anyhow::anyhow!("{}:{n}: {e}", path.display()),
                    _ => e.into(),
                };
                if !args.keep_going {
                    return Err(e);
                }
                eprintln!("tilespace: skipped: {e:#}");
                skipped += 1;
            }
        }
    }
    Ok(Parsed {
        boards,
        published,
        skipped,
    })
}

/// The boards to answer, each with its published optimal length if `--input` gave one, and
/// how many lines were skipped.
struct Parsed {
    boards: Vec<Board>,
    published: Vec<Option<usize>>,
    skipped: usize,
}

/// Refuses, before any work, boards whose constructive solutions would not fit in the memory
/// available: the largest one's (text and CSV answers are printed as they are found, one at a
/// time), beside what the JSON document, printed at the end, keeps of all of them.
fn check_memory(boards: &[Board], json: bool) -> Result<()> {
    let largest = boards
        .iter()
        .max_by_key(|b| construct::bytes_needed(b.shape()));
    let Some(largest) = largest else {
        return Ok(());
    };
    let mut needed = construct::bytes_needed(largest.shape());
    if json {
        needed += boards
            .iter()
            .map(|b| construct::bytes_kept(b.shape()))
            .sum::<u64>();
    }
    let needed = needed as f64;
    let plural = if boards.len() == 1 { "" } else { "s" };
    tilespace::analysis::memory::room_for(needed, None).map_err(|limit| {
        anyhow::Error::new(Error::NoRoom {
            what: format!(
                "solving {} board{plural} up to {}",
                boards.len(),
                largest.shape()
            ),
            needed: needed.round() as u64,
            limit,
        })
    })
}

/// The answers' source, as messages name it: "the table is", "the table's".
struct Named<'a> {
    is: &'a str,
    owner: &'a str,
}

/// Where the boards the table or databases found unsolvable all reach the goal with its blank
/// in the first or the last cell instead (Korf's instances are for the blank first), a line
/// saying so and how to build a source for that goal.
fn other_goal_hint(source: &Solver, unsolvable: &[&Board]) -> Option<String> {
    let (shape, goal, whose, command, output) = match source {
        Solver::Table(t) => (
            t.shape,
            t.goal,
            "the table is",
            "analyze",
            "--save-table FILE",
        ),
        Solver::Patterns(h) => (
            h.shape,
            h.goal,
            "the pattern databases are",
            "pdb",
            "--pdb DIR",
        ),
        Solver::Construct { .. } => return None,
    };
    let first = unsolvable.first()?;
    let reach = |cell| {
        unsolvable
            .iter()
            .all(|b| tilespace::puzzle::parity::solvability(b, cell).solvable)
    };
    let other = [Cell(0), Cell(shape.cells() - 1)]
        .into_iter()
        .find(|&c| c != goal && reach(c))?;
    let some = match unsolvable.len() {
        1 => format!("{first} reaches"),
        n => format!("all {n} boards not solvable here reach"),
    };
    Some(format!(
        "hint: {whose} for the goal with the blank at {}; {some} the goal with the blank at {} \
         (`tilespace {command} {shape} --blank {} {output}` makes one for it)",
        shape.cell_label(goal),
        shape.cell_label(other),
        shape.cell_label(other)
    ))
}

/// Refuses a `--shape` or `--blank` other than those of the answers' source, which is for
/// `shape` with goal blank `goal`; `hint` ends the blank's message.
fn agrees(args: &QueryArgs, shape: Shape, goal: Cell, named: Named, hint: &str) -> Result<()> {
    if let Some(other) = args.shape.filter(|&s| s != shape) {
        anyhow::bail!(BadArgument(format!(
            "--shape {other}: {} for {shape}",
            named.is
        )));
    }
    if let Some(blank) = args.blank {
        let cell = blank.resolve(shape)?;
        if cell != goal {
            anyhow::bail!(BadArgument(format!(
                "--blank {}: {} goal blank is {}{hint}",
                shape.cell_label(cell),
                named.owner,
                shape.cell_label(goal)
            )));
        }
    }
    Ok(())
}

/// Where the answers come from: pattern databases or the table (checked against `--shape` and
/// `--blank`), or the constructive solver, which `distance` does not take.
fn source(args: &QueryArgs, solve: bool) -> Result<Solver> {
    let multi = args.metric.is_some_and(|m| !m.patterns_admissible());
    if multi && !args.pdb.is_empty() {
        anyhow::bail!(BadArgument(
            "pattern databases answer in the single-tile metric only: additive databases are not \
             admissible in the multi-tile one (one move can carry tiles of several patterns); \
             give a multi-tile --table (`analyze RxC --metric multi --save-table FILE`)"
                .into()
        ));
    }
    if multi && args.table.is_none() {
        anyhow::bail!(BadArgument(
            "the multi-tile metric needs --table FILE (`analyze RxC --metric multi --save-table \
             FILE`): the constructive solver counts single-tile moves"
                .into()
        ));
    }
    if !args.pdb.is_empty() {
        let h = Heuristic::open_all(&args.pdb)?;
        let hint = format!(
            " (build others with `tilespace pdb {} --blank ...`)",
            h.shape
        );
        let named = Named {
            is: "the pattern databases are",
            owner: "the pattern databases'",
        };
        agrees(args, h.shape, h.goal, named, &hint)?;
        return Ok(Solver::Patterns(Box::new(h)));
    }
    Ok(match &args.table {
        Some(path) => {
            let table = SavedTable::open(path)?;
            let named = Named {
                is: "the table is",
                owner: "the table's",
            };
            agrees(args, table.shape, table.goal, named, "")?;
            if let Some(m) = args.metric.filter(|&m| m != table.metric()) {
                anyhow::bail!(BadArgument(format!(
                    "--metric {m}, but the table counts {}-tile moves",
                    table.metric()
                )));
            }
            Solver::Table(Box::new(table))
        }
        None if args.optimal => anyhow::bail!(BadArgument(
            "--optimal needs --pdb DIR (pattern databases, from `tilespace pdb`) or --table FILE"
                .into()
        )),
        None if solve => Solver::Construct {
            goal: args.blank.unwrap_or(GoalBlank::Last),
        },
        None => anyhow::bail!(BadArgument(
            "distance needs --table FILE (written by `analyze RxC --save-table FILE`) or --pdb \
             DIR (pattern databases, from `tilespace pdb`); `solve` without them gives a \
             solution that may not be optimal"
                .into()
        )),
    })
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Format {
    Text,
    Csv,
    Json,
}

/// Prints the answers on stdout in the chosen format (JSON: one document at the end).
struct Printer<'a> {
    /// Buffered: a line each `write` cost a million system calls for a million answers.
    out: std::io::BufWriter<std::io::StdoutLock<'a>>,
    format: Format,
    solve: bool,
    /// Answers come from IDA*, with nodes and seconds.
    searched: bool,
    json: Vec<JsonAnswer>,
    /// A line being built (`plain_line`).
    line: Vec<u8>,
}

/// One answer of the JSON document: typed, so that a long solution's tiles take 4 bytes each
/// until printed (a `serde_json::Value` takes 32).
#[derive(serde::Serialize)]
#[serde(untagged)]
pub(super) enum JsonAnswer {
    Unsolvable {
        board: String,
        solvable: bool,
        why: String,
    },
    Distance {
        board: String,
        solvable: bool,
        distance: usize,
        #[serde(flatten, skip_serializing_if = "Option::is_none")]
        search: Option<Effort>,
    },
    Solution {
        board: String,
        solvable: bool,
        moves: usize,
        optimal: bool,
        lower_bound: usize,
        tiles: Vec<u32>,
        blank_moves: String,
        #[serde(flatten, skip_serializing_if = "Option::is_none")]
        search: Option<Effort>,
    },
    /// A table of tokens' way to the goal, the arrangements it passes (`query_tokens`).
    Way {
        board: String,
        solvable: bool,
        moves: usize,
        optimal: bool,
        path: Vec<String>,
    },
}

/// Tile numbers separated by spaces, written as they are formatted (a 290x290 solution has
/// some 10^8 of them: no string of them all is built).
struct Spaced<'a>(&'a [u32]);

impl std::fmt::Display for Spaced<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, t) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{t}")?;
        }
        Ok(())
    }
}

impl Printer<'_> {
    fn header(&mut self) -> Result<()> {
        match (self.format, self.solve) {
            (Format::Csv, true) => writeln!(
                self.out,
                "board,solvable,moves,optimal,lower_bound,tiles,blank_moves{}",
                if self.searched { ",nodes,seconds" } else { "" }
            )?,
            (Format::Csv, false) => writeln!(
                self.out,
                "board,solvable,distance{}",
                if self.searched { ",nodes,seconds" } else { "" }
            )?,
            _ => {}
        }
        Ok(())
    }

    fn unsolvable(&mut self, board: &Board, why: &str) -> Result<()> {
        match self.format {
            Format::Json => self.json.push(JsonAnswer::Unsolvable {
                board: board.to_string(),
                solvable: false,
                why: why.to_string(),
            }),
            // Every field after `solvable` is empty.
            Format::Csv => {
                let mut empty = if self.solve { ",,,,," } else { "," }.to_string();
                if self.searched {
                    empty += ",,";
                }
                writeln!(self.out, "{board},false{empty}")?;
            }
            Format::Text => writeln!(self.out, "{board}: not solvable: {why}")?,
        }
        Ok(())
    }

    /// A distance alone (`distance`), with what IDA* took where it searched.
    fn distance(&mut self, board: &Board, n: usize, search: Option<Effort>) -> Result<()> {
        let out = &mut self.out;
        match (self.format, &search) {
            (Format::Json, _) => self.json.push(JsonAnswer::Distance {
                board: board.to_string(),
                solvable: true,
                distance: n,
                search,
            }),
            (Format::Csv, None) => plain_line(out, &mut self.line, board, b",true,", n)?,
            (Format::Csv, Some(s)) => {
                writeln!(out, "{board},true,{n},{},{:.6}", s.nodes, s.seconds)?
            }
            (Format::Text, None) => plain_line(out, &mut self.line, board, b": ", n)?,
            (Format::Text, Some(s)) => {
                let nodes = counted(s.nodes, "node");
                writeln!(out, "{board}: {n} ({nodes}, {:.3} s)", s.seconds)?
            }
        }
        Ok(())
    }

    fn answer(&mut self, board: &Board, answer: &Solution) -> Result<()> {
        let n = answer.len();
        let search = answer.effort;
        if !self.solve {
            return self.distance(board, n, search);
        }
        let tiles = answer.moves.tiles(board)?;
        let blank = match &answer.slides {
            Some(s) => s.to_string(),
            None => answer.moves.to_string(),
        };
        // A slide's tiles joined by `+` (they move together).
        let grouped = match &answer.slides {
            Some(s) => s
                .tiles(board)?
                .iter()
                .map(|g| g.iter().map(u32::to_string).collect::<Vec<_>>().join("+"))
                .collect::<Vec<_>>()
                .join(" "),
            None => Spaced(&tiles).to_string(),
        };
        // CSV's last two fields, when the answers come from IDA*.
        let searched = search
            .as_ref()
            .map_or(String::new(), |s| format!(",{},{:.6}", s.nodes, s.seconds));
        if self.format == Format::Json {
            let board = board.to_string();
            self.json.push(JsonAnswer::Solution {
                board,
                solvable: true,
                moves: n,
                optimal: answer.optimal,
                lower_bound: answer.lower_bound,
                tiles,
                blank_moves: blank,
                search,
            });
            return Ok(());
        }
        let tiles = grouped;
        let out = &mut self.out;
        match self.format {
            Format::Csv => {
                let (lb, opt) = (answer.lower_bound, answer.optimal);
                writeln!(out, "{board},true,{n},{opt},{lb},{tiles},{blank}{searched}")?;
            }
            _ => {
                let how = if let Some(s) = &search {
                    format!(
                        "optimal: IDA* with pattern databases, {}, {:.3} s",
                        counted(s.nodes, "node"),
                        s.seconds
                    )
                } else if answer.optimal && answer.slides.is_some() {
                    "optimal, multi-tile".to_string()
                } else if answer.optimal {
                    "optimal".to_string()
                } else {
                    format!(
                        "constructive, not optimal; no solution is shorter than {} (Manhattan)",
                        answer.lower_bound
                    )
                };
                let moves = counted(n as u64, "move");
                writeln!(out, "{board}: {moves} ({how}; verified by replay)")?;
                // The goal itself needs no move: no lines of moves.
                if n > 0 {
                    writeln!(out, "  tiles: {tiles}")?;
                    writeln!(out, "  blank: {blank}")?;
                }
            }
        }
        Ok(())
    }

    fn finish(mut self) -> Result<()> {
        // A write that fails (a full disk, a closed pipe) is an error, not lost in a drop.
        self.out.flush()?;
        if self.format == Format::Json {
            drop(self.out);
            #[derive(serde::Serialize)]
            struct Document {
                answers: Vec<JsonAnswer>,
            }
            super::print_json(&Document { answers: self.json })?;
        }
        Ok(())
    }
}

/// The text of `--input` (a file, or `-` for standard input), if it is given.
pub(super) fn read_input(args: &QueryArgs) -> Result<Option<String>> {
    args.input
        .as_deref()
        .map(super::input::read_text)
        .transpose()
}

/// Writes the line of `board`, `between` and the number `n`, built in `line` without the
/// formatting machinery (the lines of a million distances).
fn plain_line(
    out: &mut impl Write,
    line: &mut Vec<u8>,
    board: &Board,
    between: &[u8],
    n: usize,
) -> Result<()> {
    line.clear();
    board.push_text(line);
    line.extend_from_slice(between);
    line.extend_from_slice(itoa::Buffer::new().format(n).as_bytes());
    line.push(b'\n');
    out.write_all(line)?;
    Ok(())
}

/// The boards named on the command line, then those of `--input` (its text `input`: one per
/// line; blank lines and lines starting with `#` skipped), each with its line number there.
pub(super) fn board_texts<'a>(
    args: &'a QueryArgs,
    input: Option<&'a str>,
) -> Result<Vec<BoardText<'a>>> {
    let mut texts: Vec<BoardText> = args
        .boards
        .iter()
        .map(|b| BoardText {
            line: None,
            text: Cow::Borrowed(b),
            published: None,
        })
        .collect();
    if let (Some(path), Some(text)) = (&args.input, input) {
        if path.extension().is_some_and(|e| e == "csv") {
            texts.extend(csv_boards(path, text)?);
        } else {
            texts.extend(
                text.lines()
                    .enumerate()
                    .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
                    .map(|(i, l)| BoardText {
                        line: Some(i + 1),
                        text: Cow::Borrowed(l),
                        published: None,
                    }),
            );
        }
    }
    if texts.is_empty() {
        anyhow::bail!(BadArgument("no boards: give BOARD or --input FILE".into()));
    }
    Ok(texts)
}

/// A board as given: its text, its line in `--input`, and a length given beside it.
pub(super) struct BoardText<'a> {
    pub(super) line: Option<usize>,
    pub(super) text: Cow<'a, str>,
    pub(super) published: Option<usize>,
}

/// The `board` column of a CSV file (lines starting with `#` are comments), with each row's
/// line and its `optimal` column, if the file has one (a published length to check).
fn csv_boards(path: &std::path::Path, text: &str) -> Result<Vec<BoardText<'static>>> {
    let bad = |why: String| Error::damaged(path, why);
    let mut reader = csv::ReaderBuilder::new()
        .comment(Some(b'#'))
        .from_reader(text.as_bytes());
    let header = reader.headers().map_err(|e| bad(e.to_string()))?.clone();
    if let Some(name) = tilespace::report::rows::repeated_column(&header) {
        return Err(bad(format!("the column `{name}` appears twice")).into());
    }
    let column = |name: &str| header.iter().position(|h| h.trim() == name);
    let board =
        column("board").ok_or_else(|| bad("a CSV of boards needs a `board` column".into()))?;
    let optimal = column("optimal");
    let mut out = vec![];
    for record in reader.records() {
        let record = record.map_err(|e| bad(e.to_string()))?;
        let line = record.position().map(|p| p.line() as usize);
        let at = line.map_or(String::new(), |l| format!("line {l}: "));
        let text = record
            .get(board)
            .ok_or_else(|| bad(format!("{at}no `board` field")))?;
        let length = match optimal.and_then(|i| record.get(i)) {
            Some(v) => Some(
                v.trim()
                    .parse::<usize>()
                    .map_err(|_| bad(format!("{at}`optimal` is '{v}', not a number of moves")))?,
            ),
            None => None,
        };
        out.push(BoardText {
            line,
            text: Cow::Owned(text.to_string()),
            published: length,
        });
    }
    Ok(out)
}

/// The replies for `boards`, in order: with pattern databases solved in parallel (a board at a
/// time per thread), with a bar over the boards; a table's distances in parallel, in parts of
/// `PART` boards looked up on a thread of `scope` one part ahead of the printing; otherwise one
/// after the other as they are asked for, so that each is printed when found and only one is
/// held at a time (a constructive solution of a 290x290 board takes half a gigabyte).
fn answers<'s, 'a: 's>(
    scope: &'s std::thread::Scope<'s, 'a>,
    source: &'a Solver,
    boards: &'a [Board],
    args: &QueryArgs,
    solve: bool,
) -> Result<Box<dyn Iterator<Item = Result<Reply, Error>> + 'a>> {
    const PART: usize = 1 << 16;
    match source {
        Solver::Table(table) if !solve => {
            let pool = super::thread_pool(args.threads)?;
            let (parts, found) = std::sync::mpsc::sync_channel(1);
            scope.spawn(move || {
                for part in boards.chunks(PART) {
                    let replies: Vec<Result<Reply, Error>> = pool
                        .install(|| table.distances(part))
                        .into_iter()
                        .map(|n| n.map(|n| Reply::Distance(n as usize)))
                        .collect();
                    // A closed channel: the printing stopped (an error), and so do the parts.
                    if parts.send(replies).is_err() {
                        return;
                    }
                }
            });
            return Ok(Box::new(found.into_iter().flatten()));
        }
        Solver::Patterns(_) => {}
        _ => {
            return Ok(Box::new(
                boards
                    .iter()
                    .map(|b| source.solve(b, Limits::default()).map(Reply::Solved)),
            ))
        }
    }
    let stop = super::stop_on_signal("the boards being solved are abandoned")?;
    let limits = Limits {
        max_nodes: args.max_nodes,
        stop: Some(stop),
    };
    let bar = super::progress::Items::new(boards.len() < 2, boards.len() as u64, "solving");
    let pool = super::thread_pool(args.threads)?;
    let out = pool.install(|| source.solve_all(boards, limits, &|| bar.inc()));
    bar.finish();
    // A stop (Ctrl-C) ends the command, not just a board.
    let out = out?.into_iter().map(|s| s.map(Reply::Solved));
    Ok(Box::new(out))
}

/// A board typed as several arguments (`solve 1 2 3/4 5 6/7 8 0`): one of them a lone tile.
/// The error to give, naming it, if so.
pub(super) fn split_board(boards: &[String]) -> Option<String> {
    if boards.len() < 2 {
        return None;
    }
    let lone = boards.iter().find(|b| {
        !b.trim().is_empty() && b.trim().chars().all(|c| c.is_ascii_digit() || c == '_')
    })?;
    Some(format!(
        "'{lone}' is one tile, not a board: a board is one argument, quoted, as in \"8 6 7/2 5 4/3 0 1\""
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lone_tile_is_a_board_split_in_pieces() {
        let words = |s: &str| s.split(' ').map(String::from).collect::<Vec<_>>();
        assert!(split_board(&words("1 2 3/4 5 6/7 8 0")).is_some());
        assert!(split_board(&["1 2/3 0".into(), "2 1/3 0".into()]).is_none());
        assert!(split_board(&["1 2/3 0".into()]).is_none());
    }
}

//! `tilespace count RxC`: the exact number of configurations, reachable and not; with
//! `--goal`, of a goal's tokens' arrangements; with `--graph`, on a graph of any size.

use std::io::Write;

use anyhow::{bail, Result};
use clap::Args;
use tilespace::graph::pebbles::Classes;
use tilespace::graph::sparse::Sparse;
use tilespace::graph::Adjacency;
use tilespace::puzzle::count::{decimal_counts, DecimalCounts};
use tilespace::puzzle::tokens::Tokens;
use tilespace::Shape;

use super::{counted, BadArgument};

#[derive(Args, Debug)]
pub struct CountArgs {
    /// Board size, e.g. 4x4 or 10x10
    #[arg(value_name = "RxC", required_unless_present = "graph")]
    pub board: Option<Shape>,
    /// A graph instead of a board, of up to 1048576 vertices: grid:RxC, torus:RxC,
    /// cylinder:RxC, cycle:N, path:N, complete:N, complete:A,B, theta:A,B,C, theta0, petersen,
    /// hypercube:D, graph6:STRING, or a file (graph6 or an edge list)
    #[arg(long, value_name = "SPEC", conflicts_with = "board")]
    pub graph: Option<String>,
    /// The goal's tokens, a board string whose labels may repeat (one colour) and that may
    /// hold several blanks (0), e.g. "1 1 1 1/2 2 2 2/3 3 3 3/4 4 4 0": count its arrangements
    /// and those the theorems of pebble motion say reach it. On a --graph, the token on each
    /// vertex in its order (by default tiles 1, 2, … and the blank on the last vertex).
    /// @FILE reads them from FILE (@- standard input)
    #[arg(long, value_name = "TOKENS")]
    pub goal: Option<String>,
    /// Print one JSON document on stdout instead of text
    #[arg(long)]
    pub json: bool,
}

/// `count RxC --goal TOKENS` and `count --graph SPEC`, as JSON: counts as decimal strings.
#[derive(serde::Serialize)]
struct TokenCounts {
    #[serde(skip_serializing_if = "Option::is_none")]
    board: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    cells: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    graph: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    vertices: Option<usize>,
    tokens: String,
    blanks: usize,
    arrangements: String,
    reachable: String,
    classes: String,
    theorem: tilespace::graph::pebbles::Source,
}

fn run_tokens(shape: tilespace::Shape, goal: &str, json: bool) -> Result<super::Status> {
    let tokens = Tokens::parse_board(goal, shape)?;
    let classes = tilespace::graph::pebbles::predict_board(shape, &tokens)
        .expect("every board is a path, a cycle or 2-connected and bipartite");
    let ground = Ground::Board(shape);
    print_tokens(ground, &tokens, &classes, json)
}

/// `count --graph SPEC [--goal TOKENS]`: what the theorems say of the graph's arrangements.
fn run_graph(spec: &str, goal: Option<&str>, json: bool) -> Result<super::Status> {
    let g = tilespace::graph::spec::sparse(spec)?;
    let n = g.vertices();
    let tokens = match goal {
        Some(goal) => Tokens::parse(goal, n)?,
        None => Tokens::distinct(n, n - 1),
    };
    let Some(classes) = tilespace::graph::pebbles::predict(&g, &tokens) else {
        let why = tilespace::graph::pebbles::undecided(&tokens);
        bail!(BadArgument(format!("{spec}: {why}")));
    };
    print_tokens(Ground::Graph(spec, &g), &tokens, &classes, json)
}

/// Where the tokens sit, as `count` names it.
#[derive(Clone, Copy)]
enum Ground<'a> {
    Board(Shape),
    Graph(&'a str, &'a Sparse),
}

/// Prints the counts of `tokens` and the classes the theorems split them into.
fn print_tokens(
    ground: Ground,
    tokens: &Tokens,
    classes: &Classes,
    json: bool,
) -> Result<super::Status> {
    let (board, cells, graph, vertices) = match ground {
        Ground::Board(shape) => (Some(shape.to_string()), Some(shape.cells()), None, None),
        Ground::Graph(spec, g) => (None, None, Some(spec.to_string()), Some(g.vertices())),
    };
    let counts = TokenCounts {
        board,
        cells,
        graph,
        vertices,
        tokens: tokens.notation(),
        blanks: tokens.blanks(),
        arrangements: tokens.arrangements().to_string(),
        reachable: classes.goal.to_string(),
        classes: classes.count().to_string(),
        theorem: classes.theorem,
    };
    if json {
        super::print_json(&counts)?;
        return Ok(super::Status::Done);
    }
    let mut out = std::io::stdout().lock();
    match ground {
        Ground::Board(shape) => writeln!(out, "board        {shape} ({} cells)", shape.cells())?,
        Ground::Graph(spec, g) => writeln!(
            out,
            "graph        {spec} ({}, {})",
            counted(g.vertices() as u64, "vertex"),
            counted(g.edges() as u64, "edge")
        )?,
    }
    writeln!(out, "tokens       {}", counts.tokens)?;
    writeln!(out, "arrangements {}", counts.arrangements)?;
    writeln!(
        out,
        "reachable    {}   (from the goal, as {} says)",
        counts.reachable,
        classes.theorem.statement()
    )?;
    writeln!(out, "classes      {}", counts.classes)?;
    Ok(super::Status::Done)
}

pub fn run(mut args: CountArgs) -> Result<super::Status> {
    args.goal = args.goal.map(super::input::tokens_text).transpose()?;
    let Some(shape) = args.board else {
        let spec = args
            .graph
            .as_deref()
            .expect("clap asks for a board or a graph");
        return run_graph(spec, args.goal.as_deref(), args.json);
    };
    if let Some(goal) = &args.goal {
        return run_tokens(shape, goal, args.json);
    }
    let n = shape.cells();
    let (total, reachable, unreachable) = decimal_counts(shape);
    if args.json {
        super::print_json(&DecimalCounts::of(shape))?;
        return Ok(super::Status::Done);
    }
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "board        {shape} ({n} cells, {} tiles and the blank)",
        n - 1
    )?;
    writeln!(out, "total        {}   ({n}!)", total)?;
    if shape.is_line() {
        writeln!(
            out,
            "reachable    {}   (n: the blank's positions among the tiles in goal order)",
            reachable
        )?;
        writeln!(out, "unreachable  {}   ({n}! - {n})", unreachable)?;
        writeln!(
            out,
            "note: the {n}!/2 of the theorem needs R, C >= 2: on a line no tile can pass \
             another, so every tile order is its own component of {n} configurations."
        )?;
        return Ok(super::Status::Done);
    }
    writeln!(
        out,
        "reachable    {}   ({n}!/2: the goal's parity class)",
        reachable
    )?;
    writeln!(out, "unreachable  {}   (the other class)", unreachable)?;
    Ok(super::Status::Done)
}

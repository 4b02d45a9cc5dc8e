//! `tilespace random RxC`: uniformly random solvable boards, one per line; with `--goal` or
//! `--graph`, uniformly random arrangements of tokens that reach the goal.

use std::io::Write;

use anyhow::Result;
use clap::Args;
use tilespace::graph::pebbles;
use tilespace::graph::Adjacency;
use tilespace::puzzle::random::{solvable_board, Rng};
use tilespace::puzzle::tokens::Tokens;
use tilespace::GoalBlank;
use tilespace::Shape;

use super::values::at_least_one_u64;

#[derive(Args, Debug)]
pub struct RandomArgs {
    /// Board size, e.g. 4x4 or 20x20
    #[arg(value_name = "RxC", required_unless_present = "graph")]
    pub board: Option<Shape>,
    /// A graph instead of a board, of up to 1048576 vertices (as `count --graph`)
    #[arg(long, value_name = "SPEC", conflicts_with_all = ["board", "blank"])]
    pub graph: Option<String>,
    /// The goal's tokens (as `count --goal`): arrangements that reach it, uniformly, where a
    /// theorem here decides which do. On a --graph, by default tiles 1, 2, … and the blank on
    /// the last vertex. @FILE reads them from FILE (@- standard input)
    #[arg(long, value_name = "TOKENS", conflicts_with = "blank")]
    pub goal: Option<String>,
    /// Seed: the same seed gives the same boards (default: from the clock)
    #[arg(long, value_name = "SEED")]
    pub seed: Option<u64>,
    /// How many boards, one per line
    #[arg(long, value_name = "N", default_value = "1", value_parser = at_least_one_u64)]
    pub count: u64,
    /// Goal blank cell the boards must be able to reach: last, first, center or R,C
    #[arg(long, value_name = "CELL", default_value = "last")]
    pub blank: GoalBlank,
    /// Print one JSON document (board, goal blank, seed, boards) instead of lines
    #[arg(long)]
    pub json: bool,
}

pub fn run(mut args: RandomArgs) -> Result<super::Status> {
    args.goal = args.goal.map(super::input::tokens_text).transpose()?;
    // The seed is told (on stderr) once the arguments are checked.
    let seed = || super::seed_or_clock(args.seed);
    match (args.board, &args.graph, &args.goal) {
        (Some(shape), _, None) => boards(&args, shape, seed),
        (Some(shape), _, Some(goal)) => {
            let goal = Tokens::parse_board(goal, shape)?;
            let seed = seed();
            let sampler = pebbles::ClassSampler::on_board(shape, &goal);
            let draw = |rng: &mut Rng| sampler.draw(rng).rows(shape.cols);
            let on = Drawn {
                key: "board",
                name: shape.to_string(),
                goal: ("goal", goal.rows(shape.cols)),
                seed,
                list: "arrangements",
            };
            on.print(&args, Rng::new(seed), draw)
        }
        (None, Some(spec), goal) => {
            let g = tilespace::graph::spec::sparse(spec)?;
            let n = g.vertices();
            let goal = match goal {
                Some(goal) => Tokens::parse(goal, n)?,
                None => Tokens::distinct(n, n - 1),
            };
            let Some(sampler) = pebbles::ClassSampler::new(&g, &goal) else {
                let why = pebbles::undecided(&goal);
                anyhow::bail!(super::BadArgument(format!("{spec}: {why}")));
            };
            let seed = seed();
            let draw = |rng: &mut Rng| sampler.draw(rng).to_string();
            let on = Drawn {
                key: "graph",
                name: spec.clone(),
                goal: ("goal", goal.to_string()),
                seed,
                list: "arrangements",
            };
            on.print(&args, Rng::new(seed), draw)
        }
        (None, None, _) => unreachable!("clap asks for a board or a graph"),
    }
}

/// What is drawn for a puzzle, as the JSON document names it: the puzzle's key (`board` or
/// `graph`) and name, the goal's key and text, the seed, and the list's key.
struct Drawn {
    key: &'static str,
    name: String,
    goal: (&'static str, String),
    seed: u64,
    list: &'static str,
}

impl Drawn {
    /// `--count` boards or arrangements drawn by `draw`, one a line or in one JSON document
    /// (streamed: --count may ask for more than memory holds).
    fn print(
        &self,
        args: &RandomArgs,
        mut rng: Rng,
        mut draw: impl FnMut(&mut Rng) -> String,
    ) -> Result<super::Status> {
        let mut out = std::io::BufWriter::new(std::io::stdout().lock());
        if args.json {
            let text = |s: &str| serde_json::to_string(s).expect("a string");
            write!(
                out,
                "{{\n  {}: {},\n  {}: {},\n  \"seed\": {},\n  {}: [",
                text(self.key),
                text(&self.name),
                text(self.goal.0),
                text(&self.goal.1),
                self.seed,
                text(self.list)
            )?;
            for i in 0..args.count {
                let sep = if i == 0 { "" } else { "," };
                write!(out, "{sep}\n    {}", text(&draw(&mut rng)))?;
            }
            writeln!(out, "\n  ]\n}}")?;
        } else {
            for _ in 0..args.count {
                writeln!(out, "{}", draw(&mut rng))?;
            }
        }
        out.flush()?;
        Ok(super::Status::Done)
    }
}

/// Uniformly random solvable boards of `shape`.
fn boards(args: &RandomArgs, shape: Shape, seed: impl FnOnce() -> u64) -> Result<super::Status> {
    let goal = args.blank.resolve(shape)?;
    let seed = seed();
    let on = Drawn {
        key: "board",
        name: shape.to_string(),
        goal: ("goal_blank", shape.cell_label(goal)),
        seed,
        list: "boards",
    };
    on.print(args, Rng::new(seed), |rng| {
        solvable_board(shape, goal, rng).to_string()
    })
}

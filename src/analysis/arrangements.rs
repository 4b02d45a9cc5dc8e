//! The analysis of a puzzle of tokens (labels that repeat, several blanks: pebble motion) on a
//! board or a graph: every arrangement the goal reaches, searched over a 2-bit table of the
//! arrangements (`bfs::arrangements`), checked against the theorems' count and decision.

use std::time::Instant;

use num_bigint::BigUint;

use crate::analysis::distribution::Distribution;
use std::path::Path;

use std::sync::atomic::AtomicBool;

use crate::bfs::arrangements::{
    search_arrangements, ArrangementMoves, ArrangementsFound, Asked, Checkpoints,
};
use crate::error::Error;
use crate::graph::pebbles::{self, Classes};
use crate::index::arrangement::ArrangementIndex;
use crate::index::goal_index::{GoalIndex, Symbols};
use crate::index::puzzle::Ground;
use crate::puzzle::metric::Metric;
use crate::puzzle::tokens::Tokens;
use crate::store::token_checkpoint::{Searched, TokenCheckpoints};

/// Most arrangements a search takes: its 2-bit table is then 1 GiB.
pub const MAX_ARRANGEMENTS: u64 = crate::index::arrangement::MAX_RANKS;

/// What the search of a puzzle of tokens found, checked.
#[derive(Clone, Debug)]
pub struct ArrangementAnalysis {
    /// The goal.
    pub goal: Tokens,
    /// How moves are counted.
    pub metric: Metric,
    /// Every arrangement of the goal's tokens: n! / ∏ mᵢ!.
    pub arrangements: u64,
    /// Arrangements at each number of moves from the goal.
    pub distribution: Distribution,
    /// The arrangements farthest from the goal, in increasing order of their tokens.
    pub antipodes: Vec<Tokens>,
    /// The classes the theorems of pebble motion predict, where one decides them.
    pub predicted: Option<Classes>,
    /// Every check passed: the layers start with the goal and none is empty, the table holds
    /// as many arrangements as the layers, the last layer lists as many as it counts, the
    /// reached arrangements are the goal's class as predicted, and each antipode reaches the
    /// goal by the theorems' decision.
    pub verified: bool,
    /// Threads of the search.
    pub threads: usize,
    /// Wall time of the search.
    pub seconds: f64,
    /// Bytes of the table.
    pub table_bytes: u64,
}

/// The bytes a search of `arrangements` takes: its table (twice where the depths are kept),
/// and lists of at most a 128th of the arrangements (8 bytes each) on each of `threads`
/// threads and joined.
pub fn arrangement_bytes(arrangements: u64, threads: usize, depths: bool) -> u64 {
    let tables = if depths { 2 } else { 1 };
    tables * arrangements.div_ceil(4) + arrangements / 128 * 8 * (threads as u64 + 1)
}

/// What `analyze_tokens` is asked beside the puzzle.
#[derive(Clone, Copy, Default)]
pub struct TokenOptions<'a> {
    /// Refuse a search past this many bytes (else what the memory available allows).
    pub max_memory: Option<u64>,
    /// Save every reached arrangement's depth mod 3 there (`store::tokens`).
    pub save_table: Option<&'a Path>,
    /// Set: the search stops at its next layer with `Error::Stopped` (where it checkpoints,
    /// the checkpoint's `stop` is used instead, and it stops with `Error::Interrupted`).
    pub stop: Option<&'a AtomicBool>,
    /// Save the search at layer boundaries, and go on from a saved one
    /// (`store::token_checkpoint`); the caller removes the checkpoint once the reports are
    /// written.
    pub checkpoint: Option<crate::store::checkpoint::Options<'a>>,
}

/// The search from `symbols` by the index `ranks`, as `asked`, and its last layer's
/// arrangements.
fn search_by<R: ArrangementIndex>(
    ranks: &R,
    moves: &ArrangementMoves,
    symbols: &[u8],
    asked: Asked,
    progress: &(dyn Fn(u32, u64) + Sync),
) -> Result<(ArrangementsFound, Vec<Vec<u8>>), Error> {
    let found = search_arrangements(ranks, moves, ranks.rank_of(symbols), asked, progress)?;
    let last = found
        .last
        .iter()
        .map(|&r| {
            let mut a = vec![0u8; symbols.len()];
            ranks.symbols_of(r, &mut a);
            a
        })
        .collect();
    Ok((found, last))
}

/// Refuses a search of `goal`'s arrangements on `ground` before anything is allocated: the
/// wrong number of tokens, past `MAX_ARRANGEMENTS`, or a table and lists (on the current
/// rayon pool's threads; a second table where the depths are kept, `depths`) past
/// `max_memory` or the memory available.
pub fn check_tokens(
    ground: &Ground,
    goal: &Tokens,
    metric: Metric,
    max_memory: Option<u64>,
    depths: bool,
) -> Result<(), Error> {
    let (cells, on_graph) = match ground {
        Ground::Board(shape) => (shape.cells(), false),
        Ground::Graph(graph) => (graph.vertices(), true),
    };
    if goal.len() != cells {
        return Err(Error::Board(format!(
            "the goal names {} tokens, but the puzzle has {cells} cells",
            goal.len(),
        )));
    }
    if on_graph && !metric.moves_on_graphs() {
        return Err(Error::Argument(format!(
            "{} moves slide a board's rows and columns: a graph's tokens move one at a time \
             (--metric single)",
            metric.adjective()
        )));
    }
    if !metric.moves_tokens(goal.blanks()) {
        return Err(Error::Argument(format!(
            "{} moves are defined here for one blank, and {} has {}: a slide through a second \
             blank has no agreed meaning (--metric single)",
            metric.adjective(),
            goal.notation(),
            goal.blanks()
        )));
    }
    let arrangements = goal.arrangements();
    if arrangements > BigUint::from(MAX_ARRANGEMENTS) {
        return Err(Error::Shape(format!(
            "{} has {arrangements} arrangements on {cells} cells: a search takes at most 2^32",
            goal.notation(),
        )));
    }
    let arrangements = u64::try_from(arrangements).expect("at most 2^32");
    let needed = arrangement_bytes(arrangements, rayon::current_num_threads(), depths);
    crate::analysis::memory::room_for(needed as f64, max_memory).map_err(|limit| Error::NoRoom {
        what: format!("a search of the arrangements of {}", goal.notation()),
        needed,
        limit,
    })
}

/// Searches every arrangement of `goal`'s tokens that reaches it on `ground` by the moves of
/// `metric` (a token slides onto a blank beside it; or, with one blank on a board, the blank
/// slides along its row or column), on the current rayon pool; refused before anything is
/// allocated past `MAX_ARRANGEMENTS`, `max_memory` or the memory available, or where the
/// metric's moves are not defined (`check_tokens`). Both metrics reach the same arrangements
/// (a slide is single moves in a row), so the theorems' count checks either. `options` may
/// save every reached arrangement's depth mod 3 (`store::tokens`, for distances and
/// solutions) and stop the search.
pub fn analyze_tokens(
    ground: &Ground,
    goal: &Tokens,
    metric: Metric,
    options: TokenOptions,
    progress: &(dyn Fn(u32, u64) + Sync),
) -> Result<ArrangementAnalysis, Error> {
    let TokenOptions {
        max_memory,
        save_table,
        stop,
        checkpoint,
    } = options;
    let depths = save_table.is_some();
    check_tokens(ground, goal, metric, max_memory, depths)?;
    let _lock = checkpoint
        .map(|ck| crate::analysis::job::claim_checkpoint_dir(ck.dir, ck.resume))
        .transpose()?;
    let searched = Searched {
        ground,
        metric,
        goal,
        depths,
    };
    let saves = checkpoint.map(|ck| TokenCheckpoints::new(ck, searched));
    let asked = Asked {
        depths,
        stop: checkpoint.map(|ck| ck.stop).or(stop),
        checkpoints: saves.as_ref().map(|s| s as &dyn Checkpoints),
    };
    let moves = match ground {
        Ground::Board(shape) => ArrangementMoves::of_board(*shape, metric),
        Ground::Graph(graph) => ArrangementMoves::of_graph(graph),
    };
    let index = GoalIndex::of(goal)?;
    let arrangements = index.count();
    let threads = rayon::current_num_threads();
    let labels = Symbols::of(goal);
    let symbols = labels.encode(goal).expect("the goal's own labels");
    let clock = Instant::now();
    let (found, last) = match &index {
        GoalIndex::Tiles(ranks) => search_by(ranks, &moves, &symbols, asked, progress)?,
        GoalIndex::Multiset(ranks) => search_by(ranks, &moves, &symbols, asked, progress)?,
    };
    let before = saves.as_ref().map_or(0.0, TokenCheckpoints::seconds_before);
    let seconds = before + clock.elapsed().as_secs_f64();
    if let (Some(path), Some(depths)) = (save_table, &found.depths) {
        let of = crate::store::tokens::Saving {
            ground,
            metric,
            goal,
            layers: &found.layers,
        };
        crate::store::tokens::save(path, &of, depths)?;
    }
    let mut antipodes: Vec<Tokens> = last.iter().map(|a| labels.decode(a)).collect();
    antipodes.sort_by(|a, b| a.cells().cmp(b.cells()));
    let predicted = match ground {
        Ground::Board(shape) => pebbles::predict_board(*shape, goal),
        Ground::Graph(graph) => pebbles::predict(graph, goal),
    };
    let distribution = Distribution {
        layers: found.layers,
    };
    let reached = distribution.total();
    let reaches = |a: &Tokens| match ground {
        Ground::Board(shape) => pebbles::reaches_on_board(*shape, a, goal).ok(),
        Ground::Graph(graph) => pebbles::reaches(graph, a, goal).ok().flatten(),
    };
    let verified = distribution.layers.first() == Some(&1)
        && distribution.layers.iter().all(|&n| n > 0)
        && found.marked == reached
        && found.last.len() as u64 == *distribution.layers.last().expect("a layer")
        && predicted
            .as_ref()
            .is_none_or(|p| p.goal == BigUint::from(reached))
        && antipodes.iter().all(|a| reaches(a) != Some(false));
    Ok(ArrangementAnalysis {
        goal: goal.clone(),
        metric,
        arrangements,
        distribution,
        antipodes,
        predicted,
        verified,
        threads,
        seconds,
        table_bytes: found.table_bytes,
    })
}

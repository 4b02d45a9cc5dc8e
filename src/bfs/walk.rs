//! Every configuration of a graph's puzzle, split into its components: a breadth-first walk of
//! each component in turn over a bit a configuration, the goal's component first, then each
//! from its least configuration not yet seen.
//!
//! A configuration is the tokens on vertices 0..n (0 the blank), ranked by its Lehmer code over
//! all n! orders: `theorem` must see every configuration, of both parities, and a graph's
//! puzzle may have many components (a path on 12 vertices has 11! of them), which a walk
//! visits at the cost of their states alone. Large components are walked a layer at a time on
//! every thread.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use super::bits::bit_instructions;
use crate::error::Error;
use crate::graph::wilson::factorial;
use crate::graph::Graph;
use crate::index::multiset::MultisetRank;
use crate::puzzle::tokens::Tokens;

/// Most vertices a walk takes: 12! configurations have ranks below 2^32, and a walk's bits
/// and frontiers fit in memory.
pub const MAX_WALK_VERTICES: usize = 12;

/// Frontiers at least this wide are expanded on every thread.
const PARALLEL_FRONTIER: usize = 1 << 13;

/// The configurations of the puzzle on a graph: their ranks, the goal, the moves.
pub struct Configurations<'g> {
    graph: &'g Graph,
    /// `weights[j] = (n-1-j)!`: the weight of Lehmer digit j.
    weights: Vec<u64>,
    /// `reciprocals[j] = ⌊(2^64-1) / weights[j]⌋ + 1`, so that `⌊r / weights[j]⌋` is the
    /// high word of `r · reciprocals[j]`, exactly for r < 2^32 (Lemire, Kaser and Kurz, "Faster
    /// remainder by direct computation", 2019), which every rank of at most 12! is.
    reciprocals: Vec<u64>,
}

impl<'g> Configurations<'g> {
    /// The puzzle on `graph`, which must have at most `MAX_WALK_VERTICES` vertices.
    pub fn new(graph: &'g Graph) -> Result<Configurations<'g>, Error> {
        let n = graph.vertices();
        if n > MAX_WALK_VERTICES {
            return Err(Error::Graph(format!(
                "it has {n} vertices: walking every configuration takes at most \
                 {MAX_WALK_VERTICES} ({n}! = {} configurations)",
                factorial(n as u64)
            )));
        }
        let weights: Vec<u64> = (0..n).map(|j| factorial((n - 1 - j) as u64)).collect();
        let reciprocals = weights
            .iter()
            .map(|&w| (u64::MAX / w).wrapping_add(1))
            .collect();
        Ok(Configurations {
            graph,
            weights,
            reciprocals,
        })
    }

    /// The number of configurations, n!.
    pub fn configurations(&self) -> u64 {
        factorial(self.graph.vertices() as u64)
    }

    /// The goal with the blank on vertex `blank`: tiles 1, 2, … on the other vertices in order.
    pub fn goal(&self, blank: usize) -> Vec<u8> {
        let mut next = 1;
        (0..self.graph.vertices())
            .map(|v| {
                if v == blank {
                    0
                } else {
                    next += 1;
                    next - 1
                }
            })
            .collect()
    }

    /// The rank of `tokens` (the token on each vertex, a permutation of 0..n).
    #[inline(always)]
    pub fn rank(&self, tokens: &[u8]) -> u64 {
        let mut unused = u32::MAX;
        let mut rank = 0;
        for (j, &t) in tokens.iter().enumerate() {
            let smaller = unused & ((1u32 << t) - 1);
            rank += u64::from(smaller.count_ones()) * self.weights[j];
            unused &= !(1 << t);
        }
        rank
    }

    /// The configuration of rank `rank`, written into `tokens`.
    #[inline(always)]
    pub fn unrank(&self, mut rank: u64, tokens: &mut [u8]) {
        let mut unused = u32::MAX;
        debug_assert!(rank < 1 << 32);
        for (j, token) in tokens.iter_mut().enumerate() {
            // A weight of 1 (the last two digits') has the reciprocal 0 by wrapping: its digit
            // is the rank itself.
            let digit = match self.reciprocals[j] {
                0 => rank,
                m => ((u128::from(rank) * u128::from(m)) >> 64) as u64,
            };
            rank -= digit * self.weights[j];
            let mut mask = unused;
            for _ in 0..digit {
                mask &= mask - 1;
            }
            let t = mask.trailing_zeros();
            *token = t as u8;
            unused &= !(1 << t);
        }
    }
}

/// How a walk numbers the configurations it walks: densely, from 0, and back. The tokens are
/// symbols, 0 the blank: a permutation of 0..n (`Configurations`), or of a multiset where
/// labels repeat and several vertices are empty (`MultisetRank`, pebble motion).
pub trait Ranking: Sync + Sized {
    /// The number of configurations.
    fn count(&self) -> u64;
    /// The rank of `tokens`.
    fn rank(&self, tokens: &[u8]) -> u64;
    /// The configuration of rank `rank`, written into `tokens`.
    fn unrank(&self, rank: u64, tokens: &mut [u8]);
    /// Adds to `next` the configurations one move on `graph` from those of `chunk` not seen
    /// yet, marking them seen (`shared`: by several threads at once).
    fn expand(
        &self,
        graph: &Graph,
        seen: &[AtomicU64],
        chunk: &[u32],
        next: &mut Vec<u32>,
        shared: bool,
    );
}

impl Ranking for Configurations<'_> {
    fn count(&self) -> u64 {
        self.configurations()
    }

    #[inline(always)]
    fn rank(&self, tokens: &[u8]) -> u64 {
        Configurations::rank(self, tokens)
    }

    #[inline(always)]
    fn unrank(&self, rank: u64, tokens: &mut [u8]) {
        Configurations::unrank(self, rank, tokens)
    }

    fn expand(
        &self,
        _: &Graph,
        seen: &[AtomicU64],
        chunk: &[u32],
        next: &mut Vec<u32>,
        shared: bool,
    ) {
        expand(self, seen, chunk, next, shared)
    }
}

impl Ranking for MultisetRank {
    fn count(&self) -> u64 {
        self.arrangements()
    }

    #[inline(always)]
    fn rank(&self, tokens: &[u8]) -> u64 {
        MultisetRank::rank(self, tokens)
    }

    #[inline(always)]
    fn unrank(&self, rank: u64, tokens: &mut [u8]) {
        MultisetRank::unrank(self, rank, tokens)
    }

    fn expand(
        &self,
        graph: &Graph,
        seen: &[AtomicU64],
        chunk: &[u32],
        next: &mut Vec<u32>,
        shared: bool,
    ) {
        expand_tokens(graph, self, seen, chunk, next, shared)
    }
}

/// What a walk found: the goal's component, and every component by size and eccentricity.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Walk {
    /// The configurations walked: n!.
    pub configurations: u64,
    /// The goal's component: its configurations at each distance from the goal.
    pub goal_depths: Vec<u64>,
    /// `(size, eccentricity)` of components → how many components have them. The eccentricity
    /// is that of the component's first configuration: the goal for the goal's, the least by
    /// rank for the others.
    pub shapes: BTreeMap<(u64, u32), u64>,
}

impl Walk {
    /// The number of components.
    pub fn components(&self) -> u64 {
        self.shapes.values().sum()
    }

    /// The size of the largest component.
    pub fn largest(&self) -> u64 {
        self.shapes.keys().map(|&(s, _)| s).max().unwrap_or(0)
    }

    /// The size of the smallest component.
    pub fn smallest(&self) -> u64 {
        self.shapes.keys().map(|&(s, _)| s).min().unwrap_or(0)
    }

    /// The configurations of the goal's component.
    pub fn goal_states(&self) -> u64 {
        self.goal_depths.iter().sum()
    }

    /// Eccentricities of the components' first configurations → how many components have
    /// each.
    pub fn eccentricities(&self) -> BTreeMap<u32, u64> {
        let mut out = BTreeMap::new();
        for (&(_, e), &count) in &self.shapes {
            *out.entry(e).or_insert(0) += count;
        }
        out
    }

    /// Component sizes → how many components have each.
    pub fn sizes(&self) -> BTreeMap<u64, u64> {
        let mut sizes = BTreeMap::new();
        for (&(size, _), &count) in &self.shapes {
            *sizes.entry(size).or_insert(0) += count;
        }
        sizes
    }
}

/// Walks every configuration of the puzzle on `graph`, the goal's blank on vertex `blank`;
/// `progress` is told the configurations walked so far after each wide layer.
pub fn walk(graph: &Graph, blank: usize, progress: &(dyn Fn(u64) + Sync)) -> Result<Walk, Error> {
    let puzzle = Configurations::new(graph)?;
    check_blank(graph, blank)?;
    let goal = puzzle.rank(&puzzle.goal(blank));
    Ok(walk_ranks(graph, &puzzle, goal, progress))
}

/// Walks every arrangement of `tokens` (a token a vertex of `graph`: labels that may repeat,
/// several blanks) into the classes the moves connect, the goal's (`tokens` as placed) first;
/// refused past 2^32 arrangements, the most a walk's frontiers number.
pub fn walk_tokens(
    graph: &Graph,
    tokens: &Tokens,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Walk, Error> {
    let (ranks, goal) = token_ranks(graph, tokens)?;
    let goal = ranks.rank(&goal);
    Ok(walk_ranks(graph, &ranks, goal, progress))
}

/// The dense ranks of `tokens`'s arrangements on `graph`, and the goal in their symbols: 0 the
/// blank, 1, 2, … the labels in increasing order.
pub fn token_ranks(graph: &Graph, tokens: &Tokens) -> Result<(MultisetRank, Vec<u8>), Error> {
    if tokens.len() != graph.vertices() {
        return Err(Error::Board(format!(
            "the goal names {} tokens, but the graph has {} vertices",
            tokens.len(),
            graph.vertices()
        )));
    }
    let multiplicities = tokens.multiplicities();
    let labels: Vec<u32> = multiplicities.keys().copied().collect();
    let counts: Vec<usize> = multiplicities.values().copied().collect();
    let ranks = MultisetRank::new(&counts)?;
    if ranks.arrangements() > u64::from(u32::MAX) {
        return Err(Error::Graph(format!(
            "its {} arrangements of {} are 2^32 or more: a walk numbers fewer",
            ranks.arrangements(),
            tokens.notation()
        )));
    }
    let goal = tokens
        .cells()
        .iter()
        .map(|t| labels.binary_search(t).expect("a label of the goal") as u8)
        .collect();
    Ok((ranks, goal))
}

/// Walks every configuration `ranks` numbers on `graph`, the component of rank `goal` first.
fn walk_ranks<R: Ranking>(
    graph: &Graph,
    ranks: &R,
    goal: u64,
    progress: &(dyn Fn(u64) + Sync),
) -> Walk {
    let puzzle = Walker { graph, ranks };
    let total = ranks.count();
    let seen: Vec<AtomicU64> = (0..total.div_ceil(64)).map(|_| AtomicU64::new(0)).collect();
    let mut walked = 0;
    let (goal_depths, _) = component(&puzzle, &seen, goal, &mut walked, progress);
    let mut shapes = BTreeMap::new();
    shapes.insert((walked, goal_depths.len() as u32 - 1), 1);
    let mut word = 0;
    while walked < total {
        while seen[word].load(Ordering::Relaxed) == u64::MAX {
            word += 1;
        }
        let bit = (!seen[word].load(Ordering::Relaxed)).trailing_zeros();
        let first = word as u64 * 64 + u64::from(bit);
        let before = walked;
        let (depths, _) = component(&puzzle, &seen, first, &mut walked, progress);
        *shapes
            .entry((walked - before, depths.len() as u32 - 1))
            .or_insert(0) += 1;
    }
    Walk {
        configurations: total,
        goal_depths,
        shapes,
    }
}

/// A walk's graph and its ranks.
struct Walker<'a, R> {
    graph: &'a Graph,
    ranks: &'a R,
}

/// The goal's component alone: its layer widths and its last layer's configurations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GoalComponent {
    /// Configurations at each distance from the goal.
    pub depths: Vec<u64>,
    /// The configurations farthest from the goal (tokens on vertices 0..n), in rank order.
    pub antipodes: Vec<Vec<u8>>,
}

/// The bytes a walk of a graph on `n` vertices needs besides its frontiers: a bit a
/// configuration.
pub fn bits_bytes(n: usize) -> u64 {
    factorial(n as u64).div_ceil(8)
}

/// Walks the goal's component of the puzzle on `graph` (the goal's blank on `blank`);
/// `progress` is told the configurations walked so far after each wide layer.
pub fn goal_component(
    graph: &Graph,
    blank: usize,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<GoalComponent, Error> {
    let puzzle = Configurations::new(graph)?;
    check_blank(graph, blank)?;
    let seen: Vec<AtomicU64> = (0..puzzle.configurations().div_ceil(64))
        .map(|_| AtomicU64::new(0))
        .collect();
    let goal = puzzle.rank(&puzzle.goal(blank));
    let walker = Walker {
        graph,
        ranks: &puzzle,
    };
    let (depths, mut last) = component(&walker, &seen, goal, &mut 0, progress);
    last.sort_unstable();
    let n = graph.vertices();
    let antipodes = last
        .iter()
        .map(|&r| {
            let mut tokens = vec![0u8; n];
            puzzle.unrank(u64::from(r), &mut tokens);
            tokens
        })
        .collect();
    Ok(GoalComponent { depths, antipodes })
}

fn check_blank(graph: &Graph, blank: usize) -> Result<(), Error> {
    if blank >= graph.vertices() {
        return Err(Error::Blank(format!(
            "vertex {} is not one of the graph's {}",
            blank + 1,
            graph.vertices()
        )));
    }
    Ok(())
}

/// Walks the component of `first` (not seen yet), marking it seen: its layer widths and its
/// last layer.
fn component<R: Ranking>(
    puzzle: &Walker<R>,
    seen: &[AtomicU64],
    first: u64,
    walked: &mut u64,
    progress: &(dyn Fn(u64) + Sync),
) -> (Vec<u64>, Vec<u32>) {
    seen[(first / 64) as usize].fetch_or(1 << (first % 64), Ordering::Relaxed);
    let mut frontier = vec![first as u32];
    let mut depths = vec![];
    let mut last = vec![];
    while !frontier.is_empty() {
        depths.push(frontier.len() as u64);
        *walked += frontier.len() as u64;
        let next = if frontier.len() < PARALLEL_FRONTIER {
            let mut next = vec![];
            puzzle
                .ranks
                .expand(puzzle.graph, seen, &frontier, &mut next, false);
            next
        } else {
            let next = frontier
                .par_chunks(PARALLEL_FRONTIER / 8)
                .map(|chunk| {
                    let mut next = vec![];
                    puzzle
                        .ranks
                        .expand(puzzle.graph, seen, chunk, &mut next, true);
                    next
                })
                .collect::<Vec<_>>()
                .concat();
            progress(*walked);
            next
        };
        last = std::mem::replace(&mut frontier, next);
    }
    (depths, last)
}

bit_instructions! {
    /// Adds to `next` the configurations one move from those of `chunk` not seen yet, marking
    /// them seen (`visit`). Ranks count smaller tokens with `popcnt` where the CPU has it.
    fn expand[][](
        puzzle: &Configurations,
        seen: &[AtomicU64],
        chunk: &[u32],
        next: &mut Vec<u32>,
        shared: bool,
    ) -> () {
        let n = puzzle.graph.vertices();
        let mut tokens = [0u8; MAX_WALK_VERTICES];
        for &r in chunk {
            puzzle.unrank(u64::from(r), &mut tokens[..n]);
            let blank = tokens[..n].iter().position(|&t| t == 0).expect("a blank");
            let mut moves = puzzle.graph.neighbour_mask(blank);
            while moves != 0 {
                let u = moves.trailing_zeros() as usize;
                moves &= moves - 1;
                tokens.swap(blank, u);
                let s = puzzle.rank(&tokens[..n]);
                tokens.swap(blank, u);
                visit(seen, s, shared, next);
            }
        }
    }
}

/// `expand` over the arrangements of a multiset: every blank's moves (a token of a neighbour
/// slides onto it; a blank beside it moves nothing).
fn expand_tokens(
    graph: &Graph,
    ranks: &MultisetRank,
    seen: &[AtomicU64],
    chunk: &[u32],
    next: &mut Vec<u32>,
    shared: bool,
) {
    let n = graph.vertices();
    let mut tokens = [0u8; crate::graph::MAX_VERTICES];
    for &r in chunk {
        ranks.unrank(u64::from(r), &mut tokens[..n]);
        let blanks = (0..n)
            .filter(|&v| tokens[v] == 0)
            .fold(0u32, |m, v| m | 1 << v);
        for blank in crate::graph::bits(blanks) {
            let mut moves = graph.neighbour_mask(blank) & !blanks;
            while moves != 0 {
                let u = moves.trailing_zeros() as usize;
                moves &= moves - 1;
                tokens.swap(blank, u);
                let s = ranks.rank(&tokens[..n]);
                tokens.swap(blank, u);
                visit(seen, s, shared, next);
            }
        }
    }
}

/// Marks configuration `s` seen and adds it to `next` if it was not: a load when it was (most
/// targets of a late layer); one thread alone sets its bit with a plain store, several
/// (`shared`) with an atomic or, as they may share a word.
#[inline(always)]
fn visit(seen: &[AtomicU64], s: u64, shared: bool, next: &mut Vec<u32>) {
    let (word, bit) = (&seen[(s / 64) as usize], 1u64 << (s % 64));
    let was = word.load(Ordering::Relaxed);
    let new = if was & bit != 0 {
        false
    } else if shared {
        word.fetch_or(bit, Ordering::Relaxed) & bit == 0
    } else {
        word.store(was | bit, Ordering::Relaxed);
        true
    };
    if new {
        next.push(s as u32);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::family;

    #[test]
    fn ranks_are_a_bijection() {
        let g = family::complete(5).unwrap();
        let p = Configurations::new(&g).unwrap();
        let mut tokens = [0u8; 5];
        for r in 0..p.configurations() {
            p.unrank(r, &mut tokens);
            assert_eq!(p.rank(&tokens), r);
        }
        // On 12 vertices, ranks across 12! (the reciprocals' range), the last ones too.
        let big = family::complete(12).unwrap();
        let q = Configurations::new(&big).unwrap();
        let mut tokens = [0u8; 12];
        let last = q.configurations() - 1;
        for r in (0..=last).step_by(9_999_991).chain(last - 1000..=last) {
            q.unrank(r, &mut tokens);
            let mut sorted = tokens;
            sorted.sort_unstable();
            assert_eq!(sorted, std::array::from_fn(|i| i as u8));
            assert_eq!(q.rank(&tokens), r);
        }
        assert_eq!(p.rank(&[0, 1, 2, 3, 4]), 0);
        assert_eq!(p.rank(&[4, 3, 2, 1, 0]), 119);
        assert_eq!(p.goal(4), vec![1, 2, 3, 4, 0]);
        assert_eq!(p.goal(1), vec![1, 0, 2, 3, 4]);
    }

    #[test]
    fn arrangements_of_tokens_walk_as_configurations_do() {
        // The classic goal by the multiset's ranks: the walk of the permutations' ranks.
        for g in [
            family::theta0(),
            family::petersen(),
            family::cycle(6).unwrap(),
        ] {
            let n = g.vertices();
            if n > 9 {
                // Petersen with two blanks and colours: 10!/(2! 2! 2! 4!) = 18,900, one class
                // (2-connected, not a cycle: Kornhauser, Miller and Spirakis).
                let t = Tokens::parse("1 1 2 2 3 3 0 0 0 0", n).unwrap();
                let w = walk_tokens(&g, &t, &|_| {}).unwrap();
                assert_eq!(w.sizes(), BTreeMap::from([(18_900, 1)]));
                continue;
            }
            let by_lehmer = walk(&g, n - 1, &|_| {}).unwrap();
            let by_multiset = walk_tokens(&g, &Tokens::distinct(n, n - 1), &|_| {}).unwrap();
            assert_eq!(by_multiset.sizes(), by_lehmer.sizes());
            assert_eq!(by_multiset.goal_depths, by_lehmer.goal_depths);
        }
        // θ0 with two blanks: one class of 7!/2.
        let t = Tokens::parse("1 2 3 4 5 0 0", 7).unwrap();
        let w = walk_tokens(&family::theta0(), &t, &|_| {}).unwrap();
        assert_eq!(w.sizes(), BTreeMap::from([(2520, 1)]));
    }

    #[test]
    fn a_path_has_one_component_per_tile_order() {
        let w = walk(&family::path(4).unwrap(), 3, &|_| {}).unwrap();
        assert_eq!(w.components(), 6);
        assert_eq!(w.sizes(), BTreeMap::from([(4, 6)]));
        // From the blank at an end, the component is the path itself.
        assert_eq!(w.goal_depths, vec![1, 1, 1, 1]);
        let g = goal_component(&family::path(4).unwrap(), 3, &|_| {}).unwrap();
        assert_eq!(g.depths, w.goal_depths);
        // The blank walked to the other end: every tile one vertex on.
        assert_eq!(g.antipodes, vec![vec![0, 1, 2, 3]]);
    }
}

//! Pebble motion on a tree with several blanks: which tokens can be exchanged, after Auletta,
//! Monti, Parente and Persiano ("A linear-time algorithm for the feasibility of pebble motion
//! on trees", Algorithmica 23, 1999).
//!
//! On a tree (on any connected graph) the tokens' placement, which vertices hold one, reaches
//! every other placement. The moves that bring a placement back to itself permute its tokens,
//! and on a tree by the direct product of the symmetric groups of its *exchange classes*: the
//! tokens that can be swapped two at a time, every other token back where it was. So an
//! arrangement reaches another exactly when, carried onto the other's placement (`carry`),
//! each exchange class holds the same labels; and the arrangements of a goal's class are, on
//! each placement, its labels shuffled within the classes.
//!
//! Two tokens with only blanks on the path between them are in one class when one of the
//! criteria of Auletta et al. holds (as Krontiris, Luna and Bekris restate them, "From
//! feasibility tests to path planners for multi-agent pathfinding", SoCS 2013):
//! 1. a junction (degree 3 or more) between them has a blank in one of its other branches, or
//!    in both branches toward the two tokens;
//! 2. from one of them, a junction in a branch away from the other is d steps off and that
//!    branch holds d + 2 blanks or more (both tokens walk to the junction and swap there);
//! 3. one of them is on a junction, two of its branches hold a blank, and two blanks or more
//!    lie outside its branch toward the other (they swap there).
//!
//! A token on a junction stands between the tokens around it: the classes are found again with
//! it stepped into a branch of the junction that holds a blank (the tokens on the way to the
//! nearest blank there shifted one step), and the findings joined. One branch is enough: on
//! every tree of up to 8 vertices, stepping into each gave the same classes.
//!
//! The unit test sets the classes beside the orbits a plain search finds on every placement of
//! every tree of up to 8 vertices with two blanks or more (7,401 placements), and the theorem
//! sweep (`scripts/pebble-sweep.sh`, `tests/pebbles.rs`) the classes of arrangements they
//! predict. The work is a pass over the tree for the placement and one for each junction a
//! token stands on (`Tree::work`): linear in the vertices where the junctions are few, not in
//! general the linear time of Auletta et al.'s own algorithm.

use std::collections::VecDeque;

/// A tree as adjacency lists, with the steps from each vertex to the nearest junction along
/// each of its edges (`ahead`, the edges of u numbered from `first[u]`).
pub(crate) struct Tree {
    adjacent: Vec<Vec<usize>>,
    first: Vec<usize>,
    ahead: Vec<u32>,
}

impl Tree {
    /// The tree of `g` (which must be one).
    pub(crate) fn of(g: &impl super::Adjacency) -> Tree {
        let adjacent: Vec<Vec<usize>> = (0..g.vertices())
            .map(|v| g.neighbours(v).collect())
            .collect();
        let mut first = vec![0];
        for a in &adjacent {
            first.push(first.last().expect("an offset") + a.len());
        }
        let ahead = junctions_ahead(&adjacent, &first);
        Tree {
            adjacent,
            first,
            ahead,
        }
    }

    fn vertices(&self) -> usize {
        self.adjacent.len()
    }

    /// The work of `exchange_classes` at most, in vertices visited: a pass over the tree for
    /// the placement and one for each junction.
    pub(crate) fn work(&self) -> u64 {
        let junctions = (0..self.vertices())
            .filter(|&v| self.is_junction(v))
            .count();
        (junctions as u64 + 1) * self.vertices() as u64
    }

    fn is_junction(&self, v: usize) -> bool {
        self.adjacent[v].len() >= 3
    }

    /// Each token of `cells` (0 a blank) moved so that exactly the vertices of `onto` hold
    /// one, by moves of the puzzle: the tree's leaves settled one by one, each given the
    /// nearest token (along blanks) or rid of its own (the tokens toward the nearest blank
    /// shifted one step). As many tokens as `onto` has vertices.
    pub(crate) fn carry(&self, cells: &[u32], onto: &[bool]) -> Vec<u32> {
        let n = self.vertices();
        let mut cells = cells.to_vec();
        let mut alive = vec![true; n];
        let mut degree: Vec<usize> = self.adjacent.iter().map(Vec::len).collect();
        let mut leaves: Vec<usize> = (0..n).filter(|&v| degree[v] <= 1).collect();
        while let Some(leaf) = leaves.pop() {
            let wanted = onto[leaf];
            if wanted != (cells[leaf] != 0) {
                // The nearest vertex holding what the leaf wants to be rid of, or to have.
                let way = self.way_to(leaf, None, |v| alive[v] && (cells[v] != 0) == wanted);
                // Along the way each vertex but the last holds the other: the tokens shift
                // one step toward the blank at its end (or the token at its end slides to the
                // leaf along the blanks).
                if wanted {
                    cells[leaf] = std::mem::take(&mut cells[*way.last().expect("a token")]);
                } else {
                    for pair in way.windows(2).rev() {
                        cells[pair[1]] = std::mem::take(&mut cells[pair[0]]);
                    }
                }
            }
            alive[leaf] = false;
            for &u in &self.adjacent[leaf] {
                if alive[u] {
                    degree[u] -= 1;
                    if degree[u] <= 1 {
                        leaves.push(u);
                    }
                }
            }
        }
        cells
    }

    /// The way from `from` to the nearest vertex `found` accepts, both ends included, through
    /// vertices `found` refuses (breadth first over the vertices it may call); with `through`,
    /// a neighbour of `from`, only in that neighbour's branch.
    fn way_to(
        &self,
        from: usize,
        through: Option<usize>,
        found: impl Fn(usize) -> bool,
    ) -> Vec<usize> {
        let mut back = vec![usize::MAX; self.vertices()];
        back[from] = from;
        let mut queue = VecDeque::from([from]);
        if let Some(first) = through {
            back[first] = from;
            queue = VecDeque::from([first]);
        }
        while let Some(v) = queue.pop_front() {
            if v != from && found(v) {
                let mut way = vec![v];
                while *way.last().expect("a vertex") != from {
                    way.push(back[*way.last().expect("a vertex")]);
                }
                way.reverse();
                return way;
            }
            for &u in &self.adjacent[v] {
                if back[u] == usize::MAX {
                    back[u] = v;
                    queue.push_back(u);
                }
            }
        }
        unreachable!("a vertex of each kind is left")
    }

    /// The exchange classes of the tokens on the vertices `occupied`: a class number a vertex
    /// (a blank's is its own). Time linear in the vertices for the placement, and again for
    /// each junction a token stands on.
    pub(crate) fn exchange_classes(&self, occupied: &[bool]) -> Vec<usize> {
        let n = self.vertices();
        let mut classes = Classes((0..n).collect());
        let identity: Vec<usize> = (0..n).collect();
        let holes = Holes::of(self, occupied);
        self.join_facing(occupied, &holes, &identity, &mut classes);
        for v in (0..n).filter(|&v| occupied[v] && self.is_junction(v)) {
            // The token on v steps toward the nearest blank of a branch that has one, the
            // tokens on the way each one step; `back[u]`: where the token now on u stood.
            let Some(&b) = self.adjacent[v].iter().find(|&&b| holes.branch(v, b) > 0) else {
                continue;
            };
            let way = self.way_to(v, Some(b), |u| !occupied[u]);
            let (mut stepped, mut back) = (occupied.to_vec(), identity.clone());
            stepped[v] = false;
            stepped[*way.last().expect("a blank")] = true;
            for pair in way.windows(2) {
                back[pair[1]] = pair[0];
            }
            let stepped_holes = Holes::of(self, &stepped);
            self.join_facing(&stepped, &stepped_holes, &back, &mut classes);
        }
        (0..n).map(|v| classes.find(v)).collect()
    }

    /// Joins the classes (numbered by `back[v]`, where the token on v stands in the placement
    /// asked) of each two tokens of `occupied` facing each other across blanks by a criterion,
    /// in time linear in the vertices: criteria 2 and 3 ask one token of the pair and the
    /// neighbour it faces the other by, so a token that meets them faces every token across
    /// the same blanks; criterion 1 is asked of each junction among the blanks.
    fn join_facing(&self, occupied: &[bool], holes: &Holes, back: &[usize], classes: &mut Classes) {
        let n = self.vertices();
        let swaps = Swaps::of(self, occupied, holes);
        let mut join = |v: usize, u: usize| classes.join(back[v], back[u]);
        for v in (0..n).filter(|&v| occupied[v]) {
            for &u in self.adjacent[v].iter().filter(|&&u| u > v && occupied[u]) {
                if swaps.either(v, u) || swaps.either(u, v) {
                    join(v, u);
                }
            }
        }
        let mut seen = vec![false; n];
        for start in 0..n {
            if occupied[start] || seen[start] {
                continue;
            }
            let run = Run::of(self, occupied, start, &mut seen);
            // Criteria 2 and 3: one token that meets them joins every token around the run.
            if run.around.iter().any(|&(a, h)| swaps.either(a, h)) {
                for pair in run.around.windows(2) {
                    join(pair[0].0, pair[1].0);
                }
                continue;
            }
            for &p in run.blanks.iter().filter(|&&p| self.is_junction(p)) {
                for pair in self.crossing(holes, occupied, &run, p).windows(2) {
                    join(pair[0], pair[1]);
                }
            }
        }
    }

    /// Criterion 1 at the junction `p` of the run of blanks `run`: the tokens around the run
    /// that a pair of p's branches joins. A pair of branches fails only where one of them holds
    /// every blank but p and the other none; so if no branch holds them all, every token
    /// around the run (if two branches hold some); else the tokens beside p outside that
    /// branch (the rest of the run lies in it).
    fn crossing(&self, holes: &Holes, occupied: &[bool], run: &Run, p: usize) -> Vec<usize> {
        let with_tokens = self.adjacent[p]
            .iter()
            .filter(|&&q| occupied[q] || run.tokens_beyond(p, q) > 0)
            .count();
        if with_tokens < 2 {
            return vec![];
        }
        let all_but_p = holes.total - 1;
        match self.adjacent[p]
            .iter()
            .find(|&&q| holes.branch(p, q) == all_but_p)
        {
            None => run.around.iter().map(|&(a, _)| a).collect(),
            Some(&full) => self.adjacent[p]
                .iter()
                .copied()
                .filter(|&q| q != full && occupied[q])
                .collect(),
        }
    }

    /// Steps from `u` to the nearest junction of the branch of its `i`-th neighbour, if any.
    fn junction_ahead(&self, u: usize, i: usize) -> Option<usize> {
        let d = self.ahead[self.first[u] + i];
        (d != NO_JUNCTION).then_some(d as usize)
    }
}

/// No junction ahead (`Tree::ahead`), and an edge not walked yet (`junctions_ahead`).
const NO_JUNCTION: u32 = u32::MAX;
const NOT_YET: u32 = u32::MAX - 1;

/// The steps from each vertex to the nearest junction along each of its edges
/// (`Tree::ahead`, the edges of u numbered from `first[u]`), in time linear in the vertices:
/// a walk along a chain of vertices of degree 2 fills each edge it passes.
fn junctions_ahead(adjacent: &[Vec<usize>], first: &[usize]) -> Vec<u32> {
    let junction = |v: usize| adjacent[v].len() >= 3;
    let edges = first.last().copied().unwrap_or(0);
    let mut ahead = vec![NOT_YET; edges];
    for u in 0..adjacent.len() {
        for i in 0..adjacent[u].len() {
            if ahead[first[u] + i] != NOT_YET {
                continue;
            }
            // Walk on until a junction or a leaf, then fill the edges walked, farthest first.
            let mut walked = vec![first[u] + i];
            let (mut previous, mut at) = (u, adjacent[u][i]);
            let end = loop {
                if junction(at) {
                    break 0;
                }
                let Some(j) = adjacent[at].iter().position(|&w| w != previous) else {
                    break NO_JUNCTION;
                };
                let e = first[at] + j;
                if ahead[e] != NOT_YET {
                    break ahead[e];
                }
                walked.push(e);
                (previous, at) = (at, adjacent[at][j]);
            };
            let mut d = end;
            for &e in walked.iter().rev() {
                d = if d == NO_JUNCTION { NO_JUNCTION } else { d + 1 };
                ahead[e] = d;
            }
        }
    }
    ahead
}

/// Criteria 2 and 3 token by token: `ahead_count[u]`, the branches of u's neighbours where a
/// junction d steps off has d + 2 blanks, `ahead_first[u]` the first of them; `on[u]`, u is
/// a token on a junction with blanks in two branches.
struct Swaps<'a> {
    holes: &'a Holes,
    ahead_count: Vec<u8>,
    ahead_first: Vec<usize>,
    on: Vec<bool>,
}

impl<'a> Swaps<'a> {
    fn of(tree: &Tree, occupied: &[bool], holes: &'a Holes) -> Swaps<'a> {
        let n = tree.vertices();
        let (mut ahead_count, mut ahead_first, mut on) = (vec![0u8; n], vec![0; n], vec![false; n]);
        for u in (0..n).filter(|&u| occupied[u]) {
            for (i, &t) in tree.adjacent[u].iter().enumerate() {
                let blanks = holes.branch(u, t);
                if tree.junction_ahead(u, i).is_some_and(|d| blanks >= d + 2) {
                    if ahead_count[u] == 0 {
                        ahead_first[u] = t;
                    }
                    ahead_count[u] = ahead_count[u].saturating_add(1);
                }
            }
            let free = tree.adjacent[u].iter().filter(|&&b| holes.branch(u, b) > 0);
            on[u] = tree.is_junction(u) && free.count() >= 2;
        }
        Swaps {
            holes,
            ahead_count,
            ahead_first,
            on,
        }
    }

    /// Whether the token on `u`, facing another by its neighbour `toward`, meets criterion 2
    /// (a junction in another branch) or 3 (two blanks outside that branch, u on a junction
    /// with blanks in two branches).
    fn either(&self, u: usize, toward: usize) -> bool {
        let ahead =
            self.ahead_count[u] >= 2 || (self.ahead_count[u] == 1 && self.ahead_first[u] != toward);
        ahead || (self.on[u] && self.holes.total - self.holes.branch(u, toward) >= 2)
    }
}

/// A run of blanks (a connected set of them) and the tokens around it: `around`, each token
/// beside the run with its one neighbour in it (a tree has no other); `beyond[x]`, the tokens
/// around the run beside x or past it, the run rooted at its first blank (`parent`).
struct Run {
    blanks: Vec<usize>,
    around: Vec<(usize, usize)>,
    parent: std::collections::HashMap<usize, usize>,
    beyond: std::collections::HashMap<usize, usize>,
}

impl Run {
    fn of(tree: &Tree, occupied: &[bool], start: usize, seen: &mut [bool]) -> Run {
        seen[start] = true;
        let (mut blanks, mut around) = (vec![start], vec![]);
        let mut parent = std::collections::HashMap::from([(start, start)]);
        let mut i = 0;
        while i < blanks.len() {
            let v = blanks[i];
            i += 1;
            for &u in &tree.adjacent[v] {
                if occupied[u] {
                    around.push((u, v));
                } else if !seen[u] {
                    seen[u] = true;
                    parent.insert(u, v);
                    blanks.push(u);
                }
            }
        }
        let mut beyond: std::collections::HashMap<usize, usize> =
            blanks.iter().map(|&b| (b, 0)).collect();
        for &(_, h) in &around {
            *beyond.get_mut(&h).expect("a blank of the run") += 1;
        }
        for &b in blanks.iter().skip(1).rev() {
            let below = beyond[&b];
            *beyond.get_mut(&parent[&b]).expect("a blank of the run") += below;
        }
        Run {
            blanks,
            around,
            parent,
            beyond,
        }
    }

    /// The tokens around the run in the branch at its blank `p` of p's neighbour `q` (a blank
    /// of the run).
    fn tokens_beyond(&self, p: usize, q: usize) -> usize {
        if !self.parent.contains_key(&q) {
            return 0;
        }
        if self.parent[&q] == p && q != p {
            self.beyond[&q]
        } else {
            self.around.len() - self.beyond[&p]
        }
    }
}

/// The blanks of a placement counted by branch: the tree rooted at vertex 0, each vertex's
/// parent, and the blanks in its subtree.
struct Holes {
    parent: Vec<usize>,
    below: Vec<usize>,
    total: usize,
}

impl Holes {
    fn of(tree: &Tree, occupied: &[bool]) -> Holes {
        let n = tree.vertices();
        let mut parent = vec![0; n];
        let mut order = vec![0];
        let mut seen = vec![false; n];
        seen[0] = true;
        let mut i = 0;
        while i < order.len() {
            let v = order[i];
            i += 1;
            for &u in &tree.adjacent[v] {
                if !seen[u] {
                    seen[u] = true;
                    parent[u] = v;
                    order.push(u);
                }
            }
        }
        let mut below: Vec<usize> = occupied.iter().map(|&o| usize::from(!o)).collect();
        for &v in order.iter().skip(1).rev() {
            below[parent[v]] += below[v];
        }
        let total = below[0];
        Holes {
            parent,
            below,
            total,
        }
    }

    /// The blanks in the branch at `p` of its neighbour `b` (the part of the tree without p
    /// that holds b).
    fn branch(&self, p: usize, b: usize) -> usize {
        if self.parent[b] == p && b != p {
            self.below[b]
        } else {
            self.total - self.below[p]
        }
    }
}

/// Union by find with path halving.
struct Classes(Vec<usize>);

impl Classes {
    fn find(&mut self, mut v: usize) -> usize {
        while self.0[v] != v {
            self.0[v] = self.0[self.0[v]];
            v = self.0[v];
        }
        v
    }

    fn join(&mut self, a: usize, b: usize) {
        let (a, b) = (self.find(a), self.find(b));
        self.0[a] = b;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::graph6;
    use std::collections::HashSet;

    /// The orbits of the moves' group on the tokens of the placement `occupied`, by a plain
    /// search: every arrangement of distinct tokens the placement reaches, and of those on
    /// the same placement, which token stands where (vertex v holds the token from `home`).
    fn orbits(tree: &Tree, occupied: &[bool]) -> (Vec<Vec<usize>>, HashSet<Vec<usize>>) {
        let n = tree.vertices();
        let start: Vec<usize> = (0..n)
            .map(|v| if occupied[v] { v + 1 } else { 0 })
            .collect();
        let mut seen = HashSet::from([start.clone()]);
        let mut queue = VecDeque::from([start]);
        let mut classes = Classes((0..n).collect());
        while let Some(a) = queue.pop_front() {
            if (0..n).all(|v| (a[v] != 0) == occupied[v]) {
                for v in (0..n).filter(|&v| occupied[v]) {
                    classes.join(v, a[v] - 1);
                }
            }
            for v in (0..n).filter(|&v| a[v] == 0) {
                for &u in tree.adjacent[v].iter().filter(|&&u| a[u] != 0) {
                    let mut b = a.clone();
                    b.swap(u, v);
                    if seen.insert(b.clone()) {
                        queue.push_back(b);
                    }
                }
            }
        }
        (partition(&mut classes, occupied), seen)
    }

    /// The classes of the occupied vertices, each in increasing order, in order of their first.
    fn partition(classes: &mut Classes, occupied: &[bool]) -> Vec<Vec<usize>> {
        let mut by: std::collections::BTreeMap<usize, Vec<usize>> = Default::default();
        for v in (0..occupied.len()).filter(|&v| occupied[v]) {
            by.entry(classes.find(v)).or_default().push(v);
        }
        let mut out: Vec<Vec<usize>> = by.into_values().collect();
        out.sort();
        out
    }

    /// Every placement of every tree of 3 to 8 vertices with two blanks or more: the exchange
    /// classes are the orbits a plain search finds; and carried onto another placement, an
    /// arrangement is one the search reaches.
    #[test]
    fn exchange_classes_are_the_orbits_of_a_plain_search() {
        let text = include_str!("../../tests/data/trees-3-8.g6");
        let trees: Vec<Tree> = text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
            .map(|l| Tree::of(&graph6::decode(l).unwrap()))
            .collect();
        let mut placements = 0;
        for tree in &trees {
            let n = tree.vertices();
            for mask in 0u32..1 << n {
                let occupied: Vec<bool> = (0..n).map(|v| mask >> v & 1 == 1).collect();
                let blanks = n - mask.count_ones() as usize;
                if blanks < 2 || blanks == n {
                    continue;
                }
                placements += 1;
                let found = tree.exchange_classes(&occupied);
                let mut classes = Classes(found);
                let (want, reached) = orbits(tree, &occupied);
                assert_eq!(
                    partition(&mut classes, &occupied),
                    want,
                    "{:?} placement {occupied:?}",
                    tree.adjacent
                );
                // Carried onto the placement of the reversed mask: a placement the moves reach.
                let cells: Vec<u32> = (0..n)
                    .map(|v| u32::from(occupied[v]) * (v as u32 + 1))
                    .collect();
                let onto: Vec<bool> = (0..n).map(|v| occupied[n - 1 - v]).collect();
                let carried = tree.carry(&cells, &onto);
                assert!((0..n).all(|v| (carried[v] != 0) == onto[v]));
                let carried: Vec<usize> = carried.iter().map(|&x| x as usize).collect();
                assert!(
                    reached.contains(&carried),
                    "{:?} to {onto:?}",
                    tree.adjacent
                );
            }
        }
        // Each tree's 2^n placements but the n + 1 with fewer than two blanks and the one
        // without a token, over the 1 + 2 + 3 + 6 + 11 + 23 trees of 3 to 8 vertices.
        let trees_of = [(3, 1), (4, 2), (5, 3), (6, 6), (7, 11), (8, 23)];
        let want: usize = trees_of.iter().map(|&(n, t)| t * ((1 << n) - n - 2)).sum();
        assert_eq!(placements, want);
    }
}

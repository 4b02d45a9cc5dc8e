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
//! it stepped into each branch of the junction that holds a blank (the tokens on the way to the
//! nearest blank there shifted one step), and the two findings joined.
//!
//! The unit test sets the classes beside the orbits a plain search finds on every placement of
//! every tree of up to 8 vertices with two blanks or more (7,401 placements), and the theorem
//! sweep (`scripts/pebble-sweep.sh`, `tests/pebbles.rs`) the classes of arrangements they
//! predict. The work is polynomial in the vertices (each pair of tokens facing each other
//! across blanks is tried), not the linear time of Auletta et al.'s own algorithm.

use std::collections::VecDeque;

/// A tree as adjacency lists.
pub(crate) struct Tree {
    adjacent: Vec<Vec<usize>>,
}

impl Tree {
    /// The tree of `g` (which must be one).
    pub(crate) fn of(g: &impl super::Adjacency) -> Tree {
        Tree {
            adjacent: (0..g.vertices())
                .map(|v| g.neighbours(v).collect())
                .collect(),
        }
    }

    fn vertices(&self) -> usize {
        self.adjacent.len()
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
                let way = self.way_to(leaf, |v| alive[v] && (cells[v] != 0) == wanted);
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
                    if degree[u] == 1 || degree[u] == 0 {
                        leaves.push(u);
                    }
                }
            }
        }
        cells
    }

    /// The way from `from` to the nearest vertex `found` accepts, both ends included, through
    /// vertices `found` refuses (breadth first over the vertices it may call).
    fn way_to(&self, from: usize, found: impl Fn(usize) -> bool) -> Vec<usize> {
        let mut back = vec![usize::MAX; self.vertices()];
        back[from] = from;
        let mut queue = VecDeque::from([from]);
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
    /// (a blank's is its own).
    pub(crate) fn exchange_classes(&self, occupied: &[bool]) -> Vec<usize> {
        let n = self.vertices();
        let mut classes = Classes((0..n).collect());
        let identity: Vec<usize> = (0..n).collect();
        self.join_facing(occupied, &identity, &mut classes);
        for v in (0..n).filter(|&v| occupied[v] && self.is_junction(v)) {
            let holes = Holes::of(self, occupied);
            for &b in &self.adjacent[v] {
                if holes.branch(v, b) == 0 {
                    continue;
                }
                // The token on v steps toward the nearest blank of b's branch, the tokens on
                // the way each one step; `back[u]`: where the token now on u stood.
                let way = self.way_to(v, |u| !occupied[u] && holes.in_branch(v, b, u));
                let (mut stepped, mut back) = (occupied.to_vec(), identity.clone());
                stepped[v] = false;
                stepped[*way.last().expect("a blank")] = true;
                for pair in way.windows(2) {
                    back[pair[1]] = pair[0];
                }
                self.join_facing(&stepped, &back, &mut classes);
            }
        }
        (0..n).map(|v| classes.find(v)).collect()
    }

    /// Joins the classes (numbered by `back[v]`, where the token on v stands in the placement
    /// asked) of each two tokens of `occupied` facing each other across blanks by a criterion.
    fn join_facing(&self, occupied: &[bool], back: &[usize], classes: &mut Classes) {
        let holes = Holes::of(self, occupied);
        let mut join = |v: usize, u: usize| {
            if self.exchange(&holes, occupied, v, u) {
                classes.join(back[v], back[u]);
            }
        };
        let n = self.vertices();
        for v in (0..n).filter(|&v| occupied[v]) {
            for &u in self.adjacent[v].iter().filter(|&&u| u > v && occupied[u]) {
                join(v, u);
            }
        }
        // The tokens around each run of blanks face each other across it.
        let mut seen = vec![false; n];
        for start in 0..n {
            if occupied[start] || seen[start] {
                continue;
            }
            seen[start] = true;
            let (mut stack, mut around) = (vec![start], vec![]);
            while let Some(v) = stack.pop() {
                for &u in &self.adjacent[v] {
                    if occupied[u] {
                        around.push(u);
                    } else if !seen[u] {
                        seen[u] = true;
                        stack.push(u);
                    }
                }
            }
            around.sort_unstable();
            around.dedup();
            for (i, &v) in around.iter().enumerate() {
                for &u in &around[i + 1..] {
                    join(v, u);
                }
            }
        }
    }

    /// Whether the tokens on `v` and `u`, facing each other across blanks, can be exchanged
    /// by one of the criteria of the module's documentation.
    fn exchange(&self, holes: &Holes, occupied: &[bool], v: usize, u: usize) -> bool {
        let way = holes.way(v, u);
        let between = way.windows(3).any(|w| {
            let (before, p, after) = (w[0], w[1], w[2]);
            let toward = (holes.branch(p, before), holes.branch(p, after));
            let others = holes.total - 1 - toward.0 - toward.1;
            self.is_junction(p) && (toward.0.min(toward.1) > 0 || others > 0)
        });
        between
            || self.swap_ahead(holes, u, way[way.len() - 2])
            || self.swap_ahead(holes, v, way[1])
            || self.swap_on(holes, occupied, v, way[1])
            || self.swap_on(holes, occupied, u, way[way.len() - 2])
    }

    /// Criterion 2: from the token on `u`, a junction in a branch other than `behind`'s is d
    /// steps off, and that branch holds d + 2 blanks or more.
    fn swap_ahead(&self, holes: &Holes, u: usize, behind: usize) -> bool {
        self.adjacent[u].iter().filter(|&&t| t != behind).any(|&t| {
            match self.nearest_junction(u, t) {
                Some(d) => holes.branch(u, t) >= d + 2,
                None => false,
            }
        })
    }

    /// Criterion 3: the token on `v` is on a junction, two of its branches hold a blank, and
    /// two blanks or more lie outside the branch of `toward`.
    fn swap_on(&self, holes: &Holes, occupied: &[bool], v: usize, toward: usize) -> bool {
        if !self.is_junction(v) || !occupied[v] {
            return false;
        }
        let free = self.adjacent[v]
            .iter()
            .filter(|&&b| holes.branch(v, b) > 0)
            .count();
        free >= 2 && holes.total - holes.branch(v, toward) >= 2
    }

    /// Steps from `u` to the nearest junction of the branch of its neighbour `t`, if any.
    fn nearest_junction(&self, u: usize, t: usize) -> Option<usize> {
        let (mut previous, mut at, mut steps) = (u, t, 1);
        loop {
            if self.is_junction(at) {
                return Some(steps);
            }
            // Not a junction: at most one way on.
            let next = self.adjacent[at].iter().find(|&&w| w != previous)?;
            (previous, at, steps) = (at, *next, steps + 1);
        }
    }
}

/// The blanks of a placement counted by branch: the tree rooted at vertex 0, each vertex's
/// parent and depth, and the blanks in its subtree.
struct Holes {
    parent: Vec<usize>,
    depth: Vec<usize>,
    below: Vec<usize>,
    total: usize,
}

impl Holes {
    fn of(tree: &Tree, occupied: &[bool]) -> Holes {
        let n = tree.vertices();
        let (mut parent, mut depth) = (vec![0; n], vec![0; n]);
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
                    (parent[u], depth[u]) = (v, depth[v] + 1);
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
            depth,
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

    /// Whether `u` lies in the branch at `p` of its neighbour `b`.
    fn in_branch(&self, p: usize, b: usize, u: usize) -> bool {
        // b's subtree where b is p's child, else everything outside p's.
        let (top, inside) = if self.parent[b] == p && b != p {
            (b, true)
        } else {
            (p, false)
        };
        let mut at = u;
        while self.depth[at] > self.depth[top] {
            at = self.parent[at];
        }
        (at == top) == inside
    }

    /// The way from `v` to `u`, both included.
    fn way(&self, v: usize, u: usize) -> Vec<usize> {
        let (mut a, mut b) = (v, u);
        let (mut from_v, mut from_u) = (vec![a], vec![b]);
        while a != b {
            if self.depth[a] >= self.depth[b] {
                a = self.parent[a];
                from_v.push(a);
            } else {
                b = self.parent[b];
                from_u.push(b);
            }
        }
        from_u.pop();
        from_v.extend(from_u.into_iter().rev());
        from_v
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

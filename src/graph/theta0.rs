//! θ0 with one blank: Wilson's exception, decided by its group. With the blank on a vertex
//! `home`, the moves that bring it back permute the six tokens by a group that Wilson (1974)
//! shows to be PGL(2,5), of order 120 (so distinct tiles split into 6 classes of 840). It is
//! generated here from the graph alone: for each of θ0's three cycles, the blank walks to the
//! cycle along a shortest path, goes once round it and walks back; their closure is the group.
//! An arrangement reaches another when, both blanks walked home, some element of the group
//! takes one to the other; the classes are the group's orbits on the labellings of the six
//! other vertices, each taken with the 7 places of the blank. Nothing here searches the
//! arrangements: the group's 120 elements are all it lists.

use std::collections::{BTreeMap, HashSet};

use num_bigint::BigUint;

use super::Adjacency;
use crate::puzzle::tokens::Tokens;

/// The group of θ0's puzzle with the blank on `home`: each element the vertex each vertex's
/// token comes from (`element[v]`: the token on `element[v]` moves to `v`).
pub struct Theta0Group {
    home: usize,
    /// Each vertex's neighbour on its way home (`home` there).
    toward: Vec<usize>,
    elements: Vec<Vec<u8>>,
}

impl Theta0Group {
    /// The group of `g` (θ0: 7 vertices, two hubs of degree 3 joined by three paths) with the
    /// blank on `home`.
    pub fn new(g: &impl Adjacency, home: usize) -> Theta0Group {
        let toward = g.toward(home);
        let generators: Vec<Vec<usize>> = cycles(g)
            .iter()
            .map(|cycle| round_trip(g, &toward, home, cycle))
            .collect();
        let identity: Vec<u8> = (0..g.vertices() as u8).collect();
        let mut seen = HashSet::from([identity.clone()]);
        let mut elements = vec![identity];
        let mut next = 0;
        while next < elements.len() {
            let e = elements[next].clone();
            next += 1;
            for p in &generators {
                let moved: Vec<u8> = (0..e.len()).map(|v| e[p[v]]).collect();
                if seen.insert(moved.clone()) {
                    elements.push(moved);
                }
            }
        }
        Theta0Group {
            home,
            toward,
            elements,
        }
    }

    /// The group's order (Wilson: 120).
    pub fn order(&self) -> usize {
        self.elements.len()
    }

    /// The tokens of `t` with its one blank walked home along shortest paths.
    fn walked_home(&self, t: &Tokens) -> Vec<u32> {
        let mut cells = t.cells().to_vec();
        let mut at = cells.iter().position(|&x| x == 0).expect("a blank");
        while at != self.home {
            cells.swap(at, self.toward[at]);
            at = self.toward[at];
        }
        cells
    }

    /// The arrangements (blank home) the group takes `cells` to.
    fn orbit(&self, cells: &[u32]) -> impl Iterator<Item = Vec<u32>> + '_ {
        let cells = cells.to_vec();
        self.elements
            .iter()
            .map(move |e| e.iter().map(|&from| cells[usize::from(from)]).collect())
    }

    /// Whether `start` reaches `goal` (the same tokens, one blank each).
    pub fn reaches(&self, start: &Tokens, goal: &Tokens) -> bool {
        let s = self.walked_home(start);
        self.orbit(&self.walked_home(goal)).any(|t| t == s)
    }

    /// The classes of `goal`'s arrangements: how many of each size, and the goal's size.
    pub fn classes(&self, goal: &Tokens) -> (BTreeMap<BigUint, BigUint>, BigUint) {
        let n = goal.len();
        let home = self.walked_home(goal);
        // The other vertices' tokens, in every order the multiset allows.
        let tiles: Vec<u32> = home.iter().copied().filter(|&x| x != 0).collect();
        let mut labellings = vec![];
        orders(&mut tiles.clone(), 0, &mut labellings);
        let mut seen: HashSet<Vec<u32>> = HashSet::new();
        let mut sizes: BTreeMap<BigUint, BigUint> = BTreeMap::new();
        let mut goal_size = BigUint::ZERO;
        for order in labellings {
            let mut cells = order.clone();
            cells.insert(self.home, 0);
            if seen.contains(&cells) {
                continue;
            }
            let orbit: HashSet<Vec<u32>> = self.orbit(&cells).collect();
            let size = BigUint::from(orbit.len() * n);
            if orbit.contains(&home) {
                goal_size = size.clone();
            }
            *sizes.entry(size).or_default() += 1u32;
            seen.extend(orbit);
        }
        (sizes, goal_size)
    }
}

/// Every distinct order of `items[from..]` after `items[..from]`.
fn orders(items: &mut Vec<u32>, from: usize, out: &mut Vec<Vec<u32>>) {
    if from == items.len() {
        out.push(items.clone());
        return;
    }
    let mut tried = HashSet::new();
    for i in from..items.len() {
        if tried.insert(items[i]) {
            items.swap(from, i);
            orders(items, from + 1, out);
            items.swap(from, i);
        }
    }
}

/// θ0's three cycles, each as its vertices in order: two of the three paths joining the hubs.
fn cycles(g: &impl Adjacency) -> Vec<Vec<usize>> {
    let hubs: Vec<usize> = (0..g.vertices()).filter(|&v| g.degree(v) == 3).collect();
    let (a, b) = (hubs[0], hubs[1]);
    // Each path's inner vertices from a to b.
    let paths: Vec<Vec<usize>> = g
        .neighbours(a)
        .map(|first| {
            let (mut previous, mut at, mut inner) = (a, first, vec![]);
            while at != b {
                inner.push(at);
                let next = g.neighbours(at).find(|&u| u != previous);
                (previous, at) = (at, next.expect("a path goes on"));
            }
            inner
        })
        .collect();
    let mut out = vec![];
    for i in 0..3 {
        for j in i + 1..3 {
            let mut cycle = vec![a];
            cycle.extend(&paths[i]);
            cycle.push(b);
            cycle.extend(paths[j].iter().rev());
            out.push(cycle);
        }
    }
    out
}

/// The permutation of tokens (as `Theta0Group`'s elements) when the blank, on `home`, walks to
/// the nearest vertex of `cycle`, goes once round it and walks back.
fn round_trip(g: &impl Adjacency, toward: &[usize], home: usize, cycle: &[usize]) -> Vec<usize> {
    let n = g.vertices();
    let entry = *cycle
        .iter()
        .min_by_key(|&&v| distance(toward, home, v))
        .expect("a cycle");
    // The way from home to the entry: the entry's way home, reversed.
    let mut way = vec![entry];
    while *way.last().expect("a vertex") != home {
        way.push(toward[*way.last().expect("a vertex")]);
    }
    way.reverse();
    let k = cycle
        .iter()
        .position(|&v| v == entry)
        .expect("on the cycle");
    let round: Vec<usize> = (1..=cycle.len())
        .map(|i| cycle[(k + i) % cycle.len()])
        .collect();
    // The blank's steps: out along the way, round the cycle, back along the way.
    let steps = way[1..]
        .iter()
        .chain(&round)
        .chain(way.iter().rev().skip(1))
        .copied();
    let mut from: Vec<usize> = (0..n).collect();
    let mut blank = home;
    for to in steps {
        from.swap(blank, to);
        blank = to;
    }
    debug_assert_eq!(blank, home);
    from
}

/// The steps from `v` home.
fn distance(toward: &[usize], home: usize, mut v: usize) -> usize {
    let mut steps = 0;
    while v != home {
        v = toward[v];
        steps += 1;
    }
    steps
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::family;

    /// Wilson's order, from every home vertex: 120 (PGL(2,5)), so distinct tiles split into 6
    /// classes of 840.
    #[test]
    fn the_group_has_wilson_s_order_from_every_vertex() {
        let g = family::theta0();
        for home in 0..7 {
            let group = Theta0Group::new(&g, home);
            assert_eq!(group.order(), 120, "home {home}");
            let goal = Tokens::distinct(7, home);
            let (sizes, goal_size) = group.classes(&goal);
            assert_eq!(sizes, BTreeMap::from([(840u32.into(), 6u32.into())]));
            assert_eq!(goal_size, 840u32.into());
        }
    }
}

//! What the theorems of pebble motion say of a graph's arrangements: into how many classes the
//! moves split the arrangements of a goal's tokens, and of what sizes, where a theorem decides
//! it. Computed from the statements alone, never by a search, so that an enumeration can be
//! set beside them.
//!
//! A move slides a token along an edge onto an empty vertex. With p tokens and k = n - p
//! blanks on a connected graph of n vertices:
//! - **a path** keeps the tokens' order: a class is every placement of one sequence of labels,
//!   C(n, k) arrangements (the empty vertices chosen; the order fills the rest);
//! - **a cycle** keeps their cyclic order: a class is a necklace of labels, C(n, k) · d
//!   arrangements where d is the sequence's least period (d rotations are distinct);
//! - **a 2-connected graph that is not a cycle**, with two blanks or more, reaches every
//!   arrangement (Kornhauser, Miller and Spirakis, FOCS 1984; θ0 included);
//! - with one blank, Wilson's theorem (1974): distinct tiles split as `wilson::predict` says;
//!   a repeated label makes every arrangement reachable on a 2-connected graph other than a
//!   cycle and θ0 (Wilson's group holds every even permutation of the tiles, and a swap of two
//!   equal labels turns an odd one into an even one that leaves the arrangement as it is);
//! - **a tree** with one blank: a blank's walk on a tree is undone by walking it back, so an
//!   arrangement is fixed by where its blank is: a class is n arrangements, whatever the
//!   labels (Wilson's tree formula, (n-1)! classes, where they are distinct);
//! - **a tree** with two blanks or more (Auletta, Monti, Parente and Persiano, Algorithmica
//!   1999): on each placement of the tokens a class is the goal's labels shuffled within the
//!   tokens' exchange classes (`trees`), C(n, k) placements.
//!
//! θ0 with one blank is decided by its group (`theta0`), which Wilson's classification counts
//! but does not tell apart. Elsewhere (graphs with a cut vertex that are not trees) no
//! prediction is made here. Every function takes a graph of either kind (`Adjacency`): the bit
//! masks the index searches, or adjacency lists of any size, each decided in time linear in
//! its vertices and edges but on a tree with several blanks (a pass for each junction: `trees`).

use std::collections::BTreeMap;

use num_bigint::BigUint;
use serde::Serialize;

use crate::error::Error;
use crate::graph::theta0::Theta0Group;
use crate::graph::trees::Tree;
use crate::graph::wilson::Case;
use crate::graph::Adjacency;
use crate::puzzle::board::Shape;
use crate::puzzle::count::factorial;
use crate::puzzle::random::Rng;
use crate::puzzle::tokens::Tokens;

/// The theorem a prediction comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    /// A path keeps the tokens' order.
    Path,
    /// A cycle keeps their cyclic order.
    Cycle,
    /// Kornhauser, Miller and Spirakis: two blanks on a 2-connected graph reach everything.
    Kms,
    /// Wilson's theorem, one blank.
    Wilson,
    /// Wilson's tree formula (one blank, distinct tiles).
    Tree,
    /// Auletta et al.'s exchange classes on a tree with two blanks or more.
    Auletta,
    /// Nothing to move: all blanks, or one arrangement.
    Trivial,
}

impl Source {
    /// The name `graphs.csv` writes.
    pub fn name(self) -> &'static str {
        match self {
            Source::Path => "path",
            Source::Cycle => "cycle",
            Source::Kms => "kms",
            Source::Wilson => "wilson",
            Source::Tree => "tree",
            Source::Auletta => "auletta",
            Source::Trivial => "trivial",
        }
    }

    /// The statement, for a reader.
    pub fn statement(self) -> &'static str {
        match self {
            Source::Path => "the order a path keeps",
            Source::Cycle => "the cyclic order a cycle keeps",
            Source::Kms => "Kornhauser, Miller and Spirakis' theorem",
            Source::Wilson => "Wilson's theorem",
            Source::Tree => "the tree formula",
            Source::Auletta => "Auletta et al.'s theorem on trees",
            Source::Trivial => "nothing to move",
        }
    }
}

/// The classes the moves split the arrangements into: `sizes[s]` classes of s arrangements.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Classes {
    /// The theorem that says so.
    pub theorem: Source,
    /// How many classes there are of each size.
    pub sizes: BTreeMap<BigUint, BigUint>,
    /// The size of the goal's class: the arrangements that reach the goal.
    pub goal: BigUint,
}

impl Classes {
    /// The number of classes.
    pub fn count(&self) -> BigUint {
        self.sizes.values().sum()
    }

    /// The arrangements in all classes (every arrangement, when the prediction is right).
    pub fn arrangements(&self) -> BigUint {
        self.sizes.iter().map(|(s, c)| s * c).sum()
    }

    fn one(theorem: Source, size: BigUint, count: BigUint) -> Classes {
        Classes {
            theorem,
            goal: size.clone(),
            sizes: BTreeMap::from([(size, count)]),
        }
    }
}

/// What a prediction asks of the ground: its size, whether it is a path, whether a tree's
/// formula applies, its case in Wilson's classification, and on a cycle or a path the vertices
/// in their order.
struct Ground {
    vertices: usize,
    path: bool,
    tree: bool,
    case: Case,
    cycle_order: Vec<usize>,
}

impl Ground {
    /// A graph's, of either kind, in time linear in its vertices and edges.
    fn of_graph(g: &impl Adjacency) -> Ground {
        let case = Case::of(g);
        let path = g.is_path();
        Ground {
            vertices: g.vertices(),
            path,
            tree: g.is_tree(),
            case,
            cycle_order: match case {
                Case::Cycle => cycle_order(g),
                _ if path => path_order(g),
                _ => vec![],
            },
        }
    }

    /// A board's, of any size: a line is a path, 2x2 a cycle (cells 1 2 4 3 round it), every
    /// other board 2-connected, bipartite and not a cycle.
    fn of_board(shape: Shape) -> Ground {
        Ground {
            vertices: shape.cells(),
            path: shape.is_line(),
            // A line is a path: its one class a tile order, below.
            tree: false,
            case: match (shape.is_line(), shape.cells()) {
                (true, _) => Case::Separable,
                (false, 4) => Case::Cycle,
                _ => Case::Bipartite,
            },
            cycle_order: if shape.is_line() {
                (0..shape.cells()).collect()
            } else {
                vec![0, 1, 3, 2]
            },
        }
    }
}

/// The classes of `tokens`'s arrangements on `g` (as many tokens as vertices), where a theorem
/// above decides them.
pub fn predict(g: &impl Adjacency, tokens: &Tokens) -> Option<Classes> {
    let ground = Ground::of_graph(g);
    match theta0_group(&ground, g, tokens) {
        Some(group) if !tokens.tiles_distinct() => {
            let (sizes, goal) = group.classes(tokens);
            Some(Classes {
                theorem: Source::Wilson,
                sizes,
                goal,
            })
        }
        _ => match tree_of(&ground, g, tokens) {
            Some(tree) => tree_classes(&tree, tokens),
            None => classes(&ground, tokens),
        },
    }
}

/// The tree of `g` where the ground is a tree but not a path and `tokens` have two blanks or
/// more and a token (Auletta et al.'s case, `trees`).
/// None too where the exchange classes would take more than `MOST_TREE_WORK`.
fn tree_of(ground: &Ground, g: &impl Adjacency, tokens: &Tokens) -> Option<Tree> {
    let k = tokens.blanks();
    let tree =
        (ground.tree && !ground.path && k >= 2 && k < ground.vertices).then(|| Tree::of(g))?;
    (tree.work() <= MOST_TREE_WORK).then_some(tree)
}

/// Most vertices the exchange classes of a tree may visit (`Tree::work`: its junctions times
/// its vertices): a few seconds.
const MOST_TREE_WORK: u64 = 1 << 31;

/// Most colour splits `tree_classes` tries, and most labels it splits: past them the
/// classes are not predicted.
const MOST_SPLITS: usize = 1 << 20;
const MOST_LABELS: usize = 1 << 12;

/// The classes of `tokens` on a tree with two blanks or more: on each of the C(n, k)
/// placements, a class holds the same labels in each exchange class (`trees`), any order
/// there; so a class is a choice of how many of each label each exchange class holds, and its
/// size C(n, k) times the product of their multinomials.
fn tree_classes(tree: &Tree, tokens: &Tokens) -> Option<Classes> {
    let (n, k) = (tokens.len(), tokens.blanks());
    let placements = binomial(n, k);
    let groups = exchange_groups(tree, tokens.cells());
    if tokens.tiles_distinct() {
        let within: BigUint = groups.iter().map(|g| factorial(g.len() as u64)).product();
        let count = factorial((n - k) as u64) / &within;
        return Some(Classes::one(Source::Auletta, placements * within, count));
    }
    // How many of each label the classes hold, class by class: the labels left, and the
    // classes so far by their product of multinomials.
    let labels: Vec<usize> = tokens
        .multiplicities()
        .iter()
        .filter(|(&l, _)| l != 0)
        .map(|(_, &c)| c)
        .collect();
    // Past `MOST_LABELS` labels, or `MOST_SPLITS` ways of splitting them tried, the splits
    // are not listed.
    if labels.len() > MOST_LABELS {
        return None;
    }
    let goal = groups.iter().fold(placements.clone(), |acc, g| {
        let mut counts = BTreeMap::new();
        for &l in g {
            *counts.entry(l).or_insert(0usize) += 1;
        }
        let counts: Vec<usize> = counts.into_values().collect();
        acc * multinomial(g.len(), &counts)
    });
    let mut budget = MOST_SPLITS;
    let mut splits: BTreeMap<Vec<usize>, BTreeMap<BigUint, BigUint>> = BTreeMap::from([(
        labels,
        BTreeMap::from([(BigUint::from(1u32), BigUint::from(1u32))]),
    )]);
    for group in &groups {
        let mut next: BTreeMap<Vec<usize>, BTreeMap<BigUint, BigUint>> = BTreeMap::new();
        for (left, products) in &splits {
            for taken in takings(left, group.len(), &mut budget)? {
                let weight = multinomial(group.len(), &taken);
                let rest: Vec<usize> = left.iter().zip(&taken).map(|(l, t)| l - t).collect();
                let into = next.entry(rest).or_default();
                for (product, count) in products {
                    *into.entry(product * &weight).or_default() += count;
                }
            }
        }
        if next.values().map(BTreeMap::len).sum::<usize>() > MOST_SPLITS {
            return None;
        }
        splits = next;
    }
    let sizes = splits
        .into_values()
        .flatten()
        .map(|(product, count)| (product * &placements, count))
        .fold(BTreeMap::new(), |mut sizes, (size, count)| {
            *sizes.entry(size).or_insert(BigUint::ZERO) += count;
            sizes
        });
    Some(Classes {
        theorem: Source::Auletta,
        sizes,
        goal,
    })
}

/// (Σ counts)! / ∏ counts!, `total` the sum: the denominators' product first, one division.
fn multinomial(total: usize, counts: &[usize]) -> BigUint {
    let below: BigUint = counts.iter().map(|&c| factorial(c as u64)).product();
    factorial(total as u64) / below
}

/// Every way to take `size` tokens from labels of which `left` are left: how many of each,
/// in the order of an odometer (no recursion: a label a digit); None once more than `budget`
/// (which it spends) are made.
fn takings(left: &[usize], size: usize, budget: &mut usize) -> Option<Vec<Vec<usize>>> {
    let n = left.len();
    // room[i]: the tokens of the labels from i on.
    let mut room = vec![0; n + 1];
    for i in (0..n).rev() {
        room[i] = room[i + 1] + left[i];
    }
    if size > room[0] {
        return Some(vec![]);
    }
    let (mut taken, mut rest) = (vec![0; n], vec![0; n + 1]);
    rest[0] = size;
    let mut out = vec![];
    let mut i = 0;
    loop {
        // The labels from i on take the fewest they can: the rest must fit past them.
        while i < n {
            taken[i] = rest[i].saturating_sub(room[i + 1]);
            rest[i + 1] = rest[i] - taken[i];
            i += 1;
        }
        *budget = budget.checked_sub(1)?;
        out.push(taken.clone());
        // The last label that can take one more does, and those past it start again.
        loop {
            if i == 0 {
                return Some(out);
            }
            i -= 1;
            if taken[i] < left[i].min(rest[i]) {
                taken[i] += 1;
                rest[i + 1] = rest[i] - taken[i];
                i += 1;
                break;
            }
        }
    }
}

/// The labels of `cells` in each exchange class of their placement on `tree`.
fn exchange_groups(tree: &Tree, cells: &[u32]) -> Vec<Vec<u32>> {
    let occupied: Vec<bool> = cells.iter().map(|&x| x != 0).collect();
    let class = tree.exchange_classes(&occupied);
    let mut groups: BTreeMap<usize, Vec<u32>> = BTreeMap::new();
    for v in (0..cells.len()).filter(|&v| occupied[v]) {
        groups.entry(class[v]).or_default().push(cells[v]);
    }
    groups.into_values().collect()
}

/// On a tree with two blanks or more, whether `start` carried onto `goal`'s placement holds
/// the goal's labels in each exchange class there.
fn tree_reaches(tree: &Tree, start: &Tokens, goal: &Tokens) -> bool {
    let onto: Vec<bool> = goal.cells().iter().map(|&x| x != 0).collect();
    let carried = tree.carry(start.cells(), &onto);
    let class = tree.exchange_classes(&onto);
    let labels = |cells: &[u32]| {
        let mut labels: Vec<(usize, u32)> = (0..cells.len())
            .filter(|&v| onto[v])
            .map(|v| (class[v], cells[v]))
            .collect();
        labels.sort_unstable();
        labels
    };
    labels(&carried) == labels(goal.cells())
}

/// θ0's group with the goal's one blank home, where the ground is θ0 and the goal has one
/// blank (Wilson's exception, which his classification counts but does not tell apart).
fn theta0_group(ground: &Ground, g: &impl Adjacency, goal: &Tokens) -> Option<Theta0Group> {
    (ground.case == Case::Theta0 && goal.blanks() == 1).then(|| {
        let home = goal.cells().iter().position(|&x| x == 0).expect("a blank");
        Theta0Group::new(g, home)
    })
}

/// Why no theorem here decides `tokens` on a graph, for a one-line refusal: one with a cut
/// vertex that is not a tree (or a tree too large for the exchange classes here, or whose
/// colour splits are too many to list).
pub fn undecided(tokens: &Tokens) -> String {
    // The tokens named, but in a few words where their notation is long.
    let mut named = tokens.notation();
    if named.len() > 60 {
        named = format!("{} tokens with {} blanks", tokens.len(), tokens.blanks());
    }
    format!(
        "no theorem here decides {} on a graph with a cut vertex that is not a tree (Goraly and \
         Hassin's and Yu's tests on any graph are not implemented), nor on a tree whose \
         junctions times vertices pass {} (the exchange classes here take that long), nor \
         splits more than {} labels or tries more than {} colour splits on a tree",
        named, MOST_TREE_WORK, MOST_LABELS, MOST_SPLITS
    )
}

/// The classes of `tokens`'s arrangements on a board of `shape`, of any size: a line is a
/// path, 2x2 a cycle, every other board 2-connected, bipartite and not a cycle.
pub fn predict_board(shape: Shape, tokens: &Tokens) -> Option<Classes> {
    classes(&Ground::of_board(shape), tokens)
}

/// Whether `start` reaches `goal` on `g` (both a token a vertex), where a theorem above
/// decides it; `Err` if they hold different tokens. Linear in the vertices and edges, but on
/// a cycle, whose cyclic orders are compared in time linear in its tokens too.
pub fn reaches(g: &impl Adjacency, start: &Tokens, goal: &Tokens) -> Result<Option<bool>, Error> {
    let ground = Ground::of_graph(g);
    if ground.tree && !ground.path && goal.blanks() == 1 {
        same_tokens(start, goal)?;
        return Ok(Some(blank_walked_home(g, start, goal)));
    }
    if let Some(tree) = tree_of(&ground, g, goal) {
        same_tokens(start, goal)?;
        return Ok(Some(tree_reaches(&tree, start, goal)));
    }
    if let Some(group) = theta0_group(&ground, g, goal) {
        same_tokens(start, goal)?;
        return Ok(Some(group.reaches(start, goal)));
    }
    let colours = g.two_colouring();
    decide(&ground, start, goal, |v| colours.as_ref().map(|c| c[v]))
}

/// A uniformly random arrangement of `goal`'s class on `g` (one that reaches the goal), where
/// a theorem here decides the class; `None` elsewhere (as `reaches`). For many draws,
/// `ClassSampler::new` once.
pub fn random_in_class(g: &impl Adjacency, goal: &Tokens, rng: &mut Rng) -> Option<Tokens> {
    Some(ClassSampler::new(g, goal)?.draw(rng))
}

/// `random_in_class` on a board of `shape`, of any size: every board is decided.
pub fn random_in_class_on_board(shape: Shape, goal: &Tokens, rng: &mut Rng) -> Tokens {
    ClassSampler::on_board(shape, goal).draw(rng)
}

/// Draws arrangements of a goal's class uniformly: what a draw needs of the ground (its
/// case, orders, colours, θ0's group, a tree's ways home) found once, so that each draw costs
/// only the arrangement it makes.
pub struct ClassSampler {
    goal: Tokens,
    ground: Ground,
    colours: Option<Vec<u8>>,
    how: How,
}

/// How a class is drawn.
enum How {
    /// A tree with one blank: the goal's blank walked from `home` to a uniform vertex, along
    /// the way back of each vertex's step toward home (`toward`).
    Tree { home: usize, toward: Vec<usize> },
    /// θ0 with one blank: a shuffle kept when its group takes it to the goal (at least one in
    /// six are: the smallest part).
    Theta0(Theta0Group),
    /// A tree with two blanks or more: a uniform placement, the goal carried onto it, and the
    /// labels shuffled within each exchange class there (each placement holds as many of the
    /// class's arrangements).
    Exchange(Tree),
    /// The orders of a path or a cycle, or a shuffle (`ClassSampler::by_theorem`).
    Theorem,
}

impl ClassSampler {
    /// The sampler of `goal`'s class on `g`, where a theorem here decides it.
    pub fn new(g: &impl Adjacency, goal: &Tokens) -> Option<ClassSampler> {
        let ground = Ground::of_graph(g);
        let home = goal.cells().iter().position(|&x| x == 0).expect("a blank");
        let how = match theta0_group(&ground, g, goal) {
            _ if ground.tree && !ground.path && goal.blanks() == 1 => How::Tree {
                home,
                toward: g.toward(home),
            },
            Some(group) => How::Theta0(group),
            None => match tree_of(&ground, g, goal) {
                Some(tree) => How::Exchange(tree),
                None => How::Theorem,
            },
        };
        let sampler = ClassSampler {
            goal: goal.clone(),
            ground,
            colours: g.two_colouring(),
            how,
        };
        let decided = !matches!(sampler.how, How::Theorem)
            || decide(&sampler.ground, goal, goal, sampler.colour()).is_ok_and(|d| d.is_some());
        decided.then_some(sampler)
    }

    /// The sampler of `goal`'s class on a board of `shape`.
    pub fn on_board(shape: Shape, goal: &Tokens) -> ClassSampler {
        let cells = shape.cells();
        let colours = (0..cells)
            .map(|v| shape.colour(crate::puzzle::board::Cell(v)) as u8)
            .collect();
        ClassSampler {
            goal: goal.clone(),
            ground: Ground::of_board(shape),
            colours: Some(colours),
            how: How::Theorem,
        }
    }

    /// Each vertex's colour, where the ground is bipartite.
    fn colour(&self) -> impl Fn(usize) -> Option<u8> + '_ {
        |v| self.colours.as_ref().map(|c| c[v])
    }

    /// One arrangement of the class, uniformly.
    pub fn draw(&self, rng: &mut Rng) -> Tokens {
        let goal = &self.goal;
        match &self.how {
            How::Tree { home, toward } => {
                // The way from home to a uniform vertex: that vertex's way home, reversed.
                let mut at = rng.below(self.ground.vertices as u64) as usize;
                let mut way = vec![];
                while at != *home {
                    way.push(at);
                    at = toward[at];
                }
                let mut cells = goal.cells().to_vec();
                let mut blank = *home;
                for &v in way.iter().rev() {
                    cells.swap(blank, v);
                    blank = v;
                }
                Tokens::new(cells).expect("the goal's blank")
            }
            How::Theta0(group) => {
                let mut cells = goal.cells().to_vec();
                loop {
                    shuffle(&mut cells, rng);
                    let drawn = Tokens::new(cells.clone()).expect("the goal's blank");
                    if group.reaches(&drawn, goal) {
                        return drawn;
                    }
                }
            }
            How::Exchange(tree) => {
                let n = self.ground.vertices;
                let mut order: Vec<usize> = (0..n).collect();
                shuffle(&mut order, rng);
                let mut onto = vec![false; n];
                for &v in &order[..n - goal.blanks()] {
                    onto[v] = true;
                }
                let mut cells = tree.carry(goal.cells(), &onto);
                let class = tree.exchange_classes(&onto);
                let mut members: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
                for v in (0..n).filter(|&v| onto[v]) {
                    members.entry(class[v]).or_default().push(v);
                }
                for vertices in members.values() {
                    let mut labels: Vec<u32> = vertices.iter().map(|&v| cells[v]).collect();
                    shuffle(&mut labels, rng);
                    for (&v, l) in vertices.iter().zip(labels) {
                        cells[v] = l;
                    }
                }
                Tokens::new(cells).expect("the goal's blanks")
            }
            How::Theorem => self.by_theorem(rng),
        }
    }

    /// On a path or a cycle, the blanks' places uniform among all and the tokens in the goal's
    /// order (on a cycle, from a uniform one of its rotations: each distinct rotation as
    /// often); elsewhere a uniform shuffle of the tokens, which on a bipartite graph with one
    /// blank and distinct tiles is half the time in the other class, and then taken to this
    /// one by a swap of two tiles (a bijection between the two classes).
    fn by_theorem(&self, rng: &mut Rng) -> Tokens {
        let (ground, goal) = (&self.ground, &self.goal);
        let n = ground.vertices;
        if ground.path || ground.case == Case::Cycle {
            let order = &ground.cycle_order;
            let mut sequence: Vec<u32> = order
                .iter()
                .map(|&v| goal.cells()[v])
                .filter(|&t| t != 0)
                .collect();
            if ground.case == Case::Cycle && !ground.path && !sequence.is_empty() {
                let r = rng.below(sequence.len() as u64) as usize;
                sequence.rotate_left(r);
            }
            // The places along the order that hold blanks: k of n, uniform.
            let mut places: Vec<usize> = (0..n).collect();
            shuffle(&mut places, rng);
            let mut blank = vec![false; n];
            for &i in &places[..goal.blanks()] {
                blank[i] = true;
            }
            let mut cells = vec![0; n];
            let mut next = sequence.into_iter();
            for (i, &v) in order.iter().enumerate() {
                if !blank[i] {
                    cells[v] = next.next().expect("as many tokens as places left");
                }
            }
            return Tokens::new(cells).expect("the goal's blanks");
        }
        let mut cells = goal.cells().to_vec();
        shuffle(&mut cells, rng);
        let shuffled = Tokens::new(cells.clone()).expect("the goal's blanks");
        let reached = decide(ground, &shuffled, goal, self.colour());
        if matches!(reached, Ok(Some(true))) {
            return shuffled;
        }
        // One blank and distinct tiles on a bipartite graph: the other half.
        let tiles: Vec<usize> = (0..n).filter(|&v| cells[v] != 0).take(2).collect();
        cells.swap(tiles[0], tiles[1]);
        let swapped = Tokens::new(cells).expect("the goal's blanks");
        debug_assert!(matches!(
            decide(ground, &swapped, goal, self.colour()),
            Ok(Some(true))
        ));
        swapped
    }
}

/// Fisher and Yates' shuffle.
fn shuffle<T>(items: &mut [T], rng: &mut Rng) {
    for i in (1..items.len()).rev() {
        items.swap(i, rng.below(i as u64 + 1) as usize);
    }
}

/// `tokens` with its one blank walked to vertex `to` along the tree `g`'s path.
fn blank_walked(g: &impl Adjacency, tokens: &Tokens, to: usize) -> Tokens {
    let toward = g.toward(to);
    let mut cells = tokens.cells().to_vec();
    let mut at = cells.iter().position(|&x| x == 0).expect("a blank");
    while at != to {
        cells.swap(at, toward[at]);
        at = toward[at];
    }
    Tokens::new(cells).expect("the blank kept")
}

/// On a tree with one blank, whether `start` is `goal` once its blank walks home along the
/// tree's one path to the goal's blank vertex (a blank's walk on a tree is undone by walking
/// it back, so an arrangement is fixed by where its blank is). Linear in the vertices.
fn blank_walked_home(g: &impl Adjacency, start: &Tokens, goal: &Tokens) -> bool {
    let home = goal.cells().iter().position(|&x| x == 0).expect("a blank");
    blank_walked(g, start, home) == *goal
}

/// `Err` unless `start` and `goal` hold the same tokens.
fn same_tokens(start: &Tokens, goal: &Tokens) -> Result<(), Error> {
    if start.len() != goal.len() || start.multiplicities() != goal.multiplicities() {
        return Err(Error::Board(format!(
            "the start holds {} and the goal {}: no move changes the tokens",
            start.notation(),
            goal.notation()
        )));
    }
    Ok(())
}

/// Whether `start` reaches `goal` on a board of `shape`, of any size (as `predict_board`), in
/// time linear in its cells.
pub fn reaches_on_board(shape: Shape, start: &Tokens, goal: &Tokens) -> Result<bool, Error> {
    let ground = Ground::of_board(shape);
    let colour = |v: usize| Some(shape.colour(crate::puzzle::board::Cell(v)) as u8);
    Ok(decide(&ground, start, goal, colour)?.expect("every board is decided"))
}

/// The decision: the same tokens; on a path the same order, on a cycle the same cyclic
/// order; on a 2-connected graph with two blanks, or one and a repeated label, always (not
/// θ0); with one blank and distinct tiles, Wilson's parity on a bipartite graph (the
/// permutation from the goal to the start is even exactly when the blanks' cells have one
/// colour), always on another; otherwise undecided.
fn decide(
    ground: &Ground,
    start: &Tokens,
    goal: &Tokens,
    colour: impl Fn(usize) -> Option<u8>,
) -> Result<Option<bool>, Error> {
    same_tokens(start, goal)?;
    let tokens_in = |t: &Tokens, order: &[usize]| -> Vec<u32> {
        order
            .iter()
            .map(|&v| t.cells()[v])
            .filter(|&x| x != 0)
            .collect()
    };
    if ground.path {
        return Ok(Some(
            tokens_in(start, &ground.cycle_order) == tokens_in(goal, &ground.cycle_order),
        ));
    }
    if ground.case == Case::Cycle {
        let (a, b) = (
            tokens_in(start, &ground.cycle_order),
            tokens_in(goal, &ground.cycle_order),
        );
        return Ok(Some(is_rotation(&a, &b)));
    }
    let k = goal.blanks();
    let distinct = goal.tiles_distinct();
    match ground.case {
        Case::Separable => Ok(None),
        Case::Theta0 if k == 1 => Ok(None),
        _ if k >= 2 || !distinct => Ok(Some(true)),
        Case::Bipartite => {
            let blank = |t: &Tokens| t.cells().iter().position(|&x| x == 0).expect("a blank");
            let (from, to) = (blank(start), blank(goal));
            let same_colour = colour(from) == colour(to);
            Ok(Some(even(start, goal) == same_colour))
        }
        _ => Ok(Some(true)),
    }
}

/// Whether `b` is a rotation of `a` (of equal lengths): `b` found in `a` twice over by
/// Knuth, Morris and Pratt's search, in linear time.
fn is_rotation(a: &[u32], b: &[u32]) -> bool {
    let n = b.len();
    if n == 0 {
        return a.is_empty();
    }
    // fail[i]: the longest proper border of b[..=i].
    let mut fail = vec![0usize; n];
    let mut k = 0;
    for i in 1..n {
        while k > 0 && b[i] != b[k] {
            k = fail[k - 1];
        }
        k += usize::from(b[i] == b[k]);
        fail[i] = k;
    }
    let mut k = 0;
    for &x in a.iter().chain(a) {
        while k > 0 && x != b[k] {
            k = fail[k - 1];
        }
        k += usize::from(x == b[k]);
        if k == n {
            return true;
        }
    }
    false
}

/// Whether the permutation of cells taking `goal`'s tokens to `start`'s (all distinct, the
/// blank one of them) is even: its cycles counted, in linear time.
fn even(start: &Tokens, goal: &Tokens) -> bool {
    let n = goal.len();
    let mut at = std::collections::HashMap::with_capacity(n);
    for (v, &t) in goal.cells().iter().enumerate() {
        at.insert(t, v);
    }
    let to: Vec<usize> = start.cells().iter().map(|t| at[t]).collect();
    let mut seen = vec![false; n];
    let mut cycles = 0;
    for v in 0..n {
        if !seen[v] {
            cycles += 1;
            let mut w = v;
            while !seen[w] {
                seen[w] = true;
                w = to[w];
            }
        }
    }
    (n - cycles).is_multiple_of(2)
}

/// The vertices of a path in its order, from an end.
fn path_order(g: &impl Adjacency) -> Vec<usize> {
    let end = (0..g.vertices()).find(|&v| g.degree(v) <= 1).unwrap_or(0);
    walk_order(g, end)
}

/// The vertices of a cycle in its order, from vertex 0.
fn cycle_order(g: &impl Adjacency) -> Vec<usize> {
    walk_order(g, 0)
}

/// The vertices of a path or a cycle (every degree at most 2) in their order from `first`,
/// each step to the neighbour not yet walked.
fn walk_order(g: &impl Adjacency, first: usize) -> Vec<usize> {
    let n = g.vertices();
    let mut seen = vec![false; n];
    seen[first] = true;
    let mut order = vec![first];
    while order.len() < n {
        let here = *order.last().expect("a vertex");
        let next = g.neighbours(here).find(|&v| !seen[v]);
        let next = next.expect("a path or a cycle goes on");
        seen[next] = true;
        order.push(next);
    }
    order
}

fn classes(ground: &Ground, tokens: &Tokens) -> Option<Classes> {
    let n = ground.vertices;
    assert_eq!(tokens.len(), n, "a token a vertex");
    let k = tokens.blanks();
    let all = tokens.arrangements();
    let one = BigUint::from(1u32);
    if k == 1 && tokens.tiles_distinct() {
        // Wilson's classification, as he states it (the cycle's (n-2)! components, the tree
        // formula where the ground is a graph: (n-1)! components of n, as `wilson::predict`;
        // a line of a board is a path, below).
        let parts = match ground.case {
            Case::Cycle => factorial(n as u64 - 2),
            Case::Bipartite => 2u32.into(),
            Case::Theta0 => 6u32.into(),
            Case::Other => one.clone(),
            Case::Separable if ground.tree => {
                let (size, count) = (BigUint::from(n), factorial(n as u64 - 1));
                return Some(Classes::one(Source::Tree, size, count));
            }
            Case::Separable => BigUint::ZERO,
        };
        if parts > BigUint::ZERO {
            return Some(Classes::one(Source::Wilson, &all / &parts, parts));
        }
    }
    if k == n || all == one {
        return Some(Classes::one(Source::Trivial, all, one));
    }
    if k == 1 && ground.tree && !ground.path {
        // The tree formula with repeated labels too: a class is the n places of the blank.
        let size = BigUint::from(n);
        let count = &all / &size;
        return Some(Classes::one(Source::Tree, size, count));
    }
    if ground.path {
        let placements = binomial(n, k);
        let orders = &all / &placements;
        return Some(Classes::one(Source::Path, placements, orders));
    }
    if ground.case == Case::Cycle {
        return Some(necklaces(n, tokens, &ground.cycle_order));
    }
    match ground.case {
        Case::Bipartite | Case::Other | Case::Theta0 if k >= 2 => {
            Some(Classes::one(Source::Kms, all, one))
        }
        Case::Bipartite | Case::Other => Some(Classes::one(Source::Wilson, all, one)),
        _ => None,
    }
}

/// The classes on a cycle of `n` vertices: one a necklace of the tokens' labels. Of the
/// linear sequences of least period d (counted by Möbius inversion over the periods that the
/// labels' multiplicities allow), each necklace holds d, and its class C(n, k) · d
/// arrangements.
fn necklaces(n: usize, tokens: &Tokens, order: &[usize]) -> Classes {
    let m = tokens.multiplicities();
    let labels: Vec<usize> = m.iter().filter(|(&l, _)| l != 0).map(|(_, &c)| c).collect();
    let p: usize = labels.iter().sum();
    let placements = binomial(n, n - p);
    // Sequences of length d with each multiplicity scaled by d / p: those of period dividing d.
    let of_period_dividing = |d: usize| -> BigUint {
        if labels.iter().any(|&c| !(c * d).is_multiple_of(p)) {
            return BigUint::ZERO;
        }
        labels.iter().fold(factorial(d as u64), |acc, &c| {
            acc / factorial((c * d / p) as u64)
        })
    };
    let mut sizes = BTreeMap::new();
    for d in (1..=p).filter(|d| p.is_multiple_of(*d)) {
        let (mut plus, mut minus) = (BigUint::ZERO, BigUint::ZERO);
        for e in (1..=d).filter(|e| d % e == 0) {
            match mobius(d / e) {
                1 => plus += of_period_dividing(e),
                -1 => minus += of_period_dividing(e),
                _ => {}
            }
        }
        let primitive = plus - minus;
        if primitive > BigUint::ZERO {
            sizes.insert(&placements * d, primitive / d);
        }
    }
    // The goal's tokens read round the cycle, blanks left out, and their least period.
    let sequence: Vec<u32> = order
        .iter()
        .map(|&v| tokens.cells()[v])
        .filter(|&t| t != 0)
        .collect();
    let period = (1..=p)
        .find(|&d| p.is_multiple_of(d) && (0..p).all(|i| sequence[i] == sequence[(i + d) % p]))
        .expect("p is a period");
    Classes {
        theorem: Source::Cycle,
        sizes,
        goal: placements * period,
    }
}

/// The Möbius function of `n` ≥ 1.
fn mobius(mut n: usize) -> i8 {
    let mut sign = 1;
    let mut f = 2;
    while f * f <= n {
        if n.is_multiple_of(f) {
            n /= f;
            if n.is_multiple_of(f) {
                return 0;
            }
            sign = -sign;
        }
        f += 1;
    }
    if n > 1 {
        sign = -sign;
    }
    sign
}

/// C(n, k).
fn binomial(n: usize, k: usize) -> BigUint {
    factorial(n as u64) / (factorial(k as u64) * factorial((n - k) as u64))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::family;

    fn sizes(c: &Classes) -> Vec<(u64, u64)> {
        c.sizes
            .iter()
            .map(|(s, n)| (s.try_into().unwrap(), n.try_into().unwrap()))
            .collect()
    }

    #[test]
    fn a_cycle_keeps_the_cyclic_order() {
        let c6 = family::cycle(6).unwrap();
        // One blank, distinct tiles: Wilson's (n-2)! = 24 components of n(n-1) = 30.
        let t = Tokens::distinct(6, 5);
        assert_eq!(sizes(&predict(&c6, &t).unwrap()), [(30, 24)]);
        // Tokens 1 1 2 2 and two blanks: sequences 1122 (period 4, one necklace of 4: 1122,
        // 1221, 2211, 2112) and 1212 (period 2: 1212, 2121); C(6,2) = 15 placements.
        let t = Tokens::parse("1 1 2 2 0 0", 6).unwrap();
        let c = predict(&c6, &t).unwrap();
        assert_eq!(sizes(&c), [(30, 1), (60, 1)]);
        assert_eq!(c.arrangements(), t.arrangements());
    }

    #[test]
    fn paths_keep_the_order_and_two_blanks_free_the_rest() {
        let t = Tokens::parse("1 2 3 0 0", 5).unwrap();
        // 3! orders, each in C(5,2) = 10 placements.
        assert_eq!(
            sizes(&predict(&family::path(5).unwrap(), &t).unwrap()),
            [(10, 6)]
        );
        let theta = family::theta0();
        let t = Tokens::parse("1 2 3 4 5 0 0", 7).unwrap();
        let c = predict(&theta, &t).unwrap();
        assert_eq!((c.theorem, sizes(&c)), (Source::Kms, vec![(2520, 1)]));
        // One blank on θ0: Wilson's six classes of 840; with a pair of one colour, the orbits
        // of its group: 3 classes of 840 (as the walk splits them, docs/results/pebbles).
        assert_eq!(
            sizes(&predict(&theta, &Tokens::distinct(7, 6)).unwrap()),
            [(840, 6)]
        );
        let repeated = Tokens::parse("1 1 2 3 4 5 0", 7).unwrap();
        assert_eq!(sizes(&predict(&theta, &repeated).unwrap()), [(840, 3)]);
    }

    #[test]
    fn boards_of_any_size() {
        // 4x4 with coloured rows: one class of 252,252,000 (a repeated label, one blank).
        let t = Tokens::parse("1 1 1 1/2 2 2 2/3 3 3 3/4 4 4 0", 16).unwrap();
        let c = predict_board(Shape::new(4, 4).unwrap(), &t).unwrap();
        assert_eq!((c.count(), c.goal), (1u32.into(), 252_252_000u64.into()));
        // 3x4 with two blanks: all 12!/2 (KMS); with one, the counting theorem's halves.
        let shape = Shape::new(3, 4).unwrap();
        let two = Tokens::parse("1 2 3 4/5 6 7 8/9 10 0 0", 12).unwrap();
        assert_eq!(
            predict_board(shape, &two).unwrap().goal,
            239_500_800u64.into()
        );
        let c = predict_board(shape, &Tokens::distinct(12, 11)).unwrap();
        assert_eq!((c.count(), c.goal), (2u32.into(), 239_500_800u64.into()));
        // 2x2 is a cycle: 1 1 2 0 has one necklace, 12 arrangements; 1 2 / 0 0: one of 12.
        let c = predict_board(
            Shape::new(2, 2).unwrap(),
            &Tokens::parse("1 1/2 0", 4).unwrap(),
        );
        assert_eq!(sizes(&c.unwrap()), [(12, 1)]);
        // A line of 5 with two blanks and tokens 1 1 2: the 3 orders, each in C(5,2) = 10.
        let c = predict_board(
            Shape::new(1, 5).unwrap(),
            &Tokens::parse("1 1 2 0 0", 5).unwrap(),
        );
        assert_eq!(sizes(&c.unwrap()), [(10, 3)]);
        // 100x100 with two blanks: every arrangement, 10000!/2.
        let big = Shape::new(100, 100).unwrap();
        let mut cells: Vec<u32> = (1..=9998).collect();
        cells.extend([0, 0]);
        let t = Tokens::new(cells).unwrap();
        assert_eq!(predict_board(big, &t).unwrap().goal, t.arrangements());
    }

    #[test]
    fn a_cycle_s_goal_class_is_its_necklace_s() {
        let c6 = family::cycle(6).unwrap();
        // 1 2 1 2 round the cycle (vertices 0..6 in order): period 2, 15 · 2 = 30.
        let alternating = Tokens::parse("1 2 1 2 0 0", 6).unwrap();
        assert_eq!(predict(&c6, &alternating).unwrap().goal, 30u32.into());
        let paired = Tokens::parse("1 1 2 2 0 0", 6).unwrap();
        assert_eq!(predict(&c6, &paired).unwrap().goal, 60u32.into());
    }

    #[test]
    fn a_repeated_label_frees_the_parity() {
        let g = family::grid(3, 3).unwrap();
        let t = Tokens::parse("1 1 2 3 4 5 6 7 0", 9).unwrap();
        let c = predict(&g, &t).unwrap();
        assert_eq!((c.theorem, sizes(&c)), (Source::Wilson, vec![(181_440, 1)]));
        assert_eq!(mobius(1), 1);
        assert_eq!((mobius(6), mobius(4), mobius(7)), (1, 0, -1));
    }

    /// The linear search for a rotation against the definition (some shift r with b[i] =
    /// a[(i + r) mod n] for every i), over every pair of words of up to 6 letters of 2 or 3.
    #[test]
    fn rotations_are_found_as_the_definition_finds_them() {
        let words = |n: usize, letters: u32| -> Vec<Vec<u32>> {
            (0..letters.pow(n as u32))
                .map(|mut x| {
                    (0..n)
                        .map(|_| {
                            let d = x % letters;
                            x /= letters;
                            d + 1
                        })
                        .collect()
                })
                .collect()
        };
        for (n, letters) in [(0, 2), (1, 2), (4, 2), (6, 2), (4, 3), (5, 3)] {
            for a in words(n, letters) {
                for b in words(n, letters) {
                    let by_definition =
                        n == 0 || (0..n).any(|r| (0..n).all(|i| b[i] == a[(i + r) % n]));
                    assert_eq!(is_rotation(&a, &b), by_definition, "{a:?} {b:?}");
                }
            }
        }
    }
}

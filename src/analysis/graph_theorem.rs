//! The theorems checked on a graph, or on every graph of a list: the arrangements of a goal's
//! tokens walked into the classes the moves connect (`bfs::walk`) and compared with what the
//! theorems predict from their statements (`graph::pebbles`: Wilson's classification with one
//! blank, Kornhauser, Miller and Spirakis with several, the orders paths and cycles keep).

use std::io::{BufRead, Read};

use rayon::prelude::*;

use crate::bfs::walk::{walk, walk_tokens, Walk};
use crate::error::Error;
use crate::graph::pebbles::{predict, Classes};
use crate::graph::wilson::Case;
use crate::graph::{graph6, Graph};
use crate::puzzle::tokens::Tokens;

/// A graph's puzzle walked and set beside the theorem.
#[derive(Clone, Debug)]
pub struct GraphTheorem {
    /// The graph's graph6 string.
    pub graph6: String,
    /// The number of vertices.
    pub vertices: usize,
    /// The number of edges.
    pub edges: usize,
    /// Whether the graph has no odd cycle.
    pub bipartite: bool,
    /// Whether the graph is 2-connected.
    pub biconnected: bool,
    /// Its case in Wilson's classification.
    pub case: Case,
    /// The goal's tokens, one a vertex.
    pub tokens: Tokens,
    /// What a theorem predicts, where one applies.
    pub classes: Option<Classes>,
    /// The goal's first blank vertex (0-based).
    pub blank: usize,
    /// What the walk found.
    pub walk: Walk,
}

impl GraphTheorem {
    /// Whether the walk found what the prediction says (`None` where no theorem applies): as
    /// many classes of each size, and the goal's class of its size.
    pub fn agrees(&self) -> Option<bool> {
        self.classes.as_ref().map(|c| {
            let predicted: Option<std::collections::BTreeMap<u64, u64>> = c
                .sizes
                .iter()
                .map(|(s, n)| Some((u64::try_from(s).ok()?, u64::try_from(n).ok()?)))
                .collect();
            predicted == Some(self.walk.sizes())
                && u64::try_from(&c.goal).ok() == Some(self.walk.goal_states())
        })
    }
}

/// Walks the puzzle on `graph` with the goal's blank on `blank` (0-based), and sets it beside
/// the theorem; `progress` is told the configurations walked.
pub fn verify(
    graph: &Graph,
    blank: usize,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<GraphTheorem, Error> {
    if blank >= graph.vertices() {
        // `walk` names the vertex.
        walk(graph, blank, progress)?;
    }
    verify_tokens(graph, &Tokens::distinct(graph.vertices(), blank), progress)
}

/// Walks the arrangements of `tokens` on `graph` (the classic goal by the permutations' ranks,
/// any other by the multiset's) and sets them beside the theorems.
pub fn verify_tokens(
    graph: &Graph,
    tokens: &Tokens,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<GraphTheorem, Error> {
    let blank = tokens
        .cells()
        .iter()
        .position(|&t| t == 0)
        .expect("a blank");
    let walk = if *tokens == Tokens::distinct(tokens.len(), blank) {
        walk(graph, blank, progress)?
    } else {
        walk_tokens(graph, tokens, progress)?
    };
    Ok(GraphTheorem {
        graph6: graph6::encode(graph),
        vertices: graph.vertices(),
        edges: graph.edges(),
        bipartite: graph.is_bipartite(),
        biconnected: graph.is_biconnected(),
        case: Case::of(graph),
        classes: predict(graph, tokens),
        tokens: tokens.clone(),
        blank,
        walk,
    })
}

/// Checks every graph of `graphs` with each goal `goals` gives it, on every thread; `done` is
/// called once per (graph, goal) checked.
pub fn sweep(
    graphs: &[Graph],
    goals: &(dyn Fn(&Graph) -> Vec<Tokens> + Sync),
    done: &(dyn Fn() + Sync),
) -> Result<Vec<GraphTheorem>, Error> {
    let jobs: Vec<(&Graph, Tokens)> = graphs
        .iter()
        .flat_map(|g| goals(g).into_iter().map(move |t| (g, t)))
        .collect();
    jobs.par_iter()
        .map(|(g, t)| {
            let found = verify_tokens(g, t, &|_| {});
            done();
            found
        })
        .collect()
}

/// The goals of a sweep on `n` vertices with `blanks` blanks: the tiles 1, 2, … on the first
/// vertices and the blanks on the last; with `colours` (sizes of colour classes, e.g. 2, 2),
/// the first tiles in those classes (1 1 2 2 …) and the rest distinct. None if they do not fit
/// (no tile left, or more coloured tokens than tiles).
pub fn sweep_goal(n: usize, blanks: usize, colours: &[usize]) -> Option<Tokens> {
    if blanks == 0 || blanks >= n {
        return None;
    }
    let tiles = n - blanks;
    let coloured: usize = colours.iter().sum();
    if coloured > tiles {
        return None;
    }
    let mut cells: Vec<u32> = colours
        .iter()
        .enumerate()
        .flat_map(|(i, &m)| std::iter::repeat_n(i as u32 + 1, m))
        .collect();
    let next = colours.len() as u32 + 1;
    cells.extend(next..next + (tiles - coloured) as u32);
    cells.extend(std::iter::repeat_n(0, blanks));
    Tokens::new(cells).ok()
}

/// The longest line of a graph6 list: a graph of `MAX_VERTICES` vertices takes 21 characters
/// (a longer line, a device's endless bytes, is refused, not read to its end).
const LONGEST_LINE: u64 = 4096;

/// The graphs of a graph6 list, each once, and the lines that repeated one.
#[derive(Clone, Debug, Default)]
pub struct Graph6List {
    /// The graphs in the order of their first lines.
    pub graphs: Vec<Graph>,
    /// `(line, first)`: line `line` is the graph of line `first` again (1-based), skipped.
    pub repeats: Vec<(usize, usize)>,
}

/// The graphs of a graph6 list, one a line (nauty's output; the header and blank lines
/// allowed), each error naming its line.
pub fn read_graph6_list(text: &str) -> Result<Graph6List, Error> {
    read_graph6_lines(text.as_bytes())
}

/// The graphs of a graph6 list read from `input` (a file, stdin), line by line. A graph is
/// kept once: a line that encodes one already read is noted in `repeats` and skipped, so that
/// each graph is one row of `graphs.csv` and counted once.
pub fn read_graph6_lines(mut input: impl std::io::BufRead) -> Result<Graph6List, Error> {
    let mut list = Graph6List::default();
    let mut first_line = std::collections::HashMap::new();
    let mut line = vec![];
    for number in 1.. {
        line.clear();
        let read = (&mut input)
            .take(LONGEST_LINE)
            .read_until(b'\n', &mut line)
            .map_err(|e| Error::Graph(format!("line {number}: {e}")))?;
        if read == 0 {
            break;
        }
        if line.last() != Some(&b'\n') && read as u64 == LONGEST_LINE {
            return Err(Error::Graph(format!(
                "line {number} is longer than {LONGEST_LINE} bytes: not graph6 of a graph the \
                 index takes"
            )));
        }
        let text = String::from_utf8_lossy(&line);
        let text = text.trim();
        if text.is_empty() {
            continue;
        }
        let graph = graph6::decode(text).map_err(|e| match e {
            Error::Graph(why) => Error::Graph(format!("line {number}: {why}")),
            e => e,
        })?;
        match first_line.entry(graph6::encode(&graph)) {
            std::collections::hash_map::Entry::Occupied(first) => {
                list.repeats.push((number, *first.get()));
            }
            std::collections::hash_map::Entry::Vacant(slot) => {
                slot.insert(number);
                list.graphs.push(graph);
            }
        }
    }
    Ok(list)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::family;

    #[test]
    fn theta0_has_six_components_of_840() {
        let t = verify(&family::theta0(), 6, &|_| {}).unwrap();
        assert_eq!(t.case, Case::Theta0);
        assert_eq!(t.walk.sizes(), [(840, 6)].into());
        assert_eq!(t.agrees(), Some(true));
    }

    #[test]
    fn theta0_with_two_blanks_is_one_class() {
        let goal = sweep_goal(7, 2, &[]).unwrap();
        assert_eq!(goal.to_string(), "1 2 3 4 5 0 0");
        let t = verify_tokens(&family::theta0(), &goal, &|_| {}).unwrap();
        assert_eq!(t.walk.sizes(), [(2520, 1)].into());
        assert_eq!(t.agrees(), Some(true));
        assert_eq!(
            sweep_goal(6, 2, &[2, 2]).unwrap().to_string(),
            "1 1 2 2 0 0"
        );
        assert_eq!(sweep_goal(6, 3, &[2, 2]), None);
        assert_eq!(sweep_goal(4, 4, &[]), None);
    }

    #[test]
    fn a_list_names_its_bad_line() {
        let err = read_graph6_list("Dhc\n\nD??\n").unwrap_err().to_string();
        assert!(
            err.contains("line 3") && err.contains("not connected"),
            "{err}"
        );
        assert_eq!(
            read_graph6_list(">>graph6<<Dhc\nDQc\n")
                .unwrap()
                .graphs
                .len(),
            2
        );
        let repeated = read_graph6_list("Dhc\nDQc\nDhc\n\nDhc\n").unwrap();
        assert_eq!(repeated.graphs.len(), 2);
        assert_eq!(repeated.repeats, [(3, 1), (5, 1)]);
        let endless = std::io::BufReader::new(std::io::repeat(b'?'));
        let err = read_graph6_lines(endless).unwrap_err().to_string();
        assert!(err.contains("line 1 is longer"), "{err}");
    }
}

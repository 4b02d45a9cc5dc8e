//! Wilson's theorem checked on a graph, or on every graph of a list: the puzzle's components
//! walked (`bfs::walk`) and compared with what the classification predicts
//! (`graph::wilson`).

use std::io::{BufRead, Read};

use rayon::prelude::*;

use crate::bfs::walk::{walk, Walk};
use crate::error::Error;
use crate::graph::wilson::{predict, Case, Prediction};
use crate::graph::{graph6, Graph};

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
    /// What a theorem predicts, where one applies.
    pub prediction: Option<Prediction>,
    /// The goal's blank vertex (0-based).
    pub blank: usize,
    /// What the walk found.
    pub walk: Walk,
}

impl GraphTheorem {
    /// Whether the walk found what the prediction says (`None` where no theorem applies): that
    /// many components, each of that size.
    pub fn agrees(&self) -> Option<bool> {
        self.prediction.map(|p| {
            let sizes = self.walk.sizes();
            sizes.len() == 1 && sizes.get(&p.size) == Some(&p.components)
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
    let walk = walk(graph, blank, progress)?;
    Ok(GraphTheorem {
        graph6: graph6::encode(graph),
        vertices: graph.vertices(),
        edges: graph.edges(),
        bipartite: graph.is_bipartite(),
        biconnected: graph.is_biconnected(),
        case: Case::of(graph),
        prediction: predict(graph),
        blank,
        walk,
    })
}

/// Checks every graph of `graphs`, each with the goal's blank on its last vertex, on every
/// thread; `done` is called once per graph checked.
pub fn sweep(graphs: &[Graph], done: &(dyn Fn() + Sync)) -> Result<Vec<GraphTheorem>, Error> {
    graphs
        .par_iter()
        .map(|g| {
            let t = verify(g, g.vertices() - 1, &|_| {});
            done();
            t
        })
        .collect()
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

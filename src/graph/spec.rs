//! What `--graph SPEC` names: a family of `family`, a graph6 string, or a file holding a graph
//! (graph6, or an edge list of `u v` lines).

use std::path::Path;

use super::sparse::Sparse;
use super::{family, graph6, FromEdges, Graph};
use crate::error::Error;

/// The families a SPEC may name, as a user would be shown them.
pub const FAMILIES: &str = "grid:RxC, torus:RxC, cylinder:RxC, cycle:N, path:N, complete:N, \
     complete:A,B, theta:A,B,C, theta0, petersen, hypercube:D, graph6:STRING, or a file";

/// A graph and the SPEC it was named by.
#[derive(Clone, Debug)]
pub struct NamedGraph {
    /// The SPEC as given (a family, `graph6:…`, or the file's path).
    pub spec: String,
    /// The graph.
    pub graph: Graph,
}

impl NamedGraph {
    /// The graph `spec` names; files are read.
    pub fn parse(spec: &str) -> Result<NamedGraph, Error> {
        let spec = spec.trim();
        Ok(NamedGraph {
            spec: spec.to_string(),
            graph: parse(spec)?,
        })
    }

    /// The graph's graph6 string.
    pub fn graph6(&self) -> String {
        graph6::encode(&self.graph)
    }
}

fn parse(spec: &str) -> Result<Graph, Error> {
    parse_as(spec)
}

/// The graph `spec` names as a `Sparse`, of any size (`count` and `solvable` on graphs of
/// thousands of vertices); files are read.
pub fn sparse(spec: &str) -> Result<Sparse, Error> {
    parse_as(spec.trim())
}

fn parse_as<G: FromEdges>(spec: &str) -> Result<G, Error> {
    family_as(spec).unwrap_or_else(|| from_file(Path::new(spec)))
}

/// The graph of a family `spec` names, or `None` if it names none (it may be a file).
pub fn family(spec: &str) -> Option<Result<Graph, Error>> {
    family_as(spec)
}

/// `family`, as either kind of graph.
fn family_as<G: FromEdges>(spec: &str) -> Option<Result<G, Error>> {
    let (name, value) = spec.split_once(':').unwrap_or((spec, ""));
    let name = name.to_ascii_lowercase();
    let names = [
        "grid",
        "torus",
        "cylinder",
        "cycle",
        "path",
        "complete",
        "theta",
        "hypercube",
        "graph6",
    ];
    let bare = ["theta0", "petersen"];
    (names.contains(&name.as_str()) || bare.contains(&name.as_str()) && value.is_empty())
        .then(|| named(spec, &name, value))
}

fn named<G: FromEdges>(spec: &str, name: &str, value: &str) -> Result<G, Error> {
    let numbers = |want: usize| numbers(spec, value, want, G::MOST.max(64));
    match name {
        "grid" | "torus" | "cylinder" => {
            let (r, c): (usize, usize) = value
                .split_once(['x', 'X', '×'])
                .and_then(|(r, c)| Some((r.trim().parse().ok()?, c.trim().parse().ok()?)))
                .ok_or_else(|| {
                    Error::Graph(format!(
                        "`{spec}`: give the size as {name}:RxC, e.g. {name}:3x4"
                    ))
                })?;
            // Before the cells are listed: 10^6 x 10^6 would be 10^12 of them.
            if r.saturating_mul(c) > G::MOST {
                let n = u128::from(r as u64) * u128::from(c as u64);
                return Err(match G::too_many(n) {
                    Error::Graph(why) => Error::Graph(format!("`{spec}`: {why}")),
                    other => other,
                });
            }
            family::wrapped(r, c, name == "torus", name != "grid")
        }
        "cycle" => family::cycle_of(numbers(1)?[0]),
        "path" => family::path_of(numbers(1)?[0]),
        "complete" if value.contains(',') => {
            let ab = numbers(2)?;
            family::complete_bipartite_of(ab[0], ab[1])
        }
        "complete" => family::complete_of(numbers(1)?[0]),
        "theta" => {
            let abc = numbers(3)?;
            family::theta_of([abc[0], abc[1], abc[2]])
        }
        "theta0" => family::theta_of([1, 2, 2]),
        "petersen" => {
            let edges = family::petersen().edge_list();
            G::from_edges(10, &edges, 1)
        }
        "hypercube" => family::hypercube_of(numbers(1)?[0]),
        _ => graph6::decode_as(value),
    }
}

/// `want` comma-separated counts after a family's colon, each at most `most`.
fn numbers(spec: &str, value: &str, want: usize, most: usize) -> Result<Vec<usize>, Error> {
    let parsed: Option<Vec<usize>> = value.split(',').map(|v| v.trim().parse().ok()).collect();
    match parsed {
        Some(v) if v.len() == want && v.iter().all(|&k| k <= most) => Ok(v),
        _ => Err(Error::Graph(format!(
            "`{spec}` needs {want} number{} after the colon",
            if want == 1 { "" } else { "s, comma-separated," }
        ))),
    }
}

/// The graph in the file at `path`: one graph6 line, or an edge list; a file longer than the
/// kind's `LONGEST_FILE` is refused, not read to its end.
fn from_file<G: FromEdges>(path: &Path) -> Result<G, Error> {
    let read = |path: &Path| -> std::io::Result<String> {
        use std::io::Read;
        // A FIFO or a device is refused before it is opened (opening a FIFO waits for a
        // writer; a device may never end).
        if !std::fs::metadata(path)?.is_file() {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                "not a regular file",
            ));
        }
        let mut text = String::new();
        std::fs::File::open(path)?
            .take(G::LONGEST_FILE + 1)
            .read_to_string(&mut text)?;
        Ok(text)
    };
    let text = match read(path) {
        Ok(text) if text.len() as u64 > G::LONGEST_FILE => {
            return Err(Error::Graph(format!(
                "{} is longer than {} bytes: not a graph of at most {} vertices",
                path.display(),
                G::LONGEST_FILE,
                G::MOST
            )))
        }
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(Error::Graph(format!(
                "`{}` is neither a graph ({FAMILIES}) nor a file",
                path.display()
            )))
        }
        Err(source) => {
            return Err(Error::Read {
                path: path.to_path_buf(),
                source,
            })
        }
    };
    from_text_as(&text).map_err(|e| match e {
        Error::Graph(why) => Error::Graph(format!("{}: {why}", path.display())),
        e => e,
    })
}

/// The graph in a file's text: graph6 (one graph, the optional header allowed) when its first
/// line is one, else an edge list.
pub fn from_text(text: &str) -> Result<Graph, Error> {
    from_text_as(text)
}

/// `from_text`, as either kind of graph.
fn from_text_as<G: FromEdges>(text: &str) -> Result<G, Error> {
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    let is_graph6 = |l: &str| {
        let l = l.strip_prefix(graph6::HEADER).unwrap_or(l);
        !l.is_empty() && l.bytes().all(|b| (63..=126).contains(&b))
    };
    match lines.as_slice() {
        [] => Err(Error::Graph("the file holds no graph".into())),
        [one] if is_graph6(one) => graph6::decode_as(one),
        [first, ..] if is_graph6(first) => Err(Error::Graph(format!(
            "the file holds {} graph6 lines; give one graph (theorem --graph6 reads many)",
            lines.len()
        ))),
        _ => edge_list(&lines),
    }
}

/// An edge list: `u v` a line, vertices numbered from 1 (or from 0, when some line names 0).
fn edge_list<G: FromEdges>(lines: &[&str]) -> Result<G, Error> {
    let most = G::MOST.max(64);
    let mut edges = vec![];
    for (i, line) in lines.iter().enumerate() {
        let ends: Vec<&str> = line
            .split([' ', '\t', ','])
            .filter(|w| !w.is_empty())
            .collect();
        let pair = match ends.as_slice() {
            [u, v] => u.parse::<usize>().ok().zip(v.parse::<usize>().ok()),
            _ => None,
        };
        let Some((u, v)) = pair.filter(|&(u, v)| u.max(v) <= most) else {
            return Err(Error::Graph(format!(
                "line {} `{line}` is not an edge `u v` (two vertex numbers up to {most})",
                i + 1
            )));
        };
        edges.push((u, v));
    }
    let base = usize::from(edges.iter().all(|&(u, v)| u > 0 && v > 0));
    let n = edges.iter().map(|&(u, v)| u.max(v)).max().unwrap_or(0) + 1 - base;
    let edges: Vec<_> = edges.iter().map(|&(u, v)| (u - base, v - base)).collect();
    G::from_edges(n, &edges, base)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_family_is_named() {
        for (spec, vertices, edges) in [
            ("grid:2x3", 6, 7),
            ("torus:3x3", 9, 18),
            ("cylinder:2x4", 8, 12),
            ("cycle:5", 5, 5),
            ("path:4", 4, 3),
            ("complete:4", 4, 6),
            ("complete:2,3", 5, 6),
            ("theta:1,2,2", 7, 8),
            ("theta0", 7, 8),
            ("petersen", 10, 15),
            ("hypercube:3", 8, 12),
            ("graph6:Dhc", 5, 5),
        ] {
            let g = NamedGraph::parse(spec).unwrap().graph;
            assert_eq!((g.vertices(), g.edges()), (vertices, edges), "{spec}");
        }
    }

    #[test]
    fn bad_specs_say_what_was_expected() {
        let err = |s: &str| NamedGraph::parse(s).unwrap_err().to_string();
        assert!(err("grid:3").contains("grid:RxC"));
        assert!(err("theta:1,2").contains("3 numbers"));
        assert!(err("cycle:x").contains("1 number"));
        assert!(err("nonesuch").contains("neither a graph"));
        assert!(err("torus:5x5").contains("at most 16"));
        assert!(err("grid:1000000x1000000").contains("1000000000000 vertices"));
    }

    #[test]
    fn edge_lists_are_told_of_their_own_numbers() {
        let err = |text: &str| from_text(text).unwrap_err().to_string();
        assert!(err("0 1\n1 2\n0 0\n").contains("vertex 0 has a loop"));
        assert!(err("0 1\n1 2\n2 1\n").contains("the edge 1 2 is given twice"));
        assert!(err("0 1\n2 3\n").contains("vertex 2 cannot be reached from vertex 0"));
        assert!(err("1 2\n2 2\n").contains("vertex 2 has a loop"));
        assert!(err("1 2\n3 4\n").contains("vertex 3 cannot be reached from vertex 1"));
    }

    #[test]
    fn edge_lists_from_one_or_from_zero() {
        let from_one = from_text("# a square\n1 2\n2 3\n3 4\n4 1\n").unwrap();
        let from_zero = from_text("0 1\n1 2\n2 3\n3 0\n").unwrap();
        assert_eq!(from_one, from_zero);
        assert_eq!(from_one, family::cycle(4).unwrap());
        assert!(from_text("1 2\n2 x\n")
            .unwrap_err()
            .to_string()
            .contains("line 2"));
        assert!(from_text("1 2\n3 4\n")
            .unwrap_err()
            .to_string()
            .contains("not connected"));
        assert!(from_text(">>graph6<<Dhc\n").is_ok());
        assert!(from_text("Dhc\nDhc\n")
            .unwrap_err()
            .to_string()
            .contains("2 graph6"));
    }

    /// The families at sizes past the index, as adjacency lists: the counts of vertices and
    /// edges their definitions give, and at small sizes the same graph as the bit masks'.
    #[test]
    fn sparse_graphs_of_any_size() {
        use crate::graph::Adjacency;
        for (spec, vertices, edges) in [
            ("grid:1000x1000", 1_000_000, 2 * 1000 * 999),
            ("torus:500x500", 250_000, 2 * 250_000),
            ("cylinder:3x1000", 3000, 3000 + 2 * 1000),
            ("cycle:100000", 100_000, 100_000),
            ("path:100000", 100_000, 99_999),
            ("complete:2000", 2000, 2000 * 1999 / 2),
            ("complete:3,5000", 5003, 15_000),
            ("theta:100,200,300", 602, 603),
            ("hypercube:20", 1 << 20, 20 << 19),
        ] {
            let g = sparse(spec).unwrap();
            assert_eq!((g.vertices(), g.edges()), (vertices, edges), "{spec}");
        }
        for spec in [
            "grid:2x3",
            "torus:3x3",
            "cylinder:2x4",
            "theta0",
            "petersen",
            "graph6:Dhc",
        ] {
            let g = NamedGraph::parse(spec).unwrap().graph;
            assert_eq!(sparse(spec).unwrap(), Sparse::of(&g), "{spec}");
        }
        let square = from_text_as::<Sparse>("1000 2000\n2000 3000\n3000 1000\n");
        assert!(square
            .unwrap_err()
            .to_string()
            .contains("vertex 2 cannot be reached from vertex 1"));
        let err = |s: &str| sparse(s).unwrap_err().to_string();
        assert!(err("grid:2000x2000").contains("at most 1048576"));
        assert!(err("complete:100000").contains("100000 vertices"));
        assert!(err("hypercube:21").contains("dimensions 1 to 20"));
    }
}

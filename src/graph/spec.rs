//! What `--graph SPEC` names: a family of `family`, a graph6 string, or a file holding a graph
//! (graph6, or an edge list of `u v` lines).

use std::path::Path;

use super::{family, graph6, Graph};
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
    family(spec).unwrap_or_else(|| from_file(Path::new(spec)))
}

/// The graph of a family `spec` names, or `None` if it names none (it may be a file).
pub fn family(spec: &str) -> Option<Result<Graph, Error>> {
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

fn named(spec: &str, name: &str, value: &str) -> Result<Graph, Error> {
    let numbers = |want: usize| numbers(spec, value, want);
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
            if r.saturating_mul(c) > super::MAX_VERTICES {
                return Err(Error::Graph(format!(
                    "`{spec}` has {} vertices; a puzzle's index takes at most {}",
                    u128::from(r as u64) * u128::from(c as u64),
                    super::MAX_VERTICES
                )));
            }
            match name {
                "grid" => family::grid(r, c),
                "torus" => family::torus(r, c),
                _ => family::cylinder(r, c),
            }
        }
        "cycle" => family::cycle(numbers(1)?[0]),
        "path" => family::path(numbers(1)?[0]),
        "complete" if value.contains(',') => {
            let ab = numbers(2)?;
            family::complete_bipartite(ab[0], ab[1])
        }
        "complete" => family::complete(numbers(1)?[0]),
        "theta" => {
            let abc = numbers(3)?;
            family::theta([abc[0], abc[1], abc[2]])
        }
        "theta0" => Ok(family::theta0()),
        "petersen" => Ok(family::petersen()),
        "hypercube" => family::hypercube(numbers(1)?[0]),
        _ => graph6::decode(value),
    }
}

/// `want` comma-separated counts after a family's colon.
fn numbers(spec: &str, value: &str, want: usize) -> Result<Vec<usize>, Error> {
    let parsed: Option<Vec<usize>> = value.split(',').map(|v| v.trim().parse().ok()).collect();
    match parsed {
        Some(v) if v.len() == want && v.iter().all(|&k| k <= 64) => Ok(v),
        _ => Err(Error::Graph(format!(
            "`{spec}` needs {want} number{} after the colon",
            if want == 1 { "" } else { "s, comma-separated," }
        ))),
    }
}

/// The longest file a graph is read from: an edge list of a graph the index takes is far
/// shorter (a device or a wrong file is refused, not read to its end).
const LONGEST_FILE: u64 = 1 << 20;

/// The graph in the file at `path`: one graph6 line, or an edge list.
fn from_file(path: &Path) -> Result<Graph, Error> {
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
            .take(LONGEST_FILE + 1)
            .read_to_string(&mut text)?;
        Ok(text)
    };
    let text = match read(path) {
        Ok(text) if text.len() as u64 > LONGEST_FILE => {
            return Err(Error::Graph(format!(
                "{} is longer than {LONGEST_FILE} bytes: not a graph of at most {} vertices",
                path.display(),
                super::MAX_VERTICES
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
    from_text(&text).map_err(|e| match e {
        Error::Graph(why) => Error::Graph(format!("{}: {why}", path.display())),
        e => e,
    })
}

/// The graph in a file's text: graph6 (one graph, the optional header allowed) when its first
/// line is one, else an edge list.
pub fn from_text(text: &str) -> Result<Graph, Error> {
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
        [one] if is_graph6(one) => graph6::decode(one),
        [first, ..] if is_graph6(first) => Err(Error::Graph(format!(
            "the file holds {} graph6 lines; give one graph (theorem --graph6 reads many)",
            lines.len()
        ))),
        _ => edge_list(&lines),
    }
}

/// An edge list: `u v` a line, vertices numbered from 1 (or from 0, when some line names 0).
fn edge_list(lines: &[&str]) -> Result<Graph, Error> {
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
        let Some((u, v)) = pair.filter(|&(u, v)| u.max(v) <= 64) else {
            return Err(Error::Graph(format!(
                "line {} `{line}` is not an edge `u v` (two vertex numbers up to 64)",
                i + 1
            )));
        };
        edges.push((u, v));
    }
    let base = usize::from(edges.iter().all(|&(u, v)| u > 0 && v > 0));
    let n = edges.iter().map(|&(u, v)| u.max(v)).max().unwrap_or(0) + 1 - base;
    let edges: Vec<_> = edges.iter().map(|&(u, v)| (u - base, v - base)).collect();
    Graph::numbered(n, &edges, base)
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
}

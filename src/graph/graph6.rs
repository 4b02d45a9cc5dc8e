//! graph6, the format of nauty's tools (McKay, `formats.txt`): the vertex count, then the upper
//! triangle of the adjacency matrix column by column (`x(0,1) x(0,2) x(1,2) x(0,3) …`), six bits
//! a character, each character the bits' value plus 63.

use super::{FromEdges, Graph};
use crate::error::Error;

/// The optional header a graph6 file may open with.
pub const HEADER: &str = ">>graph6<<";

/// What a line in another of nauty's formats, or with a byte-order mark, is, by its first
/// characters (`formats.txt`: sparse6 lines begin with `:`, incremental sparse6 with `;`,
/// digraph6 with `&`).
fn other_format(text: &str) -> Option<&'static str> {
    if text.starts_with(':') || text.starts_with(">>sparse6<<") {
        Some("a sparse6 line (it begins with `:`)")
    } else if text.starts_with(';') {
        Some("an incremental sparse6 line (it begins with `;`)")
    } else if text.starts_with('&') || text.starts_with(">>digraph6<<") {
        Some("a digraph6 line (it begins with `&`)")
    } else if text.starts_with('\u{feff}') {
        Some("it begins with a byte-order mark (U+FEFF): save the file as plain ASCII")
    } else {
        None
    }
}

/// The graph a graph6 string (one line, without its newline) encodes.
pub fn decode(text: &str) -> Result<Graph, Error> {
    decode_as(text)
}

/// `decode`, as either kind of graph.
pub fn decode_as<G: FromEdges>(text: &str) -> Result<G, Error> {
    let bad = |why: String| Error::Graph(format!("graph6 `{}`: {why}", shown(text)));
    let text = text.strip_prefix(HEADER).unwrap_or(text);
    if let Some(other) = other_format(text) {
        return Err(bad(format!("{other}; only graph6 is read")));
    }
    let bytes = text.as_bytes();
    if let Some(i) = bytes.iter().position(|b| !(63..=126).contains(b)) {
        return Err(bad(format!(
            "character {} is not one of graph6's (`?` to `~`)",
            i + 1
        )));
    }
    let (n, body) = match bytes {
        [] => return Err(bad("it is empty".into())),
        [126, 126, rest @ ..] => (big(rest, 6), rest.get(6..)),
        [126, rest @ ..] => (big(rest, 3), rest.get(3..)),
        [first, rest @ ..] => (Some(u64::from(first - 63)), Some(rest)),
    };
    let (Some(n), Some(body)) = (n, body) else {
        return Err(bad("its vertex count is cut short".into()));
    };
    if n > G::MOST as u64 {
        return Err(G::too_many(n.into()));
    }
    let n = n as usize;
    let pairs = n * n.saturating_sub(1) / 2;
    let want = pairs.div_ceil(6);
    if body.len() != want {
        return Err(bad(format!(
            "{n} vertices need {want} characters of edges, it has {}",
            body.len()
        )));
    }
    let bit = |k: usize| (body[k / 6] - 63) >> (5 - k % 6) & 1 == 1;
    if (pairs..want * 6).any(bit) {
        return Err(bad(
            "the padding bits after the last edge are not zero".into()
        ));
    }
    let mut edges = vec![];
    let mut k = 0;
    for v in 1..n {
        for u in 0..v {
            if bit(k) {
                edges.push((u, v));
            }
            k += 1;
        }
    }
    G::from_edges(n, &edges, 1)
}

/// The graph6 string of `g`.
pub fn encode(g: &Graph) -> String {
    let n = g.vertices();
    let mut bits = vec![];
    for v in 1..n {
        for u in 0..v {
            bits.push(g.neighbour_mask(v) >> u & 1 == 1);
        }
    }
    let mut out = String::new();
    out.push(char::from(63 + n as u8));
    for chunk in bits.chunks(6) {
        let value = (0..6).fold(0u8, |acc, i| {
            acc << 1 | u8::from(chunk.get(i) == Some(&true))
        });
        out.push(char::from(63 + value));
    }
    out
}

/// The vertex count in `digits` characters of six bits (graph6's forms for 63 and more).
fn big(rest: &[u8], digits: usize) -> Option<u64> {
    let digits = rest.get(..digits)?;
    Some(
        digits
            .iter()
            .fold(0u64, |acc, &b| acc << 6 | u64::from(b - 63)),
    )
}

/// `text` cut to a length that fits a one-line message.
fn shown(text: &str) -> String {
    match text.char_indices().nth(40) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lines of nauty's other formats, and a byte-order mark, are named as what they are.
    #[test]
    fn other_formats_are_named() {
        for (line, words) in [
            (":Fa@x^", "a sparse6 line"),
            (";Fa@x^", "an incremental sparse6 line"),
            ("&DI?AO?", "a digraph6 line"),
            ("\u{feff}Dhc", "byte-order mark"),
            (">>sparse6<<:Fa@x^", "a sparse6 line"),
        ] {
            let e = decode(line).unwrap_err().to_string();
            assert!(
                e.contains(words) && e.contains("only graph6 is read"),
                "{e}"
            );
        }
    }

    /// What nauty's own tools say of two strings (`nauty-listg -e`, `nauty-amtog`): `Dhc` is
    /// the 5-cycle 0-1-2-3-4, `DQc` the path with edges 0-2, 0-4, 1-3, 3-4.
    #[test]
    fn strings_read_as_nauty_reads_them() {
        let g = decode("Dhc").unwrap();
        assert_eq!(g.edge_list(), vec![(0, 1), (0, 4), (1, 2), (2, 3), (3, 4)]);
        assert_eq!(encode(&g), "Dhc");
        assert_eq!(decode(">>graph6<<Dhc").unwrap(), g);
        let p = decode("DQc").unwrap();
        assert_eq!(p.edge_list(), vec![(0, 2), (0, 4), (1, 3), (3, 4)]);
        assert_eq!(encode(&p), "DQc");
    }

    #[test]
    fn malformed_strings_are_refused() {
        let err = |s: &str| decode(s).unwrap_err().to_string();
        assert!(err("").contains("empty"));
        assert!(err("Dh").contains("need 2 characters"));
        assert!(err("Dhcc").contains("need 2 characters"));
        assert!(err("D c").contains("character 2"));
        assert!(err("~").contains("cut short"));
        assert!(err("~??~").contains("63 vertices"), "{}", err("~??~"));
        // 3 vertices: 3 bits of edges, so the last three bits of the one character are padding.
        assert!(err("Bx").contains("padding"));
        assert!(decode("Bw").is_ok(), "the triangle");
        assert!(err("B?").contains("not connected"));
    }
}

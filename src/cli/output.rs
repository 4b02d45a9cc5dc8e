//! What commands print for people and programs: counts with their nouns, text made fit for
//! one line of a terminal, and JSON documents.

use anyhow::Result;

/// `n` and `noun`, in the plural unless `n` is 1: `1 move`, `2 moves`, `0 moves`.
pub fn counted(n: u64, noun: &str) -> String {
    match (n, noun) {
        (1, _) => format!("1 {noun}"),
        (n, "vertex") => format!("{n} vertices"),
        (n, "class") => format!("{n} classes"),
        (n, _) => format!("{n} {noun}s"),
    }
}

/// `text` fit for one line of a terminal: control characters (escape codes, line breaks)
/// escaped, each run of more than `LONGEST_WORD` characters without a space (a 100 MB token
/// of a board file, say) cut to its start and end, and the whole to at most 1000 characters.
pub fn printable(text: &str) -> String {
    const LONGEST_WORD: usize = 120;
    let mut out = String::with_capacity(text.len().min(4096));
    for (i, word) in text.split(' ').enumerate() {
        if i > 0 {
            out.push(' ');
        }
        let chars = word.chars().count();
        let escape = |out: &mut String, s: &str| {
            for c in s.chars() {
                if c.is_control() {
                    out.extend(c.escape_default());
                } else {
                    out.push(c);
                }
            }
        };
        if chars <= LONGEST_WORD {
            escape(&mut out, word);
        } else {
            let head: String = word.chars().take(LONGEST_WORD / 2).collect();
            let tail: String = word.chars().skip(chars - 20).collect();
            escape(&mut out, &head);
            out += &format!("…[{} characters cut]…", chars - LONGEST_WORD / 2 - 20);
            escape(&mut out, &tail);
        }
    }
    // A message of many words (a board of thousands of tiles) keeps its start and its end.
    const LONGEST: usize = 1000;
    let chars = out.chars().count();
    if chars > LONGEST {
        let head: String = out.chars().take(LONGEST - 200).collect();
        let tail: String = out.chars().skip(chars - 200).collect();
        out = format!("{head}…[{} characters cut]…{tail}", chars - LONGEST);
    }
    out
}

/// Prints the first `shown` of `antipodes` (as their text) a line each, and how many more
/// there are.
pub fn print_antipodes(
    out: &mut impl std::io::Write,
    antipodes: &[impl std::fmt::Display],
    shown: usize,
) -> std::io::Result<()> {
    for a in antipodes.iter().take(shown) {
        writeln!(out, "  antipode: {a}")?;
    }
    if antipodes.len() > shown {
        writeln!(out, "  ... and {} more antipodes", antipodes.len() - shown)?;
    }
    Ok(())
}

/// Prints one JSON document on stdout (the `--json` output of every command).
pub fn print_json(doc: &impl serde::Serialize) -> Result<()> {
    use std::io::Write;
    // Written as it is rendered (a long solution's document runs to gigabytes); a failed write
    // (a closed pipe) reaches `main` as the io::Error it is.
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    serde_json::to_writer_pretty(&mut out, doc).map_err(std::io::Error::from)?;
    writeln!(out)?;
    out.flush()?;
    Ok(())
}

/// The line of figures under an analysis's first line: eccentricity, antipodes, mean, median
/// and the widest layer, whose members are `noun`s (states, arrangements).
pub fn figures_line(
    out: &mut impl std::io::Write,
    d: &tilespace::analysis::distribution::Distribution,
    antipodes: usize,
    noun: &str,
) -> Result<()> {
    let (widest, width) = d.widest();
    writeln!(
        out,
        "  eccentricity {}, {}, mean {}, median {}, widest layer at depth {widest} ({})",
        d.eccentricity(),
        counted(antipodes as u64, "antipode"),
        d.mean().with_decimal(6),
        d.median(),
        counted(width, noun)
    )?;
    Ok(())
}

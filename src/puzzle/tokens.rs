//! Tokens: what sits on each cell of a board or vertex of a graph, when labels may repeat and
//! several cells may be empty (pebble motion). Equal labels are indistinguishable tokens of one
//! colour; `0` is a blank. The classic puzzle is the case of distinct labels `1..n-1` and one
//! blank.
//!
//! An arrangement is a placement of the goal's tokens: a permutation of its multiset of labels.
//! There are n! / (m₀! · m₁! · …) of them, mᵢ the number of tokens labelled i (the blanks
//! among them). `notation` writes the multiset as `1^4 2^4 3^4 4^3 0`: each label with its
//! multiplicity, the blanks last.

use std::collections::BTreeMap;
use std::fmt;

use num_bigint::BigUint;

use crate::error::Error;
use crate::puzzle::count::factorial;

/// The token on each cell (a board's, in reading order) or vertex (a graph's, in its order):
/// labels from 1, `0` for a blank. At least one blank.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Tokens {
    cells: Vec<u32>,
}

impl Tokens {
    /// Tokens read from `text`: labels separated by spaces or commas, a board's rows by `/` (or
    /// new lines), `cells` of them in all.
    pub fn parse(text: &str, cells: usize) -> Result<Tokens, Error> {
        let mut labels = vec![];
        for word in text.split(|c: char| c.is_whitespace() || c == ',' || c == '/') {
            if word.is_empty() {
                continue;
            }
            let label = word.parse::<u32>().map_err(|_| {
                Error::Board(format!(
                    "'{word}' is not a token: use numbers, 1 and up for tiles and 0 for a blank"
                ))
            })?;
            labels.push(label);
        }
        if labels.len() != cells {
            return Err(Error::Board(format!(
                "it names {} tokens, but the puzzle has {cells} cells",
                labels.len()
            )));
        }
        Tokens::new(labels)
    }

    /// Tokens read from `text` for a board of `shape`: as `parse`, and a text that draws rows
    /// (split by `/` or new lines) must draw that board.
    pub fn parse_board(text: &str, shape: crate::puzzle::board::Shape) -> Result<Tokens, Error> {
        if text.contains('/') || text.contains('\n') {
            let drawn = Tokens::shape_of(text)?;
            if drawn != shape {
                return Err(Error::Board(format!(
                    "the tokens draw a {drawn} board, but the board is {shape}"
                )));
            }
        }
        Tokens::parse(text, shape.cells())
    }

    /// The board a board string of tokens draws: its rows split by `/` (or new lines), each
    /// of as many tokens.
    pub fn shape_of(text: &str) -> Result<crate::puzzle::board::Shape, Error> {
        let rows: Vec<usize> = text
            .split(['/', '\n'])
            .map(|r| {
                r.split(|c: char| c.is_whitespace() || c == ',')
                    .filter(|w| !w.is_empty())
                    .count()
            })
            .filter(|&n| n > 0)
            .collect();
        match rows.first() {
            Some(&cols) if rows.iter().all(|&r| r == cols) => {
                crate::puzzle::board::Shape::new(rows.len(), cols)
            }
            _ => Err(Error::Board(format!(
                "'{text}' is not a board: its rows (split by /) must hold as many tokens each"
            ))),
        }
    }

    /// The tokens `cells`, checked: at least one blank.
    pub fn new(cells: Vec<u32>) -> Result<Tokens, Error> {
        if !cells.contains(&0) {
            return Err(Error::Board(
                "the goal has no blank (0): no token can move".into(),
            ));
        }
        Ok(Tokens { cells })
    }

    /// The classic goal of `cells` cells: tiles 1, 2, … in order around one blank on `blank`.
    pub fn distinct(cells: usize, blank: usize) -> Tokens {
        let mut labels: Vec<u32> = (1..cells as u32).collect();
        labels.insert(blank, 0);
        Tokens { cells: labels }
    }

    /// The token on each cell.
    pub fn cells(&self) -> &[u32] {
        &self.cells
    }

    /// The number of cells.
    pub fn len(&self) -> usize {
        self.cells.len()
    }

    /// Never: a goal has a blank at least.
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    /// The number of blanks.
    pub fn blanks(&self) -> usize {
        self.cells.iter().filter(|&&t| t == 0).count()
    }

    /// How many tokens carry each label, the blanks (`0`) among them.
    pub fn multiplicities(&self) -> BTreeMap<u32, usize> {
        let mut m = BTreeMap::new();
        for &t in &self.cells {
            *m.entry(t).or_insert(0) += 1;
        }
        m
    }

    /// Every label but the blank's names one token: the classic puzzle's tokens, whatever the
    /// number of blanks.
    pub fn tiles_distinct(&self) -> bool {
        self.multiplicities()
            .iter()
            .all(|(&label, &m)| label == 0 || m == 1)
    }

    /// The number of arrangements of these tokens: n! / ∏ mᵢ!.
    pub fn arrangements(&self) -> BigUint {
        self.multiplicities()
            .values()
            .fold(factorial(self.len() as u64), |n, &m| {
                n / factorial(m as u64)
            })
    }

    /// The multiset as a reader writes it: `1^4 2^4 3^4 4^3 0`, labels in increasing order, a
    /// multiplicity of one left out, the blanks last.
    pub fn notation(&self) -> String {
        let m = self.multiplicities();
        let term = |label: u32, count: usize| match count {
            1 => label.to_string(),
            k => format!("{label}^{k}"),
        };
        let mut terms: Vec<String> = m
            .iter()
            .filter(|(&label, _)| label != 0)
            .map(|(&label, &count)| term(label, count))
            .collect();
        terms.push(term(0, m[&0]));
        terms.join(" ")
    }
}

/// The tokens in cell order, space-separated (a graph's goal as `--goal` takes it).
impl Tokens {
    /// The tokens as a board string of `cols` columns: rows split by `/`.
    pub fn rows(&self, cols: usize) -> String {
        let words: Vec<String> = self.cells.iter().map(u32::to_string).collect();
        words
            .chunks(cols.max(1))
            .map(|row| row.join(" "))
            .collect::<Vec<_>>()
            .join("/")
    }
}

impl fmt::Display for Tokens {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let words: Vec<String> = self.cells.iter().map(u32::to_string).collect();
        f.write_str(&words.join(" "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_coloured_fifteen_puzzle() {
        let t = Tokens::parse("1 1 1 1/2 2 2 2/3 3 3 3/4 4 4 0", 16).unwrap();
        assert_eq!(t.notation(), "1^4 2^4 3^4 4^3 0");
        // 16! / (4! 4! 4! 3!) (the figure, and 20922789888000 / 82944).
        assert_eq!(t.arrangements(), BigUint::from(252_252_000u64));
        assert_eq!(t.blanks(), 1);
        assert!(!t.tiles_distinct());
    }

    #[test]
    fn several_blanks_and_the_classic_goal() {
        let t = Tokens::parse("1 2 3 4/5 6 7 8/9 10 0 0", 12).unwrap();
        assert_eq!(t.blanks(), 2);
        assert!(t.tiles_distinct());
        assert_eq!(t.arrangements(), BigUint::from(239_500_800u64)); // 12!/2
        assert_eq!(t.notation(), "1 2 3 4 5 6 7 8 9 10 0^2");
        let classic = Tokens::distinct(9, 8);
        assert_eq!(classic.to_string(), "1 2 3 4 5 6 7 8 0");
        assert_eq!(classic.arrangements(), BigUint::from(362_880u32));
        let graph = Tokens::parse("1,1,2,2,3,3,0,0,0,0", 10).unwrap();
        assert_eq!(graph.notation(), "1^2 2^2 3^2 0^4");
    }

    #[test]
    fn bad_goals_are_refused_in_one_line() {
        for (text, cells, says) in [
            ("1 2 3", 4, "names 3 tokens"),
            ("1 2 3 4", 4, "no blank"),
            ("1 x 0 2", 4, "'x' is not a token"),
            ("1 -2 0 3", 4, "'-2' is not a token"),
        ] {
            let e = Tokens::parse(text, cells).unwrap_err().to_string();
            assert!(e.contains(says) && !e.contains('\n'), "{text}: {e}");
        }
    }
}

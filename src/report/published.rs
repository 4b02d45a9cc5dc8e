//! Published figures to check the reports against (`tilespace check`): the number of states at
//! each depth from OEIS, and the radii of OEIS A151944, each stated as a fact with its source;
//! and in both metrics the complete distributions of O. Tarakanov's searches and of
//! lightln2/SlidingTilesSolver's tests, corner goals and other goal cells (`data/reference/`,
//! the one copy the tests read too).
//! The distributions are symmetric under transposition, and the same for every corner (or
//! every mid-side cell) of a board, as its symmetries map them onto each other.

use serde::Serialize;

use crate::puzzle::metric::Metric;
use crate::report::SummaryRow;

/// Where the goal's blank is, as the sequences say it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Blank {
    /// One of the four corners.
    Corner,
    /// The center cell (3x3).
    Center,
    /// The middle of a side (of a 3x3).
    MidSide,
}

/// States at each depth of one board, as published.
#[derive(Clone, Copy, Debug)]
pub struct Sequence {
    /// The OEIS number, `A089473`.
    pub oeis: &'static str,
    /// Rows and columns (either way round).
    pub board: (usize, usize),
    /// Where the goal's blank is.
    pub blank: Blank,
    /// a(0), a(1), …: the first terms, or all of them.
    pub terms: &'static [u64],
    /// `terms` is the whole distribution (the sequence is finite and complete there); else the
    /// OEIS data section lists only its start (the rest is in a b-file).
    pub complete: bool,
    /// What it counts, and who first published it.
    pub name: &'static str,
}

/// The moves the sequences of `SEQUENCES` count: one tile, one cell.
pub const SEQUENCES_METRIC: Metric = Metric::Single;

/// The sequences, their terms as the OEIS lists them.
pub const SEQUENCES: [Sequence; 9] = [
    Sequence {
        oeis: "A089473",
        board: (3, 3),
        blank: Blank::Corner,
        terms: &[
            1, 2, 4, 8, 16, 20, 39, 62, 116, 152, 286, 396, 748, 1024, 1893, 2512, 4485, 5638,
            9529, 10878, 16993, 17110, 23952, 20224, 24047, 15578, 14560, 6274, 3910, 760, 221, 2,
        ],
        complete: true,
        name: "8-puzzle, blank in a corner (Reinefeld 1993)",
    },
    Sequence {
        oeis: "A089474",
        board: (3, 3),
        blank: Blank::Center,
        terms: &[
            1, 4, 8, 8, 16, 32, 60, 72, 136, 200, 376, 512, 964, 1296, 2368, 3084, 5482, 6736,
            11132, 12208, 18612, 18444, 24968, 19632, 22289, 13600, 11842, 4340, 2398, 472, 148,
        ],
        complete: true,
        name: "8-puzzle, blank in the center",
    },
    Sequence {
        oeis: "A089483",
        board: (3, 3),
        blank: Blank::MidSide,
        terms: &[
            1, 3, 5, 10, 14, 28, 42, 80, 108, 202, 278, 524, 726, 1348, 1804, 3283, 4193, 7322,
            8596, 13930, 14713, 21721, 19827, 25132, 18197, 18978, 9929, 7359, 2081, 878, 126, 2,
        ],
        complete: true,
        name: "8-puzzle, blank at the middle of a side",
    },
    Sequence {
        oeis: "A090034",
        board: (3, 2),
        blank: Blank::Corner,
        terms: &[
            1, 2, 3, 5, 6, 7, 10, 12, 12, 16, 23, 25, 28, 39, 44, 40, 29, 21, 18, 12, 6, 1,
        ],
        complete: true,
        name: "3x2 puzzle, blank in a corner (Karlemo and Östergård 2000)",
    },
    Sequence {
        oeis: "A090035",
        board: (4, 2),
        blank: Blank::Corner,
        terms: &[
            1, 2, 3, 6, 10, 14, 19, 28, 42, 61, 85, 119, 161, 215, 293, 396, 506, 632, 788, 985,
            1194, 1414, 1664, 1884, 1999, 1958, 1770, 1463, 1076, 667, 361, 190, 88, 39, 19, 7, 1,
        ],
        complete: true,
        name: "4x2 puzzle, blank in a corner (Karlemo and Östergård 2000)",
    },
    Sequence {
        oeis: "A090036",
        board: (5, 2),
        blank: Blank::Corner,
        terms: &[
            1, 2, 3, 6, 11, 19, 30, 44, 68, 112, 176, 271, 411, 602, 851, 1232, 1783, 2530, 3567,
            4996, 6838, 9279, 12463, 16597, 21848, 28227, 35682, 44464, 54597, 65966, 78433, 91725,
            104896, 116966, 126335, 131998, 133107, 128720, 119332, 106335, 91545, 75742, 60119,
            45840, 33422, 23223, 15140, 9094, 5073, 2605, 1224, 528, 225, 75, 20, 2,
        ],
        complete: true,
        name: "5x2 puzzle, blank in a corner",
    },
    Sequence {
        oeis: "A090166",
        board: (4, 3),
        blank: Blank::Corner,
        terms: &[
            1, 2, 4, 9, 20, 37, 63, 122, 232, 431, 781, 1392, 2494, 4442, 7854, 13899, 24215,
            41802, 71167, 119888, 198363, 323206, 515778, 811000, 1248011, 1885279, 2782396,
            4009722, 5621354, 7647872, 10065800, 12760413, 15570786, 18171606, 20299876, 21587248,
            21841159, 20906905, 18899357, 16058335, 12772603, 9515217, 6583181, 4242753, 2503873,
            1350268, 643245, 270303, 92311, 27116, 5390, 1115, 86, 18,
        ],
        complete: true,
        name: "4x3 (11-)puzzle, blank in a corner (Karlemo and Östergård 2000)",
    },
    Sequence {
        oeis: "A090167",
        board: (6, 2),
        blank: Blank::Corner,
        terms: &[
            1, 2, 3, 6, 11, 20, 36, 60, 95, 155, 258, 426, 688, 1106, 1723, 2615, 3901, 5885, 8851,
            13205, 19508, 28593, 41179, 58899, 83582, 118109, 165136, 228596, 312542, 423797,
            568233, 755727, 994641, 1296097, 1667002, 2119476, 2660415, 3300586, 4038877,
        ],
        complete: false,
        name: "6x2 puzzle, blank in a corner (data section: depths 0 to 38)",
    },
    Sequence {
        oeis: "A346736",
        board: (7, 2),
        blank: Blank::Corner,
        terms: &[
            1, 2, 3, 6, 11, 20, 37, 67, 117, 198, 329, 557, 942, 1575, 2597, 4241, 6724, 10535,
            16396, 25515, 39362, 60532, 92089, 138969, 207274, 307725, 453000, 664240, 964874,
            1392975, 1992353, 2832063, 3988528, 5586275, 7756511, 10698721, 14621717, 19840724,
            26676629,
        ],
        complete: false,
        name: "7x2 puzzle, blank in a corner (Korf 2008, Rokicki; data section: depths 0 to 38)",
    },
];

/// The sequences.
pub fn sequences() -> &'static [Sequence] {
    &SEQUENCES
}

/// The eccentricity (most moves any state needs, blank in a corner) of R x C boards, from OEIS
/// A151944 (Korf 2008 and Rokicki for the larger ones): (rows, columns, eccentricity), either way
/// round; 1 x n is a path of n - 1.
pub const ECCENTRICITIES: [(usize, usize, u32); 11] = [
    (2, 2, 6),
    (2, 3, 21),
    (2, 4, 36),
    (2, 5, 55),
    (2, 6, 80),
    (2, 7, 108),
    (2, 8, 140),
    (3, 3, 31),
    (3, 4, 53),
    (3, 5, 84),
    (4, 4, 80),
];

/// One comparison of a report with a published figure.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Comparison {
    /// The board compared, `RxC`.
    pub board: String,
    /// Its goal blank, `R,C`.
    pub goal_blank: String,
    /// `OEIS A089473` and what it counts.
    pub source: String,
    /// What was compared: `depths 0-31 (all)`, `eccentricity`.
    pub compared: String,
    /// They are the same.
    pub agrees: bool,
    /// Where they differ, if they do.
    pub detail: String,
}

/// Whether a board of `r`x`c` is one of `rows`x`cols`, or its transpose.
fn same_board(r: usize, c: usize, rows: usize, cols: usize) -> bool {
    (r, c) == (rows, cols) || (r, c) == (cols, rows)
}

/// Where the row's goal blank is: a corner, the center of a 3x3, or the middle of a side of a
/// 3x3; None elsewhere.
fn blank_of(row: &SummaryRow) -> Option<Blank> {
    let (r, c) = row.goal_blank.split_once(',')?;
    let (r, c): (usize, usize) = (r.trim().parse().ok()?, c.trim().parse().ok()?);
    let edge_r = r == 1 || r == row.rows;
    let edge_c = c == 1 || c == row.cols;
    match (edge_r, edge_c) {
        (true, true) => Some(Blank::Corner),
        _ if (row.rows, row.cols) != (3, 3) => None,
        (false, false) => Some(Blank::Center),
        _ => Some(Blank::MidSide),
    }
}

/// A complete distribution, as published: the board, the goal's blank cell (0-based row and
/// column), the source, and the states at depths 0, 1, ….
#[derive(Clone, Debug)]
pub struct PublishedDistribution {
    /// Rows and columns.
    pub board: (usize, usize),
    /// The goal's blank cell, (row, column) from 0.
    pub goal: (usize, usize),
    /// Who published it.
    pub source: &'static str,
    /// a(0), a(1), … to the last depth.
    pub terms: Vec<u64>,
}

/// The files of `data/reference/` (copied from the project's shared reference, whose README
/// gives every source and convention), by name: `index.csv` and one distribution a file.
const REFERENCE: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/reference.rs"));

/// Who published a reference file, named from its `# source:` line: Tarakanov's complete
/// searches (the results of lightln2/SlidingTilesSolver), or that repository's tests.
fn source_of(text: &'static str) -> &'static str {
    let line = text.lines().next().unwrap_or_default();
    if line.contains("SlidingTilesSolver") && line.contains("/results/") {
        "Tarakanov 2023 (lightln2/SlidingTilesSolver results)"
    } else if line.contains("SlidingTilesSolver") {
        "lightln2/SlidingTilesSolver tests"
    } else if line.contains("PuzzleSearch") {
        "lightln2/PuzzleSearch tests"
    } else {
        line.trim_start_matches("# source:").trim()
    }
}

/// The published complete distributions in `metric`: the files of `data/reference/` its
/// `index.csv` marks complete, but for the OEIS's (`sequences` holds those, a source of
/// their own).
pub fn distributions(metric: Metric) -> Vec<PublishedDistribution> {
    let file = |name: &str| {
        REFERENCE
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, text)| *text)
            .expect("a file index.csv names")
    };
    file("index.csv")
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect::<Vec<&str>>())
        .filter(|f| f[3].parse::<Metric>().ok() == Some(metric))
        .filter(|f| f[7] == "yes" && !f[0].contains("oeis"))
        .map(|f| {
            let n = |i: usize| f[i].parse::<usize>().expect("a number in index.csv");
            let text = file(f[0]);
            PublishedDistribution {
                board: (n(1), n(2)),
                goal: (n(4), n(5)),
                source: source_of(text),
                terms: text
                    .lines()
                    .filter(|l| l.starts_with(|c: char| c.is_ascii_digit()))
                    .map(|l| {
                        let count = l.split(',').nth(1).expect("depth,count");
                        count.trim().parse().expect("a count")
                    })
                    .collect(),
            }
        })
        .collect()
}

/// Dan Hoey's 8-puzzle table (quoted in OEIS A087725): the most moves from a goal with the
/// blank in a corner, an edge cell or the centre, and how many configurations need them, in
/// each metric.
const HOEY: [(Metric, Blank, u32, u64); 6] = [
    (Metric::Single, Blank::Corner, 31, 2),
    (Metric::Single, Blank::MidSide, 31, 2),
    (Metric::Single, Blank::Center, 30, 148),
    (Metric::Multi, Blank::Corner, 24, 1),
    (Metric::Multi, Blank::MidSide, 24, 2),
    (Metric::Multi, Blank::Center, 24, 4),
];

/// A 3x3 row's eccentricity and antipodes against Hoey's table.
fn compare_hoey(row: &SummaryRow, layers: &[u64], metric: Metric) -> Vec<Comparison> {
    let blank = match blank_of(row) {
        Some(b) if (row.rows, row.cols) == (3, 3) => b,
        _ => return vec![],
    };
    let Some(&(_, _, eccentricity, antipodes)) =
        HOEY.iter().find(|h| h.0 == metric && h.1 == blank)
    else {
        return vec![];
    };
    let here = (layers.len() as u32 - 1, layers.last().copied().unwrap_or(0));
    let detail = if here == (eccentricity, antipodes) {
        String::new()
    } else {
        format!(
            "{eccentricity} moves ({antipodes} configurations) published, {} ({}) here",
            here.0, here.1
        )
    };
    let what = noted(metric, "eccentricity and antipodes");
    vec![Comparison {
        board: row.board.clone(),
        goal_blank: row.goal_blank.clone(),
        source: "Hoey's 8-puzzle table (quoted in OEIS A087725)".into(),
        compared: what,
        agrees: detail.is_empty(),
        detail,
    }]
}

/// The complete distributions published in `metric` for `row`'s board from a goal cell of its
/// goal's class (`atlas::cell_classes`: either orientation), compared with `layers`.
fn compare_complete(row: &SummaryRow, layers: &[u64], metric: Metric) -> Vec<Comparison> {
    let (Ok(shape), Ok(goal)) = (row.shape(), row.goal_cell()) else {
        return vec![];
    };
    let class = crate::analysis::atlas::cell_classes(shape)
        .into_iter()
        .find(|k| k.contains(&goal))
        .expect("every cell has a class");
    let mut out = vec![];
    for s in distributions(metric) {
        let cell = match s.board {
            b if b == (shape.rows, shape.cols) => shape.cell(s.goal.0, s.goal.1),
            b if b == (shape.cols, shape.rows) => shape.cell(s.goal.1, s.goal.0),
            _ => continue,
        };
        if !class.contains(&cell) {
            continue;
        }
        let n = s.terms.len();
        let detail = match (0..n.min(layers.len())).find(|&d| s.terms[d] != layers[d]) {
            Some(d) => format!("depth {d}: {} published, {} here", s.terms[d], layers[d]),
            None if n != layers.len() => {
                format!(
                    "eccentricity {} published, {} here",
                    n - 1,
                    layers.len() - 1
                )
            }
            None => String::new(),
        };
        out.push(Comparison {
            board: row.board.clone(),
            goal_blank: row.goal_blank.clone(),
            source: format!(
                "{} ({}x{}, blank at {},{})",
                s.source,
                s.board.0,
                s.board.1,
                s.goal.0 + 1,
                s.goal.1 + 1
            ),
            compared: noted(metric, &format!("states at depths 0-{} (all)", n - 1)),
            agrees: detail.is_empty(),
            detail,
        });
    }
    out
}

/// `what`, with the metric's note before it where it has one (`multi-tile states at …`).
fn noted(metric: Metric, what: &str) -> String {
    match metric.note() {
        Some(note) => format!("{note} {what}"),
        None => what.to_string(),
    }
}

/// Every published figure that applies to `row`, searched from the goal with states per depth
/// `layers`, compared with it (in the row's metric).
pub fn compare(row: &SummaryRow, layers: &[u64]) -> Vec<Comparison> {
    let mut out = vec![];
    if row.start != "goal" {
        return out;
    }
    let metric = row.metric;
    out.extend(compare_hoey(row, layers, metric));
    out.extend(compare_complete(row, layers, metric));
    if metric != SEQUENCES_METRIC {
        return out;
    }
    let Some(blank) = blank_of(row) else {
        return out;
    };
    for s in sequences() {
        if s.blank != blank || !same_board(s.board.0, s.board.1, row.rows, row.cols) {
            continue;
        }
        let n = s.terms.len();
        let mut detail = String::new();
        if let Some(d) = (0..n.min(layers.len())).find(|&d| s.terms[d] != layers[d]) {
            detail = format!("depth {d}: {} published, {} here", s.terms[d], layers[d]);
        } else if s.complete && n != layers.len() {
            detail = format!(
                "eccentricity {} published, {} here",
                n - 1,
                layers.len() - 1
            );
        } else if n > layers.len() {
            detail = format!("{n} depths published, {} here", layers.len());
        }
        let compared = if s.complete {
            format!("states at depths 0-{} (all)", n - 1)
        } else {
            format!("states at depths 0-{} (of {})", n - 1, layers.len())
        };
        out.push(Comparison {
            board: row.board.clone(),
            goal_blank: row.goal_blank.clone(),
            source: format!("OEIS {}: {}", s.oeis, s.name),
            compared,
            agrees: detail.is_empty(),
            detail,
        });
    }
    if blank == Blank::Corner {
        let published = ECCENTRICITIES
            .iter()
            .find(|&&(r, c, _)| same_board(r, c, row.rows, row.cols))
            .map(|&(_, _, eccentricity)| eccentricity)
            .or((row.rows == 1 || row.cols == 1).then(|| (row.rows * row.cols) as u32 - 1));
        if let Some(eccentricity) = published {
            let here = layers.len() as u32 - 1;
            out.push(Comparison {
                board: row.board.clone(),
                goal_blank: row.goal_blank.clone(),
                source: "OEIS A151944: the most moves the RxC puzzle needs".into(),
                compared: "eccentricity".into(),
                agrees: eccentricity == here && row.eccentricity == here,
                detail: if eccentricity == here && row.eccentricity == here {
                    String::new()
                } else {
                    format!("{eccentricity} published, {here} here")
                },
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every multi-tile distribution typed in sums to (RC)!/2 and starts with the goal alone
    /// and its (R-1)+(C-1) neighbours.
    #[test]
    fn the_multi_tile_figures_are_consistent() {
        let all = distributions(Metric::Multi);
        assert!(all.len() >= 20);
        for s in all {
            let shape = crate::puzzle::board::Shape::new(s.board.0, s.board.1).unwrap();
            let states = crate::puzzle::count::reachable_u64(shape).unwrap();
            assert_eq!(s.terms.iter().sum::<u64>(), states, "{s:?}");
            assert_eq!(
                s.terms[..2],
                [1, (s.board.0 + s.board.1 - 2) as u64],
                "{s:?}"
            );
        }
    }

    /// Every single-tile distribution typed in sums to (RC)!/2, starts with the goal alone and
    /// the blank's neighbours (2 from a corner, 3 from an edge, 4 inside), and a corner's ends at
    /// A151944's eccentricity.
    #[test]
    fn the_complete_single_tile_figures_are_consistent() {
        let all = distributions(Metric::Single);
        assert!(all.len() >= 18);
        for s in all {
            let shape = crate::puzzle::board::Shape::new(s.board.0, s.board.1).unwrap();
            let states = crate::puzzle::count::reachable_u64(shape).unwrap();
            assert_eq!(s.terms.iter().sum::<u64>(), states, "{s:?}");
            let cell = shape.cell(s.goal.0, s.goal.1);
            let neighbours = shape.neighbours(cell).count() as u64;
            assert_eq!(s.terms[..2], [1, neighbours], "{s:?}");
            let corner = s.goal == (0, 0);
            if let Some(&(_, _, r)) = ECCENTRICITIES.iter().find(|&&(r, c, _)| (r, c) == s.board) {
                if corner {
                    assert_eq!(s.terms.len() as u32 - 1, r, "{s:?}");
                }
            }
        }
    }

    /// The typed sequences are checked against facts that do not come from them: a complete
    /// distribution sums to (RC)!/2 and ends at A151944's eccentricity (corner blanks); a partial one
    /// is increasing over its listed start (the layers grow until the middle).
    #[test]
    fn the_typed_figures_are_consistent() {
        for s in sequences() {
            let shape = crate::puzzle::board::Shape::new(s.board.0, s.board.1).unwrap();
            let total: u64 = s.terms.iter().sum();
            let states = crate::puzzle::count::reachable_u64(shape).unwrap();
            if s.complete {
                assert_eq!(total, states, "{}", s.oeis);
                if s.blank == Blank::Corner {
                    let eccentricity = ECCENTRICITIES
                        .iter()
                        .find(|&&(r, c, _)| same_board(r, c, s.board.0, s.board.1))
                        .unwrap()
                        .2;
                    assert_eq!(s.terms.len() as u32 - 1, eccentricity, "{}", s.oeis);
                }
            } else {
                assert!(
                    total < states && s.terms.windows(2).all(|w| w[0] <= w[1]),
                    "{}",
                    s.oeis
                );
            }
        }
    }
}

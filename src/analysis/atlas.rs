//! The atlas of a puzzle, on a board or a graph: the search from a goal in every cell, one cell
//! of each class of cells under the ground's symmetries (a board's reflections and turns, a
//! graph's automorphisms), and what they say of the state graph of one class of configurations.
//!
//! Two goals with the blank in the same cell differ by a relabelling of the tiles, and a
//! symmetry of the board (a reflection, a half turn, on a square a quarter turn or a transpose)
//! maps the moves of one goal's configurations onto another's: both are isomorphisms of the
//! state graph, so the distribution from a goal depends only on its blank cell's class. Over
//! the cells, the largest eccentricity (most moves from a goal) is the graph's **diameter**,
//! the smallest its **radius**, and the mean of the cells' mean distances is the mean distance
//! between two configurations of one class drawn at random (each cell holds the blank in the
//! same number of configurations of a class). On a graph the same holds of an automorphism
//! (it maps the moves of one goal's component onto another's).

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use crate::analysis::distribution::Fraction;
use crate::analysis::{analyze, Analysis, AnalyzeOptions};
use crate::bfs::LayerDone;
use crate::error::Error;
use crate::graph::automorphism::vertex_orbits;
use crate::index::puzzle::{Ground, Puzzle};
use crate::puzzle::board::{Cell, Shape};
use crate::store::checkpoint;

/// The classes of cells of `shape` under its symmetries, each ascending, ordered by their
/// first cell (which stands for the class).
pub fn cell_classes(shape: Shape) -> Vec<Vec<Cell>> {
    let (rows, cols) = (shape.rows, shape.cols);
    let images = |r: usize, c: usize| {
        let (fr, fc) = (rows - 1 - r, cols - 1 - c);
        let mut all = vec![(r, c), (fr, c), (r, fc), (fr, fc)];
        if rows == cols {
            all.extend([(c, r), (fc, r), (c, fr), (fc, fr)]);
        }
        all.into_iter().map(|(r, c)| shape.cell(r, c))
    };
    let mut classes: Vec<Vec<Cell>> = vec![];
    for cell in 0..shape.cells() {
        if classes.iter().any(|k| k.contains(&Cell(cell))) {
            continue;
        }
        let (r, c) = (shape.row(Cell(cell)), shape.col(Cell(cell)));
        let mut class: Vec<Cell> = images(r, c).collect();
        class.sort_by_key(|c| c.0);
        class.dedup();
        classes.push(class);
    }
    classes
}

/// The classes of the goal cells of `puzzle`'s ground: a board's `cell_classes`, a graph's
/// vertex orbits under its automorphisms; each ascending, ordered by their first cell.
pub fn goal_classes(puzzle: &Puzzle) -> Vec<Vec<Cell>> {
    match puzzle.ground() {
        Ground::Board(shape) => cell_classes(*shape),
        Ground::Graph(graph) => vertex_orbits(graph)
            .into_iter()
            .map(|orbit| orbit.into_iter().map(Cell).collect())
            .collect(),
    }
}

/// One class of goal cells: the search from the goal with its blank in the class's first cell.
#[derive(Clone, Debug)]
pub struct CellFigures {
    /// The cells of the class, ascending; the first is the one searched.
    pub cells: Vec<Cell>,
    /// The most moves any configuration needs to reach the goal (the cell's eccentricity).
    pub eccentricity: u32,
    /// Configurations at that distance.
    pub antipodes: usize,
    /// Σ depth · states.
    pub depth_sum: u128,
    /// The states (one class: (RC)!/2).
    pub states: u64,
    /// The smallest depth with at least half the states at or below it.
    pub median: u32,
    /// The search passed its checks (`Analysis::verified`; a search read back from its
    /// reports was verified when it was written).
    pub verified: bool,
}

impl CellFigures {
    /// The figures of the analysis from the goal in `cells[0]`, standing for `cells`.
    pub fn of(a: &Analysis, cells: Vec<Cell>) -> CellFigures {
        let d = &a.distribution;
        CellFigures {
            cells,
            eccentricity: d.eccentricity(),
            antipodes: a.antipodes.len(),
            depth_sum: d.depth_sum(),
            states: d.total(),
            median: d.median(),
            verified: a.verified,
        }
    }

    /// The figures of the states per depth `layers` from the goal in `cells[0]` (a search read
    /// back from its reports), standing for `cells`.
    pub fn from_layers(layers: &[u64], cells: Vec<Cell>) -> CellFigures {
        let d = crate::analysis::distribution::Distribution {
            layers: layers.to_vec(),
        };
        CellFigures {
            cells,
            eccentricity: d.eccentricity(),
            antipodes: layers.last().copied().unwrap_or(0) as usize,
            depth_sum: d.depth_sum(),
            states: d.total(),
            median: d.median(),
            verified: true,
        }
    }

    /// The exact mean distance to the goal.
    pub fn mean(&self) -> Fraction {
        Fraction::new(self.depth_sum, u128::from(self.states))
    }
}

/// The atlas of one puzzle's ground in one metric: every class of goal cells and what they add
/// up to.
#[derive(Clone, Debug)]
pub struct Atlas {
    /// The puzzle, its goal's blank in the first class's first cell.
    pub puzzle: Puzzle,
    /// One entry a class of cells (`goal_classes`).
    pub classes: Vec<CellFigures>,
}

impl Atlas {
    /// The diameter of the state graph: the largest eccentricity, and the cells attaining it.
    pub fn diameter(&self) -> (u32, Vec<Cell>) {
        self.extreme(|a, b| a > b)
    }

    /// The radius: the smallest eccentricity, and the cells attaining it.
    pub fn radius(&self) -> (u32, Vec<Cell>) {
        self.extreme(|a, b| a < b)
    }

    fn extreme(&self, better: impl Fn(u32, u32) -> bool) -> (u32, Vec<Cell>) {
        let classes = self.classes.iter().map(|k| (k.eccentricity, &k.cells[..]));
        extreme(classes, better)
    }

    /// The exact mean distance between two configurations of one class, over every goal cell:
    /// Σ |class| · depth sum / Σ |class| · states.
    pub fn mean_distance(&self) -> Fraction {
        let (mut num, mut den) = (0u128, 0u128);
        for k in &self.classes {
            let n = k.cells.len() as u128;
            num += n * k.depth_sum;
            den += n * u128::from(k.states);
        }
        Fraction::new(num, den)
    }

    /// The board (a graph's puzzle: one row of its vertices).
    pub fn shape(&self) -> Shape {
        self.puzzle.shape()
    }

    /// Every class's search passed its checks.
    pub fn verified(&self) -> bool {
        self.classes.iter().all(|k| k.verified)
    }
}

/// What an atlas keeps between runs, so that one stopped goes on where it was (`atlas
/// --reuse`): the cells already searched, and a checkpoint for the cell in progress.
pub struct Keeping<'a> {
    /// Where the searches are kept.
    pub kept: &'a dyn Kept,
    /// Read the cells already searched and go on from a checkpoint where there is one (else
    /// every cell is searched anew, and a checkpoint left from before goes).
    pub resume: bool,
    /// Once set, the cell in progress is saved at the end of its layer and the atlas stops
    /// (`Error::Interrupted`); the cells done are kept already.
    pub stop: &'a AtomicBool,
}

/// Where an atlas's searches are kept: their reports, and the checkpoint of a cell in progress.
pub trait Kept: Sync {
    /// Where the search from `goal` is reported, and its states per depth, both checked; none
    /// if it is not reported (a damaged report is an error, not a reason to search again).
    fn searched(&self, goal: &Puzzle) -> Result<Option<(String, Vec<u64>)>, Error>;
    /// The folder of the checkpoint of the search from `goal`.
    fn checkpoint(&self, goal: &Puzzle) -> PathBuf;
}

/// What an atlas tells its caller of a class of cells.
#[derive(Clone, Copy, Debug)]
pub struct AtlasStep<'a> {
    /// The class: its place among the classes, ordered by their first cell.
    pub class: usize,
    /// The classes there are.
    pub count: usize,
    /// Its cells, ascending.
    pub cells: &'a [Cell],
    /// What it is at.
    pub at: ClassAt<'a>,
}

/// Where the search of a class of cells is (`AtlasStep`).
#[derive(Clone, Copy, Debug)]
pub enum ClassAt<'a> {
    /// It was read from its reports, in the folder named.
    Read(&'a str),
    /// It starts, from the checkpoint in the folder named if there is one.
    Start(Option<&'a Path>),
    /// A layer of it is done.
    Layer(LayerDone),
    /// It is done (or failed).
    End,
}

/// The atlas of `puzzle`'s ground in its metric: one search from the goal in each class's first
/// cell (`goal_classes`), in memory, with `options` (their `checkpoint` is the atlas's own,
/// from `keep`); `steps` is told of each class and each layer of its search.
pub fn atlas(
    puzzle: &Puzzle,
    options: AnalyzeOptions,
    keep: Option<Keeping>,
    steps: &(dyn Fn(AtlasStep) + Sync),
) -> Result<Atlas, Error> {
    let classes = goal_classes(puzzle);
    let count = classes.len();
    let mut out = vec![];
    for (class, cells) in classes.into_iter().enumerate() {
        let goal = puzzle.with_goal(cells[0])?;
        let tell = |at| {
            steps(AtlasStep {
                class,
                count,
                cells: &cells,
                at,
            })
        };
        let on_layer = |layer| tell(ClassAt::Layer(layer));
        let Some(keep) = &keep else {
            tell(ClassAt::Start(None));
            let a = analyze(&goal, options, &on_layer);
            tell(ClassAt::End);
            out.push(CellFigures::of(&a?, cells));
            continue;
        };
        if keep.resume {
            if let Some((from, layers)) = keep.kept.searched(&goal)? {
                tell(ClassAt::Read(&from));
                out.push(CellFigures::from_layers(&layers, cells));
                continue;
            }
        }
        let dir = keep.kept.checkpoint(&goal);
        let resume = keep.resume && checkpoint::file(&dir).exists();
        if !resume {
            checkpoint::remove(&dir)?;
        }
        tell(ClassAt::Start(resume.then_some(dir.as_path())));
        let saved = |_, _| {};
        let options = AnalyzeOptions {
            checkpoint: Some(checkpoint::Options {
                dir: &dir,
                every: std::time::Duration::MAX,
                resume,
                from: None,
                stop: keep.stop,
                saved: &saved,
            }),
            ..options
        };
        let a = analyze(&goal, options, &on_layer);
        tell(ClassAt::End);
        let a = a?;
        remove_checkpoint(&dir)?;
        out.push(CellFigures::of(&a, cells));
    }
    Ok(Atlas {
        puzzle: puzzle.with_goal(out[0].cells[0])?,
        classes: out,
    })
}

/// Removes a finished cell's checkpoint folder, and its parent (the checkpoints' folder) once
/// it is empty.
fn remove_checkpoint(dir: &Path) -> Result<(), Error> {
    crate::store::resume::remove_others(dir, None, None)?;
    for d in [Some(dir), dir.parent()].into_iter().flatten() {
        let _ = std::fs::remove_file(d.join(".checkpoint.lock"));
        let _ = std::fs::remove_dir(d);
    }
    Ok(())
}

/// The best eccentricity of `classes` (eccentricity, members) by `better` (`>` for the
/// largest, `<` for the smallest), and the members of every class attaining it, ascending: a
/// diameter or a radius, of a board's goal cells or of a graph's blank vertices.
pub fn extreme<'a, T: Copy + Ord + 'a>(
    classes: impl Iterator<Item = (u32, &'a [T])> + Clone,
    better: impl Fn(u32, u32) -> bool,
) -> (u32, Vec<T>) {
    let best = classes
        .clone()
        .map(|(e, _)| e)
        .reduce(|a, b| if better(b, a) { b } else { a })
        .expect("a class");
    let mut members: Vec<T> = classes
        .filter(|&(e, _)| e == best)
        .flat_map(|(_, m)| m.iter().copied())
        .collect();
    members.sort_unstable();
    (best, members)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::family;
    use crate::puzzle::metric::Metric;

    /// A path's puzzle from any blank is the path itself: from an end n-1 moves, from the
    /// middle vertex of five, 2.
    #[test]
    fn the_atlas_of_a_path() {
        let path = Puzzle::graph(family::path(5).unwrap(), 0, Metric::Single).unwrap();
        let a = atlas(&path, AnalyzeOptions::default(), None, &|_| {}).unwrap();
        assert_eq!(a.diameter(), (4, vec![Cell(0), Cell(4)]));
        assert_eq!(a.radius(), (2, vec![Cell(2)]));
        // Mean distance between two vertices of a 5-path: 40 / 25 = 8/5.
        assert_eq!(a.mean_distance(), Fraction::new(8, 5));
        assert!(a.verified());
    }

    /// The classes partition the cells: a rectangle's corners, edges and centre; a square's
    /// corners, edge cells, and centre (4x4: corners, edges, the four middle cells).
    #[test]
    fn cell_classes_partition_the_board() {
        let classes = |r, c| -> Vec<Vec<usize>> {
            cell_classes(Shape::new(r, c).unwrap())
                .into_iter()
                .map(|k| k.into_iter().map(|c| c.0).collect())
                .collect()
        };
        assert_eq!(
            classes(3, 3),
            vec![vec![0, 2, 6, 8], vec![1, 3, 5, 7], vec![4]]
        );
        assert_eq!(classes(2, 3), vec![vec![0, 2, 3, 5], vec![1, 4]]);
        assert_eq!(
            classes(4, 4),
            vec![
                vec![0, 3, 12, 15],
                vec![1, 2, 4, 7, 8, 11, 13, 14],
                vec![5, 6, 9, 10]
            ]
        );
        assert_eq!(
            classes(3, 4),
            vec![vec![0, 3, 8, 11], vec![1, 2, 9, 10], vec![4, 7], vec![5, 6]]
        );
    }
}

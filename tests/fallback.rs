//! The scans, recounts and database builds compiled for the default x86-64 target, without
//! `popcnt` and BMI (`bfs::bits`): a CPU with those instructions never picks them, so they are
//! forced here (`bits::use_fallback`, for this test binary's process alone) and checked against
//! every complete published distribution of a board of at most 10 cells, in both metrics
//! (`report::published`, whose files cite their sources: `../shared/reference/README.md`).

use tilespace::analysis::{analyze, AnalyzeOptions};
use tilespace::bfs::bits;
use tilespace::report::published::distributions;
use tilespace::{Cell, Metric, Shape};

#[test]
fn the_default_target_copies_give_the_published_distributions() {
    bits::use_fallback(true);
    #[cfg(target_arch = "x86_64")]
    assert!(!bits::has_bit_instructions(), "the switch is honoured");
    for metric in [Metric::Single, Metric::Multi] {
        let mut checked = 0;
        for d in distributions(metric) {
            let (rows, cols) = d.board;
            if rows * cols > 10 {
                continue;
            }
            let shape = Shape::new(rows, cols).unwrap();
            let goal = Cell(d.goal.0 * cols + d.goal.1);
            let puzzle = tilespace::Puzzle::board(shape, goal, metric).unwrap();
            let a = analyze(&puzzle, AnalyzeOptions::default(), &|_| {}).unwrap();
            let what = format!("{shape} {metric:?} goal {:?} ({})", d.goal, d.source);
            assert_eq!(a.distribution.layers, d.terms, "{what}");
            assert!(a.verified, "{what}");
            checked += 1;
        }
        assert!(checked >= 5, "{metric:?}: only {checked} distributions");
    }
}

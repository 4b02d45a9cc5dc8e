//! The scans, recounts and database builds compiled for the default x86-64 target, without
//! `popcnt` and BMI (`bfs::bits`): a CPU with those instructions never picks them, so they are
//! forced here (`bits::use_fallback`, for this test binary's process alone) and checked against
//! every complete published distribution of a board of at most 10 cells, in both metrics
//! (`report::published`, whose files cite their sources: `../shared/reference/README.md`),
//! and the searches over arrangements against the walk of pebble motion.

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
    // The searches over arrangements (both indices: distinct tiles beside two blanks, and
    // colours), against the walk over lexicographic ranks, which needs no bit instruction.
    use tilespace::analysis::arrangements::analyze_tokens;
    use tilespace::bfs::walk::walk_tokens;
    use tilespace::puzzle::tokens::Tokens;
    for goal in ["1 2 3/4 5 6/7 0 0", "1 1 1/2 2 2/3 3 0"] {
        let shape = Shape::new(3, 3).unwrap();
        let tokens = Tokens::parse(goal, 9).unwrap();
        let ground = tilespace::index::puzzle::Ground::Board(shape);
        let a = analyze_tokens(
            &ground,
            &tokens,
            tilespace::Metric::Single,
            Default::default(),
            &|_, _| {},
        )
        .unwrap();
        let grid = tilespace::graph::family::grid(3, 3).unwrap();
        let walked = walk_tokens(&grid, &tokens, &|_| {}).unwrap();
        assert_eq!(a.distribution.layers, walked.goal_depths, "{goal}");
        assert!(a.verified, "{goal}");
    }
}

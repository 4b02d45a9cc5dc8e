//! How each layer is built (list, push or pull): a pure function of what is known at the layer
//! boundary, so that it can be tested on its own and reasoned about by the distributed engine.

/// How one layer is built (see `bfs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Way {
    /// Expand the recorded frontier list.
    List,
    /// Scan the table for the frontier and claim its unseen neighbours.
    Push,
    /// Scan the table for unseen states and mark those with a neighbour in the frontier.
    Pull,
}

impl Way {
    /// `list`, `push` or `pull`, as traces print it.
    pub fn name(self) -> &'static str {
        match self {
            Way::List => "list",
            Way::Push => "push",
            Way::Pull => "pull",
        }
    }
}

/// How layers too large to have been recorded are built (tests force each way).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scan {
    /// Push while it is cheaper, then pull.
    Auto,
    /// Scan the table for the frontier and mark its unseen neighbours.
    Push,
    /// Scan the table for unseen states and look for a neighbour in the frontier.
    Pull,
}

/// A recorded layer is expanded from its list if it has fewer states than table words over
/// this. A scan reads every word however small the frontier, then expands each frontier state
/// cheaply; a listed state costs a sort and an unranking from scratch, about four times as
/// much: past a 32nd of the words, scanning wins (measured over the small layers of 2x6 and
/// 3x4: `docs/log/constants.md`).
pub const LIST_RATIO: u64 = 32;

/// The most states of a layer worth recording, on a table of `table_words` words: a list is
/// expanded only if it has fewer states than the table's words over `LIST_RATIO`, and the
/// schedule's `record_cap` bounds the memory the lists take.
pub fn record_cap(schedule_cap: u64, table_words: u64) -> u64 {
    schedule_cap.min(table_words.saturating_sub(1) / LIST_RATIO)
}

/// Whether to record the next layer of a frontier of `frontier` states (after a layer of
/// `before`, if the frontier is not the start): if the next layer is predicted to fit `cap`,
/// growing or shrinking by the factor the frontier did (from the start, by 4, its most). A
/// recorded layer that outgrows `cap` after all is given up as it is found (`Recording`).
pub fn record_next(frontier: u64, before: Option<u64>, cap: u64) -> bool {
    let f = u128::from(frontier);
    let predicted = match before {
        Some(b) if b > 0 => f * f / u128::from(b),
        _ => 4 * f,
    };
    cap > 0 && predicted <= u128::from(cap)
}

/// Pull is chosen once the unseen states of the next colour, times this, are fewer than the
/// frontier times `PUSH_COST`: a push expansion and a pull test cost about the same, less the
/// scan both pay (`docs/log/constants.md`).
pub const PULL_COST: u64 = 10;
/// The weight of a frontier state against `PULL_COST` for an unseen one, in the same choice.
pub const PUSH_COST: u64 = 10;
/// `PUSH_COST` in the multi-tile metric, where a push computes the vertical slides of the
/// states a horizontal slide reached (`layer::multi`) and a pull stops at a horizontal
/// neighbour found a word at a time: a scanned frontier state costs about half as much again
/// as an unseen state tested (`docs/log/constants.md`).
pub const MULTI_PUSH_COST: u64 = 15;

/// What is known at a layer boundary that decides the next layer's way.
#[derive(Clone, Copy, Debug)]
pub struct Boundary {
    /// States of the recorded frontier list, if the frontier was recorded.
    pub listed: Option<u64>,
    /// States of the frontier (those a push scans).
    pub frontier: u64,
    /// The weight of a frontier state against `PULL_COST`: `PUSH_COST`, or `MULTI_PUSH_COST`.
    pub push_cost: u64,
    /// Unseen states of the next layer's colour.
    pub unseen: u64,
    /// Words of the table (32 states each).
    pub table_words: u64,
    /// An earlier layer was pulled.
    pub pulling: bool,
}

/// The way to build the next layer, and whether the search is pulling from now on (once pull
/// wins it keeps winning: the unseen states only shrink, and the frontiers shrink with them
/// more slowly near the end).
pub fn choose(scan: Scan, b: Boundary) -> (Way, bool) {
    let listed = b
        .listed
        .is_some_and(|n| n.saturating_mul(LIST_RATIO) < b.table_words);
    let pulling = b.pulling
        || scan == Scan::Pull
        || (scan == Scan::Auto
            && !listed
            && b.unseen.saturating_mul(PULL_COST) < b.frontier.saturating_mul(b.push_cost));
    let way = if listed {
        Way::List
    } else if pulling {
        Way::Pull
    } else {
        Way::Push
    };
    (way, pulling)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(listed: Option<u64>, frontier: u64, unseen: u64, pulling: bool) -> Boundary {
        Boundary {
            listed,
            frontier,
            push_cost: PUSH_COST,
            unseen,
            table_words: 1000,
            pulling,
        }
    }

    #[test]
    fn a_small_recorded_layer_is_listed_whatever_else_holds() {
        for scan in [Scan::Auto, Scan::Push, Scan::Pull] {
            for pulling in [false, true] {
                let (way, _) = choose(scan, at(Some(31), 31, 1, pulling));
                assert_eq!(way, Way::List, "{scan:?} pulling {pulling}");
            }
        }
        // 32 · 32 = 1024 ≥ 1000 words: not fewer, so the table is scanned.
        assert_eq!(LIST_RATIO, 32);
        assert_eq!(
            choose(Scan::Auto, at(Some(32), 32, 10_000, false)).0,
            Way::Push
        );
    }

    #[test]
    fn auto_pushes_until_unseen_states_are_fewer_than_the_frontier_then_keeps_pulling() {
        assert_eq!(
            choose(Scan::Auto, at(None, 500, 500, false)),
            (Way::Push, false)
        );
        assert_eq!(
            choose(Scan::Auto, at(None, 500, 499, false)),
            (Way::Pull, true)
        );
        // Once pulling, a larger unseen count does not switch back.
        assert_eq!(
            choose(Scan::Auto, at(None, 1, 10_000, true)),
            (Way::Pull, true)
        );
        // A listed layer while pulling keeps the pulling state for the layers after it.
        assert_eq!(
            choose(Scan::Auto, at(Some(3), 3, 1, true)),
            (Way::List, true)
        );
    }

    #[test]
    fn forced_scans_ignore_the_costs() {
        assert_eq!(
            choose(Scan::Push, at(None, 500, 1, false)),
            (Way::Push, false)
        );
        assert_eq!(
            choose(Scan::Pull, at(None, 1, 10_000, false)),
            (Way::Pull, true)
        );
    }

    #[test]
    fn a_layer_is_recorded_if_it_is_predicted_to_fit_the_cap() {
        // Growing by 1.5: 150 · 1.5 = 225.
        assert!(record_next(150, Some(100), 225));
        assert!(!record_next(150, Some(100), 224));
        // Shrinking: 80 · 0.8 = 64, though the frontier itself does not fit.
        assert!(record_next(80, Some(100), 64));
        assert!(!record_next(80, Some(100), 63));
        // From the start: at most 4 neighbours.
        assert!(record_next(1, None, 4));
        assert!(!record_next(2, None, 7));
        // A cap of 0 records nothing, even a layer predicted empty.
        assert!(!record_next(1, Some(2), 0));
        assert!(!record_next(u64::MAX, Some(1), u64::MAX));
    }

    #[test]
    fn the_cap_is_the_largest_layer_that_would_be_listed() {
        assert_eq!(record_cap(10, 1 << 40), 10);
        assert_eq!(record_cap(10, 0), 0);
        // A layer at the cap is listed, one more is not: fewer states than words over the ratio.
        for words in [1000 * LIST_RATIO, 1000 * LIST_RATIO + 1] {
            let n = record_cap(u64::MAX, words);
            let way = |n: u64| {
                let b = Boundary {
                    listed: Some(n),
                    table_words: words,
                    ..at(None, n, n, false)
                };
                choose(Scan::Auto, b).0
            };
            assert_eq!(way(n), Way::List, "{words} words");
            assert_eq!(way(n + 1), Way::Push, "{words} words");
        }
    }

    #[test]
    fn costs_do_not_overflow() {
        let (way, _) = choose(Scan::Auto, at(None, u64::MAX, u64::MAX - 1, false));
        assert_eq!(way, Way::Push);
    }
}

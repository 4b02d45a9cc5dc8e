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
/// this: a scan reads a word per 32 states in a few nanoseconds, a listed state costs a sort
/// and an unranking from scratch.
pub const LIST_RATIO: u64 = 8;

/// Pull is chosen once the unseen states of the next colour, times this, are fewer than the
/// frontier times `PUSH_COST`. Measured at 1 thread, less the scan both pay: a push expansion
/// costs 19 ns on 2x6 and a pull test 21 ns; 10:10 and 21:19 gave the same times, 2x6 3.23 s and
/// 3x4 3.55–3.64 s at 2 threads, against 3.29 s and 3.70 s with the 10:16 of the aliased engine.
pub const PULL_COST: u64 = 10;
/// The weight of a frontier state against `PULL_COST` for an unseen one, in the same choice.
pub const PUSH_COST: u64 = 10;

/// What is known at a layer boundary that decides the next layer's way.
#[derive(Clone, Copy, Debug)]
pub struct Boundary {
    /// States of the recorded frontier list, if the frontier was recorded.
    pub listed: Option<u64>,
    /// States of the frontier.
    pub frontier: u64,
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
            && b.unseen.saturating_mul(PULL_COST) < b.frontier.saturating_mul(PUSH_COST));
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
            unseen,
            table_words: 1000,
            pulling,
        }
    }

    #[test]
    fn a_small_recorded_layer_is_listed_whatever_else_holds() {
        for scan in [Scan::Auto, Scan::Push, Scan::Pull] {
            for pulling in [false, true] {
                let (way, _) = choose(scan, at(Some(124), 124, 1, pulling));
                assert_eq!(way, Way::List, "{scan:?} pulling {pulling}");
            }
        }
        // 125 · 8 = 1000 words: not fewer, so the table is scanned.
        assert_eq!(
            choose(Scan::Auto, at(Some(125), 125, 10_000, false)).0,
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
    fn costs_do_not_overflow() {
        let (way, _) = choose(Scan::Auto, at(None, u64::MAX, u64::MAX - 1, false));
        assert_eq!(way, Way::Push);
    }
}

//! One BFS layer: expand frontier states into the next layer.
//!
//! The table is sequence-major (see `space`): the states sharing a tile sequence are adjacent.
//! A frontier is found by scanning the table word by word (32 states a word, matched against
//! `FRONTIER` and the blank colour of the layer in a few bit operations; which words hold a
//! `FRONTIER` slot is read into a mask 64 words at a time, without a branch a word, and only
//! those are visited), or, for small layers, taken from the list of
//! their indices. A state's Lehmer digits come from `Indexer::seek_digits` (scans go in rank
//! order, so it mostly writes the last digits from a table). Neighbour indices come without
//! re-ranking, from the digits alone:
//! - a horizontal move keeps the sequence: same rank, the next or previous slot, nearly always
//!   in the same word. A push claims those for a whole word at once, with the word's settling,
//!   in one atomic step (`word_slides`, `Table::settle_and_mark`), or one plain store while
//!   no other thread writes the table (`deferred::Plain`);
//! - a vertical move rotates a window of C consecutive sequence entries (one tile moves past
//!   C-1 others), which changes only those C Lehmer digits: the new full rank is the old one
//!   plus Σ (d'ⱼ - dⱼ)·(m-1-j)! over the window, O(C²) work with C ≤ 4. The comparisons a
//!   rotation needs (is the moving tile smaller than each tile it passes?) follow from the
//!   window's digits, so the tile values are never built (fewer instructions: see
//!   `docs/log/constants.md`); with two or three columns the change is a linear form of the
//!   window's digits with weights precomputed per move (`short_delta`), and with three a batch
//!   reads it from a table by the window's digits instead (`delta_tables`). Its target is often far
//!   away in the table: a push computes the targets of a batch of frontier states and prefetches
//!   their words, and tests them while the next batch is computed (`Batch`). On one table, the
//!   targets it finds unseen are claimed once the layer's tasks are done, a region of the
//!   table by one thread, with plain stores (`deferred`): an atomic claim holds back every
//!   load after it. With three columns, states of the top and bottom rows, which have one
//!   vertical move, are queued apart from the others (`WordPlaces::pairs`): no state computes a
//!   move its blank cannot make.
//!
//! By kind of moves, a folder each: `single` (a board's single-tile moves: a state's
//! neighbours, the tables a word is read by, the batches of vertical targets, and the push,
//! pull and list), `multi` (the multi-tile metric's ways, its slides, its rows of a word as
//! masks and its bit a row) and `graph` (a graph's moves and their scans). What they share, one
//! concern a file: `turn` (the rank change of a turn of a window), `scan` (what a layer's
//! tasks share and the word-by-word walk), `claims` and `batch` (buffers that prefetch),
//! `deferred` (a push's claims made at its end), `found` (what a task found), `settle` (a
//! finished layer's settling) and `kernels` (the one table of a kind's scans, and the dispatch
//! on the column count).

mod batch;
mod claims;
pub mod deferred;
mod found;
mod graph;
mod kernels;
mod multi;
mod scan;
mod settle;
mod single;
mod turn;

pub use deferred::Deferred;
pub use graph::{GraphScan, GraphTables};
pub use kernels::Kernels;
pub use multi::{rows, ColumnSlide, Rows, Slides};
pub use scan::{multi_code, Codes, Found, LayerScan, MultiScan, SingleScan, SlideTables};
pub use settle::settle_scan;
pub use single::{
    claim_all, claim_all_coded, colour_masks, expand_list, expand_list_shard, expand_pull,
    expand_scan, expand_shard, for_each_neighbour, pull_shard, word_slides, Single, Vertical,
    WordPlaces, WordSlides, ANY_COLOUR,
};
pub use turn::{moves, BlankMoves, Turn};

//! The scans of single-tile moves on a board: a state's neighbours (`neighbours`), the tables a
//! word of the table is read by (`words`), the batches of vertical targets (`verticals`), and
//! the ways to build a layer: `push`, `pull` and `list`.

pub(in crate::bfs::layer) mod list;
pub(in crate::bfs::layer) mod neighbours;
pub(in crate::bfs::layer) mod pull;
pub(in crate::bfs::layer) mod push;
pub(in crate::bfs::layer) mod verticals;
pub(in crate::bfs::layer) mod words;

pub use list::{expand_list, expand_list_shard};
pub use neighbours::{for_each_neighbour, Single};
pub use pull::{expand_pull, pull_shard};
pub use push::{claim_all, claim_all_coded, expand_scan, expand_shard};
pub use words::{colour_masks, word_slides, Vertical, WordPlaces, WordSlides, ANY_COLOUR};

//! Checkpoints of a distributed search: each rank saves its shard of the table, and rank 0 then
//! saves a manifest naming the depth and every shard's checksum. A run resumes from the
//! manifest on any number of ranks, or in one process (`store::resume`), so the directory must
//! be one that every rank sees (a shared file system on a cluster).
//!
//! Files in `DIR`: `shard-K-of-P-depth-D.tss` (rank K of P, after layer D) and
//! `manifest.tsm`. Shard files carry their depth in their name, so saving the next checkpoint
//! never touches the files the current manifest names; the manifest is replaced (written
//! beside, synced, renamed) only once every rank has saved, and the shards it no longer names are
//! removed after that. A crash at any point leaves a manifest whose shards are all there.
//!
//! Shard file (little-endian): a 96-byte header (magic `TSSHARD\0`, version, rows, cols, goal
//! blank, class, transposed, pulling, unsettled, ranks, rank, metric, block shift, words held,
//! start, layers L, seconds, checksum of the data, checksum of the header), then L layer counts
//! and the words of the rank's blocks (`bfs::shard`), in ascending order.
//! Manifest: a 72-byte header (magic `TSMANIF\0`, version, rows, cols, goal blank, class,
//! transposed, ranks, depth, metric, start, seconds, checksum of the shard checksums, checksum
//! of the header), then one data checksum per rank. The metric (a u32 at byte 36 of both: 1 in
//! the multi-tile metric) is 0 in the single-tile one, as in files written before it was
//! recorded, which still open.

use std::io::{BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;

use crate::bfs::shard::{Partition, MAX_RANKS};
use crate::bfs::SearchState;
use crate::error::{Damage, Error};
use crate::index::space::StateSpace;
use crate::store::atomic::write_atomic_with;
use crate::store::checkpoint::{check_board, check_metric, Opened};
use crate::store::header::{
    checksum, le_words, reseal_header, u64_at, words_from, BoardFields, HeaderReader, HeaderWriter,
};

const SHARD_MAGIC: &[u8; 8] = b"TSSHARD\0";
const MANIFEST_MAGIC: &[u8; 8] = b"TSMANIF\0";
/// Version 2: blocks dealt round-robin to the ranks (version 1 held one range a rank), in the
/// rank-major layout (saved tables and checkpoints version 3).
const VERSION: u32 = 2;
const SHARD_FIELDS: usize = 88;
const SHARD_HEADER: usize = 96;
const MANIFEST_FIELDS: usize = 64;
const MANIFEST_HEADER: usize = 72;

/// Rank `rank` of a `partition`, of a search of `space` from `start`.
#[derive(Clone, Copy, Debug)]
pub struct ShardOf<'a> {
    /// The index searched.
    pub space: &'a StateSpace,
    /// The index the search started from.
    pub start: u64,
    /// This rank.
    pub rank: usize,
    /// How the index is dealt.
    pub partition: &'a Partition,
}

impl ShardOf<'_> {
    fn ranks(&self) -> usize {
        self.partition.ranks()
    }
}

/// Recomputes the data and header checksums of a shard's image over what is there, with the
/// layer count its header gives, as a forger would (tests, fuzzing); returns the data checksum
/// (for the manifest), `None` for too short an image.
pub fn reseal_shard(bytes: &mut [u8]) -> Option<u64> {
    let n_layers = u64_at(bytes, 64)? as u32 as usize;
    if bytes.len() < SHARD_HEADER {
        return None;
    }
    let words = words_from(bytes, SHARD_HEADER);
    let (layers, table) = words.split_at(n_layers.min(words.len()));
    let data = checksum(
        [checksum(layers.iter().copied())]
            .into_iter()
            .chain(table.to_vec()),
    );
    bytes[80..88].copy_from_slice(&data.to_le_bytes());
    reseal_header(bytes, SHARD_FIELDS);
    Some(data)
}

/// Recomputes the checksums of a manifest's image (of its shard checksums, then of its header)
/// over what is there, as a forger would (tests, fuzzing).
pub fn reseal_manifest(bytes: &mut [u8]) {
    if bytes.len() >= MANIFEST_HEADER {
        let sums = checksum(words_from(bytes, MANIFEST_HEADER).into_iter());
        bytes[56..64].copy_from_slice(&sums.to_le_bytes());
        reseal_header(bytes, MANIFEST_FIELDS);
    }
}

/// The manifest of a directory.
pub fn manifest_file(dir: &Path) -> PathBuf {
    dir.join("manifest.tsm")
}

fn shard_file(dir: &Path, rank: usize, ranks: usize, depth: u32) -> PathBuf {
    dir.join(format!("shard-{rank}-of-{ranks}-depth-{depth}.tss"))
}

/// The fields every file of a checkpoint starts with: the board, goal, class and layout, and
/// two bytes of flags.
fn board_fields(h: HeaderWriter, space: &StateSpace, flags: [u8; 2]) -> HeaderWriter {
    h.board(BoardFields::of(space), flags)
}

/// Saves this rank's state; returns the checksum of its data, for the manifest.
pub fn save_shard(
    dir: &Path,
    of: ShardOf,
    state: &SearchState,
    seconds: f64,
) -> Result<u64, Error> {
    let (layers, table) = (&state.layers, &state.table);
    let words = table.held().flatten();
    let data = checksum(
        [checksum(layers.iter().copied())]
            .into_iter()
            .chain(words.map(|w| w.load(Ordering::Relaxed))),
    );
    let flags = [u8::from(state.pulling), u8::from(state.unsettled)];
    let head = board_fields(HeaderWriter::new(SHARD_MAGIC, VERSION), of.space, flags)
        .u32(of.ranks() as u32)
        .u32(of.rank as u32)
        .u32(u32::from(of.space.metric().byte()))
        .u64(u64::from(of.partition.shift()))
        .u64(table.bytes() / 8)
        .u64(of.start)
        .u32(layers.len() as u32)
        .u32(0)
        .u64(seconds.to_bits())
        .u64(data)
        .finish(SHARD_HEADER);
    let depth = layers.len() as u32 - 1;
    write_atomic_with(&shard_file(dir, of.rank, of.ranks(), depth), |out| {
        out.write_all(&head)?;
        for &n in layers.iter() {
            out.write_all(&n.to_le_bytes())?;
        }
        table.write_to(out)
    })?;
    Ok(data)
}

/// Saves the manifest of the shards every rank saved after layer `depth` (`sums` by rank), then
/// (on rank 0, which calls it) nothing else: each rank removes its own old shards with
/// `remove_shards_before`.
pub fn save_manifest(
    dir: &Path,
    space: &StateSpace,
    start: u64,
    depth: u32,
    sums: &[u64],
    seconds: f64,
) -> Result<(), Error> {
    let head = board_fields(HeaderWriter::new(MANIFEST_MAGIC, VERSION), space, [0, 0])
        .u32(sums.len() as u32)
        .u32(depth)
        .u32(u32::from(space.metric().byte()))
        .u64(start)
        .u64(seconds.to_bits())
        .u64(checksum(sums.iter().copied()))
        .finish(MANIFEST_HEADER);
    write_atomic_with(&manifest_file(dir), |out| {
        out.write_all(&head)?;
        for &s in sums {
            out.write_all(&s.to_le_bytes())?;
        }
        Ok(())
    })
}

/// A manifest read back.
#[derive(Clone, Debug)]
pub struct Manifest {
    /// The last depth saved.
    pub depth: u32,
    /// Seconds of search before the save.
    pub seconds: f64,
    /// Data checksum of each rank's shard (as many as ranks saved).
    pub sums: Vec<u64>,
}

impl Manifest {
    /// How many ranks saved the checkpoint.
    pub fn ranks(&self) -> usize {
        self.sums.len()
    }
}

/// Reads the manifest of `dir` for a search of `space` from `start`, saved by any number of
/// ranks; anything else (another board, goal, start, metric, version, a damaged file) is
/// refused with the reason.
pub fn load_manifest(dir: &Path, space: &StateSpace, start: u64) -> Result<Manifest, Error> {
    let path = manifest_file(dir);
    let bad = |why: Damage| Error::Checkpoint {
        path: path.clone(),
        damage: why,
    };
    let bytes = crate::store::atomic::read_regular(&path).map_err(|e| {
        bad(if e.kind() == std::io::ErrorKind::NotFound {
            Damage::missing(
                "no checkpoint of a distributed run there (start one with --checkpoint DIR)",
            )
        } else {
            e.to_string().into()
        })
    })?;
    let h = HeaderReader::open(&bytes, MANIFEST_MAGIC, VERSION, MANIFEST_FIELDS, "manifest")
        .map_err(&bad)?;
    // The metric first: it decides the orientation that `check_board` checks.
    check_metric(h.u32(36), space).map_err(&bad)?;
    check_board(&h, space).map_err(&bad)?;
    if h.u64(40) != start {
        return Err(bad(Damage::mismatch(
            "it is a search from another start board",
        )));
    }
    let ranks = h.u32(28) as usize;
    if !(1..=MAX_RANKS).contains(&ranks) {
        return Err(bad(format!("it names {ranks} ranks").into()));
    }
    let body = &bytes[MANIFEST_HEADER.min(bytes.len())..];
    if body.len() != 8 * ranks {
        return Err(bad(Damage::length("truncated or padded")));
    }
    let sums: Vec<u64> = le_words(body).collect();
    if checksum(sums.iter().copied()) != h.u64(56) {
        return Err(bad(Damage::checksum("the shard checksums are corrupted")));
    }
    Ok(Manifest {
        depth: h.u32(32),
        seconds: f64::from_bits(h.u64(48)),
        sums,
    })
}

/// A shard file opened for reading, its header and layer counts checked against the search
/// and the manifest, positioned at its words (their checksum is the reader's to check).
pub(crate) struct OpenShard {
    /// The file, at its first word.
    pub file: Opened,
    /// The checksum of its data (layer counts and words), as its header and the manifest give.
    pub sum: u64,
    /// The runs of index words it holds, in file order: its rank's blocks.
    pub runs: Vec<(u64, u64)>,
}

/// Opens the shard of `of.rank` that `manifest` names (`of.partition` being the partition of
/// the ranks that saved it).
pub(crate) fn open_shard(dir: &Path, of: ShardOf, manifest: &Manifest) -> Result<OpenShard, Error> {
    let path = shard_file(dir, of.rank, of.ranks(), manifest.depth);
    let bad = |why: Damage| Error::Checkpoint {
        path: path.clone(),
        damage: why,
    };
    let f = crate::store::atomic::open_regular(&path).map_err(|e| {
        bad(if e.kind() == std::io::ErrorKind::NotFound {
            Damage::missing("a shard the manifest names is missing")
        } else {
            e.to_string().into()
        })
    })?;
    let mut reader = BufReader::with_capacity(8 << 20, f);
    let short = |e: std::io::Error| bad(Damage::length(format!("truncated ({e})")));
    let mut head = [0u8; SHARD_HEADER];
    reader.read_exact(&mut head).map_err(short)?;
    let h = HeaderReader::open(&head, SHARD_MAGIC, VERSION, SHARD_FIELDS, "shard").map_err(&bad)?;
    check_metric(h.u32(36), of.space).map_err(&bad)?;
    check_board(&h, of.space).map_err(&bad)?;
    let fields = (h.u32(28), h.u32(32), h.u64(40), h.u64(48), h.u64(56));
    let held = of.partition.table_bytes(of.rank) / 8;
    let shift = u64::from(of.partition.shift());
    let want = (of.ranks() as u32, of.rank as u32, shift, held, of.start);
    if fields != want {
        return Err(bad(Damage::mismatch(
            "it is the shard of another rank or another search",
        )));
    }
    let n_layers = h.u32(64) as usize;
    if n_layers != manifest.depth as usize + 1 {
        return Err(bad(Damage::mismatch("its depth is not the manifest's")));
    }
    // Before the layer counts are allocated: a small file cannot claim 2^32 layers.
    let length = reader
        .get_ref()
        .metadata()
        .map_err(|e| bad(e.to_string().into()))?
        .len();
    let want = (SHARD_HEADER + 8 * n_layers) as u64 + 8 * held;
    if length != want {
        return Err(bad(Damage::length(format!(
            "truncated or padded: {length} bytes, its header says {want}"
        ))));
    }
    let sum = h.u64(80);
    if sum != manifest.sums[of.rank] {
        return Err(bad(Damage::checksum(
            "it is not the shard the manifest names (checksum mismatch)",
        )));
    }
    let mut bytes = vec![0u8; n_layers * 8];
    reader.read_exact(&mut bytes).map_err(short)?;
    let runs = of
        .partition
        .spans(of.rank)
        .iter()
        .map(|&(lo, hi)| (lo / 32, hi.div_ceil(32)))
        .collect();
    Ok(OpenShard {
        file: Opened {
            layers: le_words(&bytes).collect(),
            flags: [h.byte(26) != 0, h.byte(27) != 0],
            reader,
            path,
        },
        sum,
        runs,
    })
}

/// The rank, rank count and depth of a shard file's name (`shard-K-of-P-depth-D.tss`), or of
/// the temporary file of a save of it cut short (`.shard-….tss.tmp-…`, with `true`).
fn shard_name(name: &str) -> Option<(usize, usize, u32, bool)> {
    let (name, temporary) = match name.strip_prefix('.') {
        Some(hidden) => (hidden.split(".tmp-").next()?, true),
        None => (name, false),
    };
    let rest = name.strip_prefix("shard-")?.strip_suffix(".tss")?;
    let (rank, rest) = rest.split_once("-of-")?;
    let (ranks, depth) = rest.split_once("-depth-")?;
    Some((
        rank.parse().ok()?,
        ranks.parse().ok()?,
        depth.parse().ok()?,
        temporary,
    ))
}

/// Removes the shard files that are rank `rank`'s of `ranks` to remove, once a newer
/// checkpoint's manifest no longer names them (`keep`: the depth just saved) or once the
/// reports are written (`None`): its own of other depths, the temporary files of its saves cut
/// short (one run per directory, so any is stale), and a share of the shards of another rank
/// count (the search resumed from a checkpoint saved by other ranks): those of ranks K with
/// K mod `ranks` = `rank`. With `keep` `None`, rank 0 also removes the manifest.
pub fn remove_shards(
    dir: &Path,
    rank: usize,
    ranks: usize,
    keep: Option<u32>,
) -> Result<(), Error> {
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(source) => {
            return Err(Error::Read {
                path: dir.to_path_buf(),
                source,
            })
        }
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let stale_manifest = rank == 0
            && ((name.starts_with(".manifest.tsm.") && name.contains(".tmp-"))
                || (keep.is_none() && name == "manifest.tsm"));
        let ours = match shard_name(&name) {
            Some((k, p, depth, temporary)) if p == ranks => {
                k == rank && (temporary || Some(depth) != keep)
            }
            Some((k, _, _, _)) => k % ranks == rank,
            None => stale_manifest,
        };
        if ours {
            match std::fs::remove_file(entry.path()) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                    return Err(Error::Write {
                        path: entry.path(),
                        source: e,
                    })
                }
                _ => {}
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Old depths and cut-short saves of this rank go, and its share of another rank count's
    /// shards; the kept depth, other ranks' files and foreign files stay; with nothing kept,
    /// rank 0 also removes the manifest.
    #[test]
    fn removing_shards_keeps_exactly_what_it_should() {
        let dir = tempfile::tempdir().unwrap();
        let names = [
            "shard-0-of-2-depth-3.tss",
            "shard-0-of-2-depth-4.tss",
            ".shard-0-of-2-depth-5.tss.tmp-77",
            "shard-1-of-2-depth-3.tss",
            ".shard-1-of-2-depth-5.tss.tmp-78",
            ".manifest.tsm.tmp-77",
            "manifest.tsm",
            "notes.txt",
            "shard-2-of-3-depth-3.tss",
            ".shard-1-of-3-depth-3.tss.tmp-9",
            "shard-0-of-3-depth-3.tss",
        ];
        for n in names {
            std::fs::write(dir.path().join(n), b"x").unwrap();
        }
        let left = || {
            let mut v: Vec<String> = std::fs::read_dir(dir.path())
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect();
            v.sort();
            v
        };
        remove_shards(dir.path(), 1, 2, Some(4)).unwrap();
        assert_eq!(left().len(), 8, "{:?}", left());
        assert!(
            !left().iter().any(|n| n.contains("shard-1-of")),
            "{:?}",
            left()
        );
        remove_shards(dir.path(), 0, 2, Some(4)).unwrap();
        assert_eq!(
            left(),
            ["manifest.tsm", "notes.txt", "shard-0-of-2-depth-4.tss"]
        );
        remove_shards(dir.path(), 0, 2, None).unwrap();
        assert_eq!(left(), ["notes.txt"]);
    }
}

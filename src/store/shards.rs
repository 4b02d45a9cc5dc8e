//! Checkpoints of a distributed search: each rank saves its shard of the table, and rank 0 then
//! saves a manifest naming the depth and every shard's checksum. A run resumes from the
//! manifest with the same number of ranks, each rank reading its own shard, so the directory
//! must be one that every rank sees (a shared file system on a cluster).
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

use crate::bfs::shard::Partition;
use crate::bfs::table::Table;
use crate::bfs::SearchState;
use crate::error::{Damage, Error};
use crate::index::space::StateSpace;
use crate::store::atomic::write_atomic_with;
use crate::store::checkpoint::{check_board, check_metric};
use crate::store::header::{
    checksum, le_words, reseal_header, u64_at, words_from, Checksum, HeaderReader, HeaderWriter,
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
const CHUNK_WORDS: usize = 1 << 20;

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
    h.u32(space.user_shape.rows as u32)
        .u32(space.user_shape.cols as u32)
        .u32(space.user_goal.0 as u32)
        .bytes(&[space.class, u8::from(space.transposed), flags[0], flags[1]])
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
        .u32(u32::from(of.space.metric.byte()))
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
        .u32(u32::from(space.metric.byte()))
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
    /// Data checksum of each rank's shard.
    pub sums: Vec<u64>,
}

/// Reads the manifest of `dir` for a search of `space` from `start` over `ranks` ranks; anything
/// else (another board, goal, start, rank count, version, a damaged file) is refused with the
/// reason.
pub fn load_manifest(
    dir: &Path,
    space: &StateSpace,
    start: u64,
    ranks: usize,
) -> Result<Manifest, Error> {
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
    let saved_ranks = h.u32(28) as usize;
    if saved_ranks != ranks {
        return Err(bad(format!(
            "it was saved by {saved_ranks} ranks; resume it with {saved_ranks} (this run has \
             {ranks})"
        )
        .into()));
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

/// Reads this rank's state from the shard the manifest names.
pub fn load_shard(dir: &Path, of: ShardOf, manifest: &Manifest) -> Result<SearchState, Error> {
    let path = shard_file(dir, of.rank, of.ranks(), manifest.depth);
    let bad = |why: Damage| Error::Checkpoint {
        path: path.clone(),
        damage: why,
    };
    let f = crate::store::atomic::open_regular(&path).map_err(|e| bad(e.to_string().into()))?;
    let mut r = BufReader::with_capacity(8 << 20, f);
    let short = |e: std::io::Error| bad(Damage::length(format!("truncated ({e})")));
    let mut head = [0u8; SHARD_HEADER];
    r.read_exact(&mut head).map_err(short)?;
    let h = HeaderReader::open(&head, SHARD_MAGIC, VERSION, SHARD_FIELDS, "shard").map_err(&bad)?;
    check_metric(h.u32(36), of.space).map_err(&bad)?;
    check_board(&h, of.space).map_err(&bad)?;
    let fields = (h.u32(28), h.u32(32), h.u64(40), h.u64(48), h.u64(56));
    let spans = of.partition.spans(of.rank);
    let table = Table::sparse(of.space.states(), &spans).map_err(|e| bad(e.to_string().into()))?;
    let held = table.bytes() / 8;
    let shift = u64::from(of.partition.shift());
    let want = (of.ranks() as u32, of.rank as u32, shift, held, of.start);
    if fields != want {
        return Err(bad(
            "it is the shard of another rank or another search".into()
        ));
    }
    let n_layers = h.u32(64) as usize;
    if n_layers != manifest.depth as usize + 1 {
        return Err(bad(Damage::mismatch("its depth is not the manifest's")));
    }
    // Before the layer counts are allocated: a small file cannot claim 2^32 layers.
    let length = r
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
    let mut bytes = vec![0u8; n_layers * 8];
    r.read_exact(&mut bytes).map_err(short)?;
    let layers: Vec<u64> = le_words(&bytes).collect();
    let mut data = Checksum::new();
    data.add(checksum(layers.iter().copied()));
    let mut buf = vec![0u8; CHUNK_WORDS * 8];
    for chunk in table.held().flat_map(|span| span.chunks(CHUNK_WORDS)) {
        let bytes = &mut buf[..chunk.len() * 8];
        r.read_exact(bytes).map_err(short)?;
        for (w, v) in chunk.iter().zip(le_words(bytes)) {
            data.add(v);
            w.store(v, Ordering::Relaxed);
        }
    }
    if r.read(&mut [0u8; 1]).map_err(short)? != 0 {
        return Err(bad(Damage::length("longer than its header says")));
    }
    let data = data.value();
    if data != h.u64(80) || data != manifest.sums[of.rank] {
        return Err(bad(Damage::checksum(
            "the data is corrupted (checksum mismatch)",
        )));
    }
    Ok(SearchState {
        start: of.start,
        layers,
        // Not saved: the layer after a resume is built by a scan (same result).
        frontier: None,
        pulling: h.byte(26) != 0,
        unsettled: h.byte(27) != 0,
        table,
    })
}

/// Removes this rank's shard files of depths other than `keep` (all of them if `None`) and the
/// temporary files of its saves that were cut short, and, on rank 0, those of the manifest and,
/// with `keep` `None`, the manifest itself: after a newer checkpoint, or once the reports are
/// written.
pub fn remove_shards(
    dir: &Path,
    rank: usize,
    ranks: usize,
    keep: Option<u32>,
) -> Result<(), Error> {
    let prefix = format!("shard-{rank}-of-{ranks}-depth-");
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
        // A save cut short (the process killed while writing) leaves its temporary file behind
        // (`store::atomic`): one run per directory, so any such file of this rank is stale.
        let stale = name.contains(".tmp-")
            && (name.starts_with(&format!(".{prefix}"))
                || (rank == 0 && name.starts_with(".manifest.tsm.")));
        if stale {
            std::fs::remove_file(entry.path()).map_err(|source| Error::Write {
                path: entry.path(),
                source,
            })?;
            continue;
        }
        let Some(depth) = name
            .strip_prefix(&prefix)
            .and_then(|r| r.strip_suffix(".tss"))
            .and_then(|d| d.parse::<u32>().ok())
        else {
            continue;
        };
        if Some(depth) != keep {
            std::fs::remove_file(entry.path()).map_err(|source| Error::Write {
                path: entry.path(),
                source,
            })?;
        }
    }
    if keep.is_none() && rank == 0 {
        match std::fs::remove_file(manifest_file(dir)) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                return Err(Error::Write {
                    path: manifest_file(dir),
                    source: e,
                })
            }
            _ => {}
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Old depths and cut-short saves of this rank go; the kept depth, other ranks' files and
    /// foreign files stay; with nothing kept, rank 0 also removes the manifest.
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
        assert_eq!(left().len(), 6, "{:?}", left());
        remove_shards(dir.path(), 0, 2, Some(4)).unwrap();
        assert_eq!(
            left(),
            ["manifest.tsm", "notes.txt", "shard-0-of-2-depth-4.tss"]
        );
        remove_shards(dir.path(), 0, 2, None).unwrap();
        assert_eq!(left(), ["notes.txt"]);
    }
}

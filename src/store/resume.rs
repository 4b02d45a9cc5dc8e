//! A checkpoint read back whatever saved it, into whatever goes on from it: one process's file
//! (`checkpoint`), the shards of any number of ranks (`shards`) or a search on disk stopped at
//! a layer boundary (`disk::whole`), into one process or any number of ranks. A requeued job
//! that gets another allocation, or a search begun on a workstation and continued on a cluster
//! (or the other way), goes on where it stopped.
//!
//! The index is global whatever the partition, so the table is the same words however it was
//! dealt. Each saved file is read whole and in order by one rank (shard K of P by rank K mod
//! the ranks now, as is the K-th shard file of a search on disk; one process's file by rank
//! 0), in parts of `PART` words; each part is cut at the blocks of the partition now and every
//! piece sent to the rank that holds it, one exchange a part (every rank takes part in every
//! one). The claims a search on disk has waiting for its next pass are read by every rank,
//! each marking those it holds. A file's checksum is taken as its words pass and checked at its
//! end, so the manifest's (or the journal's) checksums still guard every block, and the whole
//! is then checked as one search's state (the layer counts every file gives agree; the table
//! marks what they count). Nothing is written while reading: what cannot be resumed
//! is refused with the reason before the search, and so its next save, begins.

use std::collections::VecDeque;
use std::io::Read;
use std::path::Path;
use std::sync::atomic::Ordering;

use crate::bfs::shard::Partition;
use crate::bfs::table::Table;
use crate::bfs::SearchState;
use crate::dist::{agreed, Group};
use crate::error::{Damage, Error};
use crate::index::space::StateSpace;
use crate::store::checkpoint::{self, Loaded, Opened, CHUNK_WORDS};
use crate::store::disk::whole::{AtBoundary, ShardFile};
use crate::store::header::{checksum, le_words, Checksum};
use crate::store::shards::{self, Manifest, ShardOf};

/// Words a rank reads and sends in one exchange: 8 MB.
const PART: usize = 1 << 20;

/// What a checkpoint directory holds to go on from.
enum Saved {
    /// One process's file.
    Whole,
    /// A distributed run's manifest, naming its shards.
    Shards(Manifest),
    /// A search on disk (`store::disk`) stopped at a layer boundary.
    Disk(Box<AtBoundary>),
}

/// What `dir` holds for a search of `space` from `start`. Both kinds are there only when a
/// search resumed from the other kind was killed between its first save and the removal of
/// what it resumed from: the deeper is the newer (at equal depths they hold the same state).
fn saved(dir: &Path, space: &StateSpace, start: u64) -> Result<Saved, Error> {
    let whole = checkpoint::file(dir).exists();
    if !whole && crate::store::disk::holds_search(dir) {
        return Ok(Saved::Disk(Box::new(AtBoundary::open(dir, space, start)?)));
    }
    if !shards::manifest_file(dir).exists() {
        return match whole {
            true => Ok(Saved::Whole),
            false => Err(Error::Checkpoint {
                path: dir.to_path_buf(),
                damage: Damage::missing("no checkpoint there (start a run with --checkpoint DIR)"),
            }),
        };
    }
    let manifest = shards::load_manifest(dir, space, start)?;
    // An unreadable header is `checkpoint::load`'s to explain.
    let newer = whole && checkpoint::saved_depth(dir).is_none_or(|d| d > manifest.depth);
    Ok(if newer {
        Saved::Whole
    } else {
        Saved::Shards(manifest)
    })
}

/// The search saved in `dir` (by one process, by any number of ranks, or on disk), read into
/// one process's table.
pub fn load_one(dir: &Path, space: &StateSpace, start: u64) -> Result<Loaded, Error> {
    let saved = saved(dir, space, start)?;
    match saved {
        Saved::Whole => return checkpoint::load(dir, space, start),
        Saved::Disk(at) => return at.into_memory(space),
        Saved::Shards(_) => {}
    }
    let solo = crate::dist::threads::Shared::new(1);
    let partition = Partition::new(space, 1);
    let of = ShardOf {
        space,
        start,
        rank: 0,
        partition: &partition,
    };
    let (state, seconds) = read(&solo.rank(0), dir, saved, of, Table::new(space.states()))?;
    Ok(Loaded { state, seconds })
}

/// Rank `of.rank`'s share, under the partition `of.partition`, of the search saved in `dir` (by
/// one process, by any number of ranks, or on disk), and the seconds of search it records. A
/// collective: every rank calls it, and all fail if any does.
pub fn load_rank(group: &dyn Group, dir: &Path, of: ShardOf) -> Result<(SearchState, f64), Error> {
    let saved = agreed(
        group,
        "reading the checkpoint",
        saved(dir, of.space, of.start),
    )?;
    let table = crate::dist::search::shard_table(of.space, of.partition, of.rank);
    let table = agreed(group, "allocating its shard of the table", table)?;
    read(group, dir, saved, of, table)
}

/// Removes the files of `dir`'s checkpoints that `who` (rank of ranks; `None`: one process) is
/// to remove once it (with every rank) has saved the one at depth `keep`: older saves, saves of
/// the other kind and of other rank counts (`shards::remove_shards`). With `keep` `None`, once
/// the reports are written: every file of the checkpoint.
pub fn remove_others(
    dir: &Path,
    who: Option<(usize, usize)>,
    keep: Option<u32>,
) -> Result<(), Error> {
    match who {
        None => {
            if keep.is_none() {
                checkpoint::remove(dir)?;
            }
            shards::remove_shards(dir, 0, 1, None)
        }
        Some((rank, ranks)) => {
            if rank == 0 {
                checkpoint::remove(dir)?;
            }
            shards::remove_shards(dir, rank, ranks, keep)
        }
    }
}

/// Fills `table` with this rank's words of what `dir` holds (`saved`), and checks the whole.
fn read(
    group: &dyn Group,
    dir: &Path,
    saved: Saved,
    of: ShardOf,
    table: Table,
) -> Result<(SearchState, f64), Error> {
    let space = of.space;
    let bad = |why: String| Error::Checkpoint {
        path: dir.to_path_buf(),
        damage: why.into(),
    };
    let streams = agreed(
        group,
        "opening the checkpoint's files",
        open_mine(group, dir, &saved, of),
    )?;
    // Every file's layer counts and flags, compared before the words are read.
    let prints: Vec<u64> = streams.iter().map(Stream::fingerprint).collect();
    let prints = group.all_gather(prints);
    if prints.iter().any(|&p| p != prints[0]) {
        return Err(bad("its files hold different layer counts".into()));
    }
    // Every rank has read the journal of a search on disk; else rank 0 reads the first file,
    // and its figures are every rank's.
    let first = match (&saved, group.rank(), streams.front()) {
        (Saved::Disk(at), ..) => [at.seconds().to_bits(), 0, 0]
            .into_iter()
            .chain(at.layers().iter().copied())
            .collect(),
        (_, 0, Some(s)) => [
            s.seconds.to_bits(),
            s.file.flags[0].into(),
            s.file.flags[1].into(),
        ]
        .into_iter()
        .chain(s.file.layers.iter().copied())
        .collect(),
        _ => vec![],
    };
    let first = match saved {
        Saved::Disk(_) => first,
        _ => group.all_gather(first),
    };
    let (seconds, flags) = (f64::from_bits(first[0]), &first[1..3]);
    let mut layers = first[3..].to_vec();
    let read = copy(group, streams, of.partition, &table);
    agreed(group, "reading the checkpoint's files", read)?;
    // Not saved by ranks, and not sent by them: the layer after a resume is built by a scan.
    let mut frontier = None;
    if let Saved::Disk(at) = &saved {
        // The claims that waited for the next pass: each rank marks those it holds, and keeps
        // its states of the frontier's list, where the journal has one (a multi-tile search
        // stopped at its last layer has only the list to name that layer by).
        let mine = |i: u64| of.partition.owner(i) == of.rank;
        frontier = at
            .frontier()
            .map(|f| f.iter().copied().filter(|&i| mine(i)).collect());
        let late = at.late(&table, mine, frontier.as_mut());
        let late = agreed(group, "reading the claims", late)?;
        *layers.last_mut().expect("a journal has a layer") += group.sum(late);
    }
    let state = SearchState {
        start: of.start,
        layers,
        frontier,
        pulling: flags[0] != 0,
        unsettled: flags[1] != 0,
        table,
    };
    check_shards(group, space, &state).map_err(bad)?;
    Ok((state, seconds))
}

/// Opens the files this rank reads: shard K of P when K mod the ranks now is this rank, one
/// process's file on rank 0.
fn open_mine(
    group: &dyn Group,
    dir: &Path,
    saved: &Saved,
    of: ShardOf,
) -> Result<VecDeque<Stream>, Error> {
    let (rank, ranks) = (group.rank(), group.size());
    match saved {
        Saved::Whole if rank == 0 => {
            let w = checkpoint::open_whole(dir, of.space, of.start)?;
            let words = of.space.states().div_ceil(32);
            let mut sum = Sum::Chunks {
                outer: Checksum::new(),
                chunk: Checksum::new(),
                n: 0,
            };
            w.leading.iter().for_each(|&c| sum.outer_add(c));
            Ok(VecDeque::from([Stream {
                file: w.file,
                runs: VecDeque::from([(0, words)]),
                sum,
                want: w.sum,
                seconds: w.seconds,
            }]))
        }
        Saved::Whole => Ok(VecDeque::new()),
        Saved::Disk(at) => at
            .shard_files()
            .into_iter()
            .enumerate()
            .filter(|(k, _)| k % ranks == rank)
            .map(|(_, f)| disk_stream(f, at))
            .collect(),
        Saved::Shards(manifest) => {
            let before = Partition::new(of.space, manifest.ranks());
            (rank..manifest.ranks())
                .step_by(ranks)
                .map(|k| {
                    let theirs = ShardOf {
                        rank: k,
                        partition: &before,
                        ..of
                    };
                    let s = shards::open_shard(dir, theirs, manifest)?;
                    let mut data = Checksum::new();
                    data.add(checksum(s.file.layers.iter().copied()));
                    Ok(Stream {
                        file: s.file,
                        runs: s.runs.into(),
                        sum: Sum::Words(data),
                        want: s.sum,
                        seconds: manifest.seconds,
                    })
                })
                .collect()
        }
    }
}

/// A shard file of a search on disk as a stream: its words in order, one checksum over them.
fn disk_stream(f: ShardFile, at: &AtBoundary) -> Result<Stream, Error> {
    let file =
        crate::store::atomic::open_regular(&f.path).map_err(|source| match source.kind() {
            std::io::ErrorKind::NotFound => Error::Checkpoint {
                path: f.path.clone(),
                damage: Damage::missing("a shard the journal names is missing"),
            },
            _ => Error::Read {
                path: f.path.clone(),
                source,
            },
        })?;
    let (a, b) = f.words;
    Ok(Stream {
        file: Opened {
            path: f.path,
            reader: std::io::BufReader::new(file),
            layers: at.layers().to_vec(),
            flags: [false; 2],
        },
        runs: VecDeque::from([(a as u64, b as u64)]),
        sum: Sum::Words(Checksum::new()),
        want: f.sum,
        seconds: at.seconds(),
    })
}

/// Reads this rank's files part by part and sends each piece to the rank that holds it under
/// `now`, storing in `table` what arrives; every rank takes part in as many exchanges as the
/// rank with the most parts to read, whatever fails (and then sends nothing more).
fn copy(
    group: &dyn Group,
    mut streams: VecDeque<Stream>,
    now: &Partition,
    table: &Table,
) -> Result<(), Error> {
    let parts: u64 = streams.iter().map(Stream::parts).sum();
    let rounds = group.max(parts);
    let mut failed = None;
    let mut buf = vec![0u8; PART * 8];
    for _ in 0..rounds {
        let mut out = vec![vec![]; group.size()];
        if let (None, Some(stream)) = (&failed, streams.front_mut()) {
            match stream.read(&mut buf) {
                Ok(pieces) => send(pieces, now, &mut out),
                Err(e) => failed = Some(e),
            }
            if stream.runs.is_empty() {
                streams.pop_front();
            }
        }
        let got = group.exchange_flat(out);
        let mut rest = &got[..];
        while let [w, n, tail @ ..] = rest {
            let (w, n) = (*w as usize, *n as usize);
            debug_assert_eq!(now.owner(w as u64 * 32), group.rank(), "sent to its owner");
            for (cell, &v) in table.span(w, w + n).iter().zip(&tail[..n]) {
                cell.store(v, Ordering::Relaxed);
            }
            rest = &tail[n..];
        }
    }
    failed.map_or(Ok(()), Err)
}

/// Appends each piece (first index word, words) to what goes to the ranks holding its words
/// under `now`, cut at its blocks, as (first word, count, words).
fn send(pieces: Vec<(u64, Vec<u64>)>, now: &Partition, out: &mut [Vec<u64>]) {
    let block = 1u64 << (now.shift() - 5);
    for (mut w, words) in pieces {
        let mut rest = &words[..];
        while !rest.is_empty() {
            let n = ((w / block + 1) * block - w).min(rest.len() as u64) as usize;
            let to = &mut out[now.owner(w * 32)];
            to.extend([w, n as u64]);
            to.extend_from_slice(&rest[..n]);
            w += n as u64;
            rest = &rest[n..];
        }
    }
}

/// How a file's checksum covers its words.
enum Sum {
    /// A shard's: one checksum over its layer counts' checksum and every word.
    Words(Checksum),
    /// One process's: a checksum over its leading checksums and one per chunk of words.
    Chunks {
        outer: Checksum,
        chunk: Checksum,
        n: usize,
    },
}

impl Sum {
    fn outer_add(&mut self, c: u64) {
        match self {
            Sum::Words(s) | Sum::Chunks { outer: s, .. } => s.add(c),
        }
    }

    fn add(&mut self, w: u64) {
        match self {
            Sum::Words(s) => s.add(w),
            Sum::Chunks { outer, chunk, n } => {
                chunk.add(w);
                *n += 1;
                if *n == CHUNK_WORDS {
                    outer.add(chunk.value());
                    (*chunk, *n) = (Checksum::new(), 0);
                }
            }
        }
    }

    fn value(&self) -> u64 {
        match self {
            Sum::Words(s) => s.value(),
            Sum::Chunks { outer, chunk, n } => {
                let mut all = *outer;
                if *n > 0 {
                    all.add(chunk.value());
                }
                all.value()
            }
        }
    }
}

/// One saved file being read: positioned at its next word, with the runs of index words still
/// to read (in file order) and the checksum of what has passed.
struct Stream {
    file: Opened,
    runs: VecDeque<(u64, u64)>,
    sum: Sum,
    /// The checksum the file and the manifest give.
    want: u64,
    seconds: f64,
}

impl Stream {
    /// Its layer counts and flags, as one word.
    fn fingerprint(&self) -> u64 {
        let flags = self.file.flags.map(u64::from);
        checksum(self.file.layers.iter().chain(&flags).copied())
    }

    /// Reads of `PART` words it takes (one at least: the last checks the checksum).
    fn parts(&self) -> u64 {
        let words: u64 = self.runs.iter().map(|&(a, b)| b - a).sum();
        words.div_ceil(PART as u64).max(1)
    }

    /// Reads the next `PART` words or fewer, as pieces (first index word, words); after the
    /// last, checks that the file ends there and its checksum.
    fn read(&mut self, buf: &mut [u8]) -> Result<Vec<(u64, Vec<u64>)>, Error> {
        let bad = |why: Damage| Error::Checkpoint {
            path: self.file.path.clone(),
            damage: why,
        };
        let short = |e: std::io::Error| bad(Damage::length(format!("truncated ({e})")));
        let mut pieces = vec![];
        let mut budget = PART as u64;
        while let Some(&(a, b)) = self.runs.front().filter(|_| budget > 0) {
            let n = (b - a).min(budget);
            let bytes = &mut buf[..n as usize * 8];
            self.file.reader.read_exact(bytes).map_err(short)?;
            let words: Vec<u64> = le_words(bytes).collect();
            words.iter().for_each(|&w| self.sum.add(w));
            pieces.push((a, words));
            budget -= n;
            match a + n {
                end if end == b => drop(self.runs.pop_front()),
                end => self.runs[0].0 = end,
            }
        }
        if self.runs.is_empty() {
            if self.file.reader.read(&mut [0u8; 1]).map_err(short)? != 0 {
                return Err(bad(Damage::length("longer than its header says")));
            }
            if self.sum.value() != self.want {
                return Err(bad(Damage::checksum(
                    "the data is corrupted (checksum mismatch)",
                )));
            }
        }
        Ok(pieces)
    }
}

/// Why the table and layer counts read cannot be one search's state at a layer boundary, if
/// so (each file passed its checksums, which a crafted file recomputes): together the ranks'
/// tables mark as many states as the layers count and hold the frontier in exactly the last
/// layer. A collective: every rank gets the same answer.
fn check_shards(group: &dyn Group, space: &StateSpace, shard: &SearchState) -> Result<(), String> {
    let codes = [1, 2, 3].map(|c| group.sum(shard.table.count(c)));
    checkpoint::check_codes(
        &shard.layers,
        shard.unsettled,
        codes,
        crate::bfs::moves::coding(space),
        space.states(),
    )
}

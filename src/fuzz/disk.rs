//! The `disk_files` target: a shard or claim file of a search on disk, forged, beside the rest
//! of the search's files.

use std::path::Path;
use std::sync::OnceLock;

use super::{check_resumed, on_disk, scratch, search_of, stopped_at};
use crate::store::disk::journal::{Journal, Sealed};
use crate::store::header::{checksum, le_words};

/// The files of a stopped search on disk: (name, bytes), the journal's among them.
type Files = Vec<(String, Vec<u8>)>;

/// The searches of `search_of` whose files this target forges: the boards of 6 cells (a search
/// of 3x3 on disk in shards of 2^5 states has thousands of files to copy a case).
const SEARCHES: [u8; 3] = [0, 2, 3];

/// Where the searches stop: a layer whose pass leaves claims behind for the next one.
const DEPTH: u32 = 8;

/// The files of search `SEARCHES[k]` on disk, stopped after `DEPTH` (made once a process).
fn stopped(k: usize) -> &'static Files {
    static STOPPED: OnceLock<Vec<Files>> = OnceLock::new();
    &STOPPED.get_or_init(|| {
        SEARCHES
            .iter()
            .map(|&s| {
                let (shape, goal) = search_of(s << 1);
                let dir = stopped_at(DEPTH, |dir, stop, progress| {
                    let _ = on_disk(shape, goal, dir, Some(stop), progress);
                });
                let mut files: Files = std::fs::read_dir(dir.path())
                    .expect("the search's directory")
                    .map(|e| e.expect("an entry").path())
                    .filter(|p| p.extension().is_some_and(|x| x == "tsw" || x == "tsc"))
                    .map(|p| (name(&p), std::fs::read(&p).expect("a file of the search")))
                    .collect();
                files.sort();
                files.push(("search.tsj".into(), read(dir.path(), "search.tsj")));
                files
            })
            .collect()
    })[k]
}

fn name(path: &Path) -> String {
    path.file_name()
        .expect("a file name")
        .to_string_lossy()
        .into_owned()
}

fn read(dir: &Path, name: &str) -> Vec<u8> {
    std::fs::read(dir.join(name)).expect("a file of the search")
}

/// A control byte and a file: bits 1 and 2 pick the search (of `SEARCHES`), bits 3 to 7 which
/// of its shard and claim files the bytes replace. Resealed (bit 0), the journal records the
/// forged file's checksum (and a claim file's length), so that only the checks of its contents
/// stand between it and the search. Refused, or resumed to the end with a result that
/// `check_resumed` accepts.
pub fn disk_files(data: &[u8]) {
    let Some((&control, bytes)) = data.split_first() else {
        return;
    };
    let k = usize::from(control >> 1) % SEARCHES.len();
    let files = stopped(k);
    if files.len() < 2 {
        return;
    }
    let forged = usize::from(control >> 3) % (files.len() - 1);
    let dir = scratch();
    for (i, (name, original)) in files.iter().enumerate() {
        let contents = if i == forged { bytes } else { original };
        std::fs::write(dir.path().join(name), contents).expect("scratch write");
    }
    if control & 1 != 0 {
        let (name, original) = &files[forged];
        reseal(dir.path(), name, original, bytes);
    }
    let (shape, goal) = search_of(SEARCHES[k] << 1);
    check_resumed(shape, goal, on_disk(shape, goal, dir.path(), None, &|_| {}));
}

/// Records file `name` (once holding `original`) as holding `forged` in the journal in `dir`:
/// a shard's checksum; a claim file's committed words and their checksum, wherever the journal
/// committed the original's.
fn reseal(dir: &Path, name: &str, original: &[u8], forged: &[u8]) {
    let Ok(mut journal) = Journal::parse(&read(dir, "search.tsj")) else {
        return;
    };
    let sum = |bytes: &[u8], words: u64| {
        let words = (words as usize).min(bytes.len() / 8);
        checksum(le_words(&bytes[..words * 8]))
    };
    let shard = |prefix: &str| name.strip_prefix(prefix).and_then(|r| r.split('-').next());
    if let Some(j) = shard("shard-").and_then(|j| j.parse::<usize>().ok()) {
        if let Some(entry) = journal.shards.get_mut(j) {
            entry.sum = sum(forged, u64::MAX);
        }
    } else if let Some(j) = name
        .rsplit('-')
        .next()
        .and_then(|j| j.trim_end_matches(".tsc").parse::<usize>().ok())
    {
        let new = Sealed {
            words: forged.len() as u64 / 8,
            sum: sum(forged, u64::MAX),
        };
        for claims in [
            &mut journal.behind_now,
            &mut journal.ahead_next,
            &mut journal.behind_next,
        ] {
            if let Some(entry) = claims.get_mut(j) {
                if entry.words > 0 && entry.sum == sum(original, entry.words) {
                    *entry = new;
                }
            }
        }
    }
    journal.commit(dir).expect("scratch write");
}

/// Each search's shard and claim files as they are (unsealed: the journal already holds them).
pub(super) fn seeds() -> Vec<Vec<u8>> {
    let mut seeds = vec![];
    for k in 0..SEARCHES.len() {
        let files = stopped(k);
        for (f, (_, bytes)) in files[..files.len() - 1].iter().enumerate().step_by(3) {
            let control = ((f % 32) as u8) << 3 | (k as u8) << 1;
            seeds.push([&[control][..], bytes].concat());
        }
    }
    seeds
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::puzzle::Puzzle;
    use crate::puzzle::metric::Metric;

    /// The files of search `k` in a scratch directory, file `forged` holding `bytes`
    /// (resealed if `seal`); the search resumed from them.
    fn resumed(k: usize, forged: usize, bytes: &[u8], seal: bool) -> Result<String, String> {
        let files = stopped(k);
        let dir = scratch();
        for (i, (name, original)) in files.iter().enumerate() {
            let contents = if i == forged { bytes } else { original };
            std::fs::write(dir.path().join(name), contents).unwrap();
        }
        if seal {
            let (name, original) = &files[forged];
            reseal(dir.path(), name, original, bytes);
        }
        let (shape, goal) = search_of(SEARCHES[k] << 1);
        on_disk(shape, goal, dir.path(), None, &|_| {})
            .map(|a| format!("{:?} {}", a.distribution.layers, a.verified))
            .map_err(|e| e.to_string())
    }

    /// The searches stopped hold shard and claim files; the seeds resume to the true result; a
    /// file with a word changed is refused by its checksum, and resealed, reaches the checks
    /// behind it (refused for its contents, or resumed).
    #[test]
    fn the_target_reaches_the_search_behind_the_checksums() {
        for (k, &search) in SEARCHES.iter().enumerate() {
            let files = stopped(k);
            let (shape, goal) = search_of(search << 1);
            let truth = crate::analysis::analyze(
                &Puzzle::board(shape, goal, Metric::Single).unwrap(),
                Default::default(),
                &|_| {},
            )
            .unwrap();
            let want = format!("{:?} true", truth.distribution.layers);
            assert!(
                files.iter().any(|(n, _)| n.ends_with(".tsw")),
                "{k}: no shard"
            );
            assert!(
                files.iter().any(|(n, _)| n.ends_with(".tsc")),
                "{k}: no claims"
            );
            for (f, (name, bytes)) in files[..files.len() - 1].iter().enumerate() {
                assert_eq!(resumed(k, f, bytes, false), Ok(want.clone()), "{name}");
                if bytes.len() < 8 {
                    continue;
                }
                // A claim's index moved within its shard, or two of a shard's states' codes.
                let mut changed = bytes.clone();
                changed[0] ^= 0x05;
                let refused = resumed(k, f, &changed, false).unwrap_err();
                assert!(refused.contains("checksum"), "{name}: {refused}");
                if let Err(e) = resumed(k, f, &changed, true) {
                    assert!(!e.contains("checksum"), "{name}: {e}");
                }
            }
        }
    }
}

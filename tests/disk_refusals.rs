//! A search on disk refuses, in one line naming the cause, what it cannot go on with: a
//! missing journal or claim file, a journal naming another search, less memory than its
//! shards need, a file where its directory goes, a directory another kind of run owns; and a
//! journal resealed with contents no search can have.

use std::path::Path;

use crate::common::{claim_files, stderr, stopped_disk_search, tilespace};

/// `analyze 3x4 --resume d` (with `extra`) fails with exit 2 and one line holding `says`.
fn resume_refused(dir: &Path, extra: &[&str], says: &str) {
    let mut args = vec!["analyze", "3x4", "--resume", "d", "--results", "r", "-q"];
    args.extend(extra);
    let o = tilespace(&args, dir);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert!(
        err.contains(says),
        "{args:?}: {err:?} does not say {says:?}"
    );
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
}

/// A copy of the files of the directory `d` in a new directory `to`.
fn copy_of(d: &Path, to: &Path) {
    std::fs::create_dir(to).unwrap();
    for e in std::fs::read_dir(d).unwrap() {
        let p = e.unwrap().path();
        std::fs::copy(&p, to.join(p.file_name().unwrap())).unwrap();
    }
}

/// A search whose journal is gone is named as such (not "too large" or "no checkpoint"), with
/// or without `--max-memory`.
#[test]
fn a_missing_journal_is_named() {
    let tmp = tempfile::tempdir().unwrap();
    let d = stopped_disk_search(tmp.path());
    std::fs::remove_file(d.join("search.tsj")).unwrap();
    for extra in [&[][..], &["--max-memory", "8M"]] {
        resume_refused(tmp.path(), extra, "the journal search.tsj is missing");
    }
}

/// A claim file the journal commits, deleted: the file is named missing; the message does not
/// ask to fix a cause and go on, which cannot be.
#[test]
fn a_missing_claim_file_is_named() {
    let tmp = tempfile::tempdir().unwrap();
    let d = stopped_disk_search(tmp.path());
    // The journal commits every claim file a kill leaves (the rest are removed on resume),
    // but not always all of them: each one is tried on a copy until one is refused.
    let mut refused = None;
    for file in claim_files(&d) {
        let copy = tmp.path().join("copy");
        let _ = std::fs::remove_dir_all(&copy);
        copy_of(&d, &copy);
        std::fs::remove_file(copy.join(file.file_name().unwrap())).unwrap();
        let o = tilespace(
            &["analyze", "3x4", "--resume", "copy", "--results", "r", "-q"],
            tmp.path(),
        );
        if !o.status.success() {
            refused = Some(stderr(&o));
            break;
        }
    }
    let err = refused.expect("some claim file is committed");
    assert!(
        err.contains("a claim file the journal names is missing"),
        "{err}"
    );
    assert!(!err.contains("when the cause is fixed"), "{err}");
}

/// The journal of `d` as words, changed by `forge` and resealed with a valid checksum.
fn reseal(d: &Path, forge: impl FnOnce(&mut Vec<u64>)) {
    let path = d.join("search.tsj");
    let bytes = std::fs::read(&path).unwrap();
    let mut words: Vec<u64> = bytes
        .chunks(8)
        .map(|c| u64::from_le_bytes(c.try_into().unwrap()))
        .collect();
    forge(&mut words);
    let mut forged: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    tilespace::store::disk::journal::reseal(&mut forged);
    std::fs::write(&path, forged).unwrap();
}

/// A journal resealed with another metric word: the message names the field that differs,
/// not a search that reads as the one asked for.
#[test]
fn a_journal_of_another_search_names_the_field() {
    let tmp = tempfile::tempdir().unwrap();
    let d = stopped_disk_search(tmp.path());
    // The metric is bytes 28..32 of the header, the high half of word 3 (the journal's doc).
    reseal(&d, |words| words[3] = (words[3] & 0xFFFF_FFFF) | 7 << 32);
    resume_refused(tmp.path(), &[], "its metric is 7 (none), not 0 (single)");
}

/// Journals resealed with contents no search of 3x4 can have (a checksum proves nothing of a
/// forged file) are refused, naming what is wrong, before the table reads an index or a count
/// wraps: an index past the class's 12!/2 = 239,500,800 states, counts adding up past it, a
/// first layer other than the start alone, a shard written in a later pass.
#[test]
fn a_resealed_journal_with_impossible_contents_is_refused() {
    const STATES: u64 = 239_500_800;
    // After the header's 8 words: word 9 is the pass, 13 `late`, 16 the layers' count, then the
    // layers, the frontier's list (or 2^64-1 for none) and the next layer's (the journal's doc).
    let list_at = |w: &[u64]| {
        let frontier = 17 + w[16] as usize;
        let next = if w[frontier] == u64::MAX {
            frontier + 1
        } else {
            frontier + 1 + w[frontier] as usize
        };
        (frontier, next)
    };
    type Forge = fn(&mut Vec<u64>, (usize, usize));
    let forgeries: [(&str, Forge, &str); 5] = [
        (
            "late",
            |w, _| w[13] = u64::MAX - 3,
            "add up to more than the class's 239500800 states",
        ),
        ("layer", |w, _| w[17] = 5, "its first layer has 5 states"),
        (
            "index",
            |w, (f, n)| {
                // The first listed index, of the frontier or else of the next layer.
                let at = if w[f] != u64::MAX && w[f] > 0 {
                    f + 1
                } else {
                    n + 1
                };
                assert!(
                    at < w.len() - 1 && (at == f + 1 || w[n] > 0),
                    "no index is listed"
                );
                w[at] = STATES + 7;
            },
            "names state 239500807, past the class's 239500800",
        ),
        (
            "shard",
            |w, (_, n)| {
                // The first shard's pass, after the next layer's list.
                let shard = n + 1 + w[n] as usize;
                w[shard] = w[9] + 2;
            },
            "was written in pass",
        ),
        (
            "shard counts",
            |w, _| {
                // The last two words before the checksum: the last shard's frontier and next counts.
                let k = w.len() - 3;
                w[k] = STATES + 1;
            },
            "shards' frontier states add up to more than",
        ),
    ];
    let tmp = tempfile::tempdir().unwrap();
    let d = stopped_disk_search(tmp.path());
    for (name, forge, says) in forgeries {
        let copy = tmp.path().join(name);
        copy_of(&d, &copy);
        reseal(&copy, |w| {
            let lists = list_at(w);
            forge(w, lists);
        });
        let o = tilespace(
            &["analyze", "3x4", "--resume", name, "--results", "r", "-q"],
            tmp.path(),
        );
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{name}: {err}");
        assert!(err.contains(says), "{name}: {err:?} does not say {says:?}");
        assert_eq!(err.trim_end().lines().count(), 1, "{name}: {err}");
    }
}

/// A search cut for 8 MB resumed with 300 kB is refused before it runs past the limit.
#[test]
fn a_resume_with_less_memory_than_its_shards_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    stopped_disk_search(tmp.path());
    resume_refused(
        tmp.path(),
        &["--max-memory", "300k"],
        "was cut into shards of 2.1 MB",
    );
}

/// `--disk` on a regular file or a device: "not a directory".
#[test]
fn a_disk_directory_that_is_a_file_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("f"), "x").unwrap();
    for target in ["f", "/dev/null"] {
        let o = tilespace(
            &["analyze", "2x5", "--disk", target, "--max-memory", "1M"],
            tmp.path(),
        );
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(err.contains("is not a directory"), "{target}: {err}");
    }
}

/// A directory holding a checkpoint (or the lock of a run writing one) is not taken by a
/// search on disk, and one holding a search on disk is not taken by `--checkpoint`.
#[test]
fn a_disk_directory_and_a_checkpoint_directory_are_not_shared() {
    let tmp = tempfile::tempdir().unwrap();
    let ck = tmp.path().join("ck");
    std::fs::create_dir(&ck).unwrap();
    for name in ["checkpoint.tsc", ".checkpoint.lock"] {
        std::fs::write(ck.join(name), "").unwrap();
        let o = tilespace(
            &["analyze", "2x5", "--disk", "ck", "--max-memory", "1M", "-q"],
            tmp.path(),
        );
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{name}: {err}");
        assert!(err.contains("holds a checkpoint's file"), "{name}: {err}");
        std::fs::remove_file(ck.join(name)).unwrap();
    }
    stopped_disk_search(tmp.path());
    let o = tilespace(
        &[
            "analyze",
            "3x4",
            "--checkpoint",
            "d",
            "--results",
            "r",
            "-q",
        ],
        tmp.path(),
    );
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("it holds a search on disk"), "{err}");
}

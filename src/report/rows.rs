//! CSV files of rows: read (a missing file has none), written atomically, and upserted by key.

use std::path::Path;

use serde::Serialize;

use crate::error::Error;
use crate::store::atomic::write_atomic;

/// Replaces the rows of `path` whose `key` one of `new` has, adds the others, sorts by `key`:
/// under the file's lock, so that concurrent runs writing the same report keep every row.
pub fn upsert_rows<T, K>(path: &Path, new: Vec<T>, key: impl Fn(&T) -> K) -> Result<(), Error>
where
    T: Serialize + serde::de::DeserializeOwned,
    K: Ord,
{
    let _lock = crate::store::lock::exclusive(path)?;
    let mut rows: Vec<T> = read_rows(path)?;
    // A set of the new keys: a sweep upserts thousands of rows into thousands.
    let replaced: std::collections::BTreeSet<K> = new.iter().map(&key).collect();
    rows.retain(|r| !replaced.contains(&key(r)));
    rows.extend(new);
    rows.sort_by_key(|r| key(r));
    write_rows(path, &rows)
}

/// The rows of a CSV report; none if the file does not exist.
pub fn read_rows<T: serde::de::DeserializeOwned>(path: &Path) -> Result<Vec<T>, Error> {
    let read_err = |e: csv::Error| Error::damaged(path, e.to_string());
    match crate::store::atomic::open_regular(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(vec![]),
        Err(source) => Err(Error::Read {
            path: path.to_path_buf(),
            source,
        }),
        Ok(f) => {
            let mut reader = csv::Reader::from_reader(f);
            let headers = reader.headers().map_err(read_err)?;
            if let Some(name) = repeated_column(headers) {
                return Err(Error::damaged(
                    path,
                    format!("the column `{name}` appears twice"),
                ));
            }
            reader.deserialize().map(|r| r.map_err(read_err)).collect()
        }
    }
}

/// A column name that a CSV header holds twice (spaces around names ignored), if any: which
/// of the two a reader takes is arbitrary, so such a file is refused.
pub fn repeated_column(headers: &csv::StringRecord) -> Option<String> {
    let mut seen = std::collections::HashSet::new();
    headers
        .iter()
        .map(str::trim)
        .find(|h| !seen.insert(*h))
        .map(str::to_string)
}

/// The rows of a report, each passed through `check` (which says why a row cannot be one the
/// tool wrote); the first that fails is refused with its number, its board, and `again` (how
/// to make the report anew).
pub fn read_checked<T: serde::de::DeserializeOwned>(
    path: &Path,
    check: impl Fn(&T) -> Result<(), String>,
    board: impl Fn(&T) -> &str,
    again: &str,
) -> Result<Vec<T>, Error> {
    let rows: Vec<T> = read_rows(path)?;
    for (i, row) in rows.iter().enumerate() {
        check(row).map_err(|why| {
            Error::damaged(
                path,
                format!(
                    "row {} ({}): {why} (a damaged report: {again})",
                    i + 1,
                    board(row)
                ),
            )
        })?;
    }
    Ok(rows)
}

/// Writes `rows` as a CSV with a header, atomically.
pub fn write_rows<T: Serialize>(path: &Path, rows: &[T]) -> Result<(), Error> {
    write_csv(path, |w| {
        for r in rows {
            w.serialize(r)?;
        }
        Ok(())
    })
}

/// Writes a CSV to a temporary file beside `path`, syncs it and renames it over `path`.
pub(crate) fn write_csv(
    path: &Path,
    fill: impl FnOnce(&mut csv::Writer<&mut Vec<u8>>) -> Result<(), csv::Error>,
) -> Result<(), Error> {
    let mut bytes = Vec::new();
    {
        let mut w = csv::Writer::from_writer(&mut bytes);
        fill(&mut w)
            .and_then(|()| w.flush().map_err(csv::Error::from))
            .map_err(|e| Error::Write {
                path: path.to_path_buf(),
                source: std::io::Error::other(e.to_string()),
            })?;
    }
    write_atomic(path, &bytes)
}

//! What commands read besides their arguments: a file's text (`-` standard input), and a
//! tokens argument given as `@FILE` (a goal or a start of a million tokens is past what the
//! kernel lets one argument hold).

use std::io::Read;
use std::path::Path;

use anyhow::Result;
use tilespace::Error;

/// Most bytes a file of tokens may hold: a graph's million vertices take a few MB.
const MOST_TOKEN_BYTES: u64 = 1 << 26;

/// The text of `path` (`-`: standard input), which must be UTF-8.
pub(super) fn read_text(path: &Path) -> Result<String> {
    read_at_most(path, u64::MAX)
}

/// The text of a tokens argument: `@FILE` the text of FILE (`@-` standard input), of at most
/// 64 MiB; anything else itself.
pub(super) fn tokens_text(arg: String) -> Result<String> {
    match arg.strip_prefix('@') {
        Some(path) => read_at_most(Path::new(path), MOST_TOKEN_BYTES),
        None => Ok(arg),
    }
}

fn read_at_most(path: &Path, most: u64) -> Result<String> {
    let read = |e| Error::Read {
        path: path.to_path_buf(),
        source: e,
    };
    let mut bytes = vec![];
    if path.as_os_str() == "-" {
        let stdin = std::io::stdin().lock();
        stdin.take(most.saturating_add(1)).read_to_end(&mut bytes)
    } else {
        tilespace::store::atomic::open_readable(path)
            .and_then(|f| f.take(most.saturating_add(1)).read_to_end(&mut bytes))
    }
    .map_err(read)?;
    if bytes.len() as u64 > most {
        let why = format!("more than {} MiB of tokens", most >> 20);
        return Err(read(std::io::Error::new(std::io::ErrorKind::InvalidData, why)).into());
    }
    Ok(String::from_utf8(bytes).map_err(|_| {
        read(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            "not UTF-8 text",
        ))
    })?)
}

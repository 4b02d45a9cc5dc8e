//! The fixed-size header that opens saved tables and checkpoints: magic, format version, fields
//! at fixed offsets (little-endian), and a checksum of everything before it; plus the checksum
//! both files use for their data.

use crate::error::Damage;

/// A 64-bit checksum of words (a multiply-xorshift mix, order-sensitive).
pub fn checksum(words: impl Iterator<Item = u64>) -> u64 {
    let mut c = Checksum::new();
    words.for_each(|w| c.add(w));
    c.value()
}

/// `checksum`, fed one word at a time (for data streamed from several places).
#[derive(Clone, Copy, Debug)]
pub struct Checksum(u64);

impl Checksum {
    /// An empty checksum.
    pub fn new() -> Checksum {
        Checksum(0x9E37_79B9_7F4A_7C15)
    }

    /// A checksum whose words so far gave `value`: to go on adding to a file's.
    pub fn resume(value: u64) -> Checksum {
        Checksum(value)
    }

    /// Folds in one word.
    #[inline]
    pub fn add(&mut self, w: u64) {
        let h = (self.0 ^ w).wrapping_mul(0xFF51_AFD7_ED55_8CCD);
        self.0 = h ^ (h >> 29);
    }

    /// The checksum of the words added.
    pub fn value(&self) -> u64 {
        self.0
    }
}

impl Default for Checksum {
    fn default() -> Self {
        Checksum::new()
    }
}

/// Little-endian u64s of `bytes` (a multiple of 8 long): headers and data as checksummed.
pub fn le_words(bytes: &[u8]) -> impl Iterator<Item = u64> + '_ {
    bytes
        .chunks_exact(8)
        .map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes")))
}

/// Writes over the header checksum of the file image `bytes` (whose fields take `fields`
/// bytes) the checksum of what is there now, as a forger would: what tests and fuzzers use to
/// reach the checks behind the checksums. Too short an image is left alone.
pub fn reseal_header(bytes: &mut [u8], fields: usize) {
    if bytes.len() >= fields + 8 {
        let sum = checksum(le_words(&bytes[..fields]));
        bytes[fields..fields + 8].copy_from_slice(&sum.to_le_bytes());
    }
}

/// Little-endian u64 at `at` of `bytes`, if there are 8 bytes there (for `reseal` functions,
/// which read images of any length).
pub(crate) fn u64_at(bytes: &[u8], at: usize) -> Option<u64> {
    let b = bytes.get(at..at.checked_add(8)?)?;
    Some(u64::from_le_bytes(b.try_into().ok()?))
}

/// The u64s of `bytes[from..]`, a whole number of words (a trailing part word is left out).
pub(crate) fn words_from(bytes: &[u8], from: usize) -> Vec<u64> {
    le_words(bytes.get(from..).unwrap_or(&[])).collect()
}

/// The file of a saved table at `path`, opened, and its first `size` bytes (fewer if it is
/// shorter: the header's reader refuses it).
pub(crate) fn read_head(
    path: &std::path::Path,
    size: usize,
) -> Result<(std::fs::File, Vec<u8>), crate::error::Error> {
    use std::io::Read;
    let read = |source| crate::error::Error::Read {
        path: path.to_path_buf(),
        source,
    };
    let mut file = crate::store::atomic::open_regular(path).map_err(read)?;
    let mut head = Vec::with_capacity(size);
    (&mut file)
        .take(size as u64)
        .read_to_end(&mut head)
        .map_err(read)?;
    Ok((file, head))
}

/// A saved table's header refused: another format version is one to save again.
pub(crate) fn table_damage(why: Damage) -> Damage {
    match why.kind {
        crate::error::DamageKind::Mismatch if why.what.starts_with("format version") => {
            Damage::mismatch(why.what + ": save it again")
        }
        _ => why,
    }
}

/// Builds a header: magic and version, then fields in order; `finish` appends the checksum of
/// all that and pads to the header's size.
pub struct HeaderWriter {
    bytes: Vec<u8>,
}

impl HeaderWriter {
    /// A header starting with `magic` and `version`.
    pub fn new(magic: &[u8; 8], version: u32) -> HeaderWriter {
        let mut bytes = magic.to_vec();
        bytes.extend_from_slice(&version.to_le_bytes());
        HeaderWriter { bytes }
    }

    /// Appends a little-endian u32.
    pub fn u32(mut self, v: u32) -> Self {
        self.bytes.extend_from_slice(&v.to_le_bytes());
        self
    }

    /// Appends a little-endian u64.
    pub fn u64(mut self, v: u64) -> Self {
        self.bytes.extend_from_slice(&v.to_le_bytes());
        self
    }

    /// Appends bytes.
    pub fn bytes(mut self, v: &[u8]) -> Self {
        self.bytes.extend_from_slice(v);
        self
    }

    /// Appends the board fields and two bytes of flags (right after the magic and version).
    pub fn board(self, b: BoardFields, flags: [u8; 2]) -> Self {
        assert_eq!(self.bytes.len(), 12, "the board fields follow the version");
        self.u32(b.rows)
            .u32(b.cols)
            .u32(b.goal)
            .bytes(&[b.class, b.transposed, flags[0], flags[1]])
    }

    /// The header: the fields (a multiple of 8 bytes), their checksum, zeros up to `size`.
    pub fn finish(mut self, size: usize) -> Vec<u8> {
        assert_eq!(self.bytes.len() % 8, 0, "header fields end on a word");
        let sum = checksum(le_words(&self.bytes));
        self.bytes.extend_from_slice(&sum.to_le_bytes());
        assert!(self.bytes.len() <= size, "header fields fit the header");
        self.bytes.resize(size, 0);
        self.bytes
    }
}

/// The board fields every saved search's header starts with, after its magic and version (at
/// bytes 12..28: rows, columns and goal blank as u32s, then class, transposition and two flags
/// as bytes): checkpoints, their shards and the journal of a search on disk, which
/// `checkpoint::check_board` reads the same way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardFields {
    /// Rows and columns, in the user's orientation.
    pub rows: u32,
    pub cols: u32,
    /// The goal's blank cell (0-based, reading order).
    pub goal: u32,
    /// The parity class searched.
    pub class: u8,
    /// Whether the index is of the transposed board.
    pub transposed: u8,
}

impl BoardFields {
    /// The fields of a search of `space`.
    pub fn of(space: &crate::index::space::StateSpace) -> BoardFields {
        BoardFields {
            rows: space.user_shape().rows as u32,
            cols: space.user_shape().cols as u32,
            goal: space.user_goal().0 as u32,
            class: space.class(),
            transposed: u8::from(space.transposed()),
        }
    }

    /// The fields of a header (opened: at least 28 bytes long).
    pub fn read(h: &HeaderReader) -> BoardFields {
        BoardFields {
            rows: h.u32(12),
            cols: h.u32(16),
            goal: h.u32(20),
            class: h.byte(24),
            transposed: h.byte(25),
        }
    }
}

/// Reads a header written by `HeaderWriter` whose fields take `fields` bytes (the checksum
/// follows them).
#[derive(Debug)]
pub struct HeaderReader<'a> {
    bytes: &'a [u8],
}

impl<'a> HeaderReader<'a> {
    /// Checks magic, version and checksum, in that order; the error says which failed.
    pub fn open(
        bytes: &'a [u8],
        magic: &[u8; 8],
        version: u32,
        fields: usize,
        what: &str,
    ) -> Result<HeaderReader<'a>, Damage> {
        if bytes.len() < fields + 8 || &bytes[..8] != magic {
            return Err(Damage::mismatch(format!("not a tilespace {what}")));
        }
        let r = HeaderReader { bytes };
        if r.u32(8) != version {
            return Err(Damage::mismatch(format!(
                "format version {} (this tilespace reads version {version})",
                r.u32(8)
            )));
        }
        if checksum(le_words(&bytes[..fields])) != r.u64(fields) {
            return Err(Damage::checksum(
                "the header is corrupted (checksum mismatch)",
            ));
        }
        Ok(r)
    }

    /// The little-endian u32 at `offset`.
    pub fn u32(&self, offset: usize) -> u32 {
        u32::from_le_bytes(self.bytes[offset..offset + 4].try_into().expect("4 bytes"))
    }

    /// The little-endian u64 at `offset`.
    pub fn u64(&self, offset: usize) -> u64 {
        u64::from_le_bytes(self.bytes[offset..offset + 8].try_into().expect("8 bytes"))
    }

    /// The byte at `offset`.
    pub fn byte(&self, offset: usize) -> u8 {
        self.bytes[offset]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_header_reads_back_and_any_changed_byte_is_refused() {
        let head = HeaderWriter::new(b"TSTEST\0\0", 3)
            .u32(7)
            .u64(1 << 40)
            .bytes(&[1, 2, 3, 4])
            .u32(0)
            .finish(48);
        assert_eq!(head.len(), 48);
        let r = HeaderReader::open(&head, b"TSTEST\0\0", 3, 32, "test").unwrap();
        assert_eq!((r.u32(12), r.u64(16), r.byte(26)), (7, 1 << 40, 3));
        assert_eq!(r.u64(32), checksum(le_words(&head[..32])));
        assert!(HeaderReader::open(&head, b"TSTEST\0\0", 4, 32, "test")
            .unwrap_err()
            .what
            .contains("version 3"));
        assert!(HeaderReader::open(&head, b"TSOTHER\0", 3, 32, "test")
            .unwrap_err()
            .what
            .contains("not a tilespace test"));
        assert!(HeaderReader::open(&head[..20], b"TSTEST\0\0", 3, 32, "test").is_err());
        for i in 12..40 {
            let mut bad = head.clone();
            bad[i] ^= 0x10;
            assert!(
                HeaderReader::open(&bad, b"TSTEST\0\0", 3, 32, "test").is_err(),
                "byte {i} changed"
            );
        }
    }
}

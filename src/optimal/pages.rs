//! Zeroed memory in an anonymous mapping, in huge pages where the system gives them: the
//! builds probe their words and the searches their entries at random, and with 4 KiB pages
//! nearly every such probe of a large array also misses the TLB (a page walk whose tables do
//! not fit in the caches either: 3.4 MB of them for a 1.8 GB database).

use std::ops::{Deref, DerefMut};

/// `len` bytes, zeroed, page-aligned.
pub struct Pages {
    map: memmap2::MmapMut,
    len: usize,
}

impl Pages {
    /// `len` zeroed bytes (an error if the system will not map them).
    pub fn zeroed(len: usize) -> std::io::Result<Pages> {
        let map = memmap2::MmapOptions::new().len(len.max(1)).map_anon()?;
        #[cfg(target_os = "linux")]
        // Advice only: a kernel without transparent huge pages keeps small ones.
        let _ = map.advise(memmap2::Advice::HugePage);
        Ok(Pages { map, len })
    }

    /// A copy of `bytes`.
    pub fn copy(bytes: &[u8]) -> std::io::Result<Pages> {
        let mut p = Pages::zeroed(bytes.len())?;
        p.copy_from_slice(bytes);
        Ok(p)
    }

    /// Keeps the first `len` bytes (at most the length).
    pub fn truncate(&mut self, len: usize) {
        self.len = self.len.min(len);
    }
}

impl Deref for Pages {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        &self.map[..self.len]
    }
}

impl DerefMut for Pages {
    fn deref_mut(&mut self) -> &mut [u8] {
        &mut self.map[..self.len]
    }
}

impl std::fmt::Debug for Pages {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Pages({} bytes)", self.len)
    }
}

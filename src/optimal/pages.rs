//! Zeroed memory in an anonymous mapping, page-aligned, optionally in huge pages.
//!
//! Huge pages pay where an array is probed at random for long: with 4 KiB pages nearly every
//! probe of a large array also misses the TLB. The builds' words get them. Databases do not:
//! faulting huge pages in (the kernel compacts memory for them) slowed their loading far more
//! than it sped their searches (`docs/log/constants.md`).

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
        Ok(Pages { map, len })
    }

    /// `len` zeroed bytes in huge pages where the system gives them.
    pub fn huge(len: usize) -> std::io::Result<Pages> {
        let pages = Pages::zeroed(len)?;
        #[cfg(target_os = "linux")]
        // Advice only: a kernel without transparent huge pages keeps small ones.
        let _ = pages.map.advise(memmap2::Advice::HugePage);
        Ok(pages)
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

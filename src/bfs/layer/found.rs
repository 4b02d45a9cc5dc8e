//! What a task of a layer found: the states it marked, counted and perhaps listed.

/// What one task of a layer found: the states it marked (or settled), and their indices if the
/// layer is recorded.
#[derive(Debug, Default)]
pub struct Found {
    /// States marked (or settled).
    pub states: u64,
    /// Their indices, if the layer is recorded.
    pub marked: Vec<u64>,
}

impl Found {
    /// Adds the slots of word `w` set in `mask` (low bits): counted, and listed if `record`.
    #[inline(always)]
    pub(super) fn add_slots(&mut self, w: usize, mut mask: u64, record: bool) {
        self.states += u64::from(mask.count_ones());
        while record && mask != 0 {
            self.marked
                .push(w as u64 * 32 + u64::from(mask.trailing_zeros() / 2));
            mask &= mask - 1;
        }
    }

    /// Adds what another task found.
    pub fn add(&mut self, other: Found) {
        self.states += other.states;
        self.marked.extend(other.marked);
    }
}

//! How the 2-bit codes of a finished table tell depths apart: the one choice about codes that a
//! kind of moves makes (`MoveKind::CODING`), which persistence, the recount and the descents
//! of saved tables read instead of asking for the metric.

use crate::bfs::table::{depth_mod4, settled, FRONTIER};

/// A table's code convention.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Coding {
    /// Every move flips the blank's colour (the state graph is bipartite): a settled state
    /// holds 2 or 3 (`table::settled`), which with its blank's colour against the start's
    /// gives its depth mod 4 (`table::depth_mod4`); the frontier holds `FRONTIER` until
    /// settled. Single-tile moves.
    Coloured,
    /// Moves that keep the colour as well: a state at depth d holds 1 + d mod 3 from the
    /// layer that finds it on. Multi-tile moves.
    Cyclic,
}

impl Coding {
    /// The depths the codes tell apart: depth mod 4 or mod 3.
    pub fn modulus(self) -> u32 {
        match self {
            Coding::Coloured => 4,
            Coding::Cyclic => 3,
        }
    }

    /// The depth (mod `modulus`) of a settled state holding `code` whose blank's colour
    /// differs from the start's by `parity` (0 or 1); None for a code no settled state holds.
    pub fn depth_of(self, code: u64, parity: u32) -> Option<u32> {
        match self {
            Coding::Coloured if code >= 2 => Some(depth_mod4(code, parity)),
            Coding::Cyclic if (1..=3).contains(&code) => Some(code as u32 - 1),
            _ => None,
        }
    }

    /// The code a settled state at `depth` (mod `modulus`) holds.
    pub fn code_at(self, depth: u32) -> u64 {
        match self {
            Coding::Coloured => settled(depth),
            Coding::Cyclic => u64::from(depth % 3) + 1,
        }
    }

    /// The code the last layer of a search at `depth` holds at a layer boundary.
    pub fn frontier(self, depth: u32) -> u64 {
        match self {
            Coding::Coloured => FRONTIER,
            Coding::Cyclic => self.code_at(depth),
        }
    }

    /// Whether `residues` (the states at each depth mod `modulus`, the others 0) are what
    /// `layers` (states at each depth) give.
    pub fn residues_agree(self, layers: &[u64], residues: [u64; 4]) -> bool {
        let modulus = self.modulus() as usize;
        let mut want = [0u64; 4];
        for (d, n) in layers.iter().enumerate() {
            want[d % modulus] += n;
        }
        want == residues
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each depth's code reads back to the depth (mod the modulus), for either colour of a
    /// single-tile state (its parity is its depth's), and codes no settled state holds read as
    /// none.
    #[test]
    fn codes_read_back_to_their_depths() {
        for coding in [Coding::Coloured, Coding::Cyclic] {
            let m = coding.modulus();
            for depth in 0..24 {
                let code = coding.code_at(depth);
                assert_eq!(
                    coding.depth_of(code, depth & 1),
                    Some(depth % m),
                    "{coding:?}"
                );
            }
        }
        assert_eq!(Coding::Coloured.depth_of(FRONTIER, 0), None);
        assert_eq!(Coding::Cyclic.depth_of(0, 0), None);
        assert!(Coding::Cyclic.residues_agree(&[1, 2, 3, 4], [5, 2, 3, 0]));
        assert!(Coding::Coloured.residues_agree(&[1, 2, 3, 4, 5], [6, 2, 3, 4]));
        assert!(!Coding::Coloured.residues_agree(&[1, 2, 3, 4, 5], [5, 2, 3, 4]));
    }
}

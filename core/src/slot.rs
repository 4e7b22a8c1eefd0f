//! The history table's slot of a move ([`history_slot`], a game's own table of slots
//! built with [`history_slot_of_bytes`]): below both the [`Game`](crate::Game)
//! contract, whose `history_slot` defaults to it, and the engine's history table
//! (`search/history.rs`), which reads it.

use core::hash::{Hash, Hasher};

/// Slots of the history table per side (move hashes are folded into them): the
/// engine's default; an engine for a part with little RAM may have fewer
/// ([`Engine`](crate::search::Engine)'s `HISTORY` parameter).
pub const HISTORY_SLOTS: usize = 512;

/// Folds a move into a history slot with FxHash-style mixing of its `Hash` bytes:
/// [`history_slot_of_bytes`] of the bytes its `Hash` writes. The default of
/// [`Game::history_slot`](crate::Game::history_slot).
pub fn history_slot<M: Hash>(mv: &M) -> usize {
    struct Fx(u64);
    impl Hasher for Fx {
        fn finish(&self) -> u64 {
            self.0
        }
        fn write(&mut self, bytes: &[u8]) {
            for &b in bytes {
                self.0 = fx_byte(self.0, b);
            }
        }
    }
    let mut h = Fx(0);
    mv.hash(&mut h);
    slot_of_hash(h.0)
}

/// One byte of the FxHash-style mixing of [`history_slot`].
#[inline(always)]
const fn fx_byte(h: u64, b: u8) -> u64 {
    (h.rotate_left(5) ^ b as u64).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95)
}

/// The history slot of a mixed hash.
#[inline(always)]
const fn slot_of_hash(h: u64) -> usize {
    (crate::zobrist::mix64(h) as usize) % HISTORY_SLOTS
}

/// The history slot of a move whose `Hash` writes exactly `bytes` (as
/// [`history_slot`] computes it), in a `const` context: a game's table of slots
/// ([`Game::history_slot`](crate::Game::history_slot)) is built with it.
pub const fn history_slot_of_bytes(bytes: &[u8]) -> usize {
    let mut h = 0;
    let mut i = 0;
    while i < bytes.len() {
        h = fx_byte(h, bytes[i]);
        i += 1;
    }
    slot_of_hash(h)
}

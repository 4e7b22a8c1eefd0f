//! Kalah's exact perft key (`PerftKey`): every pit and both stores in fields of the
//! width of the game's seed total, and the side to move. A position is exactly
//! these (and its rules), so equal keys are equal positions. Sizes whose key would
//! be wider than `MAX_KEY_BITS` (`(2 × pits + 2) × width + 1` bits: more than 6 pits
//! with over 63 seeds) have none, and perft counts them without a table.

use super::{Kalah, KalahRules};
use crate::perft::table::MAX_KEY_BITS;
use crate::perft::PerftKey;

/// Bits of one field: enough for the whole seed total.
const fn field_bits(rules: KalahRules) -> u32 {
    u32::BITS - rules.total_seeds().leading_zeros()
}

const fn key_bits(rules: KalahRules) -> u32 {
    (2 * rules.pits as u32 + 2) * field_bits(rules) + 1
}

impl PerftKey for Kalah {
    fn perft_key_bits(rules: KalahRules) -> u32 {
        let bits = key_bits(rules);
        if bits <= MAX_KEY_BITS {
            bits
        } else {
            0
        }
    }

    #[inline]
    fn perft_key(&self) -> Option<u128> {
        if key_bits(self.rules) > MAX_KEY_BITS {
            return None;
        }
        let b = field_bits(self.rules);
        let pits = u32::from(self.rules.pits);
        let mut key = u128::from(self.side.index() as u8);
        for row in self.rows {
            for i in 0..pits {
                key = key << b | u128::from((row >> (8 * i)) & 0xff);
            }
        }
        for s in self.stores {
            key = key << b | u128::from(s);
        }
        Some(key)
    }
}

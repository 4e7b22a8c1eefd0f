//! Halma's exact perft keys (`PerftKey`).
//!
//! 8×8: the occupied squares (64 bits), then for each occupied square in order
//! whether the second player's piece stands there (24 bits, enough for the 20
//! pieces; a set-up position with more pieces has no key), the side to move, and the
//! plies left before the draw limit, capped at 64 — 96 bits. The cap is exact: a
//! table stores depths up to 63, and a position with `L` plies left is drawn `L`
//! plies down, so with 64 or more left no node of a stored subtree (63 plies)
//! reaches the limit, and all such counts agree. The win rule and the other options
//! are the rules, which one table does not mix.
//!
//! 16×16: two 256-bit boards do not pack into the widest key (19 + 19 pieces among
//! 256 squares take about 190 bits): no key, perft counts without a table.

use super::{Halma, HalmaBoard, HalmaRules};
use crate::game::Player;
use crate::perft::table::MAX_TABLE_DEPTH;
use crate::perft::PerftKey;

/// Occupied squares whose colours the 8×8 key holds.
const COLOUR_BITS: u32 = 24;

impl<B: HalmaBoard> PerftKey for Halma<B> {
    fn perft_key_bits(_rules: HalmaRules) -> u32 {
        if B::SIDE * B::SIDE <= 64 {
            64 + COLOUR_BITS + 1 + 7
        } else {
            0
        }
    }

    #[inline]
    fn perft_key(&self) -> Option<u128> {
        let occupied = self.pieces[0] | self.pieces[1];
        if B::SIDE * B::SIDE > 64 || occupied.count() > COLOUR_BITS {
            return None;
        }
        // The occupied squares, and the second player's among them one bit per
        // occupied square in square order.
        let mut squares = 0u128;
        let mut colours = 0u128;
        for (i, sq) in occupied.squares().enumerate() {
            squares |= 1 << sq;
            if self.pieces[1].has(sq) {
                colours |= 1 << i;
            }
        }
        let side = u128::from(self.stm == Player::Second);
        let left = u128::from(self.plies_left().min(MAX_TABLE_DEPTH as u16 + 1));
        Some(squares | colours << 64 | side << 88 | left << 89)
    }
}

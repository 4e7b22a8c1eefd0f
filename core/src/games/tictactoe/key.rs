//! Tic-tac-toe's exact perft key: the two 9-bit boards (the side to move follows
//! from the counts).

use super::TicTacToe;
use crate::perft::PerftKey;

impl PerftKey for TicTacToe {
    fn perft_key_bits(_rules: ()) -> u32 {
        18
    }

    #[inline]
    fn perft_key(&self) -> Option<u128> {
        Some(u128::from(self.x) | u128::from(self.o) << 9)
    }
}

//! The exact perft key of a draughts position (`PerftKey`): both colours' pieces,
//! the kings and the side to move, 97 bits.
//!
//! The key is given only when no king move has been made since the last man move or
//! capture (an empty history). Such a state is its pieces, its kings, the side to
//! move and the rules (the draw flag is clear, the history buffer empty, the
//! hash a function of the rest), so equal keys under one rule set are equal states,
//! with equal move trees. With a non-empty history the repetition draw, the move
//! limit and the Calgary rule read that history: such positions have no key and perft
//! counts them without the table (their children after a man move or a capture have
//! keys again).

use super::{Draughts, Rules};
use crate::perft::PerftKey;

impl PerftKey for Draughts {
    fn perft_key_bits(_rules: Rules) -> u32 {
        97
    }

    #[inline]
    fn perft_key(&self) -> Option<u128> {
        if self.reversible != 0 {
            return None;
        }
        Some(
            u128::from(self.pieces[0])
                | u128::from(self.pieces[1]) << 32
                | u128::from(self.kings) << 64
                | (self.to_move.index() as u128) << 96,
        )
    }
}

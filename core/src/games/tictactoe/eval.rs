//! Tic-tac-toe evaluations.

use super::{TicTacToe, LINES};
use crate::game::Player;
use crate::search::{Evaluator, Recommended, Score};

/// Tic-tac-toe evaluations: `lines` (open lines for the searching player minus open
/// lines for the opponent; antisymmetric) and `zero` (no knowledge: the search alone
/// decides).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum TicTacToeEval {
    /// Open lines difference.
    Lines,
    /// Always 0.
    Zero,
}

impl Evaluator<TicTacToe> for TicTacToeEval {
    fn evaluate(&self, g: &TicTacToe, player: Player) -> Score {
        match self {
            TicTacToeEval::Zero => 0,
            TicTacToeEval::Lines => {
                let me = g.marks(player);
                let them = g.marks(player.opponent());
                let open = |mine: u16, theirs: u16| {
                    LINES
                        .iter()
                        .filter(|&&l| l & theirs == 0 && l & mine != 0)
                        .count() as Score
                };
                open(me, them) - open(them, me)
            }
        }
    }
}

/// Open lines, with the engine's default switches.
impl Recommended for TicTacToe {
    type Evaluation = TicTacToeEval;

    fn evaluation() -> TicTacToeEval {
        TicTacToeEval::Lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Game;

    #[test]
    fn lines_counts_open_lines_for_the_player_asked() {
        // X in the centre: 4 open lines for X, none for O.
        let g = TicTacToe::parse_position((), "....x....").unwrap();
        assert_eq!(TicTacToeEval::Lines.evaluate(&g, Player::First), 4);
        assert_eq!(TicTacToeEval::Lines.evaluate(&g, Player::Second), -4);
        assert_eq!(TicTacToeEval::Zero.evaluate(&g, Player::First), 0);
    }
}

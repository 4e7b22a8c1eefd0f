//! Kalah's evaluations for the depth-limited searches: the store difference of the
//! Mancala parallelization report (docs/references.md) and ply's own.

use super::{non_empty, pit, Kalah};
use crate::game::{Game, Outcome, Player};
use crate::search::{for_player, Evaluator, Recommended, Score};

/// The evaluation of the Mancala parallelization report (docs/references.md): the
/// searching player's store minus the opponent's
/// (antisymmetric). A finished game scores its final margin for the side to move the
/// same way (the sweep has filled the stores).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct StoreDifference;

impl Evaluator<Kalah> for StoreDifference {
    #[inline]
    fn evaluate(&self, game: &Kalah, me: Player) -> Score {
        for_player(game, me, game.store_difference())
    }

    #[inline]
    fn terminal(&self, game: &Kalah, _outcome: Outcome, _ply: u32) -> Score {
        game.store_difference()
    }
}

/// ply's own Kalah evaluation, in quarter seeds for the side to move (made the
/// searching player's by [`for_player`]):
/// * the store difference (4 per seed);
/// * the extra turns the mover has right now (3 each) and the largest capture it
///   can make now (2 per seed): gains the mover can cash in on its move, which a
///   search horizon would otherwise cut off;
/// * seeds hoarded in the pit farthest from the store (1 per seed, the mover's
///   minus the opponent's): a classic Kalah heuristic — they stay home longest and
///   keep moves in reserve for the end;
/// * a decided game: a store holding more than half the seeds cannot be caught, so
///   such a position scores as a win (by a large bonus on top of the margin).
///
/// Finished games score `4 × margin` plus the same win bonus, so a sure win is
/// preferred to any heuristic lead and the larger margin among wins. The weights
/// were chosen by matches against [`StoreDifference`] at depths 4 to 8 (a term
/// counting all the seeds in each row lost those matches and was dropped).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct KalahEval;

/// The bonus [`KalahEval`] gives a decided game, in quarter seeds.
pub const DECIDED_BONUS: Score = 4096;

impl Evaluator<Kalah> for KalahEval {
    fn evaluate(&self, game: &Kalah, player: Player) -> Score {
        for_player(game, player, self.for_mover(game))
    }

    fn terminal(&self, game: &Kalah, _outcome: Outcome, _ply: u32) -> Score {
        let margin = game.store_difference();
        4 * margin + DECIDED_BONUS * margin.signum()
    }
}

/// [`KalahEval`], with the engine's default switches.
impl Recommended for Kalah {
    type Evaluation = KalahEval;

    fn evaluation() -> KalahEval {
        KalahEval
    }
}

impl KalahEval {
    /// The value for the side to move.
    pub fn for_mover(&self, game: &Kalah) -> Score {
        let me = game.side_to_move();
        let total = game.rules().total_seeds() as i32;
        let (mine, theirs) = (game.store(me) as i32, game.store(me.opponent()) as i32);
        if 2 * mine > total {
            return DECIDED_BONUS + 4 * (mine - theirs);
        }
        if 2 * theirs > total {
            return -DECIDED_BONUS + 4 * (mine - theirs);
        }
        let (own, opp) = game.rows_for_mover();
        let mut score = 4 * (mine - theirs) + pit(own, 0) as i32 - pit(opp, 0) as i32;
        let pits = u32::from(game.rules().pits);
        let mut best_capture = 0;
        let mut bits = non_empty(own);
        while bits != 0 {
            let i = bits.trailing_zeros() / 8;
            bits &= bits - 1;
            let c = pit(own, i);
            if i + c == pits {
                score += 3;
            } else if i + c < pits {
                let last = i + c;
                let across = pit(opp, pits - 1 - last);
                if pit(own, last) == 0 && across > 0 {
                    best_capture = best_capture.max(across + 1);
                }
            }
        }
        score + 2 * best_capture as i32
    }
}

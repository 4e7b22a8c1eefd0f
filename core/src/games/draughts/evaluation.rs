//! The draughts evaluations by kind: the hand-set one ([`DraughtsEval`], with its
//! weight sets) or the learned one ([`LearnedEval`]), as one type that the host and
//! the tools choose by name.

use super::{Draughts, DraughtsEval, LearnedEval};
use crate::game::Player;
use crate::search::{Evaluator, Score};

/// A draughts evaluation: hand-set weights or learned ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum DraughtsEvaluation {
    /// The evaluation of hand-set weights ([`DraughtsEval`]).
    Hand(DraughtsEval),
    /// The evaluation learned from games ([`LearnedEval`]).
    Learned(LearnedEval<'static>),
}

impl DraughtsEvaluation {
    /// The learned evaluation with the weights ply ships.
    pub const LEARNED: DraughtsEvaluation = DraughtsEvaluation::Learned(LearnedEval::SHIPPED);
    /// The hand-set evaluation, [`DraughtsEval::STANDARD`].
    pub const STANDARD: DraughtsEvaluation = DraughtsEvaluation::Hand(DraughtsEval::STANDARD);
    /// Material only, [`DraughtsEval::MATERIAL`].
    pub const MATERIAL: DraughtsEvaluation = DraughtsEvaluation::Hand(DraughtsEval::MATERIAL);

    /// The value for White minus the value for Black.
    pub fn white_minus_black(&self, g: &Draughts) -> Score {
        match self {
            DraughtsEvaluation::Hand(e) => e.white_minus_black(g),
            DraughtsEvaluation::Learned(e) => e.white_minus_black(g),
        }
    }
}

impl Evaluator<Draughts> for DraughtsEvaluation {
    #[inline]
    fn evaluate(&self, g: &Draughts, me: Player) -> Score {
        match self {
            DraughtsEvaluation::Hand(e) => e.evaluate(g, me),
            DraughtsEvaluation::Learned(e) => e.evaluate(g, me),
        }
    }
}

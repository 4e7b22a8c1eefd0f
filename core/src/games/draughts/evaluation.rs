//! The draughts evaluations by kind: the hand-set one ([`DraughtsEval`], with its
//! weight sets), the learned linear one ([`LearnedEval`]) or the network
//! ([`NetworkEval`]), as one type that the host and
//! the tools choose by name — and what ply plays draughts with by default
//! ([`Recommended`]: the network, late move reductions and futility pruning on).

use super::{Draughts, DraughtsEval, LearnedEval, NetworkEval};
use crate::game::Player;
use crate::search::{EngineConfig, Evaluator, Recommended, Score};

/// A draughts evaluation: hand-set weights or learned ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum DraughtsEvaluation {
    /// The evaluation of hand-set weights ([`DraughtsEval`]).
    Hand(DraughtsEval),
    /// The evaluation learned from games ([`LearnedEval`]).
    Learned(LearnedEval<'static>),
    /// The network learned from games ([`NetworkEval`]).
    Network(NetworkEval<'static>),
}

impl DraughtsEvaluation {
    /// The learned evaluation with the weights ply ships.
    pub const LEARNED: DraughtsEvaluation = DraughtsEvaluation::Learned(LearnedEval::SHIPPED);
    /// The network ply ships.
    pub const NETWORK: DraughtsEvaluation = DraughtsEvaluation::Network(NetworkEval::SHIPPED);
    /// The hand-set evaluation, [`DraughtsEval::STANDARD`].
    pub const STANDARD: DraughtsEvaluation = DraughtsEvaluation::Hand(DraughtsEval::STANDARD);
    /// Material only, [`DraughtsEval::MATERIAL`].
    pub const MATERIAL: DraughtsEvaluation = DraughtsEvaluation::Hand(DraughtsEval::MATERIAL);

    /// The value for White minus the value for Black.
    pub fn white_minus_black(&self, g: &Draughts) -> Score {
        match self {
            DraughtsEvaluation::Hand(e) => e.white_minus_black(g),
            DraughtsEvaluation::Learned(e) => e.white_minus_black(g),
            DraughtsEvaluation::Network(e) => e.white_minus_black(g),
        }
    }
}

impl Evaluator<Draughts> for DraughtsEvaluation {
    #[inline]
    fn evaluate(&self, g: &Draughts, me: Player) -> Score {
        match self {
            DraughtsEvaluation::Hand(e) => e.evaluate(g, me),
            DraughtsEvaluation::Learned(e) => e.evaluate(g, me),
            DraughtsEvaluation::Network(e) => e.evaluate(g, me),
        }
    }
}

/// The network ([`NetworkEval`]) with late move reductions ([`EngineConfig::lmr`])
/// and futility pruning: in 182 games at 0.1 s a move the network scored +46 Elo
/// (+15 to +78, SPRT accepted) against the learned linear evaluation, which had
/// scored +47 Elo (+23 to +72) against the hand-set one; late move reductions +53
/// Elo (+17 to +89), futility pruning +68 (+27 to +110)
/// (docs/log/2026-11-29-strength.md). The host, the web page and the firmware all
/// play draughts (English and Calgary) with this.
impl Recommended for Draughts {
    type Evaluation = DraughtsEvaluation;

    fn evaluation() -> DraughtsEvaluation {
        DraughtsEvaluation::NETWORK
    }

    fn engine_config() -> EngineConfig {
        EngineConfig {
            lmr: true,
            futility: 50,
            reverse_futility: 60,
            ..EngineConfig::default()
        }
    }
}

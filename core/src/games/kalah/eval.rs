//! Kalah's evaluations for the depth-limited searches: the store difference of the
//! Mancala parallelization report (docs/references.md), ply's own, and ply's own
//! with the exact values of endgame tables ([`TablesEval`]).

use super::solver::EndgameTables;
use super::{non_empty, pit, Kalah, KalahRules};
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
        Self::margin_value(game.store_difference())
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
    /// The value of a game ending with final margin `margin` for the side to move:
    /// `4 × margin` plus [`DECIDED_BONUS`] for a win (minus it for a loss). Finished
    /// games score this ([`Evaluator::terminal`]), and so do positions whose exact
    /// value endgame tables know ([`TablesEval`]), so a proved win outranks any
    /// heuristic lead and the larger proved margin outranks the smaller.
    pub const fn margin_value(margin: i32) -> Score {
        4 * margin + DECIDED_BONUS * margin.signum()
    }

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

/// [`KalahEval`] with endgame tables: the exact value of every unfinished position
/// whose seeds in play the tables cover ([`Evaluator::exact`]), scored as the
/// finished game it leads to under perfect play ([`KalahEval::margin_value`] of the
/// stores' margin now plus the table's future margin), so the engine stops there
/// and plays for the largest proved margin; [`KalahEval`] everywhere else. It holds
/// only a reference to the tables, in memory the caller provides (the host maps
/// them from their file), and allocates nothing.
///
/// The ordering it gives: a proved win (`DECIDED_BONUS + 4 × margin`) and a decided
/// position the tables do not cover (a store past half the seeds,
/// `DECIDED_BONUS + 4 × the stores' margin now`) share the band above every
/// undecided heuristic value, ordered by margin; a proved draw is 0; proved losses
/// lie below every undecided value.
#[derive(Clone, Copy, Debug)]
pub struct TablesEval<'a> {
    tables: EndgameTables<'a>,
}

impl<'a> TablesEval<'a> {
    /// The evaluation over `tables`, which must be for the pits and the capture rule
    /// of `rules` (the seeds per pit do not matter).
    pub fn new(rules: KalahRules, tables: EndgameTables<'a>) -> Result<Self, &'static str> {
        if !tables.fits(rules) {
            return Err("the endgame tables are for another number of pits or capture rule");
        }
        Ok(TablesEval { tables })
    }

    /// The endgame tables.
    pub fn tables(&self) -> &EndgameTables<'a> {
        &self.tables
    }

    /// The final margin of `game`'s side to move under perfect play, if the tables
    /// cover its seeds in play (for an unfinished game; a finished one's margin is
    /// its stores').
    #[inline]
    pub fn final_margin(&self, game: &Kalah) -> Option<i32> {
        let (own, opp) = game.rows_for_mover();
        self.tables
            .probe(own, opp, game.seeds_in_play())
            .map(|future| game.store_difference() + future)
    }
}

impl Evaluator<Kalah> for TablesEval<'_> {
    #[inline]
    fn evaluate(&self, game: &Kalah, me: Player) -> Score {
        KalahEval.evaluate(game, me)
    }

    #[inline]
    fn terminal(&self, game: &Kalah, outcome: Outcome, ply: u32) -> Score {
        KalahEval.terminal(game, outcome, ply)
    }

    #[inline]
    fn exact(&self, game: &Kalah, _ply: u32) -> Option<Score> {
        self.final_margin(game).map(KalahEval::margin_value)
    }
}

//! The evaluation with a database: exact values where it knows them.

use super::super::{Colour, Draughts};
use super::probe::Database;
use super::slice::SLICES;
use super::value::Value;
use crate::game::{Outcome, Player};
use crate::search::{Evaluator, Score, TABLE_WIN};

/// The score of a database win at the root ([`DbEval`]): the engine's [`TABLE_WIN`].
/// A won position `ply` plies below the root scores `DB_WIN - (1024 × P + d) - ply`,
/// where `d` is its distance to the next conversion (below 1024) and `P` its
/// [`progress`] still to make; a loss the negation, a draw 0.
///
/// The distance alone cannot compare positions across a conversion: it counts again
/// from the new slice, so a capture or a crowning that keeps the win would score
/// below a waiting move that keeps "conversion in 2 plies", and the engine would wait
/// until a repetition drew the game. With `P` first, every conversion that keeps the
/// win ranks above every move that does not, and the distance orders the rest.
pub const DB_WIN: Score = TABLE_WIN;

/// What is left to convert in `game`: 25 a piece plus 1 a man. Every capture lowers
/// it (a piece fewer, no man more) and so does every crowning (a man fewer), so it
/// falls with each conversion; at most 8 × 25 + 8 = 208 for the databases' sizes.
#[inline]
pub const fn progress(game: &Draughts) -> u32 {
    let pieces = game.pieces(Colour::Black) | game.pieces(Colour::White);
    let men = pieces & !game.kings();
    25 * pieces.count_ones() + men.count_ones()
}

/// An evaluation `E` with a database: [`Evaluator::exact`] is the database's value
/// of every position it holds (so the engine searches no further there), on a scale
/// that prefers the quickest win and the longest loss, counted from the root
/// ([`DB_WIN`]): a won database position reached sooner scores more, so the engine
/// does not put the conversion off. `E` elsewhere. It holds only a reference to the
/// database, in memory the caller provides (of any number of slots `N`: the
/// host's holds every slice, [`small`](super::small) those of up to 3 pieces).
#[derive(Clone, Copy)]
pub struct DbEval<'a, E, const N: usize = SLICES> {
    /// The database.
    pub db: &'a Database<'a, N>,
    /// The evaluation outside it.
    pub eval: E,
}

impl<E, const N: usize> DbEval<'_, E, N> {
    /// The score of `v`, the value of `game` `ply` plies below the root ([`DB_WIN`]).
    #[inline]
    pub fn score(v: Value, game: &Draughts, ply: u32) -> Score {
        let still = |d: u32| {
            let d = if d < 1023 { d } else { 1023 };
            (1024 * progress(game) + d + ply) as Score
        };
        match v {
            Value::Win(d) => DB_WIN - still(d as u32),
            Value::Loss(d) => -(DB_WIN - still(d as u32)),
            Value::Draw => 0,
        }
    }
}

impl<E: Evaluator<Draughts>, const N: usize> Evaluator<Draughts> for DbEval<'_, E, N> {
    #[inline]
    fn evaluate(&self, game: &Draughts, me: Player) -> Score {
        self.eval.evaluate(game, me)
    }

    #[inline]
    fn terminal(&self, game: &Draughts, outcome: Outcome, ply: u32) -> Score {
        self.eval.terminal(game, outcome, ply)
    }

    #[inline]
    fn exact(&self, game: &Draughts, ply: u32) -> Option<Score> {
        // A game drawn by its rules is over: its result, not the database's value.
        // So is a game without a move (lost in 0): its result is a real loss.
        if game.is_drawn_by_rule() {
            return None;
        }
        match self.db.probe(game)? {
            Value::Loss(0) => None,
            v => Some(Self::score(v, game, ply)),
        }
    }
}

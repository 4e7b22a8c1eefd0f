//! The evaluation with a database: exact values where it knows them.

use super::super::Draughts;
use super::probe::Database;
use super::value::Value;
use crate::game::{Outcome, Player};
use crate::search::{Evaluator, Score, WIN};

/// The score of a database win at distance 0 ([`DbEval`]): half of [`WIN`], below
/// every finished game's score and far above every heuristic one. A win in `d`
/// plies to conversion scores `DB_WIN - d`, a loss `-(DB_WIN - d)`, a draw 0.
pub const DB_WIN: Score = WIN / 2;

/// An evaluation `E` with a database: [`Evaluator::exact`] is the database's value
/// of every position it holds (so the engine searches no further there), on a scale
/// that prefers the quickest win and the longest loss ([`DB_WIN`]); `E` elsewhere.
/// The value does not depend on the ply, so the transposition table may keep it as
/// it is. It holds only a reference to the database, in memory the caller provides.
#[derive(Clone, Copy)]
pub struct DbEval<'a, E> {
    /// The database.
    pub db: &'a Database<'a>,
    /// The evaluation outside it.
    pub eval: E,
}

impl<E> DbEval<'_, E> {
    /// The score of `v` ([`DB_WIN`]).
    #[inline]
    pub const fn score(v: Value) -> Score {
        match v {
            Value::Win(d) => DB_WIN - d as Score,
            Value::Loss(d) => -(DB_WIN - d as Score),
            Value::Draw => 0,
        }
    }
}

impl<E: Evaluator<Draughts>> Evaluator<Draughts> for DbEval<'_, E> {
    #[inline]
    fn evaluate(&self, game: &Draughts, me: Player) -> Score {
        self.eval.evaluate(game, me)
    }

    #[inline]
    fn terminal(&self, game: &Draughts, outcome: Outcome, ply: u32) -> Score {
        self.eval.terminal(game, outcome, ply)
    }

    #[inline]
    fn exact(&self, game: &Draughts, _ply: u32) -> Option<Score> {
        // A game drawn by its rules is over: its result, not the database's value.
        // So is a game without a move (lost in 0): its result is a real loss.
        if game.is_drawn_by_rule() {
            return None;
        }
        match self.db.probe(game)? {
            Value::Loss(0) => None,
            v => Some(Self::score(v)),
        }
    }
}

//! The evaluation with a database: exact values where it knows them.

use super::super::Draughts;
use super::probe::Database;
use super::value::Value;
use crate::game::{Outcome, Player};
use crate::search::{Evaluator, Score, TABLE_WIN};

/// The score of a database win at distance 0 at the root ([`DbEval`]): the engine's
/// [`TABLE_WIN`]. A position `ply` plies below the root that wins in `d` plies to
/// conversion scores `DB_WIN - d - ply`, a loss `-(DB_WIN - d - ply)`, a draw 0.
pub const DB_WIN: Score = TABLE_WIN;

/// An evaluation `E` with a database: [`Evaluator::exact`] is the database's value
/// of every position it holds (so the engine searches no further there), on a scale
/// that prefers the quickest win and the longest loss, counted from the root
/// ([`DB_WIN`]): a won database position reached sooner scores more, so the engine
/// does not put the conversion off. `E` elsewhere. It holds only a reference to the
/// database, in memory the caller provides.
#[derive(Clone, Copy)]
pub struct DbEval<'a, E> {
    /// The database.
    pub db: &'a Database<'a>,
    /// The evaluation outside it.
    pub eval: E,
}

impl<E> DbEval<'_, E> {
    /// The score of `v` at a node `ply` plies below the root ([`DB_WIN`]).
    #[inline]
    pub const fn score(v: Value, ply: u32) -> Score {
        match v {
            Value::Win(d) => DB_WIN - d as Score - ply as Score,
            Value::Loss(d) => -(DB_WIN - d as Score - ply as Score),
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
    fn exact(&self, game: &Draughts, ply: u32) -> Option<Score> {
        // A game drawn by its rules is over: its result, not the database's value.
        // So is a game without a move (lost in 0): its result is a real loss.
        if game.is_drawn_by_rule() {
            return None;
        }
        match self.db.probe(game)? {
            Value::Loss(0) => None,
            v => Some(Self::score(v, ply)),
        }
    }
}

//! Evaluation: how search values positions it does not search further.
//!
//! # Perspective
//! An evaluation values a position **for a player named by the search**: `me`, the
//! side to move at the root of the search that asks. No caller binds it, and no
//! evaluation guesses it: every search in ply (minimax, alpha-beta, the engine on any
//! number of threads, the parallel strategies) passes its root player, and turns the
//! value into the side to move's with [`leaf_value`], the one place that negates it.
//! So an evaluation that is not antisymmetric (Halma's strategies from the C++ Halma
//! README, docs/references.md, value only their own player's progress) gives the same
//! answer through every entry point, at odd and even depths alike; an antisymmetric
//! one (a material count) simply computes its number for `me`.
//!
//! An evaluation written for the side to move (the classic negamax form) fits the
//! contract through [`for_player`]: its value for `me` is its side-to-move value,
//! negated when `me` is not to move, which gives search exactly the side-to-move
//! value back at every leaf.

use crate::game::{Game, Outcome, Player};
use crate::search::{Score, WIN};
use crate::zobrist::mix64;

/// Values positions for the player a search works for.
pub trait Evaluator<G: Game> {
    /// The heuristic value of the unfinished position `game` for `me`, the side to
    /// move at the root of the search (see the module documentation). Higher is
    /// better for `me`, whoever is to move in `game`.
    fn evaluate(&self, game: &G, me: Player) -> Score;

    /// The value of a finished game for its side to move, `ply` plies below the
    /// root. The default scores a win `WIN - ply` (a quicker win is better), a loss
    /// `-(WIN - ply)` and a draw 0; games that score by margin (Kalah) override it.
    /// A result is the same for everyone, so it needs no perspective.
    fn terminal(&self, game: &G, outcome: Outcome, ply: u32) -> Score {
        match outcome.sign_for(game.side_to_move()) {
            Some(1) => WIN - ply as Score,
            Some(-1) => -(WIN - ply as Score),
            _ => 0,
        }
    }

    /// The exact value of the unfinished position `game` for its side to move, `ply`
    /// plies below the root, when it is known without search — from an endgame
    /// table — on the same scale as [`Evaluator::terminal`]; `None` (the default)
    /// when it is not. The engine asks at every node below the root (unless its
    /// [`EngineConfig::probes`](crate::search::EngineConfig::probes) is off) and
    /// searches no further where the answer is `Some`. Like a result, it needs no
    /// perspective.
    #[inline]
    fn exact(&self, game: &G, ply: u32) -> Option<Score> {
        let _ = (game, ply);
        None
    }
}

/// The value search uses where it stops, for `game`'s side to move: the result of a
/// finished game, or the evaluation for `me` (the root player) turned into the side
/// to move's. Every search calls this and nothing else at its leaves.
#[inline]
pub fn leaf_value<G: Game, E: Evaluator<G> + ?Sized>(
    eval: &E,
    game: &G,
    me: Player,
    ply: u32,
) -> Score {
    let outcome = game.outcome();
    if outcome.is_over() {
        eval.terminal(game, outcome, ply)
    } else {
        for_player(game, me, eval.evaluate(game, me))
    }
}

/// `value`, a number for one of the players, seen by the other one when `game`'s side
/// to move is not `player`: a side-to-move value becomes `player`'s, and a value for
/// `player` becomes the side to move's (the map is its own inverse).
#[inline]
pub fn for_player<G: Game>(game: &G, player: Player, value: Score) -> Score {
    if game.side_to_move() == player {
        value
    } else {
        -value
    }
}

/// An evaluation given as a closure that values a position for its side to move:
/// `FnEval(|g: &MyGame| ...)` (made a value for the root player by [`for_player`]).
#[derive(Clone, Copy, Debug)]
pub struct FnEval<F>(pub F);

impl<G: Game, F: Fn(&G) -> Score> Evaluator<G> for FnEval<F> {
    #[inline]
    fn evaluate(&self, game: &G, me: Player) -> Score {
        for_player(game, me, (self.0)(game))
    }
}

impl<G: Game, E: Evaluator<G> + ?Sized> Evaluator<G> for &E {
    #[inline]
    fn evaluate(&self, game: &G, me: Player) -> Score {
        (**self).evaluate(game, me)
    }
    #[inline]
    fn terminal(&self, game: &G, outcome: Outcome, ply: u32) -> Score {
        (**self).terminal(game, outcome, ply)
    }
    #[inline]
    fn exact(&self, game: &G, ply: u32) -> Option<Score> {
        (**self).exact(game, ply)
    }
}

/// A deterministic pseudo-random evaluation: a function of the position's hash, the
/// player it values the position for, and a seed, in `-1000..=1000`. It is not
/// antisymmetric (the two players' values are unrelated), so it catches any search
/// that gets the perspective wrong; and it has no structure that could hide an
/// ordering or pruning bug. Search algorithms must agree on the root value under any
/// evaluation, so the tests use it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RandomEval {
    /// Different seeds give unrelated evaluations.
    pub seed: u64,
}

impl<G: Game> Evaluator<G> for RandomEval {
    fn evaluate(&self, game: &G, me: Player) -> Score {
        let salt = match me {
            Player::First => 0,
            Player::Second => 0x9e37_79b9_7f4a_7c15,
        };
        (mix64(game.hash() ^ self.seed ^ salt) % 2001) as Score - 1000
    }
}

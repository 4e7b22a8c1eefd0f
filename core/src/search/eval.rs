//! Evaluation: how search values positions it does not search further.

use crate::game::{Game, Outcome};
use crate::search::{Score, WIN};
use crate::zobrist::mix64;

/// Values positions for the side to move.
pub trait Evaluator<G: Game> {
    /// The heuristic value of an unfinished position for its side to move.
    fn evaluate(&self, game: &G) -> Score;

    /// The value of a finished game for its side to move, `ply` plies below the
    /// root. The default scores a win `WIN - ply` (a quicker win is better), a loss
    /// `-(WIN - ply)` and a draw 0; games that score by margin (Kalah) override it.
    fn terminal(&self, game: &G, outcome: Outcome, ply: u32) -> Score {
        match outcome.sign_for(game.side_to_move()) {
            Some(1) => WIN - ply as Score,
            Some(-1) => -(WIN - ply as Score),
            _ => 0,
        }
    }
}

/// An evaluation given as a closure: `FnEval(|g: &MyGame| ...)`.
#[derive(Clone, Copy, Debug)]
pub struct FnEval<F>(pub F);

impl<G: Game, F: Fn(&G) -> Score> Evaluator<G> for FnEval<F> {
    fn evaluate(&self, game: &G) -> Score {
        (self.0)(game)
    }
}

impl<G: Game, E: Evaluator<G> + ?Sized> Evaluator<G> for &E {
    fn evaluate(&self, game: &G) -> Score {
        (**self).evaluate(game)
    }
    fn terminal(&self, game: &G, outcome: Outcome, ply: u32) -> Score {
        (**self).terminal(game, outcome, ply)
    }
}

/// A deterministic pseudo-random evaluation: a function of the position's hash and
/// a seed, in `-1000..=1000`. Search algorithms must agree on the root value under
/// any evaluation; a random one has no structure that could hide an ordering or
/// pruning bug, so the tests use it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RandomEval {
    /// Different seeds give unrelated evaluations.
    pub seed: u64,
}

impl<G: Game> Evaluator<G> for RandomEval {
    fn evaluate(&self, game: &G) -> Score {
        (mix64(game.hash() ^ self.seed) % 2001) as Score - 1000
    }
}

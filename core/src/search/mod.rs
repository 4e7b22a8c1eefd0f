//! Search algorithms, generic over [`Game`], one per module, none allocating.
//!
//! * [`minimax`](mod@minimax): plain minimax (negamax form) without pruning — the reference.
//! * [`alphabeta`](mod@alphabeta): the same with alpha-beta pruning, in generation order.
//! * [`engine`]: what real engines add — iterative deepening under a depth, node or
//!   time budget, a transposition table in caller-provided memory, move ordering
//!   (hash move, killers, history, the game's hints), principal variation search,
//!   quiescence over non-quiet positions, and the principal variation.
//! * [`Recommended`]: each game's default evaluation and engine switches, which every
//!   front end (host, web page, firmware) plays with.
//!
//! Scores are from the point of view of the side to move (negamax). A child whose
//! side to move is the same as its parent's (an extra turn in Kalah) is not negated.
//! Evaluations value positions for the root's side to move, which every search
//! passes them ([`eval`](mod@eval) states the contract); tables are reached through
//! one trait, [`Table`].

pub mod alphabeta;
pub mod clock;
mod config;
pub mod engine;
pub mod eval;
mod history;
pub mod minimax;
mod order;
mod recommended;
pub mod tt;

pub use alphabeta::alphabeta;
pub use clock::{Clock, Limits, NoClock};
pub use engine::{
    Engine, EngineConfig, SearchReport, SliceEngine, TtCutoff, LMR_DEEPER_AFTER, LMR_FULL_MOVES,
    LMR_MIN_DEPTH,
};
pub use eval::{for_player, leaf_value, Evaluator, FnEval, RandomEval};
pub use minimax::minimax;
pub use recommended::Recommended;
pub use tt::{Bound, Stored, Table, TranspositionTable, TtEntry};

use crate::game::Game;

/// A search score, from the side to move's point of view.
pub type Score = i32;

/// The score of a won game at the root; a win `n` plies away scores `WIN - n`.
pub const WIN: Score = 1_000_000;

/// The score of a win an endgame table proves, at the root: a table's win `n` plies
/// away — the plies searched to the table's position plus the table's own distance —
/// scores `TABLE_WIN - n`, below every finished game's score and far above every
/// heuristic one. Like [`WIN`]'s, such a score counts plies from the root, so the
/// engine prefers reaching a won table position sooner, not only the table's quicker
/// win (a score that did not count them would make every line into the same won
/// position equal, and the engine could put the conversion off forever); the
/// transposition table keeps it counted from the node ([`tt::to_tt`]).
pub const TABLE_WIN: Score = WIN / 2;

/// The lowest score counted as a table's win ([`TABLE_WIN`]): what a table subtracts
/// (its distance, and the plies) together below 2^18.
pub const TABLE_ZONE: Score = TABLE_WIN - (1 << 18);

/// Larger than any score: the initial window bound.
pub const INFINITY: Score = WIN + 1;

/// The deepest ply any search reaches (iterative deepening and quiescence included).
/// Bounds the principal variation and, by default, the killer table
/// ([`Engine`]'s `KILLERS`).
pub const MAX_PLY: usize = 96;

/// True if `score` is a forced win or loss found by the search (not a heuristic).
pub const fn is_decisive(score: Score) -> bool {
    score >= WIN - MAX_PLY as Score * 4 || score <= -(WIN - MAX_PLY as Score * 4)
}

/// What a fixed-depth search returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchResult<M> {
    /// The value of the root for the side to move.
    pub value: Score,
    /// The first move (in generation order) that reaches `value`; `None` if the game
    /// is over at the root.
    pub best_move: Option<M>,
    /// Nodes visited, the root and the leaves included.
    pub nodes: u64,
}

/// Negamax's step from `parent` to `child` with extra turns: `search(alpha, beta)`
/// searches `child` for its own side to move, and this gives its value from
/// `parent`'s side in the parent's window `(alpha, beta)` — the window passed through
/// when the same side moves again, else swapped and negated, and the value with it.
/// The one statement of the sign rule that every search follows.
#[inline(always)]
pub fn negamax_child<G: Game>(
    parent: &G,
    child: &G,
    alpha: Score,
    beta: Score,
    search: impl FnOnce(Score, Score) -> Score,
) -> Score {
    if parent.side_to_move() == child.side_to_move() {
        search(alpha, beta)
    } else {
        -search(-beta, -alpha)
    }
}

/// The score of `child` seen from its parent, whose side to move is `parent`.
#[inline]
pub fn from_parent<G: Game>(parent: &G, child: &G, score: Score) -> Score {
    if parent.side_to_move() == child.side_to_move() {
        score
    } else {
        -score
    }
}

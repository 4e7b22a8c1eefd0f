//! Top-level parallelism (the Haskell Halma report, §4.1): every root move is searched at once, each
//! by sequential alpha-beta with the full window, and the best value is kept.
//!
//! Each root child gets an exact value, so the root value and the first best move in
//! generation order are exactly those of sequential alpha-beta. The price is that no
//! root move benefits from the bound another one found: the total work is that of
//! alpha-beta with a full window at every root child.

use ply_core::search::{Evaluator, INFINITY};

use super::{chunked, ParallelResult, SharedGame};

/// Searches `game` to `depth` plies on the current rayon pool (the dispatcher's, of
/// `--threads` threads), every root move at once: the chunked search with one chunk,
/// so no root move waits for another's bound.
pub fn search<G, E>(game: &G, depth: u32, eval: &E) -> ParallelResult<G::Move>
where
    G: SharedGame,
    E: Evaluator<G> + Sync,
{
    chunked::search_window(game, depth, eval, 1, -INFINITY, INFINITY)
}

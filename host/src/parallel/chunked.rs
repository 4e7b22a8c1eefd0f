//! Chunked parallelism (the Haskell Halma report, §4.2): the root moves are cut into chunks of about
//! moves/threads; the moves of one chunk are searched in parallel with the current
//! window, then alpha is raised to the best value found so far before the next
//! chunk, and the remaining chunks are pruned once alpha reaches beta.
//!
//! Within a chunk every child is searched with the same alpha, so a child that beats
//! it gets its exact value and one that does not is no better than the best so far:
//! the value and the first best move in generation order are those of sequential
//! alpha-beta.

use rayon::prelude::*;

use super::{ParallelResult, SharedGame};
use ply_core::search::alphabeta::child_value;
use ply_core::search::{Evaluator, Score, INFINITY};

/// Searches `game` to `depth` plies on the current rayon pool (the dispatcher's, of
/// `threads` threads), root moves in chunks of about moves/`threads`.
pub fn search<G, E>(game: &G, depth: u32, eval: &E, threads: usize) -> ParallelResult<G::Move>
where
    G: SharedGame,
    E: Evaluator<G> + Sync,
{
    search_window(game, depth, eval, threads, -INFINITY, INFINITY)
}

/// The number of root moves per chunk: moves/threads rounded up (at least 1), as in
/// the Haskell Halma report ("total number of possible moves / maximum core number").
pub fn chunk_size(moves: usize, threads: usize) -> usize {
    moves.div_ceil(threads.max(1)).max(1)
}

/// Chunked search of `game` in the window `(alpha, beta)` on the current rayon pool,
/// the root moves cut into `chunks` chunks of [`chunk_size`] (`threads` for the
/// chunked search; 1 for [`super::toplevel`], every root move at once with the
/// whole window): fail-soft, so the value is exact inside the window and a bound
/// outside it.
pub fn search_window<G, E>(
    game: &G,
    depth: u32,
    eval: &E,
    chunks: usize,
    mut alpha: Score,
    beta: Score,
) -> ParallelResult<G::Move>
where
    G: SharedGame,
    E: Evaluator<G> + Sync,
{
    let me = game.side_to_move();
    let moves: Vec<G::Move> = game.legal_moves().to_vec();
    if let Some(leaf) = ParallelResult::leaf(game, depth, eval, &moves) {
        return leaf;
    }
    let mut best = -INFINITY;
    let mut best_move = None;
    let mut nodes = 1;
    for chunk in moves.chunks(chunk_size(moves.len(), chunks)) {
        if alpha >= beta {
            break;
        }
        let window_alpha = alpha;
        let results: Vec<(Score, u64)> = chunk
            .par_iter()
            .with_max_len(1)
            .map(|&mv| {
                let child = game.play_unchecked(mv);
                let mut n = 0;
                let v = child_value(
                    game,
                    &child,
                    depth - 1,
                    1,
                    window_alpha,
                    beta,
                    eval,
                    me,
                    &mut n,
                );
                (v, n)
            })
            .collect();
        for (&mv, &(v, n)) in chunk.iter().zip(&results) {
            nodes += n;
            if v > best {
                best = v;
                best_move = Some(mv);
            }
        }
        alpha = alpha.max(best);
    }
    ParallelResult {
        value: best,
        best_move,
        nodes,
    }
}

//! Top-level parallelism (the Haskell Halma report, §4.1): every root move is searched at once, each
//! by sequential alpha-beta with the full window, and the best value is kept.
//!
//! Each root child gets an exact value, so the root value and the first best move in
//! generation order are exactly those of sequential alpha-beta. The price is that no
//! root move benefits from the bound another one found: the total work is that of
//! alpha-beta with a full window at every root child.

use rayon::prelude::*;

use ply_core::search::alphabeta::child_value;
use ply_core::search::{Evaluator, INFINITY};
use ply_core::Game;

use super::{pool, ParallelError, ParallelResult};

/// Searches `game` to `depth` plies, the root moves spread over `threads` threads.
pub fn search<G, E>(
    game: &G,
    depth: u32,
    eval: &E,
    threads: usize,
) -> Result<ParallelResult<G::Move>, ParallelError>
where
    G: Game + Send + Sync,
    G::Move: Send + Sync,
    E: Evaluator<G> + Sync,
{
    let pool = pool(threads)?;
    let me = game.side_to_move();
    let moves: Vec<G::Move> = game.legal_moves().to_vec();
    if let Some(leaf) = ParallelResult::leaf(game, depth, eval, &moves) {
        return Ok(leaf);
    }
    let results: Vec<(i32, u64)> = pool.install(|| {
        moves
            .par_iter()
            .with_max_len(1)
            .map(|&mv| {
                let child = game.play_unchecked(mv);
                let mut nodes = 0;
                let v = child_value(
                    game,
                    &child,
                    depth - 1,
                    1,
                    -INFINITY,
                    INFINITY,
                    eval,
                    me,
                    &mut nodes,
                );
                (v, nodes)
            })
            .collect()
    });
    let mut best = -INFINITY;
    let mut best_move = None;
    let mut nodes = 1;
    for (&mv, &(v, n)) in moves.iter().zip(&results) {
        nodes += n;
        if v > best {
            best = v;
            best_move = Some(mv);
        }
    }
    Ok(ParallelResult {
        value: best,
        best_move,
        nodes,
    })
}

//! Parallel perft: the subtrees of the first plies are counted on all threads.

use rayon::prelude::*;

use ply_core::Game;

use super::{pool, ParallelError};

/// Subtrees at least this deep may be split over the threads; shallower ones are
/// always counted by sequential [`ply_core::perft::perft`].
const SPLIT_DEPTH: u32 = 3;

/// Jobs wanted per thread: enough for load balance, few enough that the job
/// overhead is nothing next to the subtrees.
const JOBS_PER_THREAD: usize = 16;

/// Counts the leaves `depth` plies below `game` on `threads` threads; equal to
/// [`ply_core::perft::perft`].
pub fn perft<G>(game: &G, depth: u32, threads: usize) -> Result<u64, ParallelError>
where
    G: Game + Send + Sync,
    G::Move: Send + Sync,
{
    let pool = pool(threads)?;
    Ok(pool.install(|| count(game, depth, threads * JOBS_PER_THREAD)))
}

/// Perft split by root move, in generation order, counted on `threads` threads.
pub fn perft_divide<G>(
    game: &G,
    depth: u32,
    threads: usize,
) -> Result<Vec<(G::Move, u64)>, ParallelError>
where
    G: Game + Send + Sync,
    G::Move: Send + Sync,
{
    let pool = pool(threads)?;
    if depth == 0 {
        return Ok(Vec::new());
    }
    let moves: Vec<G::Move> = game.legal_moves().to_vec();
    Ok(pool.install(|| {
        moves
            .par_iter()
            .with_max_len(1)
            .map(|&mv| {
                let jobs = (threads * JOBS_PER_THREAD).div_ceil(moves.len());
                (mv, count(&game.play_unchecked(mv), depth - 1, jobs))
            })
            .collect()
    }))
}

/// Perft of `game`, split into about `jobs` parallel jobs: the moves of a node
/// become jobs, each wanting its share of `jobs`, until one job is wanted.
fn count<G>(game: &G, depth: u32, jobs: usize) -> u64
where
    G: Game + Send + Sync,
    G::Move: Send + Sync,
{
    if depth < SPLIT_DEPTH || jobs <= 1 {
        return ply_core::perft::perft(game, depth);
    }
    let moves: Vec<G::Move> = game.legal_moves().to_vec();
    let jobs = jobs.div_ceil(moves.len().max(1));
    moves
        .par_iter()
        .with_max_len(1)
        .map(|&mv| count(&game.play_unchecked(mv), depth - 1, jobs))
        .sum()
}

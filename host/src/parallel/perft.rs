//! Parallel perft: the subtrees of the first plies are counted on all threads; with a
//! table ([`perft_tabled`]), the threads share one [`SharedPerftTable`].

use std::collections::hash_map::{Entry, HashMap};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use rayon::prelude::*;

use ply_core::perft::PerftKey;

use super::perft_table::{Counted, SharedPerftTable};
use super::{pool, ParallelError, SharedGame};

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
    G: SharedGame,
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
    G: SharedGame,
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
    G: SharedGame,
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

/// Subtrees a tabled count is split into (at least, where the tree has them): the
/// threads take them one at a time, and progress counts them.
const TABLED_SUBTREES: usize = 1024;

/// Where a tabled count stands, for progress lines.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TabledStatus {
    /// Subtrees counted.
    pub done: usize,
    /// Subtrees in all (distinct positions at `ply`).
    pub subtrees: usize,
    /// The ply of the subtrees' roots.
    pub ply: u32,
    /// Leaves counted so far.
    pub leaves: u64,
    /// Table lookups so far.
    pub probes: u64,
    /// Lookups the table answered.
    pub hits: u64,
}

/// Counts the leaves `depth` plies below `game` on `threads` threads that share
/// `table` (made for the game's key width): the tree is expanded a few plies, the
/// positions there merged by key (a transposition is counted once, times its number
/// of paths), and the threads count the distinct subtrees with
/// [`ply_core::perft::perft_tabled`]. Equal to [`ply_core::perft::perft`].
/// `progress` is called about four times a second with the status so far.
pub fn perft_tabled<G>(
    game: &G,
    depth: u32,
    threads: usize,
    table: &SharedPerftTable,
    progress: &mut dyn FnMut(&TabledStatus),
) -> TabledStatus
where
    G: PerftKey + Send + Sync,
{
    let (frontier, ply) = frontier(game, depth, TABLED_SUBTREES.max(threads * 64), false);
    let rest = depth - ply;
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let leaves = AtomicU64::new(0);
    let probes = AtomicU64::new(0);
    let hits = AtomicU64::new(0);
    let status = || TabledStatus {
        done: done.load(Ordering::Relaxed),
        subtrees: frontier.len(),
        ply,
        leaves: leaves.load(Ordering::Relaxed),
        probes: probes.load(Ordering::Relaxed),
        hits: hits.load(Ordering::Relaxed),
    };
    let main = std::thread::current();
    std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads.max(1))
            .map(|_| {
                let (frontier, main) = (&frontier, main.clone());
                let (next, done, leaves, probes, hits) = (&next, &done, &leaves, &probes, &hits);
                s.spawn(move || {
                    // The waiting thread looks again when a worker ends, however it
                    // ends (a panic too: then the scope passes the panic on).
                    let _wake = Unpark(main);
                    let mut counted = Counted::new(table);
                    while let Some(&Subtree { game: g, paths, .. }) =
                        frontier.get(next.fetch_add(1, Ordering::Relaxed))
                    {
                        let (p, h) = (counted.probes, counted.hits);
                        let n = ply_core::perft::perft_tabled(&g, rest, &mut counted);
                        leaves.fetch_add(n * paths, Ordering::Relaxed);
                        probes.fetch_add(counted.probes - p, Ordering::Relaxed);
                        hits.fetch_add(counted.hits - h, Ordering::Relaxed);
                        done.fetch_add(1, Ordering::Release);
                    }
                })
            })
            .collect();
        // Done when every subtree is counted, or when every worker has ended (one
        // that panicked leaves its subtree uncounted; the scope passes its panic on).
        while done.load(Ordering::Acquire) < frontier.len()
            && !workers.iter().all(|w| w.is_finished())
        {
            std::thread::park_timeout(std::time::Duration::from_millis(250));
            progress(&status());
        }
    });
    status()
}

/// Wakes a thread when dropped.
struct Unpark(std::thread::Thread);

impl Drop for Unpark {
    fn drop(&mut self) {
        self.0.unpark();
    }
}

/// A subtree of a split perft: a position some plies below the root, the number of
/// paths that reach it, and (when asked for) how many of them start with each root
/// move.
#[derive(Clone, Debug)]
pub struct Subtree<G> {
    /// The position.
    pub game: G,
    /// Paths from the root to it.
    pub paths: u64,
    /// The paths by first move: (index among the root's moves, paths), in the order
    /// the root moves were first seen; they add up to `paths`. Empty unless the
    /// split was asked to keep them.
    pub root_paths: Vec<(usize, u64)>,
}

/// The distinct positions below `game` with their numbers of paths, at the first ply
/// with at least `want` of them (and at most `max_ply`): positions with equal perft
/// keys are one subtree, whatever their first moves (positions without a key are
/// kept apart). With `by_root_move`, the subtrees are at least one ply down and each
/// keeps its paths by root move (for `--divide`). Returns the subtrees, in the order
/// they were first reached, and their ply.
pub fn frontier<G: PerftKey>(
    game: &G,
    max_ply: u32,
    want: usize,
    by_root_move: bool,
) -> (Vec<Subtree<G>>, u32) {
    let mut level = vec![Subtree {
        game: *game,
        paths: 1,
        root_paths: Vec::new(),
    }];
    let mut ply = 0;
    while ply < max_ply && (level.len() < want || (by_root_move && ply == 0)) {
        let mut next: Vec<Subtree<G>> = Vec::new();
        let mut index: HashMap<u128, usize> = HashMap::new();
        for s in &level {
            for (k, &mv) in s.game.legal_moves().iter().enumerate() {
                let root_paths = match (by_root_move, ply) {
                    (false, _) => Vec::new(),
                    (true, 0) => vec![(k, s.paths)],
                    (true, _) => s.root_paths.clone(),
                };
                let child = Subtree {
                    game: s.game.play_unchecked(mv),
                    paths: s.paths,
                    root_paths,
                };
                match child.game.perft_key() {
                    Some(key) => match index.entry(key) {
                        Entry::Occupied(e) => next[*e.get()].merge(&child),
                        Entry::Vacant(e) => {
                            e.insert(next.len());
                            next.push(child);
                        }
                    },
                    None => next.push(child),
                }
            }
        }
        level = next;
        ply += 1;
    }
    (level, ply)
}

impl<G> Subtree<G> {
    /// Adds the paths of `other`, the same position reached another way.
    fn merge(&mut self, other: &Subtree<G>) {
        self.paths += other.paths;
        for &(k, n) in &other.root_paths {
            match self.root_paths.iter_mut().find(|(j, _)| *j == k) {
                Some((_, m)) => *m += n,
                None => self.root_paths.push((k, n)),
            }
        }
    }
}

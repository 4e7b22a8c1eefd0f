//! Young Brothers Wait (the Mancala parallelization report): at a node with at least `parallel_depth` plies
//! left, the eldest child is searched first (itself by YBWC, so the parallelism runs
//! down the leftmost path), then its bound is handed to the younger siblings, which
//! are searched in parallel; below `parallel_depth` the search is sequential
//! alpha-beta. No young brother starts before the eldest's search has returned. The
//! young brothers are handed out in generation order, one at a time, from a shared
//! counter to as many rayon jobs as there are threads, so each starts with the best
//! bound known when it is taken; every split point's jobs can be stolen by any idle
//! thread (work stealing at every split point).
//!
//! Improvements to alpha found by a young brother are shared with the siblings that
//! start after it, and a beta cutoff stops the siblings still running (and, through
//! the chain of split points, everything below them). A stopped search's result is
//! never used: after every child search the caller checks the chain, whose flags
//! never go back, and discards the value if any is set.
//!
//! The search is fail-soft alpha-beta throughout, so the root value is exactly that
//! of sequential alpha-beta; the move is a best one (which of several tied moves is
//! returned depends on timing).

use std::sync::atomic::{AtomicBool, AtomicI32, AtomicUsize, Ordering};
use std::sync::Mutex;

use ply_core::search::{leaf_value, negamax_child, Evaluator, Score, INFINITY};
use ply_core::{Game, Player};

use super::{ParallelResult, SharedGame};

/// The default switch from parallel to sequential: split at the nodes with at least
/// `depth - 3` plies left (at least 2), so that every parallel job carries a
/// subtree of at least one ply below it. Chosen by measurement (see the README).
pub fn default_parallel_depth(depth: u32) -> u32 {
    depth.saturating_sub(3).max(2)
}

/// Searches `game` to `depth` plies on the current rayon pool (the dispatcher's, of
/// `--threads` threads), splitting at the nodes with at least `parallel_depth` plies
/// left (`parallel_depth > depth`: sequential).
pub fn search<G, E>(game: &G, depth: u32, eval: &E, parallel_depth: u32) -> ParallelResult<G::Move>
where
    G: SharedGame,
    E: Evaluator<G> + Sync,
{
    let ctx = Ctx {
        eval,
        me: game.side_to_move(),
        parallel_depth: parallel_depth.max(1),
    };
    let moves: Vec<G::Move> = game.legal_moves().to_vec();
    if let Some(leaf) = ParallelResult::leaf(game, depth, eval, &moves) {
        return leaf;
    }
    if depth < ctx.parallel_depth {
        // Nothing to split: sequential alpha-beta, as the Mancala parallelization report does.
        let r = ply_core::search::alphabeta(game, depth, eval);
        return ParallelResult {
            value: r.value,
            best_move: r.best_move,
            nodes: r.nodes,
        };
    }
    let r = ctx.split_node(game, &moves, depth, 0, -INFINITY, INFINITY, None);
    ParallelResult {
        value: r.value,
        best_move: r.best.map(|i| moves[i]),
        nodes: r.nodes,
    }
}

/// A split point: its stop flag (set on a beta cutoff) and the split point above.
struct Split<'a> {
    stop: AtomicBool,
    alpha: AtomicI32,
    parent: Option<&'a Split<'a>>,
}

/// True if this split point or any above it was stopped.
fn stopped(mut chain: Option<&Split<'_>>) -> bool {
    while let Some(s) = chain {
        if s.stop.load(Ordering::Relaxed) {
            return true;
        }
        chain = s.parent;
    }
    false
}

struct Ctx<'e, E> {
    eval: &'e E,
    /// The root's side to move: the evaluation's perspective.
    me: Player,
    parallel_depth: u32,
}

/// A young brother's index, its value (`None` if stopped) with whether it beat the
/// alpha it was searched with, and its nodes.
type Young = (usize, Option<(Score, bool)>, u64);

/// Node count and abandonment of one sequential subtree search.
struct Seq {
    nodes: u64,
    aborted: bool,
}

/// A node's value, the index of its best move and the nodes visited below it.
struct NodeResult {
    value: Score,
    best: Option<usize>,
    nodes: u64,
}

impl<E> Ctx<'_, E> {
    /// The value of `game` in `(alpha, beta)`: YBWC if enough plies are left,
    /// sequential alpha-beta otherwise.
    #[allow(clippy::too_many_arguments)]
    fn node<G>(
        &self,
        game: &G,
        depth: u32,
        ply: u32,
        alpha: Score,
        beta: Score,
        chain: Option<&Split<'_>>,
    ) -> (Score, u64)
    where
        G: SharedGame,
        E: Evaluator<G> + Sync,
    {
        if depth < self.parallel_depth || depth < 2 {
            let mut seq = Seq {
                nodes: 0,
                aborted: false,
            };
            let v = self.sequential(game, depth, ply, alpha, beta, chain, &mut seq);
            return (v, seq.nodes);
        }
        let moves: Vec<G::Move> = game.legal_moves().to_vec();
        if moves.is_empty() {
            return (leaf_value(self.eval, game, self.me, ply), 1);
        }
        let r = self.split_node(game, &moves, depth, ply, alpha, beta, chain);
        (r.value, r.nodes)
    }

    /// The child's value from the parent's side, window passed through (and not
    /// negated) when the same side moves again.
    #[allow(clippy::too_many_arguments)]
    fn child<G>(
        &self,
        parent: &G,
        child: &G,
        depth: u32,
        ply: u32,
        alpha: Score,
        beta: Score,
        chain: Option<&Split<'_>>,
    ) -> (Score, u64)
    where
        G: SharedGame,
        E: Evaluator<G> + Sync,
    {
        let mut nodes = 0;
        let v = negamax_child(parent, child, alpha, beta, |alpha, beta| {
            let (v, n) = self.node(child, depth, ply, alpha, beta, chain);
            nodes = n;
            v
        });
        (v, nodes)
    }

    /// YBWC at a node with legal `moves`: eldest brother first, then the young
    /// brothers in parallel.
    #[allow(clippy::too_many_arguments)]
    fn split_node<G>(
        &self,
        game: &G,
        moves: &[G::Move],
        depth: u32,
        ply: u32,
        alpha: Score,
        beta: Score,
        chain: Option<&Split<'_>>,
    ) -> NodeResult
    where
        G: SharedGame,
        E: Evaluator<G> + Sync,
    {
        let mut nodes = 1;
        let eldest = game.play_unchecked(moves[0]);
        let (first, n) = self.child(game, &eldest, depth - 1, ply + 1, alpha, beta, chain);
        nodes += n;
        let mut result = NodeResult {
            value: first,
            best: Some(0),
            nodes,
        };
        if stopped(chain) || first >= beta || moves.len() == 1 {
            return result;
        }
        let split = Split {
            stop: AtomicBool::new(false),
            alpha: AtomicI32::new(alpha.max(first)),
            parent: chain,
        };
        // The young brothers are dealt out in generation order from one shared
        // counter to `workers` rayon jobs: each job takes the next unsearched brother
        // with the best alpha known at that moment, so the order (and the bound each
        // brother gets) stays as close to sequential alpha-beta as the thread count
        // allows. (Splitting the brothers' range in halves, as a parallel iterator
        // does, hands an idle thread the last brothers at once, all with the eldest's
        // bound only: 1.6x alpha-beta's nodes on Kalah 6x4 at 2 threads.)
        let next = AtomicUsize::new(1);
        let workers = rayon::current_num_threads().clamp(1, moves.len() - 1);
        let collected: Mutex<Vec<Young>> = Mutex::new(Vec::with_capacity(moves.len() - 1));
        rayon::scope(|s| {
            for _ in 0..workers {
                s.spawn(|_| {
                    let mut local = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= moves.len() {
                            break;
                        }
                        if stopped(Some(&split)) {
                            local.push((i, None, 0));
                            continue;
                        }
                        let a = split.alpha.load(Ordering::Relaxed);
                        let child = game.play_unchecked(moves[i]);
                        let (v, n) =
                            self.child(game, &child, depth - 1, ply + 1, a, beta, Some(&split));
                        if stopped(Some(&split)) {
                            local.push((i, None, n));
                            continue;
                        }
                        split.alpha.fetch_max(v, Ordering::Relaxed);
                        if v >= beta {
                            split.stop.store(true, Ordering::Relaxed);
                        }
                        local.push((i, Some((v, v > a)), n));
                    }
                    collected
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .extend(local);
                });
            }
        });
        let mut young = collected.into_inner().unwrap_or_else(|e| e.into_inner());
        young.sort_unstable_by_key(|y| y.0);
        // The value is the largest of all; the move is the first whose value is not
        // merely an upper bound (a brother that failed low against an alpha another
        // brother had already reached may return that alpha without reaching it).
        let mut best_move_value = first;
        for (i, v, n) in young {
            result.nodes += n;
            if let Some((v, beat_alpha)) = v {
                result.value = result.value.max(v);
                if beat_alpha && v > best_move_value {
                    best_move_value = v;
                    result.best = Some(i);
                }
            }
        }
        result
    }

    /// Fail-soft alpha-beta in generation order (the same tree as
    /// [`ply_core::search::alphabeta`]), abandoned once the chain is stopped (polled
    /// every 256 nodes; the caller then discards the value).
    #[allow(clippy::too_many_arguments)]
    fn sequential<G>(
        &self,
        game: &G,
        depth: u32,
        ply: u32,
        mut alpha: Score,
        beta: Score,
        chain: Option<&Split<'_>>,
        seq: &mut Seq,
    ) -> Score
    where
        G: Game,
        E: Evaluator<G>,
    {
        seq.nodes += 1;
        if seq.nodes & 255 == 0 && stopped(chain) {
            seq.aborted = true;
        }
        if seq.aborted {
            return 0;
        }
        if depth == 0 {
            return leaf_value(self.eval, game, self.me, ply);
        }
        let moves = game.legal_moves();
        if moves.is_empty() {
            return leaf_value(self.eval, game, self.me, ply);
        }
        let mut best = -INFINITY;
        for &mv in moves.iter() {
            let child = game.play_unchecked(mv);
            let v = negamax_child(game, &child, alpha, beta, |alpha, beta| {
                self.sequential(&child, depth - 1, ply + 1, alpha, beta, chain, seq)
            });
            if seq.aborted {
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}

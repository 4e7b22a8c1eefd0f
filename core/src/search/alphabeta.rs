//! Alpha-beta in negamax form, fail-soft, moves tried in generation order: the
//! algorithm of the seeds, with nothing an engine adds. It returns exactly the
//! minimax value and the same first best move, after visiting fewer nodes.

use crate::game::Game;
use crate::search::{from_parent, Evaluator, Score, SearchResult, INFINITY};

/// Searches `game` to `depth` plies with alpha-beta pruning.
pub fn alphabeta<G: Game, E: Evaluator<G>>(
    game: &G,
    depth: u32,
    eval: &E,
) -> SearchResult<G::Move> {
    let mut nodes = 1;
    let moves = game.legal_moves();
    if depth == 0 || moves.is_empty() {
        return SearchResult {
            value: leaf(game, 0, eval),
            best_move: None,
            nodes,
        };
    }
    let mut alpha = -INFINITY;
    let mut best_move = None;
    for &mv in moves.iter() {
        let child = game.play_unchecked(mv);
        let v = child_value(
            game,
            &child,
            depth - 1,
            1,
            alpha,
            INFINITY,
            eval,
            &mut nodes,
        );
        if v > alpha {
            alpha = v;
            best_move = Some(mv);
        }
    }
    SearchResult {
        value: alpha,
        best_move,
        nodes,
    }
}

/// The value of `game` within the window `(alpha, beta)`; exact inside it, a bound
/// on the side it fails. `ply` is the distance from the root.
pub fn search<G: Game, E: Evaluator<G>>(
    game: &G,
    depth: u32,
    ply: u32,
    mut alpha: Score,
    beta: Score,
    eval: &E,
    nodes: &mut u64,
) -> Score {
    *nodes += 1;
    if depth == 0 {
        return leaf(game, ply, eval);
    }
    let moves = game.legal_moves();
    if moves.is_empty() {
        return leaf(game, ply, eval);
    }
    let mut best = -INFINITY;
    for &mv in moves.iter() {
        let child = game.play_unchecked(mv);
        let v = child_value(game, &child, depth - 1, ply + 1, alpha, beta, eval, nodes);
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

/// Searches `child` and returns its value from `parent`'s point of view, passing the
/// window through unchanged when the same side moves again.
#[allow(clippy::too_many_arguments)]
#[inline]
fn child_value<G: Game, E: Evaluator<G>>(
    parent: &G,
    child: &G,
    depth: u32,
    ply: u32,
    alpha: Score,
    beta: Score,
    eval: &E,
    nodes: &mut u64,
) -> Score {
    if parent.side_to_move() == child.side_to_move() {
        search(child, depth, ply, alpha, beta, eval, nodes)
    } else {
        from_parent(
            parent,
            child,
            search(child, depth, ply, -beta, -alpha, eval, nodes),
        )
    }
}

fn leaf<G: Game, E: Evaluator<G>>(game: &G, ply: u32, eval: &E) -> Score {
    let outcome = game.outcome();
    if outcome.is_over() {
        eval.terminal(game, outcome, ply)
    } else {
        eval.evaluate(game)
    }
}

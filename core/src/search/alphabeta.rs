//! Alpha-beta in negamax form, fail-soft, moves tried in generation order: the
//! algorithm of the seeds, with nothing an engine adds. It returns exactly the
//! minimax value and the same first best move, after visiting fewer nodes.

use crate::game::{Game, Player};
use crate::search::eval::leaf_value;
use crate::search::{negamax_child, Evaluator, Score, SearchResult, INFINITY};

/// Searches `game` to `depth` plies with alpha-beta pruning. The evaluation values
/// positions for the side to move at `game`.
pub fn alphabeta<G: Game, E: Evaluator<G>>(
    game: &G,
    depth: u32,
    eval: &E,
) -> SearchResult<G::Move> {
    let me = game.side_to_move();
    let mut nodes = 1;
    let moves = game.legal_moves();
    if depth == 0 || moves.is_empty() {
        return SearchResult {
            value: leaf_value(eval, game, me, 0),
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
            me,
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
/// on the side it fails. `ply` is the distance from the root; `me` is the root's
/// side to move, the player the evaluation values positions for.
#[allow(clippy::too_many_arguments)]
pub fn search<G: Game, E: Evaluator<G>>(
    game: &G,
    depth: u32,
    ply: u32,
    mut alpha: Score,
    beta: Score,
    eval: &E,
    me: Player,
    nodes: &mut u64,
) -> Score {
    *nodes += 1;
    if depth == 0 {
        return leaf_value(eval, game, me, ply);
    }
    let moves = game.legal_moves();
    if moves.is_empty() {
        return leaf_value(eval, game, me, ply);
    }
    let mut best = -INFINITY;
    for &mv in moves.iter() {
        let child = game.play_unchecked(mv);
        let v = child_value(
            game,
            &child,
            depth - 1,
            ply + 1,
            alpha,
            beta,
            eval,
            me,
            nodes,
        );
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

/// Searches `child` of `parent` in the parent's window `(alpha, beta)` and returns
/// its value from `parent`'s point of view, passing the window through unchanged
/// when the same side moves again (an extra turn). The parallel strategies search
/// their subtrees with it.
#[allow(clippy::too_many_arguments)]
#[inline]
pub fn child_value<G: Game, E: Evaluator<G>>(
    parent: &G,
    child: &G,
    depth: u32,
    ply: u32,
    alpha: Score,
    beta: Score,
    eval: &E,
    me: Player,
    nodes: &mut u64,
) -> Score {
    negamax_child(parent, child, alpha, beta, |alpha, beta| {
        search(child, depth, ply, alpha, beta, eval, me, nodes)
    })
}

/// The value of playing `mv` at `game`, searched to `depth` plies in all (the move
/// included) with the full window, for `game`'s side to move: what [`alphabeta()`]
/// would give the root if `mv` were its only move. Tests use it to check that a
/// returned move is a best one; analysis uses it to value every move.
pub fn move_value<G: Game, E: Evaluator<G>>(game: &G, mv: G::Move, depth: u32, eval: &E) -> Score {
    let child = game.play_unchecked(mv);
    let mut nodes = 0;
    child_value(
        game,
        &child,
        depth.saturating_sub(1),
        1,
        -INFINITY,
        INFINITY,
        eval,
        game.side_to_move(),
        &mut nodes,
    )
}

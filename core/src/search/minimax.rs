//! Plain minimax in negamax form: every node searched, nothing pruned. The
//! reference every other algorithm is tested against.

use crate::game::{Game, Player};
use crate::search::eval::leaf_value;
use crate::search::{from_parent, Evaluator, Score, SearchResult, INFINITY};

/// Searches `game` to `depth` plies and returns its value, the first best move and
/// the number of nodes visited (root and leaves included). The evaluation values
/// positions for the side to move at `game`.
pub fn minimax<G: Game, E: Evaluator<G>>(game: &G, depth: u32, eval: &E) -> SearchResult<G::Move> {
    let me = game.side_to_move();
    let mut nodes = 1;
    let moves = game.legal_moves();
    if depth == 0 || moves.is_empty() {
        let value = leaf_value(eval, game, me, 0);
        return SearchResult {
            value,
            best_move: None,
            nodes,
        };
    }
    let mut best = -INFINITY;
    let mut best_move = None;
    for &mv in moves.iter() {
        let child = game.play_unchecked(mv);
        let v = from_parent(
            game,
            &child,
            negamax(&child, depth - 1, 1, eval, me, &mut nodes),
        );
        if v > best {
            best = v;
            best_move = Some(mv);
        }
    }
    SearchResult {
        value: best,
        best_move,
        nodes,
    }
}

fn negamax<G: Game, E: Evaluator<G>>(
    game: &G,
    depth: u32,
    ply: u32,
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
        let v = from_parent(
            game,
            &child,
            negamax(&child, depth - 1, ply + 1, eval, me, nodes),
        );
        best = best.max(v);
    }
    best
}

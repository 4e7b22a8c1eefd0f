//! The root: one iteration of the iterative deepening over the root moves, in an
//! aspiration window around the previous iteration's value.

use super::deferral::Deferral;
use super::Engine;
use crate::game::Game;
use crate::search::order::MoveOrder;
use crate::search::tt::{Bound, Stored, Table};
use crate::search::{negamax_child, Clock, Evaluator, Score, INFINITY};

impl<G: Game, E: Evaluator<G>, C: Clock, T: Table, const KILLERS: usize, const HISTORY: usize>
    Engine<G, E, C, T, KILLERS, HISTORY>
{
    /// One root iteration, in an aspiration window around `prev_value` (the last
    /// iteration's) where [`EngineConfig::aspiration`](super::EngineConfig::aspiration)
    /// asks for one: a value outside the window is searched again in a window four
    /// times as wide on that side, until the value falls inside (or the window is
    /// full).
    pub(super) fn aspirate(
        &mut self,
        game: &G,
        moves: &G::MoveList,
        depth: u32,
        prev_best: Option<usize>,
        prev_value: Score,
    ) -> (Score, Option<usize>, usize) {
        let delta = self.config.aspiration;
        if delta <= 0 || depth < 4 || crate::search::is_decisive(prev_value) {
            return self.root(game, moves, depth, prev_best, -INFINITY, INFINITY);
        }
        let (mut lo, mut hi) = (delta, delta);
        loop {
            let alpha = prev_value.saturating_sub(lo).max(-INFINITY);
            let beta = prev_value.saturating_add(hi).min(INFINITY);
            let (value, best, completed) = self.root(game, moves, depth, prev_best, alpha, beta);
            if self.aborted {
                // A move that failed high is better than the window's floor; one that
                // failed low says nothing: the caller keeps its own choice then.
                return (value, best, completed);
            }
            if value <= alpha && alpha > -INFINITY {
                lo = lo.saturating_mul(4);
            } else if value >= beta && beta < INFINITY {
                hi = hi.saturating_mul(4);
            } else {
                return (value, best, completed);
            }
        }
    }

    /// One root iteration in the window `(alpha, beta)`. Returns the value, the index
    /// of the best move (`None` if no move beat `alpha`) and how many root moves were
    /// searched to completion.
    fn root(
        &mut self,
        game: &G,
        moves: &G::MoveList,
        depth: u32,
        prev_best: Option<usize>,
        mut alpha: Score,
        beta: Score,
    ) -> (Score, Option<usize>, usize) {
        self.nodes += 1;
        // The table's best move first (another engine sharing the table may have
        // finished the previous iteration first), else this engine's own.
        let key = self.key(game);
        let hash_move = self
            .tt
            .probe(key, 0)
            .and_then(|e| e.move_index)
            .filter(|&i| i < moves.len())
            .or(prev_best);
        let mut order = MoveOrder::new();
        self.heuristics.order(
            self.config.killers_and_history,
            game,
            moves,
            hash_move,
            0,
            &mut order,
        );
        if self.config.helper > 0 {
            order.rotate_after_first(self.config.helper as usize);
        }
        let mut best = None;
        let mut completed = 0;
        let mut first = true;
        // ABDADA at the root too: a root move another engine is searching is put off
        // until the others are done (by then its value is usually in the table).
        let mut deferral = Deferral::new(self.config.abdada);
        while let Some((i, second_pass)) = deferral.next(&mut order) {
            let child = game.play_unchecked(moves[i]);
            let Some(busy_key) = self.enter_move(&mut deferral, i, second_pass, &child, !first)
            else {
                continue;
            };
            let v = if first {
                self.child(game, &child, depth - 1, 1, alpha, beta)
            } else {
                let v = self.child(game, &child, depth - 1, 1, alpha, alpha + 1);
                if v > alpha && !self.aborted {
                    self.child(game, &child, depth - 1, 1, alpha, beta)
                } else {
                    v
                }
            };
            if let Some(k) = busy_key {
                self.tt.leave(k);
            }
            first = false;
            if self.aborted {
                break;
            }
            completed += 1;
            if v > alpha {
                alpha = v;
                best = Some(i);
                if alpha >= beta {
                    break;
                }
            }
        }
        if !self.aborted {
            let bound = if alpha >= beta {
                Bound::Lower
            } else if best.is_none() {
                Bound::Upper
            } else {
                Bound::Exact
            };
            self.tt
                .store(key, 0, Stored::new(alpha, depth, bound, best));
        }
        (alpha, best, completed)
    }

    /// The value of `child` from `parent`'s side, searched in the window
    /// `(alpha, beta)` of the parent.
    #[inline]
    fn child(
        &mut self,
        parent: &G,
        child: &G,
        depth: u32,
        ply: u32,
        alpha: Score,
        beta: Score,
    ) -> Score {
        negamax_child(parent, child, alpha, beta, |alpha, beta| {
            self.node(child, depth, ply, alpha, beta, 0)
        })
    }
}

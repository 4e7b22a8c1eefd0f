//! The search below the root: principal variation search with the table's
//! cutoffs, futility pruning, late move reductions, ABDADA and quiescence.

use super::deferral::Deferral;
use super::{
    Engine, ABDADA_MIN_DEPTH, LMR_DEEPER_AFTER, LMR_FULL_MOVES, LMR_MIN_DEPTH, PRUNE_MAX_DEPTH,
};
use crate::game::Game;
use crate::search::config::TtCutoff;
use crate::search::eval::leaf_value;
use crate::search::order::MoveOrder;
use crate::search::tt::{Bound, Stored, Table};
use crate::search::{Clock, Evaluator, Score, INFINITY, MAX_PLY};

/// Futility pruning leaves alone windows and evaluations at or beyond this size:
/// wins, losses and the endgame tables' exact values.
const PRUNE_BOUND: Score = crate::search::TABLE_ZONE / 2;

impl<G: Game, E: Evaluator<G>, C: Clock, T: Table, const KILLERS: usize, const HISTORY: usize>
    Engine<G, E, C, T, KILLERS, HISTORY>
{
    /// The evaluation of `game` for its side to move, `ply` plies from the root.
    #[inline]
    fn leaf(&self, game: &G, ply: u32) -> Score {
        leaf_value(&self.eval, game, self.me, ply)
    }

    /// The value of `game` for its side to move in the window `(alpha, beta)`,
    /// searched `depth` plies deep at `ply` plies from the root (`qply`: plies into
    /// quiescence so far).
    pub(super) fn node(
        &mut self,
        game: &G,
        depth: u32,
        ply: u32,
        mut alpha: Score,
        beta: Score,
        qply: u32,
    ) -> Score {
        self.nodes += 1;
        if self.out_of_budget() {
            return 0;
        }
        if ply as usize >= MAX_PLY - 1 {
            return self.leaf(game, ply);
        }
        if self.config.probes {
            if let Some(v) = self.eval.exact(game, ply) {
                return v;
            }
        }
        let quiescing = depth == 0;
        if quiescing
            && (!self.config.quiescence
                || qply >= self.config.max_quiescence_plies
                || game.is_quiet()
                || game.outcome().is_over())
        {
            return self.leaf(game, ply);
        }

        let key = self.key(game);
        let mut tt_move = None;
        if !quiescing {
            if let Some(e) = self.tt.probe(key, ply) {
                tt_move = e.move_index;
                let usable = match self.config.tt_cutoff {
                    TtCutoff::AtLeastDepth => e.depth >= depth,
                    TtCutoff::SameDepth => e.depth == depth,
                    TtCutoff::Never => false,
                };
                if usable {
                    match e.bound {
                        Bound::Exact => return e.value,
                        Bound::Lower if e.value >= beta => return e.value,
                        Bound::Upper if e.value <= alpha => return e.value,
                        _ => {}
                    }
                }
            }
        }

        // Futility: a null-window node near the horizon in a quiet position, both
        // bounds heuristic values, is judged by its static evaluation.
        let futile_at = if !quiescing
            && depth <= PRUNE_MAX_DEPTH
            && (self.config.futility > 0 || self.config.reverse_futility > 0)
            && beta.saturating_sub(alpha) == 1
            && alpha.abs() < PRUNE_BOUND
            && beta.abs() < PRUNE_BOUND
            && game.is_quiet()
        {
            let stand = self.leaf(game, ply);
            let rfp = self.config.reverse_futility;
            if rfp > 0 && stand.abs() < PRUNE_BOUND && stand - rfp * depth as Score >= beta {
                return stand;
            }
            let f = self.config.futility;
            (f > 0 && stand.abs() < PRUNE_BOUND && stand + f * depth as Score <= alpha)
                .then_some(stand)
        } else {
            None
        };

        // Generated in place: returning the list by value would copy it.
        let mut moves = G::MoveList::default();
        game.generate_moves(&mut moves);
        if moves.is_empty() {
            return self.leaf(game, ply);
        }
        let mut order = MoveOrder::new();
        self.heuristics.order(
            self.config.killers_and_history,
            game,
            &moves,
            tt_move,
            ply as usize,
            &mut order,
        );

        let alpha_orig = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        let child_depth = if !quiescing && moves.len() == 1 && self.config.single_reply_extension {
            depth
        } else {
            depth.saturating_sub(1)
        };
        let child_qply = if quiescing { qply + 1 } else { 0 };
        let reducing = self.config.lmr && !quiescing && depth >= LMR_MIN_DEPTH;
        let mut deferral = Deferral::new(self.config.abdada && depth >= ABDADA_MIN_DEPTH);
        let mut searched = 0;
        // The value a move skipped by futility is taken to have at most, once one is.
        let mut pruned_below = None;
        while let Some((i, second_pass)) = deferral.next(&mut order) {
            let mv = moves[i];
            if let Some(stand) = futile_at {
                if searched > 0 && game.move_order_hint(mv) <= 0 && Some(i) != tt_move {
                    pruned_below = Some(stand + self.config.futility * depth as Score);
                    continue;
                }
            }
            let child = game.play_unchecked(mv);
            let Some(busy_key) =
                self.enter_move(&mut deferral, i, second_pass, &child, searched > 0)
            else {
                continue;
            };
            let same_side = child.side_to_move() == game.side_to_move();
            let search = |this: &mut Self, d: u32, a: Score, b: Score| -> Score {
                if same_side {
                    this.node(&child, d, ply + 1, a, b, child_qply)
                } else {
                    -this.node(&child, d, ply + 1, -b, -a, child_qply)
                }
            };
            let v = if searched == 0 {
                search(self, child_depth, alpha, beta)
            } else {
                // Late move reductions: a quiet move late in the order is first
                // searched shallower, and again at full depth only if it beats alpha.
                let reduction = if reducing
                    && searched >= LMR_FULL_MOVES
                    && game.move_order_hint(mv) <= 0
                    && Some(i) != tt_move
                {
                    1 + u32::from(searched >= LMR_DEEPER_AFTER && depth >= 5)
                } else {
                    0
                };
                let mut v = search(self, child_depth - reduction, alpha, alpha + 1);
                if reduction > 0 && v > alpha && !self.aborted {
                    v = search(self, child_depth, alpha, alpha + 1);
                }
                if v > alpha && v < beta && !self.aborted {
                    search(self, child_depth, alpha, beta)
                } else {
                    v
                }
            };
            if let Some(k) = busy_key {
                self.tt.leave(k);
            }
            searched += 1;
            if self.aborted {
                return 0;
            }
            if v > best {
                best = v;
                best_move = Some(i);
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        self.heuristics.reward(
                            self.config.killers_and_history,
                            game,
                            mv,
                            depth,
                            ply as usize,
                        );
                        break;
                    }
                }
            }
        }

        // A skipped move is not searched but judged: its value is taken to be at most
        // the futility value (itself at most alpha), so the node's upper bound is no
        // lower than that. Without this, a searched move's lost-game score would
        // stand for the skipped ones too: the parent would read a proved win that
        // the skipped defences may refute, and report it sooner than any exists.
        if let Some(v) = pruned_below {
            best = best.max(v);
        }
        if !quiescing {
            let bound = if best <= alpha_orig {
                Bound::Upper
            } else if best >= beta {
                Bound::Lower
            } else {
                Bound::Exact
            };
            self.tt
                .store(key, ply, Stored::new(best, depth, bound, best_move));
        }
        best
    }
}

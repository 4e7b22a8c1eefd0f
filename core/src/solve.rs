//! Exact solving of small games: the value of a position under perfect play.
//!
//! Full-depth negamax alpha-beta with a transposition table in caller memory and no
//! depth limit, so it only terminates on games whose every line ends (tic-tac-toe).
//! A win scores `WIN - plies`, so the solver also prefers the quickest win and the
//! slowest loss. Games with a dedicated solver (Kalah) have their own.

use crate::game::Game;
use crate::search::tt::{Bound, Stored, Table, TranspositionTable, TtEntry};
use crate::search::{negamax_child, Score, INFINITY, MAX_PLY, WIN};

/// The solved value of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solution<M> {
    /// +1 the side to move wins, 0 draw, -1 it loses (with perfect play).
    pub value: i32,
    /// Plies until the game ends under perfect play (the winner hurrying, the loser
    /// delaying); `None` for a draw.
    pub plies_to_end: Option<u32>,
    /// The first move in generation order that achieves `value`.
    pub best_move: Option<M>,
    /// Nodes visited.
    pub nodes: u64,
}

/// Why a position could not be solved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolveError {
    /// A line ran longer than [`MAX_PLY`] plies: the game is too long for this solver.
    TooDeep,
}

impl core::fmt::Display for SolveError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "a line of play is longer than {} plies: too long for the exact solver",
            MAX_PLY
        )
    }
}

/// The exact solver, over a caller-provided table.
pub struct Solver<'t, G: Game> {
    game: core::marker::PhantomData<G>,
    tt: TranspositionTable<&'t mut [TtEntry]>,
    nodes: u64,
    too_deep: bool,
}

impl<'t, G: Game> Solver<'t, G> {
    /// A solver using `tt_slots` as its table.
    pub fn new(tt_slots: &'t mut [TtEntry]) -> Self {
        Solver {
            game: core::marker::PhantomData,
            tt: TranspositionTable::new(tt_slots),
            nodes: 0,
            too_deep: false,
        }
    }

    /// Solves `game`.
    pub fn solve(&mut self, game: &G) -> Result<Solution<G::Move>, SolveError> {
        self.nodes = 0;
        self.too_deep = false;
        let moves = game.legal_moves();
        let score;
        let mut best_move = None;
        if moves.is_empty() {
            score = self.terminal(game, 0);
            self.nodes = 1;
        } else {
            let mut alpha = -INFINITY;
            self.nodes += 1;
            for &mv in moves.iter() {
                let child = game.play_unchecked(mv);
                let v = self.child(game, &child, 1, alpha, INFINITY);
                if v > alpha {
                    alpha = v;
                    best_move = Some(mv);
                }
            }
            score = alpha;
        }
        if self.too_deep {
            return Err(SolveError::TooDeep);
        }
        Ok(to_solution(score, best_move, self.nodes))
    }

    /// The exact value of every legal move of `game`, in generation order, as seen
    /// by the side to move in `game`; `out` receives `(move, solution)`.
    pub fn solve_moves(
        &mut self,
        game: &G,
        mut out: impl FnMut(G::Move, Solution<G::Move>),
    ) -> Result<(), SolveError> {
        for &mv in game.legal_moves().iter() {
            let child = game.play_unchecked(mv);
            self.nodes = 0;
            self.too_deep = false;
            let v = self.child(game, &child, 1, -INFINITY, INFINITY);
            if self.too_deep {
                return Err(SolveError::TooDeep);
            }
            out(mv, to_solution(v, Some(mv), self.nodes));
        }
        Ok(())
    }

    fn terminal(&self, game: &G, ply: u32) -> Score {
        match game.outcome().sign_for(game.side_to_move()) {
            Some(1) => WIN - ply as Score,
            Some(-1) => -(WIN - ply as Score),
            _ => 0,
        }
    }

    fn child(&mut self, parent: &G, child: &G, ply: u32, alpha: Score, beta: Score) -> Score {
        negamax_child(parent, child, alpha, beta, |alpha, beta| {
            self.node(child, ply, alpha, beta)
        })
    }

    fn node(&mut self, game: &G, ply: u32, mut alpha: Score, mut beta: Score) -> Score {
        self.nodes += 1;
        if ply as usize >= MAX_PLY {
            self.too_deep = true;
            return 0;
        }
        let key = game.search_key();
        let mut tt_move = None;
        if let Some(e) = self.tt.probe(key, ply) {
            tt_move = e.move_index;
            match e.bound {
                Bound::Exact => return e.value,
                Bound::Lower => alpha = alpha.max(e.value),
                Bound::Upper => beta = beta.min(e.value),
                Bound::Empty => {}
            }
            if alpha >= beta {
                return e.value;
            }
        }
        let moves = game.legal_moves();
        if moves.is_empty() {
            return self.terminal(game, ply);
        }
        // The hash move first, the others in generation order.
        let first = tt_move.filter(|&i| i < moves.len()).unwrap_or(0);
        let alpha_orig = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        let order = core::iter::once(first).chain((0..moves.len()).filter(|&i| i != first));
        for i in order {
            let child = game.play_unchecked(moves[i]);
            let v = self.child(game, &child, ply + 1, alpha, beta);
            if v > best {
                best = v;
                best_move = Some(i);
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        if !self.too_deep {
            let bound = if best <= alpha_orig {
                Bound::Upper
            } else if best >= beta {
                Bound::Lower
            } else {
                Bound::Exact
            };
            let entry = Stored::new(best, u32::from(u8::MAX), bound, best_move);
            self.tt.store(key, ply, entry);
        }
        best
    }
}

fn to_solution<M>(score: Score, best_move: Option<M>, nodes: u64) -> Solution<M> {
    let (value, plies_to_end) = if score > 0 {
        (1, Some((WIN - score) as u32))
    } else if score < 0 {
        (-1, Some((WIN + score) as u32))
    } else {
        (0, None)
    };
    Solution {
        value,
        plies_to_end,
        best_move,
        nodes,
    }
}

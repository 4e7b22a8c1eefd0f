//! Killer moves and the history heuristic: what the engine learns of good moves from
//! the cutoffs they caused ([`Heuristics`]), and the history table's slot of a move
//! ([`history_slot`], a game's own table of slots built with
//! [`history_slot_of_bytes`]).

use crate::game::Game;
use crate::search::order::MoveOrder;
use crate::search::MAX_PLY;

pub use crate::slot::{history_slot, history_slot_of_bytes, HISTORY_SLOTS};

/// The killer moves (two per ply, for the first `KILLERS` plies) and the history
/// table (a counter per side and slot, `HISTORY` slots: a move's
/// [`Game::history_slot`] modulo `HISTORY`) of one engine. Killers are forgotten and
/// history decays at each new search.
pub(crate) struct Heuristics<G: Game, const KILLERS: usize, const HISTORY: usize> {
    killers: [[Option<G::Move>; 2]; KILLERS],
    history: [[u32; HISTORY]; 2],
}

impl<G: Game, const KILLERS: usize, const HISTORY: usize> Heuristics<G, KILLERS, HISTORY> {
    /// The history table's slot of `mv`: its [`Game::history_slot`], folded into
    /// `HISTORY` slots when the table is smaller than [`HISTORY_SLOTS`].
    #[inline(always)]
    fn slot(mv: &G::Move) -> usize {
        let slot = G::history_slot(mv);
        if HISTORY == HISTORY_SLOTS {
            slot
        } else {
            slot % HISTORY
        }
    }

    /// Nothing learned yet.
    // Out of line, so that the tables are written where the engine keeps them
    // (see `Engine::with_table`).
    #[inline(never)]
    pub(crate) fn new() -> Self {
        Heuristics {
            killers: [[None; 2]; KILLERS],
            history: [[0; HISTORY]; 2],
        }
    }

    /// At the start of a search: the killers are forgotten and history decays.
    pub(crate) fn new_search(&mut self) {
        self.killers = [[None; 2]; KILLERS];
        for side in self.history.iter_mut() {
            for h in side.iter_mut() {
                *h /= 8;
            }
        }
    }

    /// A move that caused a beta cutoff becomes a killer at its ply (below
    /// `KILLERS`) and gains history in proportion to the depth it refuted.
    pub(crate) fn reward(&mut self, enabled: bool, game: &G, mv: G::Move, depth: u32, ply: usize) {
        if !enabled || ply >= MAX_PLY {
            return;
        }
        if let Some(k) = self.killers.get_mut(ply) {
            if k[0] != Some(mv) {
                k[1] = k[0];
                k[0] = Some(mv);
            }
        }
        let slot = &mut self.history[game.side_to_move().index()][Self::slot(&mv)];
        *slot = slot.saturating_add(depth * depth).min(1 << 20);
    }

    /// The order to try `moves` in: the hash move first, then by hint, killer and
    /// history (ties in generation order).
    pub(crate) fn order(
        &self,
        enabled: bool,
        game: &G,
        moves: &[G::Move],
        tt_move: Option<usize>,
        ply: usize,
        order: &mut MoveOrder,
    ) {
        let killers = match self.killers.get(ply) {
            Some(&k) if enabled => k,
            _ => [None, None],
        };
        let history = &self.history[game.side_to_move().index()];
        let use_history = enabled;
        for (i, &m) in moves.iter().enumerate() {
            let key = if Some(i) == tt_move {
                i64::MAX
            } else {
                let hint = i64::from(game.move_order_hint(m));
                let killer = if killers[0] == Some(m) {
                    2
                } else if killers[1] == Some(m) {
                    1
                } else {
                    0
                };
                let hist = if use_history {
                    i64::from(history[Self::slot(&m)])
                } else {
                    0
                };
                (hint << 32) | (killer << 24) | hist
            };
            order.offer(key, i);
        }
        order.finish(moves.len());
    }
}

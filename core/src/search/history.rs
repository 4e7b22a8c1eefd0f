//! Killer moves and the history heuristic: what the engine learns of good moves from
//! the cutoffs they caused ([`Heuristics`]), and the history table's slot of a move
//! ([`history_slot`], a game's own table of slots built with
//! [`history_slot_of_bytes`]).

use core::hash::{Hash, Hasher};

use crate::game::Game;
use crate::search::order::MoveOrder;
use crate::search::MAX_PLY;

/// Slots of the history table per side (move hashes are folded into them): the
/// engine's default; an engine for a part with little RAM may have fewer
/// ([`Engine`](crate::search::Engine)'s `HISTORY` parameter).
pub const HISTORY_SLOTS: usize = 512;

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

/// Folds a move into a history slot with FxHash-style mixing of its `Hash` bytes:
/// [`history_slot_of_bytes`] of the bytes its `Hash` writes. The default of
/// [`Game::history_slot`].
pub fn history_slot<M: Hash>(mv: &M) -> usize {
    struct Fx(u64);
    impl Hasher for Fx {
        fn finish(&self) -> u64 {
            self.0
        }
        fn write(&mut self, bytes: &[u8]) {
            for &b in bytes {
                self.0 = fx_byte(self.0, b);
            }
        }
    }
    let mut h = Fx(0);
    mv.hash(&mut h);
    slot_of_hash(h.0)
}

/// One byte of the FxHash-style mixing of [`history_slot`].
#[inline(always)]
const fn fx_byte(h: u64, b: u8) -> u64 {
    (h.rotate_left(5) ^ b as u64).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95)
}

/// The history slot of a mixed hash.
#[inline(always)]
const fn slot_of_hash(h: u64) -> usize {
    (crate::zobrist::mix64(h) as usize) % HISTORY_SLOTS
}

/// The history slot of a move whose `Hash` writes exactly `bytes` (as
/// [`history_slot`] computes it), in a `const` context: a game's table of slots
/// ([`Game::history_slot`]) is built with it.
pub const fn history_slot_of_bytes(bytes: &[u8]) -> usize {
    let mut h = 0;
    let mut i = 0;
    while i < bytes.len() {
        h = fx_byte(h, bytes[i]);
        i += 1;
    }
    slot_of_hash(h)
}

//! The king-move history: the king steps since the last man move or capture, which
//! the Calgary no-repetition rule and the English repetition draw both read (see the
//! module documentation, "History and its capacity").

use super::board::{bit, NEIGHBOUR};
use super::mv::Move;
use super::rules::Variant;
use super::Draughts;

/// The most plies the history buffer holds: `2 × MAX_MOVE_LIMIT`.
pub const HISTORY_CAPACITY: usize = 128;

/// A small set of (from, to) king steps that the Calgary rule forbids.
pub(super) struct Forbidden {
    pub(super) pairs: [(u8, u8); HISTORY_CAPACITY / 2],
    pub(super) len: usize,
}

impl Forbidden {
    #[inline]
    pub(super) fn contains(&self, from: u8, to: u8) -> bool {
        self.pairs[..self.len].contains(&(from, to))
    }
}

impl Draughts {
    /// The king steps the Calgary rule forbids now: for every earlier position of the
    /// reversible stretch with the opponent to move whose opponent kings stand where
    /// they stand now and whose own kings differ from the present ones by one king
    /// on another square, moving that king back recreates it.
    pub(super) fn forbidden(&self) -> Forbidden {
        let mut f = Forbidden {
            pairs: [(0, 0); HISTORY_CAPACITY / 2],
            len: 0,
        };
        let n = self.reversible as usize;
        if !matches!(self.rules.variant, Variant::Calgary) || n < 3 {
            return f;
        }
        let me = self.to_move.index();
        let opp = self.to_move.other().index();
        let mut k = [self.pieces[0] & self.kings, self.pieces[1] & self.kings];
        let now = k;
        for i in (1..=n).rev() {
            // Entry i (1-based) was made by the opponent when n - i is even.
            let mover = if (n - i) % 2 == 0 { opp } else { me };
            let e = self.history[i - 1];
            let from = e & 31;
            let to = NEIGHBOUR[from as usize][(e >> 5) as usize];
            k[mover] = (k[mover] & !bit(to)) | bit(from);
            if (n - i) % 2 == 0 && k[opp] == now[opp] {
                let diff = k[me] ^ now[me];
                if diff.count_ones() == 2 {
                    let a = (now[me] & diff).trailing_zeros() as u8;
                    let b = (k[me] & diff).trailing_zeros() as u8;
                    if !f.contains(a, b) {
                        f.pairs[f.len] = (a, b);
                        f.len += 1;
                    }
                }
            }
        }
        f
    }

    /// How many times the current position occurred before in the reversible
    /// stretch (same pieces, same side to move).
    fn earlier_occurrences(&self) -> u32 {
        let n = self.reversible as usize;
        let mut k = [self.pieces[0] & self.kings, self.pieces[1] & self.kings];
        let now = k;
        let me = self.to_move.index();
        let opp = self.to_move.other().index();
        let mut count = 0;
        for i in (1..=n).rev() {
            let mover = if (n - i) % 2 == 0 { opp } else { me };
            let e = self.history[i - 1];
            let from = e & 31;
            let to = NEIGHBOUR[from as usize][(e >> 5) as usize];
            k[mover] = (k[mover] & !bit(to)) | bit(from);
            if (n - i) % 2 == 1 && k == now {
                count += 1;
            }
        }
        count
    }

    /// The position after a king's simple move: the history grows by one ply.
    #[inline(never)]
    pub(super) fn after_king_step(
        &self,
        pieces: [u32; 2],
        kings: u32,
        hash: u64,
        mv: Move,
    ) -> Self {
        let mut g = Draughts {
            pieces,
            kings,
            to_move: self.to_move.other(),
            rules: self.rules,
            repetition_draw: false,
            reversible: self.reversible,
            hash,
            history: self.history,
        };
        let n = self.reversible as usize;
        if n < HISTORY_CAPACITY {
            g.history[n] = mv.from | ((mv.path as u8 & 3) << 5);
            g.reversible += 1;
        }
        let rep = g.rules.repetition;
        if rep != 0 && g.reversible >= 4 && g.earlier_occurrences() + 1 >= u32::from(rep) {
            g.repetition_draw = true;
        }
        g
    }
}

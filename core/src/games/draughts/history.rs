//! The king-move history: the king steps since the last man move or capture, which
//! the Calgary no-repetition rule and the English repetition draw both read (see the
//! module documentation, "History and its capacity").

use super::board::{bit, NEIGHBOUR};
use super::mv::Move;
use super::Draughts;

/// The most plies the history buffer holds: `2 × MAX_MOVE_LIMIT`.
pub const HISTORY_CAPACITY: usize = 128;

/// The history entry of a king's simple move: its origin square in bits 0–4, its
/// direction in bits 5–6.
#[inline(always)]
fn entry(mv: Move) -> u8 {
    mv.from | ((mv.path as u8 & 3) << 5)
}

/// The origin and destination squares of the king step of history entry `e`.
#[inline(always)]
pub(super) fn king_step(e: u8) -> (u8, u8) {
    let from = e & 31;
    (from, NEIGHBOUR[from as usize][(e >> 5) as usize])
}

/// The king steps of the reversible stretch, as the state keeps them.
///
/// Most positions of a game, and every position of the opening and middle game,
/// have none: every man move and capture starts a new, empty stretch. `None` says so
/// without a buffer, so a position built by such a move writes only this variant's
/// tag, not the 128 bytes of a buffer it does not use; every ply of search and perft
/// builds one. A king's simple move copies the buffer (or starts one) and appends.
#[derive(Clone, Copy)]
pub(super) enum KingSteps {
    /// No king step since the last man move or capture.
    None,
    /// The steps, oldest first: entries `..reversible` of the buffer are used.
    Some(StepBuffer),
}

/// The buffer of [`KingSteps`], word-aligned so that copying it copies words (an
/// unaligned copy of 128 bytes is a byte loop on the Cortex-M4).
#[derive(Clone, Copy)]
#[repr(align(4))]
pub(super) struct StepBuffer([u8; HISTORY_CAPACITY]);

/// A small set of (from, to) king steps that the Calgary rule forbids.
pub(super) struct Forbidden {
    pairs: [(u8, u8); HISTORY_CAPACITY / 2],
    len: usize,
}

impl Forbidden {
    /// The forbidden steps.
    #[inline]
    pub(super) fn pairs(&self) -> &[(u8, u8)] {
        &self.pairs[..self.len]
    }

    #[inline]
    pub(super) fn contains(&self, from: u8, to: u8) -> bool {
        self.pairs().contains(&(from, to))
    }
}

impl Draughts {
    /// The king steps since the last man move or capture, oldest first, as history
    /// entries (see [`king_step`]).
    #[inline]
    pub(super) fn king_steps(&self) -> &[u8] {
        match &self.history {
            KingSteps::None => &[],
            KingSteps::Some(steps) => &steps.0[..self.reversible as usize],
        }
    }

    /// The kings of each colour, indexed by `Colour::index`.
    #[inline(always)]
    fn king_sets(&self) -> [u32; 2] {
        [self.pieces[0] & self.kings, self.pieces[1] & self.kings]
    }

    /// Walks back through the reversible stretch, undoing one king step at a time,
    /// and calls `visit(opponent_to_move, kings)` for each earlier position with the
    /// kings of each colour then (indexed by `Colour::index`); `opponent_to_move`
    /// tells the positions with the opponent to move from those with the side to
    /// move now.
    #[inline(always)]
    fn walk_back(&self, mut visit: impl FnMut(bool, [u32; 2])) {
        let steps = self.king_steps();
        let n = steps.len();
        let me = self.to_move.index();
        let opp = self.to_move.other().index();
        let mut k = self.king_sets();
        for i in (1..=n).rev() {
            // Entry i (1-based) was made by the opponent when n - i is even.
            let by_opp = (n - i).is_multiple_of(2);
            let mover = if by_opp { opp } else { me };
            let (from, to) = king_step(steps[i - 1]);
            k[mover] = (k[mover] & !bit(to)) | bit(from);
            visit(by_opp, k);
        }
    }

    /// True if the Calgary rule can forbid a king step now: the Calgary variant, and
    /// at least three king steps since the last man move or capture (with fewer, no
    /// earlier position can recur).
    #[inline(always)]
    pub(super) fn calgary_rule_applies(&self) -> bool {
        self.rules.is_calgary() && self.reversible >= 3
    }

    /// The king steps the Calgary rule forbids now: for every earlier position of the
    /// reversible stretch with the opponent to move whose opponent kings stand where
    /// they stand now and whose own kings differ from the present ones by one king
    /// on another square, moving that king back recreates it.
    pub(super) fn forbidden(&self) -> Forbidden {
        let mut f = Forbidden {
            pairs: [(0, 0); HISTORY_CAPACITY / 2],
            len: 0,
        };
        if !self.calgary_rule_applies() {
            return f;
        }
        let me = self.to_move.index();
        let opp = self.to_move.other().index();
        let now = self.king_sets();
        self.walk_back(|opponent_to_move, k| {
            if opponent_to_move && k[opp] == now[opp] {
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
        });
        f
    }

    /// How many times the current position occurred before in the reversible
    /// stretch (same pieces, same side to move).
    fn earlier_occurrences(&self) -> u32 {
        let now = self.king_sets();
        let mut count = 0;
        self.walk_back(|opponent_to_move, k| {
            if !opponent_to_move && k == now {
                count += 1;
            }
        });
        count
    }

    /// The position after a king's simple move `mv` from this one, given its
    /// pieces and hash: the history grows by one ply (the buffer copied once,
    /// straight into the new position), and the draw rules are checked.
    #[inline(never)]
    pub(super) fn after_king_step(
        &self,
        pieces: [u32; 2],
        kings: u32,
        hash: u64,
        mv: Move,
    ) -> Self {
        let n = self.reversible as usize;
        let mut g = Draughts {
            pieces,
            kings,
            to_move: self.to_move.other(),
            rules: self.rules,
            drawn: false,
            reversible: self.reversible,
            hash,
            history: match self.history {
                KingSteps::Some(_) if n > 0 => self.history,
                _ => KingSteps::Some(StepBuffer([0; HISTORY_CAPACITY])),
            },
        };
        if let KingSteps::Some(steps) = &mut g.history {
            if n < HISTORY_CAPACITY {
                steps.0[n] = entry(mv);
                g.reversible += 1;
            }
        }
        let rep = g.rules.repetition();
        g.drawn = u32::from(g.reversible) >= 2 * u32::from(g.rules.move_limit())
            || (rep != 0 && g.reversible >= 4 && g.earlier_occurrences() + 1 >= u32::from(rep));
        g
    }
}

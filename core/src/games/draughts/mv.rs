//! The move type and the move lists.

use core::fmt;
use core::hash::{Hash, Hasher};

use super::board::{bit, JUMP, NEIGHBOUR};
use crate::game::Outcome;
use crate::move_list::MoveList;

const FLAG_CROWNS: u8 = 1;
/// The number of jumps is kept in the flags above this bit (it equals the number of
/// captured pieces in every legal move; a move read from text may jump a piece twice,
/// and is then refused with that reason).
const JUMPS_SHIFT: u8 = 1;

/// A move: its origin and destination, and the path of a capture (one direction per
/// jump), which is what tells two capture paths with the same ends and captured set
/// apart. The captured pieces are not stored: they are the squares jumped along the
/// path ([`Move::captured`]), so a move is 8 bytes.
#[derive(Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Move {
    pub(super) from: u8,
    pub(super) to: u8,
    flags: u8,
    /// Direction of jump `k` in bits `2k..2k+2` (captures); the direction of a simple
    /// move.
    pub(super) path: u32,
}

// Moves fill the move lists of every searched ply (on the firmware's stack too):
// 8 bytes, kept so.
const _: () = assert!(core::mem::size_of::<Move>() == 8);

/// The same bytes as the move's fields were hashed in before the captured set
/// left the move (origin, destination, flags, captured set, path), so that the
/// engine's history table (indexed by a hash of the move) and with it every
/// search stay as they were.
impl Hash for Move {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u8(self.from);
        state.write_u8(self.to);
        state.write_u8(self.flags);
        state.write_u32(self.captured());
        state.write_u32(self.path);
    }
}

/// The history slots of the simple moves, at `from << 3 | direction << 1 | crowns`:
/// what [`history_slot`](crate::search::engine::history_slot) computes from the
/// bytes [`Move`]'s `Hash` writes for them, so that search reads a table instead of
/// mixing 11 bytes per move and node ([`Game::history_slot`](crate::Game::history_slot)).
static SIMPLE_SLOTS: [u16; 256] = {
    let mut t = [0u16; 256];
    let mut i = 0;
    while i < 256 {
        let (from, d, crowns) = (i >> 3, (i >> 1) & 3, i & 1);
        let to = NEIGHBOUR[from][d];
        // origin, destination, flags, the captured set (none), the path.
        let bytes = [from as u8, to, crowns as u8, 0, 0, 0, 0, d as u8, 0, 0, 0];
        t[i] = crate::search::engine::history_slot_of_bytes(&bytes) as u16;
        i += 1;
    }
    t
};

impl Move {
    /// The engine's history slot of this move (see [`SIMPLE_SLOTS`]).
    #[inline]
    pub(super) fn history_slot(&self) -> usize {
        if self.is_capture() {
            crate::search::engine::history_slot(self)
        } else {
            let i = ((self.from as usize & 31) << 3)
                | ((self.path as usize & 3) << 1)
                | (self.flags & FLAG_CROWNS) as usize;
            SIMPLE_SLOTS[i] as usize
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Move")
            .field("from", &self.from)
            .field("to", &self.to)
            .field("flags", &self.flags)
            .field("captured", &self.captured())
            .field("path", &self.path)
            .finish()
    }
}

impl Move {
    /// A simple move from `from` to its neighbour `to` in direction `d`.
    #[inline(always)]
    pub(super) const fn simple(from: u8, to: u8, d: usize, crowns: bool) -> Move {
        Move {
            from,
            to,
            flags: if crowns { FLAG_CROWNS } else { 0 },
            path: d as u32,
        }
    }

    /// A capture of `jumps` jumps along `path` (the direction of jump `k` in bits
    /// `2k..2k+2`) from `from` to `to`.
    #[inline(always)]
    pub(super) const fn capture(from: u8, to: u8, path: u32, jumps: u32, crowns: bool) -> Move {
        Move {
            from,
            to,
            flags: (if crowns { FLAG_CROWNS } else { 0 }) | ((jumps as u8) << JUMPS_SHIFT),
            path,
        }
    }

    /// The origin square index (0–31; PDN square `from() + 1`).
    pub const fn from(&self) -> u8 {
        self.from
    }

    /// The destination square index (0–31).
    pub const fn to(&self) -> u8 {
        self.to
    }

    /// The captured pieces as a bitboard (bit `i` = square `i + 1`): the squares
    /// jumped along the path.
    #[inline]
    pub const fn captured(&self) -> u32 {
        let mut captured = 0;
        let mut sq = self.from as usize;
        let mut k = 0;
        while k < self.jumps() {
            let d = ((self.path >> (2 * k)) & 3) as usize;
            captured |= bit(NEIGHBOUR[sq][d]);
            sq = JUMP[sq][d] as usize;
            k += 1;
        }
        captured
    }

    /// True for a capture.
    #[inline]
    pub const fn is_capture(&self) -> bool {
        self.jumps() != 0
    }

    /// The number of jumps (0 for a simple move).
    #[inline]
    pub const fn jumps(&self) -> u32 {
        (self.flags >> JUMPS_SHIFT) as u32
    }

    /// True if the move crowns a man.
    #[inline]
    pub const fn crowns(&self) -> bool {
        self.flags & FLAG_CROWNS != 0
    }

    /// The squares the piece stands on along the move: the origin, then every landing.
    /// Returns the number of squares written into `out`.
    pub fn squares(&self, out: &mut [u8; 14]) -> usize {
        out[0] = self.from;
        if !self.is_capture() {
            out[1] = self.to;
            return 2;
        }
        let mut sq = self.from;
        let n = self.jumps() as usize;
        for k in 0..n {
            let d = ((self.path >> (2 * k)) & 3) as usize;
            sq = JUMP[sq as usize][d];
            out[k + 1] = sq;
        }
        n + 1
    }

    /// The same (from, to, captured set): equal as far as the resulting position goes.
    #[inline]
    pub const fn same_result(&self, other: &Move) -> bool {
        self.from == other.from && self.to == other.to && self.captured() == other.captured()
    }
}

/// Every legal move of a position, in a fixed-capacity list.
///
/// # Capacity: 68
/// * Simple moves: at most 12 pieces with 4 directions each, 48.
/// * Captures: a jump moves a piece by (±2, ±2), which keeps `x mod 2` and
///   `(x + y) mod 4`, so every landing square of one capture lies in one of four
///   classes of 8 squares, and each jump is an edge of that class's graph (9 edges,
///   whose midpoints are distinct squares). A capture never jumps a piece twice, so
///   it is a trail in that graph, and since it must go on while it can, it is a
///   maximal trail (or one cut short by a crowning). Allowing every edge only adds
///   continuations, and a removed continuation never adds a finished move, so the
///   count per class is at most its maximum over all states of the 8 landing squares
///   (empty, blocked, own man, own king) with every edge present: 17 for each class
///   in both variants and directions (computed exhaustively by the test
///   `capture_bound_per_class_is_17`). Four classes: at most 68 captures.
pub type DraughtsMoves = MoveList<Move, 68>;

/// The assignment's `moves`: jump moves if any exist (they must be taken), otherwise
/// simple moves, otherwise the game has ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveSet {
    /// `SM`: no capture exists; these are the simple moves.
    Simple(DraughtsMoves),
    /// `JM`: captures exist and one must be played; these are all of them.
    Jump(DraughtsMoves),
    /// `EndM`: the game is over, and how.
    End(Outcome),
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table gives every simple move (on the board) the slot its hash gives.
    #[test]
    fn simple_move_slots_are_the_hashed_slots() {
        for from in 0..32u8 {
            for (d, &to) in NEIGHBOUR[from as usize].iter().enumerate() {
                if to == super::super::board::NONE {
                    continue;
                }
                for crowns in [false, true] {
                    let m = Move::simple(from, to, d, crowns);
                    assert_eq!(m.history_slot(), crate::search::engine::history_slot(&m));
                }
            }
        }
    }
}

//! The move type and the move lists.

use super::board::JUMP;
use crate::game::Outcome;
use crate::move_list::MoveList;

const FLAG_CROWNS: u8 = 1;
/// The number of jumps is kept in the flags above this bit (it equals the number of
/// captured pieces in every legal move; a move read from text may jump a piece twice,
/// and is then refused with that reason).
const JUMPS_SHIFT: u8 = 1;

/// A move: its origin and destination, the captured pieces, and the path of a
/// capture (one direction per jump), which is what tells two capture paths with the
/// same ends and captured set apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Move {
    pub(super) from: u8,
    pub(super) to: u8,
    flags: u8,
    pub(super) captured: u32,
    /// Direction of jump `k` in bits `2k..2k+2` (captures only).
    pub(super) path: u32,
}

// Moves fill the move lists and the transposition table entries: 12 bytes, kept so.
const _: () = assert!(core::mem::size_of::<Move>() == 12);

impl Move {
    /// A simple move from `from` to its neighbour `to` in direction `d`.
    #[inline(always)]
    pub(super) const fn simple(from: u8, to: u8, d: usize, crowns: bool) -> Move {
        Move {
            from,
            to,
            flags: if crowns { FLAG_CROWNS } else { 0 },
            captured: 0,
            path: d as u32,
        }
    }

    /// A capture of `jumps` jumps along `path` (the direction of jump `k` in bits
    /// `2k..2k+2`) that takes `captured`.
    #[inline(always)]
    pub(super) const fn capture(
        from: u8,
        to: u8,
        captured: u32,
        path: u32,
        jumps: u32,
        crowns: bool,
    ) -> Move {
        Move {
            from,
            to,
            flags: (if crowns { FLAG_CROWNS } else { 0 }) | ((jumps as u8) << JUMPS_SHIFT),
            captured,
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

    /// The captured pieces as a bitboard (bit `i` = square `i + 1`).
    pub const fn captured(&self) -> u32 {
        self.captured
    }

    /// True for a capture.
    pub const fn is_capture(&self) -> bool {
        self.captured != 0
    }

    /// The number of jumps (0 for a simple move).
    pub const fn jumps(&self) -> u32 {
        (self.flags >> JUMPS_SHIFT) as u32
    }

    /// True if the move crowns a man.
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
        self.from == other.from && self.to == other.to && self.captured == other.captured
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

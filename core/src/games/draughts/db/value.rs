//! The value of a position for its side to move, with the distance to conversion,
//! and its one-byte code in a finished slice.

/// The value of a position for the side to move under perfect play, ignoring the
/// draw rules of a game (repetition, move limit): a win or a loss with the number
/// of plies to the next conversion (a capture or a crowning, or the end of the
/// game) when the winner hastens it and the loser delays it, or a draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// The side to move wins; the conversion comes within this many plies (1 or
    /// more).
    Win(u8),
    /// The side to move loses; the conversion (or the end: 0, no move) comes after
    /// this many plies.
    Loss(u8),
    /// Neither side can force a win.
    Draw,
}

/// The longest distance to conversion a code holds.
pub const MAX_DISTANCE: u32 = 126;

impl Value {
    /// Its byte in a slice: 0 a draw, `1 + 2d` a win in `d`, `2 + 2d` a loss in `d`.
    #[inline(always)]
    pub const fn code(self) -> u8 {
        match self {
            Value::Draw => 0,
            Value::Win(d) => 1 + 2 * d,
            Value::Loss(d) => 2 + 2 * d,
        }
    }

    /// The value of byte `code`; `None` for a byte no value has (255, 1: a win in 0).
    #[inline(always)]
    pub const fn from_code(code: u8) -> Option<Self> {
        match code {
            0 => Some(Value::Draw),
            1 | 255 => None,
            c if c % 2 == 1 => Some(Value::Win((c - 1) / 2)),
            c => Some(Value::Loss((c - 2) / 2)),
        }
    }

    /// 1 for a win, -1 for a loss, 0 for a draw.
    #[inline(always)]
    pub const fn sign(self) -> i32 {
        match self {
            Value::Win(_) => 1,
            Value::Loss(_) => -1,
            Value::Draw => 0,
        }
    }
}

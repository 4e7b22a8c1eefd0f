//! Tic-tac-toe text: the position is nine characters `x`, `o`, `.` row by row from
//! the top left (`X` and `O`, `-` and `_` are read too), a move the square's number
//! 1–9 in the same order.

use core::fmt;

use super::{Square, TicTacToe};
use crate::error::ParseError;
use crate::game::Player;

/// Reads a position, refusing impossible mark counts and impossible wins.
pub(super) fn parse_position(text: &str) -> Result<TicTacToe, ParseError> {
    let (mut x, mut o, mut n) = (0u16, 0u16, 0usize);
    for (offset, c) in text.char_indices() {
        if n == 9 {
            return Err(ParseError::at_char(
                "too many squares: a position is exactly 9 characters",
                offset,
                c,
            ));
        }
        match c {
            'x' | 'X' => x |= 1 << n,
            'o' | 'O' => o |= 1 << n,
            '.' | '-' | '_' => {}
            _ => {
                return Err(ParseError::at_char(
                    "unknown square: expected 'x', 'o' or '.'",
                    offset,
                    c,
                ))
            }
        }
        n += 1;
    }
    if n < 9 {
        return Err(ParseError::new(
            "too few squares: a position is exactly 9 characters",
            text.len(),
        ));
    }
    let (nx, no) = (x.count_ones(), o.count_ones());
    if nx != no && nx != no + 1 {
        return Err(ParseError::new(
            "impossible mark counts: X moves first, so X has as many marks as O or one more",
            0,
        ));
    }
    let (wx, wo) = (TicTacToe::has_line(x), TicTacToe::has_line(o));
    if wx && wo {
        return Err(ParseError::new("both players have three in a row", 0));
    }
    if wx && nx != no + 1 {
        return Err(ParseError::new(
            "X has three in a row but O moved after it",
            0,
        ));
    }
    if wo && nx != no {
        return Err(ParseError::new(
            "O has three in a row but X moved after it",
            0,
        ));
    }
    Ok(TicTacToe::from_marks(x, o))
}

/// Reads a move: one digit 1 to 9.
pub(super) fn parse_move(text: &str) -> Result<Square, ParseError> {
    let t = text.trim();
    // Offsets are in `text` as given, leading blanks included.
    let lead = text.len() - text.trim_start().len();
    let mut chars = t.char_indices();
    match (chars.next(), chars.next()) {
        (Some((_, c @ '1'..='9')), None) => Ok(Square(c as u8 - b'1')),
        (None, _) => Err(ParseError::new("empty move: expected a square 1 to 9", 0)),
        // A digit and more: the second character is the bad one.
        (Some((_, '1'..='9')), Some((i, c))) => Err(ParseError::at_char(
            "a move is a single digit 1 to 9",
            lead + i,
            c,
        )),
        // Otherwise the first is: `b2` and `help` are named at their first.
        (Some((i, c)), _) => Err(ParseError::at_char(
            "a move is a square number from 1 to 9",
            lead + i,
            c,
        )),
    }
}

/// Writes a move as its digit 1 to 9.
pub(super) fn write_move(mv: Square, out: &mut dyn fmt::Write) -> fmt::Result {
    // Widened: an illegal square such as `Square(255)` is still printable (in the
    // message refusing it) without overflowing.
    write!(out, "{}", u16::from(mv.0) + 1)
}

impl fmt::Display for TicTacToe {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for sq in 0..9 {
            let bit = 1 << sq;
            let c = if self.marks(Player::First) & bit != 0 {
                'x'
            } else if self.marks(Player::Second) & bit != 0 {
                'o'
            } else {
                '.'
            };
            write!(f, "{}", c)?;
        }
        Ok(())
    }
}

impl fmt::Debug for TicTacToe {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TicTacToe({})", self)
    }
}

//! Errors returned by the core: text that does not parse, moves that are not legal.

use core::fmt;

/// A text (a position, a move, a game's rule parameters) that could not be parsed.
///
/// It names what was expected and, where it applies, the offending character and its
/// 0-based byte offset in the input, so a user can see exactly what is wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct ParseError {
    /// What was wrong, as a short phrase ("expected 9 squares", "unknown piece").
    pub reason: &'static str,
    /// Byte offset in the input where the problem was found.
    pub offset: usize,
    /// The offending character, if the problem is a single character.
    pub found: Option<char>,
}

impl ParseError {
    /// An error at `offset` with no single offending character.
    pub const fn new(reason: &'static str, offset: usize) -> Self {
        ParseError {
            reason,
            offset,
            found: None,
        }
    }

    /// An error caused by the character `found` at `offset`.
    pub const fn at_char(reason: &'static str, offset: usize, found: char) -> Self {
        ParseError {
            reason,
            offset,
            found: Some(found),
        }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.found {
            Some(c) => write!(
                f,
                "{}: found {:?} at offset {}",
                self.reason, c, self.offset
            ),
            None => write!(f, "{} (at offset {})", self.reason, self.offset),
        }
    }
}

/// A move refused by a checked `play`. Like shakmaty, the position travels inside the
/// error, unchanged, so the caller can keep going with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IllegalMove<G: crate::Game> {
    /// The position the move was tried in, unchanged.
    pub position: G,
    /// The refused move.
    pub mv: G::Move,
    /// Why the move was refused ("square is occupied", "a jump must be taken").
    pub reason: &'static str,
}

impl<G: crate::Game> fmt::Display for IllegalMove<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "illegal move ")?;
        self.position.write_move(self.mv, f)?;
        write!(f, ": {}", self.reason)
    }
}

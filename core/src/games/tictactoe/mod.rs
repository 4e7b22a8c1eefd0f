//! Tic-tac-toe on two 9-bit bitboards: the state and its [`Game`] impl here, the
//! text in and out in `notation.rs`, the evaluations in `eval.rs`.
//!
//! Squares are numbered 0–8 row by row from the top left; the text notation of a
//! move is the square's number 1–9 in the same order. The position text is nine
//! characters `x`, `o`, `.` in the same order; X moves first, so the side to move
//! follows from the counts.

use core::fmt;

use crate::error::ParseError;
use crate::game::{Game, Outcome, Player};
use crate::move_list::MoveList;
use crate::zobrist;

mod eval;
mod key;
mod notation;

pub use eval::TicTacToeEval;

/// A tic-tac-toe move: the square 0–8.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Square(pub u8);

/// Tic-tac-toe has at most 9 legal moves: one per empty square, and there are 9.
pub type TicTacToeMoves = MoveList<Square, 9>;

const FULL: u16 = 0x1ff;

/// The eight winning lines as bit masks.
pub const LINES: [u16; 8] = [
    0b000_000_111,
    0b000_111_000,
    0b111_000_000,
    0b001_001_001,
    0b010_010_010,
    0b100_100_100,
    0b100_010_001,
    0b001_010_100,
];

const KEYS: [u64; 19] = zobrist::keys(0x7117_7ac7_0e00_0001);
const SIDE_KEY: u64 = KEYS[18];

/// A tic-tac-toe position: X's and O's marks as bitboards, plus the cached hash.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct TicTacToe {
    x: u16,
    o: u16,
    hash: u64,
}

impl TicTacToe {
    /// The empty board, X to move.
    pub const fn new() -> Self {
        TicTacToe {
            x: 0,
            o: 0,
            hash: 0,
        }
    }

    /// A position from the two boards (checked by the caller), with its hash.
    pub(crate) fn from_marks(x: u16, o: u16) -> Self {
        TicTacToe {
            x,
            o,
            hash: Self::compute_hash(x, o),
        }
    }

    /// The marks of `player` (X is `First`) as a 9-bit board.
    pub const fn marks(&self, player: Player) -> u16 {
        match player {
            Player::First => self.x,
            Player::Second => self.o,
        }
    }

    /// The empty squares as a 9-bit board.
    pub const fn empty(&self) -> u16 {
        !(self.x | self.o) & FULL
    }

    pub(crate) const fn has_line(bb: u16) -> bool {
        let mut i = 0;
        while i < LINES.len() {
            if bb & LINES[i] == LINES[i] {
                return true;
            }
            i += 1;
        }
        false
    }

    fn compute_hash(x: u16, o: u16) -> u64 {
        let mut h = 0;
        for sq in 0..9 {
            if x & (1 << sq) != 0 {
                h ^= KEYS[sq];
            }
            if o & (1 << sq) != 0 {
                h ^= KEYS[9 + sq];
            }
        }
        if (x.count_ones() + o.count_ones()) % 2 == 1 {
            h ^= SIDE_KEY;
        }
        h
    }
}

impl Default for TicTacToe {
    fn default() -> Self {
        Self::new()
    }
}

impl Game for TicTacToe {
    type Move = Square;
    type MoveList = TicTacToeMoves;
    type Rules = ();

    fn start(_: ()) -> Self {
        Self::new()
    }

    fn parse_rules(params: &str) -> Result<(), ParseError> {
        if params.is_empty() {
            Ok(())
        } else {
            Err(ParseError::new("tic-tac-toe takes no parameters", 0))
        }
    }

    fn rules(&self) {}

    fn parse_position(_: (), text: &str) -> Result<Self, ParseError> {
        notation::parse_position(text)
    }

    #[inline]
    fn side_to_move(&self) -> Player {
        if (self.x | self.o).count_ones().is_multiple_of(2) {
            Player::First
        } else {
            Player::Second
        }
    }

    fn outcome(&self) -> Outcome {
        if Self::has_line(self.x) {
            Outcome::Win(Player::First)
        } else if Self::has_line(self.o) {
            Outcome::Win(Player::Second)
        } else if self.empty() == 0 {
            Outcome::Draw
        } else {
            Outcome::Ongoing
        }
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.hash
    }

    fn generate_moves(&self, moves: &mut TicTacToeMoves) {
        moves.clear();
        if self.outcome().is_over() {
            return;
        }
        let mut empty = self.empty();
        while empty != 0 {
            moves.push(Square(empty.trailing_zeros() as u8));
            empty &= empty - 1;
        }
    }

    fn count_moves(&self) -> u64 {
        if self.outcome().is_over() {
            0
        } else {
            u64::from(self.empty().count_ones())
        }
    }

    #[inline]
    fn play_unchecked(&self, mv: Square) -> Self {
        let bit = 1u16 << mv.0;
        let mut next = *self;
        match self.side_to_move() {
            Player::First => {
                next.x |= bit;
                next.hash ^= KEYS[mv.0 as usize];
            }
            Player::Second => {
                next.o |= bit;
                next.hash ^= KEYS[9 + mv.0 as usize];
            }
        }
        next.hash ^= SIDE_KEY;
        next
    }

    fn check_move(&self, mv: Square) -> Result<(), &'static str> {
        if mv.0 >= 9 {
            return Err("no such square: squares are 1 to 9");
        }
        if self.outcome().is_over() {
            return Err("the game is over");
        }
        if self.empty() & (1 << mv.0) == 0 {
            return Err("the square is already taken");
        }
        Ok(())
    }

    fn parse_move(&self, text: &str) -> Result<Square, ParseError> {
        notation::parse_move(text)
    }

    fn write_move(&self, mv: Square, out: &mut dyn fmt::Write) -> fmt::Result {
        notation::write_move(mv, out)
    }

    fn move_order_hint(&self, mv: Square) -> i32 {
        // Centre takes part in 4 lines, corners in 3, edges in 2.
        match mv.0 {
            4 => 2,
            0 | 2 | 6 | 8 => 1,
            _ => 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_is_one_byte() {
        assert_eq!(core::mem::size_of::<Square>(), 1);
    }

    #[test]
    fn incremental_hash_matches_parsed() {
        let p = TicTacToe::new()
            .play_unchecked(Square(4))
            .play_unchecked(Square(0));
        let q = TicTacToe::parse_position((), "o...x....").unwrap();
        assert_eq!(p, q);
        assert_eq!(p.hash(), q.hash());
        assert_ne!(p.hash(), TicTacToe::new().hash());
    }
}

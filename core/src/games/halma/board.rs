//! The two board sizes and their geometry: the camps, the corners, distances, and
//! which size a game spec names.
//!
//! Squares are numbered row by row from the top left: square `r * N + c` is row `r`,
//! column `c` (both from 0). The first player's camp is at the (0, 0) corner; the
//! second player's is its point reflection.

use core::fmt;

use super::movegen::{Halma16Moves, Halma8Moves, HalmaMoveList};
use super::Halma;
use crate::bitboard::{Bits256, SquareBoard};
use crate::game::Player;

/// A board size: its bitboard, piece count, camp and move-list capacity.
pub trait HalmaBoard: SquareBoard {
    /// Pieces per side.
    const PIECES: usize;
    /// The game spec parameter naming the size (`"8"`, `"16"`).
    const SIZE_NAME: &'static str;
    /// The fixed-capacity list for this size's legal moves.
    type Moves: HalmaMoveList + fmt::Debug;
    /// True if (r, c), counted from the first player's corner, is in that player's
    /// home camp.
    fn in_first_camp(r: usize, c: usize) -> bool;
}

/// 8×8: the triangle `r + c ≤ 3`, 10 squares (the Haskell Halma report,
/// docs/references.md).
impl HalmaBoard for u64 {
    const PIECES: usize = 10;
    const SIZE_NAME: &'static str = "8";
    type Moves = Halma8Moves;
    fn in_first_camp(r: usize, c: usize) -> bool {
        r + c <= 3
    }
}

/// 16×16: rows of 5, 5, 4, 3, 2 from the corner, `r + c ≤ 5` without (0, 5) and
/// (5, 0), 19 squares (the C++ Halma README, docs/references.md).
impl HalmaBoard for Bits256 {
    const PIECES: usize = 19;
    const SIZE_NAME: &'static str = "16";
    type Moves = Halma16Moves;
    fn in_first_camp(r: usize, c: usize) -> bool {
        r + c <= 5 && (r, c) != (0, 5) && (r, c) != (5, 0)
    }
}

/// The board side (8 or 16) a Halma game spec's parameters ask for: 16 if the first
/// `:`-separated parameter is `16`, 8 otherwise (the host picks [`Halma8`] or
/// [`Halma16`] with it; the chosen type's `parse_rules` checks the rest).
///
/// [`Halma8`]: super::Halma8
/// [`Halma16`]: super::Halma16
pub fn board_side(params: &str) -> usize {
    if params.split(':').next() == Some("16") {
        16
    } else {
        8
    }
}

/// The camp of `player` (its home; the other player's target).
pub fn camp<B: HalmaBoard>(player: Player) -> B {
    let n = B::SIDE;
    let mut b = B::EMPTY;
    for r in 0..n {
        for c in 0..n {
            if B::in_first_camp(r, c) {
                let sq = match player {
                    Player::First => r * n + c,
                    Player::Second => (n - 1 - r) * n + (n - 1 - c),
                };
                b = b | B::square(sq);
            }
        }
    }
    b
}

/// The Manhattan distance between squares `a` and `b` of an `n`×`n` board.
#[inline]
pub const fn manhattan(n: usize, a: usize, b: usize) -> u32 {
    let (ra, ca, rb, cb) = (a / n, a % n, b / n, b % n);
    (ra.abs_diff(rb) + ca.abs_diff(cb)) as u32
}

impl<B: HalmaBoard> Halma<B> {
    /// The board side N.
    pub const fn side() -> usize {
        B::SIDE
    }

    /// The home camp of `player` (the other player's target).
    #[inline]
    pub fn camp(player: Player) -> B {
        camp::<B>(player)
    }

    /// The camp `player` must reach: the opponent's home.
    #[inline]
    pub fn target(player: Player) -> B {
        camp::<B>(player.opponent())
    }

    /// The corner square of `player`'s home camp: 0 for the first player, N² − 1
    /// for the second.
    pub const fn home_corner(player: Player) -> usize {
        match player {
            Player::First => 0,
            Player::Second => B::SIDE * B::SIDE - 1,
        }
    }

    /// The corner `player` is heading for (the opponent's home corner).
    pub const fn goal_corner(player: Player) -> usize {
        Self::home_corner(player.opponent())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::Bitboard;

    #[test]
    fn camps_have_the_reference_sizes() {
        assert_eq!(camp::<u64>(Player::First).count(), 10);
        assert_eq!(camp::<u64>(Player::Second).count(), 10);
        assert_eq!(camp::<Bits256>(Player::First).count(), 19);
        assert_eq!(camp::<Bits256>(Player::Second).count(), 19);
        assert!((camp::<Bits256>(Player::First) & camp::<Bits256>(Player::Second)).is_empty());
        // The Haskell Halma report's white camp: (4,7) (5,6) (5,7) (6,5..7) (7,4..7).
        let white: u64 = [
            (4, 7),
            (5, 6),
            (5, 7),
            (6, 5),
            (6, 6),
            (6, 7),
            (7, 4),
            (7, 5),
            (7, 6),
            (7, 7),
        ]
        .iter()
        .fold(0, |b, &(r, c)| b | 1u64 << (r * 8 + c));
        assert_eq!(camp::<u64>(Player::Second), white);
    }

    #[test]
    fn corners_and_distances() {
        assert_eq!(Halma::<u64>::home_corner(Player::Second), 63);
        assert_eq!(Halma::<Bits256>::goal_corner(Player::First), 255);
        assert_eq!(manhattan(8, 0, 63), 14);
        assert_eq!(manhattan(16, 17, 2), 2);
        assert_eq!(board_side("16:parlett"), 16);
        assert_eq!(board_side("8"), 8);
    }
}

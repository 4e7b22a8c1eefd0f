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

/// A board size: its bitboard, piece count, camp and move-list capacity, and its
/// four parity classes.
///
/// # Parity classes
/// A jump moves a piece by 0 or ±2 in each coordinate, so it never leaves the
/// piece's *parity class*: the squares whose row and column have the parities of
/// its own. Class `2 (r mod 2) + (c mod 2)` holds the (N/2)×(N/2) squares
/// `(2i + r mod 2, 2j + c mod 2)`, kept in a `u64` as cell `i · N/2 + j`, so a jump is
/// a step on the class's own small board and the jump chains of a piece are a flood
/// fill there (see `movegen`).
pub trait HalmaBoard: SquareBoard {
    /// Pieces per side.
    const PIECES: usize;
    /// The game spec parameter naming the size (`"8"`, `"16"`).
    const SIZE_NAME: &'static str;
    /// The home camps of the first and the second player (as [`camp`] computes
    /// them from [`HalmaBoard::in_first_camp`]).
    const CAMPS: [Self; 2];
    /// The fixed-capacity list for this size's legal moves.
    type Moves: HalmaMoveList + fmt::Debug;
    /// True if (r, c), counted from the first player's corner, is in that player's
    /// home camp.
    fn in_first_camp(r: usize, c: usize) -> bool;
    /// The squares of `self` in each of the four parity classes, as class boards.
    fn parity_classes(self) -> [u64; 4];
    /// The squares of the cells `cells` of parity class `class` (the inverse of
    /// [`HalmaBoard::parity_classes`] for one class).
    fn from_parity_class(class: usize, cells: u64) -> Self;
}

/// The camp of a player on the `n`×`n` board (8 or 16), one bit a square, in
/// `W` words.
const fn camp_words<const W: usize>(n: usize, second: bool) -> [u64; W] {
    let mut w = [0u64; W];
    let mut r = 0;
    while r < n {
        let mut c = 0;
        while c < n {
            let first = if n == 8 {
                in_first_camp_8(r, c)
            } else {
                in_first_camp_16(r, c)
            };
            if first {
                let sq = if second {
                    (n - 1 - r) * n + (n - 1 - c)
                } else {
                    r * n + c
                };
                w[sq / 64] |= 1 << (sq % 64);
            }
            c += 1;
        }
        r += 1;
    }
    w
}

const fn in_first_camp_8(r: usize, c: usize) -> bool {
    r + c <= 3
}

const fn in_first_camp_16(r: usize, c: usize) -> bool {
    r + c <= 5 && !(r == 0 && c == 5) && !(r == 5 && c == 0)
}

/// 8×8: the triangle `r + c ≤ 3`, 10 squares (the Haskell Halma report,
/// docs/references.md).
impl HalmaBoard for u64 {
    const PIECES: usize = 10;
    const SIZE_NAME: &'static str = "8";
    const CAMPS: [u64; 2] = [camp_words::<1>(8, false)[0], camp_words::<1>(8, true)[0]];
    type Moves = Halma8Moves;
    fn in_first_camp(r: usize, c: usize) -> bool {
        in_first_camp_8(r, c)
    }

    /// Class (pr, pc) holds rows pr, pr + 2, pr + 4, pr + 6 and the columns of
    /// parity pc: shifted down to bit 0, the class's squares are the even bits of
    /// the even bytes, gathered to one nibble a row.
    #[inline]
    fn parity_classes(self) -> [u64; 4] {
        let class = |shift: u32| {
            let mut x = (self >> shift) & 0x0055_0055_0055_0055;
            x = (x | (x >> 1)) & 0x0033_0033_0033_0033;
            x = (x | (x >> 2)) & 0x000f_000f_000f_000f;
            (x & 0xf) | ((x >> 12) & 0xf0) | ((x >> 24) & 0xf00) | ((x >> 36) & 0xf000)
        };
        [class(0), class(1), class(8), class(9)]
    }

    #[inline]
    fn from_parity_class(class: usize, cells: u64) -> u64 {
        let mut x = (cells & 0xf)
            | ((cells & 0xf0) << 12)
            | ((cells & 0xf00) << 24)
            | ((cells & 0xf000) << 36);
        x = (x | (x << 2)) & 0x0033_0033_0033_0033;
        x = (x | (x << 1)) & 0x0055_0055_0055_0055;
        x << ((class >> 1) * 8 + (class & 1))
    }
}

/// 16×16: rows of 5, 5, 4, 3, 2 from the corner, `r + c ≤ 5` without (0, 5) and
/// (5, 0), 19 squares (the C++ Halma README, docs/references.md).
impl HalmaBoard for Bits256 {
    const PIECES: usize = 19;
    const SIZE_NAME: &'static str = "16";
    const CAMPS: [Bits256; 2] = [
        Bits256(camp_words::<4>(16, false)),
        Bits256(camp_words::<4>(16, true)),
    ];
    type Moves = Halma16Moves;
    fn in_first_camp(r: usize, c: usize) -> bool {
        in_first_camp_16(r, c)
    }

    /// Each word holds four rows; class (pr, pc) takes rows pr and pr + 2 of it,
    /// the columns of parity pc: 16 cells, two rows of the class board.
    #[inline]
    fn parity_classes(self) -> [u64; 4] {
        let class = |shift: u32| {
            let mut cells = 0;
            for (w, &word) in self.0.iter().enumerate() {
                let mut x = (word >> shift) & 0x0000_5555_0000_5555;
                x = (x | (x >> 1)) & 0x0000_3333_0000_3333;
                x = (x | (x >> 2)) & 0x0000_0f0f_0000_0f0f;
                x = (x | (x >> 4)) & 0x0000_00ff_0000_00ff;
                cells |= ((x & 0xff) | ((x >> 24) & 0xff00)) << (16 * w);
            }
            cells
        };
        [class(0), class(1), class(16), class(17)]
    }

    #[inline]
    fn from_parity_class(class: usize, cells: u64) -> Bits256 {
        let shift = (class >> 1) * 16 + (class & 1);
        let mut words = [0u64; 4];
        for (w, word) in words.iter_mut().enumerate() {
            let part = (cells >> (16 * w)) & 0xffff;
            let mut x = (part & 0xff) | ((part & 0xff00) << 24);
            x = (x | (x << 4)) & 0x0000_0f0f_0000_0f0f;
            x = (x | (x << 2)) & 0x0000_3333_0000_3333;
            x = (x | (x << 1)) & 0x0000_5555_0000_5555;
            *word = x << shift;
        }
        Bits256(words)
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
    // Computed square by square from `in_first_camp`; the move generator and the
    // evaluations read the same sets from `HalmaBoard::CAMPS`.
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
    fn camp_constants_are_the_camps() {
        for p in [Player::First, Player::Second] {
            assert_eq!(<u64 as HalmaBoard>::CAMPS[p.index()], camp::<u64>(p));
            assert_eq!(
                <Bits256 as HalmaBoard>::CAMPS[p.index()],
                camp::<Bits256>(p)
            );
        }
    }

    /// Every square goes to its class's cell and back.
    fn parity_classes_round_trip<B: HalmaBoard>() {
        let n = B::SIDE;
        let m = n / 2;
        for sq in 0..n * n {
            let (r, c) = (sq / n, sq % n);
            let class = (r % 2) * 2 + c % 2;
            let cell = (r / 2) * m + c / 2;
            let classes = B::square(sq).parity_classes();
            for (k, &cells) in classes.iter().enumerate() {
                assert_eq!(
                    cells,
                    if k == class { 1 << cell } else { 0 },
                    "square {}",
                    sq
                );
            }
            assert_eq!(B::from_parity_class(class, 1 << cell), B::square(sq));
        }
    }

    #[test]
    fn parity_classes_of_both_boards() {
        parity_classes_round_trip::<u64>();
        parity_classes_round_trip::<Bits256>();
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

//! The crate's bitboard: a set of squares, one bit a square, with the operations a
//! bitboard move generator needs, and the geometry of a square board laid out row by
//! row.
//!
//! * [`Bitboard`]: the set operations (single squares, emptiness, counting, the
//!   lowest square, shifts and [`SquareIter`] over the squares, lowest first), for
//!   plain `u32` and `u64` and for the four-word [`Bits256`].
//! * [`SquareBoard`]: a [`Bitboard`] that is exactly an N×N board, square `r * N + c`
//!   at row `r`, column `c`: `u64` is the 8×8 board, [`Bits256`] the 16×16 board. It
//!   adds the column masks and the shifts to the 8 neighbouring squares.
//!
//! Halma ([`crate::games::halma`]) runs its one generic move generator over both
//! square boards. The other games keep their own layouts (tic-tac-toe's 9 bits,
//! draughts' 32 dark squares) in plain integers.

use core::fmt;
use core::ops::{BitAnd, BitOr, BitXor, Not};

/// A set of squares held in bits: square `sq` is bit `sq`.
pub trait Bitboard:
    Copy
    + Eq
    + core::hash::Hash
    + fmt::Debug
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
{
    /// No square.
    const EMPTY: Self;

    /// The set holding only square `sq`.
    fn square(sq: usize) -> Self;
    /// True if no square is set.
    fn is_empty(self) -> bool;
    /// The number of squares set.
    fn count(self) -> u32;
    /// The lowest square set, if any.
    fn lowest(self) -> Option<usize>;
    /// Moves every square `k` places up (towards higher indices), 0 < k < 64 and
    /// less than the number of bits; squares moved past the top are dropped.
    fn shl(self, k: u32) -> Self;
    /// Moves every square `k` places down (towards lower indices), 0 < k < 64 and
    /// less than the number of bits; squares moved past the bottom are dropped.
    fn shr(self, k: u32) -> Self;

    /// True if square `sq` is set.
    #[inline]
    fn has(self, sq: usize) -> bool {
        !(self & Self::square(sq)).is_empty()
    }

    /// The squares set, lowest first.
    #[inline]
    fn squares(self) -> SquareIter<Self> {
        SquareIter(self)
    }
}

/// Iterator over the squares of a [`Bitboard`], lowest first.
#[derive(Clone, Copy, Debug)]
pub struct SquareIter<B>(B);

impl<B: Bitboard> Iterator for SquareIter<B> {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        let sq = self.0.lowest()?;
        self.0 = self.0 ^ B::square(sq);
        Some(sq)
    }
}

/// [`Bitboard`] for a plain unsigned integer.
macro_rules! integer_bitboard {
    ($($t:ty),*) => {$(
        impl Bitboard for $t {
            const EMPTY: Self = 0;

            #[inline]
            fn square(sq: usize) -> Self {
                1 << sq
            }
            #[inline]
            fn is_empty(self) -> bool {
                self == 0
            }
            #[inline]
            fn count(self) -> u32 {
                self.count_ones()
            }
            #[inline]
            fn lowest(self) -> Option<usize> {
                if self == 0 {
                    None
                } else {
                    Some(self.trailing_zeros() as usize)
                }
            }
            #[inline]
            fn shl(self, k: u32) -> Self {
                self << k
            }
            #[inline]
            fn shr(self, k: u32) -> Self {
                self >> k
            }
        }
    )*};
}

integer_bitboard!(u32, u64);

/// A [`Bitboard`] that is exactly an N×N board: square `r * N + c` is row `r`,
/// column `c` (both from 0), and the board fills the bits, so a shift off either end
/// of the board simply drops the squares; only the column masks are needed to stop
/// east-west wrapping. "South" is towards higher rows, "east" towards higher columns.
pub trait SquareBoard: Bitboard {
    /// The board's side length N.
    const SIDE: usize;
    /// Every square except those of the first column (c = 0).
    const NOT_FIRST_COL: Self;
    /// Every square except those of the last column (c = N − 1).
    const NOT_LAST_COL: Self;

    /// The squares one step east of the squares of `self` (column + 1).
    #[inline]
    fn east(self) -> Self {
        self.shl(1) & Self::NOT_FIRST_COL
    }
    /// One step west (column − 1).
    #[inline]
    fn west(self) -> Self {
        self.shr(1) & Self::NOT_LAST_COL
    }
    /// One step south (row + 1).
    #[inline]
    fn south(self) -> Self {
        self.shl(Self::SIDE as u32)
    }
    /// One step north (row − 1).
    #[inline]
    fn north(self) -> Self {
        self.shr(Self::SIDE as u32)
    }
    /// One step south-east (row + 1, column + 1).
    #[inline]
    fn south_east(self) -> Self {
        self.shl(Self::SIDE as u32 + 1) & Self::NOT_FIRST_COL
    }
    /// One step south-west (row + 1, column − 1).
    #[inline]
    fn south_west(self) -> Self {
        self.shl(Self::SIDE as u32 - 1) & Self::NOT_LAST_COL
    }
    /// One step north-east (row − 1, column + 1).
    #[inline]
    fn north_east(self) -> Self {
        self.shr(Self::SIDE as u32 - 1) & Self::NOT_FIRST_COL
    }
    /// One step north-west (row − 1, column − 1).
    #[inline]
    fn north_west(self) -> Self {
        self.shr(Self::SIDE as u32 + 1) & Self::NOT_LAST_COL
    }

    /// The 8 neighbours (king moves) of every square of `self`.
    #[inline]
    fn neighbours(self) -> Self {
        self.east()
            | self.west()
            | self.south()
            | self.north()
            | self.south_east()
            | self.south_west()
            | self.north_east()
            | self.north_west()
    }
}

/// The 8×8 board.
impl SquareBoard for u64 {
    const SIDE: usize = 8;
    const NOT_FIRST_COL: Self = !0x0101_0101_0101_0101;
    const NOT_LAST_COL: Self = !0x8080_8080_8080_8080;
}

/// A 256-square board in four `u64` words (word `i` holds squares `64 i .. 64 i + 63`,
/// four rows of the 16×16 board).
///
/// Why not `bitvec`: the `halma_board` criterion benchmark (`benches/benches/halma.rs`)
/// runs 16×16 Halma perft 3 (85,440 leaves) through the same generic move generator
/// over both: this board and a `BitArray<[u64; 4]>` using bitvec's own operators and
/// `shift_start`/`shift_end`. The measurement is in README.md (section Halma): the
/// hand-written board was about 110 times faster (5.4 ms against 596 ms on 2 shared
/// cores), so it is the one kept. `bitvec` does build `no_std` for
/// `thumbv7em-none-eabihf`, but only over `u32` storage: `u64` is not a `BitStore` on
/// 32-bit targets.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Bits256(pub [u64; 4]);

impl fmt::Debug for Bits256 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Bits256({:#018x}, {:#018x}, {:#018x}, {:#018x})",
            self.0[0], self.0[1], self.0[2], self.0[3]
        )
    }
}

impl BitAnd for Bits256 {
    type Output = Self;
    #[inline]
    fn bitand(self, o: Self) -> Self {
        let (a, b) = (self.0, o.0);
        Bits256([a[0] & b[0], a[1] & b[1], a[2] & b[2], a[3] & b[3]])
    }
}

impl BitOr for Bits256 {
    type Output = Self;
    #[inline]
    fn bitor(self, o: Self) -> Self {
        let (a, b) = (self.0, o.0);
        Bits256([a[0] | b[0], a[1] | b[1], a[2] | b[2], a[3] | b[3]])
    }
}

impl BitXor for Bits256 {
    type Output = Self;
    #[inline]
    fn bitxor(self, o: Self) -> Self {
        let (a, b) = (self.0, o.0);
        Bits256([a[0] ^ b[0], a[1] ^ b[1], a[2] ^ b[2], a[3] ^ b[3]])
    }
}

impl Not for Bits256 {
    type Output = Self;
    #[inline]
    fn not(self) -> Self {
        let a = self.0;
        Bits256([!a[0], !a[1], !a[2], !a[3]])
    }
}

impl Bitboard for Bits256 {
    const EMPTY: Self = Bits256([0; 4]);

    #[inline]
    fn square(sq: usize) -> Self {
        let mut w = [0; 4];
        w[sq >> 6] = 1 << (sq & 63);
        Bits256(w)
    }
    #[inline]
    fn is_empty(self) -> bool {
        (self.0[0] | self.0[1] | self.0[2] | self.0[3]) == 0
    }
    #[inline]
    fn count(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    #[inline]
    fn lowest(self) -> Option<usize> {
        for (i, &w) in self.0.iter().enumerate() {
            if w != 0 {
                return Some(i * 64 + w.trailing_zeros() as usize);
            }
        }
        None
    }
    #[inline]
    fn shl(self, k: u32) -> Self {
        let w = self.0;
        let r = 64 - k;
        Bits256([
            w[0] << k,
            (w[1] << k) | (w[0] >> r),
            (w[2] << k) | (w[1] >> r),
            (w[3] << k) | (w[2] >> r),
        ])
    }
    #[inline]
    fn shr(self, k: u32) -> Self {
        let w = self.0;
        let r = 64 - k;
        Bits256([
            (w[0] >> k) | (w[1] << r),
            (w[1] >> k) | (w[2] << r),
            (w[2] >> k) | (w[3] << r),
            w[3] >> k,
        ])
    }
}

/// The 16×16 board.
impl SquareBoard for Bits256 {
    const SIDE: usize = 16;
    const NOT_FIRST_COL: Self = Bits256([!0x0001_0001_0001_0001; 4]);
    const NOT_LAST_COL: Self = Bits256([!0x8000_8000_8000_8000; 4]);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_iterate_lowest_first_on_every_bitboard() {
        let mut it = 0b1010_0001u32.squares();
        assert_eq!(it.next(), Some(0));
        assert_eq!(it.next(), Some(5));
        assert_eq!(it.next(), Some(7));
        assert_eq!(it.next(), None);
        assert!(u64::square(63).squares().eq([63]));
        let b = Bits256::square(3) | Bits256::square(64) | Bits256::square(255);
        assert_eq!(b.count(), 3);
        assert!(b.squares().eq([3, 64, 255]));
        assert!(Bits256::EMPTY.squares().next().is_none());
    }

    /// Each of the 8 shifts of every square of an N×N board: the neighbour in that
    /// direction, or nothing off the board (never a square wrapped to another row).
    fn shifts_never_wrap<B: SquareBoard>() {
        let n = B::SIDE;
        for sq in 0..n * n {
            let b = B::square(sq);
            let (r, c) = (sq / n, sq % n);
            let expect = |dr: i32, dc: i32| {
                let (rr, cc) = (r as i32 + dr, c as i32 + dc);
                if (0..n as i32).contains(&rr) && (0..n as i32).contains(&cc) {
                    B::square(rr as usize * n + cc as usize)
                } else {
                    B::EMPTY
                }
            };
            assert_eq!(b.east(), expect(0, 1));
            assert_eq!(b.west(), expect(0, -1));
            assert_eq!(b.south(), expect(1, 0));
            assert_eq!(b.north(), expect(-1, 0));
            assert_eq!(b.south_east(), expect(1, 1));
            assert_eq!(b.south_west(), expect(1, -1));
            assert_eq!(b.north_east(), expect(-1, 1));
            assert_eq!(b.north_west(), expect(-1, -1));
            let around = (-1..=1)
                .flat_map(|dr| (-1..=1).map(move |dc| (dr, dc)))
                .filter(|&d| d != (0, 0))
                .fold(B::EMPTY, |acc, (dr, dc)| acc | expect(dr, dc));
            assert_eq!(b.neighbours(), around);
        }
    }

    #[test]
    fn shifts_of_the_8x8_board_never_wrap_rows() {
        shifts_never_wrap::<u64>();
    }

    #[test]
    fn shifts_of_the_four_word_board_cross_words_and_never_wrap_rows() {
        shifts_never_wrap::<Bits256>();
    }
}

//! The board: the 32 playable squares and their coordinates, the neighbour tables,
//! the bit masks and shifts that move pieces on a `u32` bitboard (bit `n - 1` is
//! square `n`), and the two colours with the directions their men move in.

/// No square (off the board) in the neighbour tables.
pub(super) const NONE: u8 = 32;

/// The column (0–7, from the left) of square index `i` (0–31, square `i + 1`).
pub const fn square_x(i: u8) -> u8 {
    let y = i / 4;
    2 * (i % 4) + if y.is_multiple_of(2) { 1 } else { 0 }
}

/// The row (0–7, from the top) of square index `i` (0–31).
pub const fn square_y(i: u8) -> u8 {
    i / 4
}

/// The square index (0–31) at column `x` and row `y`, if that is a playable square.
pub const fn square_at(x: i32, y: i32) -> Option<u8> {
    if x < 0 || y < 0 || x > 7 || y > 7 || (x + y) % 2 == 0 {
        None
    } else {
        Some((y * 4 + x / 2) as u8)
    }
}

/// Direction offsets in `(x, y)`: up-left, up-right, down-left, down-right. "Up" is
/// towards row 0 (the direction White moves). The opposite of direction `d` is `d ^ 3`.
const DX: [i32; 4] = [-1, 1, -1, 1];
const DY: [i32; 4] = [-1, -1, 1, 1];

const fn neighbour_table(dist: i32) -> [[u8; 4]; 32] {
    let mut t = [[NONE; 4]; 32];
    let mut i = 0;
    while i < 32 {
        let mut d = 0;
        while d < 4 {
            let x = square_x(i as u8) as i32 + DX[d] * dist;
            let y = square_y(i as u8) as i32 + DY[d] * dist;
            t[i][d] = match square_at(x, y) {
                Some(s) => s,
                None => NONE,
            };
            d += 1;
        }
        i += 1;
    }
    t
}

/// The diagonal neighbour of each square in each direction (`NONE` off the board).
pub(super) const NEIGHBOUR: [[u8; 4]; 32] = neighbour_table(1);

/// The square two steps away in each direction: where a jump lands.
pub(super) const JUMP: [[u8; 4]; 32] = neighbour_table(2);

const EVEN_ROWS: u32 = 0x0F0F_0F0F;
const ODD_ROWS: u32 = 0xF0F0_F0F0;

/// Even-row squares not on the right edge (x = 7).
const EVEN_NOT_RIGHT: u32 = 0x0707_0707;

/// Odd-row squares not on the left edge (x = 0).
const ODD_NOT_LEFT: u32 = 0xE0E0_E0E0;

/// Row 0 (squares 1–4): where White men are crowned.
pub(super) const TOP_ROW: u32 = 0x0000_000F;

/// Row 7 (squares 29–32): where Black men are crowned.
pub(super) const BOTTOM_ROW: u32 = 0xF000_0000;

/// Moves every piece of `b` one step in direction `d`, dropping those that would
/// leave the board.
#[inline(always)]
pub(super) const fn step(b: u32, d: usize) -> u32 {
    match d {
        0 => ((b & ODD_NOT_LEFT) >> 5) | ((b & EVEN_ROWS) >> 4),
        1 => ((b & EVEN_NOT_RIGHT) >> 3) | ((b & ODD_ROWS) >> 4),
        2 => ((b & EVEN_ROWS) << 4) | ((b & ODD_NOT_LEFT) << 3),
        _ => ((b & EVEN_NOT_RIGHT) << 5) | ((b & ODD_ROWS) << 4),
    }
}

#[inline(always)]
pub(super) const fn bit(sq: u8) -> u32 {
    1u32 << sq
}

/// A side of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Colour {
    /// The side on squares 1–12 at the top, moving down.
    Black,
    /// The side on squares 21–32 at the bottom, moving up (Red in the Calgary variant).
    White,
}

impl Colour {
    /// The other colour.
    #[inline]
    pub const fn other(self) -> Colour {
        match self {
            Colour::Black => Colour::White,
            Colour::White => Colour::Black,
        }
    }

    #[inline]
    pub(super) const fn index(self) -> usize {
        match self {
            Colour::Black => 0,
            Colour::White => 1,
        }
    }

    /// The directions its men move in.
    #[inline]
    pub(super) const fn forward(self) -> [usize; 2] {
        match self {
            Colour::Black => [2, 3],
            Colour::White => [0, 1],
        }
    }

    /// True if its men move in direction `d`.
    #[inline(always)]
    pub(super) const fn is_forward(self, d: usize) -> bool {
        let [f0, f1] = self.forward();
        f0 == d || f1 == d
    }

    /// The row where its men are crowned.
    #[inline]
    pub(super) const fn crown_row(self) -> u32 {
        match self {
            Colour::Black => BOTTOM_ROW,
            Colour::White => TOP_ROW,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn geometry_round_trips() {
        for i in 0..32u8 {
            assert_eq!(square_at(square_x(i) as i32, square_y(i) as i32), Some(i));
        }
        assert_eq!((square_x(0), square_y(0)), (1, 0));
        assert_eq!((square_x(4), square_y(4)), (0, 1));
        assert_eq!((square_x(31), square_y(31)), (6, 7));
    }

    #[test]
    fn shifts_agree_with_neighbour_tables() {
        for sq in 0..32u8 {
            for (d, &n) in NEIGHBOUR[sq as usize].iter().enumerate() {
                let expect = if n == NONE { 0 } else { bit(n) };
                assert_eq!(step(bit(sq), d), expect, "square {} dir {}", sq + 1, d);
            }
        }
    }
}

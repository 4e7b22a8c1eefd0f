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
pub(super) static NEIGHBOUR: [[u8; 4]; 32] = neighbour_table(1);

/// The square two steps away in each direction: where a jump lands.
pub(super) static JUMP: [[u8; 4]; 32] = neighbour_table(2);

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

/// Squares at least two columns from the left edge (x ≥ 2): a jump to the left
/// stays on the board.
const LEFT_JUMPS: u32 = 0xEEEE_EEEE;

/// Squares at least two columns from the right edge (x ≤ 5).
const RIGHT_JUMPS: u32 = 0x7777_7777;

/// Moves every piece of `b` two steps in direction `d` (where a jump lands),
/// dropping those that would leave the board. Two steps change the row by two and
/// the column by two, so the index changes by 7 or 9 on every row alike.
#[inline(always)]
pub(super) const fn jump(b: u32, d: usize) -> u32 {
    match d {
        0 => (b & LEFT_JUMPS) >> 9,
        1 => (b & RIGHT_JUMPS) >> 7,
        2 => (b & LEFT_JUMPS) << 7,
        _ => (b & RIGHT_JUMPS) << 9,
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

/// The side to move as a type, so that move generation, counting and playing are
/// compiled once per colour with every direction, shift and table index fixed.
pub(super) trait Side {
    /// The colour.
    const COLOUR: Colour;
    /// `COLOUR.index()`, and the opponent's.
    const ME: usize;
    const OPP: usize;
    /// The directions its men move in, lower first (the order moves are generated
    /// in).
    const F0: usize;
    const F1: usize;
    /// The row where its men are crowned.
    const CROWN: u32;

    /// The squares whose forward neighbour in the *4-family* lies in `b`.
    ///
    /// A forward step changes the square index by 4 on one of the two diagonals
    /// and by 3 or 5 on the other, which diagonal depending on the row's parity
    /// (for Black, +4 is down-left from an even row and down-right from an odd
    /// one). Every forward step of every square is in exactly one of the two
    /// families, the 4-family needs no edge mask, and a jump is one step of each
    /// family, so counting and finding jumps by family takes fewer operations than
    /// by direction.
    fn back4(b: u32) -> u32;
    /// The squares whose forward neighbour in the *3/5-family* lies in `b`.
    fn back35(b: u32) -> u32;
}

/// Black as a [`Side`].
pub(super) struct BlackSide;
/// White as a [`Side`].
pub(super) struct WhiteSide;

impl Side for BlackSide {
    const COLOUR: Colour = Colour::Black;
    const ME: usize = 0;
    const OPP: usize = 1;
    const F0: usize = 2;
    const F1: usize = 3;
    const CROWN: u32 = BOTTOM_ROW;

    #[inline(always)]
    fn back4(b: u32) -> u32 {
        b >> 4
    }
    #[inline(always)]
    fn back35(b: u32) -> u32 {
        ((b >> 5) & EVEN_NOT_RIGHT) | ((b >> 3) & ODD_NOT_LEFT)
    }
}

impl Side for WhiteSide {
    const COLOUR: Colour = Colour::White;
    const ME: usize = 1;
    const OPP: usize = 0;
    const F0: usize = 0;
    const F1: usize = 1;
    const CROWN: u32 = TOP_ROW;

    #[inline(always)]
    fn back4(b: u32) -> u32 {
        b << 4
    }
    #[inline(always)]
    fn back35(b: u32) -> u32 {
        ((b << 5) & ODD_NOT_LEFT) | ((b << 3) & EVEN_NOT_RIGHT)
    }
}

/// The squares from which a man of side `S` can jump, by direction: `(j0, j1)` for
/// its forward directions `S::F0` and `S::F1`, given the opponent's pieces `opp`
/// and the empty squares `empty`. A jump is a step of each family (see
/// [`Side::back4`]), in either order; which order is which direction depends on the
/// row's parity.
#[inline(always)]
pub(super) fn men_jumps<S: Side>(opp: u32, empty: u32) -> (u32, u32) {
    let (a, b) = family_jumps::<S>(opp, empty);
    jumps_by_direction(a, b)
}

/// The jumps of [`family_jumps`] by direction, as [`men_jumps`] gives them.
#[inline(always)]
pub(super) fn jumps_by_direction(a: u32, b: u32) -> (u32, u32) {
    (
        (b & EVEN_ROWS) | (a & ODD_ROWS),
        (a & EVEN_ROWS) | (b & ODD_ROWS),
    )
}

/// The squares from which a man of side `S` can jump with a 3/5-step then a
/// 4-step, and with a 4-step then a 3/5-step (see [`men_jumps`]).
#[inline(always)]
pub(super) fn family_jumps<S: Side>(opp: u32, empty: u32) -> (u32, u32) {
    (
        S::back35(opp & S::back4(empty)),
        S::back4(opp & S::back35(empty)),
    )
}

/// The number of squares in `a` plus the number in `b`: one population count of
/// a 64-bit word where words are that wide, two of 32 bits elsewhere (a 64-bit
/// count is a library call on the Cortex-M4).
#[inline(always)]
pub(super) fn count_pair(a: u32, b: u32) -> u32 {
    if cfg!(target_pointer_width = "64") {
        (u64::from(a) | (u64::from(b) << 32)).count_ones()
    } else {
        a.count_ones() + b.count_ones()
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
    fn sides_agree_with_colours() {
        fn check<S: Side>() {
            assert_eq!(S::ME, S::COLOUR.index());
            assert_eq!(S::OPP, S::COLOUR.other().index());
            assert_eq!([S::F0, S::F1], S::COLOUR.forward());
            assert_eq!(S::CROWN, S::COLOUR.crown_row());
            // The two families hold the two forward steps of every square.
            for sq in 0..32u8 {
                let b = bit(sq);
                let by_family = (S::back4(!0) & b).count_ones() + (S::back35(!0) & b).count_ones();
                let by_direction = (step(b, S::F0) != 0) as u32 + (step(b, S::F1) != 0) as u32;
                assert_eq!(by_family, by_direction, "square {}", sq + 1);
                for t in 0..32u8 {
                    let to = bit(t);
                    let forward = step(b, S::F0) == to || step(b, S::F1) == to;
                    let family = S::back4(to) == b || S::back35(to) == b;
                    assert_eq!(forward, family, "square {} to {}", sq + 1, t + 1);
                }
            }
            // The family jumps are the jumps by direction, whatever stands where.
            let mut x = 0x9E37_79B9u32;
            for _ in 0..2000 {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                let opp = x & 0x5A5A_A5A5;
                let empty = !opp & (x.rotate_left(7) | 0x0F00_00F0);
                let (j0, j1) = men_jumps::<S>(opp, empty);
                for (d, j) in [(S::F0, j0), (S::F1, j1)] {
                    assert_eq!(j, step(opp & step(empty, d ^ 3), d ^ 3));
                }
            }
        }
        check::<BlackSide>();
        check::<WhiteSide>();
    }

    #[test]
    fn shifts_agree_with_neighbour_tables() {
        for sq in 0..32u8 {
            for (d, &n) in NEIGHBOUR[sq as usize].iter().enumerate() {
                let expect = if n == NONE { 0 } else { bit(n) };
                assert_eq!(step(bit(sq), d), expect, "square {} dir {}", sq + 1, d);
            }
            for (d, &n) in JUMP[sq as usize].iter().enumerate() {
                let expect = if n == NONE { 0 } else { bit(n) };
                assert_eq!(jump(bit(sq), d), expect, "square {} dir {}", sq + 1, d);
                assert_eq!(jump(bit(sq), d), step(step(bit(sq), d), d));
            }
        }
    }
}

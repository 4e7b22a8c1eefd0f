//! Halma on 8×8 (10 pieces a side) and 16×16 (19 pieces a side) bitboards.
//!
//! # Boards and camps
//! Squares are numbered row by row from the top left: square `r * N + c` is row `r`,
//! column `c` (both from 0). The first player (`x`, [`Player::First`]) starts in the
//! camp at the (0, 0) corner and moves first; the second player (`o`) starts in the
//! point reflection of that camp. Each player's target camp is the other's home.
//! * 8×8 ([`Halma8`], game spec `halma` or `halma:8`): the triangle `r + c ≤ 3`,
//!   10 squares (seed 000).
//! * 16×16 ([`Halma16`], game spec `halma:16`): rows of 5, 5, 4, 3, 2 from the corner,
//!   `r + c ≤ 5` without (0, 5) and (5, 0), 19 squares (seed 003).
//!
//! The 8×8 board is one `u64`; the 16×16 board is a hand-written four-word board,
//! [`Bits256`] (see its documentation for the benchmark against `bitvec`).
//!
//! # Moves
//! A move takes one piece either one step to any of the 8 neighbouring empty squares
//! or along a chain of one or more jumps, each over an adjacent piece of either
//! colour onto the empty square directly beyond, in any of the 8 directions; the
//! chain may change direction and stop anywhere. Nothing is captured. A move is the
//! distinct pair (from, to): different chains to the same square are one move, and a
//! chain ending where it started is no move. Jump destinations are computed by a
//! bitboard flood fill (shift-and-mask in the 8 directions, with masks that stop the
//! shifts from wrapping across rows) until no new landing square appears;
//! [`Halma::jump_path`] reconstructs one chain for display.
//!
//! A player with no legal move passes (the move [`HalmaMove::PASS`], written `pass`).
//!
//! # Notation
//! A square is a column letter and a row number: columns `a`… from the left
//! (`a`–`h` on 8×8, `a`–`p` on 16×16), rows `1`… from the top row of the position
//! text (`1`–`8`, `1`–`16`). Square (r, c) is therefore `(b'a' + c)` followed by
//! `r + 1`: the first player's corner is `a1`, the second player's `h8` / `p16`. A
//! move is `from-to`, e.g. `c1-c3`; the pass is `pass`.
//!
//! # Position text
//! The rows from the top, each `N` characters `.` (empty), `x` (first player) or `o`
//! (second player), separated by `/` or line breaks; then whitespace and the side to
//! move, `x` or `o`; then, optionally, the number of plies played so far (it counts
//! towards the draw limit; `0` when absent). The 8×8 start position is
//! `xxxx..../xxx...../xx....../x......./.......o/......oo/.....ooo/....oooo x`.
//!
//! # Rules and their options
//! Rule parameters follow the size in the game spec, separated by `:`
//! (`halma:16:parlett:plies=600`). The defaults are the seeds' rules plus what is
//! needed for every game to end:
//! * win: a player wins when all its pieces stand in its target camp (seeds 000 and
//!   003). Option `parlett`: Parlett's anti-spoiling rule instead — a player wins
//!   when every square of its target camp is occupied and at least one of them by its
//!   own piece.
//! * option `no-leave`: a piece standing in its target camp may not move out of it
//!   (a jump chain may pass outside, but must end inside).
//! * draw: the game is drawn once [`DEFAULT_MAX_PLIES`] = 1000 plies (500 moves a
//!   side) have been played without a winner — generous: games between sane players
//!   end long before (the 16×16 games of seed 003's tournament that end with a
//!   winner take 170–300 plies; the rest are blocked and drawn by the limit).
//!   Option `plies=N` sets the limit (1 ≤ N ≤ 65535).
//! * a player with no legal move passes. Both players can never be stuck at once:
//!   a set of pieces none of which can step must hold every neighbour of each of its
//!   squares, so it fills the whole board, and 20 (38) pieces do not fill 64 (256)
//!   squares. With the draw limit, no game is endless.
//!
//! When both players meet their win condition (only possible in a set-up position),
//! the player who moved last wins.

pub mod eval;

use core::fmt;

use core::ops::{BitAnd, BitOr, BitXor, Not};

use crate::error::ParseError;
use crate::game::{Game, Outcome, Player};
use crate::move_list::MoveList;
use crate::zobrist;

/// The default draw limit, in plies, for both board sizes.
pub const DEFAULT_MAX_PLIES: u16 = 1000;

/// A board-sized set of squares: the operations the move generator needs.
///
/// Bit `r * N + c` is square (r, c); both boards fill their integers exactly, so a
/// shift off either end of the board simply drops the bits, and only the column
/// masks are needed to stop east-west wrapping.
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
    /// The board's side length N.
    const SIDE: usize;
    /// No square.
    const EMPTY: Self;
    /// Every square except those of the first column (c = 0).
    const NOT_FIRST_COL: Self;
    /// Every square except those of the last column (c = N − 1).
    const NOT_LAST_COL: Self;

    /// The set holding only square `sq`.
    fn square(sq: usize) -> Self;
    /// True if no square is set.
    fn is_empty(self) -> bool;
    /// The number of squares set.
    fn count(self) -> u32;
    /// The lowest square set, if any.
    fn lowest(self) -> Option<usize>;
    /// Moves every square `k` places up (towards higher indices), 0 < k < 64.
    fn shl(self, k: u32) -> Self;
    /// Moves every square `k` places down (towards lower indices), 0 < k < 64.
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

impl Bitboard for u64 {
    const SIDE: usize = 8;
    const EMPTY: Self = 0;
    const NOT_FIRST_COL: Self = !0x0101_0101_0101_0101;
    const NOT_LAST_COL: Self = !0x8080_8080_8080_8080;

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

/// A 256-square board in four `u64` words (word `i` holds squares `64 i .. 64 i + 63`,
/// four rows of the 16×16 board).
///
/// Why not `bitvec`: the issue asked for `bitvec::BitArray` unless a hand-written
/// board is clearly faster. The `halma_board` criterion benchmark
/// (`benches/benches/halma.rs`) runs 16×16 perft 3 (85,440 leaves) through the same
/// generic move generator over both: this board and a `BitArray<[u64; 4]>` using
/// bitvec's own operators and `shift_start`/`shift_end`. The measurement is in
/// README.md (section Halma): the hand-written board was about 110 times faster
/// (5.4 ms against 596 ms on 2 shared cores), so it is the one kept. `bitvec` does build `no_std` for `thumbv7em-none-eabihf`, but only
/// over `u32` storage: `u64` is not a `BitStore` on 32-bit targets.
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
    const SIDE: usize = 16;
    const EMPTY: Self = Bits256([0; 4]);
    const NOT_FIRST_COL: Self = Bits256([!0x0001_0001_0001_0001; 4]);
    const NOT_LAST_COL: Self = Bits256([!0x8000_8000_8000_8000; 4]);

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

/// A board size: its bitboard, piece count, camp and move-list capacity.
pub trait HalmaBoard: Bitboard {
    /// Pieces per side.
    const PIECES: usize;
    /// The game spec parameter naming the size (`"8"`, `"16"`).
    const SIZE_NAME: &'static str;
    /// The fixed-capacity list for this size's legal moves.
    type Moves: Default + core::ops::DerefMut<Target = [HalmaMove]> + fmt::Debug;
    /// Appends a move to a list of this size.
    fn push(list: &mut Self::Moves, mv: HalmaMove);
    /// Empties a list of this size.
    fn clear(list: &mut Self::Moves);
    /// True if (r, c), counted from the first player's corner, is in that player's
    /// home camp.
    fn in_first_camp(r: usize, c: usize) -> bool;
}

/// Legal moves on 8×8: at most 230.
///
/// Proof: a piece has at most 8 step targets (its neighbours). A jump changes each
/// coordinate by an even amount, so every jump target shares both coordinate
/// parities with the origin: it lies in the origin's parity class of (8 / 2)² = 16
/// squares, and is not the origin, so at most 15 jump targets; step targets change a
/// coordinate by one, so the two sets are disjoint. 10 pieces × (8 + 15) = 230. One
/// extra entry is never needed: the pass is generated only into an empty list.
pub type Halma8Moves = MoveList<HalmaMove, 230>;

/// Legal moves on 16×16: at most 19 × (8 + 63) = 1349 (the argument of
/// [`Halma8Moves`] with parity classes of (16 / 2)² = 64 squares).
pub type Halma16Moves = MoveList<HalmaMove, 1349>;

impl HalmaBoard for u64 {
    const PIECES: usize = 10;
    const SIZE_NAME: &'static str = "8";
    type Moves = Halma8Moves;
    #[inline]
    fn push(list: &mut Halma8Moves, mv: HalmaMove) {
        list.push(mv)
    }
    #[inline]
    fn clear(list: &mut Halma8Moves) {
        list.clear()
    }
    fn in_first_camp(r: usize, c: usize) -> bool {
        r + c <= 3
    }
}

impl HalmaBoard for Bits256 {
    const PIECES: usize = 19;
    const SIZE_NAME: &'static str = "16";
    type Moves = Halma16Moves;
    #[inline]
    fn push(list: &mut Halma16Moves, mv: HalmaMove) {
        list.push(mv)
    }
    #[inline]
    fn clear(list: &mut Halma16Moves) {
        list.clear()
    }
    fn in_first_camp(r: usize, c: usize) -> bool {
        r + c <= 5 && (r, c) != (0, 5) && (r, c) != (5, 0)
    }
}

/// A Halma move: a piece goes from one square to another. `from == to` is the pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct HalmaMove {
    /// The square the piece leaves.
    pub from: u8,
    /// The square it ends on.
    pub to: u8,
}

impl HalmaMove {
    /// The pass, played only by a player with no other legal move.
    pub const PASS: HalmaMove = HalmaMove { from: 0, to: 0 };

    /// A move of the piece on `from` to `to`.
    pub const fn new(from: u8, to: u8) -> Self {
        HalmaMove { from, to }
    }

    /// True for the pass.
    #[inline]
    pub const fn is_pass(self) -> bool {
        self.from == self.to
    }
}

/// How a player wins.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum WinRule {
    /// All own pieces stand in the target camp (the seeds' rule).
    #[default]
    AllInCamp,
    /// Parlett's anti-spoiling rule: the target camp is full and at least one of its
    /// squares holds an own piece.
    Parlett,
}

/// The rule options (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct HalmaRules {
    /// How a player wins.
    pub win: WinRule,
    /// A piece in its target camp may not leave it.
    pub no_leave: bool,
    /// The game is drawn after this many plies.
    pub max_plies: u16,
}

impl Default for HalmaRules {
    fn default() -> Self {
        HalmaRules {
            win: WinRule::AllInCamp,
            no_leave: false,
            max_plies: DEFAULT_MAX_PLIES,
        }
    }
}

/// The board side (8 or 16) a Halma game spec's parameters ask for: 16 if the first
/// `:`-separated parameter is `16`, 8 otherwise (the host picks [`Halma8`] or
/// [`Halma16`] with it; the chosen type's `parse_rules` checks the rest).
pub fn board_side(params: &str) -> usize {
    if params.split(':').next() == Some("16") {
        16
    } else {
        8
    }
}

const KEYS: [u64; 513] = zobrist::keys(0x4a1a_0000_0000_0005);
const SIDE_KEY: u64 = KEYS[512];

/// A Halma position on board `B`: both players' pieces, the side to move, the plies
/// played (for the draw limit), the rules and the incremental hash (which does not
/// include the ply count).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Halma<B> {
    pieces: [B; 2],
    stm: Player,
    plies: u16,
    rules: HalmaRules,
    hash: u64,
}

/// 8×8 Halma, 10 pieces a side, on a `u64`.
pub type Halma8 = Halma<u64>;
/// 16×16 Halma, 19 pieces a side, on a [`Bits256`].
pub type Halma16 = Halma<Bits256>;

/// The squares one step east of the squares of `b` (and so on for each direction).
#[inline]
fn east<B: Bitboard>(b: B) -> B {
    b.shl(1) & B::NOT_FIRST_COL
}
#[inline]
fn west<B: Bitboard>(b: B) -> B {
    b.shr(1) & B::NOT_LAST_COL
}
#[inline]
fn south<B: Bitboard>(b: B) -> B {
    b.shl(B::SIDE as u32)
}
#[inline]
fn north<B: Bitboard>(b: B) -> B {
    b.shr(B::SIDE as u32)
}
#[inline]
fn south_east<B: Bitboard>(b: B) -> B {
    b.shl(B::SIDE as u32 + 1) & B::NOT_FIRST_COL
}
#[inline]
fn south_west<B: Bitboard>(b: B) -> B {
    b.shl(B::SIDE as u32 - 1) & B::NOT_LAST_COL
}
#[inline]
fn north_east<B: Bitboard>(b: B) -> B {
    b.shr(B::SIDE as u32 - 1) & B::NOT_FIRST_COL
}
#[inline]
fn north_west<B: Bitboard>(b: B) -> B {
    b.shr(B::SIDE as u32 + 1) & B::NOT_LAST_COL
}

/// The 8 neighbours of every square of `b`.
#[inline]
pub fn neighbours<B: Bitboard>(b: B) -> B {
    east(b)
        | west(b)
        | south(b)
        | north(b)
        | south_east(b)
        | south_west(b)
        | north_east(b)
        | north_west(b)
}

/// The squares reached by one jump from any square of `from`: over an occupied
/// neighbour (`occupied`) onto an empty square beyond (`empty`), in each of the 8
/// directions.
#[inline]
pub fn single_jumps<B: Bitboard>(from: B, occupied: B, empty: B) -> B {
    let j = |dir: fn(B) -> B| dir(dir(from) & occupied) & empty;
    j(east)
        | j(west)
        | j(south)
        | j(north)
        | j(south_east)
        | j(south_west)
        | j(north_east)
        | j(north_west)
}

/// Every square a piece on `from` can end a chain of jumps on, by flood fill:
/// `occupied` holds the other pieces (the piece itself must not be in it). Repeats
/// [`single_jumps`] from the newly reached squares until nothing new is reached.
/// The origin is not included.
#[inline]
pub fn jump_targets<B: Bitboard>(from: usize, occupied: B) -> B {
    let origin = B::square(from);
    let empty = !occupied;
    let mut reached = origin;
    let mut frontier = origin;
    loop {
        let new = single_jumps(frontier, occupied, empty) & !reached;
        if new.is_empty() {
            return reached ^ origin;
        }
        reached = reached | new;
        frontier = new;
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

/// Writes square `sq` of an `n`×`n` board in the notation of the module docs.
pub fn write_square(n: usize, sq: usize, out: &mut dyn fmt::Write) -> fmt::Result {
    write!(out, "{}{}", (b'a' + (sq % n) as u8) as char, sq / n + 1)
}

/// Parses a square name (`c3`, `p16`) of an `n`×`n` board; `base` is the offset of
/// `text` in the whole input, for error offsets.
pub fn parse_square(n: usize, text: &str, base: usize) -> Result<usize, ParseError> {
    let mut chars = text.char_indices();
    let col = match chars.next() {
        None => return Err(ParseError::new("missing square: expected e.g. c3", base)),
        Some((i, c)) => {
            let lc = c.to_ascii_lowercase();
            if !lc.is_ascii_lowercase() || (lc as usize - 'a' as usize) >= n {
                return Err(ParseError::at_char(
                    if n == 8 {
                        "a column is a letter a to h"
                    } else {
                        "a column is a letter a to p"
                    },
                    base + i,
                    c,
                ));
            }
            lc as usize - 'a' as usize
        }
    };
    let digits = &text[1..];
    if digits.is_empty() {
        return Err(ParseError::new(
            "missing row number after the column letter",
            base + 1,
        ));
    }
    let mut row = 0usize;
    for (i, c) in digits.char_indices() {
        match c.to_digit(10) {
            Some(d) if row < 100 => row = row * 10 + d as usize,
            _ => return Err(ParseError::at_char("a row is a number", base + 1 + i, c)),
        }
    }
    if row == 0 || row > n {
        return Err(ParseError::new(
            if n == 8 {
                "a row number is 1 to 8"
            } else {
                "a row number is 1 to 16"
            },
            base + 1,
        ));
    }
    Ok((row - 1) * n + col)
}

impl<B: HalmaBoard> Halma<B> {
    /// The start position under `rules`.
    pub fn new(rules: HalmaRules) -> Self {
        Self::from_parts(
            camp(Player::First),
            camp(Player::Second),
            Player::First,
            0,
            rules,
        )
    }

    fn from_parts(first: B, second: B, stm: Player, plies: u16, rules: HalmaRules) -> Self {
        let mut hash = 0;
        for sq in first.squares() {
            hash ^= KEYS[sq];
        }
        for sq in second.squares() {
            hash ^= KEYS[256 + sq];
        }
        if stm == Player::Second {
            hash ^= SIDE_KEY;
        }
        Halma {
            pieces: [first, second],
            stm,
            plies,
            rules,
            hash,
        }
    }

    /// The board side N.
    pub const fn side() -> usize {
        B::SIDE
    }

    /// The pieces of `player`.
    #[inline]
    pub fn pieces(&self, player: Player) -> B {
        self.pieces[player.index()]
    }

    /// Every occupied square.
    #[inline]
    pub fn occupied(&self) -> B {
        self.pieces[0] | self.pieces[1]
    }

    /// Who stands on square `sq`, if anyone.
    pub fn piece_at(&self, sq: usize) -> Option<Player> {
        if self.pieces[0].has(sq) {
            Some(Player::First)
        } else if self.pieces[1].has(sq) {
            Some(Player::Second)
        } else {
            None
        }
    }

    /// Plies played so far (they count towards the draw limit).
    pub fn plies(&self) -> u16 {
        self.plies
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

    /// Every square the piece on `from` can move to (steps and jumps), with the
    /// rules' restrictions; empty if `from` holds no piece of the side to move.
    pub fn destinations(&self, from: usize) -> B {
        let me = self.pieces[self.stm.index()];
        if from >= B::SIDE * B::SIDE || !me.has(from) {
            return B::EMPTY;
        }
        self.raw_destinations(from, self.stm)
    }

    /// The step targets of the piece on `from` (no rule restrictions).
    pub fn step_targets(&self, from: usize) -> B {
        neighbours(B::square(from)) & !self.occupied()
    }

    /// The jump-chain targets of the piece on `from` (no rule restrictions).
    pub fn jump_targets(&self, from: usize) -> B {
        jump_targets(from, self.occupied() ^ B::square(from))
    }

    #[inline]
    fn raw_destinations(&self, from: usize, side: Player) -> B {
        let origin = B::square(from);
        let occ = self.occupied();
        let mut dest = (neighbours(origin) & !occ) | jump_targets(from, occ ^ origin);
        if self.rules.no_leave {
            let target = Self::target(side);
            if target.has(from) {
                dest = dest & target;
            }
        }
        dest
    }

    /// True if `player` meets its win condition on this board.
    pub fn has_won(&self, player: Player) -> bool {
        let mine = self.pieces[player.index()];
        let target = Self::target(player);
        match self.rules.win {
            WinRule::AllInCamp => !mine.is_empty() && (mine & !target).is_empty(),
            WinRule::Parlett => {
                (target & !self.occupied()).is_empty() && !(mine & target).is_empty()
            }
        }
    }

    /// True if `player` would have a legal move (other than the pass) if it were its
    /// turn.
    pub fn has_move(&self, player: Player) -> bool {
        let mine = self.pieces[player.index()];
        let occ = self.occupied();
        let empty = !occ;
        let target = Self::target(player);
        let free = if self.rules.no_leave {
            mine & !target
        } else {
            mine
        };
        if !(neighbours(free) & empty).is_empty() || !single_jumps(free, occ, empty).is_empty() {
            return true;
        }
        if self.rules.no_leave {
            for sq in (mine & target).squares() {
                if !self.raw_destinations(sq, player).is_empty() {
                    return true;
                }
            }
        }
        false
    }

    /// One chain of jumps (the shortest) that carries the piece of `mv` from its
    /// square to its destination, both included; `None` if `mv` is not a jump move
    /// of the piece (a step, a pass, or not reachable by jumps).
    pub fn jump_path(&self, mv: HalmaMove) -> Option<heapless::Vec<u8, 64>> {
        let (from, to) = (mv.from as usize, mv.to as usize);
        let n2 = B::SIDE * B::SIDE;
        if mv.is_pass() || from >= n2 || to >= n2 || !self.occupied().has(from) {
            return None;
        }
        let occ = self.occupied() ^ B::square(from);
        if !jump_targets(from, occ).has(to) {
            return None;
        }
        // Breadth-first search over single jumps, remembering each square's parent.
        let mut parent = [u8::MAX; 256];
        let mut queue = [0u8; 256];
        let (mut head, mut tail) = (0, 1);
        queue[0] = from as u8;
        let mut seen = B::square(from);
        let empty = !occ;
        while head < tail {
            let sq = queue[head] as usize;
            head += 1;
            if sq == to {
                break;
            }
            let next = single_jumps(B::square(sq), occ, empty) & !seen;
            for t in next.squares() {
                parent[t] = sq as u8;
                seen = seen | B::square(t);
                queue[tail] = t as u8;
                tail += 1;
            }
        }
        let mut rev: heapless::Vec<u8, 64> = heapless::Vec::new();
        let mut sq = to;
        loop {
            // A chain stays in the origin's parity class: at most 64 squares.
            rev.push(sq as u8).ok()?;
            if sq == from {
                break;
            }
            sq = parent[sq] as usize;
        }
        rev.reverse();
        Some(rev)
    }

    fn toggle(&mut self, side: Player, sq: usize) {
        self.pieces[side.index()] = self.pieces[side.index()] ^ B::square(sq);
        self.hash ^= KEYS[side.index() * 256 + sq];
    }
}

impl<B: HalmaBoard> Game for Halma<B> {
    type Move = HalmaMove;
    type MoveList = B::Moves;
    type Rules = HalmaRules;

    fn start(rules: HalmaRules) -> Self {
        Self::new(rules)
    }

    fn parse_rules(params: &str) -> Result<HalmaRules, ParseError> {
        let mut rules = HalmaRules::default();
        if params.is_empty() {
            return Ok(rules);
        }
        let mut offset = 0;
        for (i, tok) in params.split(':').enumerate() {
            match tok {
                "8" | "16" if i == 0 => {
                    if tok != B::SIZE_NAME {
                        return Err(ParseError::new(
                            "wrong board size for this Halma type (8 or 16)",
                            offset,
                        ));
                    }
                }
                "parlett" => rules.win = WinRule::Parlett,
                "all-in-camp" => rules.win = WinRule::AllInCamp,
                "no-leave" => rules.no_leave = true,
                _ if tok.starts_with("plies=") => {
                    let num = &tok[6..];
                    match num.parse::<u16>() {
                        Ok(n) if n >= 1 => rules.max_plies = n,
                        _ => {
                            return Err(ParseError::new(
                                "plies=N needs a whole number from 1 to 65535",
                                offset + 6,
                            ))
                        }
                    }
                }
                _ => {
                    return Err(ParseError::new(
                        "unknown Halma option: expected 8 or 16 first, then parlett, \
                         all-in-camp, no-leave or plies=N",
                        offset,
                    ))
                }
            }
            offset += tok.len() + 1;
        }
        Ok(rules)
    }

    fn rules(&self) -> HalmaRules {
        self.rules
    }

    fn parse_position(rules: HalmaRules, text: &str) -> Result<Self, ParseError> {
        let n = B::SIDE;
        let (mut first, mut second) = (B::EMPTY, B::EMPTY);
        let mut chars = text.char_indices().peekable();
        // Leading whitespace.
        while let Some(&(_, c)) = chars.peek() {
            if c.is_whitespace() {
                chars.next();
            } else {
                break;
            }
        }
        for r in 0..n {
            if r > 0 {
                // A row separator: '/' or a line break (with surrounding blanks).
                let mut seen = false;
                while let Some(&(i, c)) = chars.peek() {
                    match c {
                        '/' | '\n' | '\r' | ' ' | '\t' => {
                            seen = true;
                            chars.next();
                        }
                        '.' | 'x' | 'X' | 'o' | 'O' if seen => break,
                        _ if !seen => {
                            return Err(ParseError::at_char(
                                if n == 8 {
                                    "a row has exactly 8 squares; expected '/' or a line break"
                                } else {
                                    "a row has exactly 16 squares; expected '/' or a line break"
                                },
                                i,
                                c,
                            ))
                        }
                        _ => {
                            return Err(ParseError::at_char(
                                "unknown square: expected '.', 'x' or 'o'",
                                i,
                                c,
                            ))
                        }
                    }
                }
            }
            for c in 0..n {
                match chars.next() {
                    None => {
                        return Err(ParseError::new(
                            if n == 8 {
                                "the board ends early: expected 8 rows of 8 squares"
                            } else {
                                "the board ends early: expected 16 rows of 16 squares"
                            },
                            text.len(),
                        ))
                    }
                    Some((i, ch)) => match ch {
                        'x' | 'X' => first = first | B::square(r * n + c),
                        'o' | 'O' => second = second | B::square(r * n + c),
                        '.' => {}
                        '/' | '\n' | '\r' => {
                            return Err(ParseError::at_char(
                                if n == 8 {
                                    "a row is too short: it has exactly 8 squares"
                                } else {
                                    "a row is too short: it has exactly 16 squares"
                                },
                                i,
                                ch,
                            ))
                        }
                        _ => {
                            return Err(ParseError::at_char(
                                "unknown square: expected '.', 'x' or 'o'",
                                i,
                                ch,
                            ))
                        }
                    },
                }
            }
        }
        // The side to move.
        let mut blank = false;
        while let Some(&(_, c)) = chars.peek() {
            if c.is_whitespace() {
                blank = true;
                chars.next();
            } else {
                break;
            }
        }
        let stm = match chars.next() {
            None => {
                return Err(ParseError::new(
                    "missing side to move after the board: 'x' or 'o'",
                    text.len(),
                ))
            }
            Some((i, c)) if !blank => {
                return Err(ParseError::at_char(
                    "the board has too many squares in its last row, or no blank before the side to move",
                    i,
                    c,
                ))
            }
            Some((_, 'x' | 'X')) => Player::First,
            Some((_, 'o' | 'O')) => Player::Second,
            Some((i, c)) => {
                return Err(ParseError::at_char(
                    "the side to move is 'x' or 'o'",
                    i,
                    c,
                ))
            }
        };
        // Optional ply count.
        let rest_start = chars.peek().map_or(text.len(), |&(i, _)| i);
        let rest = &text[rest_start..];
        let trimmed = rest.trim();
        let mut plies = 0u16;
        if !trimmed.is_empty() {
            if !rest.starts_with(char::is_whitespace) {
                return Err(ParseError::new(
                    "expected a blank after the side to move",
                    rest_start,
                ));
            }
            let at = rest_start + (rest.len() - rest.trim_start().len());
            plies = trimmed.parse::<u16>().map_err(|_| {
                ParseError::new("the ply count is a whole number from 0 to 65535", at)
            })?;
        }
        for (p, name) in [(first, "x"), (second, "o")] {
            let k = p.count() as usize;
            if k == 0 || k > B::PIECES {
                let _ = name;
                return Err(ParseError::new(
                    if B::PIECES == 10 {
                        "each side has 1 to 10 pieces on 8x8"
                    } else {
                        "each side has 1 to 19 pieces on 16x16"
                    },
                    0,
                ));
            }
        }
        Ok(Self::from_parts(first, second, stm, plies, rules))
    }

    #[inline]
    fn side_to_move(&self) -> Player {
        self.stm
    }

    fn outcome(&self) -> Outcome {
        let mover = self.stm.opponent();
        if self.has_won(mover) {
            Outcome::Win(mover)
        } else if self.has_won(self.stm) {
            Outcome::Win(self.stm)
        } else if self.plies >= self.rules.max_plies {
            Outcome::Draw
        } else {
            Outcome::Ongoing
        }
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.hash
    }

    fn generate_moves(&self, moves: &mut B::Moves) {
        B::clear(moves);
        if self.outcome().is_over() {
            return;
        }
        for from in self.pieces[self.stm.index()].squares() {
            for to in self.raw_destinations(from, self.stm).squares() {
                B::push(moves, HalmaMove::new(from as u8, to as u8));
            }
        }
        if moves.is_empty() {
            B::push(moves, HalmaMove::PASS);
        }
    }

    fn count_moves(&self) -> u64 {
        if self.outcome().is_over() {
            return 0;
        }
        let n: u64 = self.pieces[self.stm.index()]
            .squares()
            .map(|from| u64::from(self.raw_destinations(from, self.stm).count()))
            .sum();
        n.max(1)
    }

    #[inline]
    fn play_unchecked(&self, mv: HalmaMove) -> Self {
        let mut next = *self;
        if !mv.is_pass() {
            next.toggle(self.stm, mv.from as usize);
            next.toggle(self.stm, mv.to as usize);
        }
        next.stm = self.stm.opponent();
        next.hash ^= SIDE_KEY;
        next.plies = self.plies.saturating_add(1);
        next
    }

    fn check_move(&self, mv: HalmaMove) -> Result<(), &'static str> {
        if self.outcome().is_over() {
            return Err("the game is over");
        }
        let n2 = B::SIDE * B::SIDE;
        if mv.is_pass() {
            return if self.has_move(self.stm) {
                Err("a pass is legal only when no other move is")
            } else {
                Ok(())
            };
        }
        let (from, to) = (mv.from as usize, mv.to as usize);
        if from >= n2 || to >= n2 {
            return Err("no such square on this board");
        }
        match self.piece_at(from) {
            None => return Err("there is no piece on the from square"),
            Some(p) if p != self.stm => return Err("the piece on the from square is not yours"),
            _ => {}
        }
        if self.occupied().has(to) {
            return Err("the destination square is occupied");
        }
        let origin = B::square(from);
        let occ = self.occupied();
        let reachable = (neighbours(origin) & !occ) | jump_targets(from, occ ^ origin);
        if !reachable.has(to) {
            return Err("the destination is neither a neighbouring square nor reachable by a chain of jumps");
        }
        if self.rules.no_leave {
            let target = Self::target(self.stm);
            if target.has(from) && !target.has(to) {
                return Err("a piece in its target camp may not leave it (rule no-leave)");
            }
        }
        Ok(())
    }

    fn parse_move(&self, text: &str) -> Result<HalmaMove, ParseError> {
        let t = text.trim();
        let base = text.len() - text.trim_start().len();
        if t.is_empty() {
            return Err(ParseError::new(
                "empty move: expected from-to, e.g. c1-c3, or pass",
                0,
            ));
        }
        if t.eq_ignore_ascii_case("pass") {
            return Ok(HalmaMove::PASS);
        }
        let Some(dash) = t.find('-') else {
            return Err(ParseError::new(
                "a move is from-to, e.g. c1-c3 (or pass)",
                base,
            ));
        };
        let n = B::SIDE;
        let from = parse_square(n, &t[..dash], base)?;
        let to = parse_square(n, &t[dash + 1..], base + dash + 1)?;
        if from == to {
            return Err(ParseError::new(
                "a move must end on a different square than it starts",
                base,
            ));
        }
        Ok(HalmaMove::new(from as u8, to as u8))
    }

    fn write_move(&self, mv: HalmaMove, out: &mut dyn fmt::Write) -> fmt::Result {
        if mv.is_pass() {
            return out.write_str("pass");
        }
        write_square(B::SIDE, mv.from as usize, out)?;
        out.write_char('-')?;
        write_square(B::SIDE, mv.to as usize, out)
    }

    fn move_order_hint(&self, mv: HalmaMove) -> i32 {
        if mv.is_pass() {
            return 0;
        }
        let goal = Self::goal_corner(self.stm);
        manhattan(B::SIDE, mv.from as usize, goal) as i32
            - manhattan(B::SIDE, mv.to as usize, goal) as i32
    }
}

impl<B: HalmaBoard> fmt::Display for Halma<B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = B::SIDE;
        for r in 0..n {
            if r > 0 {
                f.write_str("/")?;
            }
            for c in 0..n {
                let sq = r * n + c;
                f.write_str(match self.piece_at(sq) {
                    Some(Player::First) => "x",
                    Some(Player::Second) => "o",
                    None => ".",
                })?;
            }
        }
        f.write_str(match self.stm {
            Player::First => " x",
            Player::Second => " o",
        })?;
        if self.plies > 0 {
            write!(f, " {}", self.plies)?;
        }
        Ok(())
    }
}

impl<B: HalmaBoard> fmt::Debug for Halma<B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Halma{}({})", B::SIDE, self)
    }
}

impl<B: HalmaBoard> Default for Halma<B> {
    fn default() -> Self {
        Self::new(HalmaRules::default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::perft::perft;

    #[test]
    fn move_is_two_bytes() {
        assert_eq!(core::mem::size_of::<HalmaMove>(), 2);
    }

    #[test]
    fn camps_have_the_seed_sizes() {
        assert_eq!(camp::<u64>(Player::First).count(), 10);
        assert_eq!(camp::<u64>(Player::Second).count(), 10);
        assert_eq!(camp::<Bits256>(Player::First).count(), 19);
        assert_eq!(camp::<Bits256>(Player::Second).count(), 19);
        assert!((camp::<Bits256>(Player::First) & camp::<Bits256>(Player::Second)).is_empty());
        // Seed 000's white camp: (4,7) (5,6) (5,7) (6,5..7) (7,4..7).
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
    fn shifts_of_the_four_word_board_cross_words_and_never_wrap_rows() {
        for sq in 0..256 {
            let b = Bits256::square(sq);
            let (r, c) = (sq / 16, sq % 16);
            let expect = |dr: i32, dc: i32| {
                let (rr, cc) = (r as i32 + dr, c as i32 + dc);
                if (0..16).contains(&rr) && (0..16).contains(&cc) {
                    Bits256::square(rr as usize * 16 + cc as usize)
                } else {
                    Bits256::EMPTY
                }
            };
            assert_eq!(east(b), expect(0, 1));
            assert_eq!(west(b), expect(0, -1));
            assert_eq!(south(b), expect(1, 0));
            assert_eq!(north(b), expect(-1, 0));
            assert_eq!(south_east(b), expect(1, 1));
            assert_eq!(south_west(b), expect(1, -1));
            assert_eq!(north_east(b), expect(-1, 1));
            assert_eq!(north_west(b), expect(-1, -1));
        }
    }

    #[test]
    fn perft_8x8_start() {
        let g = Halma8::default();
        assert_eq!(perft(&g, 1), 24);
        assert_eq!(perft(&g, 2), 576);
        assert_eq!(perft(&g, 3), 20_050);
    }

    #[test]
    fn perft_16x16_start() {
        let g = Halma16::default();
        assert_eq!(perft(&g, 1), 40);
        assert_eq!(perft(&g, 2), 1600);
    }

    #[test]
    fn start_text_round_trips() {
        let g = Halma8::default();
        let text = alloc_free_text(&g);
        assert_eq!(
            text.as_str(),
            "xxxx..../xxx...../xx....../x......./.......o/......oo/.....ooo/....oooo x"
        );
        let p = Halma8::parse_position(HalmaRules::default(), &text).unwrap();
        assert_eq!(p, g);
        assert_eq!(p.hash(), g.hash());
    }

    fn alloc_free_text<G: fmt::Display>(g: &G) -> heapless::String<400> {
        let mut s = heapless::String::new();
        fmt::write(&mut s, format_args!("{}", g)).unwrap();
        s
    }

    #[test]
    fn incremental_hash_matches_parsed() {
        let g = Halma16::default();
        let mv = g.legal_moves()[7];
        let h = g.play_unchecked(mv);
        let text = alloc_free_text(&h);
        let p = Halma16::parse_position(HalmaRules::default(), &text).unwrap();
        assert_eq!(p.hash(), h.hash());
        assert_ne!(h.hash(), g.hash());
    }
}

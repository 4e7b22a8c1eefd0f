//! English draughts (checkers) on 32-square bitboards: the standard English rules and
//! the Calgary variant of the CPSC 449 assignment.
//!
//! # Board
//! The 32 playable squares are numbered 1–32 as in PDN, row by row from the top, left
//! to right; bit `n - 1` of a `u32` is square `n`. The Calgary assignment's
//! coordinates `(x, y)` (x = column from the left, y = row from the top, 0-based,
//! playable where `x + y` is odd) map to the same squares: square 1 is `(1,0)`,
//! square 5 is `(0,1)`, square 32 is `(6,7)`.
//!
//! Black holds squares 1–12 at the top and moves down the board; White holds 21–32 at
//! the bottom and moves up. In the Calgary variant White is called Red and moves
//! first; in standard English Black moves first. [`Player::First`] is the side that
//! moves first under the position's rules.
//!
//! # Rules (both variants)
//! Men step one square diagonally forward, kings one square diagonally either way.
//! Capturing is compulsory, but any capture may be chosen; a capture goes on while the
//! capturing piece can jump again, men capture forward only, a piece is never jumped
//! twice, and the moving piece's origin counts as empty during its own capture (a king
//! may pass through it or end on it). A player with no legal move loses.
//!
//! * [`Variant::English`]: a man that reaches the far row is crowned and its move ends.
//!   Draws by the usual engine convention, both configurable in [`Rules`]: the third
//!   occurrence of a position, or 40 moves by each side without a man move or a
//!   capture.
//! * [`Variant::Calgary`]: a man crowned during a capture continues jumping as a king.
//!   A king's simple move that would recreate any earlier position of the game is
//!   illegal (kings of one colour on the same squares in another order are the same
//!   position). Only positions since the last man move or capture can recur, since
//!   those moves are irreversible.
//!
//! # History and its capacity
//! Both the repetition draw (English) and the no-repetition rule (Calgary) depend on
//! the positions since the last irreversible move (a man move or a capture). Every
//! move in that stretch is a king's simple move, so the stretch is kept in the state
//! as one byte per ply (the king's square and direction), and earlier positions are
//! recovered by undoing those moves from the current one.
//!
//! The buffer holds [`HISTORY_CAPACITY`] = 128 plies. Its bound is the move limit:
//! the game is drawn once `move_limit` moves by each side (`2 × move_limit` plies)
//! pass without a man move or a capture, so the stretch never grows past
//! `2 × move_limit` plies, and [`Rules`] refuses a move limit above
//! [`MAX_MOVE_LIMIT`] = 64. The Calgary assignment has no such draw rule of its own,
//! and without one a game could go on for as many plies as there are king
//! arrangements — no fixed buffer could hold that. So the Calgary variant here has
//! the same move limit, 64 moves by each side by default (the most the buffer allows;
//! under the assignment's rules such a game would still be going on).
//!
//! The Zobrist hash covers the pieces and the side to move, not the history;
//! `search_key` folds the history since the last man move or capture in, so the
//! transposition tables of the engine and of the parallel searches never hand a result
//! found under one history to another (no graph-history interaction). The outcome and
//! the legal moves always follow the state's own history.
//!
//! # Notation
//! Positions are PDN FEN: `B:W21,22,...,32:B1,2,...,12` — the side to move (`B` or
//! `W`; `R` is accepted for Red = White), then each side's squares, `K` before a king.
//! Ranges such as `W21-32` are accepted. Moves are PDN (`11-15`, `22x15`,
//! `26x17x10`, every landing listed) or the Calgary assignment's path as its Haskell
//! `show` prints it: `[P (0,5),P (1,4)]`, with `K` for a king and for a man from the
//! square where it is crowned on, e.g. `[P (0,3),P (2,5),K (4,7),K (6,5)]`.

pub mod eval;

pub use eval::DraughtsEval;

use core::fmt;

use crate::error::ParseError;
use crate::game::{Game, Outcome, Player};
use crate::move_list::MoveList;
use crate::zobrist;

// ---------------------------------------------------------------------------------
// Geometry
// ---------------------------------------------------------------------------------

/// No square (off the board) in the neighbour tables.
const NONE: u8 = 32;

/// The column (0–7, from the left) of square index `i` (0–31, square `i + 1`).
pub const fn square_x(i: u8) -> u8 {
    let y = i / 4;
    2 * (i % 4) + if y % 2 == 0 { 1 } else { 0 }
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
const NEIGHBOUR: [[u8; 4]; 32] = neighbour_table(1);
/// The square two steps away in each direction: where a jump lands.
const JUMP: [[u8; 4]; 32] = neighbour_table(2);

const EVEN_ROWS: u32 = 0x0F0F_0F0F;
const ODD_ROWS: u32 = 0xF0F0_F0F0;
/// Even-row squares not on the right edge (x = 7).
const EVEN_NOT_RIGHT: u32 = 0x0707_0707;
/// Odd-row squares not on the left edge (x = 0).
const ODD_NOT_LEFT: u32 = 0xE0E0_E0E0;
/// Row 0 (squares 1–4): where White men are crowned.
const TOP_ROW: u32 = 0x0000_000F;
/// Row 7 (squares 29–32): where Black men are crowned.
const BOTTOM_ROW: u32 = 0xF000_0000;

/// Moves every piece of `b` one step in direction `d`, dropping those that would
/// leave the board.
#[inline(always)]
const fn step(b: u32, d: usize) -> u32 {
    match d {
        0 => ((b & ODD_NOT_LEFT) >> 5) | ((b & EVEN_ROWS) >> 4),
        1 => ((b & EVEN_NOT_RIGHT) >> 3) | ((b & ODD_ROWS) >> 4),
        2 => ((b & EVEN_ROWS) << 4) | ((b & ODD_NOT_LEFT) << 3),
        _ => ((b & EVEN_NOT_RIGHT) << 5) | ((b & ODD_ROWS) << 4),
    }
}

#[inline(always)]
const fn bit(sq: u8) -> u32 {
    1u32 << sq
}

// ---------------------------------------------------------------------------------
// Colours, variants, rules
// ---------------------------------------------------------------------------------

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
    const fn index(self) -> usize {
        match self {
            Colour::Black => 0,
            Colour::White => 1,
        }
    }

    /// The directions its men move in.
    #[inline]
    const fn forward(self) -> [usize; 2] {
        match self {
            Colour::Black => [2, 3],
            Colour::White => [0, 1],
        }
    }

    /// The row where its men are crowned.
    #[inline]
    const fn crown_row(self) -> u32 {
        match self {
            Colour::Black => BOTTOM_ROW,
            Colour::White => TOP_ROW,
        }
    }
}

/// The rule set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Variant {
    /// Standard English draughts: Black moves first, a crowning ends the move,
    /// repetition and move-limit draws.
    English,
    /// The Calgary assignment's variant: Red (White) moves first, a man crowned
    /// during a capture jumps on as a king, a king's simple move may not recreate an
    /// earlier position.
    Calgary,
}

/// The most plies the history buffer holds: `2 × MAX_MOVE_LIMIT`.
pub const HISTORY_CAPACITY: usize = 128;

/// The largest move limit (moves by each side without a man move or a capture before
/// the game is drawn) the history buffer supports.
pub const MAX_MOVE_LIMIT: u8 = (HISTORY_CAPACITY / 2) as u8;

/// The rules a game is played under: the variant, the draw rules, and whether
/// capture paths that take the same pieces from the same square to the same square
/// count as one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Rules {
    variant: Variant,
    move_limit: u8,
    repetition: u8,
    unique_captures: bool,
}

impl Default for Rules {
    fn default() -> Self {
        Rules::english()
    }
}

impl Rules {
    /// Standard English draughts: draw on the third occurrence of a position or after
    /// 40 moves by each side without a man move or a capture.
    pub const fn english() -> Self {
        Rules {
            variant: Variant::English,
            move_limit: 40,
            repetition: 3,
            unique_captures: false,
        }
    }

    /// The Calgary variant, with the longest move limit the history buffer allows
    /// ([`MAX_MOVE_LIMIT`]); repetitions cannot happen, they are illegal.
    pub const fn calgary() -> Self {
        Rules {
            variant: Variant::Calgary,
            move_limit: MAX_MOVE_LIMIT,
            repetition: 0,
            unique_captures: false,
        }
    }

    /// The variant.
    pub const fn variant(&self) -> Variant {
        self.variant
    }

    /// Moves by each side without a man move or a capture after which the game is
    /// drawn.
    pub const fn move_limit(&self) -> u8 {
        self.move_limit
    }

    /// The occurrence of a position that draws the game (English; 0 = never).
    pub const fn repetition(&self) -> u8 {
        self.repetition
    }

    /// True if capture paths with the same origin, destination and captured pieces
    /// are one move (perft's "unique" convention).
    pub const fn unique_captures(&self) -> bool {
        self.unique_captures
    }

    /// These rules with another move limit, 1 to [`MAX_MOVE_LIMIT`] moves by each side.
    pub const fn with_move_limit(self, moves: u8) -> Result<Self, &'static str> {
        if moves == 0 || moves > MAX_MOVE_LIMIT {
            Err("the move limit must be 1 to 64 moves by each side")
        } else {
            Ok(Rules {
                move_limit: moves,
                ..self
            })
        }
    }

    /// These rules drawing on the `n`-th occurrence of a position (2 or more), or never
    /// (0). English only: in the Calgary variant a repetition is illegal.
    pub const fn with_repetition(self, n: u8) -> Result<Self, &'static str> {
        if n == 1 {
            Err("a repetition draw needs at least the second occurrence (or 0 for none)")
        } else if n != 0 && matches!(self.variant, Variant::Calgary) {
            Err("the Calgary variant forbids repeated positions: no repetition draw")
        } else {
            Ok(Rules {
                repetition: n,
                ..self
            })
        }
    }

    /// These rules counting capture paths with the same origin, destination and
    /// captured pieces as one move (`true`) or each path separately (`false`).
    pub const fn with_unique_captures(self, unique: bool) -> Self {
        Rules {
            unique_captures: unique,
            ..self
        }
    }

    /// The colour that moves first from the start position.
    pub const fn first_colour(&self) -> Colour {
        match self.variant {
            Variant::English => Colour::Black,
            Variant::Calgary => Colour::White,
        }
    }

    /// The player (first or second) of `colour`.
    pub const fn player_of(&self, colour: Colour) -> Player {
        if colour as u8 == self.first_colour() as u8 {
            Player::First
        } else {
            Player::Second
        }
    }

    /// The colour of `player`.
    pub const fn colour_of(&self, player: Player) -> Colour {
        match player {
            Player::First => self.first_colour(),
            Player::Second => self.first_colour().other(),
        }
    }
}

// ---------------------------------------------------------------------------------
// Moves
// ---------------------------------------------------------------------------------

const FLAG_CROWNS: u8 = 1;
/// The number of jumps is kept in the flags above this bit (it equals the number of
/// captured pieces in every legal move; a move read from text may jump a piece twice,
/// and is then refused with that reason).
const JUMPS_SHIFT: u8 = 1;

/// A move: its origin and destination, the captured pieces, and the path of a
/// capture (one direction per jump), which is what tells two capture paths with the
/// same ends and captured set apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Move {
    from: u8,
    to: u8,
    flags: u8,
    captured: u32,
    /// Direction of jump `k` in bits `2k..2k+2` (captures only).
    path: u32,
}

impl Move {
    /// The origin square index (0–31; PDN square `from() + 1`).
    pub const fn from(&self) -> u8 {
        self.from
    }

    /// The destination square index (0–31).
    pub const fn to(&self) -> u8 {
        self.to
    }

    /// The captured pieces as a bitboard (bit `i` = square `i + 1`).
    pub const fn captured(&self) -> u32 {
        self.captured
    }

    /// True for a capture.
    pub const fn is_capture(&self) -> bool {
        self.captured != 0
    }

    /// The number of jumps (0 for a simple move).
    pub const fn jumps(&self) -> u32 {
        (self.flags >> JUMPS_SHIFT) as u32
    }

    /// True if the move crowns a man.
    pub const fn crowns(&self) -> bool {
        self.flags & FLAG_CROWNS != 0
    }

    /// The squares the piece stands on along the move: the origin, then every landing.
    /// Returns the number of squares written into `out`.
    pub fn squares(&self, out: &mut [u8; 14]) -> usize {
        out[0] = self.from;
        if !self.is_capture() {
            out[1] = self.to;
            return 2;
        }
        let mut sq = self.from;
        let n = self.jumps() as usize;
        for k in 0..n {
            let d = ((self.path >> (2 * k)) & 3) as usize;
            sq = JUMP[sq as usize][d];
            out[k + 1] = sq;
        }
        n + 1
    }

    /// The same (from, to, captured set): equal as far as the resulting position goes.
    #[inline]
    pub const fn same_result(&self, other: &Move) -> bool {
        self.from == other.from && self.to == other.to && self.captured == other.captured
    }
}

/// Every legal move of a position, in a fixed-capacity list.
///
/// # Capacity: 68
/// * Simple moves: at most 12 pieces with 4 directions each, 48.
/// * Captures: a jump moves a piece by (±2, ±2), which keeps `x mod 2` and
///   `(x + y) mod 4`, so every landing square of one capture lies in one of four
///   classes of 8 squares, and each jump is an edge of that class's graph (9 edges,
///   whose midpoints are distinct squares). A capture never jumps a piece twice, so
///   it is a trail in that graph, and since it must go on while it can, it is a
///   maximal trail (or one cut short by a crowning). Allowing every edge only adds
///   continuations, and a removed continuation never adds a finished move, so the
///   count per class is at most its maximum over all states of the 8 landing squares
///   (empty, blocked, own man, own king) with every edge present: 17 for each class
///   in both variants and directions (computed exhaustively by the test
///   `capture_bound_per_class_is_17`). Four classes: at most 68 captures.
pub type DraughtsMoves = MoveList<Move, 68>;

/// The assignment's `moves`: jump moves if any exist (they must be taken), otherwise
/// simple moves, otherwise the game has ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveSet {
    /// `SM`: no capture exists; these are the simple moves.
    Simple(DraughtsMoves),
    /// `JM`: captures exist and one must be played; these are all of them.
    Jump(DraughtsMoves),
    /// `EndM`: the game is over, and how.
    End(Outcome),
}

// ---------------------------------------------------------------------------------
// The state
// ---------------------------------------------------------------------------------

const KEYS: [u64; 129] = zobrist::keys(0xd4a9_6875_c0ff_ee01);
/// Key index: colour * 64 + king * 32 + square.
#[inline(always)]
fn piece_key(colour: usize, king: bool, sq: u8) -> u64 {
    KEYS[colour * 64 + if king { 32 } else { 0 } + sq as usize]
}
const SIDE_KEY: u64 = KEYS[128];

/// A draughts position with the king moves since the last irreversible move.
#[derive(Clone, Copy)]
pub struct Draughts {
    /// Each colour's pieces, indexed by `Colour::index`.
    pieces: [u32; 2],
    kings: u32,
    to_move: Colour,
    rules: Rules,
    /// Drawn by repetition (computed when the position arises).
    repetition_draw: bool,
    /// Plies since the last man move or capture (entries used in `history`).
    reversible: u8,
    hash: u64,
    /// King simple moves since the last irreversible move, oldest first: square index
    /// in bits 0–4, direction in bits 5–6.
    history: [u8; HISTORY_CAPACITY],
}

impl PartialEq for Draughts {
    fn eq(&self, other: &Self) -> bool {
        self.pieces == other.pieces
            && self.kings == other.kings
            && self.to_move == other.to_move
            && self.rules == other.rules
            && self.repetition_draw == other.repetition_draw
            && self.reversible == other.reversible
            && self.history[..self.reversible as usize]
                == other.history[..other.reversible as usize]
    }
}

impl Eq for Draughts {}

/// A small set of (from, to) king steps that the Calgary rule forbids.
struct Forbidden {
    pairs: [(u8, u8); HISTORY_CAPACITY / 2],
    len: usize,
}

impl Forbidden {
    #[inline]
    fn contains(&self, from: u8, to: u8) -> bool {
        self.pairs[..self.len].contains(&(from, to))
    }
}

impl Draughts {
    /// The start position under `rules`.
    pub const fn new(rules: Rules) -> Self {
        let mut g = Draughts {
            pieces: [0x0000_0FFF, 0xFFF0_0000],
            kings: 0,
            to_move: rules.first_colour(),
            rules,
            repetition_draw: false,
            reversible: 0,
            hash: 0,
            history: [0; HISTORY_CAPACITY],
        };
        g.hash = g.compute_hash();
        g
    }

    /// A position from bitboards, with no history. Fails if the pieces overlap, a
    /// side has more than 12 pieces, or a man stands on its crowning row.
    pub fn from_bitboards(
        rules: Rules,
        black: u32,
        white: u32,
        kings: u32,
        to_move: Colour,
    ) -> Result<Self, &'static str> {
        if black & white != 0 {
            return Err("a square holds both a black and a white piece");
        }
        if kings & !(black | white) != 0 {
            return Err("a king on an empty square");
        }
        if black.count_ones() > 12 || white.count_ones() > 12 {
            return Err("a side has more than 12 pieces");
        }
        if black & !kings & BOTTOM_ROW != 0 {
            return Err("a black man on row 8 (squares 29-32) would be a king");
        }
        if white & !kings & TOP_ROW != 0 {
            return Err("a white man on row 1 (squares 1-4) would be a king");
        }
        let mut g = Draughts {
            pieces: [black, white],
            kings,
            to_move,
            rules,
            repetition_draw: false,
            reversible: 0,
            hash: 0,
            history: [0; HISTORY_CAPACITY],
        };
        g.hash = g.compute_hash();
        Ok(g)
    }

    const fn compute_hash(&self) -> u64 {
        let mut h = 0;
        let mut sq = 0u8;
        while sq < 32 {
            let b = bit(sq);
            let king = self.kings & b != 0;
            let k = if king { 32 } else { 0 };
            if self.pieces[0] & b != 0 {
                h ^= KEYS[k + sq as usize];
            }
            if self.pieces[1] & b != 0 {
                h ^= KEYS[64 + k + sq as usize];
            }
            sq += 1;
        }
        if matches!(self.to_move, Colour::White) {
            h ^= SIDE_KEY;
        }
        h
    }

    /// The pieces of `colour` (men and kings) as a bitboard.
    #[inline]
    pub const fn pieces(&self, colour: Colour) -> u32 {
        self.pieces[colour.index()]
    }

    /// The kings of both colours as a bitboard.
    #[inline]
    pub const fn kings(&self) -> u32 {
        self.kings
    }

    /// The men of `colour`.
    #[inline]
    pub const fn men(&self, colour: Colour) -> u32 {
        self.pieces[colour.index()] & !self.kings
    }

    /// The kings of `colour`.
    #[inline]
    pub const fn kings_of(&self, colour: Colour) -> u32 {
        self.pieces[colour.index()] & self.kings
    }

    /// The empty squares.
    #[inline]
    pub const fn empty(&self) -> u32 {
        !(self.pieces[0] | self.pieces[1])
    }

    /// The colour to move.
    #[inline]
    pub const fn colour_to_move(&self) -> Colour {
        self.to_move
    }

    /// Plies played since the last man move or capture.
    #[inline]
    pub const fn reversible_plies(&self) -> u32 {
        self.reversible as u32
    }

    /// The squares of `colour`'s pieces that can capture (in any direction they may
    /// jump).
    #[inline]
    pub fn jumpers(&self, colour: Colour) -> u32 {
        let me = self.pieces[colour.index()];
        let opp = self.pieces[colour.other().index()];
        let empty = self.empty();
        let kings = me & self.kings;
        let [f0, f1] = colour.forward();
        let [b0, b1] = colour.other().forward();
        // A piece jumps in direction d if the square beyond (step d twice) is empty
        // and the one between holds an opponent: look back from the landing square.
        let back = |d: usize| step(opp & step(empty, d ^ 3), d ^ 3);
        (me & (back(f0) | back(f1))) | (kings & (back(b0) | back(b1)))
    }

    /// Simple-move destinations for `colour` in direction `d`, as a bitboard.
    #[inline]
    fn step_targets(&self, colour: Colour, d: usize) -> u32 {
        let me = self.pieces[colour.index()];
        let movers = if colour.forward()[0] == d || colour.forward()[1] == d {
            me
        } else {
            me & self.kings
        };
        step(movers, d) & self.empty()
    }

    /// The number of simple moves `colour` would have, ignoring the Calgary
    /// repetition rule (a mobility measure for evaluation).
    #[inline]
    pub fn simple_move_count(&self, colour: Colour) -> u32 {
        (0..4)
            .map(|d| self.step_targets(colour, d).count_ones())
            .sum()
    }

    /// True if the side to move has a capture.
    #[inline]
    pub fn has_capture(&self) -> bool {
        self.jumpers(self.to_move) != 0
    }

    /// The king steps the Calgary rule forbids now: for every earlier position of the
    /// reversible stretch with the opponent to move whose opponent kings stand where
    /// they stand now and whose own kings differ from the present ones by one king
    /// on another square, moving that king back recreates it.
    fn forbidden(&self) -> Forbidden {
        let mut f = Forbidden {
            pairs: [(0, 0); HISTORY_CAPACITY / 2],
            len: 0,
        };
        let n = self.reversible as usize;
        if !matches!(self.rules.variant, Variant::Calgary) || n < 3 {
            return f;
        }
        let me = self.to_move.index();
        let opp = self.to_move.other().index();
        let mut k = [self.pieces[0] & self.kings, self.pieces[1] & self.kings];
        let now = k;
        for i in (1..=n).rev() {
            // Entry i (1-based) was made by the opponent when n - i is even.
            let mover = if (n - i) % 2 == 0 { opp } else { me };
            let e = self.history[i - 1];
            let from = e & 31;
            let to = NEIGHBOUR[from as usize][(e >> 5) as usize];
            k[mover] = (k[mover] & !bit(to)) | bit(from);
            if (n - i) % 2 == 0 && k[opp] == now[opp] {
                let diff = k[me] ^ now[me];
                if diff.count_ones() == 2 {
                    let a = (now[me] & diff).trailing_zeros() as u8;
                    let b = (k[me] & diff).trailing_zeros() as u8;
                    if !f.contains(a, b) {
                        f.pairs[f.len] = (a, b);
                        f.len += 1;
                    }
                }
            }
        }
        f
    }

    /// How many times the current position occurred before in the reversible
    /// stretch (same pieces, same side to move).
    fn earlier_occurrences(&self) -> u32 {
        let n = self.reversible as usize;
        let mut k = [self.pieces[0] & self.kings, self.pieces[1] & self.kings];
        let now = k;
        let me = self.to_move.index();
        let opp = self.to_move.other().index();
        let mut count = 0;
        for i in (1..=n).rev() {
            let mover = if (n - i) % 2 == 0 { opp } else { me };
            let e = self.history[i - 1];
            let from = e & 31;
            let to = NEIGHBOUR[from as usize][(e >> 5) as usize];
            k[mover] = (k[mover] & !bit(to)) | bit(from);
            if (n - i) % 2 == 1 && k == now {
                count += 1;
            }
        }
        count
    }

    /// True if the game is drawn by a draw rule (move limit or repetition).
    #[inline]
    pub fn is_drawn_by_rule(&self) -> bool {
        self.repetition_draw || u32::from(self.reversible) >= 2 * u32::from(self.rules.move_limit)
    }

    /// Writes the legal moves ignoring the draw rules.
    fn generate_all(&self, out: &mut DraughtsMoves) {
        out.clear();
        let jumpers = self.jumpers(self.to_move);
        if jumpers != 0 {
            self.generate_captures(jumpers, out);
        } else {
            self.generate_simple(out);
        }
    }

    /// Writes the simple moves, direction by direction (up-left, up-right, down-left,
    /// down-right), each in square order.
    fn generate_simple(&self, out: &mut DraughtsMoves) {
        let colour = self.to_move;
        let me = self.pieces[colour.index()];
        let my_kings = me & self.kings;
        let empty = self.empty();
        let crown = colour.crown_row();
        let fwd = colour.forward();
        for d in 0..4 {
            let movers = if fwd[0] == d || fwd[1] == d {
                me
            } else {
                my_kings
            };
            let mut targets = step(movers, d) & empty;
            while targets != 0 {
                let to = targets.trailing_zeros() as u8;
                targets &= targets - 1;
                let from = NEIGHBOUR[to as usize][d ^ 3];
                let flags = if self.kings & bit(from) == 0 && crown & bit(to) != 0 {
                    FLAG_CROWNS
                } else {
                    0
                };
                out.push(Move {
                    from,
                    to,
                    flags,
                    captured: 0,
                    path: d as u32,
                });
            }
        }
        if matches!(self.rules.variant, Variant::Calgary) && self.reversible >= 3 {
            let f = self.forbidden();
            if f.len > 0 {
                out.retain(|m| !(my_kings & bit(m.from) != 0 && f.contains(m.from, m.to)));
            }
        }
    }

    fn generate_captures(&self, jumpers: u32, out: &mut DraughtsMoves) {
        let mut bb = jumpers;
        while bb != 0 {
            let from = bb.trailing_zeros() as u8;
            bb &= bb - 1;
            let ctx = CaptureCtx {
                from,
                colour: self.to_move,
                opp: self.pieces[self.to_move.other().index()],
                empty: self.empty() | bit(from),
                calgary: matches!(self.rules.variant, Variant::Calgary),
                unique: self.rules.unique_captures,
            };
            let king = self.kings & bit(from) != 0;
            ctx.jump(from, king, 0, 0, 0, 0, out);
        }
    }

    /// Counts captures without storing them (bulk counting).
    fn count_captures(&self, jumpers: u32) -> u64 {
        if self.rules.unique_captures {
            let mut list = DraughtsMoves::new();
            self.generate_captures(jumpers, &mut list);
            return list.len() as u64;
        }
        let mut total = 0;
        let mut bb = jumpers;
        while bb != 0 {
            let from = bb.trailing_zeros() as u8;
            bb &= bb - 1;
            let ctx = CaptureCtx {
                from,
                colour: self.to_move,
                opp: self.pieces[self.to_move.other().index()],
                empty: self.empty() | bit(from),
                calgary: matches!(self.rules.variant, Variant::Calgary),
                unique: false,
            };
            let king = self.kings & bit(from) != 0;
            total += ctx.count(from, king, 0);
        }
        total
    }

    /// The number of legal moves, ignoring the draw rules.
    #[inline]
    fn count_all(&self) -> u64 {
        match self.to_move {
            Colour::Black => self.count_all_for::<2, 3>(Colour::Black),
            Colour::White => self.count_all_for::<0, 1>(Colour::White),
        }
    }

    /// [`Self::count_all`] for the colour whose men move in directions `F0` and `F1`
    /// (constants, so that every shift is fixed at compile time).
    #[inline(always)]
    fn count_all_for<const F0: usize, const F1: usize>(&self, c: Colour) -> u64 {
        let me = self.pieces[c.index()];
        let opp = self.pieces[c.other().index()];
        let empty = !(me | opp);
        let mk = me & self.kings;
        let mut jumpers = me
            & (step(opp & step(empty, F0 ^ 3), F0 ^ 3) | step(opp & step(empty, F1 ^ 3), F1 ^ 3));
        if mk != 0 {
            jumpers |= mk & (step(opp & step(empty, F0), F0) | step(opp & step(empty, F1), F1));
        }
        if jumpers != 0 {
            return self.count_captures(jumpers);
        }
        let mut n = (step(me, F0) & empty).count_ones() + (step(me, F1) & empty).count_ones();
        if mk != 0 {
            n += (step(mk, F0 ^ 3) & empty).count_ones() + (step(mk, F1 ^ 3) & empty).count_ones();
        }
        let mut n = u64::from(n);
        if matches!(self.rules.variant, Variant::Calgary) && self.reversible >= 3 {
            let f = self.forbidden();
            let kings = self.kings_of(c);
            let empty = self.empty();
            for &(from, to) in &f.pairs[..f.len] {
                if kings & bit(from) != 0
                    && empty & bit(to) != 0
                    && NEIGHBOUR[from as usize].contains(&to)
                {
                    n -= 1;
                }
            }
        }
        n
    }

    /// True if the side to move has a legal move, the draw rules aside.
    #[inline]
    fn has_any_move(&self) -> bool {
        if self.jumpers(self.to_move) != 0 {
            return true;
        }
        if matches!(self.rules.variant, Variant::Calgary) && self.reversible >= 3 {
            return self.count_all() != 0;
        }
        (0..4).any(|d| self.step_targets(self.to_move, d) != 0)
    }

    /// The position after a king's simple move: the history grows by one ply.
    #[inline(never)]
    fn after_king_step(&self, pieces: [u32; 2], kings: u32, hash: u64, mv: Move) -> Self {
        let mut g = Draughts {
            pieces,
            kings,
            to_move: self.to_move.other(),
            rules: self.rules,
            repetition_draw: false,
            reversible: self.reversible,
            hash,
            history: self.history,
        };
        let n = self.reversible as usize;
        if n < HISTORY_CAPACITY {
            g.history[n] = mv.from | ((mv.path as u8 & 3) << 5);
            g.reversible += 1;
        }
        let rep = g.rules.repetition;
        if rep != 0 && g.reversible >= 4 && g.earlier_occurrences() + 1 >= u32::from(rep) {
            g.repetition_draw = true;
        }
        g
    }

    /// The assignment's `moves`: the jump moves if there are any, else the simple
    /// moves, else the end of the game (a loss for the side to move, or a draw by
    /// the draw rules). The moves are sorted by origin, destination and path.
    pub fn moves(&self) -> MoveSet {
        let outcome = self.outcome();
        if outcome.is_over() {
            return MoveSet::End(outcome);
        }
        let mut list = DraughtsMoves::new();
        let jumpers = self.jumpers(self.to_move);
        let jump = jumpers != 0;
        if jump {
            self.generate_captures(jumpers, &mut list);
        } else {
            self.generate_simple(&mut list);
        }
        // In square order, for people to read (search uses generation order).
        list.sort_unstable_by_key(|m| (m.from, m.to, m.path));
        if jump {
            MoveSet::Jump(list)
        } else {
            MoveSet::Simple(list)
        }
    }

    /// The assignment's `apply_move`: plays `mv` if it is legal; otherwise the error
    /// holds the unchanged position and says why the move was refused.
    // The refusal carries the unchanged state, as the assignment's `apply_move` does.
    #[allow(clippy::result_large_err)]
    pub fn apply_move(&self, mv: Move) -> Result<Self, crate::IllegalMove<Self>> {
        self.play(mv)
    }

    /// Writes `mv` as the Calgary assignment's Haskell `show` of its path:
    /// `[P (0,5),P (1,4)]`.
    pub fn write_move_calgary(&self, mv: Move, out: &mut dyn fmt::Write) -> fmt::Result {
        let mut squares = [0u8; 14];
        let n = mv.squares(&mut squares);
        let mut tags = [false; 14];
        self.calgary_tags(mv, &mut tags);
        out.write_char('[')?;
        for (k, &sq) in squares[..n].iter().enumerate() {
            if k > 0 {
                out.write_char(',')?;
            }
            write!(
                out,
                "{} ({},{})",
                if tags[k] { 'K' } else { 'P' },
                square_x(sq),
                square_y(sq)
            )?;
        }
        out.write_char(']')
    }

    /// A `Display` wrapper for a move in the Calgary notation.
    pub fn display_calgary(&self, mv: Move) -> CalgaryMove<'_> {
        CalgaryMove { game: self, mv }
    }

    /// Parses a move in the Calgary notation `[P (0,5),P (1,4)]` (whitespace is free;
    /// the `P`/`K` tags must match the piece).
    pub fn parse_move_calgary(&self, text: &str) -> Result<Move, ParseError> {
        let mut squares = [0u8; 14];
        let mut tags = [false; 14];
        let mut n = 0;
        let bytes = text.as_bytes();
        let mut p = Cursor { bytes, pos: 0 };
        p.skip_ws();
        p.expect(b'[', "a Calgary move starts with '['")?;
        loop {
            p.skip_ws();
            if n == 0 && p.peek() == Some(b']') {
                return Err(ParseError::new(
                    "empty path: a move has at least two squares",
                    p.pos,
                ));
            }
            let tag_at = p.pos;
            let king = match p.next() {
                Some(b'P') => false,
                Some(b'K') => true,
                Some(c) => {
                    return Err(ParseError::at_char(
                        "expected 'P' (a man) or 'K' (a king)",
                        tag_at,
                        c as char,
                    ))
                }
                None => {
                    return Err(ParseError::new(
                        "unexpected end: expected 'P' or 'K'",
                        tag_at,
                    ))
                }
            };
            p.skip_ws();
            p.expect(b'(', "expected '(' before a coordinate")?;
            p.skip_ws();
            let x_at = p.pos;
            let x = p.number()?;
            p.skip_ws();
            p.expect(b',', "expected ',' between x and y")?;
            p.skip_ws();
            let y = p.number()?;
            p.skip_ws();
            p.expect(b')', "expected ')' after a coordinate")?;
            let Some(sq) = square_at(x as i32, y as i32) else {
                return Err(ParseError::new(
                    "not a playable square: x and y are 0 to 7 with x + y odd",
                    x_at,
                ));
            };
            if n == squares.len() {
                return Err(ParseError::new("too many squares in the path", x_at));
            }
            squares[n] = sq;
            tags[n] = king;
            n += 1;
            p.skip_ws();
            match p.next() {
                Some(b',') => continue,
                Some(b']') => break,
                Some(c) => {
                    return Err(ParseError::at_char(
                        "expected ',' or ']' after a square",
                        p.pos - 1,
                        c as char,
                    ))
                }
                None => return Err(ParseError::new("unexpected end: expected ']'", p.pos)),
            }
        }
        p.skip_ws();
        if p.pos != bytes.len() {
            return Err(ParseError::at_char(
                "unexpected text after the move",
                p.pos,
                bytes[p.pos] as char,
            ));
        }
        let mv = self.resolve(&squares[..n], 0)?;
        let mut expect = [false; 14];
        let len = self.calgary_tags(mv, &mut expect);
        if len == n {
            for k in 0..n {
                if expect[k] != tags[k] {
                    return Err(ParseError::new(
                        if expect[k] {
                            "wrong tag: the piece is a king there (K), not a man (P)"
                        } else {
                            "wrong tag: the piece is a man there (P), not a king (K)"
                        },
                        0,
                    ));
                }
            }
        }
        Ok(mv)
    }

    /// The Calgary `P`/`K` tag (true = `K`) of each square of `mv`'s path; returns the
    /// number of squares.
    fn calgary_tags(&self, mv: Move, out: &mut [bool; 14]) -> usize {
        let mut squares = [0u8; 14];
        let n = mv.squares(&mut squares);
        let mut king = self.kings & bit(mv.from) != 0;
        let crown = self.to_move.crown_row();
        for (k, &sq) in squares[..n].iter().enumerate() {
            if k > 0 && crown & bit(sq) != 0 {
                king = true;
            }
            out[k] = king;
        }
        n
    }

    /// Finds the move whose squares are `squares` (origin, landings…, destination;
    /// a capture may list only its origin and destination if that is unambiguous).
    /// If no legal move matches, builds the move the squares describe so that `play`
    /// can say why it is illegal. `offset` is where the text started, for errors.
    fn resolve(&self, squares: &[u8], offset: usize) -> Result<Move, ParseError> {
        if squares.len() < 2 {
            return Err(ParseError::new("a move needs at least two squares", offset));
        }
        let from = squares[0];
        let to = squares[squares.len() - 1];
        let mut legal = DraughtsMoves::new();
        self.generate_all(&mut legal);
        let mut found: Option<Move> = None;
        let mut ambiguous = false;
        for &m in legal.iter() {
            if m.from != from || m.to != to {
                continue;
            }
            let mut path = [0u8; 14];
            let len = m.squares(&mut path);
            let matches = if squares.len() == 2 {
                true
            } else {
                len == squares.len() && path[..len] == *squares
            };
            if matches {
                match found {
                    None => found = Some(m),
                    // Two paths with the same result: either is the move meant.
                    Some(f) if f.same_result(&m) => {}
                    Some(_) => ambiguous = true,
                }
            }
        }
        if ambiguous {
            return Err(ParseError::new(
                "ambiguous: several captures go from there to there; list every landing square",
                offset,
            ));
        }
        if let Some(m) = found {
            return Ok(m);
        }
        // Not legal here: build the move the squares describe.
        if squares.len() == 2 {
            if let Some(d) = NEIGHBOUR[from as usize].iter().position(|&n| n == to) {
                {
                    let crown = self.to_move.crown_row();
                    let man = self.kings & bit(from) == 0;
                    return Ok(Move {
                        from,
                        to,
                        flags: if man && crown & bit(to) != 0 {
                            FLAG_CROWNS
                        } else {
                            0
                        },
                        captured: 0,
                        path: d as u32,
                    });
                }
            }
        }
        let mut captured = 0u32;
        let mut path = 0u32;
        let mut crowns = false;
        let crown = self.to_move.crown_row();
        let mut king = self.kings & bit(from) != 0;
        for (k, w) in squares.windows(2).enumerate() {
            let Some(d) = (0..4).find(|&d| JUMP[w[0] as usize][d] == w[1]) else {
                return Err(ParseError::new(
                    if squares.len() == 2 {
                        "the two squares are neither a diagonal step nor a jump apart"
                    } else {
                        "every step of a capture must be a jump two squares diagonally"
                    },
                    offset,
                ));
            };
            let mid = NEIGHBOUR[w[0] as usize][d];
            captured |= bit(mid);
            path |= (d as u32) << (2 * k);
            if !king && crown & bit(w[1]) != 0 {
                king = true;
                crowns = true;
            }
        }
        Ok(Move {
            from,
            to,
            flags: if crowns { FLAG_CROWNS } else { 0 }
                | ((squares.len() as u8 - 1) << JUMPS_SHIFT),
            captured,
            path,
        })
    }

    /// Says precisely why the capture `mv` is not legal.
    fn explain_capture(&self, mv: Move) -> &'static str {
        let colour = self.to_move;
        let opp = self.pieces[colour.other().index()];
        let empty = self.empty() | bit(mv.from);
        let mut king = self.kings & bit(mv.from) != 0;
        let mut sq = mv.from;
        let mut jumped = 0u32;
        let n = mv.jumps();
        let calgary = matches!(self.rules.variant, Variant::Calgary);
        for k in 0..n {
            let d = ((mv.path >> (2 * k)) & 3) as usize;
            if !king && colour.forward()[0] != d && colour.forward()[1] != d {
                return "men capture forward only";
            }
            let mid = NEIGHBOUR[sq as usize][d];
            let land = JUMP[sq as usize][d];
            if mid == NONE || land == NONE {
                return "a jump would leave the board";
            }
            if jumped & bit(mid) != 0 {
                return "a piece cannot be jumped twice";
            }
            if opp & bit(mid) == 0 {
                return "a jump must go over an opponent's piece";
            }
            if empty & bit(land) == 0 {
                return "a jump must land on an empty square";
            }
            jumped |= bit(mid);
            sq = land;
            if !king && colour.crown_row() & bit(sq) != 0 {
                if !calgary && k + 1 < n {
                    return "a man crowned by a capture ends its move (English rules)";
                }
                king = true;
            }
        }
        let crowned_now = king && self.kings & bit(mv.from) == 0;
        if calgary || !crowned_now {
            for d in 0..4 {
                if !king && colour.forward()[0] != d && colour.forward()[1] != d {
                    continue;
                }
                let mid = NEIGHBOUR[sq as usize][d];
                let land = JUMP[sq as usize][d];
                if land != NONE && opp & !jumped & bit(mid) != 0 && empty & bit(land) != 0 {
                    return "the capture is not finished: the piece can jump again";
                }
            }
        }
        "not a legal capture in this position"
    }
}

/// A capture search from one piece.
struct CaptureCtx {
    from: u8,
    colour: Colour,
    opp: u32,
    /// Empty squares, the moving piece's origin included.
    empty: u32,
    calgary: bool,
    unique: bool,
}

impl CaptureCtx {
    #[allow(clippy::too_many_arguments)]
    fn jump(
        &self,
        sq: u8,
        king: bool,
        captured: u32,
        path: u32,
        n: u32,
        flags: u8,
        out: &mut DraughtsMoves,
    ) {
        let mut extended = false;
        let fwd = self.colour.forward();
        for d in 0..4 {
            if !king && fwd[0] != d && fwd[1] != d {
                continue;
            }
            let mid = NEIGHBOUR[sq as usize][d];
            let land = JUMP[sq as usize][d];
            if land == NONE || self.opp & !captured & bit(mid) == 0 || self.empty & bit(land) == 0 {
                continue;
            }
            extended = true;
            let c = captured | bit(mid);
            let p = path | ((d as u32) << (2 * n));
            if !king && self.colour.crown_row() & bit(land) != 0 {
                if self.calgary {
                    self.jump(land, true, c, p, n + 1, FLAG_CROWNS, out);
                } else {
                    self.push(land, c, p, FLAG_CROWNS, out);
                }
            } else {
                self.jump(land, king, c, p, n + 1, flags, out);
            }
        }
        if !extended && n > 0 {
            self.push(sq, captured, path, flags, out);
        }
    }

    #[inline]
    fn push(&self, to: u8, captured: u32, path: u32, flags: u8, out: &mut DraughtsMoves) {
        let m = Move {
            from: self.from,
            to,
            flags: flags | ((captured.count_ones() as u8) << JUMPS_SHIFT),
            captured,
            path,
        };
        if self.unique && out.iter().any(|o| o.same_result(&m)) {
            return;
        }
        out.push(m);
    }

    fn count(&self, sq: u8, king: bool, captured: u32) -> u64 {
        let mut total = 0;
        let mut extended = false;
        let fwd = self.colour.forward();
        for d in 0..4 {
            if !king && fwd[0] != d && fwd[1] != d {
                continue;
            }
            let mid = NEIGHBOUR[sq as usize][d];
            let land = JUMP[sq as usize][d];
            if land == NONE || self.opp & !captured & bit(mid) == 0 || self.empty & bit(land) == 0 {
                continue;
            }
            extended = true;
            let c = captured | bit(mid);
            if !king && self.colour.crown_row() & bit(land) != 0 {
                if self.calgary {
                    total += self.count(land, true, c);
                } else {
                    total += 1;
                }
            } else {
                total += self.count(land, king, c);
            }
        }
        if !extended && captured != 0 {
            total += 1;
        }
        total
    }
}

/// Displays a move in the Calgary notation.
pub struct CalgaryMove<'a> {
    game: &'a Draughts,
    mv: Move,
}

impl fmt::Display for CalgaryMove<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.game.write_move_calgary(self.mv, f)
    }
}

/// A byte cursor for the parsers.
struct Cursor<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl Cursor<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }
    fn next(&mut self) -> Option<u8> {
        let c = self.peek();
        if c.is_some() {
            self.pos += 1;
        }
        c
    }
    fn skip_ws(&mut self) {
        while matches!(self.peek(), Some(c) if c.is_ascii_whitespace()) {
            self.pos += 1;
        }
    }
    fn expect(&mut self, c: u8, reason: &'static str) -> Result<(), ParseError> {
        match self.peek() {
            Some(x) if x == c => {
                self.pos += 1;
                Ok(())
            }
            Some(x) => Err(ParseError::at_char(
                reason,
                self.pos,
                char_at(self.bytes, self.pos, x),
            )),
            None => Err(ParseError::new(reason, self.pos)),
        }
    }
    /// A decimal number of at most 3 digits.
    fn number(&mut self) -> Result<u32, ParseError> {
        let start = self.pos;
        let mut v = 0u32;
        while let Some(c @ b'0'..=b'9') = self.peek() {
            if self.pos - start == 3 {
                return Err(ParseError::new("number too long", start));
            }
            v = v * 10 + u32::from(c - b'0');
            self.pos += 1;
        }
        if self.pos == start {
            return Err(match self.peek() {
                Some(c) => ParseError::at_char(
                    "expected a number",
                    self.pos,
                    char_at(self.bytes, self.pos, c),
                ),
                None => ParseError::new("unexpected end: expected a number", self.pos),
            });
        }
        Ok(v)
    }
}

/// The character at byte `pos` (for error messages on non-ASCII input).
fn char_at(bytes: &[u8], pos: usize, fallback: u8) -> char {
    core::str::from_utf8(&bytes[pos..])
        .ok()
        .and_then(|s| s.chars().next())
        .unwrap_or(fallback as char)
}

// ---------------------------------------------------------------------------------
// The Game contract
// ---------------------------------------------------------------------------------

impl Game for Draughts {
    type Move = Move;
    type MoveList = DraughtsMoves;
    type Rules = Rules;

    fn start(rules: Rules) -> Self {
        Draughts::new(rules)
    }

    /// `""` or `english` (the default) or `calgary`, then optional `:`-separated
    /// options: `limit=N` (moves by each side without a man move or capture before a
    /// draw, 1–64), `repeat=N` (English: draw on the N-th occurrence of a position;
    /// `repeat=0` never), `unique` (capture paths with the same result are one move).
    fn parse_rules(params: &str) -> Result<Rules, ParseError> {
        let mut rules = Rules::english();
        let mut offset = 0;
        for (i, part) in params.split(':').enumerate() {
            let at = offset;
            offset += part.len() + 1;
            if part.is_empty() && params.is_empty() {
                break;
            }
            if i == 0 {
                match part {
                    "english" | "" => continue,
                    "calgary" => {
                        rules = Rules::calgary();
                        continue;
                    }
                    _ => {}
                }
            }
            if part == "unique" {
                rules = rules.with_unique_captures(true);
            } else if let Some(v) = part.strip_prefix("limit=") {
                let n: u8 = v
                    .parse()
                    .map_err(|_| ParseError::new("limit= takes a number of moves, 1 to 64", at))?;
                rules = rules
                    .with_move_limit(n)
                    .map_err(|r| ParseError::new(r, at))?;
            } else if let Some(v) = part.strip_prefix("repeat=") {
                let n: u8 = v.parse().map_err(|_| {
                    ParseError::new("repeat= takes the occurrence that draws (0 = never)", at)
                })?;
                rules = rules
                    .with_repetition(n)
                    .map_err(|r| ParseError::new(r, at))?;
            } else if i == 0 {
                return Err(ParseError::new(
                    "unknown variant: expected 'english' or 'calgary'",
                    at,
                ));
            } else {
                return Err(ParseError::new(
                    "unknown option: expected limit=N, repeat=N or unique",
                    at,
                ));
            }
        }
        Ok(rules)
    }

    fn rules(&self) -> Rules {
        self.rules
    }

    fn parse_position(rules: Rules, text: &str) -> Result<Self, ParseError> {
        parse_fen(rules, text)
    }

    #[inline]
    fn side_to_move(&self) -> Player {
        self.rules.player_of(self.to_move)
    }

    fn outcome(&self) -> Outcome {
        if !self.has_any_move() {
            Outcome::Win(self.rules.player_of(self.to_move.other()))
        } else if self.is_drawn_by_rule() {
            Outcome::Draw
        } else {
            Outcome::Ongoing
        }
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.hash
    }

    /// The position hash with the history since the last man move or capture
    /// folded in: the repetition rules and the move limit depend on it, so search
    /// tables keep results of different histories apart. In the opening and middle
    /// game (no king moves yet) the history is empty and the key is the hash.
    #[inline]
    fn search_key(&self) -> u64 {
        let n = self.reversible as usize;
        if n == 0 {
            return self.hash;
        }
        let mut h = n as u64;
        for &e in &self.history[..n] {
            h = crate::zobrist::mix64(h ^ u64::from(e));
        }
        self.hash ^ h
    }

    fn generate_moves(&self, moves: &mut DraughtsMoves) {
        if self.is_drawn_by_rule() {
            moves.clear();
            return;
        }
        self.generate_all(moves);
    }

    #[inline]
    fn count_moves(&self) -> u64 {
        if self.is_drawn_by_rule() {
            0
        } else {
            self.count_all()
        }
    }

    fn play_unchecked(&self, mv: Move) -> Self {
        let me = self.to_move.index();
        let opp = self.to_move.other().index();
        let from = bit(mv.from);
        let to = bit(mv.to);
        let king = self.kings & from != 0;
        let mut pieces = self.pieces;
        pieces[me] = (pieces[me] & !from) | to;
        let mut hash = self.hash ^ SIDE_KEY ^ piece_key(me, king, mv.from);
        let becomes_king = king || mv.flags & FLAG_CROWNS != 0;
        hash ^= piece_key(me, becomes_king, mv.to);
        let mut kings = self.kings & !from;
        if becomes_king {
            kings |= to;
        }
        if mv.captured != 0 {
            let mut c = mv.captured;
            while c != 0 {
                let sq = c.trailing_zeros() as u8;
                c &= c - 1;
                hash ^= piece_key(opp, self.kings & bit(sq) != 0, sq);
            }
            pieces[opp] &= !mv.captured;
            kings &= !mv.captured;
        }
        if king && mv.captured == 0 {
            self.after_king_step(pieces, kings, hash, mv)
        } else {
            Draughts {
                pieces,
                kings,
                to_move: self.to_move.other(),
                rules: self.rules,
                repetition_draw: false,
                reversible: 0,
                hash,
                // An irreversible move starts a new stretch: nothing to carry over.
                history: [0; HISTORY_CAPACITY],
            }
        }
    }

    fn check_move(&self, mv: Move) -> Result<(), &'static str> {
        if self.is_drawn_by_rule() {
            return Err("the game is over: it is drawn");
        }
        let colour = self.to_move;
        let me = self.pieces[colour.index()];
        if me & bit(mv.from) == 0 {
            return Err(if self.pieces[colour.other().index()] & bit(mv.from) != 0 {
                "that piece belongs to the opponent"
            } else {
                "there is no piece on the origin square"
            });
        }
        let mut legal = DraughtsMoves::new();
        self.generate_all(&mut legal);
        if legal.is_empty() {
            return Err("the game is over: the side to move has no legal move");
        }
        if legal.contains(&mv) {
            return Ok(());
        }
        let king = self.kings & bit(mv.from) != 0;
        if mv.captured == 0 {
            if self.has_capture() {
                return Err("a jump is available and must be taken");
            }
            let Some(d) = (0..4).find(|&d| NEIGHBOUR[mv.from as usize][d] == mv.to) else {
                return Err("a simple move goes one square diagonally");
            };
            if !king && !colour.forward().contains(&d) {
                return Err("men move forward only");
            }
            if self.empty() & bit(mv.to) == 0 {
                return Err("the destination square is occupied");
            }
            if king && self.forbidden().contains(mv.from, mv.to) {
                return Err("the king move would repeat an earlier position (Calgary rule)");
            }
            return Err("not a legal move in this position");
        }
        if self.rules.unique_captures && legal.iter().any(|m| m.same_result(&mv)) {
            return Err("the same capture is listed by another path (unique captures)");
        }
        Err(self.explain_capture(mv))
    }

    fn parse_move(&self, text: &str) -> Result<Move, ParseError> {
        let t = text.trim_start();
        let lead = text.len() - t.len();
        if t.starts_with('[') {
            return self.parse_move_calgary(t).map_err(|e| ParseError {
                offset: e.offset + lead,
                ..e
            });
        }
        let t = t.trim_end();
        let bytes = t.as_bytes();
        if bytes.is_empty() {
            return Err(ParseError::new(
                "empty move: expected squares like 11-15 or 22x15",
                lead,
            ));
        }
        let mut squares = [0u8; 14];
        let mut n = 0;
        let mut p = Cursor { bytes, pos: 0 };
        loop {
            let at = p.pos;
            let v = p.number().map_err(|e| ParseError {
                offset: e.offset + lead,
                ..e
            })?;
            if !(1..=32).contains(&v) {
                return Err(ParseError::new("squares are numbered 1 to 32", at + lead));
            }
            if n == squares.len() {
                return Err(ParseError::new("too many squares in the move", at + lead));
            }
            squares[n] = (v - 1) as u8;
            n += 1;
            match p.next() {
                None => break,
                Some(b'-') | Some(b'x') | Some(b'X') | Some(b':') => {}
                Some(c) => {
                    return Err(ParseError::at_char(
                        "expected '-' or 'x' between squares",
                        p.pos - 1 + lead,
                        char_at(bytes, p.pos - 1, c),
                    ))
                }
            }
        }
        self.resolve(&squares[..n], lead)
    }

    fn write_move(&self, mv: Move, out: &mut dyn fmt::Write) -> fmt::Result {
        let mut squares = [0u8; 14];
        let n = mv.squares(&mut squares);
        let sep = if mv.is_capture() { 'x' } else { '-' };
        for (k, &sq) in squares[..n].iter().enumerate() {
            if k > 0 {
                out.write_char(sep)?;
            }
            write!(out, "{}", sq + 1)?;
        }
        Ok(())
    }

    #[inline]
    fn is_quiet(&self) -> bool {
        !self.has_capture()
    }

    fn move_order_hint(&self, mv: Move) -> i32 {
        let mut h = 0;
        if mv.captured != 0 {
            h += 4 * mv.jumps() as i32 + 2 * (mv.captured & self.kings).count_ones() as i32;
        }
        if mv.flags & FLAG_CROWNS != 0 {
            h += 3;
        }
        h
    }
}

// ---------------------------------------------------------------------------------
// PDN FEN
// ---------------------------------------------------------------------------------

fn parse_fen(rules: Rules, text: &str) -> Result<Draughts, ParseError> {
    let mut s = text.trim();
    let mut base = text.len() - text.trim_start().len();
    // An optional PDN tag wrapper: [FEN "..."]
    if let Some(rest) = s.strip_prefix('[') {
        let inner = rest.trim_start();
        let Some(after) = inner.strip_prefix("FEN") else {
            return Err(ParseError::new(
                "expected [FEN \"...\"] or a bare FEN",
                base,
            ));
        };
        let after = after.trim_start();
        let Some(q) = after.strip_prefix('"') else {
            return Err(ParseError::new("expected '\"' after FEN", base));
        };
        let Some(end) = q.find('"') else {
            return Err(ParseError::new("missing closing '\"'", text.len()));
        };
        if !q[end + 1..].trim().eq("]") {
            return Err(ParseError::new(
                "expected ']' after the quoted FEN",
                text.len(),
            ));
        }
        base = q.as_ptr() as usize - text.as_ptr() as usize;
        s = &q[..end];
    }
    let s_trim = s.trim_end_matches('.');
    let bytes = s_trim.as_bytes();
    let mut p = Cursor { bytes, pos: 0 };
    let err_at = |r: &'static str, pos: usize| ParseError::new(r, base + pos);
    p.skip_ws();
    let side_at = p.pos;
    let to_move = match p.next() {
        Some(b'B') | Some(b'b') => Colour::Black,
        Some(b'W') | Some(b'w') | Some(b'R') | Some(b'r') => Colour::White,
        Some(c) => {
            return Err(ParseError::at_char(
                "expected the side to move, 'B' or 'W'",
                base + side_at,
                char_at(bytes, side_at, c),
            ))
        }
        None => {
            return Err(err_at(
                "empty position: expected a FEN like B:W21,...:B1,...",
                0,
            ))
        }
    };
    let mut pieces = [0u32; 2];
    let mut kings = 0u32;
    let mut seen = [false; 2];
    for _ in 0..2 {
        p.skip_ws();
        if p.peek().is_none() {
            break;
        }
        p.expect(b':', "expected ':' before a side's pieces")
            .map_err(|e| ParseError {
                offset: e.offset + base,
                ..e
            })?;
        p.skip_ws();
        let c_at = p.pos;
        let colour = match p.next() {
            Some(b'B') | Some(b'b') => Colour::Black,
            Some(b'W') | Some(b'w') | Some(b'R') | Some(b'r') => Colour::White,
            Some(c) => {
                return Err(ParseError::at_char(
                    "expected 'W' or 'B' naming a side",
                    base + c_at,
                    char_at(bytes, c_at, c),
                ))
            }
            None => return Err(err_at("expected 'W' or 'B' naming a side", c_at)),
        };
        if seen[colour.index()] {
            return Err(err_at("a side is listed twice", c_at));
        }
        seen[colour.index()] = true;
        loop {
            p.skip_ws();
            match p.peek() {
                None | Some(b':') => break,
                _ => {}
            }
            let king = if matches!(p.peek(), Some(b'K') | Some(b'k')) {
                p.pos += 1;
                true
            } else {
                false
            };
            let at = p.pos;
            let a = p.number().map_err(|e| ParseError {
                offset: e.offset + base,
                ..e
            })?;
            let b = if p.peek() == Some(b'-') {
                p.pos += 1;
                p.number().map_err(|e| ParseError {
                    offset: e.offset + base,
                    ..e
                })?
            } else {
                a
            };
            if !(1..=32).contains(&a) || !(1..=32).contains(&b) {
                return Err(err_at("squares are numbered 1 to 32", at));
            }
            if b < a {
                return Err(err_at("a range must go up, like 21-32", at));
            }
            for sq in a..=b {
                let m = 1u32 << (sq - 1);
                if (pieces[0] | pieces[1]) & m != 0 {
                    return Err(err_at("a square is listed twice", at));
                }
                pieces[colour.index()] |= m;
                if king {
                    kings |= m;
                }
            }
            p.skip_ws();
            match p.peek() {
                Some(b',') => {
                    p.pos += 1;
                }
                None | Some(b':') => break,
                Some(c) => {
                    return Err(ParseError::at_char(
                        "expected ',' between squares",
                        base + p.pos,
                        char_at(bytes, p.pos, c),
                    ))
                }
            }
        }
    }
    p.skip_ws();
    if p.pos != bytes.len() {
        return Err(ParseError::at_char(
            "unexpected text after the position",
            base + p.pos,
            char_at(bytes, p.pos, bytes[p.pos]),
        ));
    }
    Draughts::from_bitboards(rules, pieces[0], pieces[1], kings, to_move)
        .map_err(|r| ParseError::new(r, base))
}

impl fmt::Display for Draughts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self.to_move {
            Colour::Black => "B",
            Colour::White => "W",
        })?;
        for (tag, colour) in [("W", Colour::White), ("B", Colour::Black)] {
            write!(f, ":{}", tag)?;
            let mut first = true;
            let mut bb = self.pieces(colour);
            while bb != 0 {
                let sq = bb.trailing_zeros();
                bb &= bb - 1;
                if !first {
                    f.write_char(',')?;
                }
                first = false;
                if self.kings & (1 << sq) != 0 {
                    f.write_char('K')?;
                }
                write!(f, "{}", sq + 1)?;
            }
        }
        Ok(())
    }
}

use core::fmt::Write as _;

impl fmt::Debug for Draughts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Draughts({} {:?}", self, self.rules.variant)?;
        if self.reversible > 0 {
            write!(f, " after king moves")?;
            for &e in &self.history[..self.reversible as usize] {
                let from = e & 31;
                let to = NEIGHBOUR[from as usize][(e >> 5) as usize];
                write!(f, " {}-{}", from + 1, to + 1)?;
            }
        }
        f.write_char(')')
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::perft::perft;

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

    #[test]
    fn move_is_twelve_bytes() {
        assert_eq!(core::mem::size_of::<Move>(), 12);
    }

    #[test]
    fn start_perft_small() {
        let g = Draughts::new(Rules::english());
        let expect = [1u64, 7, 49, 302, 1469, 7361, 36768];
        for (d, &n) in expect.iter().enumerate() {
            assert_eq!(perft(&g, d as u32), n);
        }
    }

    /// The capacity argument of [`DraughtsMoves`]: the most captures one landing class
    /// can hold, over every state of its 8 squares with every jump available.
    #[test]
    fn capture_bound_per_class_is_17() {
        // The four classes, by (x mod 2, (x + y) mod 4).
        for class in 0..4u8 {
            let squares: heapless::Vec<u8, 8> = (0..32u8)
                .filter(|&s| {
                    let (x, y) = (square_x(s), square_y(s));
                    (x % 2) * 2 + ((x + y) % 4 == 3) as u8 == class
                })
                .collect();
            assert_eq!(squares.len(), 8);
            for calgary in [false, true] {
                for colour in [Colour::Black, Colour::White] {
                    let mut best = 0;
                    // 4 states per square: empty, blocked, man, king.
                    for code in 0..(1u32 << 16) {
                        let state = |i: usize| (code >> (2 * i)) & 3;
                        let mut empty = 0u32;
                        let mut bad = false;
                        for (i, &s) in squares.iter().enumerate() {
                            match state(i) {
                                0 => empty |= bit(s),
                                2 if colour.crown_row() & bit(s) != 0 => bad = true,
                                _ => {}
                            }
                        }
                        if bad {
                            continue;
                        }
                        let mut total = 0;
                        for (i, &s) in squares.iter().enumerate() {
                            if state(i) >= 2 {
                                let ctx = CaptureCtx {
                                    from: s,
                                    colour,
                                    // Every jumpable square holds an opponent.
                                    opp: !(empty | bit(s)),
                                    empty: empty | bit(s),
                                    calgary,
                                    unique: false,
                                };
                                total += ctx.count(s, state(i) == 3, 0);
                            }
                        }
                        best = best.max(total);
                    }
                    assert_eq!(best, 17, "class {} calgary {} {:?}", class, calgary, colour);
                }
            }
        }
        const { assert!(4 * 17 <= DraughtsMoves::CAPACITY && 48 <= DraughtsMoves::CAPACITY) };
    }
}

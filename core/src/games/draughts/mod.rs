//! English draughts (checkers) on 32-square bitboards: the standard English rules and
//! the Calgary variant of the Calgary checkers assignment (CPSC 449;
//! docs/references.md). docs/games/draughts.md describes both and the engine's
//! evaluation.
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

mod board;
mod capture;
pub mod db;
pub mod eval;
mod evaluation;
mod fen;
mod history;
mod key;
pub mod learned;
mod legality;
mod movegen;
mod mv;
pub mod network;
mod notation;
mod rules;
mod two_plies;

pub use board::{square_at, square_x, square_y, Colour};
pub use eval::DraughtsEval;
pub use evaluation::DraughtsEvaluation;
pub use history::HISTORY_CAPACITY;
pub use learned::LearnedEval;
pub use mv::{DraughtsMoves, Move, MoveSet};
pub use network::{Network, NetworkEval};
pub use notation::CalgaryMove;
pub use rules::{Rules, Variant, MAX_MOVE_LIMIT};

use core::fmt;

use crate::error::ParseError;
use crate::game::{Game, Outcome, Player};
use crate::zobrist;
use board::{bit, BlackSide, Side, WhiteSide, BOTTOM_ROW, TOP_ROW};
use fen::parse_fen;
use history::KingSteps;

/// An English position from its FEN: the draughts modules' unit tests share it.
#[cfg(test)]
pub(crate) fn english_position(fen: &str) -> Draughts {
    parse_fen(Rules::english(), fen).unwrap()
}

static KEYS: [u64; 129] = zobrist::keys(0xd4a9_6875_c0ff_ee01);

/// Key index: colour * 64 + king * 32 + square.
#[inline(always)]
fn piece_key(colour: usize, king: bool, sq: u8) -> u64 {
    // Masked so that the index is in bounds by construction (no check).
    KEYS[(colour & 1) * 64 + if king { 32 } else { 0 } + (sq & 31) as usize]
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
    /// Drawn by a draw rule, the repetition or the move limit (computed when the
    /// position arises: only a king's simple move can make it true).
    drawn: bool,
    /// Plies since the last man move or capture (entries used in `history`).
    reversible: u8,
    hash: u64,
    /// King simple moves since the last irreversible move, oldest first: square index
    /// in bits 0–4, direction in bits 5–6 (no buffer while there are none).
    history: KingSteps,
}

// Every ply of search and perft builds a position: keep an eye on its size (the
// history buffer is most of it, and is written only after a king's simple move).
const _: () = assert!(core::mem::size_of::<Draughts>() == 160);

impl PartialEq for Draughts {
    fn eq(&self, other: &Self) -> bool {
        self.pieces == other.pieces
            && self.kings == other.kings
            && self.to_move == other.to_move
            && self.rules == other.rules
            && self.drawn == other.drawn
            && self.reversible == other.reversible
            && self.king_steps() == other.king_steps()
    }
}

impl Eq for Draughts {}

impl Draughts {
    /// The start position under `rules`.
    pub const fn new(rules: Rules) -> Self {
        Draughts::from_parts(rules, [0x0000_0FFF, 0xFFF0_0000], 0, rules.first_colour())
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
        Ok(Draughts::from_parts(rules, [black, white], kings, to_move))
    }

    /// The position with these pieces (indexed by `Colour::index`) and no history,
    /// its hash computed.
    const fn from_parts(rules: Rules, pieces: [u32; 2], kings: u32, to_move: Colour) -> Self {
        let mut g = Draughts {
            pieces,
            kings,
            to_move,
            rules,
            drawn: false,
            reversible: 0,
            hash: 0,
            history: KingSteps::None,
        };
        g.hash = g.compute_hash();
        g
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

    /// True if the game is drawn by a draw rule (move limit or repetition).
    #[inline]
    pub fn is_drawn_by_rule(&self) -> bool {
        self.drawn
    }

    /// Plays `mv` for side `S` (the side to move): the body of
    /// [`Game::play_unchecked`].
    #[inline(always)]
    fn play_as<S: Side>(&self, mv: Move) -> Self {
        self.play_hashed::<S, true>(mv)
    }

    /// [`Draughts::play_as`], with the position hash kept up to date only if
    /// `HASH` (without it the new position's hash is stale: for counting its moves;
    /// the draw rules read the king steps, not the hash).
    #[inline(always)]
    fn play_hashed<S: Side, const HASH: bool>(&self, mv: Move) -> Self {
        let from = bit(mv.from);
        let to = bit(mv.to);
        let king = self.kings & from != 0;
        let mut pieces = self.pieces;
        pieces[S::ME] = (pieces[S::ME] & !from) | to;
        let mut hash = self.hash ^ SIDE_KEY;
        let mut kings = self.kings;
        if !king && !mv.crowns() {
            // A man's move that does not crown (most moves): the kings stay.
            if HASH {
                hash ^= piece_key(S::ME, false, mv.from) ^ piece_key(S::ME, false, mv.to);
            }
        } else {
            if HASH {
                hash ^= piece_key(S::ME, king, mv.from) ^ piece_key(S::ME, true, mv.to);
            }
            kings = (kings & !from) | to;
        }
        if mv.is_capture() {
            // The jumped pieces, walked along the path.
            let mut sq = mv.from as usize;
            let mut captured = 0;
            for k in 0..mv.jumps() {
                let d = ((mv.path >> (2 * k)) & 3) as usize;
                let mid = board::NEIGHBOUR[sq & 31][d];
                if HASH {
                    hash ^= piece_key(S::OPP, self.kings & bit(mid) != 0, mid);
                }
                captured |= bit(mid);
                sq = board::JUMP[sq & 31][d] as usize;
            }
            pieces[S::OPP] &= !captured;
            kings &= !captured;
        } else if king {
            return self.after_king_step(pieces, kings, hash, mv);
        }
        // Built as the value returned (in place; a named local would be copied).
        Draughts {
            pieces,
            kings,
            to_move: S::COLOUR.other(),
            rules: self.rules,
            drawn: false,
            reversible: 0,
            hash,
            // An irreversible move starts a new stretch: nothing to carry over.
            history: KingSteps::None,
        }
    }

    /// The assignment's `apply_move`: plays `mv` if it is legal; otherwise the error
    /// holds the unchanged position and says why the move was refused.
    // The refusal carries the unchanged state, as the assignment's `apply_move` does.
    #[allow(clippy::result_large_err)]
    pub fn apply_move(&self, mv: Move) -> Result<Self, crate::IllegalMove<Self>> {
        self.play(mv)
    }
}

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
        Rules::parse(params)
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
        let steps = self.king_steps();
        if steps.is_empty() {
            return self.hash;
        }
        let mut h = steps.len() as u64;
        for &e in steps {
            h = zobrist::mix64(h ^ u64::from(e));
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

    // Inlined into perft's loop and the engine's node on 64-bit hosts; left to the
    // compiler on the Cortex-M4, where inlining it (both colours) into the engine
    // made every searched ply's stack frame half again as large.
    #[cfg_attr(target_pointer_width = "64", inline(always))]
    #[cfg_attr(not(target_pointer_width = "64"), inline)]
    fn play_unchecked(&self, mv: Move) -> Self {
        match self.to_move {
            Colour::Black => self.play_as::<BlackSide>(mv),
            Colour::White => self.play_as::<WhiteSide>(mv),
        }
    }

    // Perft's last two plies call it for every child: on 64-bit hosts it and the
    // count inside it are inlined there (the count alone is left out of line
    // elsewhere), and the child's hash, which counting does not read, is not kept.
    #[cfg_attr(target_pointer_width = "64", inline(always))]
    #[cfg_attr(not(target_pointer_width = "64"), inline)]
    fn count_moves_after(&self, mv: Move) -> u64 {
        match self.to_move {
            Colour::Black => self.play_hashed::<BlackSide, false>(mv).count_moves(),
            Colour::White => self.play_hashed::<WhiteSide, false>(mv).count_moves(),
        }
    }

    #[inline]
    fn count_two_plies(&self) -> u64 {
        self.two_plies()
    }

    // The child's hash is not kept: counting does not read it.
    #[inline]
    fn count_two_plies_after(&self, mv: Move) -> u64 {
        match self.to_move {
            Colour::Black => self.play_hashed::<BlackSide, false>(mv).two_plies(),
            Colour::White => self.play_hashed::<WhiteSide, false>(mv).two_plies(),
        }
    }

    fn check_move(&self, mv: Move) -> Result<(), &'static str> {
        self.check_legality(mv)
    }

    fn parse_move(&self, text: &str) -> Result<Move, ParseError> {
        self.parse_move_text(text)
    }

    fn write_move(&self, mv: Move, out: &mut dyn fmt::Write) -> fmt::Result {
        self.write_move_pdn(mv, out)
    }

    #[inline]
    fn is_quiet(&self) -> bool {
        !self.has_capture()
    }

    #[inline]
    fn history_slot(mv: &Move) -> usize {
        mv.history_slot()
    }

    fn move_order_hint(&self, mv: Move) -> i32 {
        let mut h = 0;
        if mv.is_capture() {
            h += 4 * mv.jumps() as i32 + 2 * (mv.captured() & self.kings).count_ones() as i32;
        }
        if mv.crowns() {
            h += 3;
        }
        h
    }
}

//! Halma on 8×8 (10 pieces a side) and 16×16 (19 pieces a side) bitboards.
//!
//! The references cited here, the Haskell Halma report and the C++ Halma README, are
//! listed in docs/references.md; docs/games/halma.md has the game's notes.
//!
//! # Boards and camps
//! Squares are numbered row by row from the top left: square `r * N + c` is row `r`,
//! column `c` (both from 0). The first player (`x`, [`Player::First`]) starts in the
//! camp at the (0, 0) corner and moves first; the second player (`o`) starts in the
//! point reflection of that camp. Each player's target camp is the other's home.
//! * 8×8 ([`Halma8`], game spec `halma` or `halma:8`): the triangle `r + c ≤ 3`,
//!   10 squares (the Haskell Halma report).
//! * 16×16 ([`Halma16`], game spec `halma:16`): rows of 5, 5, 4, 3, 2 from the corner,
//!   `r + c ≤ 5` without (0, 5) and (5, 0), 19 squares (the C++ Halma README).
//!
//! The 8×8 board is one `u64`; the 16×16 board is the hand-written four-word board
//! [`Bits256`] (see its documentation for the benchmark against `bitvec`); both are
//! the crate's [`bitboard`](crate::bitboard) types.
//!
//! # Moves
//! A move takes one piece either one step to any of the 8 neighbouring empty squares
//! or along a chain of one or more jumps, each over an adjacent piece of either
//! colour onto the empty square directly beyond, in any of the 8 directions; the
//! chain may change direction and stop anywhere. Nothing is captured. A move is the
//! distinct pair (from, to): different chains to the same square are one move, and a
//! chain ending where it started is no move. Jump destinations are computed by a
//! bitboard flood fill ([`jump_targets`]); [`Halma::jump_path`] reconstructs one
//! chain for display.
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
//! (`halma:16:parlett:plies=600`). The defaults are the references' rules plus what
//! is needed for every game to end:
//! * win: a player wins when all its pieces stand in its target camp (the Haskell
//!   Halma report and the C++ Halma README). Option `parlett`: Parlett's
//!   anti-spoiling rule instead — a player wins when every square of its target camp
//!   is occupied and at least one of them by its own piece.
//! * option `no-leave`: a piece standing in its target camp may not move out of it
//!   (a jump chain may pass outside, but must end inside).
//! * draw: the game is drawn once [`DEFAULT_MAX_PLIES`] = 1000 plies (500 moves a
//!   side) have been played without a winner — generous: games between sane players
//!   end long before (the 16×16 games of the C++ Halma README's tournament that end
//!   with a winner take 170–300 plies; the rest are blocked and drawn by the limit).
//!   Option `plies=N` sets the limit (1 ≤ N ≤ 65535).
//! * a player with no legal move passes. Both players can never be stuck at once:
//!   a set of pieces none of which can step must hold every neighbour of each of its
//!   squares, so it fills the whole board, and 20 (38) pieces do not fill 64 (256)
//!   squares. With the draw limit, no game is endless.
//!
//! When both players meet their win condition (only possible in a set-up position),
//! the player who moved last wins.
//!
//! Since the draw limit makes the outcome depend on the plies played, the
//! [search key](Game::search_key) folds in the plies still to play before the limit.
//!
//! # Files
//! `board.rs` (sizes, camps, corners), `movegen.rs` (steps, jump chains, the move
//! generator), `notation.rs` (text in and out), [`eval`] (the evaluations); this file
//! holds the state and the [`Game`] implementation.

mod board;
pub mod eval;
mod key;
mod movegen;
mod notation;

use core::fmt;

pub use self::board::{board_side, camp, manhattan, HalmaBoard};
pub use self::movegen::{
    jump_targets, single_jumps, Halma16Moves, Halma8Moves, HalmaMove, HalmaMoveList,
};
pub use self::notation::{parse_square, write_square};
pub use crate::bitboard::{Bitboard, Bits256, SquareBoard, SquareIter};

use crate::error::ParseError;
use crate::game::{Game, Outcome, Player};
use crate::zobrist;

/// The default draw limit, in plies, for both board sizes.
pub const DEFAULT_MAX_PLIES: u16 = 1000;

/// How a player wins.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum WinRule {
    /// All own pieces stand in the target camp (the rule of the Haskell Halma report
    /// and the C++ Halma README).
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

static KEYS: [u64; 513] = zobrist::keys(0x4a1a_0000_0000_0005);
const SIDE_KEY: u64 = KEYS[512];

/// A Halma position on board `B`: both players' pieces, the side to move, the plies
/// played (for the draw limit), the rules and the incremental hash (which does not
/// include the ply count; [`Game::search_key`] adds the plies left).
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

    /// Plies still to play before the draw limit (0 once it is reached).
    #[inline]
    pub fn plies_left(&self) -> u16 {
        self.rules.max_plies.saturating_sub(self.plies)
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
        notation::parse_rules::<B>(params)
    }

    fn rules(&self) -> HalmaRules {
        self.rules
    }

    fn parse_position(rules: HalmaRules, text: &str) -> Result<Self, ParseError> {
        notation::parse_position(rules, text)
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

    /// The hash with the plies left before the draw limit folded in: the outcome
    /// depends on them (the same board is drawn at the limit and goes on before it),
    /// so a table must not share results between positions that differ in them.
    /// Positions that differ only in plies played and limit, with as many plies
    /// left, have the same future and share the key.
    #[inline]
    fn search_key(&self) -> u64 {
        self.hash ^ zobrist::mix64(u64::from(self.plies_left()))
    }

    fn generate_moves(&self, moves: &mut B::Moves) {
        if self.outcome().is_over() {
            moves.clear();
        } else {
            self.write_moves(moves);
        }
    }

    fn count_moves(&self) -> u64 {
        if self.outcome().is_over() {
            0
        } else {
            self.count_destinations()
        }
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
        self.check_legal(mv)
    }

    fn parse_move(&self, text: &str) -> Result<HalmaMove, ParseError> {
        notation::parse_move(B::SIDE, text)
    }

    fn write_move(&self, mv: HalmaMove, out: &mut dyn fmt::Write) -> fmt::Result {
        notation::write_move(B::SIDE, mv, out)
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

    /// The start board with `plies` played under a `limit`-ply draw limit.
    fn at_ply(plies: u16, limit: u16) -> Halma8 {
        let rules = HalmaRules {
            max_plies: limit,
            ..HalmaRules::default()
        };
        let start = "xxxx..../xxx...../xx....../x......./.......o/......oo/.....ooo/....oooo";
        let mut text: heapless::String<96> = heapless::String::new();
        fmt::write(&mut text, format_args!("{} x {}", start, plies)).unwrap();
        Halma8::parse_position(rules, &text).unwrap()
    }

    #[test]
    fn search_key_tells_apart_positions_the_ply_limit_treats_differently() {
        let (early, late, over) = (at_ply(2, 10), at_ply(9, 10), at_ply(10, 10));
        // One board, one hash: the hash ignores the ply counter.
        assert_eq!(early.hash(), late.hash());
        assert_eq!(early.hash(), over.hash());
        // Their outcomes differ: one move from `late` reaches the limit (a draw),
        // `over` is drawn already, `early` goes on.
        let mv = early.legal_moves()[0];
        assert_eq!(early.play(mv).unwrap().outcome(), Outcome::Ongoing);
        assert_eq!(late.play(mv).unwrap().outcome(), Outcome::Draw);
        assert_eq!(over.outcome(), Outcome::Draw);
        // So their search keys differ.
        assert_ne!(early.search_key(), late.search_key());
        assert_ne!(late.search_key(), over.search_key());
        assert_ne!(early.search_key(), over.search_key());
        // The key follows the plies left: as many plies left under another limit is
        // the same future, and the same key.
        assert_eq!(at_ply(16, 17).search_key(), late.search_key());
        assert_eq!(at_ply(0, 8).search_key(), early.search_key());
        assert_eq!(at_ply(9, 9).search_key(), over.search_key());
    }
}

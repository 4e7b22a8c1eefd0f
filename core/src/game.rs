//! The contract every game implements.
//!
//! A game is its state: a small `Copy` value that knows whose turn it is, which moves
//! are legal and how the game stands. Search algorithms (in [`crate::search`]) only
//! ever talk to this trait, so every algorithm works on every game.

use core::fmt;
use core::ops::DerefMut;

use crate::error::{IllegalMove, ParseError};

/// One of the two players. `First` moves first from the start position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Player {
    /// The player who moves first (X, Black in English draughts, Red in Calgary…).
    First,
    /// The player who moves second.
    Second,
}

impl Player {
    /// The other player.
    #[inline]
    pub const fn opponent(self) -> Player {
        match self {
            Player::First => Player::Second,
            Player::Second => Player::First,
        }
    }

    /// 0 for `First`, 1 for `Second`: an index into per-player arrays.
    #[inline]
    pub const fn index(self) -> usize {
        match self {
            Player::First => 0,
            Player::Second => 1,
        }
    }
}

/// How a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Outcome {
    /// The game goes on: the side to move has at least one legal move.
    Ongoing,
    /// The game is over and this player won.
    Win(Player),
    /// The game is over and drawn.
    Draw,
}

impl Outcome {
    /// True once the game is over.
    #[inline]
    pub const fn is_over(self) -> bool {
        !matches!(self, Outcome::Ongoing)
    }

    /// +1 if `player` won, -1 if it lost, 0 for a draw; `None` while ongoing.
    pub const fn sign_for(self, player: Player) -> Option<i32> {
        match self {
            Outcome::Ongoing => None,
            Outcome::Draw => Some(0),
            Outcome::Win(w) => {
                if w as u8 == player as u8 {
                    Some(1)
                } else {
                    Some(-1)
                }
            }
        }
    }
}

/// A two-player, perfect-information board game.
///
/// Implementors are the game *state*. The laws the tests check for every game:
/// * `generate_moves` yields no move exactly when `outcome()` is not `Ongoing`
///   (a game whose player may have to pass yields an explicit pass move);
/// * every generated move is accepted by `play` and `play_unchecked` gives the same
///   state as `play` for it;
/// * `hash()` depends on the position alone: it equals the hash of the same position
///   parsed from its text;
/// * `Display` prints the position text that `parse_position` reads back.
pub trait Game: Copy + Eq + fmt::Debug + fmt::Display + Sized {
    /// A move: a small `Copy` value (each game asserts its size in a test).
    type Move: Copy + Eq + core::hash::Hash + fmt::Debug;
    /// The fixed-capacity list legal moves are written into. Its capacity is the
    /// game's proven bound on the number of legal moves in a reachable position.
    type MoveList: Default + DerefMut<Target = [Self::Move]>;
    /// The rule set and size parameters (board size, variant); `()` if none.
    type Rules: Copy + Eq + fmt::Debug + Default;

    /// The start position under `rules`.
    fn start(rules: Self::Rules) -> Self;

    /// Parses the rule parameters that follow the game name in a game spec
    /// (`"6x4:empty-capture"` in `kalah:6x4:empty-capture`). An empty string gives the
    /// default rules.
    fn parse_rules(params: &str) -> Result<Self::Rules, ParseError>;

    /// The rules this state is played under.
    fn rules(&self) -> Self::Rules;

    /// Parses a position in the game's text form under `rules`.
    fn parse_position(rules: Self::Rules, text: &str) -> Result<Self, ParseError>;

    /// The player whose turn it is.
    fn side_to_move(&self) -> Player;

    /// Whether the game is over, and how.
    fn outcome(&self) -> Outcome;

    /// A 64-bit hash of the position (side to move included): equal positions hash
    /// equally however they were reached. A game may keep it up to date in
    /// `play_unchecked` (Zobrist keys) or compute it on demand (Kalah).
    fn hash(&self) -> u64;

    /// The key under which search results for this state may be shared (the
    /// transposition tables of the engine, the solver and the parallel searches).
    /// Equal keys must mean equal futures: the same legal moves and outcomes down every
    /// line. The default is [`Game::hash`]; a game whose rules look at the history
    /// (repetition rules, move counters) folds that history in, so a table never hands
    /// a result found under one history to another.
    #[inline]
    fn search_key(&self) -> u64 {
        self.hash()
    }

    /// Writes every legal move into `moves` (cleared first).
    fn generate_moves(&self, moves: &mut Self::MoveList);

    /// The legal moves, as a new list.
    #[inline]
    fn legal_moves(&self) -> Self::MoveList {
        let mut moves = Self::MoveList::default();
        self.generate_moves(&mut moves);
        moves
    }

    /// The number of legal moves. Games override this with a faster count (bulk
    /// counting) where they can; perft uses it at its last ply.
    #[inline]
    fn count_moves(&self) -> u64 {
        self.legal_moves().len() as u64
    }

    /// Plays a move known to be legal (one produced by `generate_moves` for this
    /// state) and returns the new state. The fast path of search: it does not check.
    fn play_unchecked(&self, mv: Self::Move) -> Self;

    /// The number of legal moves after `mv` (legal here):
    /// `self.play_unchecked(mv).count_moves()`, which a game may compute without
    /// the parts of the new state that counting does not read (a hash). Perft
    /// counts its last two plies with it.
    #[inline]
    fn count_moves_after(&self, mv: Self::Move) -> u64 {
        self.play_unchecked(mv).count_moves()
    }

    /// The number of move paths two plies long: the sum of
    /// [`Game::count_moves_after`] over the legal moves, which a game may count
    /// without making every child. Perft counts its last two plies with it.
    #[inline]
    fn count_two_plies(&self) -> u64 {
        let mut moves = Self::MoveList::default();
        self.generate_moves(&mut moves);
        moves.iter().map(|&mv| self.count_moves_after(mv)).sum()
    }

    /// [`Game::count_two_plies`] after `mv` (legal here):
    /// `self.play_unchecked(mv).count_two_plies()`, which a game may compute
    /// without the parts of the new state that counting does not read. Perft counts
    /// its last three plies with it.
    #[inline]
    fn count_two_plies_after(&self, mv: Self::Move) -> u64 {
        self.play_unchecked(mv).count_two_plies()
    }

    /// Says why `mv` is not legal here, or `Ok(())` if it is. The default looks the
    /// move up in the legal move list; games override it to give precise reasons.
    fn check_move(&self, mv: Self::Move) -> Result<(), &'static str> {
        if self.outcome().is_over() {
            return Err("the game is over");
        }
        if self.legal_moves().contains(&mv) {
            Ok(())
        } else {
            Err("not a legal move in this position")
        }
    }

    /// Plays `mv` if it is legal; otherwise returns an error holding the unchanged
    /// position and the reason.
    fn play(&self, mv: Self::Move) -> Result<Self, IllegalMove<Self>> {
        match self.check_move(mv) {
            Ok(()) => Ok(self.play_unchecked(mv)),
            Err(reason) => Err(IllegalMove {
                position: *self,
                mv,
                reason,
            }),
        }
    }

    /// Parses a move in the game's notation, resolved against this position (a
    /// parsed move still has to be legal: `play` checks that).
    fn parse_move(&self, text: &str) -> Result<Self::Move, ParseError>;

    /// Writes `mv` in the game's notation.
    fn write_move(&self, mv: Self::Move, out: &mut dyn fmt::Write) -> fmt::Result;

    /// A `Display` wrapper for a move in this position's notation.
    fn display_move(&self, mv: Self::Move) -> MoveDisplay<'_, Self> {
        MoveDisplay { game: self, mv }
    }

    /// False when the position is in the middle of a tactical sequence (a capture is
    /// pending) so that a static evaluation would be misleading; quiescence search
    /// keeps searching such positions. The default: every position is quiet.
    #[inline]
    fn is_quiet(&self) -> bool {
        true
    }

    /// The slot of `mv` in the engine's history table (below
    /// [`HISTORY_SLOTS`](crate::slot::HISTORY_SLOTS)), read for every move
    /// of every node the engine orders. The default hashes the move's `Hash` bytes
    /// ([`history_slot`](crate::slot::history_slot)); a game may give the
    /// same slots faster (from a table built with
    /// [`history_slot_of_bytes`](crate::slot::history_slot_of_bytes)), which
    /// leaves every search exactly as it was.
    #[inline]
    fn history_slot(mv: &Self::Move) -> usize {
        crate::slot::history_slot(mv)
    }

    /// A cheap, game-specific guess of how promising a move is (captures, extra
    /// turns, promotions score higher). Search tries higher hints first, after the
    /// hash move and killer moves. The default: no preference.
    #[inline]
    fn move_order_hint(&self, _mv: Self::Move) -> i32 {
        0
    }
}

/// Displays a move in the notation of the position it is played from.
pub struct MoveDisplay<'a, G: Game> {
    game: &'a G,
    mv: G::Move,
}

impl<G: Game> fmt::Display for MoveDisplay<'_, G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.game.write_move(self.mv, f)
    }
}

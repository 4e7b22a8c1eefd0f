//! The rules a game is played under: the variant, the draw rules, the capture
//! convention, and the option text (`calgary:limit=30`) that names them.

use super::board::Colour;
use super::history::HISTORY_CAPACITY;
use crate::error::ParseError;
use crate::game::Player;

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

    /// True for the Calgary variant.
    #[inline(always)]
    pub(super) const fn is_calgary(&self) -> bool {
        matches!(self.variant, Variant::Calgary)
    }

    /// True for the English rules counting every capture path: the rules of the
    /// fast paths of capture listing and counting.
    #[inline(always)]
    pub(super) const fn english_paths(&self) -> bool {
        matches!(self.variant, Variant::English) && !self.unique_captures
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
        } else if n != 0 && self.is_calgary() {
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

impl Rules {
    /// The rules named by `params` (see [`Game::parse_rules`](crate::Game::parse_rules)
    /// for [`Draughts`](super::Draughts)).
    pub(super) fn parse(params: &str) -> Result<Rules, ParseError> {
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
                    ParseError::new(
                        "repeat= takes the occurrence that draws: 2 to 255, or 0 for never",
                        at,
                    )
                })?;
                rules = rules
                    .with_repetition(n)
                    .map_err(|r| ParseError::new(r, at))?;
            } else if i == 0 {
                return Err(ParseError::new(
                    "unknown variant: expected 'english' or 'calgary' (or limit=N, repeat=N, \
                     unique)",
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
}

//! A draughts evaluation that knows the stage of the game.
//!
//! Every weight is in [`Weights`] (in hundredths of a man), and the two sets ply
//! ships are [`Weights::STANDARD`] and [`Weights::MATERIAL`]. The stage is the
//! number of pieces left: with 24 the game is in its opening, with 6 or fewer in its
//! ending, and the weights that depend on the stage are blended linearly between.
//!
//! * material: men, and kings worth more as the board empties;
//! * advancement of men (little in the opening, more in the ending, where a man on
//!   its way to the crown matters);
//! * the back-rank guard: men still on their own first row keep the opponent from
//!   crowning (opening and middle game only);
//! * the centre: pieces on the four central squares and the ring around them;
//! * mobility: simple moves available to each side;
//! * the ending drive: the side ahead gains for every trade (fewer pieces, same
//!   margin), brings its kings towards the opponent's pieces, and counts the
//!   opponent's kings in a double corner (where they are hardest to trap) against
//!   itself, so search drives them out into the open and traps them.

use super::board::{BOTTOM_ROW, TOP_ROW};
use super::{square_x, square_y, Colour, Draughts};
use crate::game::{Game, Player};
use crate::search::{for_player, Evaluator, Score};

/// The weights of the evaluation, in hundredths of a man.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Weights {
    /// A man.
    pub man: Score,
    /// A king with the board full.
    pub king_opening: Score,
    /// A king in the ending.
    pub king_ending: Score,
    /// Per row a man has advanced, with the board full.
    pub advance_opening: Score,
    /// Per row a man has advanced, in the ending.
    pub advance_ending: Score,
    /// Per man on its own back row (scaled down to 0 in the ending).
    pub back_rank: Score,
    /// Per piece on one of the four centre squares (14, 15, 18, 19).
    pub centre: Score,
    /// Per piece on the ring around the centre (10, 11, 22, 23, 17, 20, 13, 16 … the
    /// squares of rows 3 and 4 and the middle of rows 2 and 5).
    pub near_centre: Score,
    /// Per simple move available (own minus the opponent's).
    pub mobility: Score,
    /// The side ahead in material: per piece gone from the board.
    pub trade_down: Score,
    /// The side ahead in material: per king, minus this times the distance (in king
    /// steps) to the nearest opponent piece.
    pub king_chase: Score,
    /// The side behind in material: per king in a double corner.
    pub double_corner: Score,
}

impl Weights {
    /// The weights ply plays with.
    pub const STANDARD: Weights = Weights {
        man: 100,
        king_opening: 130,
        king_ending: 160,
        advance_opening: 1,
        advance_ending: 6,
        back_rank: 8,
        centre: 6,
        near_centre: 2,
        mobility: 2,
        trade_down: 4,
        king_chase: 3,
        double_corner: 25,
    };

    /// Material only (men 100, kings 150): a baseline for tournaments.
    pub const MATERIAL: Weights = Weights {
        man: 100,
        king_opening: 150,
        king_ending: 150,
        advance_opening: 0,
        advance_ending: 0,
        back_rank: 0,
        centre: 0,
        near_centre: 0,
        mobility: 0,
        trade_down: 0,
        king_chase: 0,
        double_corner: 0,
    };
}

/// The draughts evaluation with its weights.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct DraughtsEval {
    /// The weights.
    pub weights: Weights,
}

impl Default for DraughtsEval {
    fn default() -> Self {
        DraughtsEval::STANDARD
    }
}

impl DraughtsEval {
    /// [`Weights::STANDARD`].
    pub const STANDARD: DraughtsEval = DraughtsEval {
        weights: Weights::STANDARD,
    };
    /// [`Weights::MATERIAL`].
    pub const MATERIAL: DraughtsEval = DraughtsEval {
        weights: Weights::MATERIAL,
    };

    /// The value for White minus the value for Black.
    pub fn white_minus_black(&self, g: &Draughts) -> Score {
        let w = &self.weights;
        let white = g.pieces(Colour::White);
        let black = g.pieces(Colour::Black);
        let kings = g.kings();
        let pieces = (white | black).count_ones() as Score;
        // 256 with a full board, 0 with 6 pieces or fewer.
        let opening = ((pieces - 6).clamp(0, 18) * 256) / 18;
        let blend = |full: Score, ending: Score| ending + ((full - ending) * opening) / 256;

        let king = blend(w.king_opening, w.king_ending);
        let advance = blend(w.advance_opening, w.advance_ending);
        let back = (w.back_rank * opening) / 256;

        let mut score = 0;
        for (colour, sign) in [(Colour::White, 1), (Colour::Black, -1)] {
            let own = g.pieces(colour);
            let men = own & !kings;
            let own_kings = own & kings;
            let mut s = w.man * men.count_ones() as Score + king * own_kings.count_ones() as Score;
            // Rows advanced: White's men start on rows 5-7 and move up.
            let mut m = men;
            while m != 0 {
                let sq = m.trailing_zeros() as u8;
                m &= m - 1;
                let rows = match colour {
                    Colour::White => 7 - square_y(sq) as Score,
                    Colour::Black => square_y(sq) as Score,
                };
                s += advance * rows;
            }
            let back_row = match colour {
                Colour::White => BOTTOM_ROW,
                Colour::Black => TOP_ROW,
            };
            s += back * (men & back_row).count_ones() as Score;
            s += w.centre * (own & CENTRE).count_ones() as Score;
            s += w.near_centre * (own & NEAR_CENTRE).count_ones() as Score;
            s += w.mobility * g.simple_move_count(colour) as Score;
            score += sign * s;
        }

        // The ending drive, from the side ahead.
        if score != 0 && kings != 0 {
            let (strong, weak) = if score > 0 {
                (Colour::White, Colour::Black)
            } else {
                (Colour::Black, Colour::White)
            };
            let sign = if score > 0 { 1 } else { -1 };
            let mut drive = w.trade_down * (24 - pieces);
            let targets = g.pieces(weak);
            let mut k = g.pieces(strong) & kings;
            while k != 0 {
                let sq = k.trailing_zeros() as u8;
                k &= k - 1;
                drive -= w.king_chase * nearest(sq, targets);
            }
            drive -=
                w.double_corner * (g.pieces(weak) & kings & DOUBLE_CORNERS).count_ones() as Score;
            score += sign * drive;
        }
        score
    }
}

/// Squares 14, 15, 18, 19.
const CENTRE: u32 = (1 << 13) | (1 << 14) | (1 << 17) | (1 << 18);
/// Rows 3 and 4 outside the centre, and squares 10, 11, 22, 23.
const NEAR_CENTRE: u32 = ((0xFF << 12) & !CENTRE) | (1 << 9) | (1 << 10) | (1 << 21) | (1 << 22);
/// The double corners: squares 1, 5 and 28, 32.
const DOUBLE_CORNERS: u32 = (1 << 0) | (1 << 4) | (1 << 27) | (1 << 31);

/// King steps from `sq` to the nearest square of `targets` (0 if there is none).
fn nearest(sq: u8, targets: u32) -> Score {
    let (x, y) = (square_x(sq) as Score, square_y(sq) as Score);
    let mut best = 0;
    let mut t = targets;
    while t != 0 {
        let s = t.trailing_zeros() as u8;
        t &= t - 1;
        let d = (square_x(s) as Score - x)
            .abs()
            .max((square_y(s) as Score - y).abs());
        if best == 0 || d < best {
            best = d;
        }
    }
    best
}

/// The value for `me` of a score from White's side (`white_minus_black`): the draughts
/// evaluations are antisymmetric, Black's value being White's negated.
#[inline]
pub(super) fn for_me(g: &Draughts, me: Player, white_minus_black: Score) -> Score {
    let for_mover = match g.colour_to_move() {
        Colour::White => white_minus_black,
        Colour::Black => -white_minus_black,
    };
    for_player(g, me, for_mover)
}

/// Antisymmetric: White's value is Black's negated.
impl Evaluator<Draughts> for DraughtsEval {
    fn evaluate(&self, g: &Draughts, me: Player) -> Score {
        for_me(g, me, self.white_minus_black(g))
    }
}

/// The standard evaluation for the side to move.
pub fn evaluate(g: &Draughts) -> Score {
    DraughtsEval::STANDARD.evaluate(g, g.side_to_move())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::draughts::{english_position as pos, Rules};

    #[test]
    fn start_is_balanced_and_symmetric() {
        let g = Draughts::new(Rules::english());
        assert_eq!(DraughtsEval::STANDARD.white_minus_black(&g), 0);
        // Mirror a position (square n <-> 33 - n, colours swapped): the value flips.
        let a = pos("B:W18,22,25,K30:B1,5,9,K14");
        let b = pos("W:WK19,24,28,32:BK3,8,11,15");
        assert_eq!(
            DraughtsEval::STANDARD.white_minus_black(&a),
            -DraughtsEval::STANDARD.white_minus_black(&b)
        );
        assert_eq!(evaluate(&a), evaluate(&b));
    }

    #[test]
    fn material_and_kings_count() {
        let e = DraughtsEval::STANDARD;
        assert!(e.white_minus_black(&pos("W:W21,22:B1")) > 50);
        assert!(e.white_minus_black(&pos("W:WK21:B1")) > e.white_minus_black(&pos("W:W21:B1")));
        assert_eq!(
            DraughtsEval::MATERIAL.white_minus_black(&pos("W:WK21,22:B1,2")),
            50
        );
    }

    #[test]
    fn stage_changes_the_king_value() {
        let e = DraughtsEval {
            weights: Weights {
                man: 100,
                king_opening: 130,
                king_ending: 160,
                ..Weights::MATERIAL
            },
        };
        // A full board: one White man is a king.
        let full = pos("B:W21-31,K32:B1-12");
        assert_eq!(e.white_minus_black(&full), 30);
        // The ending.
        assert_eq!(e.white_minus_black(&pos("B:WK18:B1")), 60);
        // In between, in between.
        let mid = e.white_minus_black(&pos("B:W21-25,K32:B1-6"));
        assert!(30 < mid && mid < 60, "{}", mid);
    }

    #[test]
    fn side_ahead_prefers_weak_king_out_of_the_double_corner() {
        let e = DraughtsEval::STANDARD;
        let cornered = e.white_minus_black(&pos("W:WK14,K15:BK1"));
        let open = e.white_minus_black(&pos("W:WK14,K15:BK10"));
        assert!(open > cornered, "{} {}", open, cornered);
    }
}

//! A draughts evaluation learned from games: board patterns and a few counts, each
//! with a weight for the opening and one for the ending, fitted by logistic regression
//! to the results of self-play games (the tools in `tools/train/`, docs/games/draughts.md).
//!
//! # Features
//! Every feature is a count for White minus the same count for Black, the Black one
//! read on the board turned half a turn (square `s` ↔ `31 - s`) with the colours
//! swapped, so one weight serves both sides and the value is antisymmetric by
//! construction:
//!
//! * **patterns**: the men on each of nine 4×4 windows of the board (columns 0–3, 2–5,
//!   4–7 × rows 0–3, 2–5, 4–7; eight playable squares each, every square empty, an own
//!   man or an opponent's man: 3⁸ = 6561 configurations a window). Kings count as
//!   empty here; they have their own features;
//! * **king squares**: a weight per square a king stands on;
//! * **material**: men and kings;
//! * **mobility**: the simple moves each side has;
//! * **the move**: a weight for having the move (White to move: +1, Black: −1);
//! * **runaways**: men that no opponent piece can stop from crowning (none in the
//!   cone ahead of them), by the rows they still have to go;
//! * **trading down**: the material lead times the pieces gone from the board;
//! * **advancement**: the rows the men have advanced.
//!
//! A feature's value is its count times a blend of its two weights: the opening one
//! with 24 pieces on the board, the ending one with none, linear in between.
//!
//! # Weights
//! Each feature has an opening and an ending weight, in hundredths of a man (the fit
//! fixes the scale: a value `v` for White predicts White's score
//! `1 / (1 + e^(-v / SCALE))` with [`SCALE`], which puts a man near 100). The weight
//! file ([`WEIGHT_BYTES`]) holds the pattern weights as `i8` (opening ones, then
//! ending ones: 115 KiB, which a 256 KiB microcontroller's flash holds) and the other
//! weights as `i16` little-endian (opening ones, then ending ones);
//! [`read_weight`] and [`write_weight`] are its one reader and writer. The weights ply
//! ships are in `weights.bin` beside this file ([`LearnedEval::SHIPPED`]); another set
//! can be used from memory ([`LearnedEval::from_bytes`]).

use super::{Colour, Draughts};
use crate::game::Player;
use crate::search::{Evaluator, Score};

/// Configurations of one pattern window: 3⁸.
pub const WINDOW_CONFIGS: usize = 6561;
/// Pattern windows.
pub const WINDOWS: usize = 9;
/// First index of the king-square weights.
pub const KING_SQUARES: usize = WINDOWS * WINDOW_CONFIGS;
/// Index of the man weight.
pub const MAN: usize = KING_SQUARES + 32;
/// Index of the king weight.
pub const KING: usize = MAN + 1;
/// Index of the mobility weight (per simple move).
pub const MOBILITY: usize = KING + 1;
/// Index of the weight for having the move.
pub const TEMPO: usize = MOBILITY + 1;
/// First index of the runaway weights: a man whose way to the crown no opponent
/// piece can reach in time (none stands in the cone ahead of it), by the rows it
/// still has to go, 1 to 7.
pub const RUNAWAY: usize = TEMPO + 1;
/// Index of the trade weight: the material lead (men and kings) times the pieces
/// gone from the board, over 8 (a lead counts more as the board empties).
pub const TRADE: usize = RUNAWAY + 7;
/// Index of the advancement weight: the rows the men have advanced, summed.
pub const ADVANCE: usize = TRADE + 1;
/// Features: the weights of one stage.
pub const FEATURES: usize = ADVANCE + 1;
/// The pattern features (stored as `i8`): the first [`KING_SQUARES`].
pub const PATTERN_FEATURES: usize = KING_SQUARES;
/// Bytes of a weight file: two stages of [`PATTERN_FEATURES`] `i8`s, then two stages
/// of the other features as `i16`s.
pub const WEIGHT_BYTES: usize = 2 * PATTERN_FEATURES + 2 * 2 * (FEATURES - PATTERN_FEATURES);
/// The pieces at which the opening weights apply in full.
pub const FULL_BOARD: i32 = 24;
/// The logistic scale of the fit: a value `v` (White's) predicts White's score
/// `1 / (1 + e^(-v / SCALE))`.
pub const SCALE: f64 = 50.0;

/// The weights ply ships.
static SHIPPED: &[u8; WEIGHT_BYTES] = include_bytes!("weights.bin");

/// Where weight `i` of `stage` (0: opening, 1: ending) is in a weight file, and
/// whether it is an `i16` (else an `i8`).
#[inline(always)]
const fn place(stage: usize, i: usize) -> (usize, bool) {
    if i < PATTERN_FEATURES {
        (stage * PATTERN_FEATURES + i, false)
    } else {
        let small = FEATURES - PATTERN_FEATURES;
        (
            2 * PATTERN_FEATURES + 2 * (stage * small + (i - PATTERN_FEATURES)),
            true,
        )
    }
}

/// Weight `i` of `stage` (0: opening, 1: ending) in the weight file `bytes`.
#[inline(always)]
pub fn read_weight(bytes: &[u8; WEIGHT_BYTES], stage: usize, i: usize) -> i32 {
    let (at, wide) = place(stage, i);
    match (wide, bytes.get(at..at + 2)) {
        (true, Some(b)) => i32::from(i16::from_le_bytes([b[0], b[1]])),
        (false, _) => bytes.get(at).map_or(0, |&b| i32::from(b as i8)),
        (true, None) => 0,
    }
}

/// Writes weight `i` of `stage` into the weight file `bytes`, kept within what its
/// place holds (`i8` for a pattern, `i16` otherwise); returns the value written.
pub fn write_weight(bytes: &mut [u8; WEIGHT_BYTES], stage: usize, i: usize, value: i32) -> i32 {
    let (at, wide) = place(stage, i);
    if wide {
        let v = value.clamp(-i32::from(i16::MAX), i32::from(i16::MAX)) as i16;
        bytes[at..at + 2].copy_from_slice(&v.to_le_bytes());
        i32::from(v)
    } else {
        let v = value.clamp(-i32::from(i8::MAX), i32::from(i8::MAX)) as i8;
        bytes[at] = v as u8;
        i32::from(v)
    }
}

/// The bytes of the weights ply ships (`weights.bin`).
pub fn shipped_bytes() -> &'static [u8] {
    SHIPPED
}

/// `CONE[s]`: the squares ahead of a White man on square `s` (towards row 0) from
/// which a piece could reach its way to the crown in time: rows `y' < y` within
/// `y - y'` columns of it.
static CONE: [u32; 32] = cones();

const fn cones() -> [u32; 32] {
    let mut out = [0u32; 32];
    let mut s = 0;
    while s < 32 {
        let (x, y) = (
            super::square_x(s as u8) as i32,
            super::square_y(s as u8) as i32,
        );
        let mut t = 0;
        while t < 32 {
            let (tx, ty) = (
                super::square_x(t as u8) as i32,
                super::square_y(t as u8) as i32,
            );
            let dx = if tx > x { tx - x } else { x - tx };
            if ty < y && dx <= y - ty {
                out[s] |= 1 << t;
            }
            t += 1;
        }
        s += 1;
    }
    out
}

/// The first square's bit shift of each window: 4 × first row + first column pair.
const WINDOW_SHIFT: [u32; WINDOWS] = [0, 1, 2, 8, 9, 10, 16, 17, 18];

/// `TERNARY[b]`: the 8 bits of `b` read as base-3 digits (each 0 or 1).
static TERNARY: [u16; 256] = ternary();

const fn ternary() -> [u16; 256] {
    let mut t = [0u16; 256];
    let mut b = 0;
    while b < 256 {
        let mut v = 0u16;
        let mut k = 0;
        let mut p = 1u16;
        while k < 8 {
            if b & (1 << k) != 0 {
                v += p;
            }
            p *= 3;
            k += 1;
        }
        t[b] = v;
        b += 1;
    }
    t
}

/// The eight squares of a window, gathered into a byte: `bits >> shift` holds the
/// window's two squares of each of its four rows at bits 0–1, 4–5, 8–9, 12–13.
#[inline(always)]
fn gather(bits: u32, shift: u32) -> usize {
    let x = (bits >> shift) & 0x3333;
    let x = (x | (x >> 2)) & 0x0F0F;
    ((x | (x >> 4)) & 0xFF) as usize
}

/// Calls `f(feature, count)` for every feature of `g` whose count is not zero, White's
/// counts positive and Black's negative (see the module documentation). The
/// evaluation and the fit read the position through this one function.
#[inline(always)]
pub fn for_each_feature(g: &Draughts, mut f: impl FnMut(usize, i32)) {
    let kings = g.kings();
    let white = g.pieces(Colour::White);
    let black = g.pieces(Colour::Black);
    let (wm, bm) = (white & !kings, black & !kings);
    // Black's view: the board turned half a turn, colours swapped.
    let (bm_r, wm_r) = (bm.reverse_bits(), wm.reverse_bits());
    for (w, &shift) in WINDOW_SHIFT.iter().enumerate() {
        let base = w * WINDOW_CONFIGS;
        let own = TERNARY[gather(wm, shift)] as usize;
        let opp = TERNARY[gather(bm, shift)] as usize;
        f(base + own + 2 * opp, 1);
        let own = TERNARY[gather(bm_r, shift)] as usize;
        let opp = TERNARY[gather(wm_r, shift)] as usize;
        f(base + own + 2 * opp, -1);
    }
    let mut k = white & kings;
    while k != 0 {
        f(KING_SQUARES + k.trailing_zeros() as usize, 1);
        k &= k - 1;
    }
    let mut k = (black & kings).reverse_bits();
    while k != 0 {
        f(KING_SQUARES + k.trailing_zeros() as usize, -1);
        k &= k - 1;
    }
    // Runaways and advancement, White's on the board as it is and Black's on the
    // board turned (where Black's men move up as White's do).
    let white_r = white.reverse_bits();
    for (men, opponents, sign) in [(wm, black, 1), (bm_r, white_r, -1)] {
        let mut m = men;
        let mut advance = 0;
        while m != 0 {
            let sq = m.trailing_zeros() as usize;
            m &= m - 1;
            let rows = sq / 4;
            advance += 7 - rows as i32;
            if rows >= 1 && CONE[sq] & opponents == 0 {
                f(RUNAWAY + rows - 1, sign);
            }
        }
        if advance != 0 {
            f(ADVANCE, sign * advance);
        }
    }
    let men = wm.count_ones() as i32 - bm.count_ones() as i32;
    if men != 0 {
        f(MAN, men);
    }
    let kings = (white & kings).count_ones() as i32 - (black & kings).count_ones() as i32;
    if kings != 0 {
        f(KING, kings);
    }
    let lead = men + kings;
    let pieces = (white | black).count_ones() as i32;
    let trade = lead * (FULL_BOARD - pieces.min(FULL_BOARD)) / 8;
    if trade != 0 {
        f(TRADE, trade);
    }
    let mobility =
        g.simple_move_count(Colour::White) as i32 - g.simple_move_count(Colour::Black) as i32;
    if mobility != 0 {
        f(MOBILITY, mobility);
    }
    f(
        TEMPO,
        match g.colour_to_move() {
            Colour::White => 1,
            Colour::Black => -1,
        },
    );
}

/// The opening share of `g`'s stage, out of [`FULL_BOARD`]: the pieces on the board,
/// at most [`FULL_BOARD`].
#[inline]
pub fn opening_share(g: &Draughts) -> i32 {
    ((g.pieces(Colour::White) | g.pieces(Colour::Black)).count_ones() as i32).min(FULL_BOARD)
}

/// The learned draughts evaluation over a set of weights.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LearnedEval<'w> {
    weights: &'w [u8; WEIGHT_BYTES],
}

#[cfg(feature = "defmt")]
impl defmt::Format for LearnedEval<'_> {
    fn format(&self, f: defmt::Formatter) {
        defmt::write!(f, "LearnedEval")
    }
}

impl LearnedEval<'static> {
    /// The weights ply ships (`weights.bin`).
    pub const SHIPPED: LearnedEval<'static> = LearnedEval { weights: SHIPPED };
}

impl<'w> LearnedEval<'w> {
    /// The evaluation over `bytes`, a weight file (see the module documentation);
    /// `None` if it is not [`WEIGHT_BYTES`] long.
    pub fn from_bytes(bytes: &'w [u8]) -> Option<Self> {
        Some(LearnedEval {
            weights: bytes.try_into().ok()?,
        })
    }

    /// Weight `i` of the opening (`stage` 0) or the ending (`stage` 1).
    #[inline(always)]
    fn weight(&self, stage: usize, i: usize) -> i32 {
        read_weight(self.weights, stage, i)
    }

    /// The value for White minus the value for Black.
    pub fn white_minus_black(&self, g: &Draughts) -> Score {
        let (mut open, mut end) = (0i32, 0i32);
        for_each_feature(g, |i, c| {
            open += c * self.weight(0, i);
            end += c * self.weight(1, i);
        });
        let share = opening_share(g);
        (open * share + end * (FULL_BOARD - share)) / FULL_BOARD
    }
}

/// Antisymmetric: White's value is Black's negated.
impl Evaluator<Draughts> for LearnedEval<'_> {
    #[inline]
    fn evaluate(&self, g: &Draughts, me: Player) -> Score {
        super::eval::for_me(g, me, self.white_minus_black(g))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::games::draughts::english_position as pos;

    #[test]
    fn every_weight_has_a_place_of_its_own() {
        let mut bytes = [0u8; WEIGHT_BYTES];
        for stage in 0..2 {
            for i in 0..FEATURES {
                let v = (i as i32 * 7 + stage as i32 * 3) % 200 - 100;
                assert_eq!(write_weight(&mut bytes, stage, i, v), v);
            }
        }
        for stage in 0..2 {
            for i in 0..FEATURES {
                let v = (i as i32 * 7 + stage as i32 * 3) % 200 - 100;
                assert_eq!(read_weight(&bytes, stage, i), v, "{} {}", stage, i);
            }
        }
        // Patterns hold an i8, the rest an i16.
        assert_eq!(write_weight(&mut bytes, 1, 5, 300), 127);
        assert_eq!(write_weight(&mut bytes, 0, 4, -300), -127);
        assert_eq!(write_weight(&mut bytes, 1, MAN, 40_000), 32767);
        assert_eq!(read_weight(&bytes, 1, MAN), 32767);
    }

    #[test]
    fn runaways_are_men_with_no_opponent_ahead_within_reach() {
        let count = |fen: &str, feature: usize| {
            let mut n = 0;
            for_each_feature(&pos(fen), |i, c| {
                if i == feature {
                    n += c;
                }
            });
            n
        };
        // A White man on 14 (row 3) with Black's only piece behind it: free, 3 rows.
        assert_eq!(count("W:W14:B26", RUNAWAY + 2), 1);
        // A Black man on 5 in its cone (row 1, one column over): stopped.
        assert_eq!(count("W:W14:B5", RUNAWAY + 2), 0);
        // A Black man free on 19 (row 4: 3 rows from row 7 on the turned board).
        assert_eq!(count("W:W29:B19", RUNAWAY + 2), -1);
        // ... but not with a White man within reach of its way (32: one column off).
        assert_eq!(count("W:W32:B19", RUNAWAY + 2), 0);
        // The cone of square 14 (x 2, y 3): rows 0-2 within reach, not beyond.
        assert_eq!(CONE[13] & (1 << 8), 1 << 8); // square 9: (1, 2)
        assert_eq!(CONE[13] & (1 << 3), 0); // square 4: (7, 0), five columns away
    }

    #[test]
    fn windows_cover_every_square_and_gather_their_eight() {
        let mut covered = 0u32;
        for &shift in &WINDOW_SHIFT {
            let mut squares = 0u32;
            for sq in 0..32 {
                if gather(1 << sq, shift) != 0 {
                    squares |= 1 << sq;
                }
            }
            assert_eq!(squares.count_ones(), 8, "window at {}", shift);
            assert_eq!(gather(squares, shift), 0xFF);
            covered |= squares;
        }
        assert_eq!(covered, u32::MAX);
    }

    #[test]
    fn the_shipped_weights_are_antisymmetric_and_balanced_at_the_start() {
        let e = LearnedEval::SHIPPED;
        // Square n <-> 33 - n with the colours swapped and the other side to move.
        let a = pos("B:W18,22,25,K30:B1,5,9,K14");
        let b = pos("W:WK19,24,28,32:BK3,8,11,15");
        assert_eq!(e.white_minus_black(&a), -e.white_minus_black(&b));
        assert_eq!(
            e.evaluate(&a, a.side_to_move()),
            e.evaluate(&b, b.side_to_move())
        );
        // The start with White to move mirrors the start with Black to move.
        let s = pos("B:W21-32:B1-12");
        let t = pos("W:W21-32:B1-12");
        assert_eq!(e.white_minus_black(&s), -e.white_minus_black(&t));
    }

    #[test]
    fn a_man_more_is_better() {
        let e = LearnedEval::SHIPPED;
        assert!(e.white_minus_black(&pos("B:W21-32:B1-11")) > 50);
        assert!(e.white_minus_black(&pos("B:W22-32:B1-12")) < -50);
        assert!(e.white_minus_black(&pos("W:WK10,K15:BK30")) > 50);
    }

    #[test]
    fn other_weights_are_read_from_memory() {
        let mut bytes = [0u8; WEIGHT_BYTES];
        assert!(LearnedEval::from_bytes(&bytes[1..]).is_none());
        // Only the man weight, 100 in the opening and 200 in the ending.
        assert_eq!(write_weight(&mut bytes, 0, MAN, 100), 100);
        assert_eq!(write_weight(&mut bytes, 1, MAN, 200), 200);
        let e = LearnedEval::from_bytes(&bytes).unwrap();
        // 23 pieces: the opening weight 23/24, the ending one 1/24.
        assert_eq!(
            e.white_minus_black(&pos("B:W21-32:B1-11")),
            (100 * 23 + 200) / 24
        );
        // Three pieces: the ending weight, blended 3/24 with the opening one.
        assert_eq!(
            e.white_minus_black(&pos("B:W21,22:B1")),
            (100 * 3 + 200 * 21) / 24
        );
    }
}

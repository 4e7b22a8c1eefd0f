//! Halma evaluations: the Manhattan distance of the Haskell Halma report
//! (docs/references.md), the heuristics h1–h4 and strategies s1–s8 of the C++ Halma
//! README (docs/references.md), and ply's own [`Racer`].
//!
//! # The C++ Halma README's strategies in fixed point
//! The C++ Halma README weights its heuristics with floats (`1.1`). Every weight it
//! uses is a multiple of 0.1, so ply keeps weights in **tenths** ([`Weights`] holds
//! `10 × m`) and the strategy value is exactly `10 ×` the README's float value, with
//! no rounding: the search makes the same choices. Explicit weights accept one decimal and a
//! magnitude of at most 10 (so no heuristic value comes near a win score).

use core::fmt;

use super::{manhattan, Halma, HalmaBoard};
use crate::error::ParseError;
use crate::game::Player;
use crate::search::{Evaluator, Recommended, Score};

/// Σ over `player`'s pieces of the Manhattan distance to `corner`.
fn distance_sum<B: HalmaBoard>(pieces: B, corner: usize) -> i32 {
    pieces
        .squares()
        .map(|sq| manhattan(B::SIDE, sq, corner) as i32)
        .sum()
}

/// The Haskell Halma report's evaluation: the opponent's total Manhattan distance to
/// its goal corner minus the searching player's (the report scores White; this is the
/// same number from the searching player's point of view). Antisymmetric.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Manhattan;

impl<B: HalmaBoard> Evaluator<Halma<B>> for Manhattan {
    fn evaluate(&self, g: &Halma<B>, me: Player) -> Score {
        let op = me.opponent();
        distance_sum(g.pieces(op), Halma::<B>::goal_corner(op))
            - distance_sum(g.pieces(me), Halma::<B>::goal_corner(me))
    }
}

/// The C++ Halma README's four heuristics for one player, exactly as its code
/// computes them (see docs/games/halma.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Heuristics {
    /// h1, distance: Σ over own pieces of the Manhattan distance from the own home
    /// corner.
    pub h1: i32,
    /// h2, jump: Σ of the Manhattan distance from the own home corner of the landing
    /// square of every single jump possible along the forward diagonal.
    pub h2: i32,
    /// h3, base: +B for each own piece in the target camp, −B for each still in the
    /// own camp, where B = 2 (N − 1) (30 on 16×16, as in the C++ Halma README; 14 on 8×8).
    pub h3: i32,
    /// h4, opponent distance: Σ over the opponent's pieces of the Manhattan
    /// distance from the opponent's goal corner (its remaining distance).
    pub h4: i32,
    /// The ending stage: at least one own piece stands in the target camp.
    pub ending: bool,
}

impl Heuristics {
    /// The heuristics of `game` for `me`.
    pub fn of<B: HalmaBoard>(game: &Halma<B>, me: Player) -> Self {
        let home = Halma::<B>::home_corner(me);
        let mine = game.pieces(me);
        let theirs = game.pieces(me.opponent());
        let occ = game.occupied();
        let forward = |b: B| match me {
            Player::First => b.south_east(),
            Player::Second => b.north_west(),
        };
        let landings = forward(forward(mine) & occ) & !occ;
        let bonus = 2 * (B::SIDE as i32 - 1);
        let target = Halma::<B>::target(me);
        let home_camp = Halma::<B>::camp(me);
        Heuristics {
            h1: distance_sum(mine, home),
            h2: distance_sum(landings, home),
            h3: bonus * ((mine & target).count() as i32 - (mine & home_camp).count() as i32),
            // The opponent's goal corner is my home corner.
            h4: distance_sum(theirs, home),
            ending: !(mine & target).is_empty(),
        }
    }
}

/// A strategy's multipliers (m1, m2, m3, m4) in tenths: `[10, 11, 0, 0]` is the C++
/// Halma README's (1, 1.1, 0, 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Weights(pub [i32; 4]);

/// The C++ Halma README's eight strategies, s1 to s8, in tenths.
pub const STRATEGIES: [(&str, Weights); 8] = [
    ("s1", Weights([10, 0, 0, 0])),
    ("s2", Weights([10, 11, 0, 0])),
    ("s3", Weights([10, 0, 10, 0])),
    ("s4", Weights([10, 11, 10, 0])),
    ("s5", Weights([10, 0, 0, 10])),
    ("s6", Weights([10, 0, 0, 20])),
    ("s7", Weights([10, 11, 0, 10])),
    ("s8", Weights([10, 11, 10, 10])),
];

impl Weights {
    /// A strategy by name (`s1`…`s8`) or explicit weights `m1,m2,m3,m4` (decimals
    /// with at most one digit after the point, |m| ≤ 10): `1,1.1,0,1`.
    pub fn parse(text: &str) -> Result<Weights, ParseError> {
        let t = text.trim();
        if let Some((_, w)) = STRATEGIES.iter().find(|(n, _)| n.eq_ignore_ascii_case(t)) {
            return Ok(*w);
        }
        let mut out = [0i32; 4];
        let mut count = 0;
        let mut offset = text.len() - text.trim_start().len();
        for part in t.split(',') {
            if count == 4 {
                return Err(ParseError::new(
                    "exactly four weights m1,m2,m3,m4 (or a name s1 to s8)",
                    offset,
                ));
            }
            out[count] = parse_tenths(part.trim(), offset)?;
            count += 1;
            offset += part.len() + 1;
        }
        if count != 4 {
            return Err(ParseError::new(
                "exactly four weights m1,m2,m3,m4 (or a name s1 to s8)",
                text.len(),
            ));
        }
        Ok(Weights(out))
    }

    /// The strategy value of `game` for `me`, in tenths: m1·h1 + m2·h2 +
    /// m3·h3 + m4·h4, or 2·m1·h1 + m3·h3 + m4·h4 in the ending stage when m2 ≠ 0.
    pub fn value<B: HalmaBoard>(&self, game: &Halma<B>, me: Player) -> i32 {
        let h = Heuristics::of(game, me);
        let [m1, m2, m3, m4] = self.0;
        if h.ending && m2 != 0 {
            2 * m1 * h.h1 + m3 * h.h3 + m4 * h.h4
        } else {
            m1 * h.h1 + m2 * h.h2 + m3 * h.h3 + m4 * h.h4
        }
    }

    /// The name `s1`…`s8` if these are one of the C++ Halma README's strategies.
    pub fn name(&self) -> Option<&'static str> {
        STRATEGIES.iter().find(|(_, w)| w == self).map(|(n, _)| *n)
    }
}

impl fmt::Display for Weights {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, m) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            let sign = if *m < 0 { "-" } else { "" };
            let a = m.unsigned_abs();
            if a % 10 == 0 {
                write!(f, "{}{}", sign, a / 10)?;
            } else {
                write!(f, "{}{}.{}", sign, a / 10, a % 10)?;
            }
        }
        Ok(())
    }
}

fn parse_tenths(s: &str, offset: usize) -> Result<i32, ParseError> {
    const WHAT: &str = "a weight is a number like 1, 0.5 or -2.5 (one decimal, at most 10)";
    let (neg, body) = match s.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, s),
    };
    let (int, frac) = match body.split_once('.') {
        Some((i, f)) => (i, f),
        None => (body, ""),
    };
    if int.is_empty() && frac.is_empty() {
        return Err(ParseError::new(WHAT, offset));
    }
    if frac.len() > 1 {
        return Err(ParseError::new(WHAT, offset));
    }
    let mut v: i32 = 0;
    for (i, c) in int.chars().chain(frac.chars()).enumerate() {
        match c.to_digit(10) {
            Some(d) if v <= 1000 => v = v * 10 + d as i32,
            _ => return Err(ParseError::at_char(WHAT, offset + i, c)),
        }
    }
    if frac.is_empty() {
        v *= 10;
    }
    if v > 100 {
        return Err(ParseError::new(WHAT, offset));
    }
    Ok(if neg { -v } else { v })
}

/// A strategy as an evaluation: positions are valued for the searching player, as in
/// the C++ Halma README, whose minimax always maximises its own player's heuristic.
/// Not antisymmetric (the opponent's own progress is not counted); the search
/// supplies the player, so every entry point values the same positions alike.
impl<B: HalmaBoard> Evaluator<Halma<B>> for Weights {
    fn evaluate(&self, g: &Halma<B>, me: Player) -> Score {
        self.value(g, me)
    }
}

/// The C++ Halma README's "advantage" of a winner: Σ over the loser's pieces outside the loser's
/// target camp of their Manhattan distance to the loser's goal corner.
pub fn advantage<B: HalmaBoard>(game: &Halma<B>, loser: Player) -> i32 {
    let outside = game.pieces(loser) & !Halma::<B>::target(loser);
    distance_sum(outside, Halma::<B>::goal_corner(loser))
}

/// ply's own evaluation: the side to move's race against the opponent's. The
/// value is `opponent` × the opponent's Manhattan distance still to go (its pieces
/// outside its target camp) minus the side to move's cost, and a side's cost adds,
/// per piece outside its target camp:
/// * `progress` × its Manhattan distance to the goal corner (as in both references);
/// * `steps` × its king-move (Chebyshev) distance to the nearest empty square of
///   the target camp — the number of steps still needed, which keeps falling until
///   the piece is in, so the last pieces never wander on a plateau at the camp's
///   edge the way the C++ Halma README's heuristics' pieces do;
/// * `drift` × its sideways drift |r − c| from the main diagonal;
/// * `home` if it is still in its own home camp (late leavers lose races);
///
/// plus `straggler` × the largest of those king-move distances (the last piece
/// decides when the race ends), per piece already in the target camp its Manhattan
/// distance to the goal corner (pieces move deep and free the entrance), and
/// `squatter` per opponent piece still in the target camp (ten times that when it
/// is boxed in: under the references' win rule a piece that can never leave spoils the
/// win, so ply must not trap it).
///
/// The opponent's term is its progress only: rewarding the occupation of the
/// opponent's free camp squares made ply a spoiler. The weights
/// ([`Racer::DEFAULT`]) were tuned by hand on 16×16 at depth 2, from the start
/// position, against s1–s8 (README, section Halma, has the tournament).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Racer {
    /// Weight of the Manhattan distance to the goal corner.
    pub progress: i32,
    /// Weight of the king-move distance to the nearest empty target square.
    pub steps: i32,
    /// Weight of the sideways drift.
    pub drift: i32,
    /// Cost of a piece still at home.
    pub home: i32,
    /// Weight of the largest king-move distance.
    pub straggler: i32,
    /// Weight of the opponent's Manhattan distance still to go (its progress
    /// only: ply does not reward blocking camp squares, which leads to spoiling).
    pub opponent: i32,
    /// Cost of each opponent piece still in the own target camp, and ten times
    /// that if it cannot move at all: own pieces must not box it in, since under
    /// the references' win rule a piece that never leaves spoils the win.
    pub squatter: i32,
}

impl Default for Racer {
    fn default() -> Self {
        Racer::DEFAULT
    }
}

impl Racer {
    /// The tuned weights.
    pub const DEFAULT: Racer = Racer {
        progress: 3,
        steps: 4,
        drift: 2,
        home: 20,
        straggler: 6,
        opponent: 4,
        squatter: 20,
    };

    /// The cost of `side`'s placement: lower is better.
    pub fn cost<B: HalmaBoard>(&self, game: &Halma<B>, side: Player) -> i32 {
        let n = B::SIDE;
        let goal = Halma::<B>::goal_corner(side);
        let mine = game.pieces(side);
        let target = Halma::<B>::target(side);
        let home = Halma::<B>::camp(side);
        let mut free = target & !game.occupied();
        if free.is_empty() {
            free = target & !mine;
        }
        let mut cost = 0;
        let mut worst = 0;
        for sq in mine.squares() {
            let md = manhattan(n, sq, goal) as i32;
            if target.has(sq) {
                cost += md;
                continue;
            }
            let (r, c) = (sq / n, sq % n);
            let steps = free
                .squares()
                .map(|t| r.abs_diff(t / n).max(c.abs_diff(t % n)) as i32)
                .min()
                .unwrap_or(0);
            cost += self.progress * md + self.steps * steps + self.drift * r.abs_diff(c) as i32;
            worst = worst.max(steps);
            if home.has(sq) {
                cost += self.home;
            }
        }
        for sq in (game.pieces(side.opponent()) & target).squares() {
            let stuck = (game.step_targets(sq) | game.jump_targets(sq)).is_empty();
            cost += if stuck {
                10 * self.squatter
            } else {
                self.squatter
            };
        }
        cost + self.straggler * worst
    }
}

impl Racer {
    /// The value of `g` for `me`: `opponent` × the opponent's distance still to go
    /// minus `me`'s cost. Not antisymmetric (the opponent's cost is not counted), so
    /// like the C++ Halma README's strategies it values positions for the searching
    /// player.
    pub fn value_for<B: HalmaBoard>(&self, g: &Halma<B>, me: Player) -> i32 {
        let op = me.opponent();
        let op_outside = g.pieces(op) & !Halma::<B>::target(op);
        self.opponent * distance_sum(op_outside, Halma::<B>::goal_corner(op)) - self.cost(g, me)
    }
}

/// [`Racer`] values every position for the searching player, at any depth.
impl<B: HalmaBoard> Evaluator<Halma<B>> for Racer {
    fn evaluate(&self, g: &Halma<B>, me: Player) -> Score {
        self.value_for(g, me)
    }
}

/// [`Racer::DEFAULT`], with the engine's default switches.
impl<B: HalmaBoard> Recommended for Halma<B> {
    type Evaluation = Racer;

    fn evaluation() -> Racer {
        Racer::DEFAULT
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::games::halma::{Halma16, Halma8, HalmaRules};

    #[test]
    fn named_strategies_parse_and_print() {
        assert_eq!(Weights::parse("s7").unwrap(), Weights([10, 11, 0, 10]));
        assert_eq!(
            Weights::parse("1,1.1,0,1").unwrap(),
            Weights([10, 11, 0, 10])
        );
        assert_eq!(Weights::parse("1,1.1,0,1").unwrap().name(), Some("s7"));
        assert_eq!(
            Weights::parse("-2.5, 0,0,0").unwrap(),
            Weights([-25, 0, 0, 0])
        );
        assert_eq!(Weights([10, 11, -25, 0]).to_string_lossy(), "1,1.1,-2.5,0");
        assert!(Weights::parse("1,1.15,0,0").is_err());
        assert!(Weights::parse("1,1,0").is_err());
        assert!(Weights::parse("1,1,0,0,0").is_err());
        assert!(Weights::parse("11,0,0,0").is_err());
        assert!(Weights::parse("s9").is_err());
        assert!(Weights::parse("1,a,0,0").is_err());
    }

    trait Lossy {
        fn to_string_lossy(&self) -> heapless::String<64>;
    }
    impl Lossy for Weights {
        fn to_string_lossy(&self) -> heapless::String<64> {
            let mut s = heapless::String::new();
            fmt::write(&mut s, format_args!("{}", self)).unwrap();
            s
        }
    }

    #[test]
    fn heuristics_at_the_16x16_start() {
        let g = Halma16::default();
        let h = Heuristics::of(&g, Player::First);
        // Camp squares' distances from (0,0): row 0: 0..4, row 1: 1..5, row 2: 2..5,
        // row 3: 3..5, row 4: 4,5.
        let h1 = (1 + 2 + 3 + 4) + (1 + 2 + 3 + 4 + 5) + (2 + 3 + 4 + 5) + (3 + 4 + 5) + (4 + 5);
        assert_eq!(h.h1, h1);
        assert_eq!(h.h3, -30 * 19);
        // The opponent's pieces are at the same distances from its goal corner (0,0)
        // reflected: 30 minus each.
        assert_eq!(h.h4, 19 * 30 - h1);
        assert!(!h.ending);
        // Forward (+1,+1) jumps: a piece at (r,c) jumps over (r+1,c+1) to (r+2,c+2)
        // if that is empty: from (0,3)? (1,4) occupied, (2,5) empty: yes, etc.
        let mut expect = 0;
        for r in 0..16usize {
            for c in 0..16usize {
                let sq = r * 16 + c;
                let on = |r: usize, c: usize| g.piece_at(r * 16 + c);
                if on(r, c) == Some(Player::First)
                    && r + 2 < 16
                    && c + 2 < 16
                    && on(r + 1, c + 1).is_some()
                    && on(r + 2, c + 2).is_none()
                {
                    expect += (r + 2 + c + 2) as i32;
                }
                let _ = sq;
            }
        }
        assert_eq!(h.h2, expect);
        assert!(h.h2 > 0);
        // The second player sees the mirror image.
        let h2 = Heuristics::of(&g, Player::Second);
        assert_eq!((h2.h1, h2.h2, h2.h3, h2.h4), (h.h1, h.h2, h.h3, h.h4));
    }

    #[test]
    fn ending_switch_drops_the_jump_term_and_doubles_distance() {
        // One x piece in o's camp (ending stage), the rest anywhere.
        let text = "x......./......../......../...o..../......../......../......../.......x o";
        let g = Halma8::parse_position(HalmaRules::default(), text).unwrap();
        let h = Heuristics::of(&g, Player::First);
        assert!(h.ending);
        let s2 = Weights([10, 11, 0, 0]);
        assert_eq!(s2.value(&g, Player::First), 2 * 10 * h.h1);
        let s1 = Weights([10, 0, 0, 0]);
        assert_eq!(s1.value(&g, Player::First), 10 * h.h1);
        // h1: (0,0) is 0 from home, (7,7) is 14. h3: +14 for the piece home... the
        // (0,0) piece is in its own camp: -14; the (7,7) piece is in the target: +14.
        assert_eq!(h.h1, 14);
        assert_eq!(h.h3, 0);
    }

    #[test]
    fn strategy_is_from_the_searching_players_view() {
        use crate::search::leaf_value;
        let g = Halma16::default();
        let mv = g.legal_moves()[0];
        let after = g.play_unchecked(mv);
        let s = Weights([10, 0, 0, 0]);
        let v = s.value(&after, Player::First);
        assert_eq!(s.evaluate(&after, Player::First), v);
        // At a leaf with the opponent to move, search sees the negation.
        assert_eq!(leaf_value(&s, &after, Player::First, 1), -v);
        assert_eq!(
            leaf_value(&s, &g, Player::First, 0),
            s.value(&g, Player::First)
        );
        // The two players' views are not each other's negation.
        assert_ne!(
            s.evaluate(&after, Player::Second),
            -s.evaluate(&after, Player::First)
        );
    }

    #[test]
    fn manhattan_is_zero_at_the_symmetric_start_and_rewards_progress() {
        let g = Halma8::default();
        assert_eq!(Manhattan.evaluate(&g, Player::First), 0);
        // After x steps forward, o is behind.
        let mv = g.parse_move("d1-e2").unwrap();
        let after = g.play(mv).unwrap();
        assert_eq!(Manhattan.evaluate(&after, Player::Second), -2);
        assert_eq!(Manhattan.evaluate(&after, Player::First), 2);
    }

    #[test]
    fn advantage_counts_the_losers_pieces_outside_its_target() {
        let text = "x......./......../......../......../......../......../......../o......x x";
        let g = Halma8::parse_position(HalmaRules::default(), text).unwrap();
        // o's goal corner is (0,0); its piece at (7,0) is outside x's camp: 7.
        assert_eq!(advantage(&g, Player::Second), 7);
        // x's piece at (0,0) is 14 from (7,7); the one at (7,7) is home.
        assert_eq!(advantage(&g, Player::First), 14);
    }

    #[test]
    fn racer_is_symmetric_at_the_start_and_rewards_progress() {
        let r = Racer::DEFAULT;
        let g = Halma16::default();
        assert_eq!(r.cost(&g, Player::First), r.cost(&g, Player::Second));
        let o_to_go = distance_sum(
            g.pieces(Player::Second),
            Halma16::goal_corner(Player::Second),
        );
        assert_eq!(
            r.evaluate(&g, Player::First),
            4 * o_to_go - r.cost(&g, Player::First)
        );
        let after = g.play(g.parse_move("e1-f2").unwrap()).unwrap();
        assert!(r.cost(&after, Player::First) < r.cost(&g, Player::First));
    }

    #[test]
    fn racer_counts_the_steps_to_the_nearest_free_target_square() {
        let base = Racer {
            progress: 0,
            steps: 1,
            drift: 0,
            home: 0,
            straggler: 0,
            opponent: 0,
            squatter: 0,
        };
        let text = "......../......../......../......../....x..o/......oo/.....ooo/....oooo x";
        let g = Halma8::parse_position(HalmaRules::default(), text).unwrap();
        // e5 = (4,4). o's camp is full, so the nearest camp square not held by x
        // counts: g6 (5,6) and f7 (6,5) are 2 king moves away.
        assert_eq!(base.cost(&g, Player::First), 2);
        assert_eq!(
            Racer {
                straggler: 1,
                ..base
            }
            .cost(&g, Player::First),
            4
        );
        // A squatter (o on h8, in x's target) boxed in costs ten times a free one.
        let sq = Racer {
            squatter: 1,
            steps: 0,
            ..base
        };
        let boxed = "....o.../......../......../......../......../.....x.x/......xx/.....xxo x";
        let g = Halma8::parse_position(HalmaRules::default(), boxed).unwrap();
        // x's pieces in the camp add their distances to h8: g7 2, h7 1, g8 1, f8 2,
        // h6 2 = 8 (f6 is outside the camp).
        assert_eq!(sq.cost(&g, Player::First), 10 + 8);
        let free = "....o.../......../......../......../......../.....x.x/......xx/......xo x";
        let g = Halma8::parse_position(HalmaRules::default(), free).unwrap();
        // f8 empty: h8 can jump out over g8.
        assert_eq!(sq.cost(&g, Player::First), 1 + 6);
    }
}

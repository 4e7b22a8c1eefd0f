//! Perft's last two plies counted without making the children
//! ([`Game::count_two_plies`](crate::game::Game::count_two_plies)).
//!
//! With men only under the English rules counting every capture path, a child's
//! moves depend on its two bitboards alone, so each child is counted on the
//! bitboards the move leaves ([`english_men_moves`]) instead of as a position made
//! whole. And where neither side could capture, the mover's simple moves change
//! two squares each: the man's square `f` empties and its target `t` fills. The
//! opponent's simple moves after it are its simple moves now, plus its men that
//! step into `f`, less those that stepped into `t`, unless the move gives it a
//! capture, which then is compulsory. A capture can only appear over the man just
//! moved or onto the square it left, so the moves that give one are found with a
//! few shifts of the bitboards and counted one by one; the others are summed by
//! direction with population counts, all of a direction's moves at once.

use super::board::count_pair;
use super::board::{
    family_jumps, jump, jumps_by_direction, step, BlackSide, Colour, Side, WhiteSide, NEIGHBOUR,
};
use super::movegen::{can_jump, english_men_moves, open};
use super::mv::{DraughtsMoves, Move};
use super::Draughts;
use crate::game::Game;

impl Draughts {
    /// The move paths two plies long from here: the sum over the legal moves of
    /// the moves after each.
    #[inline]
    pub(super) fn two_plies(&self) -> u64 {
        if self.is_drawn_by_rule() {
            return 0;
        }
        match self.to_move {
            Colour::Black => self.two_plies_for::<BlackSide, WhiteSide>(),
            Colour::White => self.two_plies_for::<WhiteSide, BlackSide>(),
        }
    }

    /// [`Self::two_plies`] for the side to move `S` against `T`.
    #[cfg_attr(target_pointer_width = "64", inline(always))]
    fn two_plies_for<S: Side, T: Side>(&self) -> u64 {
        let me = self.pieces[S::ME];
        let opp = self.pieces[S::OPP];
        let empty = !(me | opp);
        if self.kings == 0 {
            let english = self.rules.english_paths();
            let (ma, mb) = family_jumps::<S>(opp, empty);
            if me & (ma | mb) == 0 {
                let (oa, ob) = family_jumps::<T>(me, empty);
                if opp & (oa | ob) == 0 {
                    return self.quiet_two_plies::<S, T>(me, opp, empty);
                }
                if english {
                    return u64::from(steps_then_any::<S, T>(me, opp, empty));
                }
            } else if english {
                let (j0, j1) = jumps_by_direction(ma, mb);
                let mut total = 0;
                let mut jumpers = me & (ma | mb);
                while jumpers != 0 {
                    let f = jumpers & jumpers.wrapping_neg();
                    jumpers ^= f;
                    total += jumps_then_any::<S, T>(me ^ f, opp, f, 0, j0, j1);
                }
                return u64::from(total);
            }
        } else if !self.calgary_rule_applies() && self.jumps_of::<S>().jumpers == 0 {
            return self.steps_among_kings::<S, T>(me, opp, empty);
        }
        self.children_made_whole()
    }

    /// [`Self::two_plies`] with kings on the board, no capture for the mover `S`
    /// and the Calgary rule not forbidding any of its king steps: after a man's
    /// step (irreversible: no draw rule and no Calgary rule applies) the
    /// opponent's simple moves are counted on the bitboards unless it could
    /// capture; a king's step, whose child's moves depend on the steps before it,
    /// and the moves that give a capture make their child whole.
    #[cfg_attr(target_pointer_width = "64", inline(always))]
    fn steps_among_kings<S: Side, T: Side>(&self, me: u32, opp: u32, empty: u32) -> u64 {
        let men = me & !self.kings;
        let opp_kings = opp & self.kings;
        let mut total = 0u64;
        for d in [S::F0, S::F1] {
            let mut from = men & open(empty, d);
            while from != 0 {
                let f = from.trailing_zeros() as u8;
                from &= from - 1;
                let t = NEIGHBOUR[f as usize][d];
                total += match simple_moves_unless_capture::<T>(
                    opp,
                    opp_kings,
                    me ^ (1 << f) ^ (1 << t),
                ) {
                    Some(n) => u64::from(n),
                    None => self.count_moves_after(Move::simple(f, t, d, S::CROWN & (1 << t) != 0)),
                };
            }
        }
        let kings = me & self.kings;
        for d in 0..4 {
            let mut from = kings & open(empty, d);
            while from != 0 {
                let f = from.trailing_zeros() as u8;
                from &= from - 1;
                let t = step(1 << f, d).trailing_zeros() as u8;
                total += self.count_moves_after(Move::simple(f, t, d, false));
            }
        }
        total
    }

    /// [`Self::two_plies`] the plain way: every child made (without its hash) and
    /// its moves counted. Kept out of line on the Cortex-M4, where the paths above
    /// already take most of the flash this function needs.
    #[cfg_attr(not(target_pointer_width = "64"), inline(never))]
    fn children_made_whole(&self) -> u64 {
        let mut moves = DraughtsMoves::default();
        self.generate_moves(&mut moves);
        moves.iter().map(|&mv| self.count_moves_after(mv)).sum()
    }

    /// [`Self::two_plies`] when there are no kings and neither side could capture:
    /// `me`, `opp` and `empty` are the mover's men, the opponent's and the empty
    /// squares.
    #[cfg_attr(target_pointer_width = "64", inline(always))]
    fn quiet_two_plies<S: Side, T: Side>(&self, me: u32, opp: u32, empty: u32) -> u64 {
        // The opponent's simple moves now, and the squares its men step into by
        // direction (a square in both sets takes two of its men).
        let base = u64::from(count_pair(opp & T::back4(empty), opp & T::back35(empty)));
        let into0 = step(opp, T::F0);
        let into1 = step(opp, T::F1);
        let english = self.rules.english_paths();
        let mut total = 0u64;
        for (d, other) in [(S::F0, S::F1), (S::F1, S::F0)] {
            // The mover's men that step in direction `d`, and where they land. The
            // opponent's forward directions are `d ^ 3` (straight back along the
            // move) and `other ^ 3` (across it).
            let from = me & step(empty, d ^ 3);
            let to = step(from, d);
            let back = d ^ 3;
            let across = other ^ 3;
            // The moved man can be jumped: by a man just beyond it along the move,
            // which lands on the square it left, or by a man across it with the
            // square behind empty.
            let jumped = to & (step(opp, back) | (step(opp, across) & step(empty, other)));
            // A man across the square left jumps one of the mover's men into it.
            let onto = step(me & step(opp, across), across);
            let captures = from & (step(jumped, back) | onto);
            let quiet = from & !captures;
            let quiet_to = step(quiet, d);
            let opened = count_pair(quiet & into0, quiet & into1);
            let closed = count_pair(quiet_to & into0, quiet_to & into1);
            total += base * u64::from(quiet.count_ones()) + u64::from(opened) - u64::from(closed);
            let mut rest = captures;
            while rest != 0 {
                let f = rest.trailing_zeros() as u8;
                rest &= rest - 1;
                let t = NEIGHBOUR[f as usize][d];
                total += if english {
                    let moved = (1 << f) | (1 << t);
                    u64::from(english_men_moves::<T>(opp, me ^ moved))
                } else {
                    self.count_moves_after(Move::simple(f, t, d, S::CROWN & (1 << t) != 0))
                };
            }
        }
        total
    }
}

/// The simple moves of side `T` with the pieces `mine` (its kings `kings`)
/// against `opp`, ignoring the Calgary rule (no king steps before), or `None` if
/// it could capture.
#[inline(always)]
fn simple_moves_unless_capture<T: Side>(mine: u32, kings: u32, opp: u32) -> Option<u32> {
    let empty = !(mine | opp);
    let (ja, jb) = family_jumps::<T>(opp, empty);
    let (b0, b1) = (T::F0 ^ 3, T::F1 ^ 3);
    let (o0, o1) = (open(empty, b0), open(empty, b1));
    let jumpers = mine & (ja | jb) | kings & (can_jump(opp, o0, b0) | can_jump(opp, o1, b1));
    if jumpers != 0 {
        return None;
    }
    Some(
        count_pair(mine & T::back4(empty), mine & T::back35(empty))
            + count_pair(kings & o0, kings & o1),
    )
}

/// The opponent's moves after each simple move of side `S`'s men `me` (no kings on
/// the board, no capture for `S`), summed: each child counted on its bitboards.
#[cfg_attr(target_pointer_width = "64", inline(always))]
fn steps_then_any<S: Side, T: Side>(me: u32, opp: u32, empty: u32) -> u32 {
    let mut total = 0;
    for d in [S::F0, S::F1] {
        let mut from = me & step(empty, d ^ 3);
        while from != 0 {
            let f = from & from.wrapping_neg();
            from ^= f;
            total += english_men_moves::<T>(opp, me ^ f ^ step(f, d));
        }
    }
    total
}

/// The opponent's moves after each capture path of an English man of side `S`
/// (no kings on the board), summed: the man now on `at` (one bit), the rest of
/// `S`'s men `rest`, the opponent's `opp` with `taken` jumped so far; `j0` and
/// `j1` say where a man can jump from by direction (see
/// [`all_men_paths`](super::capture::all_men_paths)). A man on the crowning row
/// cannot jump forward, so a crowning ends the path.
fn jumps_then_any<S: Side, T: Side>(
    rest: u32,
    opp: u32,
    at: u32,
    taken: u32,
    j0: u32,
    j1: u32,
) -> u32 {
    let (go0, go1) = (at & j0, at & j1);
    if go0 | go1 == 0 {
        return english_men_moves::<T>(opp & !taken, rest | at);
    }
    let mut total = 0;
    if go0 != 0 {
        total +=
            jumps_then_any::<S, T>(rest, opp, jump(at, S::F0), taken | step(at, S::F0), j0, j1);
    }
    if go1 != 0 {
        total +=
            jumps_then_any::<S, T>(rest, opp, jump(at, S::F1), taken | step(at, S::F1), j0, j1);
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::draughts::board::{BOTTOM_ROW, TOP_ROW};
    use crate::games::draughts::Rules;

    /// The sum the fast paths must give: every child made whole and counted.
    fn made_whole(g: &Draughts) -> u64 {
        g.legal_moves()
            .iter()
            .map(|&mv| g.play_unchecked(mv).count_moves())
            .sum()
    }

    /// Which of `two_plies`' paths a position takes: 0 the moves made whole, 1 the
    /// mover's captures, 2 simple moves against a side that could capture, 3 both
    /// sides quiet, 4 steps with kings on the board.
    fn path(g: &Draughts) -> usize {
        if g.kings != 0 {
            if g.has_capture() {
                0
            } else {
                4
            }
        } else if g.has_capture() {
            1
        } else if g.jumpers(g.to_move.other()) != 0 {
            2
        } else {
            3
        }
    }

    /// Keeps at most 12 of the pieces of `b`.
    fn trim(mut b: u32) -> u32 {
        while b.count_ones() > 12 {
            b &= b - 1;
        }
        b
    }

    #[test]
    fn every_path_counts_what_the_children_made_whole_count() {
        // Random positions, sparse to crowded, some with kings, either side to
        // move, under the three capture conventions: each path is taken many times,
        // and on the quiet path many moves give the opponent a capture.
        let rule_sets = [
            Rules::english(),
            Rules::english().with_unique_captures(true),
            Rules::calgary(),
        ];
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut taken = [[0u32; 5]; 3];
        let mut giving_captures = 0;
        for round in 0..4_000 {
            let (a, b) = (next() as u32, next() as u32);
            let fill = [a & b, a, a | b][round % 3];
            let side = next() as u32;
            let black = trim(fill & side & !BOTTOM_ROW);
            let white = trim(fill & !side & !TOP_ROW);
            let kings = if round % 2 == 0 {
                next() as u32 & next() as u32 & (black | white)
            } else {
                0
            };
            let to_move = if next() & 1 == 0 {
                Colour::Black
            } else {
                Colour::White
            };
            for (i, rules) in rule_sets.iter().enumerate() {
                // The position, then a few plies of random moves from it: with kings,
                // a history of king steps that the draw rules and the Calgary rule
                // read.
                let mut g = Draughts::from_bitboards(*rules, black, white, kings, to_move).unwrap();
                for _ in 0..8 {
                    assert_eq!(g.two_plies(), made_whole(&g), "{:?}", g);
                    let p = path(&g);
                    taken[i][p] += 1;
                    let moves = g.legal_moves();
                    if p == 3 {
                        giving_captures += moves
                            .iter()
                            .filter(|&&mv| g.play_unchecked(mv).has_capture())
                            .count();
                    }
                    if moves.is_empty() {
                        break;
                    }
                    g = g.play_unchecked(moves[next() as usize % moves.len()]);
                }
            }
        }
        for (i, t) in taken.iter().enumerate() {
            for (p, &n) in t.iter().enumerate() {
                assert!(n > 500, "rules {} path {} taken {} times", i, p, n);
            }
        }
        assert!(
            giving_captures > 5000,
            "{} moves gave a capture",
            giving_captures
        );
    }
}

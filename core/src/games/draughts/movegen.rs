//! Move generation: the pieces that can capture, the simple moves, and bulk
//! counting; the capture search they call is in `capture.rs`.
//!
//! Everything that runs per node is compiled once per colour ([`Side`]), so every
//! shift and direction is a constant. Simple moves are counted a direction at a
//! time with one population count per pair of directions; captures are searched
//! depth first over single-bit bitboards, once to list them and once, carrying no
//! path, to count them.

use super::board::{
    bit, count_pair, family_jumps, jumps_by_direction, men_jumps, step, BlackSide, Colour, Side,
    WhiteSide, NEIGHBOUR,
};
use super::capture::{all_men_paths, Jumps};
use super::mv::{DraughtsMoves, Move, MoveSet};
use super::Draughts;
use crate::game::Game;

/// The squares whose neighbour in direction `d` is empty (`empty` moved back one
/// step): a piece there may step in direction `d`.
#[inline(always)]
pub(super) const fn open(empty: u32, d: usize) -> u32 {
    step(empty, d ^ 3)
}

/// The squares from which a jump in direction `d` is possible: the neighbour holds
/// an opponent (`opp`) and the square beyond is empty (`open_d` = `open(empty, d)`).
#[inline(always)]
pub(super) const fn can_jump(opp: u32, open_d: u32, d: usize) -> u32 {
    step(opp & open_d, d ^ 3)
}

/// The legal moves of side `S` with the men `me` and no kings, against the pieces
/// `opp`, under the English rules counting every capture path (most positions of
/// perft and of the opening and middle game): the forward steps and jumps by
/// family (see `Side::back4`), and the count chosen without a branch between
/// captures and simple moves (a coin toss in perft, so a branch would be
/// mispredicted half the time).
// Out of line on the Cortex-M4: inlined into each path of perft's last two plies it
// took 5.7 KiB more flash and 10 % more perft ticks there (docs/firmware.md).
#[cfg_attr(target_pointer_width = "64", inline(always))]
#[cfg_attr(not(target_pointer_width = "64"), inline(never))]
pub(super) fn english_men_moves<S: Side>(me: u32, opp: u32) -> u32 {
    let empty = !(me | opp);
    let simple = count_pair(me & S::back4(empty), me & S::back35(empty));
    let (ja, jb) = family_jumps::<S>(opp, empty);
    let (j0, j1) = jumps_by_direction(ja, jb);
    let captures = all_men_paths::<S>(me, j0, j1);
    // All ones when a capture exists (then `captures` is the count).
    let take = 0u32.wrapping_sub(u32::from(me & (ja | jb) != 0));
    (captures & take) | (simple & !take)
}

impl Draughts {
    /// The squares of `colour`'s pieces that can capture (in any direction they may
    /// jump).
    #[inline]
    pub fn jumpers(&self, colour: Colour) -> u32 {
        match colour {
            Colour::Black => self.jumpers_of::<BlackSide>(),
            Colour::White => self.jumpers_of::<WhiteSide>(),
        }
    }

    /// [`Self::jumpers`] of side `S`.
    #[inline(always)]
    fn jumpers_of<S: Side>(&self) -> u32 {
        self.jumps_of::<S>().jumpers
    }

    /// The jumps side `S` has: which squares a man could jump from in each forward
    /// direction, and which of its pieces can jump at all.
    #[inline(always)]
    pub(super) fn jumps_of<S: Side>(&self) -> Jumps {
        let me = self.pieces[S::ME];
        let opp = self.pieces[S::OPP];
        let empty = !(me | opp);
        let (j0, j1) = men_jumps::<S>(opp, empty);
        let mut jumpers = me & (j0 | j1);
        let mk = me & self.kings;
        if mk != 0 {
            let (b0, b1) = (S::F0 ^ 3, S::F1 ^ 3);
            jumpers |=
                mk & (can_jump(opp, open(empty, b0), b0) | can_jump(opp, open(empty, b1), b1));
        }
        Jumps { j0, j1, jumpers }
    }

    /// The number of simple moves `colour` would have, ignoring the Calgary
    /// repetition rule (a mobility measure for evaluation).
    #[inline]
    pub fn simple_move_count(&self, colour: Colour) -> u32 {
        match colour {
            Colour::Black => self.simple_moves_of::<BlackSide>(),
            Colour::White => self.simple_moves_of::<WhiteSide>(),
        }
    }

    /// [`Self::simple_move_count`] of side `S`.
    #[inline(always)]
    fn simple_moves_of<S: Side>(&self) -> u32 {
        let me = self.pieces[S::ME];
        let mk = me & self.kings;
        let empty = self.empty();
        let (b0, b1) = (S::F0 ^ 3, S::F1 ^ 3);
        let mut n = count_pair(me & S::back4(empty), me & S::back35(empty));
        if mk != 0 {
            n += count_pair(mk & open(empty, b0), mk & open(empty, b1));
        }
        n
    }

    /// True if the side to move has a capture.
    #[inline]
    pub fn has_capture(&self) -> bool {
        self.jumpers(self.to_move) != 0
    }

    /// Writes the legal moves ignoring the draw rules; returns true if they are
    /// captures.
    #[inline]
    pub(super) fn generate_all(&self, out: &mut DraughtsMoves) -> bool {
        match self.to_move {
            Colour::Black => self.generate_for::<BlackSide>(out),
            Colour::White => self.generate_for::<WhiteSide>(out),
        }
    }

    /// [`Self::generate_all`] for side `S` (the side to move).
    #[inline(always)]
    fn generate_for<S: Side>(&self, out: &mut DraughtsMoves) -> bool {
        out.clear();
        let jumps = self.jumps_of::<S>();
        if jumps.jumpers != 0 {
            if self.rules.english_paths() {
                self.english_captures::<S>(&jumps, out);
            } else {
                self.captures::<S, DraughtsMoves>(&jumps, jumps.jumpers, out);
            }
            true
        } else {
            self.generate_simple::<S>(out);
            false
        }
    }

    /// Writes the simple moves, direction by direction (up-left, up-right, down-left,
    /// down-right), each in square order.
    #[inline(always)]
    fn generate_simple<S: Side>(&self, out: &mut DraughtsMoves) {
        let me = self.pieces[S::ME];
        let my_kings = me & self.kings;
        let empty = !(me | self.pieces[S::OPP]);
        // Men that crown on arrival: any man one step from the crowning row.
        let crowners = me & !self.kings;
        for d in 0..4 {
            let forward = d == S::F0 || d == S::F1;
            if !forward && my_kings == 0 {
                continue;
            }
            let movers = if forward { me } else { my_kings };
            let mut targets = step(movers, d) & empty;
            let crowning = if forward {
                step(crowners, d) & S::CROWN
            } else {
                0
            };
            while targets != 0 {
                let to = targets.trailing_zeros() as u8;
                targets &= targets - 1;
                let from = NEIGHBOUR[to as usize][d ^ 3];
                out.push(Move::simple(from, to, d, crowning & bit(to) != 0));
            }
        }
        if my_kings != 0 && self.calgary_rule_applies() {
            let f = self.forbidden();
            if !f.pairs().is_empty() {
                out.retain(|m| !(my_kings & bit(m.from) != 0 && f.contains(m.from, m.to)));
            }
        }
    }

    /// The number of legal moves, ignoring the draw rules.
    #[inline]
    pub(super) fn count_all(&self) -> u64 {
        match self.to_move {
            Colour::Black => self.count_for::<BlackSide>(),
            Colour::White => self.count_for::<WhiteSide>(),
        }
    }

    /// [`Self::count_all`] for side `S` (the side to move): the jumpers and the
    /// simple moves from the same shifted bitboards (a piece may step in direction
    /// `d` where `open(empty, d)` holds it, and jump where the opponent's pieces
    /// there are open beyond).
    #[inline(always)]
    fn count_for<S: Side>(&self) -> u64 {
        let me = self.pieces[S::ME];
        if me & self.kings != 0 || !self.rules.english_paths() {
            return self.count_with_kings::<S>();
        }
        u64::from(english_men_moves::<S>(me, self.pieces[S::OPP]))
    }

    /// [`Self::count_for`] when side `S` has kings, or under other rules than the
    /// English counting every path.
    #[inline(never)]
    fn count_with_kings<S: Side>(&self) -> u64 {
        let me = self.pieces[S::ME];
        let opp = self.pieces[S::OPP];
        let empty = !(me | opp);
        let e4 = S::back4(empty);
        let e35 = S::back35(empty);
        let (ja, jb) = family_jumps::<S>(opp, empty);
        let mut jumpers = me & (ja | jb);
        let mk = me & self.kings;
        let (b0, b1) = (S::F0 ^ 3, S::F1 ^ 3);
        let (mut o2, mut o3) = (0, 0);
        if mk != 0 {
            o2 = open(empty, b0);
            o3 = open(empty, b1);
            jumpers |= mk & (can_jump(opp, o2, b0) | can_jump(opp, o3, b1));
        }
        if jumpers != 0 {
            let (j0, j1) = jumps_by_direction(ja, jb);
            if jumpers & mk == 0 && self.rules.english_paths() {
                return u64::from(all_men_paths::<S>(jumpers, j0, j1));
            }
            return self.count_captures::<S>(&Jumps { j0, j1, jumpers });
        }
        let mut n = count_pair(me & e4, me & e35);
        if mk != 0 {
            n += count_pair(mk & o2, mk & o3);
            if self.calgary_rule_applies() {
                n -= self.forbidden_steps(mk, empty);
            }
        }
        u64::from(n)
    }

    /// How many of the simple moves of the kings `kings` (to empty squares `empty`)
    /// the Calgary rule forbids.
    #[cold]
    fn forbidden_steps(&self, kings: u32, empty: u32) -> u32 {
        let f = self.forbidden();
        let mut n = 0;
        for &(from, to) in f.pairs() {
            if kings & bit(from) != 0
                && empty & bit(to) != 0
                && NEIGHBOUR[from as usize].contains(&to)
            {
                n += 1;
            }
        }
        n
    }

    /// True if the side to move has a legal move, the draw rules aside.
    #[inline]
    pub(super) fn has_any_move(&self) -> bool {
        if self.jumpers(self.to_move) != 0 {
            return true;
        }
        if self.calgary_rule_applies() {
            return self.count_all() != 0;
        }
        self.simple_move_count(self.to_move) != 0
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
        let jump = self.generate_all(&mut list);
        // In square order, for people to read (search uses generation order).
        list.sort_unstable_by_key(|m| (m.from, m.to, m.path));
        if jump {
            MoveSet::Jump(list)
        } else {
            MoveSet::Simple(list)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::draughts::board::{JUMP, NONE};
    use crate::games::draughts::capture::{CaptureCtx, Counter};
    use crate::games::draughts::{square_x, square_y, Rules};
    use crate::perft::perft;

    #[test]
    fn start_perft_small() {
        let g = Draughts::new(Rules::english());
        let expect = [1u64, 7, 49, 302, 1469, 7361, 36768];
        for (d, &n) in expect.iter().enumerate() {
            assert_eq!(perft(&g, d as u32), n);
        }
    }

    /// Counts the captures of a piece on `s` (a king if `king`) of `colour`, every
    /// square not in `empty` holding an opponent.
    fn count_from(s: u8, king: bool, colour: Colour, empty: u32, calgary: bool) -> u64 {
        let opp = !(empty | bit(s));
        let e = empty | bit(s);
        let ctx = CaptureCtx {
            from: s,
            empty: e,
            unique: false,
            j0: can_jump(opp, open(e, colour.forward()[0]), colour.forward()[0]),
            j1: can_jump(opp, open(e, colour.forward()[1]), colour.forward()[1]),
        };
        let can_jump = (0..4).any(|d| {
            (king || colour.is_forward(d))
                && JUMP[s as usize][d] != NONE
                && ctx.empty & bit(JUMP[s as usize][d]) != 0
                && opp & bit(NEIGHBOUR[s as usize][d]) != 0
        });
        if !can_jump {
            return 0;
        }
        fn go<S: Side>(ctx: &CaptureCtx, opp: u32, king: bool, calgary: bool) -> u64 {
            let mut c = Counter(0);
            let at = bit(ctx.from);
            if king {
                ctx.king::<S, Counter>(at, opp, (), &mut c);
            } else if calgary {
                ctx.man::<S, Counter, true>(at, opp, (), &mut c);
            } else {
                ctx.man::<S, Counter, false>(at, opp, (), &mut c);
            }
            c.0
        }
        match colour {
            Colour::Black => go::<BlackSide>(&ctx, opp, king, calgary),
            Colour::White => go::<WhiteSide>(&ctx, opp, king, calgary),
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
                                // Every jumpable square holds an opponent.
                                total += count_from(s, state(i) == 3, colour, empty, calgary);
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

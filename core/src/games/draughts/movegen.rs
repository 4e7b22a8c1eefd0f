//! Move generation: the pieces that can capture, the simple moves, the capture
//! search, and bulk counting.

use super::board::{bit, step, Colour, JUMP, NEIGHBOUR, NONE};
use super::mv::{DraughtsMoves, Move, MoveSet};
use super::Draughts;
use crate::game::Game;

impl Draughts {
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
        let movers = if colour.is_forward(d) {
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

    /// Writes the legal moves ignoring the draw rules; returns true if they are
    /// captures.
    pub(super) fn generate_all(&self, out: &mut DraughtsMoves) -> bool {
        out.clear();
        let jumpers = self.jumpers(self.to_move);
        if jumpers != 0 {
            self.captures(jumpers, out);
            true
        } else {
            self.generate_simple(out);
            false
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
        for d in 0..4 {
            let movers = if colour.is_forward(d) { me } else { my_kings };
            let mut targets = step(movers, d) & empty;
            while targets != 0 {
                let to = targets.trailing_zeros() as u8;
                targets &= targets - 1;
                let from = NEIGHBOUR[to as usize][d ^ 3];
                let crowns = self.kings & bit(from) == 0 && crown & bit(to) != 0;
                out.push(Move::simple(from, to, d, crowns));
            }
        }
        if self.calgary_rule_applies() {
            let f = self.forbidden();
            if !f.pairs().is_empty() {
                out.retain(|m| !(my_kings & bit(m.from) != 0 && f.contains(m.from, m.to)));
            }
        }
    }

    /// Runs the capture search from each piece of `jumpers` (the side to move's),
    /// handing every capture to `out`.
    fn captures<S: CaptureSink>(&self, jumpers: u32, out: &mut S) {
        let mut bb = jumpers;
        while bb != 0 {
            let from = bb.trailing_zeros() as u8;
            bb &= bb - 1;
            let ctx = CaptureCtx {
                from,
                colour: self.to_move,
                opp: self.pieces[self.to_move.other().index()],
                empty: self.empty() | bit(from),
                calgary: self.rules.is_calgary(),
                unique: self.rules.unique_captures(),
            };
            let king = self.kings & bit(from) != 0;
            ctx.jump(from, king, 0, S::START, out);
        }
    }

    /// Counts captures without storing them (bulk counting).
    fn count_captures(&self, jumpers: u32) -> u64 {
        if self.rules.unique_captures() {
            // Paths with the same result count once: only the list can tell them apart.
            let mut list = DraughtsMoves::new();
            self.captures(jumpers, &mut list);
            return list.len() as u64;
        }
        let mut counter = Counter(0);
        self.captures(jumpers, &mut counter);
        counter.0
    }

    /// The number of legal moves, ignoring the draw rules.
    #[inline]
    pub(super) fn count_all(&self) -> u64 {
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
        if self.calgary_rule_applies() {
            let f = self.forbidden();
            let kings = self.kings_of(c);
            let empty = self.empty();
            for &(from, to) in f.pairs() {
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
    pub(super) fn has_any_move(&self) -> bool {
        if self.jumpers(self.to_move) != 0 {
            return true;
        }
        if self.calgary_rule_applies() {
            return self.count_all() != 0;
        }
        (0..4).any(|d| self.step_targets(self.to_move, d) != 0)
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

/// What the capture search does with each capture it finds: a move list stores it,
/// a [`Counter`] counts it. One search serves listing and counting, so the two
/// cannot disagree.
trait CaptureSink {
    /// What the search carries along a capture for this sink: the path for a list,
    /// nothing for a count (so counting does no work for it).
    type Trail: Copy;
    /// The trail before the first jump.
    const START: Self::Trail;
    /// The trail after one more jump, in direction `d`, that crowns the man or not.
    fn extend(trail: Self::Trail, d: usize, crowns: bool) -> Self::Trail;
    /// Takes the finished capture by `ctx`'s piece that ends on `to` having taken
    /// `captured`.
    fn take(&mut self, ctx: &CaptureCtx, to: u8, captured: u32, trail: Self::Trail);
}

/// A capture's way so far, for the move list.
#[derive(Clone, Copy)]
struct Trail {
    /// Direction of jump `k` in bits `2k..2k+2`.
    path: u32,
    jumps: u32,
    crowns: bool,
}

impl CaptureSink for DraughtsMoves {
    type Trail = Trail;
    const START: Trail = Trail {
        path: 0,
        jumps: 0,
        crowns: false,
    };

    #[inline(always)]
    fn extend(t: Trail, d: usize, crowns: bool) -> Trail {
        Trail {
            path: t.path | ((d as u32) << (2 * t.jumps)),
            jumps: t.jumps + 1,
            crowns: crowns || t.crowns,
        }
    }

    #[inline]
    fn take(&mut self, ctx: &CaptureCtx, to: u8, captured: u32, t: Trail) {
        let jumps = captured.count_ones();
        let m = Move::capture(ctx.from, to, captured, t.path, jumps, t.crowns);
        if ctx.unique && self.iter().any(|o| o.same_result(&m)) {
            return;
        }
        self.push(m);
    }
}

/// Counts the captures the search finds (bulk counting).
struct Counter(u64);

impl CaptureSink for Counter {
    type Trail = ();
    const START: () = ();

    #[inline(always)]
    fn extend(_: (), _: usize, _: bool) {}

    #[inline(always)]
    fn take(&mut self, _: &CaptureCtx, _: u8, _: u32, _: ()) {
        self.0 += 1;
    }
}

impl CaptureCtx {
    /// Goes on from `sq` (having taken `captured`), handing every finished capture
    /// to `out`: one whose piece cannot jump again, or (English) whose man is crowned.
    fn jump<S: CaptureSink>(
        &self,
        sq: u8,
        king: bool,
        captured: u32,
        trail: S::Trail,
        out: &mut S,
    ) {
        let mut extended = false;
        for d in 0..4 {
            if !king && !self.colour.is_forward(d) {
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
                let t = S::extend(trail, d, true);
                if self.calgary {
                    self.jump(land, true, c, t, out);
                } else {
                    out.take(self, land, c, t);
                }
            } else {
                self.jump(land, king, c, S::extend(trail, d, false), out);
            }
        }
        if !extended && captured != 0 {
            out.take(self, sq, captured, trail);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
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
                                let mut counter = Counter(0);
                                ctx.jump(s, state(i) == 3, 0, (), &mut counter);
                                total += counter.0;
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

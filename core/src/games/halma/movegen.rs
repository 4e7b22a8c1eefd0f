//! Move generation: steps and jump chains (the rules are in the documentation of
//! [`crate::games::halma`]).
//!
//! Jump destinations are computed by a bitboard flood fill: [`single_jumps`] (the
//! shifts of [`SquareBoard`], whose column masks stop them from wrapping across
//! rows) from the newly reached squares until no new landing square appears;
//! [`Halma::jump_path`] reconstructs one chain for display. One generator,
//! `Halma::moves_by_piece`, yields each piece of the side to move with the set of
//! squares it may move to; listing the moves and counting them both read it.
//!
//! The generator fills on the parity classes instead (see [`HalmaBoard`]): a jump
//! never leaves its class, so [`JumpGraph`] computes once per position, for each
//! class and direction, the cells a jump can start from (the square between
//! occupied, the landing square empty and on the board), and a piece's chains are
//! then a flood fill on its class's `u64` — one AND and one shift per direction,
//! with no edge masks, since every masked cell's landing is on the board. The
//! pieces of the moving side and its origin never decide a jump of its own chain
//! (the squares jumped over lie in other classes, and the origin is where the fill
//! starts), so one graph serves every piece. Simple moves are counted for all
//! pieces at once, one shift a direction.

use core::ops::DerefMut;

use super::{Halma, HalmaBoard};

use crate::bitboard::SquareBoard;
use crate::game::Player;
use crate::move_list::MoveList;

/// A Halma move: a piece goes from one square to another. `from == to` is the pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct HalmaMove {
    /// The square the piece leaves.
    pub from: u8,
    /// The square it ends on.
    pub to: u8,
}

impl HalmaMove {
    /// The pass, played only by a player with no other legal move.
    pub const PASS: HalmaMove = HalmaMove { from: 0, to: 0 };

    /// A move of the piece on `from` to `to`.
    pub const fn new(from: u8, to: u8) -> Self {
        HalmaMove { from, to }
    }

    /// True for the pass.
    #[inline]
    pub const fn is_pass(self) -> bool {
        self.from == self.to
    }
}

/// A fixed-capacity list the generic move generator writes Halma moves into: every
/// [`MoveList`] of [`HalmaMove`]s ([`Halma8Moves`], [`Halma16Moves`]).
pub trait HalmaMoveList: Default + DerefMut<Target = [HalmaMove]> {
    /// Appends a move.
    fn push(&mut self, mv: HalmaMove);
    /// Empties the list.
    fn clear(&mut self);
}

impl<const N: usize> HalmaMoveList for MoveList<HalmaMove, N> {
    #[inline]
    fn push(&mut self, mv: HalmaMove) {
        MoveList::push(self, mv)
    }
    #[inline]
    fn clear(&mut self) {
        MoveList::clear(self)
    }
}

/// Legal moves on 8×8: at most 230.
///
/// Proof: a piece has at most 8 step targets (its neighbours). A jump changes each
/// coordinate by an even amount, so every jump target shares both coordinate
/// parities with the origin: it lies in the origin's parity class of (8 / 2)² = 16
/// squares, and is not the origin, so at most 15 jump targets; step targets change a
/// coordinate by one, so the two sets are disjoint. 10 pieces × (8 + 15) = 230. One
/// extra entry is never needed: the pass is generated only into an empty list.
pub type Halma8Moves = MoveList<HalmaMove, 230>;

/// Legal moves on 16×16: at most 19 × (8 + 63) = 1349 (the argument of
/// [`Halma8Moves`] with parity classes of (16 / 2)² = 64 squares).
pub type Halma16Moves = MoveList<HalmaMove, 1349>;

/// The squares reached by one jump from any square of `from`: over an occupied
/// neighbour (`occupied`) onto an empty square beyond (`empty`), in each of the 8
/// directions.
#[inline]
pub fn single_jumps<B: SquareBoard>(from: B, occupied: B, empty: B) -> B {
    let j = |dir: fn(B) -> B| dir(dir(from) & occupied) & empty;
    j(B::east)
        | j(B::west)
        | j(B::south)
        | j(B::north)
        | j(B::south_east)
        | j(B::south_west)
        | j(B::north_east)
        | j(B::north_west)
}

/// Every square a piece on `from` can end a chain of jumps on, by flood fill:
/// `occupied` holds the other pieces (the piece itself must not be in it). Repeats
/// [`single_jumps`] from the newly reached squares until nothing new is reached.
/// The origin is not included.
#[inline]
pub fn jump_targets<B: SquareBoard>(from: usize, occupied: B) -> B {
    let origin = B::square(from);
    let empty = !occupied;
    let mut reached = origin;
    let mut frontier = origin;
    loop {
        let new = single_jumps(frontier, occupied, empty) & !reached;
        if new.is_empty() {
            return reached ^ origin;
        }
        reached = reached | new;
        frontier = new;
    }
}

/// The 8 directions as (row, column) changes.
const DIRECTIONS: [(i32, i32); 8] = [
    (0, 1),
    (0, -1),
    (1, 0),
    (-1, 0),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];

/// Every cell of an `m`×`m` class board (`m` = 4 or 8).
#[inline(always)]
const fn class_cells(m: usize) -> u64 {
    if m == 8 {
        !0
    } else {
        (1 << (m * m)) - 1
    }
}

/// The cells of column `col` of an `m`×`m` class board.
#[inline(always)]
const fn class_column(m: usize, col: usize) -> u64 {
    let mut b = 0;
    let mut r = 0;
    while r < m {
        b |= 1 << (r * m + col);
        r += 1;
    }
    b
}

/// Moves every cell of `x` by `dr` rows and `dc` columns (each −1, 0 or 1) on an
/// `m`×`m` class board, dropping those that leave it.
#[inline(always)]
fn class_shift(x: u64, m: usize, dr: i32, dc: i32) -> u64 {
    let k = dr * m as i32 + dc;
    let y = if k >= 0 { x << k } else { x >> -k };
    let y = match dc {
        1 => y & !class_column(m, 0),
        -1 => y & !class_column(m, m - 1),
        _ => y,
    };
    y & class_cells(m)
}

/// The jumps of a position by parity class: for each class and direction, the
/// cells a jump in that direction can start from (see the module documentation).
pub(super) struct JumpGraph {
    starts: [[u64; 8]; 4],
}

impl JumpGraph {
    /// The graph of the board with the squares `occupied` occupied.
    #[inline]
    pub(super) fn new<B: HalmaBoard>(occupied: B) -> Self {
        let m = B::SIDE / 2;
        let occ = occupied.parity_classes();
        let mut starts = [[0; 8]; 4];
        for (class, starts) in starts.iter_mut().enumerate() {
            let (pr, pc) = ((class >> 1) as i32, (class & 1) as i32);
            let empty = !occ[class] & class_cells(m);
            for (k, &(dr, dc)) in DIRECTIONS.iter().enumerate() {
                // The landing cell (one step on the class board) is empty…
                let lands = class_shift(empty, m, -dr, -dc);
                // …and the square jumped over, of class (pr + dr, pc + dc) mod 2 at
                // the cell offset by the carry of those sums, is occupied.
                let over = (((pr + dr) & 1) * 2 + ((pc + dc) & 1)) as usize;
                let (a, b) = ((pr + dr).div_euclid(2), (pc + dc).div_euclid(2));
                starts[k] = lands & class_shift(occ[over], m, -a, -b);
            }
        }
        JumpGraph { starts }
    }

    /// The cells a piece on `cell` (one bit) of class `class` of an `m`×`m` class
    /// board ends a chain of jumps on, its own cell excluded.
    #[inline]
    pub(super) fn targets(&self, class: usize, cell: u64, m: usize) -> u64 {
        let starts = &self.starts[class & 3];
        let mut reached = cell;
        let mut frontier = cell;
        loop {
            let mut new = 0;
            for (k, &(dr, dc)) in DIRECTIONS.iter().enumerate() {
                let from = frontier & starts[k];
                let shift = dr * m as i32 + dc;
                new |= if shift >= 0 {
                    from << shift
                } else {
                    from >> -shift
                };
            }
            new &= !reached;
            if new == 0 {
                return reached ^ cell;
            }
            reached |= new;
            frontier = new;
        }
    }
}

/// The parity class of square `sq` of an `n`×`n` board and its cell there (one bit).
#[inline(always)]
fn class_of(sq: usize, n: usize) -> (usize, u64) {
    let (r, c) = (sq / n, sq % n);
    ((r & 1) * 2 + (c & 1), 1 << ((r >> 1) * (n / 2) + (c >> 1)))
}

impl<B: HalmaBoard> Halma<B> {
    /// Every square the piece on `from` can move to (steps and jumps), with the
    /// rules' restrictions; empty if `from` holds no piece of the side to move.
    pub fn destinations(&self, from: usize) -> B {
        let me = self.pieces[self.stm.index()];
        if from >= B::SIDE * B::SIDE || !me.has(from) {
            return B::EMPTY;
        }
        self.raw_destinations(from, self.stm)
    }

    /// The step targets of the piece on `from` (no rule restrictions).
    pub fn step_targets(&self, from: usize) -> B {
        B::square(from).neighbours() & !self.occupied()
    }

    /// The jump-chain targets of the piece on `from` (no rule restrictions).
    pub fn jump_targets(&self, from: usize) -> B {
        jump_targets(from, self.occupied() ^ B::square(from))
    }

    /// The steps and jump-chain targets of the piece on `from`, no rule restrictions.
    #[inline]
    fn reachable(&self, from: usize) -> B {
        let origin = B::square(from);
        let occ = self.occupied();
        (origin.neighbours() & !occ) | jump_targets(from, occ ^ origin)
    }

    /// `reachable` with the rule `no-leave` applied for `side`.
    #[inline]
    fn raw_destinations(&self, from: usize, side: Player) -> B {
        let mut dest = self.reachable(from);
        if self.rules.no_leave {
            let target = Self::target(side);
            if target.has(from) {
                dest = dest & target;
            }
        }
        dest
    }

    /// Each piece of the side to move with every square it may move to: the move
    /// generator behind both `write_moves` and `count_destinations` (which counts
    /// the same moves without it unless the rule `no-leave` applies).
    #[inline]
    pub(super) fn moves_by_piece(&self) -> impl Iterator<Item = (usize, B)> + '_ {
        let side = self.stm;
        let occ = self.occupied();
        let empty = !occ;
        let graph = JumpGraph::new(occ);
        let target = Self::target(side);
        let no_leave = self.rules.no_leave;
        self.pieces[side.index()].squares().map(move |from| {
            let (class, cell) = class_of(from, B::SIDE);
            let jumps = graph.targets(class, cell, B::SIDE / 2);
            let mut dest =
                (B::square(from).neighbours() & empty) | B::from_parity_class(class, jumps);
            if no_leave && target.has(from) {
                dest = dest & target;
            }
            (from, dest)
        })
    }

    /// Writes the moves of `moves_by_piece` into `moves` (cleared first),
    /// or the pass if there are none. The caller checks that the game goes on.
    pub(super) fn write_moves(&self, moves: &mut B::Moves) {
        moves.clear();
        for (from, dest) in self.moves_by_piece() {
            for to in dest.squares() {
                moves.push(HalmaMove::new(from as u8, to as u8));
            }
        }
        if moves.is_empty() {
            moves.push(HalmaMove::PASS);
        }
    }

    /// The number of moves `write_moves` writes, without writing them (the
    /// pass counts as one): the steps of all pieces a direction at a time, and
    /// each piece's jump targets on its parity class.
    pub(super) fn count_destinations(&self) -> u64 {
        if self.rules.no_leave {
            let n: u64 = self
                .moves_by_piece()
                .map(|(_, dest)| u64::from(dest.count()))
                .sum();
            return n.max(1);
        }
        let mine = self.pieces[self.stm.index()];
        let occ = self.occupied();
        let empty = !occ;
        let steps = (mine.east() & empty).count()
            + (mine.west() & empty).count()
            + (mine.south() & empty).count()
            + (mine.north() & empty).count()
            + (mine.south_east() & empty).count()
            + (mine.south_west() & empty).count()
            + (mine.north_east() & empty).count()
            + (mine.north_west() & empty).count();
        let graph = JumpGraph::new(occ);
        let jumps: u32 = mine
            .squares()
            .map(|from| {
                let (class, cell) = class_of(from, B::SIDE);
                graph.targets(class, cell, B::SIDE / 2).count_ones()
            })
            .sum();
        u64::from(steps + jumps).max(1)
    }

    /// Why `mv` is not legal here, if it is not: the reasons of `Game::check_move`
    /// for a game that goes on.
    pub(super) fn check_legal(&self, mv: HalmaMove) -> Result<(), &'static str> {
        let n2 = B::SIDE * B::SIDE;
        if mv.is_pass() {
            return if self.has_move(self.stm) {
                Err("a pass is legal only when no other move is")
            } else {
                Ok(())
            };
        }
        let (from, to) = (mv.from as usize, mv.to as usize);
        if from >= n2 || to >= n2 {
            return Err("no such square on this board");
        }
        match self.piece_at(from) {
            None => return Err("there is no piece on the from square"),
            Some(p) if p != self.stm => return Err("the piece on the from square is not yours"),
            _ => {}
        }
        if self.occupied().has(to) {
            return Err("the destination square is occupied");
        }
        if !self.reachable(from).has(to) {
            return Err("the destination is neither a neighbouring square nor reachable by a chain of jumps");
        }
        if self.rules.no_leave {
            let target = Self::target(self.stm);
            if target.has(from) && !target.has(to) {
                return Err("a piece in its target camp may not leave it (rule no-leave)");
            }
        }
        Ok(())
    }

    /// True if `player` would have a legal move (other than the pass) if it were its
    /// turn.
    pub fn has_move(&self, player: Player) -> bool {
        let mine = self.pieces[player.index()];
        let occ = self.occupied();
        let empty = !occ;
        let target = Self::target(player);
        let free = if self.rules.no_leave {
            mine & !target
        } else {
            mine
        };
        if !(free.neighbours() & empty).is_empty() || !single_jumps(free, occ, empty).is_empty() {
            return true;
        }
        if self.rules.no_leave {
            for sq in (mine & target).squares() {
                if !self.raw_destinations(sq, player).is_empty() {
                    return true;
                }
            }
        }
        false
    }

    /// One chain of jumps (the shortest) that carries the piece of `mv` from its
    /// square to its destination, both included; `None` if `mv` is not a jump move
    /// of the piece (a step, a pass, or not reachable by jumps).
    pub fn jump_path(&self, mv: HalmaMove) -> Option<heapless::Vec<u8, 64>> {
        let (from, to) = (mv.from as usize, mv.to as usize);
        let n2 = B::SIDE * B::SIDE;
        if mv.is_pass() || from >= n2 || to >= n2 || !self.occupied().has(from) {
            return None;
        }
        let occ = self.occupied() ^ B::square(from);
        if !jump_targets(from, occ).has(to) {
            return None;
        }
        // Breadth-first search over single jumps, remembering each square's parent.
        let mut parent = [u8::MAX; 256];
        let mut queue = [0u8; 256];
        let (mut head, mut tail) = (0, 1);
        queue[0] = from as u8;
        let mut seen = B::square(from);
        let empty = !occ;
        while head < tail {
            let sq = queue[head] as usize;
            head += 1;
            if sq == to {
                break;
            }
            let next = single_jumps(B::square(sq), occ, empty) & !seen;
            for t in next.squares() {
                parent[t] = sq as u8;
                seen = seen | B::square(t);
                queue[tail] = t as u8;
                tail += 1;
            }
        }
        let mut rev: heapless::Vec<u8, 64> = heapless::Vec::new();
        let mut sq = to;
        loop {
            // A chain stays in the origin's parity class: at most 64 squares.
            rev.push(sq as u8).ok()?;
            if sq == from {
                break;
            }
            sq = parent[sq] as usize;
        }
        rev.reverse();
        Some(rev)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::Bitboard;
    use crate::game::Game;
    use crate::games::halma::{Halma16, Halma8};
    use crate::perft::perft;

    #[test]
    fn move_is_two_bytes() {
        assert_eq!(core::mem::size_of::<HalmaMove>(), 2);
    }

    #[test]
    fn perft_8x8_start() {
        let g = Halma8::default();
        assert_eq!(perft(&g, 1), 24);
        assert_eq!(perft(&g, 2), 576);
        assert_eq!(perft(&g, 3), 20_050);
    }

    #[test]
    fn perft_16x16_start() {
        let g = Halma16::default();
        assert_eq!(perft(&g, 1), 40);
        assert_eq!(perft(&g, 2), 1600);
    }

    #[test]
    fn listing_and_counting_read_the_same_generator() {
        let g = Halma16::default();
        let listed = g.legal_moves();
        assert_eq!(g.count_moves(), listed.len() as u64);
        let by_piece: u32 = g.moves_by_piece().map(|(_, d)| d.count()).sum();
        assert_eq!(by_piece as usize, listed.len());
        for (from, dest) in g.moves_by_piece() {
            assert_eq!(dest, g.destinations(from));
        }
    }
}

//! Slices: the positions with given numbers of men and kings of the side to move
//! and of its opponent ([`SliceKey`]), normalized so that the side to move plays
//! down the board ([`Placement`]), and the order slices are built in.

use super::super::board::{BOTTOM_ROW, TOP_ROW};
use super::super::{Colour, Draughts, Rules};

/// The most pieces of a database this module indexes (the slices of up to 8 pieces:
/// [`SLICES`]).
pub const MAX_PIECES: u32 = 8;

/// The number of slice keys of at most [`MAX_PIECES`] pieces (the empty board
/// included): the 4-tuples of counts summing to at most 8, `C(12, 4)`.
pub const SLICES: usize = 495;

/// A slice: the numbers of men and kings of the side to move (the mover) and of the
/// opponent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SliceKey {
    /// The mover's men.
    pub mover_men: u8,
    /// The mover's kings.
    pub mover_kings: u8,
    /// The opponent's men.
    pub opp_men: u8,
    /// The opponent's kings.
    pub opp_kings: u8,
}

impl SliceKey {
    /// The slice with these counts.
    pub const fn new(mover_men: u8, mover_kings: u8, opp_men: u8, opp_kings: u8) -> Self {
        SliceKey {
            mover_men,
            mover_kings,
            opp_men,
            opp_kings,
        }
    }

    /// The counts as `(mover men, mover kings, opponent men, opponent kings)`.
    #[inline(always)]
    pub const fn counts(&self) -> (u32, u32, u32, u32) {
        (
            self.mover_men as u32,
            self.mover_kings as u32,
            self.opp_men as u32,
            self.opp_kings as u32,
        )
    }

    /// The slice of `p`.
    #[inline(always)]
    pub const fn of(p: &Placement) -> Self {
        SliceKey {
            mover_men: (p.mover & !p.kings).count_ones() as u8,
            mover_kings: (p.mover & p.kings).count_ones() as u8,
            opp_men: (p.opp & !p.kings).count_ones() as u8,
            opp_kings: (p.opp & p.kings).count_ones() as u8,
        }
    }

    /// All pieces.
    #[inline(always)]
    pub const fn pieces(&self) -> u32 {
        (self.mover_men + self.mover_kings + self.opp_men + self.opp_kings) as u32
    }

    /// All men.
    #[inline(always)]
    pub const fn men(&self) -> u32 {
        (self.mover_men + self.opp_men) as u32
    }

    /// The slice of the positions after a move that is neither a capture nor a
    /// crowning: the opponent to move with the same pieces. Together `self` and
    /// this slice form a *pair*, built together: each one's quiet moves lead into
    /// the other.
    #[inline(always)]
    pub const fn swapped(&self) -> Self {
        SliceKey {
            mover_men: self.opp_men,
            mover_kings: self.opp_kings,
            opp_men: self.mover_men,
            opp_kings: self.mover_kings,
        }
    }

    /// The slices a *conversion* (a capture or a crowning) of a position of this
    /// slice may lead to, seen from the opponent, who is then to move: the opponent
    /// keeps at most its men and at most its kings (a capture takes any of them,
    /// several in one move), and the mover keeps its pieces, one man crowned or
    /// none (a crowning ends the move). Captures that crown nothing: the opponent
    /// loses a piece at least; crownings: with or without a capture. None where the
    /// mover has no piece (it has no move). Every slice here has fewer pieces, or as
    /// many and fewer men, so it is built before this one: a build of this slice's
    /// pair needs these slices and no other (`ply db build` under `mpirun` deals
    /// a pair out once they are built). Some may be unreachable (a superset).
    pub fn conversions(&self) -> impl Iterator<Item = SliceKey> {
        let (a, b, c, d) = (
            self.mover_men,
            self.mover_kings,
            self.opp_men,
            self.opp_kings,
        );
        let moves = a + b > 0;
        (0..=c).flat_map(move |c2| {
            (0..=d).flat_map(move |d2| {
                let capture = (moves && (c2, d2) != (c, d)).then(|| SliceKey::new(c2, d2, a, b));
                let crowning = (moves && a > 0).then(|| SliceKey::new(c2, d2, a - 1, b + 1));
                capture.into_iter().chain(crowning)
            })
        })
    }

    /// This slice's place among the [`SLICES`] keys of at most [`MAX_PIECES`]
    /// pieces: fewer pieces first, then fewer men, then by counts; `None` above 8
    /// pieces.
    #[inline(always)]
    pub const fn id(&self) -> Option<usize> {
        if self.pieces() > MAX_PIECES {
            return None;
        }
        let (a, b, c, _) = self.counts();
        let i = (a as usize * 9 + b as usize) * 9 + c as usize;
        Some(SLICE_IDS[self.pieces() as usize][i] as usize)
    }

    /// The key whose [`SliceKey::id`] is `id`.
    pub fn from_id(id: usize) -> Option<Self> {
        let mut i = 0;
        for n in 0..=MAX_PIECES {
            for k in keys_of(n) {
                if i == id {
                    return Some(k);
                }
                i += 1;
            }
        }
        None
    }
}

/// The slices of exactly `n` pieces in build order: fewer men first (a crowning
/// leads from a slice to one with a man fewer, a capture to one with a piece
/// fewer), then by counts. The two slices of a pair ([`SliceKey::swapped`]) have
/// the same numbers of pieces and men.
pub fn keys_of(n: u32) -> impl Iterator<Item = SliceKey> {
    (0..=n).flat_map(move |men| {
        (0..=men).flat_map(move |a| {
            (0..=n - men).flat_map(move |b| {
                let c = men - a;
                let d = n - men - b;
                core::iter::once(SliceKey::new(a as u8, b as u8, c as u8, d as u8))
            })
        })
    })
}

const fn slice_ids() -> [[u16; 729]; MAX_PIECES as usize + 1] {
    let mut t = [[u16::MAX; 729]; MAX_PIECES as usize + 1];
    let mut id = 0u16;
    let mut n = 0;
    while n <= MAX_PIECES {
        // The order of `keys_of`.
        let mut men = 0;
        while men <= n {
            let mut a = 0;
            while a <= men {
                let mut b = 0;
                while b <= n - men {
                    let c = men - a;
                    t[n as usize][((a * 9 + b) * 9 + c) as usize] = id;
                    id += 1;
                    b += 1;
                }
                a += 1;
            }
            men += 1;
        }
        n += 1;
    }
    t
}

static SLICE_IDS: [[u16; 729]; MAX_PIECES as usize + 1] = slice_ids();
const _: () = assert!(slice_ids()[MAX_PIECES as usize][8 * 81] as usize == SLICES - 1);

/// A position with the side to move normalized to play down the board: its pieces
/// (`mover`), the other side's (`opp`) and the kings of both.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Placement {
    /// The side to move's pieces (its men move towards squares 29–32).
    pub mover: u32,
    /// The other side's pieces (its men move towards squares 1–4).
    pub opp: u32,
    /// The kings of both sides.
    pub kings: u32,
}

impl Placement {
    /// The normalized placement of `g` (turned half a turn, colours swapped, when
    /// White is to move).
    #[inline(always)]
    pub fn of(g: &Draughts) -> Self {
        let (b, w, k) = (g.pieces(Colour::Black), g.pieces(Colour::White), g.kings());
        match g.colour_to_move() {
            Colour::Black => Placement {
                mover: b,
                opp: w,
                kings: k,
            },
            Colour::White => Placement {
                mover: w.reverse_bits(),
                opp: b.reverse_bits(),
                kings: k.reverse_bits(),
            },
        }
    }

    /// The position with this placement and Black (the mover) to move, under
    /// `rules`, with no history (the placement must be valid: [`Placement::is_valid`]).
    #[inline(always)]
    pub fn game_with(&self, rules: Rules) -> Draughts {
        Draughts::from_parts(rules, [self.mover, self.opp], self.kings, Colour::Black)
    }

    /// The same position seen from the opponent: the opponent to move (the
    /// normalized placement of the position with the other side to move).
    #[inline(always)]
    pub const fn turned(&self) -> Self {
        Placement {
            mover: self.opp.reverse_bits(),
            opp: self.mover.reverse_bits(),
            kings: self.kings.reverse_bits(),
        }
    }

    /// True if no piece overlaps another, no man stands on its crowning row, and
    /// every king is a piece.
    pub const fn is_valid(&self) -> bool {
        self.mover & self.opp == 0
            && self.kings & !(self.mover | self.opp) == 0
            && self.mover & !self.kings & BOTTOM_ROW == 0
            && self.opp & !self.kings & TOP_ROW == 0
    }
}

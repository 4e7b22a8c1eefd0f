//! The capture search of English and Calgary draughts: from each piece that can jump,
//! depth first by direction, into a move list or a count through one search
//! ([`CaptureSink`]), so listing and counting cannot disagree; English men are counted
//! all at once ([`all_men_paths`]).
//!
//! Everything here is generic over the side ([`Side`]) and the sink, and keeps its
//! inlining hints: it is compiled into the generator of `movegen.rs` per colour.

use super::board::count_pair;
use super::board::{bit, jump, step, Side};
use super::mv::{DraughtsMoves, Move};
use super::Draughts;

impl Draughts {
    /// Runs the capture search from each piece of `pieces` (side `S`'s, the side to
    /// move, that can jump: `jumps`), handing every capture to `out`.
    #[inline]
    pub(super) fn captures<S: Side, K: CaptureSink>(
        &self,
        jumps: &Jumps,
        pieces: u32,
        out: &mut K,
    ) {
        let opp = self.pieces[S::OPP];
        let empty = self.empty();
        let calgary = self.rules.is_calgary();
        let mut bb = pieces;
        while bb != 0 {
            let from = bb.trailing_zeros() as u8;
            bb &= bb - 1;
            let ctx = CaptureCtx {
                from,
                // The moving piece's origin counts as empty during its capture.
                empty: empty | bit(from),
                unique: self.rules.unique_captures(),
                j0: jumps.j0,
                j1: jumps.j1,
            };
            let at = bit(from);
            if self.kings & at != 0 {
                ctx.king::<S, K>(at, opp, K::START, out);
            } else if calgary {
                ctx.man::<S, K, true>(at, opp, K::START, out);
            } else {
                ctx.man::<S, K, false>(at, opp, K::START, out);
            }
        }
    }

    /// [`Self::captures`] into a move list under the English rules counting every
    /// path: the men's captures follow the jump masks of `jumps` (see
    /// [`men_paths`]), the kings' are searched as in every variant. The order is the
    /// same: by origin square, then depth first by direction.
    #[inline(never)]
    pub(super) fn english_captures<S: Side>(&self, jumps: &Jumps, out: &mut DraughtsMoves) {
        let (j0, j1) = (jumps.j0, jumps.j1);
        let mut bb = jumps.jumpers;
        while bb != 0 {
            let from = bb.trailing_zeros() as u8;
            bb &= bb - 1;
            let at = bit(from);
            if self.kings & at != 0 {
                self.captures::<S, DraughtsMoves>(jumps, at, out);
            } else {
                men_list::<S>(out, from, at, 0, 0, j0, j1);
            }
        }
    }

    /// Counts the captures of side `S` (the side to move) without storing them:
    /// English men all at once ([`men_paths`]), the rest one piece at a time.
    #[inline(never)]
    pub(super) fn count_captures<S: Side>(&self, jumps: &Jumps) -> u64 {
        if self.rules.unique_captures() {
            // Paths with the same result count once: only the list can tell them apart.
            let mut list = DraughtsMoves::new();
            self.captures::<S, DraughtsMoves>(jumps, jumps.jumpers, &mut list);
            return list.len() as u64;
        }
        let mut counter = Counter(0);
        if self.rules.is_calgary() {
            // A man crowned on the way jumps on as a king: searched one by one.
            self.captures::<S, Counter>(jumps, jumps.jumpers, &mut counter);
            return counter.0;
        }
        let n = all_men_paths::<S>(jumps.jumpers & !self.kings, jumps.j0, jumps.j1);
        let kings = jumps.jumpers & self.kings;
        if kings != 0 {
            self.captures::<S, Counter>(jumps, kings, &mut counter);
        }
        u64::from(n) + counter.0
    }
}

/// The jumps of the side to move.
pub(super) struct Jumps {
    /// The squares from which a man could jump in its first forward direction (over
    /// an opponent's piece onto an empty square), and in its second.
    pub(super) j0: u32,
    pub(super) j1: u32,
    /// The pieces that can jump (men and kings).
    pub(super) jumpers: u32,
}

/// The capture paths of the English men `men` of side `S` (each able to jump).
///
/// Men are counted all at once: a man jumps only forward, so neither the pieces it
/// has jumped nor its origin (both behind it) can change where it may jump next,
/// and the squares a man could jump from in each direction are the same bitboards
/// (`j0`, `j1`; see [`Jumps`]) for every man and every jump of its capture. The men
/// that have made the same sequence of jump directions stand on distinct squares,
/// so one bitboard per sequence holds them all, one path per square, and a
/// population count counts the paths that end there. A man on the crowning row
/// cannot jump forward, so a crowning ends the path, as the English rules want.
#[inline(always)]
pub(super) fn all_men_paths<S: Side>(men: u32, j0: u32, j1: u32) -> u32 {
    let a0 = jump(men & j0, S::F0);
    let a1 = jump(men & j1, S::F1);
    let on = j0 | j1;
    let mut n = count_pair(a0 & !on, a1 & !on);
    if (a0 | a1) & on != 0 {
        n += men_paths_on::<S>(a0 & on, j0, j1) + men_paths_on::<S>(a1 & on, j0, j1);
    }
    n
}

/// The capture paths of English men of side `S` that stand, each after the same
/// sequence of jumps, on the squares of `landed` (one path per square): see
/// [`all_men_paths`].
#[inline(never)]
pub(super) fn men_paths_on<S: Side>(landed: u32, j0: u32, j1: u32) -> u32 {
    if landed == 0 {
        return 0;
    }
    let (go0, go1) = (landed & j0, landed & j1);
    let mut n = (landed & !(j0 | j1)).count_ones();
    if go0 | go1 != 0 {
        n += men_paths_on::<S>(jump(go0, S::F0), j0, j1)
            + men_paths_on::<S>(jump(go1, S::F1), j0, j1);
    }
    n
}

/// Lists the captures of an English man of side `S` from `from`, now on `at` (one
/// bit) after the jumps of `path` (`jumps` of them), in the order of the capture
/// search: direction by direction, depth first. `j0` and `j1` say where a man can
/// jump from (see [`all_men_paths`]).
#[inline(always)]
pub(super) fn men_list<S: Side>(
    out: &mut DraughtsMoves,
    from: u8,
    at: u32,
    path: u32,
    jumps: u32,
    j0: u32,
    j1: u32,
) {
    let (go0, go1) = (at & j0 != 0, at & j1 != 0);
    if !(go0 || go1) {
        out.push(Move::capture(
            from,
            at.trailing_zeros() as u8,
            path,
            jumps,
            false,
        ));
        return;
    }
    for (d, go) in [(S::F0, go0), (S::F1, go1)] {
        if !go {
            continue;
        }
        let land = jump(at, d);
        let path = path | ((d as u32) << (2 * jumps));
        if land & S::CROWN != 0 || land & (j0 | j1) == 0 {
            let to = land.trailing_zeros() as u8;
            out.push(Move::capture(
                from,
                to,
                path,
                jumps + 1,
                land & S::CROWN != 0,
            ));
        } else {
            men_list_on::<S>(out, from, land, path, jumps + 1, j0, j1);
        }
    }
}

/// [`men_list`] out of line (the recursion).
#[inline(never)]
pub(super) fn men_list_on<S: Side>(
    out: &mut DraughtsMoves,
    from: u8,
    at: u32,
    path: u32,
    jumps: u32,
    j0: u32,
    j1: u32,
) {
    men_list::<S>(out, from, at, path, jumps, j0, j1)
}

/// A capture search from one piece.
pub(super) struct CaptureCtx {
    pub(super) from: u8,
    /// Empty squares, the moving piece's origin included.
    pub(super) empty: u32,
    /// Capture paths with the same result are one move.
    pub(super) unique: bool,
    /// Where a man could jump from in each forward direction (see [`Jumps`]).
    pub(super) j0: u32,
    pub(super) j1: u32,
}

/// What the capture search does with each capture it finds: a move list stores it,
/// a [`Counter`] counts it. One search serves listing and counting, so the two
/// cannot disagree.
pub(super) trait CaptureSink {
    /// What the search carries along a capture for this sink: the path for a list,
    /// nothing for a count (so counting does no work for it).
    type Trail: Copy;
    /// The trail before the first jump.
    const START: Self::Trail;
    /// The trail after one more jump, in direction `d`, over `mid`, that crowns the
    /// man or not.
    fn extend(trail: Self::Trail, d: usize, mid: u32, crowns: bool) -> Self::Trail;
    /// Takes the finished capture by `ctx`'s piece that ends on the square of `to`
    /// (one bit).
    fn take(&mut self, ctx: &CaptureCtx, to: u32, trail: Self::Trail);
}

/// A capture's way so far, for the move list.
#[derive(Clone, Copy)]
pub(super) struct Trail {
    /// Direction of jump `k` in bits `2k..2k+2`.
    path: u32,
    jumps: u32,
    crowns: bool,
    /// The pieces jumped (to tell apart results under the unique convention).
    captured: u32,
}

impl CaptureSink for DraughtsMoves {
    type Trail = Trail;
    const START: Trail = Trail {
        path: 0,
        jumps: 0,
        crowns: false,
        captured: 0,
    };

    #[inline(always)]
    fn extend(t: Trail, d: usize, mid: u32, crowns: bool) -> Trail {
        Trail {
            path: t.path | ((d as u32) << (2 * t.jumps)),
            jumps: t.jumps + 1,
            crowns: crowns || t.crowns,
            captured: t.captured | mid,
        }
    }

    #[inline]
    fn take(&mut self, ctx: &CaptureCtx, to: u32, t: Trail) {
        let to = to.trailing_zeros() as u8;
        let m = Move::capture(ctx.from, to, t.path, t.jumps, t.crowns);
        if ctx.unique
            && self
                .iter()
                .any(|o| o.from == m.from && o.to == m.to && o.captured() == t.captured)
        {
            return;
        }
        self.push(m);
    }
}

/// Counts the captures the search finds (bulk counting).
pub(super) struct Counter(pub(super) u64);

impl CaptureSink for Counter {
    type Trail = ();
    const START: () = ();

    #[inline(always)]
    fn extend(_: (), _: usize, _: u32, _: bool) {}

    #[inline(always)]
    fn take(&mut self, _: &CaptureCtx, _: u32, _: ()) {
        self.0 += 1;
    }
}

impl CaptureCtx {
    /// One jump from the square of `at` (one bit) in direction `d` over a piece of
    /// `opp`: the landing square and the jumped piece, as bits, or `None`.
    #[inline(always)]
    fn jump_from(&self, at: u32, opp: u32, d: usize) -> Option<(u32, u32)> {
        let land = jump(at, d) & self.empty;
        if land == 0 {
            return None;
        }
        let mid = step(at, d) & opp;
        if mid == 0 {
            return None;
        }
        Some((land, mid))
    }

    /// Goes on with a man of side `S` on `at` (one bit), `opp` the opponent's pieces
    /// not yet jumped, handing every finished capture to `out`: one whose man cannot
    /// jump again, or that crowns it (English; in the Calgary variant the new king
    /// jumps on). Whether the man can jump is read from the masks `j0` and `j1`:
    /// what it has jumped and its origin lie behind it.
    #[inline(always)]
    pub(super) fn man<S: Side, K: CaptureSink, const CALGARY: bool>(
        &self,
        at: u32,
        opp: u32,
        trail: K::Trail,
        out: &mut K,
    ) {
        let mut extended = false;
        for (d, can) in [(S::F0, self.j0), (S::F1, self.j1)] {
            if at & can == 0 {
                continue;
            }
            extended = true;
            let land = jump(at, d);
            let mid = step(at, d);
            if land & S::CROWN != 0 {
                let t = K::extend(trail, d, mid, true);
                if CALGARY {
                    self.king::<S, K>(land, opp ^ mid, t, out);
                } else {
                    out.take(self, land, t);
                }
            } else {
                self.man_on::<S, K, CALGARY>(land, opp ^ mid, K::extend(trail, d, mid, false), out);
            }
        }
        if !extended {
            out.take(self, at, trail);
        }
    }

    /// [`Self::man`] after a jump, out of line (the recursion).
    #[inline(never)]
    fn man_on<S: Side, K: CaptureSink, const CALGARY: bool>(
        &self,
        at: u32,
        opp: u32,
        trail: K::Trail,
        out: &mut K,
    ) {
        self.man::<S, K, CALGARY>(at, opp, trail, out)
    }

    /// Goes on with a king of side `S` on `at` (one bit), `opp` the opponent's pieces
    /// not yet jumped, handing every finished capture to `out`: one whose king
    /// cannot jump again.
    #[inline(never)]
    pub(super) fn king<S: Side, K: CaptureSink>(
        &self,
        at: u32,
        opp: u32,
        trail: K::Trail,
        out: &mut K,
    ) {
        let mut extended = false;
        for d in 0..4 {
            let Some((land, mid)) = self.jump_from(at, opp, d) else {
                continue;
            };
            extended = true;
            self.king::<S, K>(land, opp ^ mid, K::extend(trail, d, mid, false), out);
        }
        if !extended {
            out.take(self, at, trail);
        }
    }
}

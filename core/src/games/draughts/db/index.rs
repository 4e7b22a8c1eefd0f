//! The index of a slice: a bijection between the positions of a [`SliceKey`] and
//! `0..slice_size(key)`.
//!
//! Positions are *normalized*: the side to move is called the mover and plays
//! down the board as Black does (its men on squares 1–28, crowned on 29–32); the
//! other side, the opponent, plays up (its men on squares 5–32). A position with
//! White to move is turned half a turn (square `n` ↔ `33 - n`, a bit reversal of
//! the `u32` board) and its colours swapped ([`Placement::of`]).
//!
//! Within a slice the mover's men on the top row (squares 1–4, where only they can
//! stand) split it into sub-slices by their number `j`. In sub-slice `j` every part
//! ranges over a fixed number of squares, so the index is a mixed-radix number of
//! five subset ranks (the combinatorial number system, colex order), each counted
//! over the squares still free when its turn comes:
//!
//! 1. the mover's men on squares 1–4: `C(4, j)`;
//! 2. the mover's other men on squares 5–28: `C(24, a - j)`;
//! 3. the opponent's men on squares 5–32 not holding a mover's man: `C(28 - (a - j), c)`;
//! 4. the mover's kings on the squares without a man: `C(32 - a - c, b)`;
//! 5. the opponent's kings on the squares left: `C(32 - a - c - b, d)`.
//!
//! Sub-slice `j` starts where sub-slice `j - 1` ends. Every placement with the
//! slice's piece counts and no man on its crowning row has exactly one index.

use super::slice::{Placement, SliceKey};

/// The mover's top row (squares 1–4), where only its men can stand.
const TOP: u32 = 0x0000_000F;
/// Squares 5–28, where men of both sides can stand.
const MIDDLE: u32 = 0x0FFF_FFF0;
/// Squares 5–32, where the opponent's men can stand.
const OPP_MEN: u32 = 0xFFFF_FFF0;

const fn binomials() -> [[u64; 33]; 33] {
    let mut t = [[0u64; 33]; 33];
    let mut n = 0;
    while n <= 32 {
        t[n][0] = 1;
        let mut k = 1;
        while k <= n {
            t[n][k] = t[n - 1][k - 1] + if k < n { t[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    t
}

static BINOMIAL: [[u64; 33]; 33] = binomials();

/// `n` choose `k` (0 when `k > n`), for `n` ≤ 32.
#[inline(always)]
pub const fn choose(n: u32, k: u32) -> u64 {
    if k > n || n > 32 {
        0
    } else {
        BINOMIAL[n as usize][k as usize]
    }
}

/// The colex rank of the squares `set` among the squares of `domain` (each square
/// of `set` must be in `domain`): `Σ C(p_i, i + 1)`, `p_i` the place of the `i`-th
/// square of `set` among `domain`'s, counted from 0.
#[inline(always)]
fn subset_rank(set: u32, domain: u32) -> u64 {
    let mut r = 0;
    let mut s = set;
    let mut i = 1;
    while s != 0 {
        let sq = s.trailing_zeros();
        s &= s - 1;
        let place = (domain & ((1u32 << sq) - 1)).count_ones();
        r += choose(place, i);
        i += 1;
    }
    r
}

/// The `place`-th square (from 0) of `domain`, as a one-bit board.
#[inline(always)]
fn select(mut domain: u32, place: u32) -> u32 {
    for _ in 0..place {
        domain &= domain - 1;
    }
    domain & domain.wrapping_neg()
}

/// The set of `k` squares of `domain` whose [`subset_rank`] is `r`.
#[inline(always)]
fn subset_unrank(mut r: u64, k: u32, domain: u32) -> u32 {
    let mut set = 0;
    let mut p = domain.count_ones();
    let mut i = k;
    while i > 0 {
        // The largest place p with C(p, i) <= r.
        p -= 1;
        while choose(p, i) > r {
            p -= 1;
        }
        r -= choose(p, i);
        set |= select(domain, p);
        i -= 1;
    }
    set
}

/// The number of positions of sub-slice `j` of `key` (see the module
/// documentation).
#[inline(always)]
const fn sub_slice_size(key: SliceKey, j: u32) -> u64 {
    let (a, b, c, d) = key.counts();
    if j > a {
        return 0;
    }
    let mid = a - j;
    choose(4, j)
        * choose(24, mid)
        * choose(28u32.saturating_sub(mid), c)
        * choose(32u32.saturating_sub(a + c), b)
        * choose(32u32.saturating_sub(a + c + b), d)
}

/// The number of positions of the slice `key` (with its side to move fixed).
pub const fn slice_size(key: SliceKey) -> u64 {
    let mut total = 0;
    let mut j = 0;
    while j <= 4 {
        total += sub_slice_size(key, j);
        j += 1;
    }
    total
}

/// The index of `p`, a placement of slice `key` (the piece counts of `p` must be
/// `key`'s: [`SliceKey::of`]).
#[inline]
pub fn rank(key: SliceKey, p: &Placement) -> u64 {
    let (a, b, c, d) = key.counts();
    let mover_men = p.mover & !p.kings;
    let opp_men = p.opp & !p.kings;
    let top = mover_men & TOP;
    let j = top.count_ones();
    let mid = a - j;
    let mut offset = 0;
    for i in 0..j {
        offset += sub_slice_size(key, i);
    }
    let men = mover_men | opp_men;
    let free = !men;
    let mut r = subset_rank(top, TOP);
    r = r * choose(24, mid) + subset_rank(mover_men & MIDDLE, MIDDLE);
    r = r * choose(28 - mid, c) + subset_rank(opp_men, OPP_MEN & !mover_men);
    let mover_kings = p.mover & p.kings;
    r = r * choose(32 - a - c, b) + subset_rank(mover_kings, free);
    r = r * choose(32 - a - c - b, d) + subset_rank(p.opp & p.kings, free & !mover_kings);
    offset + r
}

/// The placement of slice `key` whose index is `index` (below
/// [`slice_size`]`(key)`): the inverse of [`rank`].
#[inline]
pub fn unrank(key: SliceKey, mut index: u64) -> Placement {
    let (a, b, c, d) = key.counts();
    let mut j = 0;
    loop {
        let s = sub_slice_size(key, j);
        if index < s || j == 4 {
            break;
        }
        index -= s;
        j += 1;
    }
    let mid = a - j;
    let n_ok = choose(32 - a - c - b, d);
    let n_mk = choose(32 - a - c, b);
    let n_om = choose(28 - mid, c);
    let n_mid = choose(24, mid);
    let r_ok = index % n_ok;
    index /= n_ok;
    let r_mk = index % n_mk;
    index /= n_mk;
    let r_om = index % n_om;
    index /= n_om;
    let r_mid = index % n_mid;
    let r_top = index / n_mid;
    let mover_men = subset_unrank(r_top, j, TOP) | subset_unrank(r_mid, mid, MIDDLE);
    let opp_men = subset_unrank(r_om, c, OPP_MEN & !mover_men);
    let free = !(mover_men | opp_men);
    let mover_kings = subset_unrank(r_mk, b, free);
    let opp_kings = subset_unrank(r_ok, d, free & !mover_kings);
    Placement {
        mover: mover_men | mover_kings,
        opp: opp_men | opp_kings,
        kings: mover_kings | opp_kings,
    }
}

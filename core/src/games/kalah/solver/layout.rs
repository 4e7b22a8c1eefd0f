//! Where a position's entry lies in the endgame tables: the layouts of `n` seeds in
//! the `2 × pits` pits of a layer are ranked by the combinatorial number system,
//! the layers of fewer seeds first, so an entry is found without a hash.
//!
//! The pits are taken with the rows interleaved: the mover's pit 0, the opponent's
//! pit 0, the mover's pit 1, and so on (pit 0 farthest from the store). Positions
//! that follow each other in a layer differ in their low pits, and a move that
//! passes the turn swaps the rows; with the rows interleaved, the low pits stay low
//! in the child, so the children of a run of positions lie near each other and the
//! build finds them in the caches. The rows one after the other (format 2 of the
//! host's table files) built the 20-seed tables 20 % slower
//! (docs/log/2026-11-28-kalah-solver.md); [`reorder_rows_first`] turns a layer of that order into
//! this one.

use core::sync::atomic::{AtomicI8, Ordering};

/// The value an endgame table entry holds before it is computed: fill the layers
/// to build with it.
pub const UNKNOWN: i8 = i8::MIN;

/// The entries of the layer of `n` seeds in play in a table for `pits` pits: the
/// range [`build_layer`](super::build_layer) fills.
pub fn layer_range(pits: u8, n: u32) -> core::ops::Range<usize> {
    let m = 2 * u32::from(pits);
    let start = layer_offset(m, n) as usize;
    start..start + layer_len(m, n) as usize
}

/// Most pits a row may have for the solver (as for the game).
pub(super) const MAX_PARTS: usize = 16;

/// The largest seeds-in-play count an endgame table may cover: its values are
/// `i8`, and the future margin lies in `-n..=n`.
pub const MAX_TABLE_SEEDS: u32 = 126;

/// Binomial coefficients `C(a, k)` for `a < 272`, `k <= 16`, saturating at
/// `u64::MAX` (only small ones are ever used as offsets).
pub(super) const BINOM_ROWS: usize = 272;
static BINOM: [[u64; MAX_PARTS + 1]; BINOM_ROWS] = {
    let mut t = [[0u64; MAX_PARTS + 1]; BINOM_ROWS];
    let mut a = 0;
    while a < BINOM_ROWS {
        t[a][0] = 1;
        let mut k = 1;
        while k <= MAX_PARTS {
            t[a][k] = if a == 0 {
                0
            } else {
                t[a - 1][k - 1].saturating_add(t[a - 1][k])
            };
            k += 1;
        }
        a += 1;
    }
    t
};

#[inline(always)]
pub(super) fn binom(a: u32, k: u32) -> u64 {
    BINOM[a as usize][k as usize]
}

/// Entries of an endgame table for `pits` pits a row covering `0..=max_seeds`
/// seeds in play: the number of ways to lay out at most `max_seeds` seeds in
/// `2 × pits` pits, `C(max_seeds + 2·pits, 2·pits)`. `None` if it does not fit a
/// `usize` or the arguments are out of range.
pub fn table_len(pits: u8, max_seeds: u32) -> Option<usize> {
    if pits == 0 || pits > 8 || max_seeds > MAX_TABLE_SEEDS {
        return None;
    }
    let m = 2 * u32::from(pits);
    usize::try_from(binom(max_seeds + m, m)).ok()
}

/// Entries before the layer of `n` seeds: `C(n + m - 1, m)`.
#[inline(always)]
pub(super) fn layer_offset(m: u32, n: u32) -> u64 {
    if n == 0 {
        0
    } else {
        binom(n + m - 1, m)
    }
}

/// Positions with exactly `n` seeds in `m` pits: `C(n + m - 1, m - 1)`.
#[inline(always)]
pub(super) fn layer_len(m: u32, n: u32) -> u64 {
    binom(n + m - 1, m - 1)
}

/// The terms of a rank: `TERM[j][x] = C(x + j, j + 1)`, the term of bar `j` when
/// the pits up to `j` hold `x` seeds (`x <= MAX_TABLE_SEEDS`).
static TERM: [[u64; TERM_SEEDS]; MAX_PARTS - 1] = {
    let mut t = [[0u64; TERM_SEEDS]; MAX_PARTS - 1];
    let mut j = 0;
    while j < MAX_PARTS - 1 {
        let mut x = 0;
        while x < TERM_SEEDS {
            t[j][x] = BINOM[x + j][j + 1];
            x += 1;
        }
        j += 1;
    }
    t
};

/// Two terms in one: `PAIR[k][32 x + y] = TERM[2k][x] + TERM[2k + 1][y]`, for
/// layouts of fewer than 32 seeds (64 KiB, linked only with the endgame tables).
static PAIR: [[u64; 1024]; MAX_PARTS / 2] = {
    let mut t = [[0u64; 1024]; MAX_PARTS / 2];
    let mut k = 0;
    while k < MAX_PARTS / 2 - 1 {
        let mut i = 0;
        while i < 1024 {
            t[k][i] = TERM[2 * k][i >> 5] + TERM[2 * k + 1][i & 31];
            i += 1;
        }
        k += 1;
    }
    t
};

/// Columns of [`TERM`]: every prefix sum of a table position's pits.
const TERM_SEEDS: usize = MAX_TABLE_SEEDS as usize + 1;

/// A byte in every byte of a `u64`: multiplying a packed row by it leaves in byte
/// `j` the seeds of the pits `0..=j` (no byte carries: a row holds fewer than 256
/// seeds in all).
const PREFIX: u64 = 0x0101_0101_0101_0101;

/// The rank of the layout of `own` and `opp` (`pits` pits each, `n` seeds in all)
/// among the layouts of `n` seeds, by the combinatorial number system: with the
/// pits taken in the order `own[0], opp[0], own[1], opp[1], …` as `c_0, c_1, …`,
/// the bars between them, `b_j = c_0 + … + c_j + j`, are an increasing subset
/// whose colex rank is `Σ C(b_j, j + 1)`. The prefix sums come from one
/// multiplication: byte `k` of `(own + opp) × PREFIX` is the sum up to `opp[k]`
/// (bar `2k + 1`), less `opp[k]` the sum up to `own[k]` (bar `2k`). Each term is
/// a load from [`TERM`]; below 32 seeds, the terms of bars `2k` and `2k + 1` are
/// one load from [`PAIR`] (the 20-seed tables built 8 % faster than with a load a
/// term, side by side on one thread).
#[inline(always)]
pub(super) fn rank(own: u64, opp: u64, pits: u32) -> u64 {
    debug_assert!(row_seeds(own) + row_seeds(opp) <= MAX_TABLE_SEEDS);
    let s = own.wrapping_add(opp).wrapping_mul(PREFIX);
    let t = s.wrapping_sub(opp);
    let p = pits as usize;
    if (s >> (8 * (p - 1))) & 0xFF < 32 {
        let mut r = TERM[2 * (p - 1)][((t >> (8 * (p - 1))) & 0xFF) as usize];
        for (k, pair) in PAIR.iter().enumerate().take(p - 1) {
            let i = (((t >> (8 * k)) & 31) << 5) | ((s >> (8 * k)) & 31);
            r += pair[i as usize];
        }
        return r;
    }
    let mut r = 0;
    for k in 0..pits as usize {
        r += TERM[2 * k][((t >> (8 * k)) & 0xFF) as usize];
    }
    for k in 0..pits as usize - 1 {
        r += TERM[2 * k + 1][((s >> (8 * k)) & 0xFF) as usize];
    }
    r
}

/// The seeds of a packed row.
#[inline(always)]
pub(super) fn row_seeds(row: u64) -> u32 {
    (0..8).map(|i| ((row >> (8 * i)) & 0xFF) as u32).sum()
}

/// The next subset of `k` bars below `top` in colex order.
#[inline(always)]
pub(super) fn next_bars(bars: &mut [u32; MAX_PARTS], k: usize, top: u32) {
    let mut j = 0;
    while j < k {
        let limit = if j + 1 < k { bars[j + 1] } else { top };
        if bars[j] + 1 < limit {
            bars[j] += 1;
            for (i, b) in bars.iter_mut().enumerate().take(j) {
                *b = i as u32;
            }
            break;
        }
        j += 1;
    }
}

/// The layout after `own`, `opp` in rank order ([`rank`] + 1), on the rows
/// themselves: with the pits in the rank's order `c_0, c_1, …`, the next subset of
/// bars moves a seed from the first non-empty pit `c_f` after `c_0` down to
/// `c_{f-1}` and gathers the seeds of `c_0` there too (`c_{f-1} = c_0 + 1`, the
/// pits below it empty). `None` after the last layout of the layer (every seed in
/// `c_0`). The same order as [`next_bars`], without the bars.
#[inline(always)]
pub(super) fn next_layout(own: u64, opp: u64) -> Option<(u64, u64)> {
    let rest = own & !0xFF;
    // The pit order interleaves the rows: own pit `i` is `c_{2i}`, opp pit `i`
    // is `c_{2i+1}`.
    let f_own = if rest == 0 {
        64
    } else {
        2 * (rest.trailing_zeros() / 8)
    };
    let f_opp = if opp == 0 {
        64
    } else {
        2 * (opp.trailing_zeros() / 8) + 1
    };
    let f = f_own.min(f_opp);
    if f == 64 {
        return None;
    }
    let gathered = (own & 0xFF) + 1;
    let (mut own, mut opp) = (rest, opp);
    if f & 1 == 0 {
        own -= 1 << (8 * (f / 2));
        // c_{f-1} is opp pit f/2 - 1.
        opp += gathered << (8 * (f / 2 - 1));
    } else {
        opp -= 1 << (8 * (f / 2));
        // c_{f-1} is own pit f/2.
        own += gathered << (8 * (f / 2));
    }
    Some((own, opp))
}

/// The `k` bars of colex rank `r`: greedily the largest `b` with `C(b, j+1) <= r`.
pub(super) fn unrank(mut r: u64, k: usize) -> [u32; MAX_PARTS] {
    let mut bars = [0u32; MAX_PARTS];
    let mut hi = BINOM_ROWS as u32 - 1;
    for j in (0..k).rev() {
        let mut b = hi;
        while b > j as u32 && binom(b, j as u32 + 1) > r {
            b -= 1;
        }
        bars[j] = b;
        r -= binom(b, j as u32 + 1);
        hi = b.saturating_sub(1);
    }
    bars
}

/// The rows of the layout whose bars are `bars` (`n` seeds, `2 × pits` pits, the
/// rows interleaved as in [`rank`]).
pub(super) fn unbar(bars: &[u32; MAX_PARTS], pits: u32, n: u32) -> (u64, u64) {
    let counts = bar_counts(bars, pits, n);
    let (mut own, mut opp) = (0u64, 0u64);
    for i in 0..pits as usize {
        own |= u64::from(counts[2 * i]) << (8 * i);
        opp |= u64::from(counts[2 * i + 1]) << (8 * i);
    }
    (own, opp)
}

/// The seeds of the `2 × pits` pits, in order, of the layout whose bars are `bars`
/// (`n` seeds).
fn bar_counts(bars: &[u32; MAX_PARTS], pits: u32, n: u32) -> [u32; MAX_PARTS] {
    let m = 2 * pits as usize;
    let mut counts = [0u32; MAX_PARTS];
    let mut prev: i64 = -1;
    for j in 0..m - 1 {
        counts[j] = (i64::from(bars[j]) - prev - 1) as u32;
        prev = i64::from(bars[j]);
    }
    counts[m - 1] = (i64::from(n + m as u32 - 1) - prev - 1) as u32;
    counts
}

/// Moves the entries of ranks `ranks` of the layer of `n` seeds in play for `pits`
/// pits a row from the order of the rows one after the other (`own[0..pits]`, then
/// `opp[0..pits]`: format 2 of the host's table files) to this module's order:
/// `rows_first[r]`, the entry of the layout of rank `r` in the old order, goes to
/// `layer[rank]`. Both slices hold the layer alone; threads may move parts of one
/// layer at once.
pub fn reorder_rows_first(
    pits: u8,
    n: u32,
    rows_first: &[AtomicI8],
    layer: &[AtomicI8],
    ranks: core::ops::Range<usize>,
) -> Result<(), &'static str> {
    if pits == 0 || pits > 8 || n > MAX_TABLE_SEEDS {
        return Err("endgame table size out of range");
    }
    let (p, m) = (u32::from(pits), 2 * u32::from(pits));
    let len = layer_len(m, n) as usize;
    if rows_first.len() != len || layer.len() != len || ranks.end > len {
        return Err("endgame table layer of the wrong length for its pits and seeds");
    }
    let k = m as usize - 1;
    let mut bars = unrank(ranks.start as u64, k);
    for r in ranks {
        let counts = bar_counts(&bars, p, n);
        let (mut own, mut opp) = (0u64, 0u64);
        for i in 0..p as usize {
            own |= u64::from(counts[i]) << (8 * i);
            opp |= u64::from(counts[p as usize + i]) << (8 * i);
        }
        let to = rank(own, opp, p) as usize;
        layer[to].store(rows_first[r].load(Ordering::Relaxed), Ordering::Relaxed);
        next_bars(&mut bars, k, n + m - 1);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::kalah::row_sum;

    #[test]
    fn rank_is_a_bijection_onto_each_layer() {
        // 2 pits a row, up to 6 seeds: every layout once, ranks 0..len.
        let p = 2;
        for n in 0..=6u32 {
            let len = layer_len(4, n) as usize;
            let mut seen = [false; 100];
            for a in 0..=n {
                for b in 0..=n - a {
                    for c in 0..=n - a - b {
                        let d = n - a - b - c;
                        let own = u64::from(a) | u64::from(b) << 8;
                        let opp = u64::from(c) | u64::from(d) << 8;
                        let r = rank(own, opp, p) as usize;
                        assert!(r < len);
                        assert!(!seen[r]);
                        seen[r] = true;
                    }
                }
            }
            assert!(seen[..len].iter().all(|&x| x));
        }
    }

    #[test]
    fn rank_is_the_sum_of_binomials_of_the_bars() {
        // Rows of up to 8 pits, seeds anywhere up to the largest table whose
        // entries a u64 counts (beyond it the binomials saturate): the rank by
        // prefix sums and TERM equals the definition, term by term.
        let most_seeds = |pits: u32| {
            (0..=MAX_TABLE_SEEDS)
                .take_while(|&s| binom(s + 2 * pits, 2 * pits) < u64::MAX / 2)
                .last()
                .unwrap()
        };
        assert_eq!(most_seeds(6), MAX_TABLE_SEEDS);
        let most: [u32; 9] = core::array::from_fn(|p| most_seeds(p as u32));
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let pits = 1 + (x % 8) as u32;
            let mut left = (x >> 8) as u32 % (most[pits as usize] + 1);
            let (mut own, mut opp) = (0u64, 0u64);
            for i in 0..2 * pits {
                let c = if left == 0 {
                    0
                } else {
                    (x >> (16 + i)) as u32 % (left + 1)
                };
                left -= c;
                if i < pits {
                    own |= u64::from(c) << (8 * i);
                } else {
                    opp |= u64::from(c) << (8 * (i - pits));
                }
            }
            let (mut want, mut bar) = (0u64, 0u32);
            for j in 0..2 * pits - 1 {
                // The rows interleaved: own[0], opp[0], own[1], …
                let row = if j % 2 == 0 { own } else { opp };
                bar += ((row >> (8 * (j / 2))) & 0xFF) as u32;
                want += binom(bar + j, j + 1);
            }
            assert_eq!(rank(own, opp, pits), want, "{:x} {:x} {}", own, opp, pits);
        }
    }

    #[test]
    fn next_layout_walks_each_layer_in_rank_order() {
        for p in 1..=4u32 {
            let m = 2 * p;
            for n in 0..=7u32 {
                let mut bars = [0u32; MAX_PARTS];
                for (j, b) in bars.iter_mut().enumerate().take(m as usize - 1) {
                    *b = j as u32;
                }
                let mut rows = unbar(&bars, p, n);
                let len = layer_len(m, n);
                for r in 0..len {
                    assert_eq!(rank(rows.0, rows.1, p), r, "p {} n {}", p, n);
                    next_bars(&mut bars, m as usize - 1, n + m - 1);
                    match next_layout(rows.0, rows.1) {
                        Some(next) => {
                            assert!(r + 1 < len, "p {} n {}: a layout after the last", p, n);
                            assert_eq!(next, unbar(&bars, p, n), "p {} n {}", p, n);
                            rows = next;
                        }
                        None => assert_eq!(r + 1, len, "p {} n {}: ended early", p, n),
                    }
                }
            }
        }
    }

    #[test]
    fn unrank_inverts_rank() {
        let p = 3u32;
        for n in [0u32, 1, 5, 9] {
            for r in 0..layer_len(2 * p, n) {
                let bars = unrank(r, 2 * p as usize - 1);
                let (own, opp) = unbar(&bars, p, n);
                assert_eq!(rank(own, opp, p), r);
                assert_eq!(row_sum(own) + row_sum(opp), n);
            }
        }
    }

    #[test]
    fn table_sizes() {
        assert_eq!(table_len(6, 0), Some(1));
        assert_eq!(table_len(6, 1), Some(13));
        assert_eq!(table_len(6, 16), Some(30_421_755));
        assert_eq!(table_len(9, 1), None);
    }

    #[test]
    fn reorder_rows_first_moves_each_entry_to_its_layout() {
        // Every layout of a layer of 3 pits a row, its entry a function of the
        // layout; the old order's rank from its definition (the bars of the rows one
        // after the other), independent of `rank`.
        let (pits, n) = (3u32, 7u32);
        let len = layer_len(6, n) as usize;
        let entry =
            |own: u64, opp: u64| ((own.wrapping_mul(31) ^ opp.wrapping_mul(17)) % 251) as i8;
        let old: [AtomicI8; 792] = core::array::from_fn(|_| AtomicI8::new(0));
        let want: [AtomicI8; 792] = core::array::from_fn(|_| AtomicI8::new(0));
        assert_eq!(len, 792);
        let mut count = 0;
        for code in 0..8u64.pow(6) {
            let c: [u32; 6] = core::array::from_fn(|i| ((code >> (3 * i)) & 7) as u32);
            if c.iter().sum::<u32>() != n {
                continue;
            }
            let own = u64::from(c[0]) | u64::from(c[1]) << 8 | u64::from(c[2]) << 16;
            let opp = u64::from(c[3]) | u64::from(c[4]) << 8 | u64::from(c[5]) << 16;
            let (mut old_rank, mut bar) = (0u64, 0u32);
            for (j, &seeds) in c.iter().enumerate().take(5) {
                bar += seeds;
                old_rank += binom(bar + j as u32, j as u32 + 1);
            }
            old[old_rank as usize].store(entry(own, opp), Ordering::Relaxed);
            want[rank(own, opp, pits) as usize].store(entry(own, opp), Ordering::Relaxed);
            count += 1;
        }
        assert_eq!(count, len);
        let got: [AtomicI8; 792] = core::array::from_fn(|_| AtomicI8::new(i8::MIN));
        // In two parts, the upper one first.
        reorder_rows_first(3, n, &old, &got, 300..len).unwrap();
        reorder_rows_first(3, n, &old, &got, 0..300).unwrap();
        for (g, w) in got.iter().zip(&want) {
            assert_eq!(g.load(Ordering::Relaxed), w.load(Ordering::Relaxed));
        }
        assert!(reorder_rows_first(3, n, &old[..10], &got, 0..10).is_err());
    }
}

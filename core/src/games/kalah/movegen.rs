//! Kalah's moves: sowing on packed rows, the whole rule of a move (sowing, extra
//! turn, capture, sweep) as a few word operations.
//!
//! A row is one `u64`: byte `i` holds the seeds of pit `i + 1` counted from the
//! owner's left (the pit farthest from the owner's store), so a row holds at most 8
//! pits. Sowing is a constant number of word additions whatever the seed count: every
//! pit of a full lap gets the same seed, which is a multiple of `0x0101…01`, and the
//! last partial lap is at most three byte ranges. Captures and the final sweep are
//! byte masks. The game ([`super::Kalah`]), its evaluations and the solver all sow
//! through [`sow`].

/// `ONES[k]`: the low `k` bytes each 1 — one seed in each of the first `k` pits.
pub const ONES: [u64; 9] = {
    let mut t = [0u64; 9];
    let mut k = 1;
    while k < 9 {
        t[k] = t[k - 1] | (1u64 << (8 * (k - 1)));
        k += 1;
    }
    t
};

const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
const HIGH: u64 = 0x8080_8080_8080_8080;

/// The seeds of pit `i` (0-based) of a packed row.
#[inline(always)]
pub const fn pit(row: u64, i: u32) -> u32 {
    ((row >> (8 * i)) & 0xFF) as u32
}

/// The seeds of a whole packed row (at most 255, so one multiply adds the bytes).
#[inline(always)]
pub const fn row_sum(row: u64) -> u32 {
    (row.wrapping_mul(0x0101_0101_0101_0101) >> 56) as u32
}

/// The future margin of a finished game for the mover of `own` against `opp`: once a
/// row is empty the game is over and each side takes the seeds left in its own row.
/// `None` while both rows hold seeds.
#[inline(always)]
pub(crate) const fn final_margin(own: u64, opp: u64) -> Option<i32> {
    if own == 0 || opp == 0 {
        Some(row_sum(own) as i32 - row_sum(opp) as i32)
    } else {
        None
    }
}

/// The high bit of each non-empty pit's byte: one bit per legal move.
#[inline(always)]
pub const fn non_empty(row: u64) -> u64 {
    (((row & LOW7) + LOW7) | row) & HIGH
}

/// The result of one sowing, from the mover's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Sown {
    /// The mover's row after the move (after the sweep if the game ended).
    pub own: u64,
    /// The opponent's row after the move.
    pub opp: u64,
    /// Seeds added to the mover's store (sown, captured, swept).
    pub gain: u32,
    /// Seeds added to the opponent's store (only by the final sweep).
    pub opp_gain: u32,
    /// Seeds captured (the last seed and the opposite pit's), 0 if no capture.
    pub captured: u32,
    /// The last seed fell in the mover's store: the mover moves again (if the game
    /// goes on; the side to move of a finished game follows the same rule).
    pub extra_turn: bool,
    /// One row was empty after the move: the game is over and swept.
    pub game_over: bool,
}

/// Sows pit `i` (0-based, non-empty) of the mover's row `own` against `opp` on a
/// board of `pits` pits a row: the whole rule of a move, on packed rows.
#[inline(always)]
pub fn sow(own: u64, opp: u64, pits: u32, i: u32, empty_capture: bool) -> Sown {
    let n = pit(own, i);
    let mut own = own & !(0xFFu64 << (8 * i));
    let mut opp = opp;
    let ring = 2 * pits + 1;
    // Most pits hold less than a lap: no division for them.
    let (laps, rest) = if n < ring {
        (0, n)
    } else {
        (n / ring, n % ring)
    };
    let full = ONES[pits as usize];
    let laps64 = u64::from(laps);
    own += laps64 * full;
    opp += laps64 * full;
    let mut gain = laps;
    // The partial lap covers ring positions i+1 ..= i+rest: own pits 0..pits, the
    // store at `pits`, opponent pits at pits+1 ..= 2*pits, then own pits again.
    let end = i + rest;
    if rest > 0 {
        let own_hi = if end < pits { end } else { pits - 1 };
        if own_hi > i {
            own += ONES[own_hi as usize + 1] - ONES[i as usize + 1];
        }
        if end >= pits {
            gain += 1;
        }
        if end > pits {
            let opp_hi = if end < 2 * pits { end } else { 2 * pits };
            opp += ONES[(opp_hi - pits) as usize];
        }
        if end >= ring {
            own += ONES[(end - ring + 1) as usize];
        }
    }
    let last = if end >= ring { end - ring } else { end };
    let mut captured = 0;
    let mut extra_turn = false;
    if last == pits {
        extra_turn = true;
    } else if last < pits && pit(own, last) == 1 {
        let o = pits - 1 - last;
        let across = pit(opp, o);
        if across > 0 || empty_capture {
            captured = across + 1;
            gain += captured;
            own &= !(0xFFu64 << (8 * last));
            opp &= !(0xFFu64 << (8 * o));
        }
    }
    let mut opp_gain = 0;
    let game_over = own == 0 || opp == 0;
    if game_over {
        gain += row_sum(own);
        opp_gain = row_sum(opp);
        own = 0;
        opp = 0;
    }
    Sown {
        own,
        opp,
        gain,
        opp_gain,
        captured,
        extra_turn,
        game_over,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A packed row from its pit counts, pit 1 first.
    fn row(pits: &[u8]) -> u64 {
        pits.iter().rev().fold(0, |r, &c| r << 8 | u64::from(c))
    }

    #[test]
    fn row_words() {
        assert_eq!(ONES[3], 0x01_01_01);
        let r = row(&[4, 0, 250, 1]);
        assert_eq!((pit(r, 0), pit(r, 1), pit(r, 2)), (4, 0, 250));
        assert_eq!(row_sum(r), 255);
        assert_eq!(non_empty(r), 0x80_80_00_80);
    }

    #[test]
    fn a_lap_back_into_the_emptied_origin_pit_captures() {
        // Pit 2's 13 seeds are one lap of the 13 sowable holes: one seed in every
        // pit and the store, the last in pit 2 itself, which captures it and the
        // opposite pit (the opponent's pit 5).
        let s = sow(
            row(&[2, 13, 0, 1, 1, 1]),
            row(&[2, 2, 2, 2, 2, 2]),
            6,
            1,
            false,
        );
        assert_eq!(s.own, row(&[3, 0, 1, 2, 2, 2]));
        assert_eq!(s.opp, row(&[3, 3, 3, 3, 0, 3]));
        assert_eq!((s.gain, s.opp_gain, s.captured), (1 + 4, 0, 4));
        assert!(!s.extra_turn && !s.game_over);
    }

    #[test]
    fn the_last_seed_of_a_row_ends_the_game_and_sweeps() {
        // Pit 6's seed reaches the store (an extra turn), the row is empty: the
        // opponent's seeds go to the opponent's store.
        let s = sow(
            row(&[0, 0, 0, 0, 0, 1]),
            row(&[3, 0, 5, 0, 2, 1]),
            6,
            5,
            false,
        );
        assert_eq!((s.own, s.opp), (0, 0));
        assert_eq!((s.gain, s.opp_gain, s.captured), (1, 11, 0));
        assert!(s.extra_turn && s.game_over);
    }
}

//! Retrograde analysis of a pair of slices ([`SliceKey::swapped`]): the quiet moves
//! (neither a capture nor a crowning) of each slice's positions lead into the other,
//! every other move (a *conversion*) into a slice built before.
//!
//! A build works on a *cell* a position, 16 bits, in memory the caller provides
//! (atomic, so that threads share it): while a position is unresolved its cell
//! counts its quiet moves whose values are not yet known (plus one if a conversion
//! draws: such a position can no longer be lost); once resolved it holds win or
//! loss and the distance to conversion `d`, or "draw by conversion".
//!
//! 1. [`init_range`]: each position's moves. No move: lost in 0. A conversion into
//!    a position lost for the opponent: won in 1. No quiet move: lost in 1 (every
//!    conversion is won by the opponent) or drawn. Otherwise the counter.
//! 2. [`level_range`], for `k` = 0, 1, 2 …: every position resolved at distance
//!    `k` resolves its unresolved predecessors (quiet moves played backwards, by
//!    the opponent): a lost one makes them won in `k + 1`; a won one takes one
//!    off their counters, and one whose counter reaches 0 is lost in `k + 1` (its
//!    longest defence). Levels go on while a level resolves any position.
//! 3. [`longest_range`] finds the slice's longest distance, which sets the width of
//!    its entries ([`entry_width`](super::value::entry_width)), and
//!    [`finish_range`] writes the cells as value codes ([`Value::code`]) of that
//!    width; positions never resolved are draws. A distance that fits no width
//!    stops the build ([`BuildError::TooLong`]), never a wrong entry.
//!
//! An unresolved position has no capture (a position with one has only
//! conversions, and [`init_range`] resolves it), so a quiet move played backwards
//! into an unresolved position is one of its legal moves: predecessors need no
//! legality test.

use core::ops::Range;
use core::sync::atomic::{AtomicU16, Ordering};

use super::super::board::{NEIGHBOUR, NONE};
use super::super::{DraughtsMoves, Rules};
use super::index::{rank, unrank};
pub use super::probe::Lookup;
use super::slice::{Placement, SliceKey};
use super::value::{put, width_max_distance, Value, MAX_DISTANCE};
use crate::game::Game;

/// A cell holding a resolved value.
const RESOLVED: u16 = 0x8000;
/// A resolved cell of a won position.
const WON: u16 = 0x4000;
/// The distance of a resolved cell.
const DISTANCE: u16 = 0x3FFF;
/// The cell of a position drawn by a conversion and without quiet moves.
const DRAWN: u16 = RESOLVED | DISTANCE;

/// Why a build stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BuildError {
    /// A conversion leads into this slice, which the lookup does not hold.
    Missing(SliceKey),
    /// A distance to conversion beyond what the cells ([`MAX_DISTANCE`]) or the
    /// entries asked for hold.
    TooLong,
}

/// The two slices built together and their cells: `keys[1]` is
/// `keys[0].swapped()`, `cells[s]` has one cell a position of `keys[s]` (both the
/// same memory when the two keys are the same).
pub struct Pair<'a> {
    /// The slices.
    pub keys: [SliceKey; 2],
    /// Their cells.
    pub cells: [&'a [AtomicU16]; 2],
}

/// The rules a database holds: English.
const RULES: Rules = Rules::english();

/// The number of positions [`init_range`] resolved: `[lost in 0, resolved in 1]`.
pub type InitCounts = [u64; 2];

/// Step 1 for the positions `range` of slice `pair.keys[side]`: their moves, the
/// values of their conversions from `lookup`, and their cells.
pub fn init_range(
    pair: &Pair,
    side: usize,
    range: Range<u64>,
    lookup: &impl Lookup,
) -> Result<InitCounts, BuildError> {
    let key = pair.keys[side];
    let cells = pair.cells[side];
    let mut counts = [0; 2];
    let mut moves = DraughtsMoves::default();
    for i in range {
        let p = unrank(key, i);
        let g = p.game_with(RULES);
        g.generate_moves(&mut moves);
        let cell = if moves.is_empty() {
            counts[0] += 1;
            RESOLVED
        } else {
            let mut quiet = 0u16;
            let mut won = false;
            let mut drawn = false;
            for &m in moves.iter() {
                if !m.is_capture() && !m.crowns() {
                    quiet += 1;
                    continue;
                }
                let c = Placement::of(&g.play_unchecked(m));
                let ck = SliceKey::of(&c);
                match lookup.value(ck, rank(ck, &c)) {
                    None => return Err(BuildError::Missing(ck)),
                    Some(Value::Loss(_)) => {
                        won = true;
                        break;
                    }
                    Some(Value::Draw) => drawn = true,
                    Some(Value::Win(_)) => {}
                }
            }
            if won {
                counts[1] += 1;
                RESOLVED | WON | 1
            } else if quiet == 0 {
                if drawn {
                    DRAWN
                } else {
                    counts[1] += 1;
                    RESOLVED | 1
                }
            } else {
                quiet + u16::from(drawn)
            }
        };
        cells[i as usize].store(cell, Ordering::Relaxed);
    }
    Ok(counts)
}

/// Step 2 for level `k` over the positions `range` of slice `pair.keys[side]`:
/// those resolved at distance `k` resolve their predecessors in the other slice.
/// Returns how many positions it resolved (at distance `k + 1`), or
/// [`BuildError::TooLong`] when `k + 1` is over [`MAX_DISTANCE`] (a cell cannot hold
/// it).
pub fn level_range(pair: &Pair, side: usize, range: Range<u64>, k: u16) -> Result<u64, BuildError> {
    if u32::from(k) >= MAX_DISTANCE {
        return Err(BuildError::TooLong);
    }
    let key = pair.keys[side];
    let cells = pair.cells[side];
    let before = pair.keys[1 - side];
    let before_cells = pair.cells[1 - side];
    let mut resolved = 0;
    for i in range {
        let c = cells[i as usize].load(Ordering::Relaxed);
        if c & RESOLVED == 0 || c & DISTANCE != k || c == DRAWN {
            continue;
        }
        // A position the opponent moved into: lost for it if this one is won.
        let lost_before = c & WON != 0;
        let p = unrank(key, i);
        let empty = !(p.mover | p.opp);
        let mut pieces = p.opp;
        while pieces != 0 {
            let s = pieces.trailing_zeros() as usize;
            pieces &= pieces - 1;
            let king = p.kings & (1 << s) != 0;
            // The opponent's men move up (directions 0 and 1): they came from below.
            let dirs: &[usize] = if king { &[0, 1, 2, 3] } else { &[2, 3] };
            for &d in dirs {
                let t = NEIGHBOUR[s][d];
                if t == NONE || empty & (1 << t) == 0 {
                    continue;
                }
                let back = (1u32 << s) | (1u32 << t);
                let q = Placement {
                    mover: p.mover,
                    opp: p.opp ^ back,
                    kings: if king { p.kings ^ back } else { p.kings },
                }
                .turned();
                let cell = &before_cells[rank(before, &q) as usize];
                let update = cell.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |old| {
                    if old & RESOLVED != 0 {
                        None
                    } else if !lost_before {
                        Some(RESOLVED | WON | (k + 1))
                    } else if old == 1 {
                        Some(RESOLVED | (k + 1))
                    } else {
                        Some(old - 1)
                    }
                });
                if let Ok(old) = update {
                    if !lost_before || old == 1 {
                        resolved += 1;
                    }
                }
            }
        }
    }
    Ok(resolved)
}

/// The value of a cell after the levels: positions never resolved are draws.
#[inline(always)]
fn cell_value(c: u16) -> Value {
    if c & RESOLVED == 0 || c == DRAWN {
        Value::Draw
    } else if c & WON != 0 {
        Value::Win(c & DISTANCE)
    } else {
        Value::Loss(c & DISTANCE)
    }
}

/// The longest distance to conversion of the cells `cells` after the levels (0 if
/// none is won or lost), which sets the width of their slice's entries.
pub fn longest_range(cells: &[AtomicU16]) -> u16 {
    cells
        .iter()
        .map(|c| cell_value(c.load(Ordering::Relaxed)).distance())
        .max()
        .unwrap_or(0)
}

/// Step 3: the cells `cells` as value codes in `out`, `width` (1 or 2) bytes each
/// (`out` as long as `width` times the cells), positions never resolved drawn;
/// [`BuildError::TooLong`] if a distance does not fit the width.
pub fn finish_range(cells: &[AtomicU16], width: usize, out: &mut [u8]) -> Result<(), BuildError> {
    if width_max_distance(width) == 0 || out.len() != cells.len() * width {
        return Err(BuildError::TooLong);
    }
    for (i, c) in cells.iter().enumerate() {
        if !put(out, width, i, cell_value(c.load(Ordering::Relaxed))) {
            return Err(BuildError::TooLong);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::draughts::db::value::{Entries, BYTE_MAX_DISTANCE};

    fn cells(v: &[u16]) -> [AtomicU16; 4] {
        core::array::from_fn(|i| AtomicU16::new(v[i]))
    }

    #[test]
    fn a_distance_over_a_byte_needs_two_bytes_and_is_never_cut() {
        let d = BYTE_MAX_DISTANCE as u16;
        let fits = cells(&[RESOLVED | WON | d, RESOLVED | d, DRAWN, 3]);
        assert_eq!(longest_range(&fits), d);
        let mut out = [0u8; 4];
        finish_range(&fits, 1, &mut out).unwrap();
        let e = Entries::new(&out, 1).unwrap();
        assert_eq!(e.get(0), Some(Value::Win(d)));
        assert_eq!(e.get(1), Some(Value::Loss(d)));
        assert_eq!(e.get(2), Some(Value::Draw));
        assert_eq!(e.get(3), Some(Value::Draw));

        // One ply more: a byte cannot hold it, so a byte entry is refused, not
        // wrapped or saturated, and the two-byte entries hold it exactly.
        for long in [RESOLVED | WON | (d + 1), RESOLVED | (d + 1)] {
            let over = cells(&[0, long, DRAWN, RESOLVED | 5]);
            assert_eq!(longest_range(&over), d + 1);
            let mut out = [7u8; 4];
            assert_eq!(finish_range(&over, 1, &mut out), Err(BuildError::TooLong));
            let mut wide = [0u8; 8];
            finish_range(&over, 2, &mut wide).unwrap();
            let e = Entries::new(&wide, 2).unwrap();
            assert_eq!(e.get(1), Some(cell_value(long)));
            assert_eq!(e.get(1).unwrap().distance(), d + 1);
            assert_eq!(e.get(3), Some(Value::Loss(5)));
        }
        // The longest distance a cell holds fits two bytes; a width of 3 is refused.
        let max = MAX_DISTANCE as u16;
        let top = cells(&[RESOLVED | max, 0, 0, 0]);
        let mut wide = [0u8; 8];
        finish_range(&top, 2, &mut wide).unwrap();
        assert_eq!(
            Entries::new(&wide, 2).unwrap().get(0),
            Some(Value::Loss(max))
        );
        assert_eq!(
            finish_range(&top, 3, &mut [0u8; 12]),
            Err(BuildError::TooLong)
        );
    }

    #[test]
    fn a_level_past_what_a_cell_holds_stops_the_build() {
        let key = SliceKey {
            mover_men: 0,
            mover_kings: 1,
            opp_men: 0,
            opp_kings: 1,
        };
        let c: [AtomicU16; 0] = [];
        let pair = Pair {
            keys: [key, key],
            cells: [&c, &c],
        };
        assert_eq!(
            level_range(&pair, 0, 0..0, MAX_DISTANCE as u16),
            Err(BuildError::TooLong)
        );
        assert_eq!(level_range(&pair, 0, 0..0, MAX_DISTANCE as u16 - 1), Ok(0));
    }
}

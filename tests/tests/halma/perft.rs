//! Halma perft from the start positions against the counts in docs/games/halma.md
//! (distinct (from, to) moves, computed independently by two programs).

use ply_core::games::{Halma16, Halma8};
use ply_core::perft::perft;

#[test]
fn perft_8x8_start_depths_1_to_4() {
    let g = Halma8::default();
    let counts: Vec<u64> = (1..=4).map(|d| perft(&g, d)).collect();
    assert_eq!(counts, [24, 576, 20_050, 700_034]);
}

#[test]
fn perft_16x16_start_depths_1_to_3() {
    let g = Halma16::default();
    let counts: Vec<u64> = (1..=3).map(|d| perft(&g, d)).collect();
    assert_eq!(counts, [40, 1600, 85_440]);
}

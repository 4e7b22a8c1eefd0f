//! Kalah's published values that need endgame tables larger than a stack: Kalah(6,3)
//! in the normal suite, Kalah(6,4) on request (`scripts/test-kalah-6x4.sh` checks
//! the same values through `ply solve` in CI).

use std::sync::atomic::AtomicI8;

use ply_core::games::kalah::{Kalah, KalahRules};
use ply_core::games::kalah_solver::{
    build_tables, table_len, EndgameTables, KalahSolver, Quiet, SolverEntry, UNKNOWN,
};

fn root_value(pits: u8, seeds: u8, empty_capture: bool, table_seeds: u32, tt_slots: usize) -> i32 {
    let r = KalahRules::new(pits, seeds)
        .unwrap()
        .with_empty_capture(empty_capture);
    let len = table_len(pits, table_seeds).unwrap();
    let values: Vec<AtomicI8> = (0..len).map(|_| AtomicI8::new(UNKNOWN)).collect();
    build_tables(pits, empty_capture, table_seeds, 0, &values, |_| {}).unwrap();
    let tables = EndgameTables::new(pits, empty_capture, table_seeds, &values).unwrap();
    let mut tt = vec![SolverEntry::EMPTY; tt_slots];
    let mut s = KalahSolver::new(r, &mut tt, tables).unwrap();
    s.solve(&Kalah::new(r), &mut Quiet).unwrap()
}

/// Kalah(6,3) = +2 under the seed's rules (Irving, Donkers and Uiterwijk), with
/// endgame tables of 12 seeds and a small table that must replace entries.
#[test]
fn published_6x3_value_with_tables() {
    assert_eq!(root_value(6, 3, false, 12, 1 << 18), 2);
}

/// Kalah(6,4): +8 under the seed's rules, +10 with empty capture (the published
/// values), root values only, tables built in memory. Minutes of work:
/// `cargo test --release -p ply-core --test kalah_solver -- --ignored`.
#[test]
#[ignore = "minutes in release; scripts/test-kalah-6x4.sh checks these values in CI"]
fn published_6x4_values() {
    assert_eq!(root_value(6, 4, false, 18, 1 << 24), 8);
    assert_eq!(root_value(6, 4, true, 18, 1 << 24), 10);
}

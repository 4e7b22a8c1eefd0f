//! Kalah's published values that need endgame tables larger than a stack: Kalah(6,3)
//! in the normal suite, Kalah(6,4) on request (`scripts/test-kalah-6x4.sh` checks
//! the same values through `ply solve` in CI).

use std::sync::atomic::AtomicI8;

use ply_core::games::kalah::solver::{
    build_tables, table_len, EndgameTables, KalahSolver, Quiet, SolverEntry, UNKNOWN,
};
use ply_core::games::kalah::{Kalah, KalahRules};

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

/// Kalah(6,3) = +2 under the default rules (Irving, Donkers and Uiterwijk), with
/// endgame tables of 12 seeds and a small table that must replace entries.
#[test]
fn published_6x3_value_with_tables() {
    assert_eq!(root_value(6, 3, false, 12, 1 << 18), 2);
}

/// Kalah(6,4): +8 under the default rules, +10 with empty capture (the published
/// values), root values only, tables built in memory. Minutes of work:
/// `cargo test --release -p ply-tests --test kalah solver -- --ignored`.
#[test]
#[ignore = "minutes in release; scripts/test-kalah-6x4.sh checks these values in CI"]
fn published_6x4_values() {
    assert_eq!(root_value(6, 4, false, 18, 1 << 24), 8);
    assert_eq!(root_value(6, 4, true, 18, 1 << 24), 10);
}

/// Solvers on four threads sharing one lock-free table, each solving every first
/// move of Kalah(5,3) in its own order (so they write the same positions at once),
/// get the values one solver gets alone: with a table big enough to keep most
/// entries and with one so small that threads overwrite each other constantly.
#[test]
fn solvers_sharing_a_table_on_threads_agree_with_one_solver() {
    use std::sync::atomic::AtomicU64;

    use ply_core::games::kalah::solver::SharedSolverTable;
    use ply_core::search::for_player;
    use ply_core::{Game, Player};

    for ec in [false, true] {
        let r = KalahRules::new(5, 3).unwrap().with_empty_capture(ec);
        let table_seeds = 10;
        let len = table_len(5, table_seeds).unwrap();
        let values: Vec<AtomicI8> = (0..len).map(|_| AtomicI8::new(UNKNOWN)).collect();
        build_tables(5, ec, table_seeds, 0, &values, |_| {}).unwrap();
        let tables = EndgameTables::new(5, ec, table_seeds, &values).unwrap();
        let start = Kalah::new(r);
        let mut want = Vec::new();
        let mut tt = vec![SolverEntry::EMPTY; 1 << 16];
        KalahSolver::new(r, &mut tt, tables)
            .unwrap()
            .solve_moves(&start, &mut Quiet, |m, v| want.push((m, v)))
            .unwrap();
        let moves = start.legal_moves();
        assert_eq!(want.len(), moves.len());
        // Both layouts: four entries a bucket (5 pits) and two (as for 8 pits).
        for (buckets, layout) in [(1usize << 14, 5), (16, 5), (1 << 14, 8), (16, 8)] {
            let words: Vec<AtomicU64> = (0..buckets * SharedSolverTable::BUCKET_WORDS)
                .map(|_| AtomicU64::new(0))
                .collect();
            let shared = SharedSolverTable::new(&words, layout);
            std::thread::scope(|s| {
                for t in 0..4usize {
                    let want = &want;
                    let moves = &moves;
                    s.spawn(move || {
                        let mut solver = KalahSolver::with_table(r, shared, tables).unwrap();
                        for k in 0..moves.len() {
                            let (m, v) = want[(k + t) % moves.len()];
                            // The child's value for its side to move, made the
                            // first player's as solve_moves gives it.
                            let child = start.play_unchecked(m);
                            let got = solver.solve(&child, &mut Quiet).unwrap();
                            let got = for_player(&child, Player::First, got);
                            assert_eq!(
                                got, v,
                                "move {:?}, {} buckets, layout {}, thread {}",
                                m, buckets, layout, t
                            );
                        }
                    });
                }
            });
        }
    }
}

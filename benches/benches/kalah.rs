//! Kalah: perft from the start of kalah:6x4, and exact solves of Kalah(4,4) with and
//! without endgame tables, over a plain table and over the lock-free shared one
//! (what the atomic words cost one thread).

use std::sync::atomic::{AtomicI8, AtomicU64};

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use ply_core::games::kalah::solver::{
    build_tables, table_len, EndgameTables, KalahSolver, Quiet, SharedSolverTable, SolverEntry,
    UNKNOWN,
};
use ply_core::games::kalah::{Kalah, KalahRules};
use ply_core::perft::perft;

fn bench(c: &mut Criterion) {
    let start = Kalah::default();
    let mut g = c.benchmark_group("kalah");
    g.sample_size(10);
    g.bench_function("perft_6x4_depth7", |b| {
        b.iter(|| perft(black_box(&start), 7))
    });

    let rules = KalahRules::new(4, 4).unwrap();
    let root = Kalah::new(rules);
    let mut tt = vec![SolverEntry::EMPTY; 1 << 20];
    g.bench_function("solve_4x4_no_tables", |b| {
        b.iter(|| {
            let tables = EndgameTables::none(4, false);
            let mut s = KalahSolver::new(rules, &mut tt, tables).unwrap();
            assert_eq!(s.solve(black_box(&root), &mut Quiet).unwrap(), 2);
        })
    });
    let k = 16;
    let values: Vec<AtomicI8> = (0..table_len(4, k).unwrap())
        .map(|_| AtomicI8::new(UNKNOWN))
        .collect();
    g.bench_function("build_tables_4pits_16seeds", |b| {
        b.iter(|| build_tables(4, false, k, 0, &values, |_| {}).unwrap())
    });
    g.bench_function("solve_4x4_tables16", |b| {
        b.iter(|| {
            let tables = EndgameTables::new(4, false, k, &values).unwrap();
            let mut s = KalahSolver::new(rules, &mut tt, tables).unwrap();
            assert_eq!(s.solve(black_box(&root), &mut Quiet).unwrap(), 2);
        })
    });
    // The same memory as the plain table (2^20 slots of 24 bytes): 2^21 slots
    // of 16 bytes in the shared table's four-entry buckets.
    let words: Vec<AtomicU64> = (0..(24 << 20) / 8).map(|_| AtomicU64::new(0)).collect();
    g.bench_function("solve_4x4_tables16_shared_table", |b| {
        b.iter(|| {
            let shared = SharedSolverTable::new(&words, 4);
            shared.clear();
            let tables = EndgameTables::new(4, false, k, &values).unwrap();
            let mut s = KalahSolver::with_table(rules, shared, tables).unwrap();
            assert_eq!(s.solve(black_box(&root), &mut Quiet).unwrap(), 2);
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

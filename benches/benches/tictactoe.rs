//! Tic-tac-toe: perft from the empty board and a full solve.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use ply_core::games::TicTacToe;
use ply_core::perft::perft;
use ply_core::search::TtEntry;
use ply_core::solve::Solver;

fn bench(c: &mut Criterion) {
    let start = TicTacToe::new();
    c.bench_function("tictactoe/perft9", |b| {
        b.iter(|| perft(black_box(&start), 9))
    });
    let mut slots = vec![TtEntry::EMPTY; 1 << 14];
    c.bench_function("tictactoe/solve", |b| {
        b.iter(|| {
            let mut solver = Solver::<TicTacToe>::new(&mut slots);
            solver.solve(black_box(&start)).unwrap()
        })
    });
    c.bench_function("tictactoe/solve_no_table", |b| {
        b.iter(|| {
            let mut solver = Solver::<TicTacToe>::new(&mut []);
            solver.solve(black_box(&start)).unwrap()
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);

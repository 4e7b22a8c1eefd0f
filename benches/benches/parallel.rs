//! Parallel perft and the parallel search strategies against sequential alpha-beta,
//! at 1 and 2 threads (this machine's core count), on every game's workload.

use std::time::Duration;

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion};
use ply_core::games::TicTacToe;
use ply_core::search::RandomEval;
use ply_host::parallel::{self, Algo, Options};

const THREADS: [usize; 2] = [1, 2];

fn perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("parallel_perft");
    group.measurement_time(Duration::from_secs(3));
    let start = TicTacToe::new();
    group.bench_function("tictactoe/9/sequential", |b| {
        b.iter(|| ply_core::perft::perft(black_box(&start), 9))
    });
    for threads in THREADS {
        group.bench_with_input(
            BenchmarkId::new("tictactoe/9", threads),
            &threads,
            |b, &t| b.iter(|| parallel::perft::perft(black_box(&start), 9, t).unwrap()),
        );
    }
    group.finish();
}

fn search(c: &mut Criterion) {
    let mut group = c.benchmark_group("parallel_search");
    group.measurement_time(Duration::from_secs(3));
    let start = TicTacToe::new();
    let eval = RandomEval { seed: 1 };
    group.bench_function("tictactoe/9/alphabeta", |b| {
        b.iter(|| ply_core::search::alphabeta(black_box(&start), 9, &eval))
    });
    for algo in [
        Algo::TopLevel,
        Algo::Chunked,
        Algo::Ybwc,
        Algo::LazySmp,
        Algo::Abdada,
    ] {
        for threads in THREADS {
            let options = Options {
                table_slots: 1 << 14,
                ..Options::threads(threads)
            };
            group.bench_with_input(
                BenchmarkId::new(format!("tictactoe/9/{algo}"), threads),
                &options,
                |b, o| b.iter(|| parallel::search(algo, black_box(&start), 9, &eval, o).unwrap()),
            );
        }
    }
    group.finish();
}

criterion_group!(benches, perft, search);
criterion_main!(benches);

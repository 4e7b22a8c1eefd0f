//! Parallel perft and the parallel search strategies against sequential alpha-beta,
//! at 1 and 2 threads (this machine's core count), on every game's workload:
//! tic-tac-toe, Kalah 6x4 from the start, the checkers middle game and seed 000's
//! Halma 8x8 middle game of `benches/data/parallel/workloads.txt`, and the Halma
//! 16x16 start at depth 2.
//!
//! `cargo bench -p ply-benches --bench parallel`; one workload:
//! `cargo bench -p ply-benches --bench parallel -- parallel_search/halma8`.

use std::time::Duration;

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion};
use ply_core::games::draughts_eval::DraughtsEval;
use ply_core::games::halma::eval::Manhattan;
use ply_core::games::kalah::StoreDifference;
use ply_core::games::{Draughts, Halma16, Halma8, Kalah, TicTacToe};
use ply_core::search::{Evaluator, RandomEval};
use ply_core::Game;
use ply_host::parallel::{self, Algo, Options};

const THREADS: [usize; 2] = [1, 2];
const PARALLEL: [Algo; 5] = [
    Algo::TopLevel,
    Algo::Chunked,
    Algo::Ybwc,
    Algo::LazySmp,
    Algo::Abdada,
];

/// The checkers middle game of `benches/data/parallel/workloads.txt`.
const CHECKERS_MIDDLE: &str = "B:W17,19,21,22,24,25,26,27,28,30:B1,2,3,5,6,8,9,10,11,15";
const HALMA8_MIDDLE: &str = include_str!("../data/halma8_middle.txt");

fn checkers_middle() -> Draughts {
    Draughts::parse_position(Draughts::parse_rules("").unwrap(), CHECKERS_MIDDLE).unwrap()
}

fn halma8_middle() -> Halma8 {
    Halma8::parse_position(Default::default(), HALMA8_MIDDLE.trim()).unwrap()
}

fn kalah_start() -> Kalah {
    Kalah::start(Kalah::parse_rules("6x4").unwrap())
}

fn perft_one<G>(c: &mut Criterion, name: &str, game: &G, depth: u32)
where
    G: Game + Send + Sync,
    G::Move: Send + Sync,
{
    let mut group = c.benchmark_group("parallel_perft");
    group.measurement_time(Duration::from_secs(3));
    group.bench_function(format!("{name}/{depth}/sequential"), |b| {
        b.iter(|| ply_core::perft::perft(black_box(game), depth))
    });
    for threads in THREADS {
        group.bench_with_input(
            BenchmarkId::new(format!("{name}/{depth}"), threads),
            &threads,
            |b, &t| b.iter(|| parallel::perft::perft(black_box(game), depth, t).unwrap()),
        );
    }
    group.finish();
}

fn perft(c: &mut Criterion) {
    perft_one(c, "tictactoe", &TicTacToe::new(), 9);
    perft_one(c, "kalah6x4", &kalah_start(), 8);
    perft_one(c, "checkers-middle", &checkers_middle(), 8);
    perft_one(c, "halma8-middle", &halma8_middle(), 3);
}

fn search_one<G, E>(c: &mut Criterion, name: &str, game: &G, depth: u32, eval: &E)
where
    G: Game + Send + Sync + 'static,
    G::Move: Send + Sync,
    E: Evaluator<G> + Clone + Send + Sync + 'static,
{
    let mut group = c.benchmark_group("parallel_search");
    group.measurement_time(Duration::from_secs(3));
    group.bench_function(format!("{name}/{depth}/alphabeta"), |b| {
        b.iter(|| ply_core::search::alphabeta(black_box(game), depth, eval))
    });
    for algo in PARALLEL {
        for threads in THREADS {
            let options = Options {
                hash_mb: 1,
                ..Options::threads(threads)
            };
            group.bench_with_input(
                BenchmarkId::new(format!("{name}/{depth}/{algo}"), threads),
                &options,
                |b, o| b.iter(|| parallel::search(algo, black_box(game), depth, eval, o).unwrap()),
            );
        }
    }
    group.finish();
}

fn search(c: &mut Criterion) {
    search_one(
        c,
        "tictactoe",
        &TicTacToe::new(),
        9,
        &RandomEval { seed: 1 },
    );
    search_one(c, "kalah6x4", &kalah_start(), 11, &StoreDifference);
    search_one(
        c,
        "checkers-middle",
        &checkers_middle(),
        11,
        &DraughtsEval::STANDARD,
    );
    search_one(c, "halma8-middle", &halma8_middle(), 3, &Manhattan);
    search_one(
        c,
        "halma16",
        &Halma16::new(Default::default()),
        2,
        &Manhattan,
    );
}

criterion_group!(benches, perft, search);
criterion_main!(benches);

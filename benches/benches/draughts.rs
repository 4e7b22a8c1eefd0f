//! English draughts: perft(11) and perft(12) from the start position, single thread,
//! with bulk counting at the last ply. Criterion reports leaves per second
//! (`Throughput::Elements` = the leaf count). Then the cost of each evaluation
//! (hand-set, learned linear, network) over the same 1,000 positions of random games,
//! in evaluations per second.
//!
//! `cargo bench -p ply-benches --bench draughts` (`-- eval` for the evaluations only)

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use ply_core::games::draughts::{Draughts, DraughtsEvaluation, Rules};
use ply_core::perft::perft;
use ply_core::playout::SplitMix64;
use ply_core::search::Evaluator;
use ply_core::{Game, Player};

/// `n` positions from random games (each game's positions until it ends).
fn positions(n: usize) -> Vec<Draughts> {
    let mut rng = SplitMix64::new(46);
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let mut g = Draughts::new(Rules::english());
        while !g.outcome().is_over() && out.len() < n {
            out.push(g);
            let moves = g.legal_moves();
            g = g.play_unchecked(moves[rng.below(moves.len())]);
        }
    }
    out
}

fn bench_eval(c: &mut Criterion) {
    let set = positions(1000);
    let mut group = c.benchmark_group("draughts-eval");
    group.throughput(Throughput::Elements(set.len() as u64));
    for (name, e) in [
        ("standard", DraughtsEvaluation::STANDARD),
        ("learned", DraughtsEvaluation::LEARNED),
        ("network", DraughtsEvaluation::NETWORK),
    ] {
        group.bench_function(name, |b| {
            b.iter(|| {
                set.iter()
                    .map(|g| e.evaluate(black_box(g), Player::First))
                    .fold(0i64, |a, v| a.wrapping_add(i64::from(v)))
            })
        });
    }
    group.finish();
}

fn bench(c: &mut Criterion) {
    let start = Draughts::new(Rules::english());
    let mut group = c.benchmark_group("draughts");
    group.sample_size(10);
    for (depth, leaves) in [(11u32, 85_242_128u64), (12, 388_623_673)] {
        group.throughput(Throughput::Elements(leaves));
        group.bench_function(format!("perft{}", depth), |b| {
            b.iter(|| {
                let n = perft(black_box(&start), depth);
                assert_eq!(n, leaves);
                n
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench, bench_eval);
criterion_main!(benches);

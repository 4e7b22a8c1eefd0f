//! English draughts: perft(11) and perft(12) from the start position, single thread,
//! with bulk counting at the last ply. Criterion reports leaves per second
//! (`Throughput::Elements` = the leaf count).
//!
//! `cargo bench -p ply-benches --bench draughts`

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use ply_core::games::draughts::{Draughts, Rules};
use ply_core::perft::perft;

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

criterion_group!(benches, bench);
criterion_main!(benches);

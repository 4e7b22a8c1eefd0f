//! Probes of the draughts endgame databases (docs/games/draughts-databases.md):
//! `Database::probe` of a position, from the files in the tables directory
//! (`PLY_TABLES_DIR`; compressed files where they are there, else plain ones), or
//! without one from the databases of up to 4 pieces built here and written
//! compressed to a temporary directory. Criterion reports probes per second:
//!
//! * `cached`: the positions of one block, probed over and over (its block stays
//!   inflated in the thread's cache);
//! * `random`: 65,536 positions drawn uniformly from those of the largest piece
//!   count, so nearly every probe of a compressed slice inflates its block.
//!
//! `PLY_TABLES_DIR=DIR cargo bench -p ply-benches --bench draughts_db`
//! (scripts/draughts-db-probe.sh runs it on both forms, with the engine's nodes/s).

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use ply_core::games::draughts::db::{keys_of, slice_size, unrank, Database, Slice, BLOCK_ENTRIES};
use ply_core::games::draughts::{Draughts, Rules};
use ply_host::draughts_db;

/// The databases to probe, and where they came from.
fn database() -> (&'static Database<'static>, String) {
    if let Some(dir) = std::env::var_os("PLY_TABLES_DIR") {
        let dir = draughts_db::db_dir(Some(dir.into()));
        let db = draughts_db::load(&dir, &mut |l| eprintln!("{}", l))
            .unwrap_or_else(|| panic!("no databases in {}", dir.display()));
        return (db, dir.display().to_string());
    }
    let dir = std::env::temp_dir().join(format!("ply-bench-cdb-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    draughts_db::build_all(4, 2, &dir, &mut |_| {}).expect("build up to 4 pieces");
    let db = draughts_db::load(&dir, &mut |l| eprintln!("{}", l)).expect("load them");
    (db, "up to 4 pieces built here".to_string())
}

/// A generator of pseudo-random numbers (xorshift), the same every run.
fn next(s: &mut u64) -> u64 {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    *s
}

fn bench(c: &mut Criterion) {
    let (db, from) = database();
    let n = db.pieces();
    let keys: Vec<_> = keys_of(n).collect();
    let packed = keys
        .iter()
        .filter(|k| matches!(db.slice(**k), Some(Slice::Packed(_))))
        .count();
    eprintln!(
        "draughts_db bench: {}: up to {} pieces, {} of the {} slices of {} compressed",
        from,
        n,
        packed,
        keys.len(),
        n
    );
    let total: u64 = keys.iter().map(|k| slice_size(*k)).sum();
    let rules = Rules::english();
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let at = |mut i: u64| -> Draughts {
        for k in &keys {
            if i < slice_size(*k) {
                return unrank(*k, i).game_with(rules);
            }
            i -= slice_size(*k);
        }
        unreachable!()
    };
    let random: Vec<Draughts> = (0..65_536).map(|_| at(next(&mut seed) % total)).collect();
    let largest = *keys.iter().max_by_key(|k| slice_size(**k)).unwrap();
    let block: Vec<Draughts> = (0..BLOCK_ENTRIES as u64)
        .map(|i| unrank(largest, i).game_with(rules))
        .collect();
    let probe_all = |games: &[Draughts]| {
        let mut found = 0u32;
        for g in games {
            found += u32::from(db.probe(black_box(g)).is_some());
        }
        assert_eq!(found as usize, games.len());
        found
    };
    let mut group = c.benchmark_group("draughts_db");
    group.sample_size(10);
    group.throughput(Throughput::Elements(block.len() as u64));
    group.bench_function("cached", |b| b.iter(|| probe_all(&block)));
    group.throughput(Throughput::Elements(random.len() as u64));
    group.bench_function("random", |b| b.iter(|| probe_all(&random)));
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

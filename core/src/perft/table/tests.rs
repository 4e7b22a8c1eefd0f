//! Tests of the tabled perft: the sizes of a node and a bucket, the packing of
//! entries and the mix, exact stores and probes, and counts through roomy and tiny
//! tables against plain perft.

use super::*;
use crate::games::TicTacToe;

#[test]
fn an_open_draughts_node_stays_small() {
    // Two rooms a ply above the last table depth: the stack a tabled count
    // takes per ply.
    let size = core::mem::size_of::<Open<crate::games::Draughts>>();
    assert_eq!(core::mem::size_of::<Option<Slot>>(), 16);
    assert!(size <= 1264, "an open draughts node takes {} bytes", size);
}

#[test]
fn a_bucket_is_one_cache_line() {
    assert_eq!(core::mem::size_of::<PerftBucket>(), 64);
    assert_eq!(core::mem::align_of::<PerftBucket>(), 64);
    assert_eq!(32 + ENTRY_BITS as usize * BUCKET_ENTRIES, 512);
}

#[test]
fn entries_round_trip_without_touching_their_neighbours_or_the_sequence() {
    let mut w = [0u64; 8];
    w[0] = 0x1234_5678;
    let values = [
        ENTRY_MASK,
        0x00ab_cdef_0123_4567_89ab_cdef_0123_4567 & ENTRY_MASK,
        1,
        ENTRY_MASK - 5,
    ];
    for (i, &v) in values.iter().enumerate() {
        set_entry(&mut w, i, v);
    }
    for (i, &v) in values.iter().enumerate() {
        assert_eq!(entry(&w, i), v, "entry {}", i);
    }
    assert_eq!(w[0] & SEQ_MASK, 0x1234_5678);
    set_entry(&mut w, 1, 0);
    assert_eq!(
        [entry(&w, 0), entry(&w, 1), entry(&w, 2), entry(&w, 3)],
        [values[0], 0, values[2], values[3]]
    );
    assert_eq!(w[0] & SEQ_MASK, 0x1234_5678);
}

#[test]
fn mix_is_a_bijection_of_small_widths() {
    for bits in 1..=12u32 {
        let n = 1u128 << bits;
        let mut seen = [false; 1 << 12];
        for k in 0..n {
            let m = mix(k, bits);
            assert!(m < n);
            assert!(!seen[m as usize], "bits {} key {}", bits, k);
            seen[m as usize] = true;
        }
    }
}

#[test]
fn layouts_keep_the_whole_key() {
    for (key_bits, buckets) in [(100, 1usize << 27), (97, 1 << 14), (18, 1 << 20), (85, 3)] {
        let l = Layout::new(key_bits, buckets);
        let index = l.index_bits;
        assert_eq!(index + l.tag_bits, key_bits);
        assert!(l.count_bits >= ENTRY_BITS - DEPTH_BITS - MAX_KEY_BITS);
        assert!(l.buckets() <= buckets);
    }
    // More buckets than keys: every key has a bucket of its own, no tag.
    let l = Layout::new(18, 1 << 20);
    assert_eq!((l.buckets(), l.tag_bits), (1 << 18, 0));
}

#[test]
fn store_and_probe_are_exact_in_a_one_bucket_table() {
    // One bucket: every key shares it, only the tag tells them apart.
    let mut buckets = [PerftBucket::EMPTY; 1];
    let mut t = BucketTable::new(&mut buckets[..], 97);
    for k in 0..4u128 {
        t.store(t.slot(k << 90 | 7), 5, 1000 + k as u64);
    }
    for k in 0..4u128 {
        assert_eq!(t.probe(t.slot(k << 90 | 7), 5), Some(1000 + k as u64));
        assert_eq!(t.probe(t.slot(k << 90 | 7), 4), None);
        assert_eq!(t.probe(t.slot(k << 90 | 6), 5), None);
    }
    // A deeper count replaces the shallowest (then the smallest) entry.
    t.store(t.slot(99), 6, 1);
    assert_eq!(t.probe(t.slot(99), 6), Some(1));
    assert_eq!(t.probe(t.slot(7), 5), None);
    assert_eq!(t.probe(t.slot(1 << 90 | 7), 5), Some(1001));
    // A count too big for the field is not stored.
    let big = 1u64 << t.layout().count_bits();
    t.store(t.slot(5), 9, big);
    assert_eq!(t.probe(t.slot(5), 9), None);
    t.store(t.slot(5), 9, big - 1);
    assert_eq!(t.probe(t.slot(5), 9), Some(big - 1));
}

#[test]
fn an_empty_table_stores_nothing() {
    let mut buckets: [PerftBucket; 0] = [];
    let mut t = BucketTable::new(&mut buckets[..], 18);
    t.store(t.slot(1), 5, 9);
    assert_eq!(t.probe(t.slot(1), 5), None);
    assert_eq!(t.capacity(), 0);
    assert_eq!(perft_tabled(&TicTacToe::new(), 6, &mut t), 54720);
}

#[test]
fn tabled_perft_equals_perft_with_roomy_and_tiny_tables() {
    let mut roomy = [PerftBucket::EMPTY; 1024];
    let mut tiny = [PerftBucket::EMPTY; 1];
    let start = TicTacToe::new();
    for depth in 0..=10 {
        let plain = perft(&start, depth);
        let mut t = BucketTable::new(&mut roomy[..], 18);
        assert_eq!(perft_tabled(&start, depth, &mut t), plain);
        // Again over the filled table: answered from it.
        assert_eq!(perft_tabled(&start, depth, &mut t), plain);
        let mut t = BucketTable::new(&mut tiny[..], 18);
        assert_eq!(perft_tabled(&start, depth, &mut t), plain);
        // Without a look at the root: the same count, and the root not stored.
        let mut none = [PerftBucket::EMPTY; 1024];
        let mut t = BucketTable::new(&mut none[..], 18);
        assert_eq!(perft_tabled_below(&start, depth, &mut t), plain);
        if depth >= MIN_TABLE_DEPTH {
            let root = t.slot(start.perft_key().unwrap());
            assert_eq!(t.probe(root, depth), None, "depth {}", depth);
        }
        let mut t = BucketTable::new(&mut tiny[..], 18);
        assert_eq!(perft_tabled_below(&start, depth, &mut t), plain);
    }
}

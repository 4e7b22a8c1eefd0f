//! Tests of the endgame databases' index: position counts, and rank and unrank as inverse bijections.

use ply_core::games::draughts::db::value::put;
use ply_core::games::draughts::db::*;

/// The published number of positions with exactly `n` pieces (issue 47's table).
const COUNTS: [u64; 7] = [
    1,
    120,
    6_972,
    261_224,
    7_092_774,
    148_688_232,
    2_503_611_964,
];

#[test]
fn slice_sizes_sum_to_the_published_counts() {
    for (n, &want) in COUNTS.iter().enumerate() {
        let got: u64 = keys_of(n as u32).map(slice_size).sum();
        assert_eq!(got, want, "{} pieces", n);
    }
}

#[test]
fn slice_ids_follow_the_build_order() {
    let mut i = 0;
    for n in 0..=MAX_PIECES {
        for k in keys_of(n) {
            assert_eq!(k.id(), Some(i), "{:?}", k);
            assert_eq!(SliceKey::from_id(i), Some(k));
            assert_eq!(k.swapped().id().map(|_| k.swapped().men()), Some(k.men()));
            i += 1;
        }
    }
    assert_eq!(i, SLICES);
    assert_eq!(SliceKey::new(9, 0, 0, 0).id(), None);
}

/// Every placement of slice `key`, enumerated square by square without the index.
fn placements(key: SliceKey, out: &mut Vec<Placement>) {
    fn place(sq: u32, left: [u32; 4], p: Placement, out: &mut Vec<Placement>) {
        if left == [0; 4] {
            out.push(p);
            return;
        }
        if sq == 32 {
            return;
        }
        let b = 1u32 << sq;
        place(sq + 1, left, p, out);
        for kind in 0..4 {
            if left[kind] == 0 {
                continue;
            }
            let mut l = left;
            l[kind] -= 1;
            let mut q = p;
            match kind {
                0 => q.mover |= b,
                1 => {
                    q.mover |= b;
                    q.kings |= b
                }
                2 => q.opp |= b,
                _ => {
                    q.opp |= b;
                    q.kings |= b
                }
            }
            if q.is_valid() {
                place(sq + 1, l, q, out);
            }
        }
    }
    let (a, b, c, d) = key.counts();
    let empty = Placement {
        mover: 0,
        opp: 0,
        kings: 0,
    };
    place(0, [a, b, c, d], empty, out);
}

#[test]
fn rank_is_a_bijection_on_every_slice_of_up_to_three_pieces() {
    let mut all = Vec::new();
    for n in 0..=3 {
        for key in keys_of(n) {
            all.clear();
            placements(key, &mut all);
            let size = slice_size(key);
            assert_eq!(all.len() as u64, size, "{:?}", key);
            let mut seen = vec![false; size as usize];
            for p in &all {
                let r = rank(key, p);
                assert!(r < size, "{:?} {:?}", key, p);
                assert!(!seen[r as usize], "{:?}: index {} twice", key, r);
                seen[r as usize] = true;
                assert_eq!(unrank(key, r), *p);
            }
        }
    }
}

#[test]
fn unrank_then_rank_round_trips_on_four_pieces() {
    for key in keys_of(4) {
        for i in 0..slice_size(key) {
            let p = unrank(key, i);
            assert!(p.is_valid(), "{:?} {}", key, i);
            assert_eq!(SliceKey::of(&p), key);
            assert_eq!(rank(key, &p), i, "{:?}", key);
        }
    }
}

#[test]
fn unrank_then_rank_round_trips_on_samples_of_larger_slices() {
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    for n in 5..=MAX_PIECES {
        for key in keys_of(n) {
            let size = slice_size(key);
            for t in 0..200u64 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let i = match t {
                    0 => 0,
                    1 => size - 1,
                    _ => x % size,
                };
                let p = unrank(key, i);
                assert!(p.is_valid(), "{:?} {}", key, i);
                assert_eq!(SliceKey::of(&p), key);
                assert_eq!(rank(key, &p), i, "{:?}", key);
            }
        }
    }
}

#[test]
fn a_placement_turned_twice_is_itself() {
    let p = Placement {
        mover: 0x0000_0103,
        opp: 0x8000_2000,
        kings: 0x8000_0001,
    };
    assert!(p.is_valid() && p.turned().is_valid());
    assert_eq!(p.turned().turned(), p);
    assert_eq!(SliceKey::of(&p.turned()), SliceKey::of(&p).swapped());
}

#[test]
fn value_codes_round_trip() {
    for d in 0..=MAX_DISTANCE as u16 {
        for v in [Value::Loss(d), Value::Win(d.max(1)), Value::Draw] {
            assert_eq!(Value::from_code(v.code()), Some(v));
            // In the narrowest entries that hold it, and in no narrower one.
            let width = entry_width(u32::from(d)).unwrap();
            let mut out = [0u8; 2];
            assert!(put(&mut out, width, 0, v));
            assert_eq!(Entries::new(&out[..width], width).unwrap().get(0), Some(v));
            if width == 2 {
                assert!(!put(&mut out, 1, 0, v) || v == Value::Draw);
            }
        }
    }
    assert_eq!(entry_width(BYTE_MAX_DISTANCE), Some(1));
    assert_eq!(entry_width(BYTE_MAX_DISTANCE + 1), Some(2));
    assert_eq!(entry_width(MAX_DISTANCE + 1), None);
    assert_eq!(Value::from_code(1), None);
    assert_eq!(Value::from_code(2 + 2 * MAX_DISTANCE as u16 + 1), None);
    // A byte entry never reads as a distance over a byte's: 255 is no value.
    assert_eq!(Entries::new(&[255], 1).unwrap().get(0), None);
    assert_eq!(
        Entries::new(&[255, 0], 2).unwrap().get(0),
        Some(Value::Win(127))
    );
}

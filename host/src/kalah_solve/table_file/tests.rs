//! Tests of the table file format: round trips, damage, other boards and formats.

use super::*;
use ply_core::games::kalah::solver::build_tables;

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("ply-table-file-{}-{}", name, std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

fn table(pits: u8, ec: bool, seeds: u32) -> Vec<AtomicI8> {
    let len = table_len(pits, seeds).unwrap();
    let v: Vec<AtomicI8> = (0..len).map(|_| AtomicI8::new(0)).collect();
    build_tables(pits, ec, seeds, 0, &v, |_| {}).unwrap();
    v
}

/// The tables of 3 pits up to 12 seeds under a rule (five bits an entry in the
/// file), or of 1 pit up to 40 seeds (more than five bits hold: a byte an
/// entry), saved to their file in a fresh scratch folder: the folder, the file
/// and the tables.
fn saved(
    name: &str,
    ec: bool,
    five: bool,
) -> (std::path::PathBuf, std::path::PathBuf, Vec<AtomicI8>) {
    let (pits, seeds) = if five { (3, 12) } else { (1, 40) };
    let dir = scratch(name);
    let path = dir.join(file_name(pits, ec));
    let t = table(pits, ec, seeds);
    save(&path, pits, ec, seeds, &t).unwrap();
    assert_eq!(bits_in(&path, pits, ec), Some(if five { 5 } else { 8 }));
    (dir, path, t)
}

/// The five-bit form of the layers `0..=seeds` of `t`.
fn packed(pits: u8, seeds: u32, t: &[AtomicI8]) -> Vec<u8> {
    let mut p = vec![0u8; packed_layers(pits, seeds).unwrap().len()];
    ply_core::games::kalah::solver::pack_tables(pits, seeds, t, &mut p).unwrap();
    p
}

fn same(a: &[AtomicI8], b: &[AtomicI8]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| x.load(Ordering::Relaxed) == y.load(Ordering::Relaxed))
}

#[test]
fn a_saved_table_loads_whole_and_in_part() {
    for five in [true, false] {
        let (dir, path, t) = saved("roundtrip", true, five);
        let (pits, seeds, part) = if five { (3, 12, 7) } else { (1, 40, 33) };
        let mut v = Vec::new();
        let l = load(&path, pits, true, seeds, &mut v).unwrap();
        assert_eq!((l.layers, l.problem), (seeds + 1, None));
        assert!(same(&v, &t));
        // Fewer seeds: the prefix.
        let mut v = Vec::new();
        let l = load(&path, pits, true, part, &mut v).unwrap();
        assert_eq!((l.layers, l.problem), (part + 1, None));
        assert!(same(&v, &t[..table_len(pits, part).unwrap()]));
        assert_eq!(seeds_in(&path, pits, true), Some(seeds));
        assert_eq!(seeds_in(&path, pits, false), None);
        // Read as it is in five bits: the whole and a prefix, with the zero byte
        // after it; a file of a byte an entry is not.
        let mut p = vec![7u8; 3];
        assert_eq!(load_packed(&path, pits, true, seeds, &mut p).unwrap(), five);
        if five {
            assert_eq!(p, packed(pits, seeds, &t));
            assert!(load_packed(&path, pits, true, part, &mut p).unwrap());
            assert_eq!(p, packed(pits, part, &t));
            assert!(!load_packed(&path, pits, true, seeds + 1, &mut p).unwrap());
        }
        assert!(!load_packed(&path, pits, false, part, &mut p).unwrap());
        // No file: nothing, no problem.
        let mut v = Vec::new();
        let l = load(&dir.join("none.tbl"), pits, true, 7, &mut v).unwrap();
        assert_eq!((l.layers, l.problem), (0, None));
        let _ = fs::remove_dir_all(dir);
    }
}

#[test]
fn damage_is_found_and_the_good_layers_before_it_kept() {
    for five in [true, false] {
        damage_is_found(five);
    }
}

fn damage_is_found(five: bool) {
    let (dir, path, _) = saved("damage", false, five);
    let (pits, seeds) = if five { (3u8, 12u32) } else { (1, 40) };
    let bits = if five { 5 } else { 8 };
    let good = fs::read(&path).unwrap();
    let head = header_len(seeds);
    let load_bytes = |bytes: &[u8], pits: u8, ec: bool| {
        fs::write(&path, bytes).unwrap();
        let mut v = Vec::new();
        let l = load(&path, pits, ec, seeds, &mut v).unwrap();
        let want = match l.layers {
            0 => 0,
            k => table_len(pits, k - 1).unwrap(),
        };
        assert_eq!(v.len(), want);
        // Five-bit tables are read as they are only whole and good.
        let mut p = Vec::new();
        let whole = load_packed(&path, pits, ec, seeds, &mut p).unwrap();
        assert_eq!(whole, five && l.layers == seeds + 1 && l.problem.is_none());
        (l.layers, l.problem)
    };
    // Cut short inside layer 10: layers 0..=9 are kept.
    let cut = head + layer_bytes(pits, bits, 10).start + 5;
    assert_eq!(
        load_bytes(&good[..cut], pits, false),
        (10, Some(Problem::Truncated(10)))
    );
    // Cut inside the header, or empty.
    assert_eq!(
        load_bytes(&good[..head - 3], pits, false),
        (0, Some(Problem::DamagedHeader))
    );
    assert!(matches!(
        load_bytes(&[], pits, false),
        (0, Some(Problem::Format(_)))
    ));
    // A flipped entry in layer 11.
    let mut bad = good.clone();
    bad[head + layer_bytes(pits, bits, 11).start + 3] ^= 0x10;
    assert_eq!(
        load_bytes(&bad, pits, false),
        (11, Some(Problem::DamagedLayer(11)))
    );
    // A flipped layer checksum or header field.
    for at in [12, 14, 16, 24, 40, head - 1] {
        let mut bad = good.clone();
        bad[at] ^= 1;
        let (layers, problem) = load_bytes(&bad, pits, false);
        assert_eq!(layers, 0, "byte {at}");
        assert!(
            matches!(problem, Some(Problem::DamagedHeader)),
            "byte {at}: {problem:?}"
        );
    }
    // Another version or another kind of file.
    let mut other = good.clone();
    other[8] = 1;
    assert!(matches!(
        load_bytes(&other, pits, false),
        (0, Some(Problem::Format(_)))
    ));
    let mut other = good.clone();
    other[0] = b'X';
    assert!(matches!(
        load_bytes(&other, pits, false),
        (0, Some(Problem::Format(_)))
    ));
    // The tables of another board or rule.
    assert!(matches!(
        load_bytes(&good, pits, true),
        (0, Some(Problem::OtherBoard(_)))
    ));
    assert!(matches!(
        load_bytes(&good, 4, false),
        (0, Some(Problem::OtherBoard(_)))
    ));
    // The good file again.
    assert_eq!(load_bytes(&good, pits, false), (seeds + 1, None));
    let _ = fs::remove_dir_all(dir);
}

#[test]
fn a_five_bit_code_beyond_its_layer_is_damage() {
    // Layer 1 of 3 pits (6 entries, codes 0..=1): a code of 31 is no margin of
    // the layer, and the layer is refused with the layers before it kept.
    let (dir, path, t) = saved("code", false, true);
    let mut bytes = fs::read(&path).unwrap();
    bytes[header_len(12) + layer_bytes(3, 5, 1).start] |= 31;
    fs::write(&path, &bytes).unwrap();
    let mut v = Vec::new();
    let l = load(&path, 3, false, 12, &mut v).unwrap();
    assert_eq!((l.layers, l.problem), (1, Some(Problem::DamagedLayer(1))));
    assert!(same(&v, &t[..1]));
    let _ = fs::remove_dir_all(dir);
}

#[cfg(unix)]
#[test]
fn a_good_file_is_mapped_whole_or_in_part_and_a_damaged_one_never() {
    let (dir, path, t) = saved("map", true, true);
    let good = fs::read(&path).unwrap();
    let five = |m: &Mapped| match m.entries() {
        Entries::Packed(p) => p.to_vec(),
        Entries::Bytes(_) => panic!("a five-bit file mapped as bytes"),
    };
    for (threads, populate) in [(1, true), (2, false), (5, true)] {
        let m = map(&path, 3, true, 12, threads, populate)
            .unwrap()
            .expect("mapped");
        assert_eq!(five(&m), packed(3, 12, &t));
        // Fewer seeds: the prefix (the byte after it is the next layer's).
        let m = map(&path, 3, true, 7, threads, populate)
            .unwrap()
            .expect("mapped");
        let p = five(&m);
        let want = packed(3, 7, &t);
        assert_eq!(p[..p.len() - 1], want[..want.len() - 1]);
    }
    // A file of a byte an entry maps as bytes.
    let (bdir, bpath, bt) = saved("map-bytes", true, false);
    match map(&bpath, 1, true, 40, 2, true)
        .unwrap()
        .expect("mapped")
        .entries()
    {
        Entries::Bytes(v) => assert!(same(v, &bt)),
        Entries::Packed(_) => panic!("a byte file mapped as five bits"),
    }
    let _ = fs::remove_dir_all(bdir);
    // More seeds than the file holds, another rule, no file: not mapped.
    assert!(map(&path, 3, true, 13, 2, true).unwrap().is_none());
    assert!(map(&path, 3, false, 7, 2, true).unwrap().is_none());
    assert!(map(&dir.join("none.tbl"), 3, true, 7, 2, true)
        .unwrap()
        .is_none());
    // Damage in any layer asked for, or a file cut short: not mapped (the
    // caller then reads the good layers and says why); damage beyond the
    // layers asked for does not matter.
    let head = header_len(12);
    for (layer, seeds, mapped) in [
        (0, 12, false),
        (11, 12, false),
        (12, 12, false),
        (11, 10, true),
    ] {
        let mut bad = good.clone();
        bad[head + layer_bytes(3, 5, layer).start] ^= 0x10;
        fs::write(&path, &bad).unwrap();
        assert_eq!(
            map(&path, 3, true, seeds, 2, true).unwrap().is_some(),
            mapped,
            "damage in layer {layer}, {seeds} seeds asked for"
        );
    }
    fs::write(&path, &good[..good.len() - 1]).unwrap();
    assert!(map(&path, 3, true, 12, 2, true).unwrap().is_none());
    assert!(map(&path, 3, true, 11, 2, true).unwrap().is_some());
    let _ = fs::remove_dir_all(dir);
}

//! A build on one process: every slice of 1 to N pieces read from its good file,
//! converted from a plain one, or built (a pair at a time, [`build_pair`]) and
//! written, in dependency order.

use std::path::Path;
use std::time::Instant;

use ply_core::games::draughts::db::{
    keys_of, slice_size, Database, Slice, SliceKey, BYTE_MAX_DISTANCE,
};

use super::pair::{build_pair, entries};
use super::{cache, file};

/// What a build did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BuildReport {
    /// Positions of the slices built now.
    pub built: u64,
    /// Positions of the slices read from good files.
    pub loaded: u64,
    /// Seconds spent building.
    pub build_secs: f64,
    /// The threads the build ran on.
    pub threads: usize,
    /// Slices converted from plain (format 2) files to compressed ones.
    pub converted: usize,
    /// The ranks of an MPI run that built them (0 or 1: one process); with more,
    /// `build_secs` sums the pairs' times over the ranks.
    pub ranks: usize,
}

/// Bytes of memory a build of up to `pieces` pieces needs: every slice a byte a
/// position, and the largest pair's cells (two bytes a position). A slice with a
/// distance over 126 plies takes two bytes a position, more than this counts.
pub fn build_memory(pieces: u32) -> u64 {
    let mut total = 0;
    let mut largest_pair = 0;
    for n in 1..=pieces {
        for k in keys_of(n) {
            total += slice_size(k);
            largest_pair = largest_pair.max(slice_size(k) + slice_size(k.swapped()));
        }
    }
    total + 2 * largest_pair
}

/// Builds (or reads from `dir`, where good) every slice of 1 to `pieces` pieces on
/// `threads` threads, and returns the database in memory (kept for the rest of the
/// process). A file that does not check out is rebuilt, with a line to `progress`
/// saying why.
pub fn build_all(
    pieces: u32,
    threads: usize,
    dir: &Path,
    progress: &mut dyn FnMut(&str),
) -> Result<(&'static Database<'static>, BuildReport), String> {
    std::fs::create_dir_all(dir).map_err(|e| {
        format!(
            "cannot make the database directory {}: {}",
            dir.display(),
            e
        )
    })?;
    let _lock = crate::files::Lock::take(
        &dir.join("build"),
        "the draughts database directory",
        "set PLY_TABLES_DIR to another directory",
    )?;
    build_into(pieces, threads, Some(dir), BYTE_MAX_DISTANCE, progress)
}

/// [`build_all`] in memory only, no file read or written (for tests).
pub fn build_in_memory(
    pieces: u32,
    threads: usize,
) -> Result<(&'static Database<'static>, BuildReport), String> {
    build_into(pieces, threads, None, BYTE_MAX_DISTANCE, &mut |_| {})
}

/// [`build_all`] with the files in `dir`, or none; a slice whose longest distance
/// is over `byte_max` ([`BYTE_MAX_DISTANCE`] but in tests) gets two-byte entries.
pub(super) fn build_into(
    pieces: u32,
    threads: usize,
    dir: Option<&Path>,
    byte_max: u32,
    progress: &mut dyn FnMut(&str),
) -> Result<(&'static Database<'static>, BuildReport), String> {
    let mut db = Box::new(Database::new());
    db.set_reader(cache::read);
    let mut report = BuildReport {
        threads,
        ..BuildReport::default()
    };
    for n in 1..=pieces {
        let t = Instant::now();
        let mut built_here = 0;
        for key in keys_of(n) {
            let other = key.swapped();
            if other < key {
                continue; // built with its pair
            }
            let keys = [key, other];
            let count = if other == key { 1 } else { 2 };
            let mut good: Vec<Slice<'static>> = Vec::new();
            for k in keys.iter().take(count) {
                let Some(dir) = dir else { break };
                if let Some(slice) = read_or_convert(dir, *k, threads, &mut report, progress)? {
                    good.push(slice);
                }
            }
            if good.len() == count {
                for (k, slice) in keys.iter().zip(good) {
                    db.set_slice(*k, slice).map_err(str::to_string)?;
                    report.loaded += slice.len();
                }
                continue;
            }
            let bt = Instant::now();
            let built = build_pair(key, &db, threads, byte_max)?;
            report.build_secs += bt.elapsed().as_secs_f64();
            for (k, (bytes, width)) in keys.iter().zip(built).take(count) {
                let codes = entries(Vec::leak(bytes), width)?;
                if let Some(dir) = dir {
                    let p = file::path(dir, *k);
                    file::save(&p, *k, codes, threads)
                        .map_err(|e| format!("cannot write {}: {}", p.display(), e))?;
                }
                report.built += codes.len() as u64;
                built_here += codes.len() as u64;
                db.set(*k, codes).map_err(str::to_string)?;
            }
            let names = if count == 2 {
                format!("{} and {}", file::file_name(key), file::file_name(other))
            } else {
                file::file_name(key)
            };
            progress(&format!(
                "checkers db: built {} ({} positions) in {:.2} s",
                names,
                slice_size(key) + if count == 2 { slice_size(other) } else { 0 },
                bt.elapsed().as_secs_f64()
            ));
        }
        progress(&format!(
            "checkers db: {} pieces done ({} positions built now) in {:.1} s",
            n,
            built_here,
            t.elapsed().as_secs_f64()
        ));
    }
    Ok((Box::leak(db), report))
}

/// Slice `key` from its file in `dir`: the compressed file where it is good; else
/// a good plain (format 2) file, converted to a compressed one with a line to
/// `progress` saying so (the plain file is left: it may be removed); `None` where
/// neither is there or good (then a line says why the one there is not).
pub(crate) fn read_or_convert(
    dir: &Path,
    key: SliceKey,
    threads: usize,
    report: &mut BuildReport,
    progress: &mut dyn FnMut(&str),
) -> Result<Option<Slice<'static>>, String> {
    let p = file::path(dir, key);
    match file::read(&p, key) {
        file::Read::Good(slice) => return Ok(Some(slice.leak(&p))),
        file::Read::Bad(why) => {
            progress(&format!(
                "checkers db: {}: {}; rebuilding it",
                p.display(),
                why
            ));
            return Ok(None);
        }
        file::Read::Missing => {}
    }
    let plain = file::plain_path(dir, key);
    match file::read(&plain, key) {
        file::Read::Good(slice) => {
            let from = slice.file_bytes().len();
            let Slice::Plain(entries) = slice.leak(&plain) else {
                return Err(format!("{}: not plain entries (a bug)", plain.display()));
            };
            let t = Instant::now();
            let to = file::save(&p, key, entries, threads)
                .map_err(|e| format!("cannot write {}: {}", p.display(), e))?;
            report.converted += 1;
            progress(&format!(
                "checkers db: {}: converted to the compressed form {} ({} bytes to {}, {:.2} s); the plain file may be removed",
                plain.display(),
                file::file_name(key),
                from,
                to,
                t.elapsed().as_secs_f64()
            ));
            Ok(Some(Slice::Plain(entries)))
        }
        file::Read::Bad(why) => {
            progress(&format!(
                "checkers db: {}: {}; rebuilding it",
                plain.display(),
                why
            ));
            Ok(None)
        }
        file::Read::Missing => Ok(None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draughts_db::load::load;
    use ply_core::games::draughts::db::{unrank, Lookup};

    /// The databases compiled into the core for the web page and the firmware
    /// (`ply_core::games::draughts::db::small`) are what `ply db build checkers
    /// --pieces 3` writes, byte for byte: rebuilt here, every file equals its copy
    /// in `core/src/games/draughts/db/small/` and there is no other. So they cannot
    /// drift from the builder: a change to the build, the index, the values or the
    /// file format fails this test until `small/` is written again (the command in
    /// docs/games/draughts-databases.md, "Web page and firmware"). Each copy's
    /// checksums check out too, which the core does not check.
    #[test]
    fn the_databases_compiled_into_the_core_are_ply_db_builds() {
        use ply_core::games::draughts::db::small;
        let dir = std::env::temp_dir().join(format!("ply-cdb-small-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        build_all(small::PIECES, 2, &dir, &mut |_| {}).unwrap();
        let mut built: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".cdb"))
            .collect();
        built.sort();
        let mut compiled: Vec<String> = small::FILES
            .iter()
            .map(|(k, _)| file::file_name(*k))
            .collect();
        compiled.sort();
        assert_eq!(built, compiled);
        for (key, bytes) in small::FILES {
            let name = file::file_name(key);
            let fresh = std::fs::read(dir.join(&name)).unwrap();
            assert!(
                fresh == bytes,
                "core/src/games/draughts/db/small/{} differs from what ply db build writes \
                 ({} bytes, built {}): write small/ again (the fresh one is in {})",
                name,
                bytes.len(),
                fresh.len(),
                dir.display()
            );
            assert_eq!(file::check_packed(bytes, key), Ok(1), "{}", name);
        }
        assert_eq!(small::DATABASE.pieces(), small::PIECES);
        // The plain files of 1 and 2 pieces: the same build's entries as the host
        // writes them in format 2 (which it reads).
        let (db, _) = build_in_memory(small::PLAIN_PIECES, 2).unwrap();
        let keys: Vec<SliceKey> = (1..=small::PLAIN_PIECES).flat_map(keys_of).collect();
        assert_eq!(keys.len(), small::PLAIN_FILES.len());
        for (key, bytes) in small::PLAIN_FILES {
            assert!(keys.contains(&key), "{:?}", key);
            let Some(Slice::Plain(e)) = db.slice(key) else {
                panic!("{:?}: a built slice is plain", key)
            };
            let p = file::plain_path(&dir, key);
            file::save_plain(&p, key, e).unwrap();
            let fresh = std::fs::read(&p).unwrap();
            assert!(
                fresh == bytes,
                "core/src/games/draughts/db/small/{} differs from the build's plain \
                 file: write small/ again (the fresh one is in {})",
                file::versioned_name(key, file::PLAIN_VERSION),
                dir.display()
            );
            assert_eq!(file::check(bytes, key), Ok(1), "{:?}", key);
        }
        assert_eq!(small::PLAIN_DATABASE.pieces(), small::PLAIN_PIECES);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// With a byte made to hold only 4 plies, every slice with a longer distance
    /// must get two-byte entries that hold it exactly, in memory and through its
    /// file: a build that cut, wrapped or saturated a distance instead would differ
    /// from the build with real bytes.
    #[test]
    fn slices_with_distances_over_a_byte_get_two_byte_entries() {
        let dir = std::env::temp_dir().join(format!("ply-cdb-wide-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let (narrow, _) = build_into(3, 2, Some(&dir), 4, &mut |_| {}).unwrap();
        let (real, _) = build_in_memory(3, 2).unwrap();
        let loaded = load(&dir, &mut |l| panic!("{}", l)).unwrap();
        let (mut wide, mut bytes) = (0, 0);
        for n in 1..=3 {
            for key in keys_of(n) {
                let e = narrow.slice(key).unwrap();
                let r = real.slice(key).unwrap();
                let longest = (0..r.len())
                    .map(|i| r.get(i).unwrap().distance())
                    .max()
                    .unwrap();
                assert_eq!(e.width(), if longest > 4 { 2 } else { 1 }, "{:?}", key);
                assert_eq!(r.width(), 1);
                assert_eq!(loaded.slice(key).unwrap().width(), e.width());
                if e.width() == 2 {
                    wide += 1;
                } else {
                    bytes += 1;
                }
                for i in 0..r.len() {
                    let v = r.get(i);
                    assert!(v.is_some(), "{:?} {}", unrank(key, i), i);
                    assert_eq!(e.get(i), v, "{:?} {}", key, i);
                    assert_eq!(loaded.value(key, i), v, "{:?} {}", key, i);
                }
            }
        }
        assert!(
            wide > 0 && bytes > 0,
            "{} wide, {} byte slices",
            wide,
            bytes
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Plain files (format 2, as builds before the compressed form wrote them) are
    /// read as they are, and a build converts each to a compressed file with a line
    /// saying so, building nothing; the values are the same through either.
    #[test]
    fn plain_files_are_read_and_converted_with_a_line() {
        let dir = std::env::temp_dir().join(format!("ply-cdb-plain-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let (real, _) = build_in_memory(3, 2).unwrap();
        let keys: Vec<SliceKey> = (1..=3).flat_map(keys_of).collect();
        for &key in &keys {
            let Some(Slice::Plain(e)) = real.slice(key) else {
                panic!()
            };
            file::save_plain(&file::plain_path(&dir, key), key, e).unwrap();
        }
        let same = |db: &Database, packed: bool| {
            for &key in &keys {
                let s = db.slice(key).unwrap();
                assert_eq!(matches!(s, Slice::Packed(_)), packed, "{:?}", key);
                for i in 0..slice_size(key) {
                    assert_eq!(db.value(key, i), real.value(key, i), "{:?} {}", key, i);
                }
            }
        };
        same(load(&dir, &mut |l| panic!("{}", l)).unwrap(), false);
        let mut lines = Vec::new();
        let (built, report) = build_into(3, 2, Some(&dir), BYTE_MAX_DISTANCE, &mut |l| {
            lines.push(l.to_string())
        })
        .unwrap();
        assert_eq!((report.built, report.converted), (0, keys.len()));
        let converted = lines
            .iter()
            .filter(|l| l.contains(".v2.cdb: converted to the compressed form m"))
            .count();
        assert_eq!(converted, keys.len(), "{:?}", lines);
        same(built, false);
        for &key in &keys {
            assert!(file::path(&dir, key).exists());
        }
        // The compressed files are read first; the plain ones may go.
        same(load(&dir, &mut |l| panic!("{}", l)).unwrap(), true);
        for &key in &keys {
            std::fs::remove_file(file::plain_path(&dir, key)).unwrap();
        }
        same(load(&dir, &mut |l| panic!("{}", l)).unwrap(), true);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

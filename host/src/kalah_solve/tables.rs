//! The endgame tables of `ply solve kalah` on disk: one file per number of pits and
//! capture rule in the tables directory (format and checks: `table_file.rs`), read as
//! far as a solve needs and as far as its checksums match, and extended (the missing
//! or damaged layers built on all cores, the file rewritten whole) when it needs more
//! seeds in play than the file holds good.

use std::fs;
use std::path::PathBuf;
use std::sync::atomic::{AtomicI8, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use ply_core::games::kalah::solver::{
    build_layer, layer_range, pack_tables, packed_layers, reorder_rows_first, table_len,
    EndgameTables, UNKNOWN,
};

use super::table_file;

/// How long a build of several layers goes on before it saves the layers it has.
const SAVE_EVERY: std::time::Duration = std::time::Duration::from_secs(60);

/// The seeds in play the endgame tables cover by default for `pits` pits a row:
/// as many as build in well under a minute on two cores and fit a few hundred MB.
pub fn default_table_seeds(pits: u8) -> u32 {
    match pits {
        1..=3 => 30,
        4 => 26,
        5 => 22,
        6 => 20,
        _ => 14,
    }
}

/// The most entries of endgame tables the AI players build on their own when no
/// file holds any for the board ([`play_seeds`]): 2^24, about a second on two cores
/// (20-seed tables for 6 pits, 226 M entries, take 15 s).
pub(super) const CHEAP_ENTRIES: usize = 1 << 24;

/// The seeds in play of the endgame-table file on disk that a search of a board with
/// `in_play` seeds on it uses when `PLY_KALAH_TABLE_SEEDS` does not say: every layer
/// of the file, unless it holds more than [`default_table_seeds`] and those (at most
/// `in_play`) would take more than half the memory free now, when the default.
/// `None` when there is no good file. `dir` as for [`load_or_build_tables`].
pub(super) fn usable_seeds_on_disk(
    pits: u8,
    empty_capture: bool,
    in_play: u32,
    dir: Option<PathBuf>,
) -> Option<u32> {
    let k = seeds_on_disk(pits, empty_capture, dir)?;
    let default = default_table_seeds(pits);
    if k <= default {
        return Some(k);
    }
    let bytes = memory_of(pits, k.min(in_play)) as u64;
    let fits = crate::memory::check_available(bytes.saturating_mul(2), "").is_ok();
    Some(if fits { k } else { default })
}

/// The seeds in play of the endgame tables the AI players use on a board of `pits`
/// pits with `total` seeds when `PLY_KALAH_TABLE_SEEDS` does not say: the file on
/// disk's ([`usable_seeds_on_disk`]), else the most up to [`default_table_seeds`]
/// whose tables have at most [`CHEAP_ENTRIES`] entries (built then, in about a
/// second, and saved), at most `total`; 0 when even one seed is too many.
pub(super) fn play_seeds(pits: u8, empty_capture: bool, total: u32, dir: Option<PathBuf>) -> u32 {
    if let Some(k) = usable_seeds_on_disk(pits, empty_capture, total, dir) {
        return k.min(total);
    }
    (0..=default_table_seeds(pits).min(total))
        .rev()
        .find(|&k| table_len(pits, k).is_some_and(|n| n <= CHEAP_ENTRIES))
        .unwrap_or(0)
}

/// The seeds in play of the good endgame-table file for `pits` and the capture rule
/// in the tables directory (`dir` as for [`load_or_build_tables`]), if there is one.
pub(super) fn seeds_on_disk(pits: u8, empty_capture: bool, dir: Option<PathBuf>) -> Option<u32> {
    table_file::seeds_in(
        &tables_dir(dir).join(table_file::file_name(pits, empty_capture)),
        pits,
        empty_capture,
    )
}

/// Turns the endgame-table file of format 2 for `pits` and the capture rule in the
/// tables directory (`dir` as for [`load_or_build_tables`]) into a file of this
/// format, if there is one and no file of this format yet: the same entries, put in
/// this format's order (`reorder_rows_first`, on `threads` threads), its layers'
/// checksums checked as a load checks them (the good layers before a damaged one are
/// kept). Building 30-seed tables again would take hours; this takes seconds a
/// gigabyte. The old file is left; a line says it can be removed.
pub(super) fn upgrade_format_2(
    pits: u8,
    empty_capture: bool,
    threads: usize,
    dir: Option<PathBuf>,
    progress: &mut dyn FnMut(&str),
) -> Result<(), String> {
    let dir = tables_dir(dir);
    let new = dir.join(table_file::file_name(pits, empty_capture));
    let old = dir.join(table_file::file_name_of_format(
        pits,
        empty_capture,
        table_file::FORMAT_2,
    ));
    if new.exists() || !old.exists() {
        return Ok(());
    }
    let Some(header) =
        table_file::header_of_format(&old, pits, empty_capture, table_file::FORMAT_2)
    else {
        progress(&format!(
            "endgame tables: not reading {}: its header does not check out (it can be removed)",
            old.display()
        ));
        return Ok(());
    };
    let t = Instant::now();
    let len = table_len(pits, header.seeds)
        .ok_or_else(|| format!("endgame tables of {} seeds are out of range", header.seeds))?;
    let what = format!("the {} seeds in play of {}", header.seeds, old.display());
    let mut values: Vec<AtomicI8> = match crate::memory::huge_page_capacity(len, &what) {
        Ok(v) => v,
        Err(e) => {
            progress(&format!("endgame tables: not turned into this format: {e}"));
            return Ok(());
        }
    };
    let loaded = table_file::load_format(
        &old,
        pits,
        empty_capture,
        header.seeds,
        &mut values,
        table_file::FORMAT_2,
        &mut |n, layer| {
            reorder_layer(pits, n, layer, threads)?;
            progress(&format!(
                "endgame tables: put {} seeds in play ({} entries) of {} in this format's order",
                n,
                layer.len(),
                old.display()
            ));
            Ok(())
        },
    )?;
    if let Some(p) = &loaded.problem {
        progress(&format!("endgame tables: {}: {}", old.display(), p));
    }
    if loaded.layers == 0 {
        return Ok(());
    }
    let seeds = loaded.layers - 1;
    let kept = &values[..layer_range(pits, seeds).end];
    if let Err(e) = table_file::save(&new, pits, empty_capture, seeds, kept) {
        // As for tables built where no file can be written: the solve goes on
        // (and builds its tables).
        progress(&format!(
            "endgame tables: not turned into this format: cannot write {}: {}",
            new.display(),
            e
        ));
        return Ok(());
    }
    progress(&format!(
        "endgame tables: turned 0 to {} seeds in play of {} (format 2) into {} in {:.2} s; the old file can be removed",
        seeds,
        old.display(),
        new.display(),
        t.elapsed().as_secs_f64()
    ));
    Ok(())
}

/// Puts the layer of `n` seeds in play, read from a file of format 2, in this
/// format's order, on `threads` threads.
fn reorder_layer(pits: u8, n: u32, layer: &[AtomicI8], threads: usize) -> Result<(), String> {
    let old: Vec<AtomicI8> = layer
        .iter()
        .map(|v| AtomicI8::new(v.load(Ordering::Relaxed)))
        .collect();
    in_chunks(threads, layer.len(), 1 << 20, |part| {
        reorder_rows_first(pits, n, &old, layer, part)
    })
}

/// Runs `work` on `threads` threads over `0..len` in parts of `chunk`, each thread
/// taking the next part nobody has; a thread stops at its first error, which is
/// returned.
fn in_chunks(
    threads: usize,
    len: usize,
    chunk: usize,
    work: impl Fn(std::ops::Range<usize>) -> Result<(), &'static str> + Sync,
) -> Result<(), String> {
    let next = AtomicUsize::new(0);
    let failed = Mutex::new(None);
    std::thread::scope(|s| {
        for _ in 0..threads.max(1) {
            s.spawn(|| loop {
                let lo = next.fetch_add(chunk, Ordering::Relaxed);
                if lo >= len {
                    break;
                }
                if let Err(e) = work(lo..(lo + chunk).min(len)) {
                    *failed.lock().unwrap() = Some(e);
                    break;
                }
            });
        }
    });
    match failed.into_inner().unwrap() {
        Some(e) => Err(e.to_string()),
        None => Ok(()),
    }
}

/// Where the endgame tables live: `PLY_TABLES_DIR` (`dir`, checked by
/// [`crate::settings::environment`]: never empty), else the user's cache directory.
/// An empty `XDG_CACHE_HOME` or `HOME` counts as unset (the XDG rule); with neither
/// set the tables go to `.ply-tables` in the current directory (docs/games/kalah/tables.md
/// says so).
pub(crate) fn tables_dir(dir: Option<PathBuf>) -> PathBuf {
    if let Some(d) = dir {
        return d;
    }
    let set = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
    if let Some(d) = set("XDG_CACHE_HOME") {
        return PathBuf::from(d).join("ply");
    }
    if let Some(d) = set("HOME") {
        return PathBuf::from(d).join(".cache").join("ply");
    }
    PathBuf::from(".ply-tables")
}

/// The memory of the endgame tables: the file mapped in place (when it holds every
/// layer a solve needs, all good), or entries read and built into memory of its own
/// (five bits an entry up to 31 seeds in play, else a byte).
pub(super) enum TableMemory {
    /// The layers, mapped from the file ([`table_file::map`]).
    #[cfg(unix)]
    Mapped(table_file::Mapped),
    /// The layers, a byte an entry, read from the file as far as it went and built
    /// from there.
    Owned(Vec<AtomicI8>),
    /// The layers, five bits an entry ([`table_file::load_packed`]).
    Packed(Vec<u8>),
}

impl TableMemory {
    /// The entries.
    pub(super) fn entries(&self) -> table_file::Entries<'_> {
        match self {
            #[cfg(unix)]
            TableMemory::Mapped(m) => m.entries(),
            TableMemory::Owned(v) => table_file::Entries::Bytes(v),
            TableMemory::Packed(p) => table_file::Entries::Packed(p),
        }
    }

    /// The endgame tables of `0..=seeds` seeds in play for `pits` and the rule over
    /// this memory.
    pub(super) fn tables(
        &self,
        pits: u8,
        empty_capture: bool,
        seeds: u32,
    ) -> Result<EndgameTables<'_>, String> {
        match self.entries() {
            table_file::Entries::Bytes(v) => EndgameTables::new(pits, empty_capture, seeds, v),
            table_file::Entries::Packed(p) => EndgameTables::packed(pits, empty_capture, seeds, p),
        }
        .map_err(|e| e.to_string())
    }
}

/// Bytes of memory a solve's endgame tables of `0..=seeds` seeds in play take for
/// `pits` pits: five bits an entry up to 31 seeds, else a byte.
pub(super) fn memory_of(pits: u8, seeds: u32) -> usize {
    match packed_layers(pits, seeds) {
        Some(layout) => layout.len(),
        None => table_len(pits, seeds).unwrap_or(usize::MAX),
    }
}

/// Whether a solve with `in_play` seeds in play maps endgame tables of `seeds`
/// seeds in play from their file rather than reading them into memory of its own.
///
/// Mapping costs nothing up front, but the file's pages are 4 KiB, and the
/// search's random probes then miss the TLB far more than in the huge pages of
/// memory read for it: with the children's entries prefetched, Kalah(6,4) with
/// 22-seed tables searched in 29.9 s mapped and 24.5 s read (one thread,
/// docs/games/kalah/tables.md). Reading a table costs a second or more a gigabyte here,
/// so it pays only for long solves: those with more than [`MAP_GAP`] seeds in play
/// beyond the tables (every two seeds of gap about double the search).
pub(super) fn maps_tables(in_play: u32, seeds: u32) -> bool {
    in_play <= seeds + MAP_GAP
}

/// The most seeds in play beyond the endgame tables' for which they are mapped
/// ([`maps_tables`]): Kalah(6,4) with 26-seed tables (4 s of search on two
/// threads) maps them; Kalah(6,4) with 22 seeds and Kalah(6,5) read them.
const MAP_GAP: u32 = 24;

/// Endgame tables for `pits` and a capture rule covering `seeds` seeds in play:
/// mapped from the file when `map` is set and the file holds them all and they
/// check out (no copy, no memory of their own); else loaded from disk as far as
/// the file goes into huge pages, the rest built on `threads` threads and the file
/// rewritten (to a temporary name, then renamed, so an interrupted run never
/// leaves a damaged file).
pub(super) fn load_or_build_tables(
    pits: u8,
    empty_capture: bool,
    seeds: u32,
    map: bool,
    threads: usize,
    dir: Option<PathBuf>,
    progress: &mut dyn FnMut(&str),
) -> Result<(TableMemory, String), String> {
    let len = table_len(pits, seeds)
        .ok_or_else(|| format!("endgame tables of {} seeds are out of range", seeds))?;
    let dir = tables_dir(dir);
    let path = dir.join(table_file::file_name(pits, empty_capture));
    #[cfg(unix)]
    if !map {
    } else if let Some(m) = table_file::map(&path, pits, empty_capture, seeds, threads, true)? {
        let note = found(progress, "mapped", "checksums checked", seeds, len, &path);
        return Ok((TableMemory::Mapped(m), note));
    }
    // Up to 31 seeds in play, a file of five-bit entries holding every layer asked
    // for, all good, is read as it is.
    if let Some(layout) = packed_layers(pits, seeds) {
        if let Some(p) = read_packed(&path, pits, empty_capture, seeds, layout.len())? {
            let note = found(progress, "loaded", "five bits each", seeds, len, &path);
            return Ok((TableMemory::Packed(p), note));
        }
    }
    // One build of a file at a time (the ranks of an MPI run on one machine, two
    // solves started together): a second process building the same tables would
    // compute them twice and write over the first's file. It waits for the first
    // instead, then maps or reads what that one saved. Taken before the memory for
    // the entries, and only where the file can be saved at all (its directory
    // there or made); a lock that cannot be taken (a file system without locks)
    // builds as before.
    let _lock = if fs::create_dir_all(&dir).is_ok() {
        match crate::files::Lock::attempt(&path, false) {
            Ok(crate::files::Attempt::Taken(lock)) => Some(lock),
            Ok(crate::files::Attempt::Held(pid)) => {
                progress(&format!(
                    "endgame tables: waiting for {}, which is building {}",
                    crate::files::holder(pid),
                    path.display()
                ));
                drop(crate::files::Lock::attempt(&path, true));
                return load_or_build_tables(
                    pits,
                    empty_capture,
                    seeds,
                    map,
                    threads,
                    Some(dir),
                    progress,
                );
            }
            Err(_) => None,
        }
    } else {
        None
    };
    let mut values: Vec<AtomicI8> = crate::memory::huge_page_capacity(
        len,
        &format!(
            "endgame tables of {} seeds in play (PLY_KALAH_TABLE_SEEDS)",
            seeds
        ),
    )?;
    // Only layers whose checksums match are used; the rest are built again.
    let loaded = table_file::load(&path, pits, empty_capture, seeds, &mut values)?;
    let have = loaded.layers; // layers 0..have are loaded
    if have > 0 {
        progress(&format!(
            "endgame tables: loaded {} seeds in play ({} entries) from {}",
            have - 1,
            values.len(),
            path.display()
        ));
    }
    let damaged = loaded.problem.is_some();
    if let Some(p) = &loaded.problem {
        progress(&format!(
            "endgame tables: {}: {}; rebuilding from {} seeds in play",
            path.display(),
            p,
            have,
        ));
    }
    let legacy = dir.join(table_file::legacy_file_name(pits, empty_capture));
    if have == 0 && legacy.exists() {
        progress(&format!(
            "endgame tables: not reading {}: its format has no checksums (it can be removed)",
            legacy.display()
        ));
    }
    values.resize_with(len, || AtomicI8::new(UNKNOWN));
    let mut built = false;
    let save = |n: u32| -> std::io::Result<()> {
        fs::create_dir_all(&dir)?;
        // Written under a temporary name that Ctrl-C removes, renamed when complete.
        table_file::save(&path, pits, empty_capture, n, &values)
    };
    // Long builds save what they have now and then, so that Ctrl-C or a kill loses
    // at most about a minute of building.
    let mut unsaved = Instant::now();
    for n in have..=seeds {
        let t = Instant::now();
        let range = layer_range(pits, n);
        in_chunks(threads, range.len(), 1 << 16, |part| {
            build_layer(pits, empty_capture, n, &values, part)
        })?;
        built = true;
        progress(&format!(
            "endgame tables: built {} seeds in play ({} positions) in {:.2} s",
            n,
            range.len(),
            t.elapsed().as_secs_f64()
        ));
        if n < seeds && unsaved.elapsed() >= SAVE_EVERY {
            match save(n) {
                Ok(()) => progress(&format!(
                    "endgame tables: saved 0 to {} seeds in play so far to {}",
                    n,
                    path.display()
                )),
                Err(e) => progress(&format!(
                    "endgame tables: not saved to {}: {}",
                    path.display(),
                    e
                )),
            }
            unsaved = Instant::now();
        }
    }
    let mut note = format!(
        "endgame tables: up to {} seeds in play, {} entries",
        seeds, len
    );
    // A file of a byte an entry holding just these layers, which five bits hold, is
    // rewritten in five bits (a file of more layers is left whole).
    let repack = packed_layers(pits, seeds).is_some()
        && table_file::seeds_in(&path, pits, empty_capture) == Some(seeds)
        && table_file::bits_in(&path, pits, empty_capture) == Some(8);
    let mut saved = false;
    if built || damaged || repack {
        match save(seeds) {
            Ok(()) => {
                saved = true;
                note += &format!(", saved to {}", path.display())
            }
            Err(e) => note += &format!(" (not saved to {}: {})", path.display(), e),
        }
    } else {
        note += &format!(", from {}", path.display());
    }
    // Up to 31 seeds in play the solve probes five-bit entries: read back from the
    // file just written (the bytes freed first, so that the two forms are never in
    // memory together), else packed here.
    if let Some(layout) = packed_layers(pits, seeds) {
        let packed = if saved {
            drop(values);
            read_packed(&path, pits, empty_capture, seeds, layout.len())?.ok_or_else(|| {
                format!(
                    "endgame tables: {} could not be read back after it was written",
                    path.display()
                )
            })?
        } else {
            let mut p: Vec<u8> = crate::memory::huge_page_capacity(
                layout.len(),
                &format!(
                    "endgame tables of {} seeds in play (PLY_KALAH_TABLE_SEEDS)",
                    seeds
                ),
            )?;
            p.resize(layout.len(), 0);
            pack_tables(pits, seeds, &values, &mut p).map_err(|e| e.to_string())?;
            p
        };
        return Ok((TableMemory::Packed(packed), note + ", five bits an entry"));
    }
    Ok((TableMemory::Owned(values), note))
}

/// Says that the tables of `seeds` seeds in play (`len` entries) were found whole in
/// the file at `path` (`how`: "mapped", "loaded"; `what`: about the entries), and
/// returns the solve's note about them.
fn found(
    progress: &mut dyn FnMut(&str),
    how: &str,
    what: &str,
    seeds: u32,
    len: usize,
    path: &std::path::Path,
) -> String {
    progress(&format!(
        "endgame tables: {how} {seeds} seeds in play ({len} entries, {what}) from {}",
        path.display()
    ));
    format!(
        "endgame tables: up to {seeds} seeds in play, {len} entries, {what}, {how} from {}",
        path.display()
    )
}

/// The five-bit tables of the file at `path` ([`table_file::load_packed`]) in
/// memory of their own with huge pages, if the file holds them all and they check
/// out.
fn read_packed(
    path: &std::path::Path,
    pits: u8,
    empty_capture: bool,
    seeds: u32,
    bytes: usize,
) -> Result<Option<Vec<u8>>, String> {
    match table_file::header_of(path, pits, empty_capture) {
        Some(h) if h.bits == 5 && h.seeds >= seeds => {}
        _ => return Ok(None),
    }
    let mut p: Vec<u8> = crate::memory::huge_page_capacity(
        bytes,
        &format!(
            "endgame tables of {} seeds in play (PLY_KALAH_TABLE_SEEDS)",
            seeds
        ),
    )?;
    Ok(table_file::load_packed(path, pits, empty_capture, seeds, &mut p)?.then_some(p))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply_core::games::kalah::solver::build_tables;

    fn table(pits: u8, seeds: u32) -> Vec<AtomicI8> {
        let len = table_len(pits, seeds).unwrap();
        let v: Vec<AtomicI8> = (0..len).map(|_| AtomicI8::new(0)).collect();
        build_tables(pits, false, seeds, 0, &v, |_| {}).unwrap();
        v
    }

    fn five_bits(m: &TableMemory) -> Vec<u8> {
        match m.entries() {
            table_file::Entries::Packed(p) => p.to_vec(),
            table_file::Entries::Bytes(_) => panic!("tables of a byte an entry"),
        }
    }

    #[test]
    fn players_use_the_file_on_disk_else_tables_that_build_in_a_second() {
        let dir = std::env::temp_dir().join(format!("ply-tables-play-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        let at = || Some(dir.clone());
        // No file: the most seeds whose tables have at most CHEAP_ENTRIES entries,
        // up to the default and the board's seeds.
        assert_eq!(play_seeds(6, false, 48, at()), 14);
        assert!(table_len(6, 14).unwrap() <= CHEAP_ENTRIES);
        assert!(table_len(6, 15).unwrap() > CHEAP_ENTRIES);
        assert_eq!(play_seeds(6, false, 10, at()), 10);
        assert_eq!(play_seeds(3, false, 18, at()), 18);
        assert_eq!(play_seeds(8, true, 96, at()), 11);
        // A file: its seeds, at most the board's, whatever the default; for the
        // other capture rule there is none.
        let path = dir.join(table_file::file_name(3, false));
        table_file::save(&path, 3, false, 9, &table(3, 9)).unwrap();
        assert_eq!(usable_seeds_on_disk(3, false, 18, at()), Some(9));
        assert_eq!(play_seeds(3, false, 18, at()), 9);
        assert_eq!(play_seeds(3, false, 6, at()), 6);
        assert_eq!(usable_seeds_on_disk(3, true, 18, at()), None);
        assert_eq!(play_seeds(3, true, 18, at()), 18);
        let _ = fs::remove_dir_all(dir);
    }

    #[test]
    fn a_file_of_a_byte_an_entry_is_rewritten_in_five_bits_and_read_as_such() {
        let dir = std::env::temp_dir().join(format!("ply-tables-repack-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join(table_file::file_name(3, false));
        let t = table(3, 12);
        table_file::save_as(&path, 3, false, 12, &t, 8).unwrap();
        let mut want = vec![0u8; packed_layers(3, 12).unwrap().len()];
        pack_tables(3, 12, &t, &mut want).unwrap();
        let (m, note) =
            load_or_build_tables(3, false, 12, false, 2, Some(dir.clone()), &mut |_| {}).unwrap();
        assert!(
            note.contains("saved to") && note.contains("five bits"),
            "{note}"
        );
        assert_eq!(five_bits(&m), want);
        assert_eq!(table_file::bits_in(&path, 3, false), Some(5));
        // Read again: as it is, nothing rewritten.
        let (m, note) =
            load_or_build_tables(3, false, 12, false, 2, Some(dir.clone()), &mut |_| {}).unwrap();
        assert!(note.contains("five bits each, loaded from"), "{note}");
        assert_eq!(five_bits(&m), want);
        // Tables built where no file can be written (not even by root: /proc takes
        // no folders) are packed in memory.
        #[cfg(target_os = "linux")]
        {
            let nowhere = std::path::PathBuf::from("/proc/ply-no-tables");
            let (m, note) =
                load_or_build_tables(3, false, 9, false, 2, Some(nowhere), &mut |_| {}).unwrap();
            assert!(
                note.contains("not saved") && note.contains("five bits"),
                "{note}"
            );
            let mut want = vec![0u8; packed_layers(3, 9).unwrap().len()];
            pack_tables(3, 9, &t, &mut want).unwrap();
            assert_eq!(five_bits(&m), want);
        }
        let _ = fs::remove_dir_all(dir);
    }

    /// The tables `t` (`pits` pits, `0..=seeds`) in the order of format 2: each
    /// layer's layouts ranked with the rows one after the other, from the definition
    /// of the combinatorial number system (not from the core's rank).
    fn rows_first(t: &[AtomicI8], pits: u8, seeds: u32) -> Vec<AtomicI8> {
        let tables = EndgameTables::new(pits, false, seeds, t).unwrap();
        let binom =
            |a: u32, k: u32| (0..k).fold(1u64, |c, i| c * u64::from(a - i) / u64::from(i + 1));
        let m = 2 * u32::from(pits);
        let old: Vec<AtomicI8> = (0..t.len()).map(|_| AtomicI8::new(i8::MIN)).collect();
        for n in 0..=seeds {
            let start = layer_range(pits, n).start;
            // Every layout: m digits in base n + 1 summing to n.
            for code in 0..u64::from(n + 1).pow(m) {
                let c: Vec<u32> = (0..m)
                    .map(|i| (code / u64::from(n + 1).pow(i) % u64::from(n + 1)) as u32)
                    .collect();
                if c.iter().sum::<u32>() != n {
                    continue;
                }
                let row = |r: &[u32]| r.iter().rev().fold(0u64, |w, &x| w << 8 | u64::from(x));
                let (own, opp) = (row(&c[..pits as usize]), row(&c[pits as usize..]));
                let (mut r, mut bar) = (0u64, 0u32);
                for j in 0..m - 1 {
                    bar += c[j as usize];
                    r += binom(bar + j, j + 1);
                }
                let v = tables.probe(own, opp, n).unwrap() as i8;
                old[start + r as usize].store(v, Ordering::Relaxed);
            }
        }
        old
    }

    #[test]
    fn a_file_of_format_2_is_turned_into_this_format_once() {
        let dir = std::env::temp_dir().join(format!("ply-tables-format-2-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        let (pits, seeds) = (2u8, 9u32);
        let t = table(pits, seeds);
        let old = rows_first(&t, pits, seeds);
        let bytes = |v: &[AtomicI8]| {
            v.iter()
                .map(|x| x.load(Ordering::Relaxed))
                .collect::<Vec<_>>()
        };
        assert!(bytes(&old).iter().all(|&x| x != i8::MIN));
        assert_ne!(bytes(&old), bytes(&t), "the two orders differ");
        // A file of format 2: this format's writer, then the version and the
        // header's checksum changed.
        let v2 = dir.join(table_file::file_name_of_format(
            pits,
            false,
            table_file::FORMAT_2,
        ));
        table_file::save(&v2, pits, false, seeds, &old).unwrap();
        let mut file = fs::read(&v2).unwrap();
        file[8..12].copy_from_slice(&table_file::FORMAT_2.to_le_bytes());
        let header = 32 + 8 * (seeds as usize + 1);
        let sum = super::super::checksum::checksum(&file[..header]);
        file[header..header + 8].copy_from_slice(&sum.to_le_bytes());
        fs::write(&v2, &file).unwrap();
        let mut lines = Vec::new();
        let mut progress = |l: &str| lines.push(l.to_string());
        upgrade_format_2(pits, false, 2, Some(dir.clone()), &mut progress).unwrap();
        assert!(
            lines
                .iter()
                .any(|l| l.contains("turned 0 to 9 seeds in play")),
            "{lines:?}"
        );
        let new = dir.join(table_file::file_name(pits, false));
        let mut got = Vec::new();
        let loaded = table_file::load(&new, pits, false, seeds, &mut got).unwrap();
        assert_eq!((loaded.layers, loaded.problem), (seeds + 1, None));
        assert_eq!(bytes(&got), bytes(&t));
        // Once: with a file of this format there, nothing is done.
        lines.clear();
        let mut progress = |l: &str| lines.push(l.to_string());
        upgrade_format_2(pits, false, 2, Some(dir.clone()), &mut progress).unwrap();
        assert!(lines.is_empty(), "{lines:?}");
        // A damaged layer of the old file: the layers before it are kept.
        fs::remove_file(&new).unwrap();
        let at = file.len() - 3;
        file[at] ^= 0x10;
        fs::write(&v2, &file).unwrap();
        let mut progress = |l: &str| lines.push(l.to_string());
        upgrade_format_2(pits, false, 2, Some(dir.clone()), &mut progress).unwrap();
        assert!(
            lines.iter().any(|l| l.contains("fails its checksum")),
            "{lines:?}"
        );
        assert!(
            lines
                .iter()
                .any(|l| l.contains("turned 0 to 8 seeds in play")),
            "{lines:?}"
        );
        // A new file that cannot be written (a folder where its temporary goes):
        // a line says so, and the solve goes on.
        fs::remove_file(&new).unwrap();
        fs::create_dir_all(crate::interrupt::temp_path(&new)).unwrap();
        lines.clear();
        let mut progress = |l: &str| lines.push(l.to_string());
        upgrade_format_2(pits, false, 2, Some(dir.clone()), &mut progress).unwrap();
        let refused = "not turned into this format: cannot write";
        assert!(lines.iter().any(|l| l.contains(refused)), "{lines:?}");
        assert!(!new.exists());
        let _ = fs::remove_dir_all(dir);
    }
}

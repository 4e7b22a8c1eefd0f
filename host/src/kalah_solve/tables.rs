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

use ply_core::games::kalah::solver::{build_layer, layer_range, table_len, UNKNOWN};

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

/// The seeds in play of the good endgame-table file for `pits` and the capture rule
/// in the tables directory (`dir` as for [`load_or_build_tables`]), if there is one.
pub(super) fn seeds_on_disk(pits: u8, empty_capture: bool, dir: Option<PathBuf>) -> Option<u32> {
    table_file::seeds_in(
        &tables_dir(dir).join(table_file::file_name(pits, empty_capture)),
        pits,
        empty_capture,
    )
}

/// Where the endgame tables live: `PLY_TABLES_DIR` (`dir`, checked by
/// [`crate::settings::environment`]: never empty), else the user's cache directory.
/// An empty `XDG_CACHE_HOME` or `HOME` counts as unset (the XDG rule), so tables
/// never land in the current directory by accident.
fn tables_dir(dir: Option<PathBuf>) -> PathBuf {
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
/// layer a solve needs, all good), or entries read and built into memory of its own.
pub(super) enum TableMemory {
    /// The layers, mapped from the file ([`table_file::map`]).
    #[cfg(unix)]
    Mapped(table_file::Mapped),
    /// The layers, read from the file as far as it went and built from there.
    Owned(Vec<AtomicI8>),
}

impl TableMemory {
    /// The entries.
    pub(super) fn values(&self) -> &[AtomicI8] {
        match self {
            #[cfg(unix)]
            TableMemory::Mapped(m) => m.values(),
            TableMemory::Owned(v) => v,
        }
    }
}

/// Whether a solve with `in_play` seeds in play maps endgame tables of `seeds`
/// seeds in play from their file rather than reading them into memory of its own.
///
/// Mapping costs nothing up front, but the file's pages are 4 KiB, and the
/// search's random probes then miss the TLB far more than in the huge pages of
/// memory read for it: with the children's entries prefetched, Kalah(6,4) with
/// 22-seed tables searched in 29.9 s mapped and 24.5 s read (one thread,
/// docs/games/kalah.md). Reading a table costs a second or more a gigabyte here,
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
    } else if let Some(m) = table_file::map(&path, pits, empty_capture, seeds, threads)? {
        progress(&format!(
            "endgame tables: mapped {} seeds in play ({} entries, checksums checked) from {}",
            seeds,
            len,
            path.display()
        ));
        let note = format!(
            "endgame tables: up to {} seeds in play, {} entries, mapped from {}",
            seeds,
            len,
            path.display()
        );
        return Ok((TableMemory::Mapped(m), note));
    }
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
        let chunk = 1 << 16;
        let chunks = range.len().div_ceil(chunk);
        let next = AtomicUsize::new(0);
        let failed = Mutex::new(None);
        std::thread::scope(|s| {
            for _ in 0..threads.max(1) {
                s.spawn(|| loop {
                    let c = next.fetch_add(1, Ordering::Relaxed);
                    if c >= chunks {
                        break;
                    }
                    let lo = c * chunk;
                    let hi = (lo + chunk).min(range.len());
                    if let Err(e) = build_layer(pits, empty_capture, n, &values, lo..hi) {
                        *failed.lock().unwrap() = Some(e);
                        break;
                    }
                });
            }
        });
        if let Some(e) = failed.into_inner().unwrap() {
            return Err(e.to_string());
        }
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
    if built || damaged {
        match save(seeds) {
            Ok(()) => note += &format!(", saved to {}", path.display()),
            Err(e) => note += &format!(" (not saved to {}: {})", path.display(), e),
        }
    } else {
        note += &format!(", from {}", path.display());
    }
    Ok((TableMemory::Owned(values), note))
}

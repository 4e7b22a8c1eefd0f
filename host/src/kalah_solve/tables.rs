//! The endgame tables of `ply solve kalah` on disk: one file per number of pits and
//! capture rule in the tables directory, read as far as a solve needs, and extended
//! (the missing layers built on all cores, the file rewritten whole) when it needs
//! more seeds in play than the file holds.

use std::fs;
use std::io::Read;
use std::path::PathBuf;
use std::sync::atomic::{AtomicI8, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use ply_core::games::kalah::solver::{
    build_layer, layer_range, table_len, MAX_TABLE_SEEDS, UNKNOWN,
};

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

/// Endgame tables for `pits` and a capture rule covering `seeds` seeds in play:
/// loaded from disk as far as the file goes, the rest built on `threads` threads
/// and the file rewritten (to a temporary name, then renamed, so an interrupted
/// run never leaves a damaged file).
pub(super) fn load_or_build_tables(
    pits: u8,
    empty_capture: bool,
    seeds: u32,
    threads: usize,
    dir: Option<PathBuf>,
    progress: &mut dyn FnMut(&str),
) -> Result<(Vec<AtomicI8>, String), String> {
    let len = table_len(pits, seeds)
        .ok_or_else(|| format!("endgame tables of {} seeds are out of range", seeds))?;
    let dir = tables_dir(dir);
    let name = format!(
        "kalah-{}pits-{}.tbl",
        pits,
        if empty_capture {
            "empty-capture"
        } else {
            "seed-rules"
        }
    );
    let path = dir.join(&name);
    let mut values: Vec<AtomicI8> = crate::memory::huge_page_capacity(
        len,
        &format!(
            "endgame tables of {} seeds in play (PLY_KALAH_TABLE_SEEDS)",
            seeds
        ),
    )?;
    // A file holds a whole table for some K: its length is table_len(pits, K).
    let mut have = 0u32; // layers 0..have are loaded
    if let Ok(mut f) = fs::File::open(&path) {
        let file_len = f.metadata().map(|m| m.len()).unwrap_or(0);
        let file_seeds =
            (0..=MAX_TABLE_SEEDS).find(|&k| table_len(pits, k).map(|l| l as u64) == Some(file_len));
        match file_seeds {
            Some(k) => {
                let use_seeds = k.min(seeds);
                let take = table_len(pits, use_seeds).unwrap_or(0);
                let mut buf = vec![0u8; take];
                f.read_exact(&mut buf)
                    .map_err(|e| format!("cannot read {}: {}", path.display(), e))?;
                values.extend(buf.into_iter().map(|b| AtomicI8::new(b as i8)));
                have = use_seeds + 1;
                progress(&format!(
                    "endgame tables: loaded {} seeds in play ({} entries) from {}",
                    use_seeds,
                    take,
                    path.display()
                ));
            }
            None => progress(&format!(
                "endgame tables: ignoring {} (its length fits no table)",
                path.display()
            )),
        }
    }
    values.resize_with(len, || AtomicI8::new(UNKNOWN));
    let mut built = false;
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
    }
    let mut note = format!(
        "endgame tables: up to {} seeds in play, {} entries",
        seeds, len
    );
    if built {
        let save = || -> std::io::Result<()> {
            fs::create_dir_all(&dir)?;
            let bytes: Vec<u8> = values
                .iter()
                .map(|v| v.load(Ordering::Relaxed) as u8)
                .collect();
            // Written under a temporary name that Ctrl-C removes, renamed when complete.
            crate::interrupt::write_atomic(&path, &bytes)
        };
        match save() {
            Ok(()) => note += &format!(", saved to {}", path.display()),
            Err(e) => note += &format!(" (not saved to {}: {})", path.display(), e),
        }
    } else {
        note += &format!(", from {}", path.display());
    }
    Ok((values, note))
}

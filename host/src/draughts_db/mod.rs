//! The endgame databases of English draughts on disk (`ply db build checkers`):
//! one file a slice in `checkers-db/` of the tables directory (`PLY_TABLES_DIR`, as
//! the Kalah tables), built by the core's retrograde analysis
//! ([`ply_core::games::draughts::db::build`]) a pair of slices at a time on every
//! core, in dependency order, each pair's files written as soon as it is done (so a
//! build stopped by Ctrl-C or a kill goes on from the slices on disk), and loaded
//! for `ply solve checkers` and the AI players. docs/games/draughts-databases.md
//! describes them.

pub mod cache;
pub mod file;
pub mod job;

use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU16, AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::Instant;

use ply_core::games::draughts::db::{
    build, check, entry_width, keys_of, slice_size, BuildError, Database, Entries, Inflater, Pair,
    Slice, SliceKey, Value, BLOCK_ENTRIES, BYTE_MAX_DISTANCE, MAX_DISTANCE, MAX_PIECES,
};

/// The most pieces `ply db build` builds on one machine.
pub const MAX_BUILD_PIECES: u32 = MAX_PIECES;

/// The directory of the databases: `checkers-db` in the tables directory
/// (`PLY_TABLES_DIR`, `dir`, else the user's cache directory).
pub fn db_dir(dir: Option<PathBuf>) -> PathBuf {
    crate::kalah_solve::tables::tables_dir(dir).join("checkers-db")
}

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

/// A slice as the summary of a build counts it ([`summary`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SliceSummary {
    /// The slice.
    pub key: SliceKey,
    /// What it holds.
    pub census: SliceCensus,
    /// Bytes of its file.
    pub bytes: u64,
}

/// The lines `ply db build` prints once the slices of 1 to `pieces` pieces are in
/// `dir` (`slices`, in build order): positions and bytes, the slices converted,
/// each piece count's wins, losses, draws and longest distance, what was built now.
pub fn summary(
    pieces: u32,
    dir: &Path,
    slices: &[SliceSummary],
    report: &BuildReport,
) -> Vec<String> {
    let total: u64 = slices.iter().map(|s| slice_size(s.key)).sum();
    let disk: u64 = slices.iter().map(|s| s.bytes).sum();
    let wide = slices.iter().filter(|s| s.census.width == 2).count();
    let mut lines = vec![format!(
        "checkers db: every position with up to {} pieces in {}: {} positions, {} bytes on disk in compressed blocks ({:.3} bytes a position; {} of {} slices two bytes a position)",
        pieces,
        dir.display(),
        total,
        disk,
        disk as f64 / total.max(1) as f64,
        wide,
        slices.len()
    )];
    if report.converted > 0 {
        lines.push(format!(
            "converted now: {} slices from plain files (format 2) to compressed ones",
            report.converted
        ));
    }
    for n in 1..=pieces {
        let mut c = Census::default();
        for s in slices.iter().filter(|s| s.key.pieces() == n) {
            c.add(s.key, &s.census);
        }
        let all = (c.won + c.lost + c.drawn).max(1) as f64;
        let longest = c.longest.map_or("none".to_string(), |(d, loss, key)| {
            format!(
                "{} in {} plies ({})",
                if loss { "a loss" } else { "a win" },
                d,
                file::file_name(key)
            )
        });
        lines.push(format!(
            "{} pieces: {} won ({:.1}%), {} lost ({:.1}%), {} drawn ({:.1}%) for the side to move; longest: {}; {} slices of two-byte entries",
            n,
            c.won,
            100.0 * c.won as f64 / all,
            c.lost,
            100.0 * c.lost as f64 / all,
            c.drawn,
            100.0 * c.drawn as f64 / all,
            longest,
            c.wide
        ));
    }
    if report.built > 0 {
        let rate = crate::output::rate(report.built, report.build_secs * report.threads as f64);
        lines.push(if report.ranks > 1 {
            format!(
                "built now: {} positions in {:.2} s of pairs built, summed over {} ranks of {} threads ({} positions/s per thread)",
                report.built, report.build_secs, report.ranks, report.threads, rate
            )
        } else {
            format!(
                "built now: {} positions in {:.2} s on {} threads ({} positions/s per thread)",
                report.built, report.build_secs, report.threads, rate
            )
        });
    }
    lines
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
fn build_into(
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

/// `bytes` as entries of `width` bytes.
fn entries(bytes: &[u8], width: usize) -> Result<Entries<'_>, String> {
    Entries::new(bytes, width)
        .ok_or_else(|| format!("checkers db: {} bytes an entry (a bug)", width))
}

/// Runs `work` on `threads` threads over `0..len` in parts of `chunk`, summing what
/// the parts return; the first error stops the threads.
fn in_chunks<T: std::ops::AddAssign + Default + Send, E: Send>(
    threads: usize,
    len: u64,
    chunk: u64,
    work: impl Fn(Range<u64>) -> Result<T, E> + Sync,
) -> Result<T, E> {
    let next = AtomicU64::new(0);
    let total = Mutex::new(Ok(T::default()));
    std::thread::scope(|s| {
        for _ in 0..threads.max(1) {
            s.spawn(|| {
                let mut mine = T::default();
                loop {
                    let lo = next.fetch_add(chunk, Ordering::Relaxed);
                    if lo >= len {
                        break;
                    }
                    match work(lo..(lo + chunk).min(len)) {
                        Ok(v) => mine += v,
                        Err(e) => {
                            *total.lock().unwrap() = Err(e);
                            next.store(len, Ordering::Relaxed);
                            return;
                        }
                    }
                }
                if let Ok(t) = total.lock().unwrap().as_mut() {
                    *t += mine;
                }
            });
        }
    });
    total.into_inner().unwrap()
}

/// Checks every position of 1 to `pieces` pieces of `db` against its children
/// ([`check::check_range`]) on `threads` threads; returns the number of positions
/// checked, or a line naming the first inconsistent position found.
pub fn verify(
    db: &Database,
    pieces: u32,
    threads: usize,
    progress: &mut dyn FnMut(&str),
) -> Result<u64, String> {
    let mut checked = 0;
    for n in 1..=pieces {
        let t = Instant::now();
        let mut here = 0;
        for key in keys_of(n) {
            let len = slice_size(key);
            in_chunks(threads, len, 1 << 14, |r| {
                check::check_range(db, key, r).map(|()| Counts(0, 0))
            })
            .map_err(|e| {
                let g = e.position.game_with(ply_core::games::draughts::Rules::english());
                format!(
                    "checkers db: {} (position {} with the mover as Black) holds {:?}, its children give {:?}",
                    file::file_name(key),
                    g,
                    e.found,
                    e.expected
                )
            })?;
            here += len;
        }
        checked += here;
        progress(&format!(
            "checkers db: {} pieces: all {} positions agree with their children ({:.1} s)",
            n,
            here,
            t.elapsed().as_secs_f64()
        ));
    }
    Ok(checked)
}

/// What the slices of one piece count hold ([`census`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Census {
    /// Positions won, lost and drawn for the side to move.
    pub won: u64,
    /// See `won`.
    pub lost: u64,
    /// See `won`.
    pub drawn: u64,
    /// The longest distance to conversion, whether it is a loss (else a win), and
    /// its slice (the first in build order when several share it).
    pub longest: Option<(u16, bool, SliceKey)>,
    /// Slices of two-byte entries.
    pub wide: usize,
}

impl Census {
    /// Adds slice `key`'s counts (slices added in build order).
    pub fn add(&mut self, key: SliceKey, s: &SliceCensus) {
        self.won += s.won;
        self.lost += s.lost;
        self.drawn += s.drawn;
        self.wide += usize::from(s.width == 2);
        if let Some((d, loss)) = s.longest {
            if self.longest.is_none_or(|(l, _, _)| d > l) {
                self.longest = Some((d, loss, key));
            }
        }
    }
}

/// What one slice holds ([`slice_census`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SliceCensus {
    /// Positions won, lost and drawn for the side to move.
    pub won: u64,
    /// See `won`.
    pub lost: u64,
    /// See `won`.
    pub drawn: u64,
    /// The longest distance to conversion, and whether it is a loss (a win where
    /// both are that long).
    pub longest: Option<(u16, bool)>,
    /// Bytes an entry (1 or 2).
    pub width: usize,
}

/// The wins, losses and draws of `db` and its longest distance, for each piece
/// count 1 to `pieces` (its codes counted a slice at a time on `threads` threads).
pub fn census(db: &Database, pieces: u32, threads: usize) -> Vec<Census> {
    let mut all = Vec::new();
    for n in 1..=pieces {
        let mut c = Census::default();
        for key in keys_of(n) {
            if let Some(e) = db.slice(key) {
                c.add(key, &slice_census(e, threads));
            }
        }
        all.push(c);
    }
    all
}

/// The wins, losses and draws of slice `e` and its longest distance (its codes
/// counted on `threads` threads).
pub fn slice_census(e: Slice, threads: usize) -> SliceCensus {
    let mut c = SliceCensus {
        width: e.width(),
        ..SliceCensus::default()
    };
    let count = |h: &mut Histogram, codes: &[u8], width: usize| {
        for i in 0..codes.len() / width {
            let code = ply_core::games::draughts::db::packed::code_at(codes, width, i);
            h.0[code.unwrap_or(0) as usize] += 1;
        }
    };
    let new = || Histogram(vec![0; 1 << (8 * e.width())]);
    let counts: Result<Histogram, std::convert::Infallible> = match e {
        Slice::Plain(e) => in_chunks(threads, e.len() as u64, 1 << 20, |r| {
            let mut h = new();
            let w = e.width();
            count(
                &mut h,
                &e.bytes()[r.start as usize * w..r.end as usize * w],
                w,
            );
            Ok(h)
        }),
        Slice::Packed(p) => in_chunks(threads, p.blocks() as u64, 64, |r| {
            let mut h = new();
            let mut out = vec![0; BLOCK_ENTRIES * p.width()];
            let mut state = Inflater::default();
            for b in r {
                let n = cache::unpack(&p, b as usize, &mut out, &mut state);
                count(&mut h, &out[..n], p.width());
            }
            Ok(h)
        }),
    };
    let Ok(counts) = counts;
    for (code, &k) in counts.0.iter().enumerate() {
        if k == 0 {
            continue;
        }
        // A code no value has is counted nowhere (`ply db build --verify` finds it).
        let Some(v) = Value::from_code(code as u16) else {
            continue;
        };
        match v.sign() {
            1 => c.won += k,
            -1 => c.lost += k,
            _ => c.drawn += k,
        }
        let d = v.distance();
        // Codes go up with the distance, a win before a loss of the same one.
        if v.sign() != 0 && c.longest.is_none_or(|(l, _)| d > l) {
            c.longest = Some((d, v.sign() < 0));
        }
    }
    c
}

/// The entries of `slice` in memory, inflated where it is compressed (on `threads`
/// threads), and their width: a slice of the build of a later pair read from its
/// file, for lookups as fast as those of a slice just built.
pub fn inflate(slice: Slice, threads: usize) -> (Vec<u8>, usize) {
    let width = slice.width();
    match slice {
        Slice::Plain(e) => (e.bytes().to_vec(), width),
        Slice::Packed(p) => {
            let mut out = vec![0u8; p.len() as usize * width];
            let block = BLOCK_ENTRIES * width;
            let blocks = p.blocks();
            let per = blocks.div_ceil(threads.max(1)).max(1);
            std::thread::scope(|s| {
                for (t, part) in out.chunks_mut(per * block).enumerate() {
                    s.spawn(move || {
                        let mut state = Inflater::default();
                        for (i, dest) in part.chunks_mut(block).enumerate() {
                            let n = cache::unpack(&p, t * per + i, dest, &mut state);
                            debug_assert_eq!(n, dest.len());
                        }
                    });
                }
            });
            (out, width)
        }
    }
}

/// Counts of each code, summed over the threads.
#[derive(Default)]
struct Histogram(Vec<u64>);

impl std::ops::AddAssign for Histogram {
    fn add_assign(&mut self, o: Histogram) {
        if self.0.len() < o.0.len() {
            self.0.resize(o.0.len(), 0);
        }
        for (a, b) in self.0.iter_mut().zip(o.0) {
            *a += b;
        }
    }
}

/// The entries of the pair `key` and `key.swapped()` (one slice when they are the
/// same), its conversions looked up in `db`, and their widths: each slice's one
/// byte a position where its longest distance is at most `byte_max` plies (at most
/// [`BYTE_MAX_DISTANCE`]), else two.
pub fn build_pair(
    key: SliceKey,
    db: &Database,
    threads: usize,
    byte_max: u32,
) -> Result<[(Vec<u8>, usize); 2], String> {
    let other = key.swapped();
    let what = |e: BuildError| match e {
        BuildError::Missing(k) => format!(
            "building {}: the slice {} is missing (a bug: slices are built in order)",
            file::file_name(key),
            file::file_name(k)
        ),
        BuildError::TooLong => format!(
            "building {}: a distance to conversion over {} plies, more than the format holds",
            file::file_name(key),
            MAX_DISTANCE
        ),
    };
    let cells =
        |k: SliceKey| -> Vec<AtomicU16> { (0..slice_size(k)).map(|_| AtomicU16::new(0)).collect() };
    let a = cells(key);
    let b = if other == key {
        Vec::new()
    } else {
        cells(other)
    };
    let pair = Pair {
        keys: [key, other],
        cells: [&a, if other == key { &a } else { &b }],
    };
    let sides: &[usize] = if other == key { &[0] } else { &[0, 1] };
    const CHUNK: u64 = 1 << 14;
    let mut at_one = 0;
    let mut any_at_zero = 0;
    for &s in sides {
        let len = slice_size(pair.keys[s]);
        let counts = in_chunks(threads, len, CHUNK, |r| {
            build::init_range(&pair, s, r, db).map(|c| Counts(c[0], c[1]))
        })
        .map_err(what)?;
        any_at_zero += counts.0;
        at_one += counts.1;
    }
    // Levels k = 0, 1, 2 … while positions are resolved at distance k.
    let mut here = any_at_zero;
    let mut k = 0u16;
    loop {
        let mut created = 0;
        if here > 0 {
            for &s in sides {
                let len = slice_size(pair.keys[s]);
                created += in_chunks(threads, len, CHUNK, |r| build::level_range(&pair, s, r, k))
                    .map_err(what)?;
            }
        }
        let next = created + if k == 0 { at_one } else { 0 };
        if next == 0 {
            break;
        }
        here = next;
        k += 1;
    }
    let mut out = [(Vec::new(), 1), (Vec::new(), 1)];
    for &s in sides {
        let len = slice_size(pair.keys[s]) as usize;
        let longest = u32::from(build::longest_range(pair.cells[s]));
        let width = if longest <= byte_max.min(BYTE_MAX_DISTANCE) {
            1
        } else {
            entry_width(longest.max(BYTE_MAX_DISTANCE + 1))
                .ok_or_else(|| what(BuildError::TooLong))?
        };
        let mut codes = vec![0u8; len * width];
        build::finish_range(pair.cells[s], width, &mut codes).map_err(what)?;
        out[s] = (codes, width);
    }
    if other == key {
        out[1] = out[0].clone();
    }
    Ok(out)
}

/// Two counts summed over the threads.
#[derive(Clone, Copy, Default)]
struct Counts(u64, u64);

impl std::ops::AddAssign for Counts {
    fn add_assign(&mut self, o: Counts) {
        self.0 += o.0;
        self.1 += o.1;
    }
}

/// The database on disk in `dir`: every slice of 1, 2 … pieces as long as all the
/// slices of that many pieces are there and check out (a file that does not is
/// left out, with a line to `progress` saying why and how to rebuild it). `None`
/// when not even the one-piece slices are there.
pub fn load(dir: &Path, progress: &mut dyn FnMut(&str)) -> Option<&'static Database<'static>> {
    let mut db = Box::new(Database::new());
    db.set_reader(cache::read);
    'pieces: for n in 1..=MAX_PIECES {
        let mut these = Vec::new();
        for key in keys_of(n) {
            let mut p = file::path(dir, key);
            let mut found = file::read(&p, key);
            if matches!(found, file::Read::Missing) {
                // Format 2 is read as it is (ply db build converts it).
                p = file::plain_path(dir, key);
                found = file::read(&p, key);
            }
            match found {
                file::Read::Good(slice) => these.push((key, p, slice)),
                file::Read::Missing => break 'pieces,
                file::Read::Bad(why) => {
                    progress(&format!(
                        "checkers db: {}: {}; not used (ply db build checkers --pieces {} rebuilds it)",
                        p.display(),
                        why,
                        n
                    ));
                    break 'pieces;
                }
            }
        }
        for (key, p, slice) in these {
            db.set_slice(key, slice.leak(&p)).ok()?;
        }
    }
    if db.pieces() == 0 {
        None
    } else {
        Some(Box::leak(db))
    }
}

/// The database on disk in the tables directory, loaded once a process
/// ([`load`]); `None` when there is none.
pub fn shared() -> Option<&'static Database<'static>> {
    static DB: OnceLock<Option<&'static Database<'static>>> = OnceLock::new();
    *DB.get_or_init(|| {
        let dir = crate::settings::environment().ok()?.tables_dir;
        load(&db_dir(dir), &mut |line| crate::errln!("{}", line))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply_core::games::draughts::db::{unrank, Lookup, Packed};

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

    /// Every slice of up to 4 pieces (one-byte entries), and of up to 3 with
    /// two-byte ones (a byte made to hold 4 plies), compressed and inflated again:
    /// each block equals its entries, and each value read through the cache (in
    /// index order, then jumping between blocks) equals the plain one.
    #[test]
    fn every_slice_up_to_4_pieces_round_trips_through_its_blocks() {
        let (real, _) = build_in_memory(4, 2).unwrap();
        let (narrow, _) = build_into(3, 2, None, 4, &mut |_| {}).unwrap();
        let mut wide = 0;
        for (db, pieces) in [(real, 4), (narrow, 3)] {
            for key in (1..=pieces).flat_map(keys_of) {
                let Some(Slice::Plain(e)) = db.slice(key) else {
                    panic!("{:?}: a built slice is plain", key)
                };
                wide += usize::from(e.width() == 2);
                let (index, data) = file::pack(e, file::LEVEL, 2);
                let p = Packed::new(&index, &data, e.len() as u64, e.width()).unwrap();
                assert_eq!(p.blocks(), e.len().div_ceil(BLOCK_ENTRIES), "{:?}", key);
                let mut out = vec![0; BLOCK_ENTRIES * 2];
                let mut state = Inflater::default();
                let chunk = BLOCK_ENTRIES * e.width();
                for (b, want) in e.bytes().chunks(chunk).enumerate() {
                    assert_eq!(p.unpack(b, &mut out, &mut state), Ok(want.len()));
                    assert_eq!(&out[..want.len()], want, "{:?} block {}", key, b);
                }
                let mut one = Database::new();
                one.set_reader(cache::read);
                one.set_slice(key, Slice::Packed(p)).unwrap();
                let n = e.len() as u64;
                for i in (0..n).chain((0..n).map(|i| (i * 7919) % n)) {
                    assert_eq!(one.value(key, i), e.get(i as usize), "{:?} {}", key, i);
                }
                assert_eq!(one.value(key, n), None);
                // Without the cache, the same (a block inflated each time).
                let i = n / 2;
                assert_eq!(p.get(i), e.get(i as usize));
            }
        }
        assert!(wide > 0, "no slice of two-byte entries");
    }

    /// A block's bytes changed: it does not inflate to its entries (the file's
    /// checksums find it first: `file::check_packed`, the CLI tests).
    #[test]
    fn a_changed_block_does_not_inflate() {
        let (db, _) = build_in_memory(3, 1).unwrap();
        let key = keys_of(3).max_by_key(|k| slice_size(*k)).unwrap();
        let Some(Slice::Plain(e)) = db.slice(key) else {
            panic!()
        };
        let (index, mut data) = file::pack(e, file::LEVEL, 1);
        let mut out = vec![0; BLOCK_ENTRIES];
        let mut state = Inflater::default();
        for at in [0, data.len() / 2, data.len() - 1] {
            data[at] ^= 0x55;
            let p = Packed::new(&index, &data, e.len() as u64, 1).unwrap();
            let b = (0..p.blocks())
                .find(|&b| {
                    p.block(b)
                        .unwrap()
                        .as_ptr_range()
                        .contains(&data[at..].as_ptr())
                })
                .unwrap();
            let got = p.unpack(b, &mut out, &mut state);
            let chunk =
                &e.bytes()[b * BLOCK_ENTRIES..(b * BLOCK_ENTRIES + BLOCK_ENTRIES).min(e.len())];
            assert!(
                got.is_err() || &out[..chunk.len()] != chunk,
                "byte {} changed, block {} still inflates to its entries",
                at,
                b
            );
            assert_ne!(
                Some(crate::kalah_solve::checksum::checksum(p.block(b).unwrap())),
                p.block_checksum(b)
            );
            data[at] ^= 0x55;
        }
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

//! The file format of the Kalah endgame tables on disk, and its checks: a file that
//! is truncated, damaged, of another format version, or for another board is found
//! out before any of it is used.
//!
//! Layout (numbers little-endian):
//!
//! | offset | bytes | field |
//! |---|---|---|
//! | 0 | 8 | magic `PLYKALTB` |
//! | 8 | 4 | format version ([`VERSION`]) |
//! | 12 | 1 | pits a row (1 to 8) |
//! | 13 | 1 | capture rule: 0 the seed's rules, 1 empty capture |
//! | 14 | 1 | bits an entry: 8 (a signed byte, the future margin) or 5 (`K` ≤ 31) |
//! | 15 | 1 | 0 |
//! | 16 | 4 | `K`: the file holds the layers of 0 to `K` seeds in play |
//! | 20 | 4 | 0 |
//! | 24 | 8 | entries (`table_len(pits, K)`) |
//! | 32 | 8 × (`K` + 1) | the [`checksum`] of each layer's entries |
//! | 40 + 8`K` | 8 | the [`checksum`] of every header byte before it |
//! | 48 + 8`K` | entries | the entries, layer after layer ([`layer_range`]) |
//!
//! In format 3 a layer's entries follow the rank of `ply_core` (the two rows
//! interleaved: the children of neighbouring positions lie near each other, which
//! builds the tables faster); format 2 had the rows one after the other, and its
//! files are turned into format 3 once, when a solve first finds one.
//!
//! Five bits an entry (written for every table of at most 31 seeds in play: 5/8 of
//! the bytes, so 30 seeds for 6 pits take 6.9 GB instead of 11.1 GB) hold the
//! mover's share of the layer's seeds, each layer starting on a byte, then one zero
//! byte ([`packed_layers`], [`pack_entries`]); the layer checksums are of those
//! bytes. The file is then the memory image a solve probes, read or mapped.
//!
//! A layer is used only if its checksum matches, so a file cut short or damaged in
//! the middle still gives the layers before the damage, and the solve rebuilds the
//! rest (and rewrites the file) with a line saying why. The first format (no header,
//! `kalah-Ppits-RULE.tbl`) cannot be checked and is not read: the files of this
//! format have their own name ([`file_name`]).

use std::fs;
use std::io::{Read, Write};
use std::path::Path;
use std::sync::atomic::{AtomicI8, Ordering};

use super::checksum::{checksum, Checksum};

use ply_core::games::kalah::solver::{
    layer_range, pack_entries, packed_layers, table_len, unpack_entries, MAX_TABLE_SEEDS,
    PACKED_MAX_SEEDS,
};

/// The first 8 bytes of an endgame-table file.
pub const MAGIC: &[u8; 8] = b"PLYKALTB";

/// The format version this ply writes and reads: 3, the entries of a layer in the
/// order of `ply_core`'s rank, the two rows interleaved. Format 2 held the same
/// entries with the rows one after the other; its files are read only to turn them
/// into this format ([`load_format`], `upgrade_format_2` in `tables.rs`).
pub const VERSION: u32 = 3;

/// The format before [`VERSION`]: the same header and entries, each layer's entries
/// in the order of the rows one after the other.
pub const FORMAT_2: u32 = 2;

/// Bytes of the fixed part of the header (before the layer checksums).
const FIXED: usize = 32;

/// The file name of the tables for `pits` pits a row and a capture rule.
pub fn file_name(pits: u8, empty_capture: bool) -> String {
    file_name_of_format(pits, empty_capture, VERSION)
}

/// The file name of the tables of format `version` (2 or more).
pub fn file_name_of_format(pits: u8, empty_capture: bool, version: u32) -> String {
    format!(
        "kalah-{}pits-{}.v{}.tbl",
        pits,
        if empty_capture {
            "empty-capture"
        } else {
            "seed-rules"
        },
        version
    )
}

/// The file name of the first format's tables (no header, no checksums; not read).
pub fn legacy_file_name(pits: u8, empty_capture: bool) -> String {
    file_name(pits, empty_capture).replace(&format!(".v{VERSION}"), "")
}

/// The header of a table file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// Pits a row.
    pub pits: u8,
    /// The capture rule.
    pub empty_capture: bool,
    /// The file holds the layers of `0..=seeds` seeds in play.
    pub seeds: u32,
    /// Bits an entry: 8 or 5 ([`bits_for`]).
    pub bits: u8,
    /// Each layer's checksum.
    pub layer_sums: Vec<u64>,
}

impl Header {
    /// The header's length in bytes.
    pub fn len(&self) -> usize {
        header_len(self.seeds)
    }

    /// The header's bytes, its own checksum last.
    pub fn encode(&self) -> Vec<u8> {
        let mut b = Vec::with_capacity(self.len());
        b.extend_from_slice(MAGIC);
        b.extend_from_slice(&VERSION.to_le_bytes());
        b.extend_from_slice(&[self.pits, u8::from(self.empty_capture), self.bits, 0]);
        b.extend_from_slice(&self.seeds.to_le_bytes());
        b.extend_from_slice(&0u32.to_le_bytes());
        let entries = table_len(self.pits, self.seeds).unwrap_or(0) as u64;
        b.extend_from_slice(&entries.to_le_bytes());
        for s in &self.layer_sums {
            b.extend_from_slice(&s.to_le_bytes());
        }
        let sum = checksum(&b);
        b.extend_from_slice(&sum.to_le_bytes());
        b
    }
}

/// Bytes of the header of a file of `0..=seeds` seeds in play.
fn header_len(seeds: u32) -> usize {
    FIXED + 8 * (seeds as usize + 1) + 8
}

/// Bits an entry of the file of a table of `0..=seeds` seeds in play: five where
/// they hold every value ([`PACKED_MAX_SEEDS`]), else a byte.
pub fn bits_for(seeds: u32) -> u8 {
    if seeds <= PACKED_MAX_SEEDS {
        5
    } else {
        8
    }
}

/// Where the layer of `n` seeds in play lies among the entries' bytes of a file of
/// `bits` bits an entry for `pits` pits (the same in a file of any more seeds).
fn layer_bytes(pits: u8, bits: u8, n: u32) -> std::ops::Range<usize> {
    match bits {
        5 => packed_layers(pits, n).expect("checked header").layer(n),
        _ => layer_range(pits, n),
    }
}

/// Bytes of the entries of the layers `0..=seeds` as a solve probes them: five bits
/// an entry with the zero byte after the layers, or a byte an entry.
fn entry_bytes(pits: u8, bits: u8, seeds: u32) -> usize {
    match bits {
        5 => packed_layers(pits, seeds).expect("checked header").len(),
        _ => table_len(pits, seeds).unwrap_or(usize::MAX),
    }
}

/// Why (part of) a file was not used: the line the solve prints.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Problem {
    /// Not a table file of this format (another magic or version).
    Format(String),
    /// A table file for another board or rule.
    OtherBoard(String),
    /// The header does not check out.
    DamagedHeader,
    /// The file ends inside this layer (the layers before it are good).
    Truncated(u32),
    /// This layer fails its checksum (the layers before it are good).
    DamagedLayer(u32),
    /// Not a regular file: what it is (`a directory`, `a fifo`:
    /// [`crate::files::kind_of`]). It is never opened (a fifo would block) and
    /// never replaced.
    NotRegular(&'static str),
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Problem::Format(what) => {
                write!(f, "not an endgame table file of format {VERSION}: {what}")
            }
            Problem::OtherBoard(what) => write!(f, "holds the tables of {what}"),
            Problem::DamagedHeader => write!(f, "its header fails its checksum (damaged file)"),
            Problem::Truncated(n) => {
                write!(f, "the file is cut short in the layer of {n} seeds in play")
            }
            Problem::DamagedLayer(n) => write!(
                f,
                "the layer of {n} seeds in play fails its checksum (damaged file)"
            ),
            Problem::NotRegular(kind) => write!(f, "it is {kind}, not a table file"),
        }
    }
}

/// Reads the header of a file of format `want` from `r`, checking it against the
/// board it should be for.
fn read_header(
    r: &mut impl Read,
    pits: u8,
    empty_capture: bool,
    want: u32,
) -> Result<Header, Problem> {
    let mut fixed = [0u8; FIXED];
    read_full(r, &mut fixed).map_err(|_| Problem::Format("it is too short".into()))?;
    if &fixed[..8] != MAGIC {
        return Err(Problem::Format("another kind of file".into()));
    }
    let word = |at: usize| u32::from_le_bytes(fixed[at..at + 4].try_into().unwrap());
    let version = word(8);
    if version != want {
        return Err(Problem::Format(format!("format version {version}")));
    }
    let (file_pits, rule, bits, seeds) = (fixed[12], fixed[13], fixed[14], word(16));
    let entries = u64::from_le_bytes(fixed[24..32].try_into().unwrap());
    if fixed[15] != 0
        || word(20) != 0
        || rule > 1
        || !(bits == 8 || bits == 5 && seeds <= PACKED_MAX_SEEDS)
        || seeds > MAX_TABLE_SEEDS
        || table_len(file_pits, seeds).map(|l| l as u64) != Some(entries)
    {
        return Err(Problem::DamagedHeader);
    }
    let mut rest = vec![0u8; header_len(seeds) - FIXED];
    read_full(r, &mut rest).map_err(|_| Problem::DamagedHeader)?;
    let (sums, own) = rest.split_at(rest.len() - 8);
    let mut c = Checksum::new();
    c.update(&fixed);
    c.update(sums);
    if c.finish() != u64::from_le_bytes(own.try_into().unwrap()) {
        return Err(Problem::DamagedHeader);
    }
    if file_pits != pits || (rule == 1) != empty_capture {
        return Err(Problem::OtherBoard(format!(
            "{} pits, {}",
            file_pits,
            if rule == 1 {
                "empty capture"
            } else {
                "the seed's rules"
            }
        )));
    }
    Ok(Header {
        pits,
        empty_capture,
        seeds,
        bits,
        layer_sums: sums
            .chunks_exact(8)
            .map(|c| u64::from_le_bytes(c.try_into().unwrap()))
            .collect(),
    })
}

/// Fills `buf` from `r`; an error if the file ends first.
fn read_full(r: &mut impl Read, buf: &mut [u8]) -> std::io::Result<()> {
    r.read_exact(buf)
}

/// The seeds in play the good table file at `path` for `pits` and the capture rule
/// covers (its header checked, not its layers), if there is one.
pub fn seeds_in(path: &Path, pits: u8, empty_capture: bool) -> Option<u32> {
    header_of(path, pits, empty_capture).map(|h| h.seeds)
}

/// The header of the good table file at `path` for `pits` and the capture rule
/// (checked, not its layers), if there is one.
pub fn header_of(path: &Path, pits: u8, empty_capture: bool) -> Option<Header> {
    header_of_format(path, pits, empty_capture, VERSION)
}

/// [`header_of`] for a file of format `version`.
pub fn header_of_format(
    path: &Path,
    pits: u8,
    empty_capture: bool,
    version: u32,
) -> Option<Header> {
    if not_regular(path).is_some() {
        return None;
    }
    let mut r = std::io::BufReader::new(fs::File::open(path).ok()?);
    read_header(&mut r, pits, empty_capture, version).ok()
}

/// Bits an entry of the good table file at `path` for `pits` and the capture rule
/// (its header checked), if there is one.
pub fn bits_in(path: &Path, pits: u8, empty_capture: bool) -> Option<u8> {
    header_of(path, pits, empty_capture).map(|h| h.bits)
}

/// What [`load`] found.
#[derive(Debug)]
pub struct Loaded {
    /// The layers loaded and checked: `0..layers` seeds in play (0: none).
    pub layers: u32,
    /// Why the file (or its layers from `layers` on) was not used, if it was not.
    pub problem: Option<Problem>,
}

/// Entries of a piece read, written or checked at a time: a multiple of 8, so that
/// a piece of five-bit entries is whole bytes.
const PIECE: usize = 1 << 20;

/// A table file opened at its entries, with its header; or why its header is not
/// used.
type Opened = Result<(std::io::BufReader<fs::File>, Header), Problem>;

/// What `path` is when it is there but not a regular file (symbolic links
/// followed): a table file is never opened there.
fn not_regular(path: &Path) -> Option<&'static str> {
    fs::metadata(path)
        .ok()
        .filter(|m| !m.is_file())
        .map(|m| crate::files::kind_of(&m))
}

/// Opens the table file at `path` and reads its header: `None` when there is no
/// file; the problem when its header does not check out.
fn open(
    path: &Path,
    pits: u8,
    empty_capture: bool,
    version: u32,
) -> Result<Option<Opened>, String> {
    if let Some(kind) = not_regular(path) {
        return Ok(Some(Err(Problem::NotRegular(kind))));
    }
    let file = match fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("cannot read {}: {}", path.display(), e)),
    };
    let mut r = std::io::BufReader::with_capacity(1 << 20, file);
    Ok(Some(
        read_header(&mut r, pits, empty_capture, version).map(|h| (r, h)),
    ))
}

/// Appends to `values` (a byte an entry, as the build writes them) the layers
/// `0..=max_seeds` of the table file at `path` for `pits` and the capture rule, as
/// far as the file holds them and they check out; five-bit entries are unpacked.
/// No file: nothing loaded, no problem. An I/O error other than the file ending is
/// an error.
pub fn load(
    path: &Path,
    pits: u8,
    empty_capture: bool,
    max_seeds: u32,
    values: &mut Vec<AtomicI8>,
) -> Result<Loaded, String> {
    load_format(
        path,
        pits,
        empty_capture,
        max_seeds,
        values,
        VERSION,
        &mut |_, _| Ok(()),
    )
}

/// What [`load_format`] calls on each layer it has read and checked: the layer's
/// seeds in play and its entries.
pub type LayerCheck<'a> = dyn FnMut(u32, &[AtomicI8]) -> Result<(), String> + 'a;

/// [`load`] from a file of format `version`, calling `checked(n, layer)` on each
/// layer once it is read and its checksum matches (to put a layer of format 2 in
/// this format's order).
pub fn load_format(
    path: &Path,
    pits: u8,
    empty_capture: bool,
    max_seeds: u32,
    values: &mut Vec<AtomicI8>,
    version: u32,
    checked: &mut LayerCheck<'_>,
) -> Result<Loaded, String> {
    let none = |problem| Loaded { layers: 0, problem };
    let (mut r, header) = match open(path, pits, empty_capture, version)? {
        None => return Ok(none(None)),
        Some(Err(p)) => return Ok(none(Some(p))),
        Some(Ok(rh)) => rh,
    };
    let mut loaded = Loaded {
        layers: 0,
        problem: None,
    };
    let mut buf = vec![0u8; PIECE];
    for n in 0..=header.seeds.min(max_seeds) {
        let range = layer_range(pits, n);
        debug_assert_eq!(values.len(), range.start);
        let mut sum = Checksum::new();
        let mut left = range.len();
        while left > 0 {
            let entries = left.min(PIECE);
            let piece = &mut buf[..match header.bits {
                5 => (entries * 5).div_ceil(8),
                _ => entries,
            }];
            if let Err(e) = read_full(&mut r, piece) {
                values.truncate(range.start);
                if e.kind() == std::io::ErrorKind::UnexpectedEof {
                    loaded.problem = Some(Problem::Truncated(n));
                    return Ok(loaded);
                }
                return Err(format!("cannot read {}: {}", path.display(), e));
            }
            sum.update(piece);
            if header.bits == 5 {
                let at = values.len();
                values.extend((0..entries).map(|_| AtomicI8::new(0)));
                if unpack_entries(n, piece, &values[at..]).is_err() {
                    values.truncate(range.start);
                    loaded.problem = Some(Problem::DamagedLayer(n));
                    return Ok(loaded);
                }
            } else {
                values.extend(piece.iter().map(|&b| AtomicI8::new(b as i8)));
            }
            left -= entries;
        }
        if sum.finish() != header.layer_sums[n as usize] {
            values.truncate(range.start);
            loaded.problem = Some(Problem::DamagedLayer(n));
            return Ok(loaded);
        }
        checked(n, &values[range])?;
        loaded.layers = n + 1;
    }
    Ok(loaded)
}

/// The layers `0..=seeds` (at most [`PACKED_MAX_SEEDS`]) of the table file at
/// `path` for `pits` and the capture rule in five-bit form, read into `out` (which
/// is cleared; huge pages if the caller made it so) with the zero byte after them,
/// when the file is of five-bit entries, holds them all and each checks out.
/// `false` (and `out` cleared) when it does not: [`load`] then reads what it can and
/// says why.
pub fn load_packed(
    path: &Path,
    pits: u8,
    empty_capture: bool,
    seeds: u32,
    out: &mut Vec<u8>,
) -> Result<bool, String> {
    out.clear();
    let (mut r, header) = match open(path, pits, empty_capture, VERSION)? {
        Some(Ok((r, h))) if h.bits == 5 && h.seeds >= seeds => (r, h),
        _ => return Ok(false),
    };
    for n in 0..=seeds {
        let len = layer_bytes(pits, 5, n).len();
        let at = out.len();
        out.resize(at + len, 0);
        match read_full(&mut r, &mut out[at..]) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => {
                out.clear();
                return Ok(false);
            }
            Err(e) => return Err(format!("cannot read {}: {}", path.display(), e)),
        }
        if checksum(&out[at..]) != header.layer_sums[n as usize] {
            out.clear();
            return Ok(false);
        }
    }
    out.push(0);
    Ok(true)
}

/// The layers `0..=seeds` of a table file, mapped into memory in place of being
/// read ([`map`]).
#[cfg(unix)]
pub struct Mapped {
    map: crate::memory::FileMap,
    start: usize,
    len: usize,
    bits: u8,
}

/// The entries of a table in memory, as a solve probes them.
#[derive(Clone, Copy)]
pub enum Entries<'a> {
    /// A signed byte an entry.
    Bytes(&'a [AtomicI8]),
    /// Five bits an entry, laid out as `packed_layers` says.
    Packed(&'a [u8]),
}

#[cfg(unix)]
impl Mapped {
    /// The entries of the layers mapped, as [`load`] or [`load_packed`] would
    /// have read them.
    pub fn entries(&self) -> Entries<'_> {
        match self.bits {
            5 => Entries::Packed(&self.map.bytes()[self.start..self.start + self.len]),
            _ => Entries::Bytes(self.map.atomic_bytes(self.start..self.start + self.len)),
        }
    }
}

/// The layers `0..=seeds` of the table file at `path` for `pits` and the capture
/// rule, mapped into memory, when the file holds them all and each checks out
/// against its checksum (each layer on its own thread, up to `threads`). `None`
/// when it does not (no file, a problem, fewer layers): [`load`] then reads what it
/// can and says why. Mapping a file of gigabytes takes a fraction of a second where
/// reading it takes seconds, and the pages stay the system's file cache. With
/// `populate` the mapping is filled in at once ([`crate::memory::FileMap::new`]):
/// faster, but searches of the same process wait meanwhile.
#[cfg(unix)]
pub fn map(
    path: &Path,
    pits: u8,
    empty_capture: bool,
    seeds: u32,
    threads: usize,
    populate: bool,
) -> Result<Option<Mapped>, String> {
    if not_regular(path).is_some() {
        return Ok(None);
    }
    let Ok(file) = fs::File::open(path) else {
        return Ok(None);
    };
    let header = match read_header(
        &mut std::io::BufReader::new(&file),
        pits,
        empty_capture,
        VERSION,
    ) {
        Ok(h) if h.seeds >= seeds => h,
        _ => return Ok(None),
    };
    let start = header.len();
    let bits = header.bits;
    let len = entry_bytes(pits, bits, seeds);
    let file_len = file.metadata().map(|m| m.len()).unwrap_or(0);
    if (file_len as u128) < start as u128 + len as u128 {
        return Ok(None);
    }
    let map =
        crate::memory::FileMap::new(&file, start + len, populate, &path.display().to_string())?;
    let bytes = &map.bytes()[start..];
    // The biggest layers first, so that the threads end together.
    let next = std::sync::atomic::AtomicU32::new(0);
    let good = std::sync::atomic::AtomicBool::new(true);
    std::thread::scope(|s| {
        for _ in 0..threads.clamp(1, seeds as usize + 1) {
            s.spawn(|| loop {
                let k = next.fetch_add(1, Ordering::Relaxed);
                if k > seeds || !good.load(Ordering::Relaxed) {
                    break;
                }
                let n = seeds - k;
                if checksum(&bytes[layer_bytes(pits, bits, n)]) != header.layer_sums[n as usize] {
                    good.store(false, Ordering::Relaxed);
                }
            });
        }
    });
    Ok(good.into_inner().then_some(Mapped {
        map,
        start,
        len,
        bits,
    }))
}

/// Writes the tables `values` (layers `0..=seeds`, a byte an entry) to `path`, in
/// five-bit form up to 31 seeds in play ([`bits_for`]), whole or not at all (a
/// temporary renamed into place, removed by Ctrl-C). One pass: the header's
/// checksums are written last, over the placeholder written first.
pub fn save(
    path: &Path,
    pits: u8,
    empty_capture: bool,
    seeds: u32,
    values: &[AtomicI8],
) -> std::io::Result<()> {
    save_as(path, pits, empty_capture, seeds, values, bits_for(seeds))
}

/// [`save`] with `bits` bits an entry (5 or 8; 5 only up to 31 seeds in play).
pub(super) fn save_as(
    path: &Path,
    pits: u8,
    empty_capture: bool,
    seeds: u32,
    values: &[AtomicI8],
    bits: u8,
) -> std::io::Result<()> {
    use std::io::{Seek, SeekFrom};
    let mut header = Header {
        pits,
        empty_capture,
        seeds,
        bits,
        layer_sums: vec![0; seeds as usize + 1],
    };
    let mut f = crate::files::PendingFile::create(path)?;
    {
        let mut w = std::io::BufWriter::with_capacity(1 << 20, f.file());
        w.write_all(&header.encode())?;
        let mut buf = Vec::with_capacity(PIECE);
        for n in 0..=seeds {
            let range = layer_range(pits, n);
            let mut sum = Checksum::new();
            for lo in range.clone().step_by(PIECE) {
                let piece = &values[lo..(lo + PIECE).min(range.end)];
                buf.clear();
                if bits == 5 {
                    buf.resize((piece.len() * 5).div_ceil(8), 0);
                    pack_entries(n, piece, &mut buf)
                        .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))?;
                } else {
                    buf.extend(piece.iter().map(|v| v.load(Ordering::Relaxed) as u8));
                }
                sum.update(&buf);
                w.write_all(&buf)?;
            }
            header.layer_sums[n as usize] = sum.finish();
        }
        if bits == 5 {
            w.write_all(&[0])?;
        }
        w.seek(SeekFrom::Start(0))?;
        w.write_all(&header.encode())?;
        w.flush()?;
    }
    f.commit()
}

#[cfg(test)]
mod tests;

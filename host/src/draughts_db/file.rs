//! The file of one slice of the draughts endgame databases, and its checks: a file
//! that is truncated, damaged, of another format version or for another slice is
//! found out before any of it is used (the design of the Kalah tables' files,
//! `kalah_solve/table_file`, with their checksum).
//!
//! ply writes format 3, `m{a}k{b}-m{c}k{d}.v3.cdb`: the entries compressed in
//! independent blocks ([`ply_core::games::draughts::db::packed`]). It still reads
//! format 2, `….v2.cdb` (the entries plain), which `ply db build` converts. Numbers
//! are little-endian.
//!
//! Format 3:
//!
//! | offset | bytes | field |
//! |---|---|---|
//! | 0 | 8 | magic `PLYCKRDB` |
//! | 8 | 4 | format version (3) |
//! | 12 | 4 | the slice: the mover's men and kings, the opponent's men and kings |
//! | 16 | 4 | bytes an entry: 1, or 2 where a distance is over 126 plies |
//! | 20 | 4 | compression: 1, each block deflated (RFC 1951, raw) on its own |
//! | 24 | 8 | entries (`slice_size`) |
//! | 32 | 4 | entries a block (1024; the last block fewer) |
//! | 36 | 4 | the deflate level it was written with (0 to 10) |
//! | 40 | 8 | blocks |
//! | 48 | 8 | the checksum of the block index |
//! | 56 | 8 | the checksum of the header bytes before it |
//! | 64 | 16 a block | the block index: the end of each block's bytes (from the start of the data), and the checksum of its bytes |
//! | after | | the blocks' bytes, one after another |
//!
//! Format 2:
//!
//! | offset | bytes | field |
//! |---|---|---|
//! | 0 | 8 | magic `PLYCKRDB` |
//! | 8 | 4 | format version (2) |
//! | 12 | 4 | the slice |
//! | 16 | 4 | bytes an entry: 1 or 2 |
//! | 20 | 4 | zero |
//! | 24 | 8 | entries (`slice_size`) |
//! | 32 | 8 | the checksum of the entries |
//! | 40 | 8 | the checksum of the header bytes before it |
//! | 48 | entries | one or two bytes (little-endian) a position in index order ([`Value::code`](ply_core::games::draughts::db::Value::code)) |

use std::io::Write;
use std::path::{Path, PathBuf};

use ply_core::games::draughts::db::packed::INDEX_BYTES;
use ply_core::games::draughts::db::{slice_size, Entries, Packed, SliceKey, BLOCK_ENTRIES};

use crate::kalah_solve::checksum::checksum;

// The layout of format 3, one definition with the core's reader of files in
// memory (the databases compiled into the web page and the firmware): the magic,
// the versions, the headers' bytes and the compression.
pub use ply_core::games::draughts::db::file::{
    DEFLATE, HEADER, MAGIC, PACKED_HEADER, PLAIN_VERSION, VERSION,
};

/// The deflate level ply writes (miniz_oxide's 0 to 10): measured in
/// docs/log/2026-11-29-draughts-databases-6.md.
pub const LEVEL: u8 = 9;

/// The file name of slice `key` in format `version`: `m2k1-m0k2.v3.cdb` (the
/// mover's men and kings, then the opponent's).
pub fn versioned_name(key: SliceKey, version: u32) -> String {
    format!(
        "m{}k{}-m{}k{}.v{}.cdb",
        key.mover_men, key.mover_kings, key.opp_men, key.opp_kings, version
    )
}

/// The file name of slice `key` as ply writes it ([`VERSION`]).
pub fn file_name(key: SliceKey) -> String {
    versioned_name(key, VERSION)
}

/// The path of slice `key`'s file in `dir` ([`VERSION`]).
pub fn path(dir: &Path, key: SliceKey) -> PathBuf {
    dir.join(file_name(key))
}

/// The path of slice `key`'s plain file (version 2) in `dir`.
pub fn plain_path(dir: &Path, key: SliceKey) -> PathBuf {
    dir.join(versioned_name(key, PLAIN_VERSION))
}

/// Slice `key`'s `entries` compressed: the block index ([`INDEX_BYTES`] a block)
/// and the blocks, each [`BLOCK_ENTRIES`] entries deflated at `level` on its own, on
/// `threads` threads.
pub fn pack(entries: Entries, level: u8, threads: usize) -> (Vec<u8>, Vec<u8>) {
    use rayon::prelude::*;
    let chunk = BLOCK_ENTRIES * entries.width();
    let work = || -> Vec<Vec<u8>> {
        entries
            .bytes()
            .par_chunks(chunk)
            .map(|c| miniz_oxide::deflate::compress_to_vec(c, level))
            .collect()
    };
    let blocks = match rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
    {
        Ok(pool) => pool.install(work),
        Err(_) => work(),
    };
    let mut index = Vec::with_capacity(INDEX_BYTES * blocks.len());
    let mut data = Vec::with_capacity(blocks.iter().map(Vec::len).sum());
    for b in &blocks {
        data.extend_from_slice(b);
        index.extend_from_slice(&(data.len() as u64).to_le_bytes());
        index.extend_from_slice(&checksum(b).to_le_bytes());
    }
    (index, data)
}

/// The header of a compressed file of slice `key`.
fn packed_header(key: SliceKey, width: usize, len: u64, level: u8, index: &[u8]) -> Vec<u8> {
    let mut h = Vec::with_capacity(PACKED_HEADER);
    h.extend_from_slice(MAGIC);
    h.extend_from_slice(&VERSION.to_le_bytes());
    h.extend_from_slice(&[key.mover_men, key.mover_kings, key.opp_men, key.opp_kings]);
    h.extend_from_slice(&(width as u32).to_le_bytes());
    h.extend_from_slice(&DEFLATE.to_le_bytes());
    h.extend_from_slice(&len.to_le_bytes());
    h.extend_from_slice(&(BLOCK_ENTRIES as u32).to_le_bytes());
    h.extend_from_slice(&u32::from(level).to_le_bytes());
    h.extend_from_slice(&((index.len() / INDEX_BYTES) as u64).to_le_bytes());
    h.extend_from_slice(&checksum(index).to_le_bytes());
    let sum = checksum(&h);
    h.extend_from_slice(&sum.to_le_bytes());
    h
}

/// Writes slice `key`'s `entries` compressed ([`pack`] at [`LEVEL`] on `threads`
/// threads) to `path`, whole or not at all (a temporary renamed into place; Ctrl-C
/// removes it); the bytes of the file.
pub fn save(path: &Path, key: SliceKey, entries: Entries, threads: usize) -> std::io::Result<u64> {
    let (index, data) = pack(entries, LEVEL, threads);
    let header = packed_header(key, entries.width(), entries.len() as u64, LEVEL, &index);
    let mut f = crate::files::PendingFile::create(path)?;
    f.file().write_all(&header)?;
    f.file().write_all(&index)?;
    f.file().write_all(&data)?;
    f.commit()?;
    Ok((header.len() + index.len() + data.len()) as u64)
}

/// Writes slice `key`'s `entries` plain (format 2) to `path`, whole or not at all:
/// the files of earlier builds, for the tests of their conversion.
pub fn save_plain(path: &Path, key: SliceKey, entries: Entries) -> std::io::Result<()> {
    let mut h = Vec::with_capacity(HEADER);
    h.extend_from_slice(MAGIC);
    h.extend_from_slice(&PLAIN_VERSION.to_le_bytes());
    h.extend_from_slice(&[key.mover_men, key.mover_kings, key.opp_men, key.opp_kings]);
    h.extend_from_slice(&(entries.width() as u32).to_le_bytes());
    h.extend_from_slice(&0u32.to_le_bytes());
    h.extend_from_slice(&(entries.len() as u64).to_le_bytes());
    h.extend_from_slice(&checksum(entries.bytes()).to_le_bytes());
    let sum = checksum(&h);
    h.extend_from_slice(&sum.to_le_bytes());
    let mut f = crate::files::PendingFile::create(path)?;
    f.file().write_all(&h)?;
    f.file().write_all(entries.bytes())?;
    f.commit()
}

/// A good slice file in memory: mapped read-only (Unix: the pages are the system's
/// file cache, shared by every process that maps it, and nothing is read until a
/// position is probed) or read whole.
pub struct Slice {
    bytes: Bytes,
    form: Form,
}

/// What a checked file holds.
#[derive(Clone, Copy, Debug)]
enum Form {
    /// Plain entries of this many bytes (format 2).
    Plain(usize),
    /// Compressed blocks of entries of this many bytes (format 3).
    Packed(usize),
}

/// Where a [`Slice`]'s bytes are.
enum Bytes {
    /// Read whole.
    Read(Vec<u8>),
    /// Mapped.
    #[cfg(unix)]
    Mapped(crate::memory::FileMap),
}

impl Slice {
    /// The whole file's bytes, header first.
    pub fn file_bytes(&self) -> &[u8] {
        match &self.bytes {
            Bytes::Read(v) => v,
            #[cfg(unix)]
            Bytes::Mapped(m) => m.bytes(),
        }
    }

    /// Whether it holds the entries plain (a format 2 file).
    pub fn is_plain(&self) -> bool {
        matches!(self.form, Form::Plain(_))
    }

    /// Its entries while it is open, plain or compressed.
    pub fn view(&self) -> ply_core::games::draughts::db::Slice<'_> {
        use ply_core::games::draughts::db::Slice as Db;
        let bytes = self.file_bytes();
        match self.form {
            Form::Plain(width) => Db::Plain(
                Entries::new(&bytes[HEADER..], width).expect("a checked file's width is 1 or 2"),
            ),
            Form::Packed(width) => {
                Db::Packed(packed_parts(bytes, width).expect("a checked file's blocks"))
            }
        }
    }

    /// Its entries, kept for the rest of the process; `path` names it in the
    /// error line of a block found damaged later (`cache`).
    pub fn leak(self, path: &Path) -> ply_core::games::draughts::db::Slice<'static> {
        use ply_core::games::draughts::db::Slice as Db;
        let form = self.form;
        let bytes: &'static [u8] = match self.bytes {
            Bytes::Read(v) => Vec::leak(v),
            #[cfg(unix)]
            Bytes::Mapped(m) => Box::leak(Box::new(m)).bytes(),
        };
        match form {
            Form::Plain(width) => Db::Plain(
                Entries::new(&bytes[HEADER..], width).expect("a checked file's width is 1 or 2"),
            ),
            Form::Packed(width) => {
                let p = packed_parts(bytes, width).expect("a checked file's blocks");
                super::cache::name(&p, path);
                Db::Packed(p)
            }
        }
    }
}

/// What reading a slice file found.
pub enum Read {
    /// The file holds the slice, all checks passed.
    Good(Slice),
    /// No file.
    Missing,
    /// A file that cannot be used, and why.
    Bad(String),
}

/// Opens slice `key`'s file at `path` (format 3 if its name ends in `.v3.cdb`,
/// else 2), checking its header and checksums (every block's, in format 3):
/// mapped where the system maps files (a file cut short by another process while
/// mapped then ends the process with a line naming it: `crate::memory::FileMap`),
/// else read whole.
pub fn read(path: &Path, key: SliceKey) -> Read {
    let packed = path
        .file_name()
        .is_some_and(|n| n.to_string_lossy().ends_with(&format!(".v{}.cdb", VERSION)));
    let bytes = match open(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Read::Missing,
        Err(e) => return Read::Bad(format!("cannot be read: {}", e)),
    };
    let slice = Slice {
        bytes,
        form: Form::Plain(0),
    };
    let form = if packed {
        check_packed(slice.file_bytes(), key).map(Form::Packed)
    } else {
        check(slice.file_bytes(), key).map(Form::Plain)
    };
    match form {
        Ok(form) => Read::Good(Slice { form, ..slice }),
        Err(why) => Read::Bad(why),
    }
}

/// The bytes of the file at `path`, mapped (Unix, a file longer than its header)
/// or read; an error for what is not a regular file.
fn open(path: &Path) -> std::io::Result<Bytes> {
    let meta = std::fs::metadata(path)?;
    if !meta.is_file() {
        return Err(std::io::Error::other(format!(
            "not a regular file ({})",
            crate::files::kind_of(&meta)
        )));
    }
    #[cfg(unix)]
    if let Ok(len) = usize::try_from(meta.len()) {
        if len > HEADER {
            let f = std::fs::File::open(path)?;
            return crate::memory::FileMap::new(&f, len, false, &path.display().to_string())
                .map(Bytes::Mapped)
                .map_err(std::io::Error::other);
        }
    }
    std::fs::read(path).map(Bytes::Read)
}

/// The checks every format shares: the length, the magic, the header's checksum
/// (the `u64` at `sum`), the version, the slice and the width; the width.
fn check_header(bytes: &[u8], key: SliceKey, header: usize, version: u32) -> Result<usize, String> {
    if bytes.len() < header {
        return Err(format!("{} bytes: shorter than the header", bytes.len()));
    }
    if &bytes[..8] != MAGIC {
        return Err("not a draughts database file (its first bytes are not PLYCKRDB)".into());
    }
    let sum = header - 8;
    if word(bytes, sum) != checksum(&bytes[..sum]) {
        return Err("its header's checksum does not match".into());
    }
    let found = u32::from_le_bytes(bytes[8..12].try_into().unwrap());
    if found != version {
        return Err(format!(
            "format version {}, its name says {}",
            found, version
        ));
    }
    let want = [key.mover_men, key.mover_kings, key.opp_men, key.opp_kings];
    if bytes[12..16] != want {
        return Err(format!(
            "it holds slice {:?}, not {:?}",
            &bytes[12..16],
            want
        ));
    }
    let width = u32::from_le_bytes(bytes[16..20].try_into().unwrap());
    if !(width == 1 || width == 2) {
        return Err(format!("{} bytes an entry: this ply reads 1 or 2", width));
    }
    Ok(width as usize)
}

fn word(bytes: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap())
}

fn half(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap())
}

/// The bytes of an entry of `bytes`, a good plain (format 2) file of slice `key`;
/// else why it is not one.
pub fn check(bytes: &[u8], key: SliceKey) -> Result<usize, String> {
    let width = check_header(bytes, key, HEADER, PLAIN_VERSION)?;
    if bytes[20..24] != [0; 4] {
        return Err("its header's bytes 20 to 23 are not zero".into());
    }
    let entries = slice_size(key);
    let have = (bytes.len() - HEADER) as u64;
    if word(bytes, 24) != entries || have != entries * width as u64 {
        return Err(format!(
            "{} bytes of entries, expected {} ({} entries of {} bytes)",
            have,
            entries * width as u64,
            entries,
            width
        ));
    }
    if word(bytes, 32) != checksum(&bytes[HEADER..]) {
        return Err("its entries' checksum does not match (the file is damaged)".into());
    }
    Ok(width)
}

/// The blocks of a compressed file whose header is checked.
fn packed_parts(bytes: &[u8], width: usize) -> Option<Packed<'_>> {
    let blocks = usize::try_from(word(bytes, 40)).ok()?;
    let end = blocks
        .checked_mul(INDEX_BYTES)?
        .checked_add(PACKED_HEADER)?;
    let index = bytes.get(PACKED_HEADER..end)?;
    Packed::new(index, &bytes[end..], word(bytes, 24), width)
}

/// The bytes of an entry of `bytes`, a good compressed (format 3) file of slice
/// `key`, every block's checksum checked; else why it is not one.
pub fn check_packed(bytes: &[u8], key: SliceKey) -> Result<usize, String> {
    let width = check_header(bytes, key, PACKED_HEADER, VERSION)?;
    let compression = half(bytes, 20);
    if compression != DEFLATE {
        return Err(format!(
            "compression {}: this ply reads {} (deflated blocks)",
            compression, DEFLATE
        ));
    }
    let entries = slice_size(key);
    if word(bytes, 24) != entries {
        return Err(format!(
            "{} entries, slice {} has {}",
            word(bytes, 24),
            file_name(key),
            entries
        ));
    }
    if half(bytes, 32) as usize != BLOCK_ENTRIES {
        return Err(format!(
            "blocks of {} entries: this ply reads blocks of {}",
            half(bytes, 32),
            BLOCK_ENTRIES
        ));
    }
    let blocks = entries.div_ceil(BLOCK_ENTRIES as u64);
    if word(bytes, 40) != blocks {
        return Err(format!("{} blocks, expected {}", word(bytes, 40), blocks));
    }
    let index_end = PACKED_HEADER as u64 + blocks * INDEX_BYTES as u64;
    if (bytes.len() as u64) < index_end {
        return Err(format!(
            "{} bytes: shorter than its block index ({} bytes)",
            bytes.len(),
            index_end
        ));
    }
    if word(bytes, 48) != checksum(&bytes[PACKED_HEADER..index_end as usize]) {
        return Err("its block index's checksum does not match (the file is damaged)".into());
    }
    let p = packed_parts(bytes, width).ok_or_else(|| {
        format!(
            "{} bytes of blocks, not what its block index says (the file is cut short or damaged)",
            bytes.len() as u64 - index_end
        )
    })?;
    for b in 0..p.blocks() {
        let data = p.block(b).unwrap_or_default();
        if Some(checksum(data)) != p.block_checksum(b) {
            return Err(format!(
                "block {} of {}: its checksum does not match (the file is damaged)",
                b,
                p.blocks()
            ));
        }
    }
    Ok(width)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draughts_db::build::{build_in_memory, build_into};
    use crate::draughts_db::{cache, file};
    use ply_core::games::draughts::db::{
        keys_of, slice_size, Database, Inflater, Lookup, Packed, Slice,
    };

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
}

//! The file of one slice of the draughts endgame databases, and its checks: a file
//! that is truncated, damaged, of another format version or for another slice is
//! found out before any of it is used (the design of the Kalah tables' files,
//! `kalah_solve/table_file`, with their checksum).
//!
//! Layout (numbers little-endian):
//!
//! | offset | bytes | field |
//! |---|---|---|
//! | 0 | 8 | magic `PLYCKRDB` |
//! | 8 | 4 | format version ([`VERSION`]) |
//! | 12 | 4 | the slice: the mover's men and kings, the opponent's men and kings |
//! | 16 | 4 | bytes an entry: 1, or 2 where a distance is over 126 plies |
//! | 20 | 4 | zero |
//! | 24 | 8 | entries (`slice_size`) |
//! | 32 | 8 | the checksum of the entries |
//! | 40 | 8 | the checksum of the header bytes before it |
//! | 48 | entries | one or two bytes (little-endian) a position in index order ([`Value::code`](ply_core::games::draughts::db::Value::code)) |

use std::io::Write;
use std::path::{Path, PathBuf};

use ply_core::games::draughts::db::{slice_size, Entries, SliceKey};

use crate::kalah_solve::checksum::checksum;

/// The first 8 bytes of a slice file.
pub const MAGIC: &[u8; 8] = b"PLYCKRDB";

/// The format version this ply writes and reads.
pub const VERSION: u32 = 2;

/// Bytes of the header.
pub const HEADER: usize = 48;

/// The file name of slice `key`: `m2k1-m0k2.v2.cdb` (the mover's men and kings,
/// then the opponent's).
pub fn file_name(key: SliceKey) -> String {
    format!(
        "m{}k{}-m{}k{}.v{}.cdb",
        key.mover_men, key.mover_kings, key.opp_men, key.opp_kings, VERSION
    )
}

/// The path of slice `key` in `dir`.
pub fn path(dir: &Path, key: SliceKey) -> PathBuf {
    dir.join(file_name(key))
}

/// The header of slice `key` with `entries`.
fn header(key: SliceKey, entries: Entries) -> Vec<u8> {
    let mut h = Vec::with_capacity(HEADER);
    h.extend_from_slice(MAGIC);
    h.extend_from_slice(&VERSION.to_le_bytes());
    h.extend_from_slice(&[key.mover_men, key.mover_kings, key.opp_men, key.opp_kings]);
    h.extend_from_slice(&(entries.width() as u32).to_le_bytes());
    h.extend_from_slice(&0u32.to_le_bytes());
    h.extend_from_slice(&(entries.len() as u64).to_le_bytes());
    h.extend_from_slice(&checksum(entries.bytes()).to_le_bytes());
    let sum = checksum(&h);
    h.extend_from_slice(&sum.to_le_bytes());
    h
}

/// Writes slice `key`'s `entries` to `path` whole or not at all (a temporary
/// renamed into place; Ctrl-C removes it).
pub fn save(path: &Path, key: SliceKey, entries: Entries) -> std::io::Result<()> {
    let mut f = crate::files::PendingFile::create(path)?;
    f.file().write_all(&header(key, entries))?;
    f.file().write_all(entries.bytes())?;
    f.commit()
}

/// A good slice file in memory: mapped read-only (Unix: the pages are the system's
/// file cache, shared by every process that maps it, and nothing is read until a
/// position is probed) or read whole.
pub struct Slice {
    bytes: Bytes,
    width: usize,
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

    /// Its entries, kept for the rest of the process.
    pub fn leak(self) -> Entries<'static> {
        let width = self.width;
        let bytes: &'static [u8] = match self.bytes {
            Bytes::Read(v) => Vec::leak(v),
            #[cfg(unix)]
            Bytes::Mapped(m) => Box::leak(Box::new(m)).bytes(),
        };
        Entries::new(&bytes[HEADER..], width).expect("a checked file's width is 1 or 2")
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

/// Opens slice `key`'s file at `path`, checking its header and checksums: mapped
/// where the system maps files (a file cut short by another process while mapped
/// then ends the process with a line naming it: `crate::memory::FileMap`), else
/// read whole.
pub fn read(path: &Path, key: SliceKey) -> Read {
    let bytes = match open(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Read::Missing,
        Err(e) => return Read::Bad(format!("cannot be read: {}", e)),
    };
    let slice = Slice { bytes, width: 0 };
    match check(slice.file_bytes(), key) {
        Ok(width) => Read::Good(Slice { width, ..slice }),
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

/// The bytes of an entry of `bytes`, a good file of slice `key`; else why it is not
/// one.
pub fn check(bytes: &[u8], key: SliceKey) -> Result<usize, String> {
    if bytes.len() < HEADER {
        return Err(format!("{} bytes: shorter than the header", bytes.len()));
    }
    if &bytes[..8] != MAGIC {
        return Err("not a draughts database file (its first bytes are not PLYCKRDB)".into());
    }
    let word = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap());
    if word(40) != checksum(&bytes[..40]) {
        return Err("its header's checksum does not match".into());
    }
    let version = u32::from_le_bytes(bytes[8..12].try_into().unwrap());
    if version != VERSION {
        return Err(format!(
            "format version {}, this ply reads {}",
            version, VERSION
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
    if !(width == 1 || width == 2) || bytes[20..24] != [0; 4] {
        return Err(format!("{} bytes an entry: this ply reads 1 or 2", width));
    }
    let entries = slice_size(key);
    let have = (bytes.len() - HEADER) as u64;
    if word(24) != entries || have != entries * u64::from(width) {
        return Err(format!(
            "{} bytes of entries, expected {} ({} entries of {} bytes)",
            have,
            entries * u64::from(width),
            entries,
            width
        ));
    }
    if word(32) != checksum(&bytes[HEADER..]) {
        return Err("its entries' checksum does not match (the file is damaged)".into());
    }
    Ok(width as usize)
}

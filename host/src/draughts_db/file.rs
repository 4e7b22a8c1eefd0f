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
//! | 16 | 8 | entries (`slice_size`) |
//! | 24 | 8 | the checksum of the entries |
//! | 32 | 8 | the checksum of the header bytes before it |
//! | 40 | entries | a byte a position in index order ([`Value::code`](ply_core::games::draughts::db::Value::code)) |

use std::io::Write;
use std::path::{Path, PathBuf};

use ply_core::games::draughts::db::{slice_size, SliceKey};

use crate::kalah_solve::checksum::checksum;

/// The first 8 bytes of a slice file.
pub const MAGIC: &[u8; 8] = b"PLYCKRDB";

/// The format version this ply writes and reads.
pub const VERSION: u32 = 1;

/// Bytes of the header.
pub const HEADER: usize = 40;

/// The file name of slice `key`: `m2k1-m0k2.v1.cdb` (the mover's men and kings,
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

/// The header of slice `key` with entries `codes`.
fn header(key: SliceKey, codes: &[u8]) -> Vec<u8> {
    let mut h = Vec::with_capacity(HEADER);
    h.extend_from_slice(MAGIC);
    h.extend_from_slice(&VERSION.to_le_bytes());
    h.extend_from_slice(&[key.mover_men, key.mover_kings, key.opp_men, key.opp_kings]);
    h.extend_from_slice(&(codes.len() as u64).to_le_bytes());
    h.extend_from_slice(&checksum(codes).to_le_bytes());
    let sum = checksum(&h);
    h.extend_from_slice(&sum.to_le_bytes());
    h
}

/// Writes slice `key`'s `codes` to `path` whole or not at all (a temporary renamed
/// into place; Ctrl-C removes it).
pub fn save(path: &Path, key: SliceKey, codes: &[u8]) -> std::io::Result<()> {
    let mut f = crate::files::PendingFile::create(path)?;
    f.file().write_all(&header(key, codes))?;
    f.file().write_all(codes)?;
    f.commit()
}

/// What reading a slice file found.
pub enum Read {
    /// The file holds the slice, all checks passed: the whole file (the entries from
    /// [`HEADER`] on).
    Good(Vec<u8>),
    /// No file.
    Missing,
    /// A file that cannot be used, and why.
    Bad(String),
}

/// Reads slice `key` from `path`, checking its header and checksums.
pub fn read(path: &Path, key: SliceKey) -> Read {
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Read::Missing,
        Err(e) => return Read::Bad(format!("cannot be read: {}", e)),
    };
    match check(&bytes, key) {
        Ok(()) => Read::Good(bytes),
        Err(why) => Read::Bad(why),
    }
}

/// Why `bytes` are not a good file of slice `key`, if they are not.
pub fn check(bytes: &[u8], key: SliceKey) -> Result<(), String> {
    if bytes.len() < HEADER {
        return Err(format!("{} bytes: shorter than the header", bytes.len()));
    }
    if &bytes[..8] != MAGIC {
        return Err("not a draughts database file (its first bytes are not PLYCKRDB)".into());
    }
    let word = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap());
    if word(32) != checksum(&bytes[..32]) {
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
    let entries = slice_size(key);
    if word(16) != entries || (bytes.len() - HEADER) as u64 != entries {
        return Err(format!(
            "{} entries, expected {}",
            bytes.len() - HEADER,
            entries
        ));
    }
    if word(24) != checksum(&bytes[HEADER..]) {
        return Err("its entries' checksum does not match (the file is damaged)".into());
    }
    Ok(())
}

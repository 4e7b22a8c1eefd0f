//! The file of one slice: compressed (format 3, `m{a}k{b}-m{c}k{d}.v3.cdb`, as
//! `ply db build` writes it) or plain (format 2, `….v2.cdb`). Their layout, shared
//! by the host's writer and reader (`ply-host`'s `draughts_db::file`, which has
//! the table of their fields and checks their checksums too), and [`packed`] and
//! [`plain`], which read such a file in memory into a slice without allocating —
//! in a `const` too, so that a program that compiles files in
//! ([`small`](super::small)) has them checked as it is compiled.
//!
//! The core has no checksum: [`packed`] and [`plain`] check every other field of
//! the header and the block index's structure, and leave the checksums to the
//! host (and, for the files compiled in, to the test that rebuilds them byte for
//! byte).

use super::index::slice_size;
use super::packed::{le_u64, Packed, BLOCK_ENTRIES, INDEX_BYTES};
use super::slice::SliceKey;
use super::value::Entries;

/// The first 8 bytes of a slice file.
pub const MAGIC: &[u8; 8] = b"PLYCKRDB";

/// The format version of compressed slices: the one ply writes.
pub const VERSION: u32 = 3;

/// Bytes of the header of a compressed (version 3) file.
pub const PACKED_HEADER: usize = 64;

/// The compression of a version 3 file: each block deflated on its own.
pub const DEFLATE: u32 = 1;

/// The format version of plain entries, which ply reads (`ply db build` converts
/// such files to [`VERSION`]).
pub const PLAIN_VERSION: u32 = 2;

/// Bytes of the header of a plain (version 2) file.
pub const HEADER: usize = 48;

/// The little-endian `u32` at `at` of `bytes` (which must hold it).
const fn le_u32(bytes: &[u8], at: usize) -> u32 {
    bytes[at] as u32
        | (bytes[at + 1] as u32) << 8
        | (bytes[at + 2] as u32) << 16
        | (bytes[at + 3] as u32) << 24
}

/// The checks of the header both formats share: the magic, the version, the
/// slice; the width of an entry.
const fn header(
    bytes: &[u8],
    key: SliceKey,
    len: usize,
    version: u32,
) -> Result<usize, &'static str> {
    if bytes.len() < len {
        return Err("shorter than the header");
    }
    let mut i = 0;
    while i < MAGIC.len() {
        if bytes[i] != MAGIC[i] {
            return Err("not a draughts database file (its first bytes are not PLYCKRDB)");
        }
        i += 1;
    }
    if le_u32(bytes, 8) != version {
        return Err("not the format version its name says");
    }
    if bytes[12] != key.mover_men
        || bytes[13] != key.mover_kings
        || bytes[14] != key.opp_men
        || bytes[15] != key.opp_kings
    {
        return Err("it holds another slice");
    }
    let width = le_u32(bytes, 16);
    if width != 1 && width != 2 {
        return Err("its entries are neither 1 nor 2 bytes");
    }
    Ok(width as usize)
}

/// The entries of `bytes`, a plain (version 2) file of slice `key`; else why it is
/// not one. Every field of the header but the checksums is checked, and the
/// entries must be as many as the slice's positions.
pub const fn plain(bytes: &[u8], key: SliceKey) -> Result<Entries<'_>, &'static str> {
    let width = match header(bytes, key, HEADER, PLAIN_VERSION) {
        Ok(w) => w,
        Err(e) => return Err(e),
    };
    if le_u32(bytes, 20) != 0 {
        return Err("its header's bytes 20 to 23 are not zero");
    }
    let entries = le_u64(bytes, 24);
    if entries != slice_size(key) {
        return Err("its entries are not as many as its slice's positions");
    }
    let (_, rest) = bytes.split_at(HEADER);
    if rest.len() as u64 != entries * width as u64 {
        return Err("its bytes of entries are not as many as its header says");
    }
    match Entries::new(rest, width) {
        Some(e) => Ok(e),
        None => Err("its entries are neither 1 nor 2 bytes"),
    }
}

/// The entries of `bytes`, a compressed (version 3) file of slice `key`; else why
/// it is not one. Every field of the header is checked (magic, version, slice,
/// width, compression, entries, entries a block, blocks) and the block index must
/// describe the blocks that follow it exactly ([`Packed::new`]); the checksums are
/// not (see the [module](self) documentation).
pub const fn packed(bytes: &[u8], key: SliceKey) -> Result<Packed<'_>, &'static str> {
    let width = match header(bytes, key, PACKED_HEADER, VERSION) {
        Ok(w) => w as u32,
        Err(e) => return Err(e),
    };
    if le_u32(bytes, 20) != DEFLATE {
        return Err("not deflated blocks");
    }
    let entries = le_u64(bytes, 24);
    if entries != slice_size(key) {
        return Err("its entries are not as many as its slice's positions");
    }
    if le_u32(bytes, 32) as usize != BLOCK_ENTRIES {
        return Err("its blocks are not of 1024 entries");
    }
    let blocks = le_u64(bytes, 40);
    if blocks != entries.div_ceil(BLOCK_ENTRIES as u64) {
        return Err("its blocks are not as many as its entries need");
    }
    let end = match (blocks as usize).checked_mul(INDEX_BYTES) {
        Some(n) => match n.checked_add(PACKED_HEADER) {
            Some(end) => end,
            None => return Err("shorter than its block index"),
        },
        None => return Err("shorter than its block index"),
    };
    let Some((head, data)) = bytes.split_at_checked(end) else {
        return Err("shorter than its block index");
    };
    let (_, index) = head.split_at(PACKED_HEADER);
    match Packed::new(index, data, entries, width as usize) {
        Some(p) => Ok(p),
        None => Err("its blocks are not what its block index says (cut short or damaged)"),
    }
}

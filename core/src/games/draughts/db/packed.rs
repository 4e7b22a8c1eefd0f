//! A slice's entries compressed in independent blocks: every [`BLOCK_ENTRIES`]
//! entries (the last block fewer) deflated (RFC 1951, raw) on their own, with a
//! block index, so a probe inflates one block of a few KiB and nothing else. The
//! host writes them (`ply db build`, file format v3) and keeps a cache of inflated
//! blocks; here, allocation-free, is what reads them: a block's bytes, its
//! inflation into memory the caller gives, and an uncached lookup.
//!
//! The index holds, for each block, the end of its bytes (from the start of the
//! data, little-endian `u64`) and a checksum of them (`u64`, computed by the host;
//! the core does not check it): [`INDEX_BYTES`] a block.

use miniz_oxide::inflate::core::{decompress, inflate_flags, DecompressorOxide};
use miniz_oxide::inflate::TINFLStatus;

use super::value::{value_of, Value};

/// Entries a block: 1 KiB of one-byte entries, 2 of two-byte ones (measured against
/// 4,096: docs/log/2026-11-29-draughts-databases-6.md).
pub const BLOCK_ENTRIES: usize = 1024;

/// The most bytes a block inflates to (two-byte entries).
pub const MAX_BLOCK_BYTES: usize = 2 * BLOCK_ENTRIES;

/// Bytes of the index a block: the end of its bytes and their checksum.
pub const INDEX_BYTES: usize = 16;

/// A compressed slice: its block index and the blocks' bytes, in memory the caller
/// provides (a mapped file).
#[derive(Clone, Copy, Debug)]
pub struct Packed<'a> {
    index: &'a [u8],
    data: &'a [u8],
    len: u64,
    width: u8,
}

/// Why a block did not inflate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnpackError {
    /// No such block.
    NoBlock,
    /// The output is smaller than the block's entries.
    Small,
    /// Its bytes are not deflated data, or inflate to another length than its
    /// entries'.
    Damaged,
}

/// The state of an inflation (about 11 KB): kept by the caller between blocks.
pub struct Inflater(DecompressorOxide);

impl Default for Inflater {
    fn default() -> Self {
        Inflater(DecompressorOxide::new())
    }
}

impl<'a> Packed<'a> {
    /// The slice of `len` entries of `width` (1 or 2) bytes whose block index is
    /// `index` and blocks `data`; `None` when the index is not one of that many
    /// blocks, its ends do not rise, or the last one is not the end of `data`.
    /// A `const fn`: a database compiled into a program is checked when it is
    /// compiled ([`small`](super::small)).
    pub const fn new(index: &'a [u8], data: &'a [u8], len: u64, width: usize) -> Option<Self> {
        if width != 1 && width != 2 {
            return None;
        }
        let blocks = len.div_ceil(BLOCK_ENTRIES as u64);
        match blocks.checked_mul(INDEX_BYTES as u64) {
            Some(n) if n == index.len() as u64 => {}
            _ => return None,
        }
        let p = Packed {
            index,
            data,
            len,
            width: width as u8,
        };
        let mut at = 0;
        let mut b = 0;
        while b < p.blocks() {
            let end = p.end(b);
            if end < at {
                return None;
            }
            at = end;
            b += 1;
        }
        if at != data.len() as u64 {
            return None;
        }
        Some(p)
    }

    /// The number of entries.
    #[inline(always)]
    pub const fn len(&self) -> u64 {
        self.len
    }

    /// Whether there is no entry.
    #[inline(always)]
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The bytes of an entry: 1 or 2.
    #[inline(always)]
    pub const fn width(&self) -> usize {
        self.width as usize
    }

    /// The number of blocks.
    #[inline(always)]
    pub const fn blocks(&self) -> usize {
        self.index.len() / INDEX_BYTES
    }

    /// The blocks' bytes, all together (where they start identifies the slice).
    #[inline(always)]
    pub const fn data(&self) -> &'a [u8] {
        self.data
    }

    #[inline(always)]
    const fn word(&self, at: usize) -> u64 {
        le_u64(self.index, at)
    }

    #[inline(always)]
    const fn end(&self, b: usize) -> u64 {
        self.word(INDEX_BYTES * b)
    }

    /// The deflated bytes of block `b`.
    #[inline]
    pub fn block(&self, b: usize) -> Option<&'a [u8]> {
        if b >= self.blocks() {
            return None;
        }
        let start = if b == 0 { 0 } else { self.end(b - 1) as usize };
        self.data.get(start..self.end(b) as usize)
    }

    /// The checksum the index records for block `b`'s bytes.
    #[inline]
    pub fn block_checksum(&self, b: usize) -> Option<u64> {
        (b < self.blocks()).then(|| self.word(INDEX_BYTES * b + 8))
    }

    /// The entries of block `b`.
    #[inline]
    pub fn block_len(&self, b: usize) -> usize {
        let start = (b * BLOCK_ENTRIES) as u64;
        self.len.saturating_sub(start).min(BLOCK_ENTRIES as u64) as usize
    }

    /// Inflates block `b` into `out` (at least [`block_len`](Self::block_len) ×
    /// [`width`](Self::width) bytes); the bytes written.
    pub fn unpack(
        &self,
        b: usize,
        out: &mut [u8],
        state: &mut Inflater,
    ) -> Result<usize, UnpackError> {
        let bytes = self.block(b).ok_or(UnpackError::NoBlock)?;
        let want = self.block_len(b) * self.width();
        if out.len() < want {
            return Err(UnpackError::Small);
        }
        inflate(bytes, &mut out[..want], state)
    }

    /// The code of entry `i`, inflating its block into a buffer on the stack (no
    /// cache: several microseconds a call); `None` past the end or for a damaged
    /// block.
    pub fn code(&self, i: u64) -> Option<u16> {
        if i >= self.len {
            return None;
        }
        let b = (i / BLOCK_ENTRIES as u64) as usize;
        let mut buf = [0u8; MAX_BLOCK_BYTES];
        let mut state = Inflater::default();
        self.unpack(b, &mut buf, &mut state).ok()?;
        code_at(&buf, self.width(), (i % BLOCK_ENTRIES as u64) as usize)
    }

    /// The value of entry `i` ([`code`](Self::code), then as
    /// [`Entries::get`](super::Entries::get)).
    pub fn get(&self, i: u64) -> Option<Value> {
        value_of(self.code(i)?, self.width())
    }
}

/// The little-endian `u64` at `at` of `bytes` (which must hold it).
#[inline(always)]
pub(super) const fn le_u64(bytes: &[u8], at: usize) -> u64 {
    let mut w = 0u64;
    let mut i = 0;
    while i < 8 {
        w |= (bytes[at + i] as u64) << (8 * i);
        i += 1;
    }
    w
}

/// The code of entry `i` of inflated entries `bytes` of `width` bytes each.
#[inline(always)]
pub fn code_at(bytes: &[u8], width: usize, i: usize) -> Option<u16> {
    if width == 1 {
        bytes.get(i).map(|&b| u16::from(b))
    } else {
        let b = bytes.get(2 * i..2 * i + 2)?;
        Some(u16::from_le_bytes([b[0], b[1]]))
    }
}

/// Inflates the raw deflated `bytes` into exactly `out`: an error if they are not
/// deflated data or hold more or fewer bytes.
pub fn inflate(bytes: &[u8], out: &mut [u8], state: &mut Inflater) -> Result<usize, UnpackError> {
    state.0.init();
    let (status, read, written) = decompress(
        &mut state.0,
        bytes,
        out,
        0,
        inflate_flags::TINFL_FLAG_USING_NON_WRAPPING_OUTPUT_BUF,
    );
    match status {
        TINFLStatus::Done if read == bytes.len() && written == out.len() => Ok(written),
        _ => Err(UnpackError::Damaged),
    }
}

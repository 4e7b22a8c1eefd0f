//! One pair of slices (a slice and its colours swapped: their positions lead to
//! each other) built by the core's retrograde analysis on every thread.

use std::sync::atomic::AtomicU16;

use ply_core::games::draughts::db::{
    build, entry_width, slice_size, BuildError, Database, Entries, Pair, SliceKey,
    BYTE_MAX_DISTANCE, MAX_DISTANCE,
};

use super::chunks::{in_chunks, Counts};
use super::file;

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

/// `bytes` as entries of `width` bytes.
pub(super) fn entries(bytes: &[u8], width: usize) -> Result<Entries<'_>, String> {
    Entries::new(bytes, width)
        .ok_or_else(|| format!("checkers db: {} bytes an entry (a bug)", width))
}

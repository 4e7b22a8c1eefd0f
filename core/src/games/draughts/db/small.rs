//! Small endgame databases compiled into the program, for the programs that have
//! no files to read and play those endings exactly with them (through
//! [`DbEval`](super::DbEval)):
//!
//! * [`DATABASE`]: every position with 1, 2 or 3 pieces (268,316 of them), 53,937
//!   bytes in 34 compressed files — the web page's. A probe inflates its block of
//!   1,024 entries on the stack ([`Packed::code`](super::Packed::code): 1 KiB and
//!   an inflation state of about 11 KB; there is no cache).
//! * [`PLAIN_DATABASE`]: every position with 1 or 2 pieces (7,092), 7,764 bytes
//!   in 14 plain files (a byte a position) — the firmware's: a probe reads a byte
//!   (no inflation code, no stack to speak of), where the inflation code and the 3
//!   pieces do not fit a Cortex-M4's 256 KiB of flash beside the learned
//!   evaluation, nor an inflation state the 16 KiB parts' RAM (docs/firmware.md).
//!
//! The files in `small/` are `ply db build checkers --pieces 3`'s (`.v3.cdb`) and,
//! for 1 and 2 pieces, the same build's entries in the plain format the host reads
//! (`.v2.cdb`), byte for byte: a test rebuilds both and compares (`ply-host`'s
//! `draughts_db::tests`). They are read when the program is compiled (each
//! database is a `static` built by `const fn`s: a file that does not read stops
//! the build), so a database costs no RAM and no time at start: its slots and
//! files lie in the program's read-only data, and a program that does not use one
//! does not carry it.

use super::file::{packed, plain};
use super::probe::{Database, Slice};
use super::slice::SliceKey;

/// The most pieces of a position [`DATABASE`] holds.
pub const PIECES: u32 = 3;

/// The slots of [`DATABASE`]: the slices of up to 3 pieces, the empty board's
/// included (their [`SliceKey::id`]s are `0..35`).
pub const SLOTS: usize = 35;

/// Slice `(a, b, c, d)`'s key and its file in `small/`.
macro_rules! slice_file {
    ($a:literal, $b:literal, $c:literal, $d:literal) => {
        (
            SliceKey::new($a, $b, $c, $d),
            include_bytes!(concat!(
                "small/m", $a, "k", $b, "-m", $c, "k", $d, ".v3.cdb"
            )) as &[u8],
        )
    };
}

/// Every slice of 1 to 3 pieces and its file, in build order.
pub const FILES: [(SliceKey, &[u8]); 34] = [
    slice_file!(0, 0, 0, 1),
    slice_file!(0, 1, 0, 0),
    slice_file!(0, 0, 1, 0),
    slice_file!(1, 0, 0, 0),
    slice_file!(0, 0, 0, 2),
    slice_file!(0, 1, 0, 1),
    slice_file!(0, 2, 0, 0),
    slice_file!(0, 0, 1, 1),
    slice_file!(0, 1, 1, 0),
    slice_file!(1, 0, 0, 1),
    slice_file!(1, 1, 0, 0),
    slice_file!(0, 0, 2, 0),
    slice_file!(1, 0, 1, 0),
    slice_file!(2, 0, 0, 0),
    slice_file!(0, 0, 0, 3),
    slice_file!(0, 1, 0, 2),
    slice_file!(0, 2, 0, 1),
    slice_file!(0, 3, 0, 0),
    slice_file!(0, 0, 1, 2),
    slice_file!(0, 1, 1, 1),
    slice_file!(0, 2, 1, 0),
    slice_file!(1, 0, 0, 2),
    slice_file!(1, 1, 0, 1),
    slice_file!(1, 2, 0, 0),
    slice_file!(0, 0, 2, 1),
    slice_file!(0, 1, 2, 0),
    slice_file!(1, 0, 1, 1),
    slice_file!(1, 1, 1, 0),
    slice_file!(2, 0, 0, 1),
    slice_file!(2, 1, 0, 0),
    slice_file!(0, 0, 3, 0),
    slice_file!(1, 0, 2, 0),
    slice_file!(2, 0, 1, 0),
    slice_file!(3, 0, 0, 0),
];

/// The database of every slice of [`FILES`].
const fn build(
    files: &[(SliceKey, &'static [u8])],
) -> Result<Database<'static, SLOTS>, &'static str> {
    let mut db = Database::empty();
    let mut i = 0;
    while i < files.len() {
        let (key, bytes) = files[i];
        let p = match packed(bytes, key) {
            Ok(p) => p,
            Err(e) => return Err(e),
        };
        if let Err(e) = db.set_slice(key, Slice::Packed(p)) {
            return Err(e);
        }
        i += 1;
    }
    Ok(db)
}

/// Every position of up to 3 pieces ([`FILES`]), read when the program is
/// compiled. Its compressed slices are read without a cache: each probe inflates
/// its block.
pub static DATABASE: Database<'static, SLOTS> = match build(&FILES) {
    Ok(db) => db,
    Err(e) => panic!("{}", e),
};

/// The most pieces of a position [`PLAIN_DATABASE`] holds.
pub const PLAIN_PIECES: u32 = 2;

/// The slots of [`PLAIN_DATABASE`]: the slices of up to 2 pieces and the empty
/// board's.
pub const PLAIN_SLOTS: usize = 15;

/// Slice `(a, b, c, d)`'s key and its plain file in `small/`.
macro_rules! plain_file {
    ($a:literal, $b:literal, $c:literal, $d:literal) => {
        (
            SliceKey::new($a, $b, $c, $d),
            include_bytes!(concat!(
                "small/m", $a, "k", $b, "-m", $c, "k", $d, ".v2.cdb"
            )) as &[u8],
        )
    };
}

/// Every slice of 1 and 2 pieces and its plain file, in build order.
pub const PLAIN_FILES: [(SliceKey, &[u8]); 14] = [
    plain_file!(0, 0, 0, 1),
    plain_file!(0, 1, 0, 0),
    plain_file!(0, 0, 1, 0),
    plain_file!(1, 0, 0, 0),
    plain_file!(0, 0, 0, 2),
    plain_file!(0, 1, 0, 1),
    plain_file!(0, 2, 0, 0),
    plain_file!(0, 0, 1, 1),
    plain_file!(0, 1, 1, 0),
    plain_file!(1, 0, 0, 1),
    plain_file!(1, 1, 0, 0),
    plain_file!(0, 0, 2, 0),
    plain_file!(1, 0, 1, 0),
    plain_file!(2, 0, 0, 0),
];

/// The database of every slice of [`PLAIN_FILES`].
const fn build_plain(
    files: &[(SliceKey, &'static [u8])],
) -> Result<Database<'static, PLAIN_SLOTS>, &'static str> {
    let mut db = Database::empty();
    let mut i = 0;
    while i < files.len() {
        let (key, bytes) = files[i];
        let e = match plain(bytes, key) {
            Ok(e) => e,
            Err(e) => return Err(e),
        };
        if let Err(e) = db.set_slice(key, Slice::Plain(e)) {
            return Err(e);
        }
        i += 1;
    }
    Ok(db)
}

/// Every position of up to 2 pieces ([`PLAIN_FILES`]), a byte each, read when the
/// program is compiled.
pub static PLAIN_DATABASE: Database<'static, PLAIN_SLOTS> = match build_plain(&PLAIN_FILES) {
    Ok(db) => db,
    Err(e) => panic!("{}", e),
};

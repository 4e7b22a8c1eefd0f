//! The inflated blocks of compressed slices, a cache a thread: the
//! [`Reader`](ply_core::games::draughts::db::Reader) of every database the host
//! loads or builds. No lock on the way of a probe: each thread has its own slots
//! ([`SETS`] sets of [`WAYS`], the least recently used of a set replaced;
//! [`MAX_BLOCK_BYTES`] a slot: 8 MiB a thread that probes, allocated at its first
//! probe of a compressed slice). A set of several ways, not one slot a block: the
//! children of a position lie in a few dozen blocks, and two of them sharing a
//! single slot would inflate each other out at every position.
//!
//! A block is checked against its checksum before it is inflated (every block was
//! checked when its file was opened, so a mismatch means the file changed since):
//! a damaged block ends the process with one error line naming the file and the
//! block, as a mapped file cut short does (`crate::memory::FileMap`), never a wrong
//! value.
//!
//! [`inflate`] inflates a whole slice into memory instead, for a build that looks
//! its values up many times.

use std::cell::RefCell;
use std::path::Path;
use std::sync::Mutex;

use ply_core::games::draughts::db::packed::{code_at, MAX_BLOCK_BYTES};
use ply_core::games::draughts::db::{Inflater, Packed, Slice, BLOCK_ENTRIES};

use crate::kalah_solve::checksum::checksum;

/// Sets of slots.
pub const SETS: usize = 1024;

/// Slots a set.
pub const WAYS: usize = 4;

/// Blocks each thread keeps inflated.
pub const SLOTS: usize = SETS * WAYS;

/// One thread's blocks.
struct Cache {
    /// For each slot, the start of its slice's blocks, its block and the block's
    /// checksum (memory freed and used again by other blocks cannot pass for it),
    /// or zeros for an empty slot.
    tags: Vec<(usize, usize, u64)>,
    /// For each slot, when it was last used (`clock`).
    used: Vec<u64>,
    clock: u64,
    /// The slots' entries, [`MAX_BLOCK_BYTES`] a slot.
    bytes: Vec<u8>,
    state: Box<Inflater>,
}

thread_local! {
    static CACHE: RefCell<Option<Cache>> = const { RefCell::new(None) };
}

/// The files of the compressed slices in memory, by where their blocks start: read
/// only to name a damaged block's file.
static NAMES: Mutex<Vec<(usize, String)>> = Mutex::new(Vec::new());

/// Records that `p`'s blocks are those of the file at `path`.
pub fn name(p: &Packed<'_>, path: &Path) {
    if let Ok(mut names) = NAMES.lock() {
        names.push((p.data().as_ptr() as usize, path.display().to_string()));
    }
}

/// The file of `p`'s blocks, if it came from one.
fn file_of(p: &Packed<'_>) -> String {
    let at = p.data().as_ptr() as usize;
    NAMES
        .lock()
        .ok()
        .and_then(|n| n.iter().find(|(a, _)| *a == at).map(|(_, f)| f.clone()))
        .unwrap_or_else(|| "a compressed slice in memory".to_string())
}

/// The code of entry `i` of `p`, its block inflated into this thread's cache if it
/// is not there; `None` past the end.
pub fn read(p: &Packed<'_>, i: u64) -> Option<u16> {
    if i >= p.len() {
        return None;
    }
    let b = (i / BLOCK_ENTRIES as u64) as usize;
    let at = (i % BLOCK_ENTRIES as u64) as usize;
    let tag = (p.data().as_ptr() as usize, b + 1, p.block_checksum(b)?);
    let set = (tag.0 >> 4 ^ tag.1.wrapping_mul(0x9E37_79B9)) % SETS;
    CACHE.with(|c| {
        let mut c = c.borrow_mut();
        let c = c.get_or_insert_with(|| Cache {
            tags: vec![(0, 0, 0); SLOTS],
            used: vec![0; SLOTS],
            clock: 0,
            bytes: vec![0; SLOTS * MAX_BLOCK_BYTES],
            state: Box::default(),
        });
        c.clock += 1;
        let ways = set * WAYS..(set + 1) * WAYS;
        let slot = match ways.clone().find(|&w| c.tags[w] == tag) {
            Some(w) => w,
            None => {
                let w = ways.min_by_key(|&w| c.used[w]).unwrap_or(set * WAYS);
                c.tags[w] = (0, 0, 0);
                let out = &mut c.bytes[w * MAX_BLOCK_BYTES..(w + 1) * MAX_BLOCK_BYTES];
                unpack(p, b, out, &mut c.state);
                c.tags[w] = tag;
                w
            }
        };
        c.used[slot] = c.clock;
        code_at(&c.bytes[slot * MAX_BLOCK_BYTES..], p.width(), at)
    })
}

/// Inflates block `b` of `p` into `out`, after checking its checksum; a block that
/// does not check out ends the process with a line naming its file.
pub fn unpack(p: &Packed<'_>, b: usize, out: &mut [u8], state: &mut Inflater) -> usize {
    let good = p.block(b).map(checksum) == p.block_checksum(b);
    match p.unpack(b, out, state) {
        Ok(n) if good => n,
        _ => {
            crate::errln!(
                "error: checkers db: {}: block {} of {} does not check out (the file changed or was damaged after it was opened); ply db build checkers rebuilds it",
                file_of(p),
                b,
                p.blocks()
            );
            std::process::exit(1)
        }
    }
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
                            let n = unpack(&p, t * per + i, dest, &mut state);
                            debug_assert_eq!(n, dest.len());
                        }
                    });
                }
            });
            (out, width)
        }
    }
}

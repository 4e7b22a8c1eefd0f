//! The checkpoint of `ply solve kalah --checkpoint FILE`: what a solve has proved so
//! far (bounds on the root's value and on each first move's, and which tasks are
//! finished), so that `--resume` goes on from there after Ctrl-C, a kill or a crash.
//!
//! The transposition table is not saved (gigabytes, and rebuilt quickly by the
//! search); the endgame tables are in their own files. What is saved is every bound
//! a finished null-window pass proved: a resumed task starts its MTD(f) passes inside
//! them, so the work of the passes that finished is never repeated.
//!
//! Layout: that of the checkpoints of numbered work items in `ply`'s distributed jobs
//! (magic `PLYCKPT1`, so the two can be one module), every number a little-endian
//! `u64`:
//!
//! | field | |
//! |---|---|
//! | magic | the 8 bytes `PLYCKPT1` |
//! | fingerprint | its length in bytes, then the text ([`fingerprint`]) |
//! | items | the number of items: 1 + the root's legal moves |
//! | words | the words of one record ([`WORDS`]) |
//! | done | the number of items with a record that follow |
//! | records | each: the item's number, then its words, in item order |
//! | checksum | [`fnv1a`] of every byte before it |
//!
//! Item 0 is the root, item `k` the `k`-th legal move in generation order. A record
//! is `[flags, lower, upper, nodes]`: bit 0 of `flags` set when the task is finished
//! (exact, or out of its node budget), the bounds proved on the value for the root's
//! side to move (final margin; `i64` as two's complement), and the nodes the task has
//! searched. An item without a record has nothing proved yet.
//!
//! A file is written whole (a temporary renamed into place, see
//! [`crate::interrupt::write_atomic`]). One that does not check out (another magic, a
//! wrong checksum or layout) is refused as damaged, one of another solve (another
//! fingerprint) as foreign, each with one line naming the file.

use std::path::Path;

use ply_core::games::kalah::Kalah;
use ply_core::Game;

use crate::quote::quote;

/// The first 8 bytes of a checkpoint.
pub const MAGIC: &[u8; 8] = b"PLYCKPT1";

/// The words of one record.
pub const WORDS: usize = 4;

/// What is proved about one task (the root or a first move); values for the root's
/// side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TaskState {
    /// The value is at least this.
    pub lo: i32,
    /// The value is at most this.
    pub hi: i32,
    /// The task is finished (exact, or out of its node budget).
    pub done: bool,
    /// Nodes the task has searched, over every run.
    pub nodes: u64,
}

/// What a solve of `game` is, for the checkpoint: another game, rule, position or
/// node budget is another solve. Threads, table sizes and the like change how fast a
/// solve goes, never what it finds, so a solve can resume with other ones.
pub fn fingerprint(game: &Kalah, move_nodes: u64) -> String {
    let budget = if move_nodes == u64::MAX {
        "max".to_string()
    } else {
        move_nodes.to_string()
    };
    format!(
        "solve {}; position {}; move nodes {}",
        game.rules(),
        game,
        budget
    )
}

/// The 64-bit FNV-1a hash of `bytes`: the checkpoint's checksum.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

fn put(out: &mut Vec<u8>, n: u64) {
    out.extend_from_slice(&n.to_le_bytes());
}

/// The checkpoint's bytes.
pub fn encode(fingerprint: &str, items: &[Option<TaskState>]) -> Vec<u8> {
    let mut b = Vec::new();
    b.extend_from_slice(MAGIC);
    put(&mut b, fingerprint.len() as u64);
    b.extend_from_slice(fingerprint.as_bytes());
    put(&mut b, items.len() as u64);
    put(&mut b, WORDS as u64);
    put(&mut b, items.iter().flatten().count() as u64);
    for (i, s) in items.iter().enumerate() {
        if let Some(s) = s {
            put(&mut b, i as u64);
            put(&mut b, u64::from(s.done));
            put(&mut b, i64::from(s.lo) as u64);
            put(&mut b, i64::from(s.hi) as u64);
            put(&mut b, s.nodes);
        }
    }
    let sum = fnv1a(&b);
    put(&mut b, sum);
    b
}

/// Why a checkpoint's bytes were refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refused {
    /// Not a ply checkpoint at all (another magic).
    NotACheckpoint,
    /// A ply checkpoint whose checksum or layout does not check out.
    Damaged,
    /// A good checkpoint of another job; its fingerprint.
    OtherJob(String),
}

/// Reads numbers from the front of a byte slice.
struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    fn u64(&mut self) -> Option<u64> {
        let (head, rest) = self.0.split_first_chunk::<8>()?;
        self.0 = rest;
        Some(u64::from_le_bytes(*head))
    }
    fn usize(&mut self) -> Option<usize> {
        usize::try_from(self.u64()?).ok()
    }
    fn i32(&mut self) -> Option<i32> {
        i32::try_from(self.u64()? as i64).ok()
    }
    fn bytes(&mut self, n: usize) -> Option<&'a [u8]> {
        if n > self.0.len() {
            return None;
        }
        let (head, rest) = self.0.split_at(n);
        self.0 = rest;
        Some(head)
    }
}

/// The records of `bytes`, a checkpoint of the solve with `fingerprint` and `items`
/// items.
pub fn decode(
    bytes: &[u8],
    fingerprint: &str,
    items: usize,
) -> Result<Vec<Option<TaskState>>, Refused> {
    if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
        return Err(Refused::NotACheckpoint);
    }
    let (body, sum) = bytes.split_at(bytes.len().saturating_sub(8).max(MAGIC.len()));
    if sum.len() != 8 || fnv1a(body) != u64::from_le_bytes(sum.try_into().unwrap()) {
        return Err(Refused::Damaged);
    }
    let mut r = Reader(&body[MAGIC.len()..]);
    let text = r
        .usize()
        .and_then(|n| r.bytes(n))
        .and_then(|t| String::from_utf8(t.to_vec()).ok())
        .ok_or(Refused::Damaged)?;
    let (n, words, done) = match (r.usize(), r.usize(), r.usize()) {
        (Some(n), Some(w), Some(d)) => (n, w, d),
        _ => return Err(Refused::Damaged),
    };
    if text != fingerprint || n != items || words != WORDS {
        return Err(Refused::OtherJob(text));
    }
    let mut out = vec![None; n];
    let mut last = None;
    for _ in 0..done {
        let i = r.usize().ok_or(Refused::Damaged)?;
        // In item order, each once.
        if i >= n || last.is_some_and(|l| i <= l) {
            return Err(Refused::Damaged);
        }
        last = Some(i);
        let flags = r.u64().ok_or(Refused::Damaged)?;
        let (lo, hi) = (r.i32(), r.i32());
        let nodes = r.u64().ok_or(Refused::Damaged)?;
        match (flags, lo, hi) {
            (0 | 1, Some(lo), Some(hi)) if lo <= hi => {
                out[i] = Some(TaskState {
                    lo,
                    hi,
                    done: flags == 1,
                    nodes,
                })
            }
            _ => return Err(Refused::Damaged),
        }
    }
    if !r.0.is_empty() {
        return Err(Refused::Damaged);
    }
    Ok(out)
}

/// Writes the checkpoint to `path` whole or not at all.
pub fn save(path: &Path, fingerprint: &str, items: &[Option<TaskState>]) -> Result<(), String> {
    crate::interrupt::write_atomic(path, &encode(fingerprint, items)).map_err(|e| {
        format!(
            "cannot write checkpoint {}: {}",
            quote(&path.to_string_lossy()),
            e
        )
    })
}

/// Reads the checkpoint at `path` for the solve with `fingerprint` and `items` items;
/// `Ok(None)` if there is no file. Every refusal is one line naming the file.
pub fn load(
    path: &Path,
    fingerprint: &str,
    items: usize,
) -> Result<Option<Vec<Option<TaskState>>>, String> {
    let shown = quote(&path.to_string_lossy());
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("cannot read checkpoint {}: {}", shown, e)),
    };
    decode(&bytes, fingerprint, items)
        .map(Some)
        .map_err(|r| match r {
            Refused::NotACheckpoint => format!(
                "checkpoint {} is not a ply checkpoint: give another --checkpoint file",
                shown
            ),
            Refused::Damaged => format!(
                "checkpoint {} is damaged (its checksum or length is wrong): remove it to start \
                 again",
                shown
            ),
            Refused::OtherJob(other) => format!(
                "checkpoint {} belongs to another command ({}; this one is {}): give the \
                 command that wrote it, or another --checkpoint file",
                shown,
                quote(&other),
                quote(fingerprint)
            ),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn items() -> Vec<Option<TaskState>> {
        vec![
            Some(TaskState {
                lo: 8,
                hi: 12,
                done: false,
                nodes: 1 << 40,
            }),
            None,
            Some(TaskState {
                lo: -1000,
                hi: -14,
                done: true,
                nodes: 0,
            }),
            Some(TaskState {
                lo: 4,
                hi: 4,
                done: true,
                nodes: 77,
            }),
        ]
    }

    #[test]
    fn a_checkpoint_round_trips() {
        let b = encode("solve kalah:6x4", &items());
        assert_eq!(decode(&b, "solve kalah:6x4", 4), Ok(items()));
        let none = vec![None; 7];
        assert_eq!(decode(&encode("j", &none), "j", 7), Ok(none));
    }

    #[test]
    fn damage_and_other_solves_are_refused() {
        let b = encode("solve kalah:6x4", &items());
        for i in 0..b.len() {
            let mut c = b.clone();
            c[i] ^= 1;
            let e = decode(&c, "solve kalah:6x4", 4).unwrap_err();
            assert!(
                matches!(e, Refused::Damaged | Refused::NotACheckpoint),
                "byte {}: {:?}",
                i,
                e
            );
        }
        for n in 0..b.len() {
            assert!(decode(&b[..n], "solve kalah:6x4", 4).is_err(), "cut at {n}");
        }
        assert_eq!(
            decode(&b, "solve kalah:6x5", 4),
            Err(Refused::OtherJob("solve kalah:6x4".into()))
        );
        assert!(matches!(
            decode(&b, "solve kalah:6x4", 5),
            Err(Refused::OtherJob(_))
        ));
        assert_eq!(
            decode(b"PLYKALTB and so on", "x", 1),
            Err(Refused::NotACheckpoint)
        );
    }

    #[test]
    fn load_names_the_file_in_one_line() {
        let dir = std::env::temp_dir().join(format!("ply-solve-ckpt-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("s.ckpt");
        assert_eq!(load(&path, "f", 4), Ok(None));
        save(&path, "f", &items()).unwrap();
        assert_eq!(load(&path, "f", 4), Ok(Some(items())));
        let e = load(&path, "g", 4).unwrap_err();
        assert!(
            e.contains("belongs to another command") && !e.contains('\n'),
            "{e}"
        );
        let mut b = std::fs::read(&path).unwrap();
        b[20] ^= 4;
        std::fs::write(&path, &b).unwrap();
        let e = load(&path, "f", 4).unwrap_err();
        assert!(e.contains("is damaged") && !e.contains('\n'), "{e}");
        std::fs::write(&path, b"hello").unwrap();
        let e = load(&path, "f", 4).unwrap_err();
        assert!(e.contains("is not a ply checkpoint"), "{e}");
        let _ = std::fs::remove_dir_all(dir);
    }
}

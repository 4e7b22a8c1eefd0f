//! The checkpoint file: the finished items of a job, to resume from.
//!
//! Layout (every number a little-endian `u64`):
//!
//! | field | |
//! |---|---|
//! | magic | the 8 bytes `PLYCKPT1` |
//! | fingerprint | its length in bytes, then the text ([`super::Job::fingerprint`]) |
//! | items | the job's number of items |
//! | words | the words of one record ([`super::Record::WORDS`]) |
//! | done | the number of finished items that follow |
//! | finished items | each: the item's number, then its record's words, in item order |
//! | checksum | [`super::codec::fnv1a`] of every byte before it |
//!
//! A file is written whole, under a temporary name that is renamed into place
//! ([`crate::files::write_atomic`]), so it is never half written; a file that does
//! not check out (another magic, a wrong checksum or length) is refused as damaged,
//! and one written by another job (another fingerprint) is refused too, each with a
//! one-line error naming the file.

use std::path::Path;

use super::codec::{fnv1a, put, Reader, Record};
use crate::quote::quote;

/// Checks `--checkpoint PATH` before any work and takes its lock: a file that can
/// be written ([`crate::files::check_output`]), held by no other process
/// ([`crate::files::Lock`]: a second run on the same checkpoint is refused, naming
/// the first), and one that does not exist yet unless `resume` (whether an
/// existing one is a good checkpoint of this command is checked when the job is
/// known, still before any work). The lock is held until the returned guard is
/// dropped. Only the process that writes it checks: on the other ranks of an MPI
/// run, which may not even see the file, this does nothing (`None`).
pub fn claim(path: &Path, resume: bool) -> Result<Option<crate::files::Lock>, String> {
    if super::other_rank() {
        return Ok(None);
    }
    crate::files::check_output(path, "--checkpoint")?;
    let lock = crate::files::Lock::take(path, "--checkpoint", "give another --checkpoint file")?;
    if !resume && path.exists() {
        return Err(exists_error(path));
    }
    Ok(Some(lock))
}

/// The error for a checkpoint that exists where no `--resume` was given.
pub fn exists_error(path: &Path) -> String {
    format!(
        "--checkpoint {} exists: add --resume to go on from it, or remove it to start again",
        quote(&path.to_string_lossy())
    )
}

/// The first 8 bytes of a checkpoint (the last is the format's version).
pub const MAGIC: &[u8; 8] = b"PLYCKPT1";

/// The finished items of a job as a checkpoint's bytes.
pub fn encode<R: Record>(fingerprint: &str, results: &[Option<R>]) -> Vec<u8> {
    let done = results.iter().filter(|r| r.is_some()).count();
    let mut b = Vec::with_capacity(64 + fingerprint.len() + done * 8 * (R::WORDS + 1));
    b.extend_from_slice(MAGIC);
    put(&mut b, fingerprint.len() as u64);
    b.extend_from_slice(fingerprint.as_bytes());
    put(&mut b, results.len() as u64);
    put(&mut b, R::WORDS as u64);
    put(&mut b, done as u64);
    for (i, r) in results.iter().enumerate() {
        if let Some(r) = r {
            put(&mut b, i as u64);
            let words = r.encode();
            debug_assert_eq!(words.len(), R::WORDS);
            for w in words {
                put(&mut b, w);
            }
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

/// The finished items of `bytes`, a checkpoint of the job with `fingerprint` and
/// `items` items: `results[i]` is item `i`'s record, `None` where it is not finished.
pub fn decode<R: Record>(
    bytes: &[u8],
    fingerprint: &str,
    items: usize,
) -> Result<Vec<Option<R>>, Refused> {
    if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
        return Err(Refused::NotACheckpoint);
    }
    let Some(body_len) = bytes.len().checked_sub(8) else {
        return Err(Refused::Damaged);
    };
    let (body, sum) = bytes.split_at(body_len);
    if body.len() < MAGIC.len() || fnv1a(body) != u64::from_le_bytes(sum.try_into().unwrap()) {
        return Err(Refused::Damaged);
    }
    let mut r = Reader::new(&body[MAGIC.len()..]);
    let text = r
        .usize()
        .and_then(|n| r.bytes(n))
        .and_then(|t| String::from_utf8(t.to_vec()).ok())
        .ok_or(Refused::Damaged)?;
    let (n, words, done) = match (r.usize(), r.usize(), r.usize()) {
        (Some(n), Some(w), Some(d)) => (n, w, d),
        _ => return Err(Refused::Damaged),
    };
    if text != fingerprint || n != items || words != R::WORDS {
        return Err(Refused::OtherJob(text));
    }
    let mut results: Vec<Option<R>> = (0..n).map(|_| None).collect();
    let mut last = None;
    for _ in 0..done {
        let i = r.usize().ok_or(Refused::Damaged)?;
        // In item order, each once.
        if i >= n || last.is_some_and(|l| i <= l) {
            return Err(Refused::Damaged);
        }
        last = Some(i);
        let w: Vec<u64> = (0..words)
            .map(|_| r.u64())
            .collect::<Option<_>>()
            .ok_or(Refused::Damaged)?;
        results[i] = Some(R::decode(&w).ok_or(Refused::Damaged)?);
    }
    if !r.rest().is_empty() {
        return Err(Refused::Damaged);
    }
    Ok(results)
}

/// Writes the checkpoint to `path` whole or not at all.
pub fn save<R: Record>(
    path: &Path,
    fingerprint: &str,
    results: &[Option<R>],
) -> Result<(), String> {
    crate::files::write_atomic(path, &encode(fingerprint, results)).map_err(|e| {
        format!(
            "cannot write checkpoint {}: {}",
            quote(&path.to_string_lossy()),
            e
        )
    })
}

/// Reads the checkpoint at `path` for the job with `fingerprint` and `items` items;
/// `Ok(None)` if there is no file. Every refusal is one line naming the file.
pub fn load<R: Record>(
    path: &Path,
    fingerprint: &str,
    items: usize,
) -> Result<Option<Vec<Option<R>>>, String> {
    let shown = quote(&path.to_string_lossy());
    // A fifo or a device is never read (one blocks, /dev/zero never ends).
    crate::files::regular_or_missing(path)
        .map_err(|e| format!("cannot read checkpoint {}: {}", shown, e))?;
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
            Refused::OtherJob(other) => {
                let (theirs, ours) = differing(&other, fingerprint);
                format!(
                    "checkpoint {} belongs to another command ({}; this one is {}): give \
                     the command that wrote it, or another --checkpoint file",
                    shown,
                    quote(&theirs),
                    quote(&ours)
                )
            }
        })
}

/// Two fingerprints from the word where they first differ, `…` marking what was
/// left off in front: an error line quotes each at most 60 characters
/// ([`quote`]), and two commands that differ late (a long `--after` list, the
/// job's description) would otherwise look the same. Fingerprints that differ in
/// their first word are returned whole.
pub fn differing(theirs: &str, ours: &str) -> (String, String) {
    let common = theirs
        .char_indices()
        .zip(ours.chars())
        .find(|((_, a), b)| a != b)
        .map(|((i, _), _)| i)
        .unwrap_or_else(|| theirs.len().min(ours.len()));
    // Back to the start of the word the difference is in.
    let start = theirs[..common].rfind(' ').map_or(0, |i| i + 1);
    if start == 0 {
        return (theirs.to_string(), ours.to_string());
    }
    (
        format!("…{}", &theirs[start..]),
        format!("…{}", &ours[start..]),
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn checkpoints_are_checked_before_the_work() {
        use super::claim;
        let dir = std::env::temp_dir().join(format!("ply-claim-ckpt-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("run.ckpt");
        claim(&path, false).unwrap();
        claim(&path, true).unwrap();
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
        std::fs::write(&path, b"x").unwrap();
        let e = claim(&path, false).unwrap_err();
        assert!(e.contains("exists: add --resume"), "{}", e);
        claim(&path, true).unwrap();
        let e = claim(&dir.join("no/run.ckpt"), true).unwrap_err();
        assert!(
            e.starts_with("--checkpoint ") && e.contains("does not exist"),
            "{}",
            e
        );
        let e = claim(&dir, true).unwrap_err();
        assert!(e.contains("is a directory"), "{}", e);
        let _ = std::fs::remove_dir_all(dir);
    }

    use super::*;

    fn scratch(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("ply-ckpt-{}-{}", name, std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn fingerprints_are_shown_from_where_they_differ() {
        assert_eq!(
            differing("ply perft checkers 9; x", "ply perft checkers 11; x"),
            ("…9; x".to_string(), "…11; x".to_string())
        );
        assert_eq!(differing("j", "k"), ("j".to_string(), "k".to_string()));
        assert_eq!(
            differing("ply a b", "ply a b c"),
            ("…b".to_string(), "…b c".to_string())
        );
    }

    #[test]
    fn a_checkpoint_round_trips() {
        let results = vec![Some(5u64), None, Some(0), None, Some(u64::MAX)];
        let b = encode("perft x", &results);
        assert_eq!(decode::<u64>(&b, "perft x", 5), Ok(results));
        let none: Vec<Option<u64>> = vec![None; 3];
        assert_eq!(decode::<u64>(&encode("j", &none), "j", 3), Ok(none));
    }

    #[test]
    fn damage_and_other_jobs_are_refused() {
        let b = encode("perft x", &[Some(5u64), None, Some(7)]);
        for i in 0..b.len() {
            let mut c = b.clone();
            c[i] ^= 1;
            let e = decode::<u64>(&c, "perft x", 3).unwrap_err();
            assert!(
                matches!(e, Refused::Damaged | Refused::NotACheckpoint),
                "byte {}: {:?}",
                i,
                e
            );
        }
        for n in 0..b.len() {
            assert!(
                decode::<u64>(&b[..n], "perft x", 3).is_err(),
                "cut at {}",
                n
            );
        }
        assert_eq!(
            decode::<u64>(&b, "perft y", 3),
            Err(Refused::OtherJob("perft x".into()))
        );
        assert_eq!(
            decode::<u64>(&b, "perft x", 4),
            Err(Refused::OtherJob("perft x".into()))
        );
        assert_eq!(
            decode::<u64>(b"hello world, a text", "perft x", 3),
            Err(Refused::NotACheckpoint)
        );
    }

    #[test]
    fn files_are_written_whole_and_refusals_are_one_line() {
        let dir = scratch("files");
        let path = dir.join("run.ckpt");
        assert_eq!(load::<u64>(&path, "j", 2), Ok(None));
        save(&path, "j", &[Some(1u64), None]).unwrap();
        // Only the file: the temporary was renamed into place.
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
        assert_eq!(load::<u64>(&path, "j", 2), Ok(Some(vec![Some(1), None])));
        let e = load::<u64>(&path, "k", 2).unwrap_err();
        assert!(
            e.contains("belongs to another command ('j'; this one is 'k')"),
            "{}",
            e
        );
        let mut bytes = std::fs::read(&path).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 0xff;
        std::fs::write(&path, &bytes).unwrap();
        let e = load::<u64>(&path, "j", 2).unwrap_err();
        assert!(e.contains("is damaged"), "{}", e);
        std::fs::write(&path, b"not one").unwrap();
        let e = load::<u64>(&path, "j", 2).unwrap_err();
        assert!(e.contains("is not a ply checkpoint"), "{}", e);
        assert!(!e.contains('\n'));
        let _ = std::fs::remove_dir_all(dir);
    }
}

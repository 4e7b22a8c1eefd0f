//! The one place that decides where a file `ply` writes goes, and whether it may go
//! there: every output file (`--results`, `--plot`, `--pdn`, `--checkpoint`, the
//! Kalah endgame tables) is checked by [`check_output`] before any work and written
//! through [`PendingFile`], which asks [`destination`] too.
//!
//! * Only regular files are written. A symbolic link is followed to its target (the
//!   link stays, its target is replaced); a directory, a fifo, a device or a socket
//!   is refused with a one-line error before any work, never replaced by a regular
//!   file.
//! * A path that names a directory (`newdir/`, `out/.`) is refused, and so is a
//!   file in a directory that does not exist.
//! * The same file given for two outputs ([`check_distinct`]) is refused.
//! * A temporary `.NAME.tmpPID` left next to NAME by a process that is no longer
//!   running (killed during a save) is removed when a later run checks or writes
//!   NAME ([`sweep_stale`]).
//! * A checkpoint, and a table file being built, is held by one process at a time
//!   ([`Lock`]): an advisory lock (`flock`) on `.NAME.lock` next to it, which the
//!   system releases whenever its holder ends, however it ends. A second run on a
//!   checkpoint is refused; a second solve that would build the same tables waits
//!   for the first and then reads what it built.

use std::fs::{File, Metadata, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use crate::quote::quote;

/// The most symbolic links followed from one path (as Linux's `ELOOP` limit).
const MAX_LINKS: usize = 40;

/// What `meta` is, for an error line: `a directory`, `a fifo`, `a character
/// device` ...
pub fn kind_of(meta: &Metadata) -> &'static str {
    let t = meta.file_type();
    if t.is_dir() {
        return "a directory";
    }
    if t.is_file() {
        return "a regular file";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a fifo";
        }
        if t.is_char_device() {
            return "a character device";
        }
        if t.is_block_device() {
            return "a block device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    "not a regular file"
}

/// Whether `path`, as written, names a directory rather than a file: it ends in `/`
/// or `/.`, or is `.` or `..` or ends in `..`.
pub fn names_directory(path: &Path) -> bool {
    let bytes = path.as_os_str().as_encoded_bytes();
    bytes.ends_with(b"/") || bytes.ends_with(b"/.") || bytes == b"." || path.file_name().is_none()
}

/// The file `path` writes to: `path` itself, or, when it is a symbolic link, the
/// file the links lead to (which need not exist yet).
pub fn destination(path: &Path) -> std::io::Result<PathBuf> {
    let mut p = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match std::fs::symlink_metadata(&p) {
            Ok(m) if m.file_type().is_symlink() => {
                let to = std::fs::read_link(&p)?;
                p = if to.is_absolute() {
                    to
                } else {
                    p.parent().unwrap_or(Path::new("")).join(to)
                };
            }
            _ => return Ok(p),
        }
    }
    Err(std::io::Error::other("too many levels of symbolic links"))
}

/// `Ok` if `dest` (a [`destination`]) may be replaced by a regular file: it is a
/// regular file or nothing that can be looked at (missing, or in a directory that
/// is not there). Otherwise an error naming what it is.
pub fn regular_or_missing(dest: &Path) -> std::io::Result<()> {
    match std::fs::metadata(dest) {
        Ok(m) if m.is_file() => Ok(()),
        Ok(m) => Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("it is {}: expected a regular file", kind_of(&m)),
        )),
        // Not there (or not reachable: the error of creating the file says why).
        Err(_) => Ok(()),
    }
}

/// The directory `dest` is in (`.` for a bare name).
fn parent_of(dest: &Path) -> &Path {
    match dest.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// Checks, before any work, that `path` (given as `setting`, e.g. `--plot`) can be
/// written as this module says: a file name, whose [`destination`] is a regular
/// file or nothing yet, in a directory that exists, where a file can be created.
/// The check creates the temporary the result will be written to
/// ([`PendingFile`]) and removes it again (sweeping stale ones of
/// dead processes on the way): nothing is left behind.
pub fn check_output(path: &Path, setting: &str) -> Result<(), String> {
    let shown = quote(&path.to_string_lossy());
    if path.as_os_str().is_empty() {
        return Err(format!("{} is empty: expected a file name", setting));
    }
    if path.is_dir() {
        return Err(format!(
            "{} {} is a directory: expected a file name",
            setting, shown
        ));
    }
    if names_directory(path) {
        return Err(format!(
            "{} {} names a directory: expected a file name",
            setting, shown
        ));
    }
    let dest = destination(path).map_err(|e| format!("{} {}: {}", setting, shown, e))?;
    regular_or_missing(&dest).map_err(|e| format!("{} {}: {}", setting, shown, e))?;
    let parent = parent_of(&dest);
    if !parent.is_dir() {
        return Err(format!(
            "{} {}: {} {}",
            setting,
            shown,
            quote(&parent.to_string_lossy()),
            if parent.exists() {
                "is not a directory"
            } else {
                "does not exist (the directory must be there already)"
            }
        ));
    }
    PendingFile::create(path)
        .map(drop)
        .map_err(|e| format!("{} {}: cannot write there: {}", setting, shown, e))
}

/// Where `path` really is, to compare two outputs: its [`destination`] in its
/// directory's canonical form (as written where the directory does not exist).
fn identity(path: &Path) -> PathBuf {
    let dest = destination(path).unwrap_or_else(|_| path.to_path_buf());
    let dir = parent_of(&dest);
    match (std::fs::canonicalize(dir), dest.file_name()) {
        (Ok(d), Some(name)) => d.join(name),
        _ => dest,
    }
}

/// Refuses the same file given for two outputs (`--results F --checkpoint F`, or
/// a link and its target): each `(setting, path)` must write a file of its own.
pub fn check_distinct(outputs: &[(&str, &Path)]) -> Result<(), String> {
    for (i, (a, pa)) in outputs.iter().enumerate() {
        for (b, pb) in &outputs[i + 1..] {
            if identity(pa) == identity(pb) {
                return Err(format!(
                    "{} {} and {} {} are the same file: give each its own",
                    a,
                    quote(&pa.to_string_lossy()),
                    b,
                    quote(&pb.to_string_lossy())
                ));
            }
        }
    }
    Ok(())
}

/// Whether process `pid` is running on this machine (`true` where that cannot be
/// told).
fn running(pid: u32) -> bool {
    #[cfg(unix)]
    {
        let Ok(p) = i32::try_from(pid) else {
            return true;
        };
        if p <= 0 {
            return true;
        }
        // SAFETY: kill(2) with signal 0 sends nothing; it only checks that the
        // process exists.
        let r = unsafe { libc::kill(p, 0) };
        r == 0 || std::io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
    }
    #[cfg(not(unix))]
    {
        let _ = pid;
        true
    }
}

/// Removes the temporaries `.NAME.tmpPID` next to `dest` (NAME its file name) whose
/// process PID is no longer running: what a run killed during a save left. Returns
/// how many were removed. Another live process's temporary is never touched.
pub fn sweep_stale(dest: &Path) -> usize {
    let Some(name) = dest.file_name() else {
        return 0;
    };
    let prefix = format!(".{}.tmp", name.to_string_lossy());
    let Ok(entries) = std::fs::read_dir(parent_of(dest)) else {
        return 0;
    };
    let mut removed = 0;
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        let Some(pid) = file_name
            .to_str()
            .and_then(|n| n.strip_prefix(&prefix))
            .filter(|digits| !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|digits| digits.parse::<u32>().ok())
        else {
            continue;
        };
        let regular = entry.file_type().is_ok_and(|t| t.is_file());
        if regular
            && pid != std::process::id()
            && !running(pid)
            && std::fs::remove_file(entry.path()).is_ok()
        {
            removed += 1;
        }
    }
    removed
}

/// The lock file of `dest`: `.NAME.lock` next to its [`destination`].
pub fn lock_path(dest: &Path) -> PathBuf {
    let dest = destination(dest).unwrap_or_else(|_| dest.to_path_buf());
    let name = dest
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "result".into());
    dest.with_file_name(format!(".{}.lock", name))
}

/// A file held by this process alone: an advisory lock (`flock`) on its
/// [`lock_path`], which holds this process's id. The system releases the lock when
/// the holder ends however it ends, so a killed holder never leaves a lock behind;
/// the lock file itself is removed on drop and on Ctrl-C (and, after a kill, taken
/// over and removed by the next run).
#[derive(Debug)]
pub struct Lock {
    path: PathBuf,
    _file: File,
}

/// What [`Lock::attempt`] found: the lock, or the process holding it.
#[derive(Debug)]
pub enum Attempt {
    /// The lock, held until dropped.
    Taken(Lock),
    /// Another process holds it: its pid, where the lock file says.
    Held(Option<u32>),
}

impl Lock {
    /// Takes the lock of `dest` (named `what` in the error, e.g. `--checkpoint`), or
    /// a one-line error naming the process that holds it and ending with `instead`
    /// (what else the user can do, e.g. `give another --checkpoint file`).
    pub fn take(dest: &Path, what: &str, instead: &str) -> Result<Lock, String> {
        let shown = quote(&dest.to_string_lossy());
        match Lock::attempt(dest, false) {
            Ok(Attempt::Taken(lock)) => Ok(lock),
            Ok(Attempt::Held(pid)) => Err(format!(
                "{} {} is in use by {}: wait for it to end, or {}",
                what,
                shown,
                holder(pid),
                instead
            )),
            Err(e) => Err(format!("{} {}: cannot lock it: {}", what, shown, e)),
        }
    }

    /// Takes the lock of `dest`; if another process holds it, `wait` says whether
    /// to wait until it ends ([`Attempt::Taken`]) or to say who holds it now
    /// ([`Attempt::Held`]).
    pub fn attempt(dest: &Path, wait: bool) -> std::io::Result<Attempt> {
        let path = lock_path(dest);
        // The holder removes the lock file when it is done: a lock taken on a file
        // removed meanwhile holds nothing, so take it again on the new one.
        for _ in 0..100 {
            let mut file = OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .open(&path)?;
            if !lock_file(&file, wait)? {
                let mut text = String::new();
                let _ = file.read_to_string(&mut text);
                return Ok(Attempt::Held(text.trim().parse::<u32>().ok()));
            }
            if !same_file(&file, &path) {
                continue;
            }
            crate::interrupt::register_pending(&path);
            file.set_len(0)?;
            file.write_all(format!("{}\n", std::process::id()).as_bytes())?;
            return Ok(Attempt::Taken(Lock { path, _file: file }));
        }
        Err(std::io::Error::other("its lock file keeps changing"))
    }
}

/// The holder of a lock in an error line: `another ply process (pid N)`.
pub fn holder(pid: Option<u32>) -> String {
    match pid {
        Some(pid) => format!("another ply process (pid {})", pid),
        None => "another ply process".to_string(),
    }
}

impl Drop for Lock {
    fn drop(&mut self) {
        // Removed while still locked: whoever opened it meanwhile finds it gone
        // (same_file) and takes a new one.
        let _ = std::fs::remove_file(&self.path);
        crate::interrupt::unregister_pending(&self.path);
    }
}

/// Takes an exclusive advisory lock on `file`, waiting for it if `wait`; without
/// waiting, `Ok(false)` if another process holds it.
fn lock_file(file: &File, wait: bool) -> std::io::Result<bool> {
    #[cfg(unix)]
    {
        use std::os::unix::io::AsRawFd;
        let how = if wait {
            libc::LOCK_EX
        } else {
            libc::LOCK_EX | libc::LOCK_NB
        };
        // SAFETY: flock(2) on a descriptor this function borrows for the call.
        let r = unsafe { libc::flock(file.as_raw_fd(), how) };
        if r == 0 {
            return Ok(true);
        }
        let e = std::io::Error::last_os_error();
        if e.raw_os_error() == Some(libc::EWOULDBLOCK) {
            Ok(false)
        } else {
            Err(e)
        }
    }
    #[cfg(not(unix))]
    {
        let _ = (file, wait);
        Ok(true)
    }
}

/// Whether `file` is still the file at `path` (not removed or replaced since it
/// was opened).
fn same_file(file: &File, path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (file.metadata(), std::fs::metadata(path)) {
            (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = (file, path);
        true
    }
}

/// A result file being written: the temporary is registered for removal on Ctrl-C
/// and removed on drop unless [`PendingFile::commit`] renamed it into place.
pub struct PendingFile {
    tmp: PathBuf,
    dest: PathBuf,
    file: Option<std::fs::File>,
}

impl PendingFile {
    /// Starts writing `dest` (through a temporary next to it): the file
    /// [`destination`] names, which must be a regular file or nothing yet (a
    /// directory, fifo or device is refused, a symbolic link followed). Temporaries
    /// of `dest` that dead processes left are swept first ([`sweep_stale`]).
    pub fn create(dest: &Path) -> std::io::Result<PendingFile> {
        if names_directory(dest) {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                "it names a directory: expected a file name",
            ));
        }
        let dest = destination(dest)?;
        regular_or_missing(&dest)?;
        sweep_stale(&dest);
        let tmp = crate::interrupt::temp_path(&dest);
        // Registered before it exists, so there is no moment at which Ctrl-C would
        // leave it behind.
        crate::interrupt::register_pending(&tmp);
        let file =
            std::fs::File::create(&tmp).inspect_err(|_| crate::interrupt::unregister(&tmp))?;
        Ok(PendingFile {
            tmp,
            dest,
            file: Some(file),
        })
    }

    /// The file to write into.
    pub fn file(&mut self) -> &mut std::fs::File {
        self.file.as_mut().expect("the file is open until commit")
    }

    /// Flushes the data to disk and renames the temporary to the destination.
    pub fn commit(mut self) -> std::io::Result<()> {
        // The file stays in `self.file` until the rename: a failure on the way
        // drops `self`, which removes the temporary.
        self.file().sync_all()?;
        crate::interrupt::rename_pending(&self.tmp, &self.dest)?;
        self.file = None;
        Ok(())
    }
}

impl Drop for PendingFile {
    fn drop(&mut self) {
        if self.file.take().is_some() {
            let _ = std::fs::remove_file(&self.tmp);
            crate::interrupt::unregister(&self.tmp);
        }
    }
}

/// Writes `bytes` to `path` whole or not at all (see [`PendingFile`]): an interrupted or failed write leaves neither a
/// partial file nor the temporary.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut f = PendingFile::create(path)?;
    f.file().write_all(bytes)?;
    f.commit()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("ply-files-{}-{}", name, std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn paths_that_name_directories() {
        for p in ["d/", "d/.", ".", "..", "d/.."] {
            assert!(names_directory(Path::new(p)), "{}", p);
        }
        for p in ["d", "d/f", ".f", "f.csv"] {
            assert!(!names_directory(Path::new(p)), "{}", p);
        }
    }

    #[cfg(unix)]
    #[test]
    fn links_are_followed_and_special_files_refused() {
        let dir = scratch("links");
        let target = dir.join("target.csv");
        let link = dir.join("link.csv");
        std::os::unix::fs::symlink("target.csv", &link).unwrap();
        assert_eq!(destination(&link).unwrap(), target);
        assert!(check_output(&link, "--results").is_ok());
        let e = check_output(Path::new("/dev/null"), "--results").unwrap_err();
        assert!(e.contains("a character device"), "{}", e);
        assert!(check_distinct(&[("--results", &link), ("--checkpoint", &target)]).is_err());
        assert!(check_distinct(&[("--results", &link), ("--checkpoint", &dir)]).is_ok());
        let _ = std::fs::remove_dir_all(dir);
    }

    #[cfg(unix)]
    #[test]
    fn a_lock_is_held_once_and_removed_after() {
        let dir = scratch("lock");
        let dest = dir.join("s.ckpt");
        let lock = Lock::take(&dest, "--checkpoint", "give another file").unwrap();
        assert!(lock_path(&dest).exists());
        // flock locks belong to the open file: a second open in this process is
        // refused as another process's would be.
        let e = Lock::take(&dest, "--checkpoint", "give another file")
            .err()
            .unwrap();
        assert!(e.contains(&format!("pid {}", std::process::id())), "{}", e);
        drop(lock);
        assert!(!lock_path(&dest).exists());
        drop(Lock::take(&dest, "--checkpoint", "give another file").unwrap());
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn stale_temporaries_of_dead_processes_are_swept() {
        let dir = scratch("sweep");
        let dest = dir.join("out.csv");
        // No process has the largest pid Linux allows plus one.
        let dead = dir.join(".out.csv.tmp4194305");
        let mine = crate::interrupt::temp_path(&dest);
        let other = dir.join(".other.csv.tmp4194305");
        for p in [&dead, &mine, &other] {
            std::fs::write(p, b"x").unwrap();
        }
        assert_eq!(sweep_stale(&dest), 1);
        assert!(!dead.exists() && mine.exists() && other.exists());
        let _ = std::fs::remove_dir_all(dir);
    }
}

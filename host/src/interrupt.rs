//! Long work and Ctrl-C: result files are written whole or not at all, and progress is
//! shown while the work runs.
//!
//! * [`install`] (called once by `main`) makes Ctrl-C (and SIGTERM) run the hook a long
//!   job set with [`on_interrupt`] (saving its checkpoint), remove every result file
//!   still being written, print `interrupted` on standard error and exit with status
//!   130, the shell's convention for SIGINT.
//! * [`register_pending`] registers a file being written for that clean-up
//!   ([`crate::files::write_atomic`] writes a result file under a temporary name in the
//!   same directory, registered here, and renames it into place once complete: an
//!   interrupted (or failed) write leaves neither a partial file nor the temporary).
//! * [`ChildGuard`] registers a child process (an engine `ply match` or `ply verify`
//!   talks to): the handler kills every registered child, and its process group,
//!   before it exits, so that no engine outlives `ply`.
//! * [`Progress`] prints a line on standard error at most once a second, and only once
//!   the work has run a second, so quick commands stay quiet.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Temporary files being written: removed by the Ctrl-C handler.
static PENDING: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Child processes to kill on Ctrl-C: each one's pid, the leader of its own process
/// group.
static CHILDREN: Mutex<Vec<u32>> = Mutex::new(Vec::new());

/// Work the Ctrl-C handler does first ([`on_interrupt`]).
type Hook = Box<dyn Fn() + Send>;
static ON_INTERRUPT: Mutex<Option<Hook>> = Mutex::new(None);

/// Sets (or with `None` clears) what the Ctrl-C / SIGTERM handler does before it removes
/// the pending files and exits: a long job saves its checkpoint here
/// ([`crate::distributed`], `ply solve kalah --checkpoint`). One at a time: a new one
/// replaces the last.
pub fn on_interrupt(hook: Option<Hook>) {
    *ON_INTERRUPT.lock().unwrap_or_else(|e| e.into_inner()) = hook;
}

/// The exit status after Ctrl-C (128 + SIGINT).
pub const INTERRUPTED_STATUS: i32 = 130;

/// Installs the Ctrl-C / SIGTERM handler. Call once, early in `main`.
pub fn install() -> Result<(), String> {
    ctrlc::set_handler(|| {
        if let Some(hook) = ON_INTERRUPT
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .as_ref()
        {
            hook();
        }
        kill_children();
        remove_pending();
        // A progress line may be open on a terminal: end it first.
        crate::errln!("\ninterrupted");
        std::process::exit(INTERRUPTED_STATUS);
    })
    .map_err(|e| format!("cannot install the Ctrl-C handler: {}", e))
}

/// A child process killed (with its process group) when dropped, and by the Ctrl-C
/// handler if it is still registered then. The child must have been started as the
/// leader of a process group of its own (`process_group(0)`), so that what it started
/// in turn (a shell script's commands) goes with it.
pub struct ChildGuard {
    pid: u32,
}

impl ChildGuard {
    /// Registers the child `pid`.
    pub fn new(pid: u32) -> ChildGuard {
        CHILDREN.lock().unwrap_or_else(|e| e.into_inner()).push(pid);
        ChildGuard { pid }
    }
}

impl Drop for ChildGuard {
    fn drop(&mut self) {
        let mut children = CHILDREN.lock().unwrap_or_else(|e| e.into_inner());
        children.retain(|&p| p != self.pid);
        kill_group(self.pid);
    }
}

/// Kills the process group led by `pid` (on Unix; elsewhere nothing: the caller
/// kills the child itself).
fn kill_group(pid: u32) {
    #[cfg(unix)]
    if let Ok(pid) = i32::try_from(pid) {
        if pid > 0 {
            // SAFETY: kill(2) with a negative pid signals that process group; it has
            // no other effect on this process.
            unsafe {
                libc::kill(-pid, libc::SIGKILL);
            }
        }
    }
    #[cfg(not(unix))]
    let _ = pid;
}

/// Kills every registered child's process group; the registry stays locked until the
/// process exits when called from the handler, so that no child is started after.
fn kill_children() {
    let children = CHILDREN.lock().unwrap_or_else(|e| e.into_inner());
    for &pid in children.iter() {
        kill_group(pid);
    }
    std::mem::forget(children);
}

/// Removes every temporary result file still being written; returns how many. The
/// registry stays locked until the process exits when called from the handler, so a
/// rename cannot slip in between.
pub fn remove_pending() -> usize {
    let mut pending = PENDING.lock().unwrap_or_else(|e| e.into_inner());
    let n = pending.len();
    for p in pending.drain(..) {
        let _ = std::fs::remove_file(p);
    }
    n
}

/// The temporary files currently registered (for tests).
pub fn pending() -> Vec<PathBuf> {
    PENDING.lock().unwrap_or_else(|e| e.into_inner()).clone()
}

/// The temporary name next to `path`: `.NAME.tmpPID`, hidden and unique per process.
pub fn temp_path(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "result".into());
    path.with_file_name(format!(".{}.tmp{}", name, std::process::id()))
}

/// Registers `path` for removal by the Ctrl-C / SIGTERM handler (a file this
/// process made and must not leave behind: a temporary, a lock file).
pub fn register_pending(path: &Path) {
    PENDING
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .push(path.to_path_buf());
}

/// Undoes [`register_pending`] (the file was renamed into place or removed).
pub fn unregister_pending(path: &Path) {
    unregister(path)
}

/// Undoes [`register_pending`] of a temporary.
pub(crate) fn unregister(tmp: &Path) {
    PENDING
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .retain(|p| p != tmp);
}

/// Renames the registered temporary `tmp` to `dest` and unregisters it, under the
/// registry's lock: the Ctrl-C handler sees the temporary either still pending (and
/// removes it) or already renamed.
pub fn rename_pending(tmp: &Path, dest: &Path) -> std::io::Result<()> {
    let mut pending = PENDING.lock().unwrap_or_else(|e| e.into_inner());
    std::fs::rename(tmp, dest)?;
    pending.retain(|p| p != tmp);
    Ok(())
}

/// Rate-limited progress lines on standard error.
pub struct Progress {
    start: Instant,
    last: Option<Instant>,
    every: Duration,
    terminal: bool,
    open: bool,
}

impl Default for Progress {
    fn default() -> Self {
        Self::new()
    }
}

impl Progress {
    /// Progress starting now: the first line after a second, then at most one a second.
    pub fn new() -> Self {
        Progress {
            start: Instant::now(),
            last: None,
            every: Duration::from_secs(1),
            terminal: std::io::stderr().is_terminal(),
            open: false,
        }
    }

    /// Seconds since the start.
    pub fn elapsed(&self) -> f64 {
        self.start.elapsed().as_secs_f64()
    }

    /// Shows `line()` if a line is due. On a terminal the line is redrawn in place;
    /// otherwise each is a line of its own.
    pub fn tick(&mut self, line: impl FnOnce() -> String) {
        let now = Instant::now();
        let due = match self.last {
            None => now - self.start >= self.every,
            Some(t) => now - t >= self.every,
        };
        if !due {
            return;
        }
        self.last = Some(now);
        let text = line();
        let mut err = std::io::stderr().lock();
        if self.terminal {
            let _ = write!(err, "\r{}\x1b[K", text);
            self.open = true;
        } else {
            let _ = writeln!(err, "{}", text);
        }
        let _ = err.flush();
    }

    /// Ends an open progress line on a terminal, so the result starts on a fresh line.
    pub fn finish(&mut self) {
        if self.open {
            let _ = write!(std::io::stderr(), "\r\x1b[K");
            self.open = false;
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.finish();
    }
}

/// An error message as one line: line breaks and other control characters a user
/// typed into an argument are escaped, so every error is exactly one line on stderr.
pub fn one_line(msg: &str) -> String {
    let mut out = String::with_capacity(msg.len());
    for c in msg.trim_end().chars() {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::files::{write_atomic, PendingFile};

    /// The registry is global: these tests take turns.
    static SERIAL: Mutex<()> = Mutex::new(());

    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("ply-interrupt-{}-{}", name, std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn files(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn a_committed_file_appears_whole_and_the_temporary_goes() {
        let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
        let dir = scratch("commit");
        let dest = dir.join("out.svg");
        write_atomic(&dest, b"<svg/>").unwrap();
        assert_eq!(std::fs::read(&dest).unwrap(), b"<svg/>");
        assert_eq!(files(&dir), vec!["out.svg"]);
        assert!(!pending().contains(&temp_path(&dest)));
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn an_interrupted_write_leaves_nothing() {
        let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
        let dir = scratch("interrupt");
        let dest = dir.join("table.bin");
        let mut f = PendingFile::create(&dest).unwrap();
        f.file().write_all(b"half of it").unwrap();
        assert!(pending().contains(&temp_path(&dest)));
        // What the Ctrl-C handler does before it exits.
        assert!(remove_pending() >= 1);
        assert_eq!(files(&dir), Vec::<String>::new());
        drop(f);
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn an_abandoned_write_leaves_nothing() {
        let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
        let dir = scratch("drop");
        let dest = dir.join("plot.svg");
        {
            let mut f = PendingFile::create(&dest).unwrap();
            f.file().write_all(b"<sv").unwrap();
        }
        assert_eq!(files(&dir), Vec::<String>::new());
        assert!(!pending().contains(&temp_path(&dest)));
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn error_messages_become_one_line() {
        assert_eq!(one_line("unknown game 'a\nb'"), "unknown game 'a\\nb'");
        assert_eq!(one_line("bad\r\tthing\n"), "bad\\r\\tthing");
        assert_eq!(one_line("plain é"), "plain é");
    }
}

//! Large tables that are probed at random (the search's and the Kalah solver's
//! transposition tables, the endgame tables): allocated through a fallible path that
//! refuses a size beyond the machine, zeroed by the kernel as pages are first touched,
//! and backed by huge pages where the system offers them.
//!
//! A solve probes gigabytes at random; with 4 KiB pages nearly every probe also
//! misses the TLB and walks the page tables, which on a virtual machine costs more
//! than the memory access itself. Linux's transparent huge pages (2 MiB) cut those
//! walks; in its default `madvise` mode a program has to ask for them.

use std::alloc::Layout;
use std::sync::atomic::AtomicU64;

use ply_core::search::TtEntry;

/// An empty vector with room for `capacity` values, its memory advised to use
/// transparent huge pages before it is first touched (Linux; elsewhere a plain
/// vector). `what` names the table in the error if the memory cannot be had.
pub fn huge_page_capacity<T>(capacity: usize, what: &str) -> Result<Vec<T>, String> {
    let bytes = (capacity as u64).saturating_mul(std::mem::size_of::<T>() as u64);
    check_fits(bytes, what)?;
    let mut v: Vec<T> = Vec::new();
    v.try_reserve_exact(capacity)
        .map_err(|_| format!("cannot allocate {} for {}", mib(bytes), what))?;
    advise_huge_pages(&v);
    Ok(v)
}

/// `len` atomic words, all zero, advised like [`huge_page_capacity`], without writing
/// them: the zeros come from the allocator's fresh pages (the kernel clears a page
/// when it is first touched), so a gigabyte table costs nothing until it is used
/// instead of seconds of filling up front.
pub fn zeroed_atomic_words(len: usize, what: &str) -> Result<Vec<AtomicU64>, String> {
    let v = zeroed_words(len, what)?;
    advise_huge_pages(&v);
    Ok(v)
}

/// Like [`zeroed_atomic_words`], on ordinary pages: for tables used under a time
/// limit (the search's). The kernel zeroes a huge page (2 MiB) whole when it is first
/// written — and may first compact memory for it — which cost a shallow search up to
/// 150 ms on a 128 MiB table here (a single thread's first probes mapped the huge zero
/// page, each first store then cleared 2 MiB); ordinary pages (asked for explicitly)
/// fault in a microsecond each, as the search reaches them.
pub fn zeroed_atomic_words_small_pages(len: usize, what: &str) -> Result<Vec<AtomicU64>, String> {
    let v = zeroed_words(len, what)?;
    advise_no_huge_pages(&v);
    Ok(v)
}

/// `len` zero atomic words from the allocator's fresh pages, not advised.
fn zeroed_words(len: usize, what: &str) -> Result<Vec<AtomicU64>, String> {
    if len == 0 {
        return Ok(Vec::new());
    }
    let bytes = (len as u64).saturating_mul(8);
    check_fits(bytes, what)?;
    let layout = Layout::array::<AtomicU64>(len)
        .map_err(|_| format!("cannot allocate {} for {}", mib(bytes), what))?;
    // SAFETY: `layout` has a non-zero size. `alloc_zeroed` returns memory of that
    // layout with every byte zero (or null, handled below), and all-zero bytes are
    // a valid `AtomicU64` (value 0), so the `len` elements are initialised. The
    // allocation comes from the global allocator with exactly this layout, as
    // `Vec::from_raw_parts` requires for capacity `len`.
    let v = unsafe {
        let p = std::alloc::alloc_zeroed(layout) as *mut AtomicU64;
        if p.is_null() {
            return Err(format!("cannot allocate {} for {}", mib(bytes), what));
        }
        Vec::from_raw_parts(p, len, len)
    };
    Ok(v)
}

/// `len` empty transposition-table entries ([`TtEntry::EMPTY`]), got like
/// [`zeroed_atomic_words_small_pages`]: without writing them, so a table costs its
/// time as it is used (inside a move's time budget, where its set-up cannot be
/// interrupted, clearing 32 MiB took up to tens of milliseconds on a busy machine),
/// and on ordinary pages.
pub fn zeroed_tt_entries(len: usize, what: &str) -> Result<Vec<TtEntry>, String> {
    if len == 0 {
        return Ok(Vec::new());
    }
    let bytes = (len as u64).saturating_mul(std::mem::size_of::<TtEntry>() as u64);
    check_fits(bytes, what)?;
    let layout = Layout::array::<TtEntry>(len)
        .map_err(|_| format!("cannot allocate {} for {}", mib(bytes), what))?;
    // SAFETY: `layout` has a non-zero size. `alloc_zeroed` returns memory of that
    // layout with every byte zero (or null, handled below). `TtEntry` is a struct of
    // integers only (u64, i32, u16, u8, u8), for which all-zero bytes are valid
    // values, and all-zero is exactly `TtEntry::EMPTY` (checked by a test below), so
    // the `len` elements are initialised empty entries. The allocation comes from the
    // global allocator with exactly this layout, as `Vec::from_raw_parts` requires.
    let v = unsafe {
        let p = std::alloc::alloc_zeroed(layout) as *mut TtEntry;
        if p.is_null() {
            return Err(format!("cannot allocate {} for {}", mib(bytes), what));
        }
        Vec::from_raw_parts(p, len, len)
    };
    advise_no_huge_pages(&v);
    Ok(v)
}

fn mib(bytes: u64) -> String {
    format!("{} MiB", bytes.div_ceil(1 << 20))
}

/// A line of Linux's `/proc/meminfo` (`MemTotal`, `MemAvailable`) in bytes, if it
/// can be read.
fn meminfo(key: &str) -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.split(':').next() == Some(key))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib.saturating_mul(1024))
}

/// The memory free now in bytes (Linux's `MemAvailable`), if it can be read.
pub fn available_memory() -> Option<u64> {
    meminfo("MemAvailable")
}

/// The machine's memory in bytes (Linux's `MemTotal`), if it can be read.
fn total_memory() -> Option<u64> {
    meminfo("MemTotal")
}

/// Refuses `bytes` for `what` (a setting, named in the error) when it is more than
/// the machine's memory: for tables touched only as they are used.
pub fn check_total(bytes: u64, what: &str) -> Result<(), String> {
    check_fits(bytes, what)
}

/// Refuses `bytes` for `what` (a setting, named in the error) when it is more than
/// the memory free now (Linux's `MemAvailable`, else the machine's memory): for
/// tables filled when they are made, which would otherwise fail to allocate or be
/// killed while being filled.
pub fn check_available(bytes: u64, what: &str) -> Result<(), String> {
    match meminfo("MemAvailable") {
        Some(free) if bytes > free => Err(format!(
            "{} would take {}, more than the {} of memory free on this machine",
            what,
            mib(bytes),
            mib(free)
        )),
        Some(_) => Ok(()),
        None => check_fits(bytes, what),
    }
}

/// Refuses a table larger than the machine's memory with an error naming it (an
/// allocation that size would fail, or succeed and then be killed).
fn check_fits(bytes: u64, what: &str) -> Result<(), String> {
    match total_memory() {
        Some(total) if bytes > total => Err(format!(
            "{} would take {}, more than this machine's {} of memory",
            what,
            mib(bytes),
            mib(total)
        )),
        _ => Ok(()),
    }
}

/// A file's bytes mapped read-only into memory (Unix): the pages are the system's
/// file cache itself, so a table file of gigabytes is usable in a fraction of a
/// second and costs no memory of its own, where reading it would first clear and
/// then fill as many fresh pages (measured in `docs/games/kalah/tables.md`).
#[cfg(unix)]
pub struct FileMap {
    ptr: *mut libc::c_void,
    len: usize,
}

// SAFETY: the mapping is read-only and owned by the `FileMap`; shared references
// only read it, from any thread.
#[cfg(unix)]
unsafe impl Send for FileMap {}
// SAFETY: as above: nothing writes the mapping, so readers on several threads
// cannot race.
#[cfg(unix)]
unsafe impl Sync for FileMap {}

#[cfg(unix)]
impl FileMap {
    /// The first `len` bytes of `file` (which must hold them), mapped read-only;
    /// with `populate`, brought in at once (Linux: the mapping call fills the page
    /// tables, while other threads of the process that map memory or fault pages
    /// may have to wait), else page by page as they are read. `what` names the file
    /// in the error.
    pub fn new(
        file: &std::fs::File,
        len: usize,
        populate: bool,
        what: &str,
    ) -> Result<FileMap, String> {
        use std::os::unix::io::AsRawFd;
        if len == 0 {
            return Err(format!("cannot map {what}: it is empty"));
        }
        #[cfg(target_os = "linux")]
        let flags = libc::MAP_PRIVATE | if populate { libc::MAP_POPULATE } else { 0 };
        #[cfg(not(target_os = "linux"))]
        let flags = {
            let _ = populate;
            libc::MAP_PRIVATE
        };
        // SAFETY: a fresh read-only private mapping of an open file at offset 0;
        // the kernel picks the address, so no memory of this process is affected.
        let ptr = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_READ,
                flags,
                file.as_raw_fd(),
                0,
            )
        };
        if ptr == libc::MAP_FAILED {
            return Err(format!(
                "cannot map {}: {}",
                what,
                std::io::Error::last_os_error()
            ));
        }
        shrink_guard::register(ptr as usize, len, what);
        Ok(FileMap { ptr, len })
    }

    /// The mapped bytes.
    pub fn bytes(&self) -> &[u8] {
        // SAFETY: `ptr..ptr + len` is a live read-only mapping owned by `self`,
        // which nothing writes while it lives.
        unsafe { std::slice::from_raw_parts(self.ptr as *const u8, self.len) }
    }

    /// The mapped bytes `range` as atomic bytes, for tables that are read with
    /// atomic loads: relaxed loads of `AtomicI8` compile to plain loads, and atomic
    /// loads of read-only memory are allowed (`std::sync::atomic`, "Atomic accesses
    /// to read-only memory"). A store would fault on the read-only page.
    ///
    /// # Panics
    /// If `range` is not inside the mapping.
    pub fn atomic_bytes(&self, range: std::ops::Range<usize>) -> &[std::sync::atomic::AtomicI8] {
        let bytes = &self.bytes()[range];
        // SAFETY: `AtomicI8` has the size, alignment and bit validity of `i8` (and of
        // `u8`), so the bytes are valid values of it; the slice borrows `self`.
        unsafe {
            std::slice::from_raw_parts(
                bytes.as_ptr() as *const std::sync::atomic::AtomicI8,
                bytes.len(),
            )
        }
    }
}

#[cfg(unix)]
impl Drop for FileMap {
    fn drop(&mut self) {
        shrink_guard::unregister(self.ptr as usize);
        // SAFETY: `ptr..ptr + len` is the mapping this `FileMap` made and owns, and
        // no reference into it outlives `self`.
        unsafe {
            libc::munmap(self.ptr, self.len);
        }
    }
}

/// A mapped file that shrinks under the process (another process truncates it:
/// `truncate -s 4096` on a table file `ply solve` maps) makes the next read of a
/// page past its new end raise SIGBUS, which would kill the process without a
/// word. While a [`FileMap`] lives, a SIGBUS handler turns a fault inside it into
/// one error line naming the file and exit status 1; a fault anywhere else keeps
/// the default action. The handler only reads atomics and calls `write` and
/// `_exit`, which are async-signal-safe.
#[cfg(target_os = "linux")]
mod shrink_guard {
    use std::sync::atomic::{AtomicBool, AtomicU8, AtomicUsize, Ordering};

    /// Set by the first thread that reports: another thread faulting at the same
    /// time waits for the exit instead of writing a second line.
    static REPORTED: AtomicBool = AtomicBool::new(false);

    /// The most mappings watched at once (a Kalah solve maps one table file; a
    /// draughts player maps a file a slice of its endgame databases: 209 up to 6
    /// pieces, 494 up to 8).
    const SLOTS: usize = 512;
    /// The longest error line kept, in bytes.
    const LINE: usize = 256;

    /// Each slot: the mapping's start (0: free), its length, its error line.
    static START: [AtomicUsize; SLOTS] = [const { AtomicUsize::new(0) }; SLOTS];
    static LEN: [AtomicUsize; SLOTS] = [const { AtomicUsize::new(0) }; SLOTS];
    static TEXT: [[AtomicU8; LINE]; SLOTS] = [const { [const { AtomicU8::new(0) }; LINE] }; SLOTS];
    static TEXT_LEN: [AtomicUsize; SLOTS] = [const { AtomicUsize::new(0) }; SLOTS];

    /// Watches the mapping `start..start + len` of the file named `what`.
    pub(super) fn register(start: usize, len: usize, what: &str) {
        install();
        let line = format!(
            "error: the mapped file {} was cut short while in use (another process \
             truncated or rewrote it in place): run again\n",
            what
        );
        let mut bytes = line.into_bytes();
        if bytes.len() > LINE {
            bytes.truncate(LINE - 1);
            bytes.push(b'\n');
        }
        for slot in 0..SLOTS {
            if START[slot].load(Ordering::Acquire) != 0 {
                continue;
            }
            for (i, b) in bytes.iter().enumerate() {
                TEXT[slot][i].store(*b, Ordering::Relaxed);
            }
            TEXT_LEN[slot].store(bytes.len(), Ordering::Relaxed);
            LEN[slot].store(len, Ordering::Relaxed);
            if START[slot]
                .compare_exchange(0, start, Ordering::AcqRel, Ordering::Acquire)
                .is_ok()
            {
                return;
            }
        }
        // Every slot taken: this mapping keeps the default action.
    }

    /// Stops watching the mapping that starts at `start`.
    pub(super) fn unregister(start: usize) {
        for s in &START {
            let _ = s.compare_exchange(start, 0, Ordering::AcqRel, Ordering::Acquire);
        }
    }

    /// Installs the handler once.
    fn install() {
        static ONCE: std::sync::Once = std::sync::Once::new();
        ONCE.call_once(|| {
            // SAFETY: a zeroed sigaction is a valid value to fill in; the handler
            // has the three-argument form SA_SIGINFO asks for.
            unsafe {
                let mut action: libc::sigaction = std::mem::zeroed();
                action.sa_sigaction = on_sigbus as *const () as usize;
                action.sa_flags = libc::SA_SIGINFO;
                libc::sigemptyset(&mut action.sa_mask);
                libc::sigaction(libc::SIGBUS, &action, std::ptr::null_mut());
            }
        });
    }

    extern "C" fn on_sigbus(
        _signal: libc::c_int,
        info: *mut libc::siginfo_t,
        _context: *mut libc::c_void,
    ) {
        // SAFETY: the kernel passes a valid siginfo_t for a SA_SIGINFO handler.
        let addr = unsafe { (*info).si_addr() } as usize;
        for slot in 0..SLOTS {
            let start = START[slot].load(Ordering::Acquire);
            let len = LEN[slot].load(Ordering::Relaxed);
            if start != 0 && addr >= start && addr - start < len {
                if REPORTED.swap(true, Ordering::AcqRel) {
                    loop {
                        // SAFETY: pause(2) is async-signal-safe; the reporting
                        // thread's _exit ends this one too.
                        unsafe {
                            libc::pause();
                        }
                    }
                }
                let mut line = [0u8; LINE];
                let n = TEXT_LEN[slot].load(Ordering::Relaxed).min(LINE);
                for (i, b) in line.iter_mut().enumerate().take(n) {
                    *b = TEXT[slot][i].load(Ordering::Relaxed);
                }
                // SAFETY: write(2) and _exit(2) are async-signal-safe; `line` is a
                // buffer on this handler's stack.
                unsafe {
                    libc::write(2, line.as_ptr() as *const libc::c_void, n);
                    libc::_exit(1);
                }
            }
        }
        // Not a watched mapping: the default action, which the faulting access
        // meets again when this handler returns.
        // SAFETY: signal(2) restoring the default disposition.
        unsafe {
            libc::signal(libc::SIGBUS, libc::SIG_DFL);
        }
    }
}

/// Elsewhere a mapping that shrinks keeps the default action of SIGBUS.
#[cfg(all(unix, not(target_os = "linux")))]
mod shrink_guard {
    pub(super) fn register(_start: usize, _len: usize, _what: &str) {}
    pub(super) fn unregister(_start: usize) {}
}

#[cfg(target_os = "linux")]
fn advise_huge_pages<T>(v: &Vec<T>) {
    const HUGE: usize = 2 << 20;
    let bytes = v.capacity() * std::mem::size_of::<T>();
    if bytes < 2 * HUGE {
        return;
    }
    let start = v.as_ptr() as usize;
    let first = start.next_multiple_of(HUGE);
    let end = (start + bytes) / HUGE * HUGE;
    if end <= first {
        return;
    }
    // SAFETY: `first..end` lies inside the vector's allocation (rounded inwards to
    // whole huge pages), which this process owns; MADV_HUGEPAGE only changes how
    // the kernel backs those pages, never their contents or validity. A failure
    // (no THP support) leaves ordinary pages, which is fine.
    unsafe {
        libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_HUGEPAGE);
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages<T>(_v: &Vec<T>) {}

/// Asks Linux to back `v` with ordinary pages only (see
/// [`zeroed_atomic_words_small_pages`]).
#[cfg(target_os = "linux")]
fn advise_no_huge_pages<T>(v: &Vec<T>) {
    const PAGE: usize = 4096;
    let bytes = v.capacity() * std::mem::size_of::<T>();
    let start = (v.as_ptr() as usize).next_multiple_of(PAGE);
    let end = (v.as_ptr() as usize + bytes) / PAGE * PAGE;
    if end <= start {
        return;
    }
    // SAFETY: `start..end` lies inside the vector's allocation (rounded inwards to
    // whole pages), which this process owns; MADV_NOHUGEPAGE only changes how the
    // kernel backs those pages, never their contents or validity. A failure leaves
    // the system's default, which is fine.
    unsafe {
        libc::madvise(
            start as *mut libc::c_void,
            end - start,
            libc::MADV_NOHUGEPAGE,
        );
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_no_huge_pages<T>(_v: &Vec<T>) {}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::Ordering;

    #[test]
    fn huge_page_tables_hold_what_is_written() {
        // Large enough to be advised (several huge pages), and small ones.
        for len in [0usize, 1, 1000, 3 << 20] {
            let mut v: Vec<u32> = huge_page_capacity(len, "a test table").unwrap();
            assert!(v.is_empty() && v.capacity() >= len);
            v.extend((0..len as u32).map(|i| i + 1));
            assert!(v.iter().enumerate().all(|(i, &x)| x as usize == i + 1));
            let z = zeroed_atomic_words(len, "a test table").unwrap();
            assert_eq!(z.len(), len);
            assert!(z.iter().all(|w| w.load(Ordering::Relaxed) == 0));
            // Writable everywhere.
            for w in &z {
                w.store(7, Ordering::Relaxed);
            }
            assert!(z.iter().all(|w| w.load(Ordering::Relaxed) == 7));
        }
    }

    #[test]
    fn zeroed_entries_are_empty_entries() {
        let v = zeroed_tt_entries(1 << 16, "a test table").unwrap();
        assert!(v.iter().all(|e| *e == TtEntry::EMPTY));
        assert!(zeroed_tt_entries(0, "none").unwrap().is_empty());
        let e = zeroed_tt_entries(usize::MAX / 64, "the huge table").unwrap_err();
        assert!(e.contains("the huge table"), "{}", e);
    }

    #[test]
    fn tables_larger_than_the_machine_are_refused_by_name() {
        let huge = usize::MAX / 64;
        let e = zeroed_atomic_words(huge, "the big table").unwrap_err();
        assert!(e.contains("the big table"), "{}", e);
        let e = huge_page_capacity::<u8>(huge, "the other table").unwrap_err();
        assert!(e.contains("the other table"), "{}", e);
    }
}

//! Large tables that are probed at random (the Kalah solver's transposition table
//! and endgame tables): backed by huge pages where the system offers them.
//!
//! A solve probes gigabytes at random; with 4 KiB pages nearly every probe also
//! misses the TLB and walks the page tables, which on a virtual machine costs more
//! than the memory access itself. Linux's transparent huge pages (2 MiB) cut those
//! walks; in its default `madvise` mode a program has to ask for them.

use std::alloc::Layout;
use std::sync::atomic::AtomicU64;

/// A vector of `len` values made by `fill`, its memory advised to use transparent
/// huge pages before it is first touched (Linux; elsewhere a plain vector).
pub fn huge_page_vec<T>(len: usize, fill: impl FnMut() -> T) -> Vec<T> {
    let mut v = huge_page_capacity(len);
    v.resize_with(len, fill);
    v
}

/// An empty vector with room for `capacity` values, advised like [`huge_page_vec`].
pub fn huge_page_capacity<T>(capacity: usize) -> Vec<T> {
    let v: Vec<T> = Vec::with_capacity(capacity);
    advise_huge_pages(&v);
    v
}

/// `len` atomic words, all zero, advised like [`huge_page_vec`], without writing
/// them: the zeros come from the allocator's fresh pages (the kernel clears a page
/// when it is first touched), so a gigabyte table costs nothing until it is used
/// instead of seconds of filling up front.
pub fn zeroed_atomic_words(len: usize) -> Vec<AtomicU64> {
    if len == 0 {
        return Vec::new();
    }
    let layout = Layout::array::<AtomicU64>(len).expect("table size overflows");
    // SAFETY: `layout` has a non-zero size. `alloc_zeroed` returns memory of that
    // layout with every byte zero (or null, handled below), and all-zero bytes are
    // a valid `AtomicU64` (value 0), so the `len` elements are initialised. The
    // allocation comes from the global allocator with exactly this layout, as
    // `Vec::from_raw_parts` requires for capacity `len`.
    unsafe {
        let p = std::alloc::alloc_zeroed(layout) as *mut AtomicU64;
        if p.is_null() {
            std::alloc::handle_alloc_error(layout);
        }
        let v = Vec::from_raw_parts(p, len, len);
        advise_huge_pages(&v);
        v
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::Ordering;

    #[test]
    fn huge_page_vectors_hold_what_they_were_filled_with() {
        // Large enough to be advised (several huge pages), and small ones.
        for len in [0usize, 1, 1000, 3 << 20] {
            let mut k = 0u32;
            let v = huge_page_vec(len, || {
                k += 1;
                k
            });
            assert_eq!(v.len(), len);
            assert!(v.iter().enumerate().all(|(i, &x)| x as usize == i + 1));
            let e: Vec<u64> = huge_page_capacity(len);
            assert!(e.is_empty() && e.capacity() >= len);
            let z = zeroed_atomic_words(len);
            assert_eq!(z.len(), len);
            assert!(z.iter().all(|w| w.load(Ordering::Relaxed) == 0));
            // Writable everywhere.
            for w in &z {
                w.store(7, Ordering::Relaxed);
            }
            assert!(z.iter().all(|w| w.load(Ordering::Relaxed) == 7));
        }
    }
}

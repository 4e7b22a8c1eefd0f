//! A hint to the memory system that a value is read soon: the one place in the
//! core that uses `unsafe`, for an instruction that cannot fault or change
//! anything the program sees.
//!
//! A load the processor must wait for holds up everything behind it once its
//! reorder window fills; a prefetch retires at once and its cache miss overlaps
//! with the work that follows. Searches that know several addresses before they
//! read any (a node's children's table entries) prefetch them all first.

/// Asks for the cache line holding `*r` (into every cache level). On targets
/// without a stable prefetch instruction (Arm, the firmware's Cortex-M4) it does
/// nothing.
#[inline(always)]
pub fn prefetch<T>(r: &T) {
    #[cfg(target_arch = "x86_64")]
    #[allow(unsafe_code)]
    // SAFETY: `_mm_prefetch` needs SSE, which every x86_64 processor has; a
    // prefetch is a hint that never faults, writes nothing and returns nothing,
    // and `r` is a live reference anyway.
    unsafe {
        core::arch::x86_64::_mm_prefetch::<{ core::arch::x86_64::_MM_HINT_T0 }>(
            (r as *const T).cast::<i8>(),
        );
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = r;
}

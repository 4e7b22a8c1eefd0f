//! The Cortex-M side of [`crate::rt`]: a SysTick tick counter, the stack painted
//! by cortex-m-rt, and the HardFault handler.

use core::sync::atomic::{AtomicU32, Ordering};

use cortex_m::peripheral::syst::SystClkSource;
use cortex_m::peripheral::{SCB, SYST};

use cortex_m_rt::{exception, ExceptionFrame};

use super::{exit, StackUsage};

/// SysTick counts down from this reload value (the largest, 24 bits): a period
/// of 2^24 ticks.
pub const RELOAD: u32 = 0x00FF_FFFF;

/// The reload value in use (the self-test of [`ticks`] uses a short period).
static RELOAD_IN_USE: AtomicU32 = AtomicU32::new(RELOAD);

/// SysTick wrap-arounds so far (the exception handler counts them).
static WRAPS: AtomicU32 = AtomicU32::new(0);

/// Starts SysTick on the processor clock, counting down from [`RELOAD`] with its
/// exception enabled, so that [`ticks`] is a 64-bit counter. Under QEMU with
/// `-icount shift=0` the counts are the same on every run (one tick is 40
/// instructions there: QEMU's MPS2 clock is 25 MHz, one instruction 1 ns).
pub fn start_ticks() {
    start_ticks_with_reload(RELOAD);
}

/// [`start_ticks`] with another reload value (at least `4 * GUARD`).
pub fn start_ticks_with_reload(reload: u32) {
    assert!((4 * GUARD..=RELOAD).contains(&reload), "bad SysTick reload");
    // Called once, before anything else touches SysTick.
    let mut syst = unsafe { cortex_m::Peripherals::steal() }.SYST;
    syst.disable_counter();
    syst.set_clock_source(SystClkSource::Core);
    syst.set_reload(reload);
    RELOAD_IN_USE.store(reload, Ordering::SeqCst);
    syst.clear_current();
    syst.enable_counter();
    // The cleared counter reads 0 until its first clock edge loads RELOAD; only
    // count from then on, or the first reading would look a whole period late.
    while SYST::get_current() == 0 {}
    SCB::clear_pendst();
    WRAPS.store(0, Ordering::SeqCst);
    syst.enable_interrupt();
}

/// Readings within this many ticks of a wrap-around wait until it is past.
pub const GUARD: u32 = 256;

/// Spins for about `2 * (n + 1)` instructions (a `subs`/`bne` loop).
pub fn delay(n: u32) {
    cortex_m::asm::delay(n)
}

/// An undefined instruction: a HardFault.
pub fn fault() -> ! {
    cortex_m::asm::udf()
}

/// SysTick ticks since [`start_ticks`], monotone.
///
/// QEMU can show the reloaded counter before its SysTick exception is pending, so
/// a reading right at a wrap-around could miss it. A reading is therefore only
/// taken more than [`GUARD`] ticks away from a wrap-around on either side (by then
/// the exception has counted it; otherwise it waits, at most `2 * GUARD` ticks),
/// and only if the counter did not wrap while `WRAPS` was read.
pub fn ticks() -> u64 {
    let reload = RELOAD_IN_USE.load(Ordering::Relaxed);
    loop {
        let before = SYST::get_current();
        if !(GUARD..=reload - GUARD).contains(&before) {
            continue;
        }
        let wraps = WRAPS.load(Ordering::SeqCst);
        let after = SYST::get_current();
        if after <= before && after >= GUARD {
            return u64::from(wraps) * (u64::from(reload) + 1) + u64::from(reload - after);
        }
    }
}

#[exception]
fn SysTick() {
    // A load and a store, not `fetch_add`: the Cortex-M0 (thumbv6m) has no atomic
    // read-modify-write. Sound because this handler is the only writer once
    // SysTick runs ([`start_ticks_with_reload`] stores before it enables the
    // exception) and an exception never preempts itself; readers see either value.
    WRAPS.store(
        WRAPS.load(Ordering::SeqCst).wrapping_add(1),
        Ordering::SeqCst,
    );
}

/// How much of the stack cortex-m-rt painted (`paint-stack`) at reset was used.
pub fn stack_usage() -> StackUsage {
    extern "C" {
        static _stack_start: u32;
        static _stack_end: u32;
    }
    let top = core::ptr::addr_of!(_stack_start) as usize;
    let bottom = core::ptr::addr_of!(_stack_end) as usize;
    super::scan_stack(bottom, top, cortex_m_rt::STACK_PAINT_VALUE)
}

#[exception]
unsafe fn HardFault(frame: &ExceptionFrame) -> ! {
    defmt::println!(
        "HARDFAULT pc={=u32:#x} lr={=u32:#x}",
        frame.pc(),
        frame.lr()
    );
    exit(crate::EXIT_HARDFAULT)
}

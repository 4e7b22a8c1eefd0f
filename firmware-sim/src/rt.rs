//! The bare-metal runtime around the engine: a SysTick tick counter, the painted
//! stack's high-water mark, the semihosting exit, and the panic and HardFault
//! handlers that turn a crash into a failing exit status.

use core::sync::atomic::{AtomicU32, Ordering};

use cortex_m::peripheral::syst::SystClkSource;
use cortex_m::peripheral::SYST;
use cortex_m_rt::{exception, ExceptionFrame};

/// SysTick counts down from this reload value (the largest, 24 bits).
const RELOAD: u32 = 0x00FF_FFFF;

/// SysTick wrap-arounds so far (the exception handler counts them).
static WRAPS: AtomicU32 = AtomicU32::new(0);

/// Starts SysTick on the processor clock, counting down from [`RELOAD`] with its
/// exception enabled, so that [`ticks`] is a 64-bit counter. Under QEMU with
/// `-icount shift=0` the counts are the same on every run.
pub fn start_ticks() {
    // Only `run` calls this, once, before anything else touches SysTick.
    let mut syst = unsafe { cortex_m::Peripherals::steal() }.SYST;
    syst.disable_counter();
    syst.set_clock_source(SystClkSource::Core);
    syst.set_reload(RELOAD);
    syst.clear_current();
    WRAPS.store(0, Ordering::SeqCst);
    syst.enable_interrupt();
    syst.enable_counter();
}

/// SysTick ticks since [`start_ticks`].
pub fn ticks() -> u64 {
    loop {
        let before = WRAPS.load(Ordering::SeqCst);
        let current = SYST::get_current();
        let after = WRAPS.load(Ordering::SeqCst);
        if before == after {
            return (u64::from(before) << 24) + u64::from(RELOAD - current);
        }
    }
}

#[exception]
fn SysTick() {
    WRAPS.fetch_add(1, Ordering::SeqCst);
}

/// How much of the stack region was ever used.
#[derive(Clone, Copy, Debug)]
pub struct StackUsage {
    /// Bytes between the top of the stack and the deepest scrubbed word.
    pub used_bytes: u32,
    /// Bytes between the top of the stack and the end of the static data.
    pub total_bytes: u32,
}

/// Scans the stack region, painted by cortex-m-rt (`paint-stack`) at reset, from
/// its far end for the first word that no longer holds the paint.
pub fn stack_usage() -> StackUsage {
    extern "C" {
        static _stack_start: u32;
        static _stack_end: u32;
    }
    let top = core::ptr::addr_of!(_stack_start) as usize;
    let bottom = core::ptr::addr_of!(_stack_end) as usize;
    let mut p = bottom;
    while p < top {
        // The region between the linker's `_stack_end` and `_stack_start` is RAM
        // that only the stack uses; reading it is sound.
        let word = unsafe { core::ptr::read_volatile(p as *const u32) };
        if word != cortex_m_rt::STACK_PAINT_VALUE {
            break;
        }
        p += 4;
    }
    StackUsage {
        used_bytes: (top - p) as u32,
        total_bytes: (top - bottom) as u32,
    }
}

/// Ends QEMU with `status` as its exit status (semihosting SYS_EXIT_EXTENDED).
pub fn exit(status: i32) -> ! {
    semihosting::process::exit(status)
}

#[panic_handler]
fn panic(info: &core::panic::PanicInfo) -> ! {
    defmt::println!("PANIC {}", defmt::Display2Format(info));
    exit(crate::EXIT_PANIC)
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

//! The bare-metal runtime around the engine, one interface on every target: a
//! 64-bit tick counter ([`start_ticks`], [`ticks`]), the stack's high-water mark
//! ([`stack_usage`]), the semihosting exit ([`exit`]), and the panic and fault
//! handlers that turn a crash into a failing exit status.

#[cfg(target_arch = "arm")]
mod cortex_m;
#[cfg(target_arch = "arm")]
pub use self::cortex_m::*;

#[cfg(target_arch = "riscv32")]
mod riscv;
#[cfg(target_arch = "riscv32")]
pub use self::riscv::*;

/// How much of the stack region was ever used.
#[derive(Clone, Copy, Debug)]
pub struct StackUsage {
    /// Bytes between the top of the stack and the deepest scrubbed word.
    pub used_bytes: u32,
    /// Bytes between the top of the stack and the end of the static data.
    pub total_bytes: u32,
}

/// Scans the painted stack region `bottom..top` from its far end for the first
/// word that no longer holds `paint`.
fn scan_stack(bottom: usize, top: usize, paint: u32) -> StackUsage {
    let mut p = bottom;
    while p < top {
        // The region between the end of the static data and the top of the
        // stack is RAM that only the stack uses; reading it is sound.
        let word = unsafe { core::ptr::read_volatile(p as *const u32) };
        if word != paint {
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

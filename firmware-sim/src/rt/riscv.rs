//! The RISC-V side of [`crate::rt`]: the `mcycle` counter as the tick counter, a
//! stack painted by [`paint_stack`] at the entry, and the exception handler.

use super::{exit, StackUsage};

/// What [`paint_stack`] writes into every unused word of the stack.
pub const STACK_PAINT_VALUE: u32 = 0xCCCC_CCCC;

/// Nothing to start: `mcycle` counts from reset. Under QEMU with `-icount
/// shift=0` it counts executed instructions, so the counts repeat exactly.
pub fn start_ticks() {}

/// `mcycle` (64 bits: `mcycleh` and `mcycle` read consistently), monotone.
pub fn ticks() -> u64 {
    riscv::register::mcycle::read64()
}

/// Spins for about `2 * (n + 1)` instructions (an `addi`/`bnez` loop, as
/// `cortex_m::asm::delay` on the Cortex-M).
pub fn delay(n: u32) {
    // SAFETY: only a register is changed.
    unsafe {
        core::arch::asm!(
            "1:",
            "addi {0}, {0}, -1",
            "bnez {0}, 1b",
            inout(reg) n.wrapping_add(1) => _,
            options(nomem, nostack),
        );
    }
}

/// An illegal instruction: an exception.
pub fn fault() -> ! {
    // SAFETY: `unimp` traps; the exception handler ends QEMU.
    unsafe { core::arch::asm!("unimp", options(noreturn)) }
}

/// The bounds of the stack region riscv-rt leaves after the static data.
fn stack_region() -> (usize, usize) {
    extern "C" {
        static _stack_start: u32;
        static __estack: u32;
    }
    (
        core::ptr::addr_of!(__estack) as usize,
        core::ptr::addr_of!(_stack_start) as usize,
    )
}

/// Paints every word of the stack region below the current stack pointer with
/// [`STACK_PAINT_VALUE`] (riscv-rt does not paint; the firmware's entry calls
/// this first, before any deep call).
#[inline(always)]
pub fn paint_stack() {
    let sp: usize;
    // SAFETY: reads a register.
    unsafe { core::arch::asm!("mv {}, sp", out(reg) sp, options(nomem, nostack)) };
    let (bottom, _) = stack_region();
    let mut p = bottom;
    // Leave the words just below the stack pointer alone (this function's own
    // spills, if any, would be there).
    while p + 64 < sp {
        // Below the stack pointer and above the static data: unused RAM.
        unsafe { core::ptr::write_volatile(p as *mut u32, STACK_PAINT_VALUE) };
        p += 4;
    }
}

/// How much of the stack [`paint_stack`] painted was used.
pub fn stack_usage() -> StackUsage {
    let (bottom, top) = stack_region();
    super::scan_stack(bottom, top, STACK_PAINT_VALUE)
}

/// Every exception (riscv-rt's catch-all): logged as `HARDFAULT`, as on the
/// Cortex-M, with the cause and the faulting address.
#[export_name = "ExceptionHandler"]
fn exception_handler(_frame: &riscv_rt::TrapFrame) -> ! {
    defmt::println!(
        "HARDFAULT pc={=u32:#x} mcause={=u32:#x}",
        riscv::register::mepc::read() as u32,
        riscv::register::mcause::read().bits() as u32
    );
    exit(crate::EXIT_HARDFAULT)
}

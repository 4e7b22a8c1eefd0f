//! Self-test of the crash path: a HardFault must end QEMU with `EXIT_HARDFAULT`.
#![no_std]
#![no_main]

use ply_firmware_sim as _;

#[cortex_m_rt::entry]
fn main() -> ! {
    // An undefined instruction: with UsageFault disabled it escalates to HardFault.
    cortex_m::asm::udf()
}

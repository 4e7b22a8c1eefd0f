//! Self-test of the crash path: a HardFault (an exception on RISC-V) must end QEMU
//! with `EXIT_HARDFAULT`.
#![no_std]
#![no_main]

use ply_firmware_sim as _;

ply_firmware_sim::entry!({
    // An undefined instruction: on the Cortex-M, with UsageFault disabled, it
    // escalates to HardFault.
    ply_firmware_sim::rt::fault()
});

//! Self-test of the crash path: a panic must end QEMU with `EXIT_PANIC`, not hang.
#![no_std]
#![no_main]

use ply_firmware_sim as _;

ply_firmware_sim::entry!({
    // Not a constant, so the compiler cannot prove the panic away.
    let n = core::hint::black_box(3u32);
    if n == 3 {
        panic!("deliberate panic {}", n);
    }
    ply_firmware_sim::rt::exit(0)
});

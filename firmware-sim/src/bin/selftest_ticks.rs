//! Self-test of the tick counter: it advances with executed instructions (a known
//! 40,000,002-instruction loop is timed and logged as `ticks-per-40M-instructions`:
//! under `-icount shift=0` 1,000,000 SysTick ticks on the 25 MHz Cortex-M4,
//! 640,000 on the 16 MHz Cortex-M0, 40,000,002 `mcycle` counts on RISC-V), and it
//! never runs backwards (on the Cortex-M across SysTick wrap-arounds: run with a
//! short period so that many pass).
#![no_std]
#![no_main]

use ply_firmware_sim::rt;

/// A short SysTick period, so that many wrap-arounds pass quickly.
const RELOAD: u32 = 0xFFFF;
const PERIOD: u64 = RELOAD as u64 + 1;

/// Readings span at least this many SysTick periods.
const WRAPS: u64 = 8;

ply_firmware_sim::entry!({
    #[cfg(target_arch = "arm")]
    rt::start_ticks_with_reload(RELOAD);
    #[cfg(not(target_arch = "arm"))]
    rt::start_ticks();
    let t0 = rt::ticks();
    // `delay(n)` is a two-instruction loop of n + 1 iterations: 2(n + 1) instructions.
    rt::delay(20_000_000);
    let t1 = rt::ticks();
    defmt::println!("ticks-per-40M-instructions {=u64}", t1 - t0);

    // Read densely around each wrap-around (where a reading could go wrong) and
    // skip most of the period in between by delays that shrink with the distance
    // to the next wrap-around.
    let mut last = rt::ticks();
    let mut reads = 0u32;
    let mut status = ply_firmware_sim::EXIT_OK;
    while last < WRAPS * PERIOD + t1 {
        let t = rt::ticks();
        reads += 1;
        if t < last {
            defmt::println!("FAIL ticks went backwards: {=u64} then {=u64}", last, t);
            status = ply_firmware_sim::EXIT_MISMATCH;
            break;
        }
        last = t;
        let to_wrap = PERIOD - t % PERIOD;
        if to_wrap > 4096 {
            rt::delay((to_wrap * 4) as u32);
        }
    }
    defmt::println!("monotone reads={=u32} last={=u64}", reads, last);
    rt::exit(status)
});

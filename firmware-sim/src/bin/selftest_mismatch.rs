//! Self-test of the check path: a wrong expectation must end QEMU with
//! `EXIT_MISMATCH` after logging `FAIL`. Tic-tac-toe with a perft count off by one.
#![no_std]
#![no_main]

use ply_core::search::{Limits, TtEntry};
use ply_firmware_sim::matches;

const SLOTS: usize = 64;
static mut TT: [TtEntry; SLOTS] = [TtEntry::EMPTY; SLOTS];

ply_firmware_sim::entry!({
    let m = matches::Match {
        limits: Limits::depth(2),
        tt_slots: SLOTS,
        perft_depth: 3,
        perft_expected: 505, // perft(3) of tic-tac-toe is 504
        ..matches::tictactoe(ply_firmware_sim::TARGET)
    };
    // The entry runs once, so this is the only reference to the table.
    let tt = unsafe { &mut *core::ptr::addr_of_mut!(TT) };
    ply_firmware_sim::run(m, tt)
});

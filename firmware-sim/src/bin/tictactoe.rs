//! Tic-tac-toe firmware: see `ply_firmware_sim::matches::tictactoe`.
#![no_std]
#![no_main]

use ply_core::games::tictactoe::Square;
use ply_core::search::TtEntry;
use ply_firmware_sim::matches::{self, TICTACTOE_TT_SLOTS as SLOTS};

static mut TT: [TtEntry<Square>; SLOTS] = [TtEntry::EMPTY; SLOTS];

#[cortex_m_rt::entry]
fn main() -> ! {
    // `main` runs once, so this is the only reference to the table.
    let tt = unsafe { &mut *core::ptr::addr_of_mut!(TT) };
    ply_firmware_sim::run(matches::tictactoe(), tt)
}

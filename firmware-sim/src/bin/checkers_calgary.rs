//! Calgary draughts firmware: see `ply_firmware_sim::matches::checkers_calgary`.
#![no_std]
#![no_main]

ply_firmware_sim::firmware!(
    checkers_calgary,
    ply_core::games::draughts::Move,
    CHECKERS_CALGARY
);

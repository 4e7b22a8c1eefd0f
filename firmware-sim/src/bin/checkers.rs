//! English draughts firmware: see `ply_firmware_sim::matches::checkers`.
#![no_std]
#![no_main]

ply_firmware_sim::firmware!(checkers, ply_core::games::draughts::Move, CHECKERS);

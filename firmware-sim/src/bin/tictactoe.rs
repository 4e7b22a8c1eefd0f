//! Tic-tac-toe firmware: see `ply_firmware_sim::matches::tictactoe`.
#![no_std]
#![no_main]

ply_firmware_sim::firmware!(tictactoe, ply_core::games::tictactoe::Square, TICTACTOE);

#![no_main]
use libfuzzer_sys::fuzz_target;
use ply_core::Game;
fuzz_target!(|data: &str| {
    let _ = ply_core::games::TicTacToe::parse_position((), data);
});

//! A won English draughts ending of 2 pieces (Lasker's diagram 88), played from the
//! endgame databases compiled in: see `ply_firmware_sim::matches::checkers_db`.
#![no_std]
#![no_main]

ply_firmware_sim::firmware!(checkers_db, ply_core::games::draughts::Move, CHECKERS_DB);

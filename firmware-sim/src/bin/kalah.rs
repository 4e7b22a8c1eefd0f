//! Kalah 6×4 firmware: see `ply_firmware_sim::matches::kalah`.
#![no_std]
#![no_main]

ply_firmware_sim::firmware!(kalah, ply_core::games::kalah::Pit, KALAH);

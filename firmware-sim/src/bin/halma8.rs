//! Halma 8×8 firmware: see `ply_firmware_sim::matches::halma8`.
#![no_std]
#![no_main]

ply_firmware_sim::firmware!(halma8, ply_core::games::halma::HalmaMove, HALMA8);

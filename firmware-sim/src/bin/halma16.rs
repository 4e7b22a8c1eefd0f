//! Halma 16×16 firmware: see `ply_firmware_sim::matches::halma16`.
#![no_std]
#![no_main]

ply_firmware_sim::firmware!(halma16, ply_core::games::halma::HalmaMove, HALMA16);

//! Cross-crate and snapshot tests of ply live in `tests/`.
//!
//! The library part holds what more than one test or tool needs: [`firmware`], the
//! host side of the Cortex-M firmware in `firmware-sim/`.
#![warn(missing_docs)]

pub mod firmware;

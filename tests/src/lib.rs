//! Cross-crate and snapshot tests of ply live in `tests/`.
//!
//! The library part holds what more than one test or tool needs: [`firmware`], the
//! host side of the Cortex-M firmware in `firmware-sim/`; [`differential`], the
//! comparison with OpenSpiel's fixtures; [`laws`], the
//! laws the property tests check on random playouts of every game; [`kalah`], the
//! array model of Kalah's rules.
#![warn(missing_docs)]

pub mod differential;
pub mod firmware;
pub mod kalah;
pub mod laws;

//! # ply-host
//!
//! The `ply` command-line tools on top of `ply-core`: a game spec parser that
//! dispatches to commands generic over the game, and the glue a host provides to the
//! core (a wall clock, heap-allocated tables, terminal I/O).
#![warn(missing_docs)]

pub mod clock;
pub mod commands;
pub mod games;
pub mod interrupt;
pub mod kalah_solve;
pub mod memory;
pub mod output;
pub mod parallel;
pub mod position;
pub mod quote;
pub mod settings;
pub mod spec;

pub use games::HostGame;

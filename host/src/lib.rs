//! # ply-host
//!
//! The `ply` command-line tools on top of `ply-core`: a game spec parser that
//! dispatches to commands generic over the game, and the glue a host provides to the
//! core (a wall clock, heap-allocated tables, terminal I/O), and every multi-core
//! search strategy behind one entry point, [`parallel::run`].
//!
//! ```
//! use ply_core::games::draughts::{Draughts, DraughtsEval};
//! use ply_core::search::alphabeta;
//! use ply_core::Game;
//! use ply_host::parallel::{self, Algo, Options};
//!
//! let game = Draughts::start(Default::default()); // English draughts
//! let eval = DraughtsEval::STANDARD;
//! // Young Brothers Wait on two threads returns sequential alpha-beta's value.
//! let ybwc = parallel::search(Algo::Ybwc, &game, 5, &eval, &Options::threads(2)).unwrap();
//! assert_eq!(ybwc.value, alphabeta(&game, 5, &eval).value);
//! ```
#![warn(missing_docs)]

pub mod clock;
pub mod commands;
pub mod distributed;
pub mod draughts_db;
pub mod files;
pub mod games;
pub mod interrupt;
pub mod kalah_solve;
pub mod memory;
pub mod output;
pub mod parallel;
pub mod position;
pub mod protocol;
pub mod quote;
pub mod settings;
pub mod solving;
pub mod spec;

pub use games::HostGame;

//! # ply-core
//!
//! Game rules, perft and search for two-player board games, written so that the
//! same code runs on a microcontroller with no heap and on a workstation.
//!
//! * `#![no_std]`, no `alloc`: every list has a fixed capacity that is proven
//!   sufficient, every table lives in memory the caller provides.
//! * One contract, [`Game`], that every game implements; search algorithms are
//!   generic over it and live in [`search`], one algorithm per module.
//! * States are small `Copy` values (copy-make): playing a move returns a new
//!   state and leaves the old one untouched.
#![no_std]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod bitboard;
pub mod error;
pub mod game;
pub mod games;
pub mod move_list;
pub mod perft;
pub mod playout;
pub mod search;
pub mod solve;
pub mod zobrist;

pub use error::{IllegalMove, ParseError};
pub use game::{Game, Outcome, Player};
pub use move_list::MoveList;

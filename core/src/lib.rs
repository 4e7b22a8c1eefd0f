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
//!
//! ```
//! use ply_core::games::kalah::{Kalah, KalahEval, KalahRules};
//! use ply_core::perft::perft;
//! use ply_core::search::{Engine, EngineConfig, Limits, NoClock, TtEntry};
//! use ply_core::Game;
//!
//! let game = Kalah::start(KalahRules::default()); // Kalah, 6 pits of 4 seeds
//! assert_eq!(perft(&game, 4), 942);
//!
//! // The engine searches over a table in memory the caller owns (a static array on a
//! // microcontroller, a slice here).
//! let mut table = [TtEntry::EMPTY; 1024];
//! let mut engine = Engine::new(&mut table, KalahEval, NoClock, EngineConfig::default());
//! let report = engine.search(&game, Limits::depth(6));
//! let best = report.best_move.unwrap();
//! let next = game.play(best).unwrap(); // checked: an illegal move is an error
//! println!("{} then {}", game.display_move(best), next);
//! ```
//!
//! A new game implements [`Game`] in one file: see `examples/connect_four.rs`.
#![no_std]
// `unsafe` is denied everywhere but in `prefetch`, the one audited hint.
#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod bitboard;
pub mod error;
pub mod game;
pub mod games;
pub mod move_list;
pub mod perft;
pub mod playout;
pub mod prefetch;
pub mod search;
pub mod slot;
pub mod solve;
pub mod zobrist;

pub use error::{IllegalMove, ParseError};
pub use game::{Game, Outcome, Player};
pub use move_list::MoveList;

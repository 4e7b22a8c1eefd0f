//! The `ply` subcommands, each generic over [`crate::HostGame`] and run through
//! [`crate::spec::with_game`].

pub mod bench;
pub mod db;
pub mod engine;
pub mod human;
pub mod r#match;
pub mod moves;
pub mod perft;
pub mod play;
pub mod player;
pub mod search;
pub mod solve;
pub mod tournament;
pub mod verify;

pub use crate::output::{rate, secs};

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

/// Formats a count of seconds for humans (`0.123 s`).
pub fn secs(s: f64) -> String {
    format!("{:.3} s", s)
}

/// `n / s` as an integer rate, 0 when no time was measured.
pub fn rate(n: u64, s: f64) -> u64 {
    if s > 0.0 {
        (n as f64 / s) as u64
    } else {
        0
    }
}

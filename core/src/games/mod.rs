//! The games: one module each, holding all of that game's rules.

pub mod tictactoe;

pub use tictactoe::TicTacToe;

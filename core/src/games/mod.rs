//! The games: one module each, holding all of that game's rules.

pub mod draughts;
pub mod halma;
pub mod kalah;
pub mod tictactoe;

pub use draughts::Draughts;
pub use halma::{Halma16, Halma8};
pub use kalah::Kalah;
pub use tictactoe::TicTacToe;

//! The games: one module each, holding all of that game's rules.

pub mod draughts;
pub mod draughts_eval;
pub mod kalah;
pub mod kalah_solver;
pub mod tictactoe;

pub use draughts::Draughts;
pub use kalah::Kalah;
pub use tictactoe::TicTacToe;

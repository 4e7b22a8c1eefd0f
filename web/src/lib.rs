//! ply in the browser: the unchanged `no_std` core compiled to WebAssembly, with one
//! game-generic API for the page (`web/www/`).
//!
//! A [`Session`] is a game in play, made from a game spec as `ply` reads them
//! (`tictactoe`, `kalah:6x4`, `checkers`, `checkers:calgary`, `halma:8`, `halma:16`,
//! with the same rule parameters). It gives the position text and takes one, lists
//! the legal moves (as text, and as JSON with the board cells each one acts on for
//! highlighting), plays a move given as text (checked: a bad move is an error that
//! says why), reports the outcome, describes the board for drawing, and runs the
//! engine under a time limit. `scripts/web.sh` builds it with wasm-bindgen; the page
//! runs the engine's session in a Web Worker so that it never freezes
//! (docs/web.md).
//!
//! The crate also builds natively (its tests run with the workspace's); only the
//! clock, `performance.now()`, is wasm-specific.

#![forbid(unsafe_code)]

pub mod board;
pub mod json;
pub mod session;

use ply_core::games::halma::board_side;
use ply_core::games::{Draughts, Halma16, Halma8, Kalah, TicTacToe};
use ply_core::search::Clock;
use ply_core::Game;
use wasm_bindgen::prelude::*;

use board::WebGame;
use session::State;

/// The game specs the page offers (any spec `ply` accepts works).
pub const GAMES: &[&str] = &[
    "tictactoe",
    "kalah:6x4",
    "kalah:4x3",
    "kalah:6x4:empty-capture",
    "checkers",
    "checkers:calgary",
    "halma:8",
    "halma:16",
];

enum AnyGame {
    TicTacToe(State<TicTacToe>),
    Kalah(State<Kalah>),
    Draughts(State<Draughts>),
    Halma8(State<Halma8>),
    Halma16(State<Halma16>),
}

/// Runs `$body` with `$s` bound to the session's `State<G>`, whatever `G` is.
macro_rules! each {
    ($any:expr, $s:ident => $body:expr) => {
        match $any {
            AnyGame::TicTacToe($s) => $body,
            AnyGame::Kalah($s) => $body,
            AnyGame::Draughts($s) => $body,
            AnyGame::Halma8($s) => $body,
            AnyGame::Halma16($s) => $body,
        }
    };
}

fn state<G: WebGame>(spec: &str, params: &str) -> Result<State<G>, String> {
    let rules =
        G::parse_rules(params).map_err(|e| format!("bad parameters in game spec {spec:?}: {e}"))?;
    Ok(State::new(rules))
}

/// Milliseconds from the page's clock: `performance.now()` in the browser (the page
/// and its Worker), a monotonic clock from process start natively.
#[cfg(target_arch = "wasm32")]
fn now_ms() -> f64 {
    #[wasm_bindgen]
    extern "C" {
        #[wasm_bindgen(js_namespace = performance, js_name = now)]
        fn performance_now() -> f64;
    }
    performance_now()
}

#[cfg(not(target_arch = "wasm32"))]
fn now_ms() -> f64 {
    use std::sync::OnceLock;
    use std::time::Instant;
    static START: OnceLock<Instant> = OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_secs_f64() * 1000.0
}

/// The engine's clock: time since the move's search began.
#[derive(Clone, Copy, Debug)]
pub struct PageClock {
    start_ms: f64,
}

impl PageClock {
    /// A clock started now.
    pub fn start() -> Self {
        PageClock { start_ms: now_ms() }
    }

    fn elapsed(&self) -> f64 {
        (now_ms() - self.start_ms).max(0.0)
    }
}

impl Clock for PageClock {
    fn elapsed_ms(&self) -> u64 {
        self.elapsed() as u64
    }
    fn elapsed_us(&self) -> u64 {
        (self.elapsed() * 1000.0) as u64
    }
}

/// The game specs the page offers in its menu.
#[wasm_bindgen]
pub fn games() -> Vec<String> {
    GAMES.iter().map(|s| s.to_string()).collect()
}

/// A game in play: see the [crate documentation](crate).
#[wasm_bindgen]
pub struct Session {
    spec: String,
    game: AnyGame,
}

#[wasm_bindgen]
impl Session {
    /// A game from its spec, at the start position; an unknown game or bad rule
    /// parameters are an error naming what was expected.
    #[wasm_bindgen(constructor)]
    pub fn new(spec: &str) -> Result<Session, String> {
        let spec = spec.trim();
        let (name, params) = spec.split_once(':').unwrap_or((spec, ""));
        let game = match name.to_ascii_lowercase().as_str() {
            "tictactoe" | "tic-tac-toe" | "ttt" => AnyGame::TicTacToe(state(spec, params)?),
            "kalah" | "mancala" => AnyGame::Kalah(state(spec, params)?),
            "checkers" | "draughts" => AnyGame::Draughts(state(spec, params)?),
            "halma" if board_side(params) == 16 => AnyGame::Halma16(state(spec, params)?),
            "halma" => AnyGame::Halma8(state(spec, params)?),
            _ => {
                return Err(format!(
                "unknown game {name:?}: expected tictactoe, kalah[:PITSxSEEDS][:empty-capture], \
                     checkers[:english|calgary] or halma[:8|:16]"
            ))
            }
        };
        Ok(Session {
            spec: spec.to_string(),
            game,
        })
    }

    /// The game spec this session was made from.
    pub fn spec(&self) -> String {
        self.spec.clone()
    }

    /// The current position's text (the form `ply --position` reads).
    pub fn position(&self) -> String {
        each!(&self.game, s => s.game().to_string())
    }

    /// Sets the position from its text and forgets the moves played; a text that
    /// does not parse is an error saying where and why, and changes nothing.
    pub fn set_position(&mut self, text: &str) -> Result<(), String> {
        each!(&mut self.game, s => s.set_position(text))
    }

    /// Back to the start position.
    pub fn reset(&mut self) {
        each!(&mut self.game, s => s.reset())
    }

    /// The position the moves played start from (the start position or the last one
    /// set), as text.
    pub fn base_position(&self) -> String {
        each!(&self.game, s => s.base_position().to_string())
    }

    /// The moves played since the base position, in notation. A session with the
    /// same spec, base position and moves is in the same state, history included
    /// (draughts' repetition rules look at it): how the page's Worker follows it.
    pub fn moves_played(&self) -> Vec<String> {
        each!(&self.game, s => s.moves_played().to_vec())
    }

    /// The legal moves in the game's notation, in the order `ply moves` lists them.
    pub fn legal_moves(&self) -> Vec<String> {
        each!(&self.game, s => s.legal_moves())
    }

    /// The legal moves with the board cells each acts on (JSON; see
    /// `board::MoveCells`).
    pub fn moves_json(&self) -> String {
        each!(&self.game, s => s.moves_json())
    }

    /// The board as cells on a grid (JSON; see `board::Board`).
    pub fn board_json(&self) -> String {
        each!(&self.game, s => s.game().board().to_json())
    }

    /// Plays a move written in the game's notation; an error says why it was refused.
    pub fn play(&mut self, mv: &str) -> Result<(), String> {
        each!(&mut self.game, s => s.play(mv))
    }

    /// Takes back the last move played; false if there is none.
    pub fn undo(&mut self) -> bool {
        each!(&mut self.game, s => s.undo())
    }

    /// `ongoing`, `first` or `second` (the winner), or `draw`.
    pub fn outcome(&self) -> String {
        each!(&self.game, s => s.outcome().to_string())
    }

    /// `first` or `second`: whose turn it is.
    pub fn side_to_move(&self) -> String {
        each!(&self.game, s => match s.game().side_to_move() {
            ply_core::Player::First => "first".to_string(),
            ply_core::Player::Second => "second".to_string(),
        })
    }

    /// What the first (`true`) or second player is called in this game.
    pub fn player_name(&self, first: bool) -> String {
        let p = if first {
            ply_core::Player::First
        } else {
            ply_core::Player::Second
        };
        each!(&self.game, s => s.game().player_name(p).to_string())
    }

    /// A line for the user: who is to move, or how the game ended.
    pub fn status(&self) -> String {
        each!(&self.game, s => s.status())
    }

    /// The engine's choice in the current position within `time_ms` milliseconds
    /// (1 to 600,000), as JSON `{"move","depth","value","nodes","ms"}`; the move is
    /// not played. Blocks for up to that long: the page calls it in a Worker.
    pub fn engine_move(&mut self, time_ms: u32) -> Result<String, String> {
        let clock = PageClock::start();
        each!(&mut self.game, s => s.engine_move(time_ms, clock))
    }
}

#[cfg(test)]
mod tests;

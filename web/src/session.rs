//! One game in play, generic over the game: the position, the moves played since the
//! base position, the engine. [`crate::Session`] holds one of these for the game its
//! spec names.

use std::fmt::Write as _;

use ply_core::search::{Clock, Engine, Limits, TtEntry};
use ply_core::{Outcome, Player};

use crate::board::WebGame;
use crate::json::Json;

/// Transposition-table slots of the engine (16 bytes each: 1 MiB), allocated on the
/// first engine move.
pub const TABLE_SLOTS: usize = 1 << 16;

/// The longest time limit an engine move accepts (ms).
pub const MAX_TIME_MS: u32 = 600_000;

/// A game of type `G` in play.
pub struct State<G: WebGame> {
    rules: G::Rules,
    /// The position the moves start from: the start position or one set from text.
    base: G,
    base_text: String,
    /// Every position since `base`, `base` first: the last is the current one.
    positions: Vec<G>,
    /// The moves played since `base`, in notation.
    moves: Vec<String>,
    table: Option<Box<[TtEntry]>>,
}

impl<G: WebGame> State<G> {
    /// The start position of `rules`.
    pub fn new(rules: G::Rules) -> Self {
        let base = G::start(rules);
        State {
            rules,
            base,
            base_text: base.to_string(),
            positions: vec![base],
            moves: Vec::new(),
            table: None,
        }
    }

    /// The current position.
    pub fn game(&self) -> &G {
        self.positions.last().expect("never empty")
    }

    /// Back to the start position.
    pub fn reset(&mut self) {
        let start = G::start(self.rules);
        self.set_base(start);
    }

    fn set_base(&mut self, base: G) {
        self.base = base;
        self.base_text = base.to_string();
        self.positions = vec![base];
        self.moves.clear();
    }

    /// Sets the position from its text; on an error the position is unchanged.
    pub fn set_position(&mut self, text: &str) -> Result<(), String> {
        let g =
            G::parse_position(self.rules, text.trim()).map_err(|e| format!("bad position: {e}"))?;
        self.set_base(g);
        Ok(())
    }

    /// The base position's text (what [`State::moves_played`] start from).
    pub fn base_position(&self) -> &str {
        &self.base_text
    }

    /// The moves played since the base position.
    pub fn moves_played(&self) -> &[String] {
        &self.moves
    }

    /// The legal moves in the game's notation, in generation order (as `ply moves`
    /// prints them).
    pub fn legal_moves(&self) -> Vec<String> {
        let g = self.game();
        g.legal_moves()
            .iter()
            .map(|&m| g.display_move(m).to_string())
            .collect()
    }

    /// The legal moves with the cells they act on, as JSON:
    /// `[{"text":…,"from":cell|null,"to":cell|null,"path":[cells]}…]`.
    pub fn moves_json(&self) -> String {
        let g = self.game();
        let mut j = Json::new();
        j.open('[');
        for &m in g.legal_moves().iter() {
            let cells = g.move_cells(m);
            j.open('{');
            j.key("text").str(&g.display_move(m).to_string());
            j.key("from").opt(cells.from);
            j.key("to").opt(cells.to);
            j.key("path").open('[');
            for c in cells.path {
                j.num(c as i64);
            }
            j.close(']');
            j.close('}');
        }
        j.close(']');
        j.finish()
    }

    /// Plays a move given in the game's notation, if it parses and is legal.
    pub fn play(&mut self, text: &str) -> Result<(), String> {
        let g = *self.game();
        let text = text.trim();
        let mv = g
            .parse_move(text)
            .map_err(|e| format!("bad move {text:?}: {e}"))?;
        let next = g.play(mv).map_err(|e| e.to_string())?;
        self.moves.push(g.display_move(mv).to_string());
        self.positions.push(next);
        Ok(())
    }

    /// Takes the last move back; false if none was played since the base position.
    pub fn undo(&mut self) -> bool {
        if self.moves.pop().is_some() {
            self.positions.pop();
            true
        } else {
            false
        }
    }

    /// `ongoing`, `first` or `second` (who won), or `draw`.
    pub fn outcome(&self) -> &'static str {
        match self.game().outcome() {
            Outcome::Ongoing => "ongoing",
            Outcome::Win(Player::First) => "first",
            Outcome::Win(Player::Second) => "second",
            Outcome::Draw => "draw",
        }
    }

    /// A line for the user: who is to move, or how the game ended.
    pub fn status(&self) -> String {
        let g = self.game();
        match g.outcome() {
            Outcome::Ongoing => format!("{} to move", g.player_name(g.side_to_move())),
            Outcome::Win(p) => format!("{} wins", g.player_name(p)),
            Outcome::Draw => "draw".to_string(),
        }
    }

    /// Searches the current position for at most `time_ms` milliseconds by `clock`
    /// and reports, as JSON, the move it chose and the search:
    /// `{"move":…,"depth":…,"value":…,"nodes":…,"ms":…}`. Plays nothing.
    pub fn engine_move<C: Clock>(&mut self, time_ms: u32, clock: C) -> Result<String, String> {
        let g = *self.game();
        if g.outcome().is_over() {
            return Err("the game is over".to_string());
        }
        let time_ms = time_ms.clamp(1, MAX_TIME_MS);
        let table = self
            .table
            .get_or_insert_with(|| vec![TtEntry::EMPTY; TABLE_SLOTS].into_boxed_slice());
        let mut engine = Engine::new(
            &mut table[..],
            G::page_evaluation(),
            clock,
            G::engine_config(),
        );
        let report = engine.search(&g, Limits::time_ms(u64::from(time_ms)));
        let mv = report
            .best_move
            .ok_or_else(|| "the engine found no move".to_string())?;
        let mut text = String::new();
        let _ = write!(text, "{}", g.display_move(mv));
        let mut j = Json::new();
        j.open('{');
        j.key("move").str(&text);
        j.key("depth").num(i64::from(report.depth));
        j.key("value").num(i64::from(report.value));
        j.key("nodes").num(report.nodes as i64);
        j.key("ms").num(report.elapsed_ms as i64);
        j.close('}');
        Ok(j.finish())
    }
}

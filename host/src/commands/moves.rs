//! `ply moves GAME [--position P] [--after M...]`: the legal moves, one per line.

use crate::games::HostGame;
use crate::position::{move_texts, setup};
use crate::spec::GameCommand;

/// List the legal moves.
#[derive(Clone, Debug)]
pub struct Moves {
    /// Start from this position text instead of the start position.
    pub position: Option<String>,
    /// Moves to play first.
    pub after: Vec<String>,
}

impl GameCommand for Moves {
    type Output = Vec<String>;
    fn run<G: HostGame>(self, rules: G::Rules) -> Result<Vec<String>, String> {
        let game: G = setup(rules, self.position.as_deref(), &self.after)?;
        let moves = move_texts(&game);
        for m in &moves {
            println!("{}", m);
        }
        Ok(moves)
    }
}

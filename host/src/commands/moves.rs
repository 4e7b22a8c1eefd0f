//! `ply moves GAME [--position P] [--after M...] [--notation NAME]`: the legal moves,
//! one per line.

use crate::games::HostGame;
use crate::position::setup;
use crate::spec::GameCommand;

/// List the legal moves.
#[derive(Clone, Debug)]
pub struct Moves {
    /// Start from this position text instead of the start position.
    pub position: Option<String>,
    /// Moves to play first.
    pub after: Vec<String>,
    /// The notation to print the moves in (`None`: the game's default).
    pub notation: Option<String>,
}

impl GameCommand for Moves {
    type Output = Vec<String>;
    fn run<G: HostGame>(self, rules: G::Rules) -> Result<Vec<String>, String> {
        let game: G = setup(rules, self.position.as_deref(), &self.after)?;
        let moves = game
            .legal_moves()
            .iter()
            .map(|&m| game.move_in_notation(m, self.notation.as_deref()))
            .collect::<Result<Vec<_>, _>>()?;
        for m in &moves {
            crate::outln!("{}", m)?;
        }
        Ok(moves)
    }
}

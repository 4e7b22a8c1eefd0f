//! `ply solve GAME [--position P] [--after M...] [--checkpoint FILE [--resume]]`: the
//! exact value under perfect play.

use std::time::Instant;

use crate::commands::secs;
use crate::games::{HostGame, SolveOptions, SolveOutput};
use crate::position::setup;
use crate::spec::GameCommand;

/// Solve a position exactly.
#[derive(Clone, Debug)]
pub struct Solve {
    /// Start from this position text instead of the start position.
    pub position: Option<String>,
    /// Moves to play first.
    pub after: Vec<String>,
    /// The checkpoint (`--checkpoint`, `--resume`).
    pub options: SolveOptions,
}

impl GameCommand for Solve {
    /// `None` on the ranks other than 0 of an MPI run.
    type Output = Option<SolveOutput>;
    fn run<G: HostGame>(self, rules: G::Rules) -> Result<Option<SolveOutput>, String> {
        let game: G = setup(rules, self.position.as_deref(), &self.after)?;
        let t = Instant::now();
        let Some(out) = game.solve(&self.options, &mut |line| crate::errln!("{}", line))? else {
            // Another rank than 0 of an MPI run: rank 0 prints.
            return Ok(None);
        };
        crate::outln!("value: {}", out.value)?;
        let best: Vec<&str> = out
            .move_values
            .iter()
            .filter(|(_, v)| *v == out.value)
            .map(|(m, _)| m.as_str())
            .collect();
        crate::outln!("best moves: {}", best.join(" "))?;
        for (m, v) in &out.move_values {
            crate::outln!("move {}: {}", m, v)?;
        }
        for (m, b) in &out.move_upper_bounds {
            crate::outln!(
                "move {}: <= {} (upper bound: exact value over the node budget)",
                m,
                b
            )?;
        }
        for d in &out.details {
            crate::outln!("{}", d)?;
        }
        crate::outln!("time: {}", secs(t.elapsed().as_secs_f64()))?;
        Ok(Some(out))
    }
}

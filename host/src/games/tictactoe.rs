//! Tic-tac-toe in the `ply` tools.

pub use ply_core::games::tictactoe::TicTacToeEval;
use ply_core::games::TicTacToe;
use ply_core::search::TtEntry;
use ply_core::solve::Solver;
use ply_core::{Game, Player};

use crate::games::{HostGame, SolveOptions, SolveOutput};

impl HostGame for TicTacToe {
    const NAME: &'static str = "tictactoe";
    type Eval = TicTacToeEval;

    fn evaluator(name: Option<&str>) -> Result<TicTacToeEval, String> {
        match name {
            None | Some("lines") => Ok(TicTacToeEval::Lines),
            Some("zero") => Ok(TicTacToeEval::Zero),
            Some(other) => Err(format!(
                "unknown evaluation {} for tictactoe: expected lines or zero",
                crate::quote::quote(other)
            )),
        }
    }

    fn evaluator_names() -> &'static [&'static str] {
        &["lines", "zero"]
    }

    fn player_name(&self, player: Player) -> &'static str {
        match player {
            Player::First => "X",
            Player::Second => "O",
        }
    }

    fn diagram(&self) -> String {
        let text = self.to_string();
        let cells: Vec<char> = text.chars().collect();
        let mut out = String::new();
        for row in 0..3 {
            for col in 0..3 {
                let i = row * 3 + col;
                let c = match cells[i] {
                    '.' => char::from(b'1' + i as u8),
                    c => c.to_ascii_uppercase(),
                };
                out.push(' ');
                out.push(c);
                out.push(' ');
                if col < 2 {
                    out.push('|');
                }
            }
            out.push('\n');
            if row < 2 {
                out.push_str("---+---+---\n");
            }
        }
        out
    }

    fn solve(
        &self,
        options: &SolveOptions,
        _progress: &mut dyn FnMut(&str),
    ) -> Result<Option<SolveOutput>, String> {
        options.refuse_checkpoint(Self::NAME)?;
        let mut slots = vec![TtEntry::EMPTY; 1 << 14];
        let mut solver = Solver::new(&mut slots);
        let root = solver.solve(self).map_err(|e| e.to_string())?;
        let mut move_values = Vec::new();
        solver
            .solve_moves(self, |mv, s| {
                move_values.push((self.display_move(mv).to_string(), i64::from(s.value)))
            })
            .map_err(|e| e.to_string())?;
        let mut details = vec![format!("nodes: {}", root.nodes)];
        if let Some(n) = root.plies_to_end {
            details.push(format!("plies to the end: {}", n));
        }
        Ok(Some(SolveOutput {
            value: i64::from(root.value),
            move_values,
            move_upper_bounds: Vec::new(),
            details,
        }))
    }
}

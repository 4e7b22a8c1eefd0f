//! Kalah in the `ply` tools: `kalah[:PITSxSEEDS][:empty-capture]`, its name, its
//! evaluations, its board diagram and its exact solver.
//!
//! * Evaluations: `tables` (the default: [`KalahEval`] with the board's endgame
//!   tables and the exact solver at the root, `kalah_solve/play.rs`), `ply`
//!   ([`KalahEval`] alone) and `store` (the store difference of the Mancala
//!   parallelization report, docs/references.md: [`StoreDifference`]).
//! * `ply play` draws the board as the report's program does (the second player's
//!   row on top, right to left, its store on the left) and announces "chooses pit
//!   N".
//! * `ply solve` runs [`crate::kalah_solve`]: the exact solver with endgame tables on
//!   disk, on all cores.

use std::time::Instant;

use ply_core::games::kalah::{Kalah, KalahEval, Pit, StoreDifference};
use ply_core::search::{Evaluator, Score, SearchReport, MAX_PLY};
use ply_core::{Game, Outcome, Player};

use crate::games::{HostGame, SolveOptions, SolveOutput};
use crate::kalah_solve::play::{tables_for, PlayTables};

/// The most seeds in play beyond the endgame tables' at which an AI player runs
/// the exact solver ([`HostGame::has_solver`]). Measured on Kalah(6,4) positions
/// with a fresh solver table, one thread (docs/log/2026-11-29-kalah-play.md): 18
/// seeds beyond the tables take 0.1–1 s, often more than a move's time, and from 20
/// beyond the solver finished none in 90 ms; closer, most finish in tens of
/// milliseconds.
pub const MAX_SOLVER_GAP: u32 = 18;

/// The Kalah evaluations a player can choose.
#[derive(Clone, Copy, Debug)]
pub enum KalahEvalChoice {
    /// `tables` (the default): ply's evaluation with the exact values of the board's
    /// endgame tables ([`ply_core::games::kalah::TablesEval`]) once the AI player
    /// has them ([`HostGame::ready_eval`]; `None` before, or when there are none:
    /// [`KalahEval`] alone), and the exact solver at the root under a time budget
    /// ([`HostGame::solved_move`]).
    Tables(Option<&'static PlayTables>),
    /// `ply`: ply's evaluation alone ([`KalahEval`]), no tables, no solver.
    Ply,
    /// `store`: the report's store difference ([`StoreDifference`]).
    Store,
}

impl Evaluator<Kalah> for KalahEvalChoice {
    #[inline]
    fn evaluate(&self, g: &Kalah, me: Player) -> Score {
        match self {
            KalahEvalChoice::Tables(_) | KalahEvalChoice::Ply => KalahEval.evaluate(g, me),
            KalahEvalChoice::Store => StoreDifference.evaluate(g, me),
        }
    }

    #[inline]
    fn terminal(&self, g: &Kalah, outcome: Outcome, ply: u32) -> Score {
        match self {
            KalahEvalChoice::Tables(_) | KalahEvalChoice::Ply => {
                KalahEval.terminal(g, outcome, ply)
            }
            KalahEvalChoice::Store => StoreDifference.terminal(g, outcome, ply),
        }
    }

    #[inline]
    fn exact(&self, g: &Kalah, ply: u32) -> Option<Score> {
        match self {
            KalahEvalChoice::Tables(Some(t)) => t.eval().exact(g, ply),
            _ => None,
        }
    }
}

impl HostGame for Kalah {
    const NAME: &'static str = "kalah";
    /// Sowings rarely transpose: 2–5% of the lookups hit (6×4, depths 12–16), and
    /// perft 12 took 1.6 s of CPU with the table against 1.2 s without.
    const PERFT_TABLE_BY_DEFAULT: bool = false;
    /// A first move's replies are work items (`kalah_solve/ranks/`).
    const SOLVES_ON_RANKS: bool = true;
    type Eval = KalahEvalChoice;

    fn evaluator(name: Option<&str>) -> Result<KalahEvalChoice, String> {
        match name {
            // The core's default (`Recommended`: `KalahEval`, which the web page and
            // the firmware play with), with the endgame tables the host has on disk.
            None | Some("tables") => Ok(KalahEvalChoice::Tables(None)),
            Some("ply") => Ok(KalahEvalChoice::Ply),
            Some("store") | Some("seed") => Ok(KalahEvalChoice::Store),
            Some(other) => Err(format!(
                "unknown evaluation {} for kalah: expected tables, ply or store",
                crate::quote::quote(other)
            )),
        }
    }

    fn evaluator_names() -> &'static [&'static str] {
        &["tables", "ply", "store"]
    }

    /// `tables`: with the endgame tables of the board (pits and capture rule),
    /// loaded once a process ([`tables_for`]).
    fn ready_eval(
        eval: &KalahEvalChoice,
        game: &Kalah,
        wait_until: Option<Instant>,
    ) -> KalahEvalChoice {
        match eval {
            KalahEvalChoice::Tables(Some(t)) if t.tables().fits(game.rules()) => *eval,
            KalahEvalChoice::Tables(_) => {
                KalahEvalChoice::Tables(tables_for(game.rules(), wait_until))
            }
            other => *other,
        }
    }

    /// `tables` with endgame tables, in a position at most [`MAX_SOLVER_GAP`] seeds
    /// in play beyond them.
    fn has_solver(&self, eval: &KalahEvalChoice) -> bool {
        match eval {
            KalahEvalChoice::Tables(Some(t)) => {
                !self.outcome().is_over() && self.seeds_in_play() <= t.seeds() + MAX_SOLVER_GAP
            }
            _ => false,
        }
    }

    /// `tables`: the exact solver of `ply solve` over the endgame tables, on one
    /// thread ([`PlayTables::solve_move`]); its move reports the engine's deepest
    /// depth (as an exact search would) and the evaluation's value of the final
    /// margin it proved ([`KalahEval::margin_value`]).
    fn solved_move(
        &self,
        eval: &KalahEvalChoice,
        deadline: Instant,
        stop: &dyn Fn() -> bool,
    ) -> Option<SearchReport<Pit>> {
        let KalahEvalChoice::Tables(Some(t)) = eval else {
            return None;
        };
        let (mv, margin, nodes) = t.solve_move(self, deadline, stop)?;
        let mut pv = heapless::Vec::new();
        let _ = pv.push(mv);
        Some(SearchReport {
            best_move: Some(mv),
            value: KalahEval::margin_value(margin),
            depth: MAX_PLY as u32 - 1,
            nodes,
            pv,
            aborted: false,
            elapsed_ms: 0,
        })
    }

    fn player_name(&self, player: Player) -> &'static str {
        match player {
            Player::First => "Player 1",
            Player::Second => "Player 2",
        }
    }

    /// The report's board: the second player's pits on top from its pit `P` down to
    /// pit 1 (right to left as seen by the first player), its store on the left; the
    /// first player's pits 1 to `P` below, its store on the right.
    fn diagram(&self) -> String {
        let p = self.rules().pits as usize;
        let cell = |v: u32| format!("{:>3}", v);
        let top: String = (0..p)
            .rev()
            .map(|i| cell(self.pit(Player::Second, i)))
            .collect();
        let bottom: String = (0..p).map(|i| cell(self.pit(Player::First, i))).collect();
        let labels_top: String = (0..p).rev().map(|i| format!("{:>3}", i + 1)).collect();
        let labels_bottom: String = (0..p).map(|i| format!("{:>3}", i + 1)).collect();
        let width = 3 * p;
        format!(
            "       {labels_top}         (Player 2's pits), its store on the left\n\
             +-----+{dash}-+-----+\n\
             |store|{top} |     |\n\
             | {s2:>3} |{space} | {s1:>3} |\n\
             |     |{bottom} |store|\n\
             +-----+{dash}-+-----+\n\
             \x20      {labels_bottom}         (Player 1's pits), its store on the right\n\
             {side} to move",
            dash = "-".repeat(width),
            space = " ".repeat(width),
            s2 = self.store(Player::Second),
            s1 = self.store(Player::First),
            side = self.player_name(self.side_to_move()),
        )
    }

    fn describe_move(&self, mv: Pit) -> String {
        format!("chooses pit {}", self.display_move(mv))
    }

    fn solve(
        &self,
        options: &SolveOptions,
        progress: &mut dyn FnMut(&str),
    ) -> Result<Option<SolveOutput>, String> {
        crate::kalah_solve::solve(self, options, progress)
    }
}

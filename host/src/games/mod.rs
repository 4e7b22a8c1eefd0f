//! What the host needs from each game beyond the core contract: its name, the
//! evaluations a user can choose, a board diagram, and an exact solver where one
//! exists. One file per game.

use std::time::Instant;

use ply_core::perft::PerftKey;
use ply_core::search::{Evaluator, Recommended, SearchReport};
use ply_core::{Game, Outcome, Player};

pub mod draughts;
pub mod halma;
pub mod kalah;
pub mod tictactoe;

pub use crate::solving::{SolveOptions, SolveOutput};

/// A game the `ply` tools can run.
pub trait HostGame:
    Game<Move: Send + Sync> + PerftKey + Recommended + Send + Sync + 'static
{
    /// The name in game specs (`tictactoe`).
    const NAME: &'static str;

    /// Whether `ply perft` without `--hash-mb` counts with a table (when the game
    /// has a perft key and the depth is [`crate::commands::perft::TABLE_FROM_DEPTH`]
    /// or more). Games whose positions rarely transpose say no: the lookups would
    /// cost more than they save.
    const PERFT_TABLE_BY_DEFAULT: bool = true;
    /// Whether [`HostGame::solve`] deals its work out to the ranks of an MPI run;
    /// `ply solve` of a game that does not is refused on several ranks.
    const SOLVES_ON_RANKS: bool = false;

    /// The evaluation type the AI players use.
    type Eval: Evaluator<Self> + Clone + Send + Sync;

    /// The evaluation called `name`, or the game's default for `None`.
    fn evaluator(name: Option<&str>) -> Result<Self::Eval, String>;

    /// The names [`HostGame::evaluator`] accepts, for help and error messages.
    fn evaluator_names() -> &'static [&'static str];

    /// The engine's search switches for this game, over the engine's defaults: the
    /// core's [`Recommended::engine_config`] (each switch on only where matches
    /// measured a gain for the game; docs/engine.md), which the web page and the
    /// firmware play with too.
    fn engine_switches() -> crate::parallel::Switches {
        crate::parallel::Switches::from_config(&Self::engine_config())
    }

    /// `eval` made ready to search `game`: what it needs for `game`'s board loaded
    /// (Kalah's `tables`: the board's endgame tables, loaded once a process and
    /// kept), waiting for a load at most until `wait_until` (`None`: as long as it
    /// takes); until a load is done the evaluation does without it. The AI player
    /// calls this before each move ([`crate::commands::player::Ai`]). The default:
    /// `eval` as it is.
    fn ready_eval(eval: &Self::Eval, game: &Self, wait_until: Option<Instant>) -> Self::Eval {
        let _ = (game, wait_until);
        eval.clone()
    }

    /// Whether an AI player under a time budget runs an exact solver on `self`
    /// with `eval` ([`HostGame::solved_move`]): the game has one, `eval` uses it, and
    /// it may finish in a move's time (Kalah's `tables`: the seeds in play are at
    /// most a few more than the endgame tables cover). The default: no.
    fn has_solver(&self, eval: &Self::Eval) -> bool {
        let _ = eval;
        false
    }

    /// A move of `self` proved best by the exact solver of [`HostGame::has_solver`]
    /// before `deadline` (or before `stop` says so: another thread's answer, `ply
    /// engine`'s `stop`), as a search
    /// report (the value on the evaluation's scale), for an AI player to play
    /// instead of its search's move; `None` when it did not finish, or when there is
    /// no solver (the default).
    fn solved_move(
        &self,
        eval: &Self::Eval,
        deadline: Instant,
        stop: &dyn Fn() -> bool,
    ) -> Option<SearchReport<Self::Move>> {
        let _ = (eval, deadline, stop);
        None
    }

    /// How a player is called in this game ("X", "Black", "Red", "South").
    fn player_name(&self, player: Player) -> &'static str {
        match player {
            Player::First => "first",
            Player::Second => "second",
        }
    }

    /// Why the game is over in this position, for a match's report: the default
    /// names the winner, or says the rules drew it.
    fn end_reason(&self) -> String {
        match self.outcome() {
            Outcome::Win(p) => format!("{} wins", self.player_name(p)),
            Outcome::Draw => "drawn by the rules".into(),
            Outcome::Ongoing => "the game goes on".into(),
        }
    }

    /// A multi-line board diagram for `ply play`. The default is the position text.
    fn diagram(&self) -> String {
        self.to_string()
    }

    /// How a chosen move is announced ("chooses pit 3" in Kalah).
    fn describe_move(&self, mv: Self::Move) -> String {
        format!("plays {}", self.display_move(mv))
    }

    /// The rules with capture paths that have the same result (origin, destination,
    /// captured pieces) counted as one move: `ply perft --unique`. Games whose moves
    /// have no such paths refuse.
    fn unique_captures(rules: Self::Rules) -> Result<Self::Rules, String> {
        let _ = rules;
        Err(format!(
            "--unique is not available for {}: it has no capture paths",
            Self::NAME
        ))
    }

    /// The move notations `--notation` accepts besides the default one.
    fn notations() -> &'static [&'static str] {
        &[]
    }

    /// `mv` written in the notation `notation` (`None`: the game's default notation,
    /// the one `write_move` uses).
    fn move_in_notation(&self, mv: Self::Move, notation: Option<&str>) -> Result<String, String> {
        match notation {
            None => Ok(self.display_move(mv).to_string()),
            Some(n) => Err(format!(
                "unknown notation {} for {}: {}",
                crate::quote::quote(n),
                Self::NAME,
                if Self::notations().is_empty() {
                    "it has only its default notation".to_string()
                } else {
                    format!("expected one of {}", Self::notations().join(", "))
                }
            )),
        }
    }

    /// Builds (or completes from the files on disk) the endgame databases of every
    /// position with up to `pieces` pieces on `threads` threads (`ply db build`),
    /// then, if `verify`, checks every position against its children, sending
    /// progress lines to `progress`; returns the summary lines (none on the ranks
    /// other than 0 of an MPI run). Under `mpirun`, or with a checkpoint (`job`),
    /// the build is a job of items dealt out to the ranks. The default: none for
    /// this game.
    fn build_databases(
        rules: Self::Rules,
        pieces: u32,
        threads: usize,
        verify: bool,
        job: &crate::distributed::Options,
        progress: &mut dyn FnMut(&str),
    ) -> Result<Vec<String>, String> {
        let _ = (rules, pieces, threads, verify, job, progress);
        Err(format!(
            "endgame databases are not available for {}: only for checkers",
            Self::NAME
        ))
    }

    /// The exact value of this position for the side to move, and of each move;
    /// `None` on the ranks other than 0 of an MPI run, which print nothing (only
    /// Kalah's solve runs on several ranks). `progress` receives a line now and then
    /// during long solves.
    fn solve(
        &self,
        options: &SolveOptions,
        progress: &mut dyn FnMut(&str),
    ) -> Result<Option<SolveOutput>, String> {
        let _ = (options, progress);
        Err(format!("exact solving is not available for {}", Self::NAME))
    }
}

#[cfg(test)]
mod tests {
    use ply_core::games::{Draughts, Halma16, Halma8, Kalah, TicTacToe};
    use ply_core::search::{EngineConfig, Recommended};

    use super::HostGame;

    /// The host's switches over the engine's defaults give back the core's whole
    /// configuration: no part of it is lost on the way.
    fn switches_are_the_core_config<G: HostGame>() {
        assert_eq!(
            G::engine_switches().apply(EngineConfig::default()),
            G::engine_config(),
            "{}",
            G::NAME
        );
    }

    #[test]
    fn every_game_searches_with_the_core_config() {
        switches_are_the_core_config::<TicTacToe>();
        switches_are_the_core_config::<Kalah>();
        switches_are_the_core_config::<Draughts>();
        switches_are_the_core_config::<Halma8>();
        switches_are_the_core_config::<Halma16>();
        assert_eq!(Draughts::engine_switches().lmr, Some(true));
    }

    #[test]
    fn draughts_default_evaluation_is_the_core_one() {
        assert_eq!(
            Draughts::evaluator(None).map(|e| e.eval),
            Ok(Draughts::evaluation())
        );
    }
}

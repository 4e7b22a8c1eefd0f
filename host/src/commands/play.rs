//! `ply play GAME --first human|ai --second human|ai [--depth D | --time S]`: the four
//! modes of the Calgary checkers assignment. The board is redrawn every turn, a human's
//! illegal input is refused with its reason and asked again, and the result is
//! announced. The AI is the engine on `--threads` threads (default: every core); a
//! time budget is a hard limit per move.

use std::io::{BufRead, Write};

use ply_core::Outcome;

use crate::commands::player::{Ai, AiConfig, Budget};
use crate::commands::secs;
use crate::games::HostGame;
use crate::position::setup;
use crate::spec::GameCommand;

/// Who plays a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Controller {
    /// Moves typed on standard input.
    Human,
    /// The engine.
    Ai,
}

impl Controller {
    /// Parses `human` or `ai`.
    pub fn parse(s: &str) -> Result<Controller, String> {
        match s {
            "human" => Ok(Controller::Human),
            "ai" => Ok(Controller::Ai),
            other => Err(format!(
                "unknown player {}: expected human or ai",
                crate::quote::quote(other)
            )),
        }
    }
}

/// The AI's table size when `--hash-mb` does not say, in MiB.
pub const DEFAULT_HASH_MB: usize = 32;

/// Play a game.
#[derive(Clone, Debug)]
pub struct Play {
    /// Who moves first.
    pub first: Controller,
    /// Who moves second.
    pub second: Controller,
    /// Start from this position text instead of the start position.
    pub position: Option<String>,
    /// AI depth.
    pub depth: Option<u32>,
    /// AI seconds per move.
    pub time: Option<f64>,
    /// AI nodes per move.
    pub nodes: Option<u64>,
    /// AI evaluation name.
    pub eval: Option<String>,
    /// Adjudicate a draw after this many plies (0: never).
    pub max_plies: u32,
    /// The AI's search threads.
    pub threads: usize,
    /// The AI's transposition table in MiB (`--hash-mb`).
    pub hash_mb: usize,
}

impl GameCommand for Play {
    type Output = Outcome;
    fn run<G: HostGame>(self, rules: G::Rules) -> Result<Outcome, String> {
        let stdin = std::io::stdin();
        let mut input = stdin.lock();
        play_game::<G>(&self, rules, &mut input, &mut std::io::stdout())
    }
}

/// The game loop, reading human moves from `input` and writing to `out`. Returns the
/// outcome, or [`Outcome::Ongoing`] when a human left the game (`quit`, end of input).
pub fn play_game<G: HostGame>(
    opts: &Play,
    rules: G::Rules,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<Outcome, String> {
    let io = |e: std::io::Error| format!("cannot write output: {}", e);
    let mut game: G = setup(rules, opts.position.as_deref(), &[])?;
    let budget = Budget::from_options(opts.depth, opts.time, opts.nodes, Budget::Time(1.0))?;
    let eval = G::evaluator(opts.eval.as_deref())?;
    if opts.threads == 0 {
        return Err("--threads must be at least 1".into());
    }
    let mut ais: Vec<Option<Ai<G>>> = [opts.first, opts.second]
        .iter()
        .map(|c| {
            (*c == Controller::Ai).then(|| {
                Ai::new(AiConfig::<G>::engine(
                    eval.clone(),
                    budget,
                    opts.threads,
                    opts.hash_mb,
                ))
            })
        })
        .collect();
    let mut ply = 0u32;
    // A move's time counts from when its turn began: the process start for the
    // first, the previous move after that.
    let mut turn_start = crate::clock::process_start();
    loop {
        writeln!(out, "\n{}", game.diagram()).map_err(io)?;
        writeln!(out, "position: {}", game).map_err(io)?;
        let outcome = game.outcome();
        if outcome.is_over() {
            let msg = match outcome {
                Outcome::Win(p) => format!("{} wins", game.player_name(p)),
                _ => "draw".to_string(),
            };
            writeln!(out, "result: {}", msg).map_err(io)?;
            return Ok(outcome);
        }
        if opts.max_plies > 0 && ply >= opts.max_plies {
            writeln!(out, "result: draw (adjudicated after {} plies)", ply).map_err(io)?;
            return Ok(Outcome::Draw);
        }
        let side = game.side_to_move();
        let name = game.player_name(side);
        match &mut ais[side.index()] {
            Some(ai) => {
                let r = ai.choose_from(&game, turn_start, &mut |_| {})?;
                let mv = r
                    .best_move
                    .ok_or("the AI found no move in an unfinished game")?;
                // The next turn begins as this move is announced (from outside, a
                // move's time is from one move line to the next).
                turn_start = std::time::Instant::now();
                writeln!(
                    out,
                    "{} {} (value {}, depth {}, nodes {}, {})",
                    name,
                    game.describe_move(mv),
                    r.value,
                    r.depth,
                    r.nodes,
                    secs(r.elapsed_ms as f64 / 1000.0)
                )
                .map_err(io)?;
                game = game.play(mv).map_err(|e| e.to_string())?;
            }
            None => match crate::commands::human::ask_move(&game, name, input, out)? {
                crate::commands::human::Reply::Moved(next) => {
                    game = next;
                    turn_start = std::time::Instant::now();
                }
                // The player left: goodbye was said; the game is unfinished.
                crate::commands::human::Reply::Quit => return Ok(Outcome::Ongoing),
            },
        }
        ply += 1;
    }
}

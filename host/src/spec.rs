//! Game specs: `name[:params]`, e.g. `tictactoe`, `kalah:6x4:empty-capture`.
//!
//! [`with_game`] parses a spec and runs a [`GameCommand`] with the concrete game type,
//! so every command is written once, generically, and each game is one match arm.

use crate::games::HostGame;
use ply_core::games::halma::board_side;
use ply_core::games::{Draughts, Halma16, Halma8, Kalah, TicTacToe};

/// A command that can run on any game.
pub trait GameCommand {
    /// What the command returns.
    type Output;
    /// Runs the command for game `G` under `rules`.
    fn run<G: HostGame>(self, rules: G::Rules) -> Result<Self::Output, String>;
}

/// Names of the games ply knows, with their parameter syntax, for error messages.
pub const GAMES: &[&str] = &[
    "tictactoe",
    "kalah[:PITSxSEEDS][:empty-capture]",
    "checkers[:english|calgary]",
    "halma[:8|:16][:parlett][:no-leave][:plies=N]",
];

/// Splits a spec into the game name and its parameters (after the first `:`).
pub fn split(spec: &str) -> (&str, &str) {
    match spec.split_once(':') {
        Some((name, params)) => (name, params),
        None => (spec, ""),
    }
}

/// A spec's parameters as every game's parser takes them, the same rules for each
/// game: in lower case (as the game's name is read: `checkers:LIMIT=5` is
/// `checkers:limit=5`), and each parameter at most once (`checkers:unique:unique`
/// is refused, as `kalah:empty-capture:empty-capture` always was), a parameter's
/// name being what comes before its `=`.
pub fn normalize_params(params: &str) -> Result<String, String> {
    let lower = params.to_ascii_lowercase();
    let mut seen: Vec<&str> = Vec::new();
    for part in lower.split(':').filter(|p| !p.is_empty()) {
        let name = part.split('=').next().unwrap_or(part);
        if seen.contains(&name) {
            return Err(format!("{} given twice", crate::quote::quote(name)));
        }
        seen.push(name);
    }
    Ok(lower)
}

/// What a spec names, to compare two specs: the game's type, its rules (as
/// `Debug` writes them) and its name.
struct Identity;

impl GameCommand for Identity {
    type Output = (std::any::TypeId, String, &'static str);
    fn run<G: HostGame>(self, rules: G::Rules) -> Result<Self::Output, String> {
        Ok((std::any::TypeId::of::<G>(), format!("{:?}", rules), G::NAME))
    }
}

/// One spelling for every spec of the same game and rules, for the fingerprint a
/// checkpoint keeps: `KALAH:6x4`, `mancala:6X4` and `kalah` are all `kalah`
/// (the rules the bare name gives are left out), `Checkers:Limit=5` is
/// `checkers:limit=5`. A spec that does not parse is returned as it is (the
/// command then refuses it).
pub fn canonical(spec: &str) -> String {
    let Ok(id) = with_game(spec, Identity) else {
        return spec.to_string();
    };
    let name = id.2;
    if with_game(name, Identity).is_ok_and(|bare| bare == id) {
        return name.to_string();
    }
    let (_, params) = split(spec.trim());
    match normalize_params(params) {
        Ok(p) => format!("{}:{}", name, p),
        Err(_) => spec.to_string(),
    }
}

/// Parses `spec` and runs `cmd` on the game it names.
pub fn with_game<C: GameCommand>(spec: &str, cmd: C) -> Result<C::Output, String> {
    let (name, params) = split(spec.trim());
    match name.to_ascii_lowercase().as_str() {
        "tictactoe" | "tic-tac-toe" | "ttt" => run::<TicTacToe, C>(spec, params, cmd),
        "kalah" | "mancala" => run::<Kalah, C>(spec, params, cmd),
        "checkers" | "draughts" => run::<Draughts, C>(spec, params, cmd),
        "halma" => {
            if board_side(params) == 16 {
                run::<Halma16, C>(spec, params, cmd)
            } else {
                run::<Halma8, C>(spec, params, cmd)
            }
        }
        _ => Err(format!(
            "unknown game {}: expected one of {}",
            crate::quote::quote(name),
            GAMES.join(", ")
        )),
    }
}

fn run<G: HostGame, C: GameCommand>(spec: &str, params: &str, cmd: C) -> Result<C::Output, String> {
    let params = normalize_params(params).map_err(|e| {
        format!(
            "bad parameters in game spec {}: {}",
            crate::quote::quote(spec),
            e
        )
    })?;
    let rules = G::parse_rules(&params).map_err(|e| {
        format!(
            "bad parameters in game spec {}: {}",
            crate::quote::quote(spec),
            e
        )
    })?;
    cmd.run::<G>(rules)
}

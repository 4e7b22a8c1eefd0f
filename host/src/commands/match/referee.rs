//! The referee of one game between two engine processes: ply's own move generator,
//! holding the game's full history.
//!
//! Each engine is started when it is first needed (and again after it failed),
//! greeted (`uci` … `uciok`) and told the game (`ucinewgame GAME`, `isready` …
//! `readyok`), each within the start-up limit. Each turn the mover gets the whole
//! game, `position startpos|fen … moves …`, and `go movetime MS`, and must answer
//! `bestmove M` within the move time plus the grace, measured from the moment `go`
//! was written. The move is read with ply's parser in the game's position (a draughts
//! capture written by its origin and destination alone, `26x10`, is taken when it
//! names one legal move) and played through the checked `Game::play`. An engine whose
//! move is unreadable or illegal, that exits, that answers late or not at all, or that
//! refuses the game loses it, with the reason; it is killed and started afresh for its
//! next game. The game's own rules end it otherwise (draughts: no legal move, the
//! third repetition, the move limit), or the match's `--max-plies` adjudicates a draw.

use std::time::{Duration, Instant};

use ply_core::{Outcome, Player};

use super::openings::Opening;
use crate::games::HostGame;
use crate::protocol::client::{Engine, Failure};
use crate::protocol::{PositionLine, Start};
use crate::quote::quote;

/// The limits every game of a match is played under.
#[derive(Clone, Debug)]
pub struct Limits {
    /// The game spec sent with `ucinewgame`.
    pub spec: String,
    /// The time a move, in milliseconds (`go movetime`).
    pub move_ms: u64,
    /// Nodes a move instead of a time (`go nodes`).
    pub nodes: Option<u64>,
    /// What a move may take beyond `move_ms` (with `nodes`: in all) before it is
    /// forfeited.
    pub grace: Duration,
    /// The limit for `uciok` and `readyok`.
    pub startup: Duration,
    /// Plies after the opening before a draw is adjudicated.
    pub max_plies: u32,
}

/// One engine of the match: its command line and, while it runs, its process.
pub struct Contestant {
    /// `A` or `B`.
    pub label: &'static str,
    /// The command line, split into words.
    pub words: Vec<String>,
    /// The process, once started (none after a failure: started again when needed).
    pub engine: Option<Engine>,
}

impl Contestant {
    /// A contestant not started yet.
    pub fn new(label: &'static str, words: Vec<String>) -> Contestant {
        Contestant {
            label,
            words,
            engine: None,
        }
    }

    /// The running engine, started and greeted if need be.
    fn ready(&mut self, limits: &Limits) -> Result<&mut Engine, String> {
        if self.engine.is_none() {
            let mut e = Engine::start(&self.words)?;
            e.handshake(limits.startup).map_err(|f| f.to_string())?;
            self.engine = Some(e);
        }
        Ok(self.engine.as_mut().expect("just started"))
    }

    /// Starts a game: `ucinewgame` and `isready`, any `error` answer a refusal.
    fn new_game(&mut self, limits: &Limits) -> Result<(), String> {
        let e = self.ready(limits)?;
        e.send(&format!("ucinewgame {}", limits.spec.trim()))
            .map_err(|f| f.to_string())?;
        let errors = e.sync(limits.startup).map_err(|f| f.to_string())?;
        match errors.first() {
            Some(err) => Err(format!(
                "it refused the game {}: {}",
                quote(limits.spec.trim()),
                quote(err)
            )),
            None => Ok(()),
        }
    }

    /// Ends the process (after a failure: it is started afresh for the next game).
    fn drop_engine(&mut self) {
        self.engine = None;
    }

    /// Asks a running engine to quit, and waits a moment for it.
    pub fn quit(&mut self) {
        if let Some(e) = self.engine.take() {
            e.quit(Duration::from_millis(500));
        }
    }
}

/// A finished game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// The position the game starts from (`None`: the game's start).
    pub fen: Option<String>,
    /// Every move from there, the opening's first, as ply writes them.
    pub moves: Vec<String>,
    /// How many of `moves` the opening made.
    pub opening_plies: usize,
    /// Who won, by colour, or a draw.
    pub outcome: Outcome,
    /// Why it ended.
    pub reason: String,
    /// The colour that forfeited (its engine failed), if any.
    pub forfeit: Option<Player>,
    /// Seconds each move took, by colour: from writing `go` to reading `bestmove`.
    pub times: [Vec<f64>; 2],
    /// The side to move at the game's start position.
    pub first_to_move: Player,
}

/// Plays one game from `opening` (whose every move is legal, checked when the
/// openings were loaded); `players[0]` plays the side that moves first in the game's
/// rules (`Player::First`).
pub fn play<G: HostGame>(
    rules: G::Rules,
    opening: &Opening,
    players: [&mut Contestant; 2],
    limits: &Limits,
) -> GameRecord {
    let mut game: G = opening
        .position(rules)
        .expect("the openings were checked when they were loaded");
    let first_to_move = match &opening.fen {
        Some(f) => G::parse_position(rules, f)
            .map(|g| g.side_to_move())
            .unwrap_or(Player::First),
        None => G::start(rules).side_to_move(),
    };
    let mut record = GameRecord {
        fen: opening.fen.clone(),
        moves: opening.moves.clone(),
        opening_plies: opening.moves.len(),
        outcome: Outcome::Draw,
        reason: String::new(),
        forfeit: None,
        times: [Vec::new(), Vec::new()],
        first_to_move,
    };
    let lose = |record: &mut GameRecord, side: Player, who: &Contestant, why: String| {
        record.outcome = Outcome::Win(side.opponent());
        record.forfeit = Some(side);
        record.reason = format!("{} forfeits: {}", who.label, why);
    };
    // Both engines up and told the game, the first mover's first.
    for side in [Player::First, Player::Second] {
        let p = &mut *players[side.index()];
        if let Err(why) = p.new_game(limits) {
            lose(&mut record, side, p, why);
            p.drop_engine();
            return record;
        }
    }
    let mut plies = 0u32;
    loop {
        let outcome = game.outcome();
        if outcome.is_over() {
            record.outcome = outcome;
            record.reason = game.end_reason();
            return record;
        }
        if plies >= limits.max_plies {
            record.outcome = Outcome::Draw;
            record.reason = format!("drawn by adjudication after {} plies", plies);
            return record;
        }
        let side = game.side_to_move();
        let p = &mut *players[side.index()];
        let line = PositionLine {
            start: match &record.fen {
                Some(f) => Start::Fen(f.clone()),
                None => Start::StartPos,
            },
            moves: record.moves.clone(),
        };
        match turn(&game, p, &line, limits) {
            Ok((mv, seconds)) => {
                record.times[side.index()].push(seconds);
                record.moves.push(game.display_move(mv).to_string());
                game = game.play(mv).expect("checked in turn");
                plies += 1;
            }
            Err((why, seconds)) => {
                if let Some(s) = seconds {
                    record.times[side.index()].push(s);
                }
                lose(&mut record, side, p, why);
                p.drop_engine();
                return record;
            }
        }
    }
}

/// One turn: the position and `go` to `p`, its `bestmove` read and checked. The
/// move and the seconds it took; or why the engine forfeits (and the seconds, when
/// it answered).
fn turn<G: HostGame>(
    game: &G,
    p: &mut Contestant,
    line: &PositionLine,
    limits: &Limits,
) -> Result<(G::Move, f64), (String, Option<f64>)> {
    let e = p
        .engine
        .as_mut()
        .ok_or(("its engine is not running".to_string(), None))?;
    let fail = |f: Failure| (f.to_string(), None);
    e.send(&line.to_line()).map_err(fail)?;
    let (go, limit) = match limits.nodes {
        Some(n) => (format!("go nodes {n}"), limits.grace),
        None => (
            format!("go movetime {}", limits.move_ms),
            Duration::from_millis(limits.move_ms) + limits.grace,
        ),
    };
    e.send(&go).map_err(fail)?;
    let sent = Instant::now();
    let (answer, _) = e
        .wait_for(sent + limit, limit, "bestmove", |l| {
            l.split_whitespace().next() == Some("bestmove")
        })
        .map_err(fail)?;
    let seconds = sent.elapsed().as_secs_f64();
    let text = answer.split_whitespace().nth(1).unwrap_or("");
    let refuse = |why: String| (why, Some(seconds));
    if text.is_empty() || text == "none" {
        return Err(refuse(format!(
            "it answered {} in an unfinished game",
            quote(answer.trim())
        )));
    }
    let mv = game
        .parse_move(text)
        .map_err(|e| refuse(format!("unreadable move {}: {}", quote(text), e)))?;
    if let Err(e) = game.check_move(mv) {
        return Err(refuse(format!("illegal move {}: {}", quote(text), e)));
    }
    Ok((mv, seconds))
}

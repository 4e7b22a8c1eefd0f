//! `ply engine GAME [--eval NAME] [--threads N] [--hash-mb M] [--search SWITCHES]`: the
//! engine's end of
//! the protocol of docs/protocol.md, on standard input and output, for any game ply
//! has.
//!
//! One [`Ai`] searches every `go` of a session and keeps its table from move to move;
//! `ucinewgame` clears it, `setoption` makes a new one. `isready` loads what the
//! evaluation needs for the board ([`Ai::prepare`]: Kalah's endgame tables) before it
//! answers. `position` plays its moves
//! through the checked [`Game::play`](ply_core::Game::play), so the position holds its
//! history (draughts' repetition draw and move limit) and a bad move is refused with
//! its reason. A thread reads the input while a search runs: a `stop` or `quit` ends
//! the search of the last `go` read before it — at once through the stop flag the
//! search's clock carries ([`WallClock::with_stop`]), or as soon as that search starts
//! — and the search answers with its best move so far. The lines are otherwise
//! handled in order, and the end of input ends the session once the lines before it
//! are done. A `go movetime` counts from the moment its line was read. Every line goes out
//! through [`crate::output`] and is flushed at once; a line the engine does not
//! understand is answered with `error …`, and only `quit` or the end of input ends the
//! session.

use std::any::Any;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{sync_channel, Receiver};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use ply_core::search::{is_decisive, SearchReport, WIN};

use crate::clock::WallClock;
use crate::commands::player::{Ai, AiConfig, Budget};
use crate::games::HostGame;
use crate::position::play_text;
use crate::protocol::{clock_allocation, parse_setoption, Go, PositionLine, Start};
use crate::quote::quote;
use crate::spec::GameCommand;

/// `ply engine`'s settings (the command line's; `setoption` changes them).
#[derive(Clone, Debug)]
pub struct EngineCommand {
    /// The game spec as given (`checkers`): the game of a `ucinewgame` without one.
    pub spec: String,
    /// The evaluation's name (`None`: the game's default).
    pub eval: Option<String>,
    /// Search threads.
    pub threads: usize,
    /// Transposition table in MiB.
    pub hash_mb: usize,
    /// The engine's search switches over the game's (`--search`, `setoption name lmr`
    /// …).
    pub switches: crate::parallel::Switches,
}

impl GameCommand for EngineCommand {
    type Output = ();
    fn run<G: HostGame>(self, rules: G::Rules) -> Result<(), String> {
        // One flag for the process's one session.
        let flag: &'static AtomicBool = Box::leak(Box::new(AtomicBool::new(false)));
        let control = Arc::new(Control {
            flag,
            state: Mutex::new(ControlState::default()),
        });
        // The settings are checked before anything is read.
        let mut session = Session::<G>::new(self, rules, control.clone())?;
        let lines = read_input(control)?;
        for line in lines {
            if !session.handle(&line)? {
                break;
            }
        }
        Ok(())
    }
}

/// A line of input: its number (from 1), its text and when it was read.
struct Line {
    number: u64,
    text: String,
    read_at: Instant,
}

/// Which `go` a `stop` ends: the last `go` read before it, at once if it is running,
/// or as soon as it starts.
struct Control {
    /// The stop flag of the running search's clock.
    flag: &'static AtomicBool,
    state: Mutex<ControlState>,
}

#[derive(Default)]
struct ControlState {
    /// The number of the last `go` line read.
    last_go: u64,
    /// The number of the last `go` a `stop` or `quit` was read for.
    stopped_go: u64,
    /// The number of the `go` being searched.
    running: Option<u64>,
}

impl Control {
    fn lock(&self) -> std::sync::MutexGuard<'_, ControlState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The reader read line `number`.
    fn read(&self, number: u64, text: &str) {
        let mut st = self.lock();
        match text.split_whitespace().next() {
            Some("go") => st.last_go = number,
            Some("stop") | Some("quit") => {
                st.stopped_go = st.last_go;
                if st.running == Some(st.last_go) {
                    self.flag.store(true, Ordering::Relaxed);
                }
            }
            _ => {}
        }
    }

    /// The search of `go` line `number` starts: stopped already if a `stop` came.
    fn start(&self, number: u64) {
        let mut st = self.lock();
        st.running = Some(number);
        self.flag.store(st.stopped_go == number, Ordering::Relaxed);
    }

    /// The search ended.
    fn end(&self) {
        let mut st = self.lock();
        st.running = None;
        self.flag.store(false, Ordering::Relaxed);
    }
}

/// Starts the thread that reads standard input, numbering the lines and telling
/// `control` of each as soon as it is read (a `stop` ends the search it is for while
/// it runs). The end of input ends the session after the lines before it.
fn read_input(control: Arc<Control>) -> Result<Receiver<Line>, String> {
    let (tx, rx) = sync_channel::<Line>(256);
    std::thread::Builder::new()
        .name("ply-engine-input".into())
        .spawn(move || {
            let stdin = std::io::stdin();
            let mut input = stdin.lock();
            let mut number = 0;
            // The end of input (or a failed read) ends the session.
            while let Ok(Some(text)) = crate::protocol::read_line(&mut input) {
                number += 1;
                let read_at = Instant::now();
                control.read(number, &text);
                let line = Line {
                    number,
                    text,
                    read_at,
                };
                if tx.send(line).is_err() {
                    return;
                }
            }
        })
        .map_err(|e| format!("cannot start the input thread: {}", e))?;
    Ok(rx)
}

/// One session: the settings, the game, the player.
struct Session<G: HostGame> {
    cmd: EngineCommand,
    rules: G::Rules,
    game: G,
    ai: Ai<G>,
    control: Arc<Control>,
}

impl<G: HostGame> Session<G> {
    fn new(cmd: EngineCommand, rules: G::Rules, control: Arc<Control>) -> Result<Self, String> {
        let ai = Self::player(&cmd)?;
        Ok(Session {
            rules,
            game: G::start(rules),
            ai,
            cmd,
            control,
        })
    }

    fn player(cmd: &EngineCommand) -> Result<Ai<G>, String> {
        let mut config = AiConfig::<G>::engine(
            G::evaluator(cmd.eval.as_deref())?,
            Budget::Depth(1),
            cmd.threads,
            cmd.hash_mb,
        );
        config.switches = cmd.switches;
        Ok(Ai::new(config))
    }

    /// Writes `line` and flushes.
    fn say(&self, line: &str) -> Result<(), String> {
        crate::outln!("{}", line)?;
        crate::output::flush()
    }

    /// Handles one input line; false once the session ends (`quit`).
    fn handle(&mut self, input: &Line) -> Result<bool, String> {
        let line = input.text.trim();
        let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let answer = match word {
            "" => Ok(()),
            "quit" => return Ok(false),
            "uci" => self.uci(),
            // What the evaluation loads for the board (Kalah's endgame tables) is
            // loaded first, so that no `go` waits for it.
            "isready" => {
                self.ai.prepare(&self.game);
                self.say("readyok")
            }
            // Handled as it was read (`Control`): a search it ended has answered.
            "stop" => Ok(()),
            "ucinewgame" => self.new_game(rest.trim()),
            "position" => self.position(rest),
            "setoption" => self.set_option(rest),
            "moves" => self.moves(),
            "go" => self.go(rest, input),
            _ => Err(format!("unknown command {}", quote(word))),
        };
        match answer {
            Ok(()) => Ok(true),
            // A failed write of the answer ends the session; anything else is the
            // input's fault: said, and the session goes on.
            Err(e) if e.starts_with("cannot write output") => Err(e),
            Err(e) => {
                self.say(&format!("error {}", crate::interrupt::one_line(&e)))?;
                Ok(true)
            }
        }
    }

    fn uci(&self) -> Result<(), String> {
        self.say(&format!("id name ply {}", env!("CARGO_PKG_VERSION")))?;
        self.say("id author the ply developers")?;
        self.say(&format!("game {}", self.cmd.spec.trim()))?;
        self.say("uciok")
    }

    fn new_game(&mut self, spec: &str) -> Result<(), String> {
        if !spec.is_empty() {
            self.rules = crate::spec::with_game(spec, RulesOf::<G>::default())
                .map_err(|e| format!("unsupported game {}: {}", quote(spec), e))?;
        }
        self.game = G::start(self.rules);
        self.ai.clear_tables();
        Ok(())
    }

    fn position(&mut self, rest: &str) -> Result<(), String> {
        let p = PositionLine::parse(rest)?;
        let mut game = match &p.start {
            Start::StartPos => G::start(self.rules),
            Start::Fen(text) => G::parse_position(self.rules, text)
                .map_err(|e| format!("position fen {}: {}", quote(text), e))?,
        };
        for (i, m) in p.moves.iter().enumerate() {
            game = play_text(&game, m)
                .map_err(|e| format!("position: move {} {}: {}", i + 1, quote(m), e))?;
        }
        self.game = game;
        Ok(())
    }

    fn set_option(&mut self, rest: &str) -> Result<(), String> {
        let (name, value) = parse_setoption(rest)?;
        let mut cmd = self.cmd.clone();
        let number = |what: &str| {
            value.parse::<usize>().map_err(|_| {
                format!(
                    "setoption {} value {}: expected a whole number",
                    what,
                    quote(&value)
                )
            })
        };
        match name.to_ascii_lowercase().as_str() {
            "hash" => cmd.hash_mb = crate::settings::hash_mb(number("Hash")?, "Hash")?,
            "threads" => cmd.threads = crate::settings::threads(number("Threads")?, "Threads")?,
            "eval" => {
                cmd.eval = Some(value.clone());
            }
            other => {
                if !cmd
                    .switches
                    .set(other, &value.to_ascii_lowercase())
                    .map_err(|e| format!("setoption {e}"))?
                {
                    return Err(format!(
                        "unknown option {}: expected Hash, Threads, Eval, LMR, Extend, Aspiration, \
                         Futility or RFP",
                        quote(&name)
                    ));
                }
            }
        }
        self.ai = Self::player(&cmd)?;
        self.cmd = cmd;
        Ok(())
    }

    fn moves(&self) -> Result<(), String> {
        let moves: Vec<String> = self
            .game
            .legal_moves()
            .iter()
            .map(|&m| self.game.display_move(m).to_string())
            .collect();
        if moves.is_empty() {
            self.say("moves")
        } else {
            self.say(&format!("moves {}", moves.join(" ")))
        }
    }

    fn go(&mut self, rest: &str, input: &Line) -> Result<(), String> {
        let budget = match Go::parse(rest)? {
            Go::Perft(depth) => return self.perft(depth),
            Go::MoveTime(ms) => Budget::Time(ms as f64 / 1000.0),
            Go::Depth(d) => Budget::Depth(d),
            Go::Nodes(n) => Budget::Nodes(n),
            Go::Clock {
                left_ms,
                inc_ms,
                moves_to_go,
            } => {
                let (soft, hard) = clock_allocation(left_ms, inc_ms, moves_to_go);
                Budget::Clock {
                    soft: soft as f64 / 1000.0,
                    hard: hard as f64 / 1000.0,
                }
            }
        };
        if self.game.outcome().is_over() {
            return self.say("bestmove none");
        }
        self.ai.set_budget(budget);
        let clock = WallClock::started_at(input.read_at).with_stop(self.control.flag);
        let game = self.game;
        let mut failed = None;
        self.control.start(input.number);
        let report = self.ai.choose_on(&game, clock, &mut |r| {
            let sent =
                crate::outln!("{}", info_line(&game, r)).and_then(|()| crate::output::flush());
            if let Err(e) = sent {
                failed.get_or_insert(e);
            }
        });
        self.control.end();
        let report = report?;
        if let Some(e) = failed {
            return Err(e);
        }
        match report.best_move {
            Some(m) => self.say(&format!("bestmove {}", game.display_move(m))),
            None => self.say("bestmove none"),
        }
    }

    fn perft(&self, depth: u32) -> Result<(), String> {
        let mut lines = Vec::new();
        let total = ply_core::perft::perft_divide(&self.game, depth, |m, n| {
            lines.push(format!("{}: {}", self.game.display_move(m), n));
        });
        for l in lines {
            self.say(&l)?;
        }
        self.say(&format!("nodes {}", total))
    }
}

/// An `info` line for an iteration the search completed.
fn info_line<G: HostGame>(game: &G, r: &SearchReport<G::Move>) -> String {
    let score = if is_decisive(r.value) {
        let plies = WIN - r.value.abs();
        if r.value > 0 {
            format!("win {}", plies)
        } else {
            format!("loss {}", plies)
        }
    } else {
        format!("cp {}", r.value)
    };
    let pv = crate::commands::search::pv_texts(game, &r.pv, None);
    format!(
        "info depth {} score {} nodes {} nps {} time {} pv {}",
        r.depth,
        score,
        r.nodes,
        crate::commands::rate(r.nodes, r.elapsed_ms as f64 / 1000.0),
        r.elapsed_ms,
        pv.join(" ")
    )
}

/// The rules a game spec names, when it names a variant of `G` (the game a `ply
/// engine` process plays); another game is refused.
struct RulesOf<G>(std::marker::PhantomData<G>);

impl<G> Default for RulesOf<G> {
    fn default() -> Self {
        RulesOf(std::marker::PhantomData)
    }
}

impl<G: HostGame> GameCommand for RulesOf<G> {
    type Output = G::Rules;
    fn run<H: HostGame>(self, rules: H::Rules) -> Result<G::Rules, String> {
        let start: Box<dyn Any> = Box::new(H::start(rules));
        match start.downcast::<G>() {
            Ok(g) => Ok(g.rules()),
            Err(_) => Err(format!("this engine plays {}, not {}", G::NAME, H::NAME)),
        }
    }
}

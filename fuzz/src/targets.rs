//! One function per fuzz target. The libFuzzer binaries in `fuzz_targets/` call these,
//! and `tests/corpus.rs` replays the committed corpus through them. [`ALL`] lists
//! them by name; a new game adds its four targets here and in `fuzz_targets/`.

use arbitrary::{Arbitrary, Unstructured};
use ply_core::games::draughts::{Draughts, Rules as DraughtsRules};
use ply_core::games::halma::{HalmaMove, HalmaRules, WinRule};
use ply_core::games::kalah::{KalahRules, Pit};
use ply_core::games::tictactoe::Square;
use ply_core::games::{Halma16, Halma8, Kalah, TicTacToe};
use ply_core::Game;
use ply_host::commands::play::{play_game, Controller, Play};
use ply_host::commands::player::{Algo, Budget};
use ply_host::commands::tournament::parse_config;
use ply_host::position::{move_texts, setup};
use ply_host::spec::{with_game, GameCommand};
use ply_host::HostGame;

use crate::{check_position, move_text, play, position_text, rules_text, text};

/// A fuzz target: the bytes libFuzzer (or the corpus replay) hands it.
pub type Target = fn(&[u8]);

/// Every target: its name (the `fuzz_targets/NAME.rs` binary and `corpus/NAME/`) and
/// its function.
pub const ALL: &[(&str, Target)] = &[
    ("tictactoe_position", tictactoe_position),
    ("tictactoe_move", tictactoe_move),
    ("tictactoe_rules", tictactoe_rules),
    ("tictactoe_play", tictactoe_play),
    ("kalah_position", kalah_position),
    ("kalah_move", kalah_move),
    ("kalah_rules", kalah_rules),
    ("kalah_play", kalah_play),
    ("draughts_position", draughts_position),
    ("draughts_move", draughts_move),
    ("draughts_rules", draughts_rules),
    ("draughts_play", draughts_play),
    ("halma_position", halma_position),
    ("halma_move", halma_move),
    ("halma_rules", halma_rules),
    ("halma_play", halma_play),
    ("game_spec", game_spec),
    ("cli_options", cli_options),
    ("host_play", host_play),
];

// ---------------------------------------------------------------------------------
// Tic-tac-toe
// ---------------------------------------------------------------------------------

/// Tic-tac-toe position text.
pub fn tictactoe_position(data: &[u8]) {
    position_text::<TicTacToe>((), data);
}

/// Tic-tac-toe move text in a reachable position.
pub fn tictactoe_move(data: &[u8]) {
    move_text::<TicTacToe>((), data, 9);
}

/// Tic-tac-toe rule parameters (it has none: everything but "" is refused).
pub fn tictactoe_rules(data: &[u8]) {
    rules_text::<TicTacToe>(data);
}

/// Tic-tac-toe `play` with arbitrary squares, including ones off the board.
pub fn tictactoe_play(data: &[u8]) {
    play::<TicTacToe>((), data, 64, |_, u| Ok(Some(Square(u8::arbitrary(u)?))));
}

// ---------------------------------------------------------------------------------
// Kalah
// ---------------------------------------------------------------------------------

/// Kalah rules from fuzz bytes: every size the representation allows, both capture
/// rules.
fn kalah_rules_from(u: &mut Unstructured<'_>) -> KalahRules {
    let pits = u.int_in_range(1u8..=8).unwrap_or(6);
    let seeds = u.int_in_range(1u8..=21).unwrap_or(4);
    let empty = bool::arbitrary(u).unwrap_or(false);
    KalahRules::new(pits, seeds)
        .unwrap_or_default()
        .with_empty_capture(empty)
}

/// Kalah position text, under rules chosen by the first bytes.
pub fn kalah_position(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let rules = kalah_rules_from(&mut u);
    position_text::<Kalah>(rules, u.take_rest());
}

/// Kalah move text in a reachable position.
pub fn kalah_move(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let rules = kalah_rules_from(&mut u);
    move_text::<Kalah>(rules, u.take_rest(), 200);
}

/// Kalah rule parameters (`6x4`, `empty-capture`, …).
pub fn kalah_rules(data: &[u8]) {
    rules_text::<Kalah>(data);
}

/// Kalah `play` with arbitrary pits, including empty ones and ones off the board.
pub fn kalah_play(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let rules = kalah_rules_from(&mut u);
    play::<Kalah>(rules, u.take_rest(), 400, |_, u| {
        Ok(Some(Pit(u8::arbitrary(u)?)))
    });
}

// ---------------------------------------------------------------------------------
// Draughts (English and Calgary)
// ---------------------------------------------------------------------------------

/// Draughts rules from fuzz bytes: the rule parameters' own parser on a few words.
fn draughts_rules_from(u: &mut Unstructured<'_>) -> DraughtsRules {
    const PARTS: &[&str] = &[
        "english", "calgary", "unique", "limit=1", "limit=5", "limit=64", "repeat=0", "repeat=2",
        "repeat=3",
    ];
    let n = u.int_in_range(0usize..=3).unwrap_or(0);
    let mut words = Vec::new();
    for _ in 0..n {
        if let Ok(w) = u.choose(PARTS) {
            words.push(*w);
        }
    }
    Draughts::parse_rules(&words.join(":")).unwrap_or_default()
}

/// Draughts position text (PDN FEN), under rules chosen by the first bytes.
pub fn draughts_position(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let rules = draughts_rules_from(&mut u);
    position_text::<Draughts>(rules, u.take_rest());
}

/// Draughts move text (PDN or the Calgary path) in a reachable position.
pub fn draughts_move(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let rules = draughts_rules_from(&mut u);
    move_text::<Draughts>(rules, u.take_rest(), 200);
}

/// Draughts rule parameters (`english`, `calgary`, `limit=N`, `repeat=N`, `unique`).
pub fn draughts_rules(data: &[u8]) {
    rules_text::<Draughts>(data);
}

/// Draughts `play` with arbitrary PDN moves: any squares, simple or jumping.
pub fn draughts_play(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let rules = draughts_rules_from(&mut u);
    play::<Draughts>(rules, u.take_rest(), 300, |g, u| {
        // PDN text from squares 0-33 (off-board ones too), parsed against the
        // position: what parses is then played, legal or not.
        let n = u.int_in_range(2usize..=5)?;
        let sep = if bool::arbitrary(u)? { "x" } else { "-" };
        let squares: Vec<String> = (0..n)
            .map(|_| u.int_in_range(0u8..=33).map(|s| s.to_string()))
            .collect::<Result<_, _>>()?;
        let text = squares.join(sep);
        Ok(g.parse_move(&text).ok())
    });
}

// ---------------------------------------------------------------------------------
// Halma (8×8 and 16×16)
// ---------------------------------------------------------------------------------

/// Halma rules from fuzz bytes: both win rules, no-leave, any draw limit.
fn halma_rules_from(u: &mut Unstructured<'_>) -> HalmaRules {
    let parlett = bool::arbitrary(u).unwrap_or(false);
    let no_leave = bool::arbitrary(u).unwrap_or(false);
    let max_plies = u.int_in_range(1u16..=1000).unwrap_or(1000);
    HalmaRules {
        win: if parlett {
            WinRule::Parlett
        } else {
            WinRule::AllInCamp
        },
        no_leave,
        max_plies,
    }
}

/// Halma position text on the board the first byte picks, under fuzzed rules.
pub fn halma_position(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let big = bool::arbitrary(&mut u).unwrap_or(false);
    let rules = halma_rules_from(&mut u);
    if big {
        position_text::<Halma16>(rules, u.take_rest());
    } else {
        position_text::<Halma8>(rules, u.take_rest());
    }
}

/// Halma move text in a reachable position of either board.
pub fn halma_move(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let big = bool::arbitrary(&mut u).unwrap_or(false);
    let rules = halma_rules_from(&mut u);
    if big {
        move_text::<Halma16>(rules, u.take_rest(), 60);
    } else {
        move_text::<Halma8>(rules, u.take_rest(), 200);
    }
}

/// Halma rule parameters (`16`, `parlett`, `no-leave`, `plies=N`) for both boards.
pub fn halma_rules(data: &[u8]) {
    rules_text::<Halma8>(data);
    rules_text::<Halma16>(data);
}

/// Halma `play` with arbitrary (from, to) pairs, off the board included.
pub fn halma_play(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let big = bool::arbitrary(&mut u).unwrap_or(false);
    let rules = halma_rules_from(&mut u);
    if big {
        play::<Halma16>(rules, u.take_rest(), 80, halma_arbitrary_move);
    } else {
        play::<Halma8>(rules, u.take_rest(), 300, halma_arbitrary_move);
    }
}

/// A Halma move from two raw bytes: any (from, to), off the board included.
fn halma_arbitrary_move<G>(
    _: &G,
    u: &mut Unstructured<'_>,
) -> arbitrary::Result<Option<HalmaMove>> {
    Ok(Some(HalmaMove::new(u8::arbitrary(u)?, u8::arbitrary(u)?)))
}

// ---------------------------------------------------------------------------------
// The host: game specs, option values, the interactive game loop
// ---------------------------------------------------------------------------------

/// Error messages the CLI prints: never empty.
fn check_message(msg: &str) {
    assert!(!msg.trim().is_empty(), "an empty error message");
}

/// Sets a game up the way every command does (`--position`, `--after`).
struct Setup {
    position: Option<String>,
    after: Vec<String>,
}

impl GameCommand for Setup {
    type Output = ();
    fn run<G: HostGame>(self, rules: G::Rules) -> Result<(), String> {
        let g: G = setup(rules, self.position.as_deref(), &self.after)?;
        check_position(&g);
        let _ = g.diagram();
        let _ = move_texts(&g);
        Ok(())
    }
}

/// A game spec (first line), a position (second line, empty for the start) and moves
/// (the remaining lines), through `ply_host::spec::with_game` and the commands' set-up.
pub fn game_spec(data: &[u8]) {
    let t = text(data);
    let mut lines = t.split('\n');
    let spec = lines.next().unwrap_or("");
    let position = lines.next().filter(|p| !p.is_empty()).map(str::to_string);
    let after: Vec<String> = lines.map(str::to_string).collect();
    if let Err(e) = with_game(spec, Setup { position, after }) {
        check_message(&e);
    }
}

/// Parses the option values of one game.
struct Options {
    config: String,
    eval: String,
}

impl GameCommand for Options {
    type Output = ();
    fn run<G: HostGame>(self, _rules: G::Rules) -> Result<(), String> {
        let hash_mb = ply_host::commands::tournament::DEFAULT_HASH_MB;
        if let Err(e) = parse_config::<G>(&self.config, 1, hash_mb) {
            check_message(&e);
        }
        match G::evaluator(Some(&self.eval)) {
            Ok(_) => assert!(
                G::evaluator_names().contains(&self.eval.as_str()),
                "evaluator {:?} accepted but not listed",
                self.eval
            ),
            Err(e) => check_message(&e),
        }
        Ok(())
    }
}

/// CLI option values: `--algo`, `--first`/`--second`, the depth/time/nodes budget,
/// tournament configurations and evaluation names of the game in the first line.
pub fn cli_options(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let depth = Option::<u32>::arbitrary(&mut u).unwrap_or(None);
    let time = Option::<f64>::arbitrary(&mut u).unwrap_or(None);
    let nodes = Option::<u64>::arbitrary(&mut u).unwrap_or(None);
    match Budget::from_options(depth, time, nodes, Budget::Depth(4)) {
        Ok(b) => {
            let _ = b.limits();
        }
        Err(e) => check_message(&e),
    }
    let t = text(u.take_rest());
    let mut lines = t.split('\n');
    let spec = lines.next().unwrap_or("").to_string();
    let algo = lines.next().unwrap_or("");
    if let Err(e) = algo.parse::<Algo>() {
        check_message(&e);
    }
    let controller = lines.next().unwrap_or("");
    if let Err(e) = Controller::parse(controller) {
        check_message(&e);
    }
    let config = lines.next().unwrap_or("").to_string();
    let eval = lines.next().unwrap_or("").to_string();
    if let Err(e) = with_game(&spec, Options { config, eval }) {
        check_message(&e);
    }
}

/// The interactive game: a game spec on the first line, then whatever a user types
/// (two humans, so no search runs), ending at the end of input.
pub fn host_play(data: &[u8]) {
    let t = text(data);
    let (spec, input) = t.split_once('\n').unwrap_or((&t, ""));
    struct Game<'a>(&'a str);
    impl GameCommand for Game<'_> {
        type Output = ();
        fn run<G: HostGame>(self, rules: G::Rules) -> Result<(), String> {
            let opts = Play {
                first: Controller::Human,
                second: Controller::Human,
                position: None,
                depth: None,
                time: None,
                nodes: None,
                eval: None,
                max_plies: 0,
                threads: 1,
                hash_mb: ply_host::commands::play::DEFAULT_HASH_MB,
            };
            let mut input = self.0.as_bytes();
            let mut out = Vec::new();
            play_game::<G>(&opts, rules, &mut input, &mut out).map(drop)
        }
    }
    if let Err(e) = with_game(spec, Game(input)) {
        check_message(&e);
    }
}

//! The fixed AI-versus-AI games and perft runs the firmware plays.
//!
//! This one file is compiled twice: into the firmware (for `thumbv7em-none-eabihf`)
//! and, through `#[path]`, into the host comparison test `tests/tests/firmware.rs`.
//! Both therefore play with exactly the same settings — start position, evaluation,
//! engine configuration, depth, table size — and the same game loop, so any
//! difference in the moves, node counts or perft totals is a difference in how
//! `ply-core` behaves on the two instruction sets.
//!
//! Every game but tic-tac-toe plays with the core's [`Recommended`] evaluation and
//! engine switches, the ones the host and the web page play it with by default.
//!
//! Adding a game: write a `fn` returning its [`Match`] and a `const` for its table
//! size here, call the `fn` from [`all`], and add `src/bin/<name>.rs`: four lines
//! around `ply_firmware_sim::firmware!(<name>, <move type>, <table size const>)`.
//!
//! Everything is `no_std` and allocation-free; only `ply-core` is used.

use ply_core::games::draughts::{Draughts, DraughtsEvaluation, Rules as DraughtsRules};
use ply_core::games::halma::eval::Racer;
use ply_core::games::halma::HalmaRules;
use ply_core::games::kalah::{Kalah, KalahEval, KalahRules};
use ply_core::games::{Halma16, Halma8, TicTacToe};
use ply_core::search::{
    EngineConfig, Evaluator, FnEval, Limits, NoClock, Recommended, Score, SliceEngine,
};
use ply_core::{Game, Outcome};

/// An evaluation that is a plain function: nameable in a `static` or a type.
pub type FnPtrEval<G> = FnEval<fn(&G) -> Score>;

/// One fixed AI-versus-AI game and one perft run of a game.
///
/// The same engine (one transposition table of `tt_slots` entries, one set of
/// killer and history tables) searches every move for both sides, in order, under
/// `limits`; depth limits (no time limit) make the game deterministic.
#[derive(Clone, Copy, Debug)]
pub struct Match<G: Game, E> {
    /// The name: the firmware binary is `src/bin/<name>.rs`.
    pub name: &'static str,
    /// The game spec as the host CLI writes it (`name[:params]`), for the log.
    pub spec: &'static str,
    /// Where the game starts.
    pub start: G,
    /// The evaluation both sides use at the horizon.
    pub eval: E,
    /// The engine's switches.
    pub config: EngineConfig,
    /// The budget of every move's search (a depth: deterministic).
    pub limits: Limits,
    /// Entries of the transposition table (the firmware's is a `static` array).
    pub tt_slots: usize,
    /// The game is stopped, unfinished, after this many plies.
    pub max_plies: u32,
    /// Perft is run from `start` to this depth…
    pub perft_depth: u32,
    /// …and must count this many leaves (a published or independently known count).
    pub perft_expected: u64,
}

/// How a played match ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Finish {
    /// The outcome of the final position (`Ongoing` if `max_plies` stopped it).
    pub outcome: Outcome,
    /// Plies played.
    pub plies: u32,
    /// Nodes searched over all moves of both sides.
    pub nodes: u64,
}

/// One move of a match, as the game loop reports it.
#[derive(Clone, Copy, Debug)]
pub struct MoveRecord<G: Game> {
    /// 1 for the first move of the game.
    pub ply: u32,
    /// The position the move was chosen in.
    pub before: G,
    /// The move played.
    pub mv: G::Move,
    /// The search's value of the move for the side that played it.
    pub value: Score,
    /// The deepest completed iteration.
    pub depth: u32,
    /// Nodes the search of this move visited.
    pub nodes: u64,
}

/// The result as the firmware logs it and the host test expects it.
pub fn result_text(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Ongoing => "unfinished",
        Outcome::Draw => "draw",
        Outcome::Win(ply_core::Player::First) => "first player wins",
        Outcome::Win(ply_core::Player::Second) => "second player wins",
    }
}

/// Plays `m` to its end (or `max_plies`) with `engine` choosing every move, and
/// calls `on_move` after each. Every chosen move goes through the checked
/// [`Game::play`]; an illegal choice, or no choice in an unfinished position, is an
/// error naming what went wrong.
pub fn play<G: Game, E: Evaluator<G>>(
    m: &Match<G, E>,
    engine: &mut SliceEngine<'_, G, &E, NoClock>,
    mut on_move: impl FnMut(&MoveRecord<G>),
) -> Result<Finish, &'static str> {
    let mut game = m.start;
    let mut plies = 0;
    let mut nodes = 0;
    while plies < m.max_plies && !game.outcome().is_over() {
        let report = engine.search(&game, m.limits);
        nodes += report.nodes;
        let Some(mv) = report.best_move else {
            return Err("the engine chose no move in an unfinished game");
        };
        let next = match game.play(mv) {
            Ok(next) => next,
            Err(_) => return Err("the engine chose an illegal move"),
        };
        plies += 1;
        on_move(&MoveRecord {
            ply: plies,
            before: game,
            mv,
            value: report.value,
            depth: report.depth,
            nodes: report.nodes,
        });
        game = next;
    }
    Ok(Finish {
        outcome: game.outcome(),
        plies,
        nodes,
    })
}

/// Receives every match, whatever its game type.
pub trait Visitor {
    /// Called once per match, in the order of [`all`].
    fn visit<G: Game, E: Evaluator<G>>(&mut self, m: Match<G, E>);
}

/// Every match the firmware has, one binary each.
pub fn all(v: &mut impl Visitor) {
    v.visit(tictactoe());
    v.visit(kalah());
    v.visit(checkers());
    v.visit(checkers_calgary());
    v.visit(halma8());
    v.visit(halma16());
}

/// Transposition-table entries for tic-tac-toe (5,478 legal positions in all).
pub const TICTACTOE_TT_SLOTS: usize = 1024;

/// Tic-tac-toe searched to the end of the game (depth 9) with a zero evaluation:
/// perfect play on both sides, so a draw.
pub fn tictactoe() -> Match<TicTacToe, FnPtrEval<TicTacToe>> {
    Match {
        name: "tictactoe",
        spec: "tictactoe",
        start: TicTacToe::new(),
        eval: FnEval(|_| 0),
        config: EngineConfig::default(),
        limits: Limits::depth(9),
        tt_slots: TICTACTOE_TT_SLOTS,
        max_plies: 9,
        // Every game of up to 9 plies: the published 255,168 games end at
        // plies 5–9; perft(9) counts the 127,872 that last all nine.
        perft_depth: 9,
        perft_expected: 127_872,
    }
}

/// Transposition-table entries for Kalah.
pub const KALAH_TT_SLOTS: usize = 1024;

/// Kalah 6×4 (the default rules, docs/games/kalah.md) with ply's evaluation
/// ([`Recommended`]: [`KalahEval`]) at depth 12.
pub fn kalah() -> Match<Kalah, KalahEval> {
    Match {
        name: "kalah",
        spec: "kalah:6x4",
        start: Kalah::new(KalahRules::default()),
        eval: Kalah::evaluation(),
        config: Kalah::engine_config(),
        limits: Limits::depth(12),
        tt_slots: KALAH_TT_SLOTS,
        max_plies: 200,
        // Published counts for Kalah 6×4 (core's kalah tests).
        perft_depth: 8,
        perft_expected: 563_055,
    }
}

/// Transposition-table entries for English draughts: 512 (16-byte entries, 8 KiB).
/// The rest of the 64 KiB holds the stack: the engine and one frame of about
/// 1.25 KiB per searched ply (a 548-byte move list of 8-byte moves, a 160-byte
/// position, the move-ordering buffer), for up to [`CHECKERS_DEPTH`] + 32
/// (quiescence) plies; the depth-10 games reach a stack high-water mark of about
/// 36 KiB (docs/firmware.md). With 12-byte moves and the move list copied per node
/// (1.9 KiB a ply) depth 6 was the limit set.
pub const CHECKERS_TT_SLOTS: usize = 512;

/// English draughts (the seed's rules: draw on the third repetition or after 40
/// moves a side without a man move or capture) with what the host plays draughts
/// with ([`Recommended`]: the learned evaluation, late move reductions on) at depth
/// [`CHECKERS_DEPTH`], quiescence on captures.
pub fn checkers() -> Match<Draughts, DraughtsEvaluation> {
    Match {
        name: "checkers",
        spec: "checkers",
        start: Draughts::new(DraughtsRules::english()),
        eval: Draughts::evaluation(),
        config: Draughts::engine_config(),
        limits: Limits::depth(CHECKERS_DEPTH),
        tt_slots: CHECKERS_TT_SLOTS,
        max_plies: 400,
        // Published (Bik; OEIS A133046; tests/data/checkers_perft.txt).
        perft_depth: 6,
        perft_expected: 36_768,
    }
}

/// Search depth of both draughts games (6 until the stack per searched ply
/// shrank; see [`CHECKERS_TT_SLOTS`]).
pub const CHECKERS_DEPTH: u32 = 10;

/// Transposition-table entries for Calgary draughts (as [`CHECKERS_TT_SLOTS`]).
pub const CHECKERS_CALGARY_TT_SLOTS: usize = 512;

/// Calgary draughts (repetitions illegal, draw after 64 moves a side without a man
/// move or capture: the longest limit the 128-entry king-move history allows) with
/// the same evaluation, engine switches and depth as English.
pub fn checkers_calgary() -> Match<Draughts, DraughtsEvaluation> {
    Match {
        name: "checkers_calgary",
        spec: "checkers:calgary",
        start: Draughts::new(DraughtsRules::calgary()),
        eval: Draughts::evaluation(),
        config: Draughts::engine_config(),
        limits: Limits::depth(CHECKERS_DEPTH),
        tt_slots: CHECKERS_CALGARY_TT_SLOTS,
        max_plies: 400,
        // The first depth where Calgary differs from English (3,963,680): no
        // repetition draw, but a king may not repeat a position (computed
        // independently; tests/data/checkers_perft.txt).
        perft_depth: 9,
        perft_expected: 3_963_629,
    }
}

/// Transposition-table entries for Halma 8×8.
pub const HALMA8_TT_SLOTS: usize = 1024;

/// Halma 8×8 (the rules of the Haskell Halma report, docs/references.md; draw after
/// 1000 plies) with ply's `Racer`
/// evaluation ([`Recommended`]: `Racer::DEFAULT`) at depth [`HALMA8_DEPTH`] (even: `Racer` values positions for the side
/// to move).
pub fn halma8() -> Match<Halma8, Racer> {
    Match {
        name: "halma8",
        spec: "halma:8",
        start: Halma8::new(HalmaRules::default()),
        eval: Halma8::evaluation(),
        config: Halma8::engine_config(),
        limits: Limits::depth(HALMA8_DEPTH),
        tt_slots: HALMA8_TT_SLOTS,
        max_plies: 1000,
        // docs/games/halma.md, computed independently by two programs.
        perft_depth: 3,
        perft_expected: 20_050,
    }
}

/// Search depth of Halma 8×8.
pub const HALMA8_DEPTH: u32 = 2;

/// Transposition-table entries for Halma 16×16: 512 (12 KiB), so that the 2.7 KiB
/// move list of every searched ply fits the stack.
pub const HALMA16_TT_SLOTS: usize = 512;

/// Halma 16×16 (the rules of the C++ Halma README, docs/references.md; draw after
/// 1000 plies) with `Racer` at depth
/// [`HALMA16_DEPTH`]: the second player wins after 212 plies (about 35 s under QEMU).
/// Depth 1 is cheaper but never finishes (a draw by the 1000-ply limit): `Racer`
/// values positions for the side to move, which is right at even depths.
pub fn halma16() -> Match<Halma16, Racer> {
    Match {
        name: "halma16",
        spec: "halma:16",
        start: Halma16::new(HalmaRules::default()),
        eval: Halma16::evaluation(),
        config: Halma16::engine_config(),
        limits: Limits::depth(HALMA16_DEPTH),
        tt_slots: HALMA16_TT_SLOTS,
        max_plies: 1000,
        // docs/games/halma.md, computed independently by two programs.
        perft_depth: 3,
        perft_expected: 85_440,
    }
}

/// Search depth of Halma 16×16.
pub const HALMA16_DEPTH: u32 = 2;

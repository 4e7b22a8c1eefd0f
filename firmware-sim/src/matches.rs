//! The fixed AI-versus-AI games and perft runs the firmware plays.
//!
//! This one file is compiled twice: into the firmware (for each [`Target`]) and,
//! through `#[path]`, into the host comparison test `tests/tests/firmware.rs`.
//! Both therefore play with exactly the same settings — start position, evaluation,
//! engine configuration, depth, table size — and the same game loop, so any
//! difference in the moves, node counts or perft totals is a difference in how
//! `ply-core` behaves on the two instruction sets.
//!
//! Every game but tic-tac-toe plays with the core's [`Recommended`] evaluation and
//! engine switches, the ones the host and the web page play it with by default —
//! except draughts' evaluation, the learned linear one on the firmware
//! ([`FIRMWARE_DRAUGHTS_EVAL`]), with the endgame databases of up to 2 pieces
//! compiled in for English draughts ([`firmware_draughts_eval`]).
//!
//! The games are one list for every target: only the search depth and the
//! transposition table's size depend on the target (its RAM), through one
//! [`Budgets`] row per game — the table of depth per game per target.
//!
//! Adding a game: write a `fn` returning its [`Match`] for a [`Target`] and a
//! [`Budgets`] `const` for its depth and table size here, call the `fn` from
//! [`all`], and add `src/bin/<name>.rs`: four lines around
//! `ply_firmware_sim::firmware!(<name>, <move type>, <budgets const>)`.
//!
//! Everything is `no_std` and allocation-free; only `ply-core` is used.

use ply_core::games::draughts::db::{small, DbEval};
use ply_core::games::draughts::{Draughts, DraughtsEvaluation, Rules as DraughtsRules};
use ply_core::games::halma::eval::Racer;
use ply_core::games::halma::HalmaRules;
use ply_core::games::kalah::{Kalah, KalahEval, KalahRules};
use ply_core::games::{Halma16, Halma8, TicTacToe};
use ply_core::search::engine::HISTORY_SLOTS;
use ply_core::search::{
    EngineConfig, Evaluator, FnEval, Limits, NoClock, Recommended, Score, SliceEngine, MAX_PLY,
};
use ply_core::{Game, Outcome};

/// An evaluation that is a plain function: nameable in a `static` or a type.
pub type FnPtrEval<G> = FnEval<fn(&G) -> Score>;

/// A machine the firmware is built for: the Rust target is the build choice
/// (`cargo build --target …` in `firmware-sim/`), and the firmware knows its own
/// as `ply_firmware_sim::TARGET`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// Cortex-M4F, 256 KiB of flash and 64 KiB of RAM (QEMU `mps2-an386`).
    CortexM4,
    /// Cortex-M0, 256 KiB of flash and 16 KiB of RAM: the nRF51822 of QEMU's
    /// `microbit`.
    CortexM0,
    /// 32-bit RISC-V (RV32IMAC), 16 KiB of RAM: QEMU's `sifive_e` (FE310).
    Riscv32,
}

impl Target {
    /// Every target, in the order the tables list them.
    pub const ALL: [Target; 3] = [Target::CortexM4, Target::CortexM0, Target::Riscv32];

    /// The name the scripts and logs use.
    pub const fn name(self) -> &'static str {
        match self {
            Target::CortexM4 => "cortex-m4",
            Target::CortexM0 => "cortex-m0",
            Target::Riscv32 => "riscv32",
        }
    }

    /// The Rust target triple.
    pub const fn triple(self) -> &'static str {
        match self {
            Target::CortexM4 => "thumbv7em-none-eabihf",
            Target::CortexM0 => "thumbv6m-none-eabi",
            Target::Riscv32 => "riscv32imac-unknown-none-elf",
        }
    }

    /// Bytes of RAM of the part: static data and the stack share it.
    pub const fn ram_bytes(self) -> usize {
        match self {
            Target::CortexM4 => 64 << 10,
            Target::CortexM0 | Target::Riscv32 => 16 << 10,
        }
    }

    /// The plies of the engine's killer table (its `KILLERS` parameter): every ply
    /// on the M4, as on the host; on the 16 KiB parts the plies their deepest
    /// searches reach (the depth and the quiescence plies of their [`Budgets`],
    /// with room to spare), 2.2 KiB less for draughts.
    pub const fn killer_plies(self) -> usize {
        match self {
            Target::CortexM4 => MAX_PLY,
            Target::CortexM0 | Target::Riscv32 => SMALL_KILLER_PLIES,
        }
    }

    /// The engine's history slots per side (its `HISTORY` parameter): the host's
    /// 512 on the M4; on the 16 KiB parts 128, 3 KiB less (moves fold into
    /// fewer counters: the search differs from 512 slots, and the host test
    /// searches with the same 128).
    pub const fn history_slots(self) -> usize {
        match self {
            Target::CortexM4 => HISTORY_SLOTS,
            Target::CortexM0 | Target::Riscv32 => SMALL_HISTORY_SLOTS,
        }
    }
}

/// [`Target::killer_plies`] on the 16 KiB parts.
pub const SMALL_KILLER_PLIES: usize = 16;

/// [`Target::history_slots`] on the 16 KiB parts.
pub const SMALL_HISTORY_SLOTS: usize = 128;

/// How deep a game searches on one target, and with how large a table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// The depth of every move's search.
    pub depth: u32,
    /// Entries of the transposition table (16 bytes each, a `static` array).
    pub tt_slots: usize,
    /// At most this many plies of quiescence below the horizon
    /// ([`EngineConfig::max_quiescence_plies`]; 32, the default, where the stack
    /// has room).
    pub quiescence_plies: u32,
}

/// One game's [`Budget`] on every [`Target`]: a row of the table of depth per
/// game per target (docs/firmware.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budgets {
    /// On the Cortex-M4F (64 KiB of RAM).
    pub cortex_m4: Budget,
    /// On the Cortex-M0 (16 KiB of RAM).
    pub cortex_m0: Budget,
    /// On 32-bit RISC-V (16 KiB of RAM).
    pub riscv32: Budget,
}

impl Budgets {
    /// The budget on `target`.
    pub const fn on(&self, target: Target) -> Budget {
        match target {
            Target::CortexM4 => self.cortex_m4,
            Target::CortexM0 => self.cortex_m0,
            Target::Riscv32 => self.riscv32,
        }
    }
}

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
pub fn play<G: Game, E: Evaluator<G>, const KILLERS: usize, const HISTORY: usize>(
    m: &Match<G, E>,
    engine: &mut SliceEngine<'_, G, &E, NoClock, KILLERS, HISTORY>,
    mut on_move: impl FnMut(&MoveRecord<G>),
) -> Result<Finish, &'static str> {
    let mut game = m.start;
    let mut plies = 0;
    let mut nodes = 0;
    while plies < m.max_plies && !game.outcome().is_over() {
        let (mv, report_nodes, value, depth) = search(engine, &game, m.limits);
        nodes += report_nodes;
        let Some(mv) = mv else {
            return Err("the engine chose no move in an unfinished game");
        };
        let Some(next) = play_checked(&game, mv) else {
            return Err("the engine chose an illegal move");
        };
        plies += 1;
        on_move(&MoveRecord {
            ply: plies,
            before: game,
            mv,
            value,
            depth,
            nodes: report_nodes,
        });
        game = next;
    }
    Ok(Finish {
        outcome: game.outcome(),
        plies,
        nodes,
    })
}

/// One move's search: the move chosen, the nodes searched, the value and the
/// depth reached. Out of line, so that on the firmware the search's own locals
/// (the root's move list, the report) are one frame on the stack, not part of
/// the caller's frame beside everything else it does.
#[inline(never)]
fn search<G: Game, E: Evaluator<G>, const KILLERS: usize, const HISTORY: usize>(
    engine: &mut SliceEngine<'_, G, &E, NoClock, KILLERS, HISTORY>,
    game: &G,
    limits: Limits,
) -> (Option<G::Move>, u64, Score, u32) {
    let report = engine.search(game, limits);
    (report.best_move, report.nodes, report.value, report.depth)
}

/// `game` after `mv` through the checked [`Game::play`] (`None`: illegal). Out
/// of line for the same reason as [`search`]: its legal-move list is off the
/// search's stack.
#[inline(never)]
fn play_checked<G: Game>(game: &G, mv: G::Move) -> Option<G> {
    game.play(mv).ok()
}

/// Receives every match, whatever its game type.
pub trait Visitor {
    /// Called once per match, in the order of [`all`].
    fn visit<G: Game, E: Evaluator<G>>(&mut self, m: Match<G, E>);
}

/// Every match the firmware has on `target`, one binary each.
pub fn all(target: Target, v: &mut impl Visitor) {
    v.visit(tictactoe(target));
    v.visit(kalah(target));
    v.visit(checkers(target));
    v.visit(checkers_db(target));
    v.visit(checkers_calgary(target));
    v.visit(halma8(target));
    v.visit(halma16(target));
}

/// Every game's [`Budgets`], by name, in the order of [`all`].
pub const BUDGETS: [(&str, Budgets); 7] = [
    ("tictactoe", TICTACTOE),
    ("kalah", KALAH),
    ("checkers", CHECKERS),
    ("checkers_db", CHECKERS_DB),
    ("checkers_calgary", CHECKERS_CALGARY),
    ("halma8", HALMA8),
    ("halma16", HALMA16),
];

/// Tic-tac-toe: the whole game (depth 9) everywhere; 5,478 legal positions in
/// all, so 1024 slots on the M4 and what fits beside the stack on the small parts.
pub const TICTACTOE: Budgets = Budgets {
    cortex_m4: Budget {
        depth: 9,
        tt_slots: 1024,
        quiescence_plies: 32,
    },
    cortex_m0: Budget {
        depth: 9,
        tt_slots: 64,
        quiescence_plies: 32,
    },
    riscv32: Budget {
        depth: 9,
        tt_slots: 64,
        quiescence_plies: 32,
    },
};

/// Tic-tac-toe searched to the end of the game (depth 9) with a zero evaluation:
/// perfect play on both sides, so a draw.
pub fn tictactoe(target: Target) -> Match<TicTacToe, FnPtrEval<TicTacToe>> {
    let b = TICTACTOE.on(target);
    Match {
        name: "tictactoe",
        spec: "tictactoe",
        start: TicTacToe::new(),
        eval: FnEval(|_| 0),
        config: EngineConfig {
            max_quiescence_plies: b.quiescence_plies,
            ..EngineConfig::default()
        },
        limits: Limits::depth(b.depth),
        tt_slots: b.tt_slots,
        max_plies: 9,
        // Every game of up to 9 plies: the published 255,168 games end at
        // plies 5–9; perft(9) counts the 127,872 that last all nine.
        perft_depth: 9,
        perft_expected: 127_872,
    }
}

/// Kalah 6×4: depth 12 with 1024 slots on the M4.
pub const KALAH: Budgets = Budgets {
    cortex_m4: Budget {
        depth: 12,
        tt_slots: 1024,
        quiescence_plies: 32,
    },
    cortex_m0: Budget {
        depth: 12,
        tt_slots: 64,
        quiescence_plies: 32,
    },
    riscv32: Budget {
        depth: 12,
        tt_slots: 64,
        quiescence_plies: 32,
    },
};

/// Kalah 6×4 (the default rules, docs/games/kalah.md) with ply's evaluation
/// ([`Recommended`]: [`KalahEval`]) at the depth of [`KALAH`].
pub fn kalah(target: Target) -> Match<Kalah, KalahEval> {
    let b = KALAH.on(target);
    Match {
        name: "kalah",
        spec: "kalah:6x4",
        start: Kalah::new(KalahRules::default()),
        eval: Kalah::evaluation(),
        config: EngineConfig {
            max_quiescence_plies: b.quiescence_plies,
            ..Kalah::engine_config()
        },
        limits: Limits::depth(b.depth),
        tt_slots: b.tt_slots,
        max_plies: 200,
        // Published counts for Kalah 6×4 (core's kalah tests).
        perft_depth: 8,
        perft_expected: 563_055,
    }
}

/// English draughts: on the M4 512 slots (16-byte entries, 8 KiB) and depth 10.
/// The rest of the 64 KiB holds the stack: the engine and one frame of about
/// 1.25 KiB per searched ply (a 548-byte move list of 8-byte moves, a 160-byte
/// position, the move-ordering buffer), for up to the depth + 32 (quiescence)
/// plies; the depth-10 games reach a stack high-water mark of about 33 KiB
/// (docs/firmware.md). On the 16 KiB parts, with the engine's tables sized for
/// them ([`Target::killer_plies`], [`Target::history_slots`]): depth 6 with two
/// plies of quiescence, 15.4 KiB of stack on the M0 (a third quiescence ply
/// would need about 1.3 KiB more).
pub const CHECKERS: Budgets = Budgets {
    cortex_m4: Budget {
        depth: 10,
        tt_slots: 512,
        quiescence_plies: 32,
    },
    cortex_m0: Budget {
        depth: 6,
        tt_slots: 16,
        quiescence_plies: 2,
    },
    riscv32: Budget {
        depth: 6,
        tt_slots: 16,
        quiescence_plies: 2,
    },
};

/// English draughts (the seed's rules: draw on the third repetition or after 40
/// moves a side without a man move or capture) with the engine switches the host
/// plays draughts with ([`Recommended`]: late move reductions, futility pruning) and
/// the learned linear evaluation ([`FIRMWARE_DRAUGHTS_EVAL`]) at the depth of
/// [`CHECKERS`], quiescence on captures; every position of up to 2 pieces exact
/// ([`firmware_draughts_eval`]).
pub fn checkers(target: Target) -> Match<Draughts, FirmwareDraughtsEval> {
    let b = CHECKERS.on(target);
    Match {
        name: "checkers",
        spec: "checkers",
        start: Draughts::new(DraughtsRules::english()),
        eval: firmware_draughts_eval(),
        config: EngineConfig {
            max_quiescence_plies: b.quiescence_plies,
            ..Draughts::engine_config()
        },
        limits: Limits::depth(b.depth),
        tt_slots: b.tt_slots,
        max_plies: 400,
        // Published (Bik; OEIS A133046; tests/data/checkers_perft.txt).
        perft_depth: 6,
        perft_expected: 36_768,
    }
}

/// The English draughts evaluation of the firmware: [`FIRMWARE_DRAUGHTS_EVAL`]
/// with every position of up to 2 pieces exact, from the databases compiled into
/// the core ([`small::PLAIN_DATABASE`]: 7,764 bytes of flash, a byte a position,
/// no inflation), probed as the host's `--eval learned-db` probes those on disk.
/// Not 3 pieces: compressed (53,937 bytes) with their inflation code the checkers
/// firmware took 292,256 bytes of the Cortex-M4's 262,144 of flash, and a probe
/// inflates on the stack with about 12 KB where the 16 KiB parts' deepest
/// draughts search leaves 540 B (M0) and 1,496 B (RISC-V) free; plain they are
/// 261,224 bytes (docs/firmware.md).
pub type FirmwareDraughtsEval = DbEval<'static, DraughtsEvaluation, { small::PLAIN_SLOTS }>;

/// [`FirmwareDraughtsEval`]: the same on every target.
pub fn firmware_draughts_eval() -> FirmwareDraughtsEval {
    DbEval {
        db: &small::PLAIN_DATABASE,
        eval: FIRMWARE_DRAUGHTS_EVAL,
    }
}

/// A won ending of 2 pieces: as [`CHECKERS`].
pub const CHECKERS_DB: Budgets = CHECKERS;

/// The start of [`checkers_db`]: Lasker's diagram 88 (docs/references.md), White
/// king on 32, Black king on 26, White to move: White wins by 32-27 only (32-28
/// draws), the capture that ends the game 9 plies away at best (`ply solve
/// checkers --position W:WK32:BK26`). King against king is not always a draw.
pub const CHECKERS_DB_START: &str = "W:WK32:BK26";

/// English draughts from a won ending of 2 pieces ([`CHECKERS_DB_START`]), as
/// [`checkers`] plays: from the databases, White wins in the 9 plies they give,
/// each move's value theirs (`tests/tests/firmware.rs` checks it against the
/// host's databases).
pub fn checkers_db(target: Target) -> Match<Draughts, FirmwareDraughtsEval> {
    let Ok(start) = Draughts::parse_position(DraughtsRules::english(), CHECKERS_DB_START) else {
        panic!("CHECKERS_DB_START is not a position")
    };
    Match {
        name: "checkers_db",
        spec: "checkers",
        start,
        max_plies: 200,
        // White's king on 32 has two neighbours, 27 and 28, both free.
        perft_depth: 1,
        perft_expected: 2,
        ..checkers(target)
    }
}

/// The draughts evaluation of the firmware: the learned linear one, not the
/// network the host plays with ([`Recommended`]). Without the host's byte
/// multiply-adds the network costs the Cortex-M4 so much more a node that the
/// Calgary game at depth 10 overran QEMU's 300 s (214 of its 254 moves played);
/// the Cortex-M0 and RISC-V games finished (docs/firmware.md).
pub const FIRMWARE_DRAUGHTS_EVAL: DraughtsEvaluation = DraughtsEvaluation::LEARNED;

/// Calgary draughts: as [`CHECKERS`].
pub const CHECKERS_CALGARY: Budgets = CHECKERS;

/// Calgary draughts (repetitions illegal, draw after 64 moves a side without a man
/// move or capture: the longest limit the 128-entry king-move history allows) with
/// the same evaluation and engine switches as English, at the depth of
/// [`CHECKERS_CALGARY`].
pub fn checkers_calgary(target: Target) -> Match<Draughts, DraughtsEvaluation> {
    let b = CHECKERS_CALGARY.on(target);
    Match {
        name: "checkers_calgary",
        spec: "checkers:calgary",
        start: Draughts::new(DraughtsRules::calgary()),
        eval: FIRMWARE_DRAUGHTS_EVAL,
        config: EngineConfig {
            max_quiescence_plies: b.quiescence_plies,
            ..Draughts::engine_config()
        },
        limits: Limits::depth(b.depth),
        tt_slots: b.tt_slots,
        max_plies: 400,
        // The first depth where Calgary differs from English (3,963,680): no
        // repetition draw, but a king may not repeat a position (computed
        // independently; tests/data/checkers_perft.txt).
        perft_depth: 9,
        perft_expected: 3_963_629,
    }
}

/// Halma 8×8: depth 2 everywhere (even: `Racer` values positions for the side to
/// move).
pub const HALMA8: Budgets = Budgets {
    cortex_m4: Budget {
        depth: 2,
        tt_slots: 1024,
        quiescence_plies: 32,
    },
    cortex_m0: Budget {
        depth: 2,
        tt_slots: 128,
        quiescence_plies: 32,
    },
    riscv32: Budget {
        depth: 2,
        tt_slots: 128,
        quiescence_plies: 32,
    },
};

/// Halma 8×8 (the rules of the Haskell Halma report, docs/references.md; draw after
/// 1000 plies) with ply's `Racer` evaluation ([`Recommended`]: `Racer::DEFAULT`) at
/// the depth of [`HALMA8`].
pub fn halma8(target: Target) -> Match<Halma8, Racer> {
    let b = HALMA8.on(target);
    Match {
        name: "halma8",
        spec: "halma:8",
        start: Halma8::new(HalmaRules::default()),
        eval: Halma8::evaluation(),
        config: EngineConfig {
            max_quiescence_plies: b.quiescence_plies,
            ..Halma8::engine_config()
        },
        limits: Limits::depth(b.depth),
        tt_slots: b.tt_slots,
        max_plies: 1000,
        // docs/games/halma.md, computed independently by two programs.
        perft_depth: 3,
        perft_expected: 20_050,
    }
}

/// Halma 16×16: depth 2 everywhere; on the M4 512 slots (8 KiB), so that the
/// 2.7 KiB move list of every searched ply fits the stack. `Racer` values
/// positions for the side to move, which is right at even depths.
pub const HALMA16: Budgets = Budgets {
    cortex_m4: Budget {
        depth: 2,
        tt_slots: 512,
        quiescence_plies: 32,
    },
    cortex_m0: Budget {
        depth: 2,
        tt_slots: 32,
        quiescence_plies: 32,
    },
    riscv32: Budget {
        depth: 2,
        tt_slots: 32,
        quiescence_plies: 32,
    },
};

/// Halma 16×16 (the rules of the C++ Halma README, docs/references.md; draw after
/// 1000 plies) with `Racer` at the depth of [`HALMA16`].
pub fn halma16(target: Target) -> Match<Halma16, Racer> {
    let b = HALMA16.on(target);
    Match {
        name: "halma16",
        spec: "halma:16",
        start: Halma16::new(HalmaRules::default()),
        eval: Halma16::evaluation(),
        config: EngineConfig {
            max_quiescence_plies: b.quiescence_plies,
            ..Halma16::engine_config()
        },
        limits: Limits::depth(b.depth),
        tt_slots: b.tt_slots,
        max_plies: 1000,
        // docs/games/halma.md, computed independently by two programs.
        perft_depth: 3,
        perft_expected: 85_440,
    }
}

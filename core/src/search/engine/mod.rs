//! The engine: alpha-beta as real programs run it, and the only one in ply beyond
//! the plain references [`minimax`](mod@super::minimax) and
//! [`alphabeta`](mod@super::alphabeta). One thread runs one [`Engine`]; the host's
//! multi-core search runs several over one shared table (Lazy SMP, ABDADA).
//!
//! * iterative deepening, one iteration per ply, under a [`Limits`] budget of depth,
//!   nodes and time. A fixed time a move is spent whole: each iteration starts while
//!   time is left, and one cut short by the limit still gives its result where a
//!   move searched in full beat the previous best. Under a game clock's soft limit
//!   no iteration starts after it while the best move is stable, and the cutoff
//!   stretches after the best move changed ([`Limits::soft_ms`]);
//! * the time limit is hard: the clock is read every few nodes, the interval adapting
//!   so that at most about a millisecond passes between two readings at any node rate
//!   (every node when nodes are slow): a search returns at most 2 ms, or two nodes'
//!   time when a node takes longer, after its limit. The clock can also ask the search
//!   to stop (another thread finished, the user pressed Ctrl-C);
//! * a transposition table behind the [`Table`] trait — the caller-memory
//!   [`TranspositionTable`] or the host's lock-free shared one: hash move, bound
//!   cutoffs;
//! * move ordering: hash move, then the game's hint (captures, extra turns), killer
//!   moves (two per ply), and the history heuristic;
//! * principal variation search (null windows after the first move);
//! * quiescence: at the horizon a non-quiet position ([`Game::is_quiet`]) is searched
//!   on until it is quiet, so a pending capture is never mis-evaluated;
//! * for parallel search: ABDADA's deferral of moves another thread is searching,
//!   at the root as at inner nodes ([`EngineConfig::abdada`]), and a different root
//!   order per helper thread
//!   ([`EngineConfig::helper`]);
//! * endgame tables: a position whose exact value the evaluation knows
//!   ([`Evaluator::exact`]) is not searched further ([`EngineConfig::probes`]);
//! * the principal variation, read back from the table.
//!
//! Values are for the side to move at each node (negamax); the evaluation is asked
//! for the root player's view and turned by [`leaf_value`], so the perspective is
//! fixed by the search, never by its caller. Table keys fold that player in.
//!
//! The engine's switches ([`EngineConfig`]) are in `config.rs`, the killer and history
//! tables in `history.rs`, the move-ordering buffer in `order.rs`, the table in
//! [`tt`](mod@super::tt). Here the search itself, one part a file, read top to
//! bottom: this file holds the engine and its iterative deepening; `root.rs` the
//! root iterations and their aspiration windows; `node.rs` the search below the
//! root; `deferral.rs` ABDADA's deferral of busy moves; `budget.rs` the node and
//! time budget; `pv.rs` the principal variation read back from the table.
//!
//! Nothing allocates: the killer and history tables live in the [`Engine`] value,
//! and move ordering uses a small stack buffer.

mod budget;
mod deferral;
mod node;
mod pv;
mod root;

use crate::game::{Game, Player};
use crate::search::eval::leaf_value;

use crate::search::clock::SOFT_STRETCH_PERCENT;
pub use crate::search::config::{
    EngineConfig, TtCutoff, LMR_DEEPER_AFTER, LMR_FULL_MOVES, LMR_MIN_DEPTH, PRUNE_MAX_DEPTH,
};
use crate::search::history::Heuristics;
pub use crate::search::history::{history_slot, history_slot_of_bytes, HISTORY_SLOTS};
use crate::search::tt::{Table, TranspositionTable, TtEntry};
use crate::search::{Clock, Evaluator, Limits, Score, MAX_PLY};

/// Longest principal variation reported.
pub const MAX_PV: usize = 32;

/// ABDADA defers moves only at nodes with at least this many plies left.
pub const ABDADA_MIN_DEPTH: u32 = 3;

/// Folded into every table key when the root player is the second player: a value
/// depends on whose evaluation made it, so two searches for different players never
/// share an entry.
const SECOND_PLAYER_KEY: u64 = 0x6a09_e667_f3bc_c909;

/// The result of [`Engine::search`], also passed to the progress callback after
/// each completed iteration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchReport<M> {
    /// The move to play; `None` only if the game is over at the root.
    pub best_move: Option<M>,
    /// Its value for the side to move.
    pub value: Score,
    /// The deepest completed iteration.
    pub depth: u32,
    /// Nodes visited in the whole search (all iterations).
    pub nodes: u64,
    /// The principal variation, starting with `best_move`.
    pub pv: heapless::Vec<M, MAX_PV>,
    /// True if the budget ran out (or a stop was asked for) inside an iteration.
    pub aborted: bool,
    /// Milliseconds by the clock when the report was made.
    pub elapsed_ms: u64,
}

/// The engine over a table in a caller's slice, as [`Engine::new`] (or, with
/// smaller killer and history tables, [`Engine::new_sized`]) makes it: the no_std,
/// single-thread form the firmware uses.
pub type SliceEngine<
    't,
    G,
    E,
    C,
    const KILLERS: usize = MAX_PLY,
    const HISTORY: usize = HISTORY_SLOTS,
> = Engine<G, E, C, TranspositionTable<&'t mut [TtEntry]>, KILLERS, HISTORY>;

/// An iterative-deepening alpha-beta engine over a transposition table `T`.
///
/// Its own memory is fixed by two sizes, which only a part with little RAM
/// changes (the defaults are every host's engine):
///
/// * `KILLERS`: the plies that keep killer moves (two a ply). Beyond it a node is
///   ordered by hint and history alone; a search that never goes that deep
///   searches exactly as with [`MAX_PLY`] plies.
/// * `HISTORY`: the history table's slots per side ([`HISTORY_SLOTS`], 512, by
///   default); a smaller table folds [`Game::history_slot`] into its slots
///   (modulo `HISTORY`), so moves share counters and the search can differ.
///
/// With [`MAX_PLY`] and [`HISTORY_SLOTS`] they take `MAX_PLY × 2` moves and 4 KiB.
pub struct Engine<
    G: Game,
    E,
    C,
    T,
    const KILLERS: usize = MAX_PLY,
    const HISTORY: usize = HISTORY_SLOTS,
> {
    tt: T,
    eval: E,
    clock: C,
    config: EngineConfig,
    /// Killer moves and the history heuristic.
    heuristics: Heuristics<G, KILLERS, HISTORY>,
    nodes: u64,
    limits: Limits,
    aborted: bool,
    /// The root player: the evaluation's perspective.
    me: Player,
    key_salt: u64,
    next_check: u64,
    check_interval: u64,
    last_check_us: u64,
}

impl<'t, G: Game, E: Evaluator<G>, C: Clock>
    Engine<G, E, C, TranspositionTable<&'t mut [TtEntry]>>
{
    /// An engine using `tt_slots` as its transposition table (cleared), `eval` for
    /// positions at the horizon and `clock` for time limits.
    pub fn new(tt_slots: &'t mut [TtEntry], eval: E, clock: C, config: EngineConfig) -> Self {
        Engine::new_sized(tt_slots, eval, clock, config)
    }
}

impl<'t, G: Game, E: Evaluator<G>, C: Clock, const KILLERS: usize, const HISTORY: usize>
    Engine<G, E, C, TranspositionTable<&'t mut [TtEntry]>, KILLERS, HISTORY>
{
    /// [`Engine::new`] with killer moves for `KILLERS` plies and `HISTORY` history
    /// slots (a part with little RAM: see [`Engine`]).
    pub fn new_sized(tt_slots: &'t mut [TtEntry], eval: E, clock: C, config: EngineConfig) -> Self {
        Engine::with_table_sized(TranspositionTable::new(tt_slots), eval, clock, config)
    }
}

impl<G: Game, E: Evaluator<G>, C: Clock, T: Table> Engine<G, E, C, T> {
    /// An engine over `table` as it is (not cleared: a table kept from move to move,
    /// or one shared with other engines).
    pub fn with_table(table: T, eval: E, clock: C, config: EngineConfig) -> Self {
        Engine::with_table_sized(table, eval, clock, config)
    }
}

impl<G: Game, E: Evaluator<G>, C: Clock, T: Table, const KILLERS: usize, const HISTORY: usize>
    Engine<G, E, C, T, KILLERS, HISTORY>
{
    /// [`Engine::with_table`] with killer moves for `KILLERS` plies and `HISTORY`
    /// history slots (a part with little RAM: see [`Engine`]).
    // Out of line, so that the engine is built where the caller keeps it: inlined,
    // the history table was built beside it and copied over (4 KiB more stack on
    // the Cortex-M firmware, whose RAM is as small as 16 KiB).
    #[inline(never)]
    pub fn with_table_sized(table: T, eval: E, clock: C, config: EngineConfig) -> Self {
        const {
            assert!(HISTORY > 0, "the history table needs at least one slot");
        }
        Engine {
            tt: table,
            eval,
            clock,
            config,
            heuristics: Heuristics::new(),
            nodes: 0,
            limits: Limits::depth(1),
            aborted: false,
            me: Player::First,
            key_salt: 0,
            next_check: 0,
            check_interval: 1,
            last_check_us: 0,
        }
    }

    /// The evaluation in use.
    pub fn evaluator(&self) -> &E {
        &self.eval
    }

    /// The clock in use (the host resets it before each move).
    pub fn clock_mut(&mut self) -> &mut C {
        &mut self.clock
    }

    /// The transposition table.
    pub fn table(&self) -> &T {
        &self.tt
    }

    /// The configuration.
    pub fn config(&self) -> &EngineConfig {
        &self.config
    }

    /// Searches `game` under `limits` and returns the best move found.
    pub fn search(&mut self, game: &G, limits: Limits) -> SearchReport<G::Move> {
        self.search_with_progress(game, limits, |_| {})
    }

    /// Like [`Engine::search`], calling `progress` after every completed iteration.
    pub fn search_with_progress(
        &mut self,
        game: &G,
        limits: Limits,
        mut progress: impl FnMut(&SearchReport<G::Move>),
    ) -> SearchReport<G::Move> {
        self.tt.new_search();
        self.nodes = 0;
        self.aborted = false;
        self.limits = limits;
        self.me = game.side_to_move();
        self.key_salt = match self.me {
            Player::First => 0,
            Player::Second => SECOND_PLAYER_KEY,
        };
        self.next_check = 0;
        self.check_interval = 1;
        self.last_check_us = self.clock.elapsed_us();
        self.heuristics.new_search();
        let mut report = SearchReport {
            best_move: None,
            value: 0,
            depth: 0,
            nodes: 0,
            pv: heapless::Vec::new(),
            aborted: false,
            elapsed_ms: 0,
        };
        let root_moves = game.legal_moves();
        if root_moves.is_empty() {
            report.value = leaf_value(&self.eval, game, self.me, 0);
            report.nodes = 1;
            return report;
        }
        let mut best_index = 0;
        report.best_move = Some(root_moves[0]);
        let max_depth = limits.depth.clamp(1, MAX_PLY as u32 - 1);
        // The depths of the last iterations that changed the best move.
        let mut last_change = 0;
        for depth in 1..=max_depth {
            if depth > 1 {
                if let Some(t) = limits.time_ms {
                    let cutoff = match limits.soft_ms {
                        Some(soft) if depth > last_change + 2 => soft,
                        Some(soft) => soft.saturating_mul(SOFT_STRETCH_PERCENT) / 100,
                        None => t,
                    };
                    if self.clock.elapsed_us() >= cutoff.min(t).saturating_mul(1000) {
                        break;
                    }
                }
                if self.clock.stop_requested() {
                    report.aborted = true;
                    break;
                }
            }
            let prev_best = (depth > 1).then_some(best_index);
            let (value, best, completed) =
                self.aspirate(game, &root_moves, depth, prev_best, report.value);
            if self.aborted {
                // A move that beat the previous best in the unfinished iteration
                // (searched after it, with a full search) is a genuine improvement;
                // in the first iteration any searched move beats none.
                if let Some(b) = best {
                    if completed > 0 && (depth == 1 || Some(b) != prev_best) {
                        report.best_move = Some(root_moves[b]);
                        report.value = value;
                    }
                }
                report.aborted = true;
                break;
            }
            if let Some(b) = best {
                if depth > 1 && b != best_index {
                    last_change = depth;
                }
                best_index = b;
                report.best_move = Some(root_moves[b]);
            }
            report.value = value;
            report.depth = depth;
            report.nodes = self.nodes;
            report.elapsed_ms = self.clock.elapsed_ms();
            self.fill_pv(game, &mut report);
            progress(&report);
            if crate::search::is_decisive(value)
                && (crate::search::WIN - value.abs()) < depth as Score
            {
                // A forced result within the horizon: deeper search cannot change it.
                break;
            }
        }
        report.nodes = self.nodes;
        report.elapsed_ms = self.clock.elapsed_ms();
        if report.pv.first() != report.best_move.as_ref() {
            self.fill_pv(game, &mut report);
        }
        report
    }

    #[inline]
    fn key(&self, game: &G) -> u64 {
        game.search_key() ^ self.key_salt
    }
}

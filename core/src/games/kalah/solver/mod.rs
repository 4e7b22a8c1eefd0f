//! Exact solving of Kalah: the final margin of a position under perfect play.
//!
//! What the published solvers (Irving, Donkers and Uiterwijk, 2000) use:
//! * **The value is the future margin.** Seeds in a store never come back, so what
//!   the side to move will still gain over its opponent depends on the pits alone.
//!   The solver works on the mover's row and the opponent's row (which also merges
//!   every position with its mirror image, the other side to move) and adds the
//!   stores at the root.
//! * **A transposition table keyed on the pits alone**, holding a lower and an upper
//!   bound of the future margin, in memory the caller provides ([`SolverTable`]: a
//!   slice of [`SolverEntry`] for one solver, or a [`SharedSolverTable`] of atomic
//!   words that solvers on several threads share without locks).
//! * **MTD(f)**: a sequence of null-window alpha-beta searches converging on the
//!   value, started from the guess of depth-limited MTD(f) passes
//!   ([`KalahSolver::estimate`], or iterative deepening inside a solve,
//!   [`SolverConfig::deepening_to`]), whose table entries also order the exact
//!   searches.
//! * **Move ordering**: the table move, then extra turns (the pit nearest the store
//!   first), then captures by size, then the seeds a move puts in the store.
//! * **Futility bounds from the seeds in play**: with `n` seeds left in the pits the
//!   future margin lies in `-n..=n`, so a window outside it is decided at once.
//! * **Endgame tables indexed by the seeds left on the board** ([`EndgameTables`]):
//!   the exact future margin of every position with at most `K` seeds in the pits,
//!   in caller-provided memory (the host keeps them on disk), built layer by layer
//!   by [`build_tables`] a byte an entry and probed in that form or in five bits an
//!   entry ([`pack_tables`], `packed.rs`). A table for `P` pits serves every seed
//!   count per pit and depends on the capture rule.
//!
//! # Values
//! Every margin the solver's methods take and return ([`KalahSolver::solve`],
//! [`KalahSolver::solve_bounded`], [`KalahSolver::estimate`],
//! [`KalahSolver::solve_moves`]) is a *final margin for the side to move* of the
//! position they are given: its store minus the opponent's at the end of the game,
//! the convention of every search in ply. A position where the opponent moves next
//! is valued for that opponent; [`crate::search::for_player`] and
//! [`bounds_for_player`] turn such values into the parent's mover's. Inside, the
//! search works on the *future margin* ([`KalahSolver::future_margin`], the bounds of
//! [`SolveProgress`], the table entries): what the side to move will still gain,
//! the stores left out.
//!
//! # Files
//! * `mod.rs`: the solver's interface ([`KalahSolver`], [`SolveControl`],
//!   [`SolverConfig`]) and the plain minimax the tests hold it to;
//! * `search.rs`: MTD(f) and the alpha-beta search;
//! * `table.rs`: the transposition tables;
//! * `endgame.rs`: the endgame tables;
//! * `tests.rs`: the tests of the interface.

mod endgame;
mod layout;
mod packed;
mod search;
mod table;

use crate::game::{Game, Player};
use crate::games::kalah::{final_margin, pit, row_sum, sow, Kalah, KalahRules, Pit};
use crate::search::for_player;

pub use endgame::{build_layer, build_tables, EndgameTables};
pub use layout::{layer_range, reorder_rows_first, table_len, MAX_TABLE_SEEDS, UNKNOWN};
pub use packed::{
    pack_entries, pack_tables, packed_layer_len, packed_layers, unpack_entries, unpack_tables,
    PackedLayers, PACKED_MAX_SEEDS,
};
#[cfg(target_has_atomic = "64")]
pub use table::SharedSolverTable;
pub use table::{learn, prefetch_learn, SolverEntry, SolverTable};

pub use search::next_beta;
use search::INF;
use table::EXACT_DEPTH;

/// How a solve is going, passed to [`SolveControl::progress`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct SolveProgress {
    /// The depth of the current pass; `None` for the exact (full-depth) passes.
    pub depth: Option<u32>,
    /// The bounds on the future margin established so far by the current pass.
    pub lower: i32,
    /// The upper bound.
    pub upper: i32,
    /// Nodes searched so far in the whole solve.
    pub nodes: u64,
    /// Endgame table probes that ended a line.
    pub table_hits: u64,
    /// Filled transposition-table slots, per thousand (sampled).
    pub tt_fill_permille: u32,
}

/// What a solve reports to and asks of its caller.
pub trait SolveControl {
    /// Called after each null-window pass and every 2^20 nodes.
    fn progress(&mut self, _p: &SolveProgress) {}
    /// Polled every 2^[`SolverConfig::poll_shift`] nodes (2^16 by default); `true`
    /// stops the solve with [`Interrupted`].
    fn should_stop(&mut self) -> bool {
        false
    }
}

/// A control that reports nothing and never stops.
#[derive(Clone, Copy, Debug, Default)]
pub struct Quiet;

impl SolveControl for Quiet {}

/// The solve was stopped by [`SolveControl::should_stop`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Interrupted;

impl core::fmt::Display for Interrupted {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "the solve was interrupted")
    }
}

/// Switches for the solver's parts, to measure what each is worth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct SolverConfig {
    /// Run depth-limited MTD(f) passes of these depths (step 2 from 2) before the
    /// exact search; 0: none.
    pub deepening_to: u32,
    /// Order moves (table move, extra turns, captures); off: generation order.
    pub ordering: bool,
    /// Look the children up in the transposition table before searching any
    /// (enhanced transposition cutoff) only at nodes with at least this many seeds
    /// in play: near the endgame tables the lookups cost more cache misses than
    /// the cutoffs save. 0: everywhere.
    pub etc_from_seeds: u32,
    /// [`SolveControl::should_stop`] is polled every `2^poll_shift` nodes (at most
    /// [`MAX_POLL_SHIFT`]): by default [`DEFAULT_POLL_SHIFT`], 65,536 nodes, tens of
    /// milliseconds of search; a solve under a time limit of a fraction of a second
    /// polls more often.
    pub poll_shift: u32,
}

/// The default [`SolverConfig::poll_shift`]: [`SolveControl::should_stop`] every
/// 2^16 nodes.
pub const DEFAULT_POLL_SHIFT: u32 = 16;

/// The largest [`SolverConfig::poll_shift`] (progress is reported every 2^20 nodes,
/// at a poll).
pub const MAX_POLL_SHIFT: u32 = 20;

impl Default for SolverConfig {
    fn default() -> Self {
        SolverConfig {
            deepening_to: 0,
            ordering: true,
            etc_from_seeds: 0,
            poll_shift: DEFAULT_POLL_SHIFT,
        }
    }
}

/// The exact Kalah solver over a caller-provided transposition table and optional
/// endgame tables.
pub struct KalahSolver<'d, T: SolverTable> {
    tt: T,
    tables: EndgameTables<'d>,
    pits: u32,
    empty_capture: bool,
    config: SolverConfig,
    nodes: u64,
    table_hits: u64,
    generation: u8,
    stopped: bool,
    depth_limit: Option<u32>,
    bounds: (i32, i32),
    /// `2^poll_shift - 1` of the configuration: the control is polled when the
    /// node count has none of these bits.
    poll_mask: u64,
    /// The search stops (without storing anything) once `nodes` exceeds this.
    node_limit: u64,
    /// The search stopped at `node_limit` (not at the caller's request).
    over_budget: bool,
    /// The rows of the position [`KalahSolver::test`] last searched.
    tested: (u64, u64),
}

impl<'t, 'd> KalahSolver<'d, &'t mut [SolverEntry]> {
    /// A solver for `rules` (the seeds per pit do not matter) using `tt` as its
    /// transposition table (cleared) and `tables` for endgames, which must be for
    /// the same pits and capture rule.
    pub fn new(
        rules: KalahRules,
        tt: &'t mut [SolverEntry],
        tables: EndgameTables<'d>,
    ) -> Result<Self, &'static str> {
        for e in tt.iter_mut() {
            *e = SolverEntry::EMPTY;
        }
        Self::with_table(rules, tt, tables)
    }
}

impl<'d, T: SolverTable> KalahSolver<'d, T> {
    /// A solver like [`KalahSolver::new`] over any table memory, used as it is
    /// (not cleared: several solvers may share a [`SharedSolverTable`], and what
    /// one proves the others use).
    pub fn with_table(
        rules: KalahRules,
        tt: T,
        tables: EndgameTables<'d>,
    ) -> Result<Self, &'static str> {
        if !tables.fits(rules) {
            return Err("the endgame tables are for another number of pits or capture rule");
        }
        Ok(KalahSolver {
            tt,
            tables,
            pits: u32::from(rules.pits),
            empty_capture: rules.empty_capture,
            config: SolverConfig::default(),
            poll_mask: (1 << DEFAULT_POLL_SHIFT) - 1,
            nodes: 0,
            table_hits: 0,
            generation: 1,
            stopped: false,
            depth_limit: None,
            bounds: (-INF, INF),
            node_limit: u64::MAX,
            over_budget: false,
            tested: (0, 0),
        })
    }

    /// Replaces the configuration.
    pub fn set_config(&mut self, config: SolverConfig) {
        self.config = config;
        self.poll_mask = (1 << config.poll_shift.min(MAX_POLL_SHIFT)) - 1;
    }

    /// Nodes searched since the solver was made.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Endgame table probes that ended a line since the solver was made.
    pub fn table_hits(&self) -> u64 {
        self.table_hits
    }

    /// The final margin of `game`'s side to move (its store minus the opponent's
    /// at the end) under perfect play.
    pub fn solve(
        &mut self,
        game: &Kalah,
        control: &mut impl SolveControl,
    ) -> Result<i32, Interrupted> {
        let (own, opp) = game.rows_for_mover();
        // Bounds left in the table by earlier solves (e.g. of the sibling moves)
        // make a better first guess for MTD(f) than 0.
        let n = (row_sum(own) + row_sum(opp)) as i32;
        let guess = match table::probe(&self.tt, own, opp) {
            Some(e) if e.depth == EXACT_DEPTH && i32::from(e.lo) > -n => i32::from(e.lo),
            Some(e) if e.depth == EXACT_DEPTH && i32::from(e.hi) < n => i32::from(e.hi),
            _ => 0,
        };
        let future = self.future_margin(own, opp, guess, control)?;
        Ok(game.store_difference() + future)
    }

    /// Bounds on the final margin of `game`'s side to move under perfect play,
    /// given that it is known to lie in `lower..=upper` (e.g. from the parent's
    /// value; pass wide bounds when nothing is known). MTD(f) starts from `guess`;
    /// its first null-window pass always completes, and later passes stop once
    /// they have spent `max_nodes` nodes in all, leaving the bounds proved so far:
    /// the result `(lo, hi)` is exact when `lo == hi`.
    ///
    /// With `upper` the parent's value `V` and `guess = V`, the first pass decides
    /// whether the move is a best one (then `lo == hi == V`); otherwise it proves
    /// `hi < V`, and further passes narrow that down as far as the budget allows.
    pub fn solve_bounded(
        &mut self,
        game: &Kalah,
        lower: i32,
        upper: i32,
        guess: i32,
        max_nodes: u64,
        control: &mut impl SolveControl,
    ) -> Result<(i32, i32), Interrupted> {
        // The final margin is the stores' margin now plus the future margin.
        let (own, opp, stores) = match rows_and_stores(game) {
            Ok(split) => split,
            Err(settled) => return Ok((settled, settled)),
        };
        self.generation = self.generation.wrapping_add(1).max(1);
        self.stopped = false;
        self.depth_limit = None;
        let (lo, hi) = self.mtdf_bounded(
            own,
            opp,
            lower - stores,
            upper - stores,
            guess - stores,
            max_nodes,
            control,
        )?;
        Ok((stores + lo, stores + hi))
    }

    /// One null-window pass of MTD(f): whether the final margin of `game`'s side to
    /// move is at least `beta`, given that it lies in `lower..=upper`. Returns those
    /// bounds narrowed by the pass's fail-soft value `g`: `(g, upper)` when the value
    /// is at least `beta` (then `g >= beta`), `(lower, g)` when it is below (then
    /// `g < beta`). `beta` is taken into `lower + 1..=upper`; when `lower >= upper`
    /// nothing is searched.
    ///
    /// Several solvers sharing a table can test one position at several `beta`s at
    /// once, each pass narrowing the bounds the others work inside (and stopping,
    /// through [`SolveControl::should_stop`], a pass whose `beta` no longer matters).
    /// Consecutive passes on one position count as one solve for the table's
    /// replacement (entries of earlier solves are replaced first).
    pub fn test(
        &mut self,
        game: &Kalah,
        lower: i32,
        upper: i32,
        beta: i32,
        control: &mut impl SolveControl,
    ) -> Result<(i32, i32), Interrupted> {
        let (own, opp, stores) = match rows_and_stores(game) {
            Ok(split) => split,
            Err(settled) => return Ok((settled, settled)),
        };
        if self.tested != (own, opp) {
            self.tested = (own, opp);
            self.generation = self.generation.wrapping_add(1).max(1);
        }
        self.stopped = false;
        self.depth_limit = None;
        let n = (row_sum(own) + row_sum(opp)) as i32;
        let (lo, hi) = ((lower - stores).max(-n), (upper - stores).min(n));
        if lo >= hi {
            return Ok((stores + lo, stores + hi));
        }
        let beta = (beta - stores).clamp(lo + 1, hi);
        let (lo, hi) = self.pass(own, opp, (lo, hi), beta, control)?;
        Ok((stores + lo, stores + hi))
    }

    /// A heuristic estimate of the final margin of `game`'s side to move: MTD(f)
    /// passes searching `depth` plies (2, 4, ... up to `depth`), counting the
    /// seeds still on the board as nobody's (the store difference of the Mancala
    /// parallelization report, docs/references.md) where a
    /// line is cut off. Endgame tables still end lines exactly. The estimate is a
    /// first guess for [`KalahSolver::solve_bounded`]; the table entries it leaves
    /// only order moves for the exact search.
    pub fn estimate(
        &mut self,
        game: &Kalah,
        depth: u32,
        guess: i32,
        control: &mut impl SolveControl,
    ) -> Result<i32, Interrupted> {
        let (own, opp) = game.rows_for_mover();
        let stores = game.store_difference();
        if depth == 0 {
            return Ok(stores);
        }
        if let Some(m) = final_margin(own, opp) {
            return Ok(stores + m);
        }
        let mut g = guess - stores;
        self.generation = self.generation.wrapping_add(1).max(1);
        self.stopped = false;
        let mut d = 2 - depth % 2;
        while d <= depth {
            self.depth_limit = Some(d);
            g = self.mtdf(own, opp, g, control)?;
            d += 2;
        }
        self.depth_limit = None;
        Ok(stores + g)
    }

    /// The final margin of `game`'s side to move after each of its legal moves,
    /// under perfect play from there; `out` receives `(move, margin)` in generation
    /// order. The margin is the mover's even where the move passes the turn (the
    /// child's own value negated).
    /// The moves share the transposition table, so each solve reuses what the
    /// earlier ones proved (their subtrees overlap through transpositions).
    pub fn solve_moves(
        &mut self,
        game: &Kalah,
        control: &mut impl SolveControl,
        mut out: impl FnMut(Pit, i32),
    ) -> Result<(), Interrupted> {
        let me = game.side_to_move();
        for &mv in game.legal_moves().iter() {
            let child = game.play_unchecked(mv);
            let v = if child.outcome().is_over() {
                child.store_difference()
            } else {
                self.solve(&child, control)?
            };
            out(mv, for_player(&child, me, v));
        }
        Ok(())
    }

    /// A best move of `game` and the final margin it leads to for `game`'s side to
    /// move under perfect play; `None` when the game is over. The position's value
    /// `V` is solved first ([`KalahSolver::solve`]); then the moves are tested, the
    /// table's best move first, one null-window pass each ([`KalahSolver::test`]),
    /// until one is proved to reach `V`: cheaper than every move's exact value
    /// ([`KalahSolver::solve_moves`]), since the moves after it are never searched.
    pub fn best_move(
        &mut self,
        game: &Kalah,
        control: &mut impl SolveControl,
    ) -> Result<Option<(Pit, i32)>, Interrupted> {
        let moves = game.legal_moves();
        if moves.is_empty() {
            return Ok(None);
        }
        let value = self.solve(game, control)?;
        let me = game.side_to_move();
        let (own, opp) = game.rows_for_mover();
        let hint = table::probe(&self.tt, own, opp)
            .and_then(|e| e.mv.checked_sub(1))
            .map(Pit)
            .filter(|m| moves.contains(m));
        let first = hint.into_iter();
        let rest = moves.iter().copied().filter(|&m| Some(m) != hint);
        for mv in first.chain(rest) {
            let child = game.play_unchecked(mv);
            let best = if child.outcome().is_over() {
                for_player(&child, me, child.store_difference()) == value
            } else if child.side_to_move() == me {
                // The mover moves again: the move reaches `value` if the child does.
                self.test(&child, -INF, INF, value, control)?.0 >= value
            } else {
                // The opponent's value is at least `-value`; the move is best if it
                // is no more.
                self.test(&child, -INF, INF, 1 - value, control)?.1 <= -value
            };
            if best {
                return Ok(Some((mv, value)));
            }
        }
        // Unreachable while the value is every move's best; should a test ever
        // disagree, the moves' exact values decide.
        let mut best: Option<(Pit, i32)> = None;
        self.solve_moves(game, control, |mv, v| {
            if best.is_none_or(|(_, b)| v > b) {
                best = Some((mv, v));
            }
        })?;
        Ok(best)
    }

    /// The exact future margin for the mover of `own` against `opp`, starting MTD(f)
    /// from `guess`.
    pub fn future_margin(
        &mut self,
        own: u64,
        opp: u64,
        guess: i32,
        control: &mut impl SolveControl,
    ) -> Result<i32, Interrupted> {
        self.generation = self.generation.wrapping_add(1).max(1);
        self.stopped = false;
        if let Some(m) = final_margin(own, opp) {
            return Ok(m);
        }
        let mut guess = guess;
        let mut d = 2;
        while d <= self.config.deepening_to {
            self.depth_limit = Some(d);
            guess = self.mtdf(own, opp, guess, control)?;
            d += 2;
        }
        self.depth_limit = None;
        self.mtdf(own, opp, guess, control)
    }
}

/// `game`'s rows (the mover's first) and the stores' margin, the split the bounded
/// searches work on; `Err` with the final margin when the game is over (a row is
/// empty: each side takes the seeds left in its own row).
fn rows_and_stores(game: &Kalah) -> Result<(u64, u64, i32), i32> {
    let (own, opp) = game.rows_for_mover();
    let stores = game.store_difference();
    match final_margin(own, opp) {
        Some(m) => Err(stores + m),
        None => Ok((own, opp, stores)),
    }
}

/// Bounds `lo..=hi` on a final margin for one player, seen by the other one when
/// `game`'s side to move is not `player` (as [`for_player`] turns one value, and
/// like it its own inverse): bounds on a child position's value for its side to
/// move become bounds for the parent's mover, and back.
pub fn bounds_for_player(game: &Kalah, player: Player, (lo, hi): (i32, i32)) -> (i32, i32) {
    let (a, b) = (for_player(game, player, lo), for_player(game, player, hi));
    (a.min(b), a.max(b))
}

/// The exact future margin by plain minimax, no table, no pruning: the reference
/// the tests hold the solver and the endgame tables to (small boards only).
pub fn minimax_future_margin(own: u64, opp: u64, pits: u32, empty_capture: bool) -> i32 {
    if let Some(m) = final_margin(own, opp) {
        return m;
    }
    let mut best = i32::MIN;
    for i in 0..pits {
        if pit(own, i) == 0 {
            continue;
        }
        let s = sow(own, opp, pits, i, empty_capture);
        let v = if s.game_over {
            s.gain as i32 - s.opp_gain as i32
        } else if s.extra_turn {
            s.gain as i32 + minimax_future_margin(s.own, s.opp, pits, empty_capture)
        } else {
            s.gain as i32 - minimax_future_margin(s.opp, s.own, pits, empty_capture)
        };
        best = best.max(v);
    }
    best
}

/// Runs `f` with the board's pits, as the constant 6 on the common six-pit board
/// so that the sowing and the rank inlined in `f` are compiled for that size (the
/// solver's search was 3–6 % faster on Kalah(6,4) for it, docs/log/2026-11-28-kalah-solver.md).
#[inline(always)]
pub(super) fn with_pits<R>(pits: u32, f: impl Fn(u32) -> R) -> R {
    if pits == 6 {
        f(6)
    } else {
        f(pits)
    }
}

#[cfg(test)]
mod tests;

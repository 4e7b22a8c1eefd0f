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
//! [`tt`](mod@super::tt); here the search itself, read top to bottom.
//!
//! Nothing allocates: the killer and history tables live in the [`Engine`] value,
//! and move ordering uses a small stack buffer.

use crate::game::{Game, Player};
use crate::search::eval::leaf_value;
use crate::search::order::MoveOrder;

use crate::search::clock::SOFT_STRETCH_PERCENT;
pub use crate::search::config::{
    EngineConfig, TtCutoff, LMR_DEEPER_AFTER, LMR_FULL_MOVES, LMR_MIN_DEPTH, PRUNE_MAX_DEPTH,
};
use crate::search::history::Heuristics;
pub use crate::search::history::{history_slot, history_slot_of_bytes, HISTORY_SLOTS};
use crate::search::tt::{Bound, Stored, Table, TranspositionTable, TtEntry};
use crate::search::{negamax_child, Clock, Evaluator, Limits, Score, INFINITY, MAX_PLY};

/// Longest principal variation reported.
pub const MAX_PV: usize = 32;

/// ABDADA defers moves only at nodes with at least this many plies left.
pub const ABDADA_MIN_DEPTH: u32 = 3;

/// Futility pruning leaves alone windows and evaluations at or beyond this size:
/// wins, losses and the endgame tables' exact values.
const PRUNE_BOUND: Score = crate::search::TABLE_ZONE / 2;

/// At most this many moves of a node are deferred by ABDADA; further busy moves are
/// searched at once.
const MAX_DEFERRED: usize = 32;

/// A node's moves in ABDADA's order: the ordered moves, then those put off because
/// another engine was searching them.
struct Deferral {
    /// Whether moves may be put off at this node.
    on: bool,
    deferred: heapless::Vec<u16, MAX_DEFERRED>,
    next: usize,
}

impl Deferral {
    #[inline]
    fn new(on: bool) -> Self {
        Deferral {
            on,
            deferred: heapless::Vec::new(),
            next: 0,
        }
    }

    /// The next move's index, and true if it was put off before.
    #[inline]
    fn next(&mut self, order: &mut MoveOrder) -> Option<(usize, bool)> {
        if let Some(i) = order.next() {
            return Some((i, false));
        }
        let i = *self.deferred.get(self.next)?;
        self.next += 1;
        Some((usize::from(i), true))
    }

    /// Puts move `i` off; false if the list is full (the move is searched now).
    #[inline]
    fn put_off(&mut self, i: usize) -> bool {
        self.deferred.push(i as u16).is_ok()
    }
}

/// The clock is read at least every this many nodes.
const MAX_CHECK_INTERVAL: u64 = 1024;

/// The engine aims to read the clock about this often (microseconds).
const CHECK_GAP_US: u64 = 1000;

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

    /// One root iteration, in an aspiration window around `prev_value` (the last
    /// iteration's) where [`EngineConfig::aspiration`] asks for one: a value outside
    /// the window is searched again in a window four times as wide on that side,
    /// until the value falls inside (or the window is full).
    fn aspirate(
        &mut self,
        game: &G,
        moves: &G::MoveList,
        depth: u32,
        prev_best: Option<usize>,
        prev_value: Score,
    ) -> (Score, Option<usize>, usize) {
        let delta = self.config.aspiration;
        if delta <= 0 || depth < 4 || crate::search::is_decisive(prev_value) {
            return self.root(game, moves, depth, prev_best, -INFINITY, INFINITY);
        }
        let (mut lo, mut hi) = (delta, delta);
        loop {
            let alpha = prev_value.saturating_sub(lo).max(-INFINITY);
            let beta = prev_value.saturating_add(hi).min(INFINITY);
            let (value, best, completed) = self.root(game, moves, depth, prev_best, alpha, beta);
            if self.aborted {
                // A move that failed high is better than the window's floor; one that
                // failed low says nothing: the caller keeps its own choice then.
                return (value, best, completed);
            }
            if value <= alpha && alpha > -INFINITY {
                lo = lo.saturating_mul(4);
            } else if value >= beta && beta < INFINITY {
                hi = hi.saturating_mul(4);
            } else {
                return (value, best, completed);
            }
        }
    }

    /// One root iteration in the window `(alpha, beta)`. Returns the value, the index
    /// of the best move (`None` if no move beat `alpha`) and how many root moves were
    /// searched to completion.
    fn root(
        &mut self,
        game: &G,
        moves: &G::MoveList,
        depth: u32,
        prev_best: Option<usize>,
        mut alpha: Score,
        beta: Score,
    ) -> (Score, Option<usize>, usize) {
        self.nodes += 1;
        // The table's best move first (another engine sharing the table may have
        // finished the previous iteration first), else this engine's own.
        let key = self.key(game);
        let hash_move = self
            .tt
            .probe(key, 0)
            .and_then(|e| e.move_index)
            .filter(|&i| i < moves.len())
            .or(prev_best);
        let mut order = MoveOrder::new();
        self.heuristics.order(
            self.config.killers_and_history,
            game,
            moves,
            hash_move,
            0,
            &mut order,
        );
        if self.config.helper > 0 {
            order.rotate_after_first(self.config.helper as usize);
        }
        let mut best = None;
        let mut completed = 0;
        let mut first = true;
        // ABDADA at the root too: a root move another engine is searching is put off
        // until the others are done (by then its value is usually in the table).
        let mut deferral = Deferral::new(self.config.abdada);
        while let Some((i, second_pass)) = deferral.next(&mut order) {
            let child = game.play_unchecked(moves[i]);
            let Some(busy_key) = self.enter_move(&mut deferral, i, second_pass, &child, !first)
            else {
                continue;
            };
            let v = if first {
                self.child(game, &child, depth - 1, 1, alpha, beta)
            } else {
                let v = self.child(game, &child, depth - 1, 1, alpha, alpha + 1);
                if v > alpha && !self.aborted {
                    self.child(game, &child, depth - 1, 1, alpha, beta)
                } else {
                    v
                }
            };
            if let Some(k) = busy_key {
                self.tt.leave(k);
            }
            first = false;
            if self.aborted {
                break;
            }
            completed += 1;
            if v > alpha {
                alpha = v;
                best = Some(i);
                if alpha >= beta {
                    break;
                }
            }
        }
        if !self.aborted {
            let bound = if alpha >= beta {
                Bound::Lower
            } else if best.is_none() {
                Bound::Upper
            } else {
                Bound::Exact
            };
            self.tt
                .store(key, 0, Stored::new(alpha, depth, bound, best));
        }
        (alpha, best, completed)
    }

    /// The value of `child` from `parent`'s side, searched in the window
    /// `(alpha, beta)` of the parent.
    #[inline]
    fn child(
        &mut self,
        parent: &G,
        child: &G,
        depth: u32,
        ply: u32,
        alpha: Score,
        beta: Score,
    ) -> Score {
        negamax_child(parent, child, alpha, beta, |alpha, beta| {
            self.node(child, depth, ply, alpha, beta, 0)
        })
    }

    /// ABDADA at one move of a node (`eligible`: not the node's first move): `None`
    /// if the move is put off because another engine is searching `child`, else the
    /// key this engine entered as busy, if any (to leave once the move is searched).
    #[inline]
    fn enter_move(
        &mut self,
        deferral: &mut Deferral,
        i: usize,
        second_pass: bool,
        child: &G,
        eligible: bool,
    ) -> Option<Option<u64>> {
        if !(deferral.on && eligible) {
            return Some(None);
        }
        let k = self.key(child);
        if !second_pass && self.tt.is_busy(k) && deferral.put_off(i) {
            return None;
        }
        self.tt.enter(k);
        Some(Some(k))
    }

    #[inline]
    fn leaf(&self, game: &G, ply: u32) -> Score {
        leaf_value(&self.eval, game, self.me, ply)
    }

    /// True once the search must stop. The clock is read when the node count reaches
    /// the next check; the interval doubles while less than half of [`CHECK_GAP_US`]
    /// passes between readings and shrinks in proportion when more than it does, so
    /// the time between two readings stays under about a millisecond whatever a node
    /// costs.
    #[inline]
    fn out_of_budget(&mut self) -> bool {
        if self.nodes >= self.next_check && !self.aborted {
            self.check_budget();
        }
        self.aborted
    }

    #[cold]
    fn check_budget(&mut self) {
        if let Some(n) = self.limits.nodes {
            if self.nodes >= n {
                self.aborted = true;
                return;
            }
        }
        if self.clock.stop_requested() {
            self.aborted = true;
            return;
        }
        if let Some(t) = self.limits.time_ms {
            let now = self.clock.elapsed_us();
            if now >= t.saturating_mul(1000) {
                self.aborted = true;
                return;
            }
            let gap = now.saturating_sub(self.last_check_us);
            self.last_check_us = now;
            if gap * 2 < CHECK_GAP_US {
                self.check_interval = (self.check_interval * 2).min(MAX_CHECK_INTERVAL);
            } else if gap > CHECK_GAP_US {
                self.check_interval = (self.check_interval * CHECK_GAP_US / gap).max(1);
            }
        } else {
            self.check_interval = MAX_CHECK_INTERVAL;
        }
        let mut next = self.nodes + self.check_interval;
        if let Some(n) = self.limits.nodes {
            next = next.min(n);
        }
        self.next_check = next;
    }

    fn node(
        &mut self,
        game: &G,
        depth: u32,
        ply: u32,
        mut alpha: Score,
        beta: Score,
        qply: u32,
    ) -> Score {
        self.nodes += 1;
        if self.out_of_budget() {
            return 0;
        }
        if ply as usize >= MAX_PLY - 1 {
            return self.leaf(game, ply);
        }
        if self.config.probes {
            if let Some(v) = self.eval.exact(game, ply) {
                return v;
            }
        }
        let quiescing = depth == 0;
        if quiescing
            && (!self.config.quiescence
                || qply >= self.config.max_quiescence_plies
                || game.is_quiet()
                || game.outcome().is_over())
        {
            return self.leaf(game, ply);
        }

        let key = self.key(game);
        let mut tt_move = None;
        if !quiescing {
            if let Some(e) = self.tt.probe(key, ply) {
                tt_move = e.move_index;
                let usable = match self.config.tt_cutoff {
                    TtCutoff::AtLeastDepth => e.depth >= depth,
                    TtCutoff::SameDepth => e.depth == depth,
                    TtCutoff::Never => false,
                };
                if usable {
                    match e.bound {
                        Bound::Exact => return e.value,
                        Bound::Lower if e.value >= beta => return e.value,
                        Bound::Upper if e.value <= alpha => return e.value,
                        _ => {}
                    }
                }
            }
        }

        // Futility: a null-window node near the horizon in a quiet position, both
        // bounds heuristic values, is judged by its static evaluation.
        let futile_at = if !quiescing
            && depth <= PRUNE_MAX_DEPTH
            && (self.config.futility > 0 || self.config.reverse_futility > 0)
            && beta.saturating_sub(alpha) == 1
            && alpha.abs() < PRUNE_BOUND
            && beta.abs() < PRUNE_BOUND
            && game.is_quiet()
        {
            let stand = self.leaf(game, ply);
            let rfp = self.config.reverse_futility;
            if rfp > 0 && stand.abs() < PRUNE_BOUND && stand - rfp * depth as Score >= beta {
                return stand;
            }
            let f = self.config.futility;
            (f > 0 && stand.abs() < PRUNE_BOUND && stand + f * depth as Score <= alpha)
                .then_some(stand)
        } else {
            None
        };

        // Generated in place: returning the list by value would copy it.
        let mut moves = G::MoveList::default();
        game.generate_moves(&mut moves);
        if moves.is_empty() {
            return self.leaf(game, ply);
        }
        let mut order = MoveOrder::new();
        self.heuristics.order(
            self.config.killers_and_history,
            game,
            &moves,
            tt_move,
            ply as usize,
            &mut order,
        );

        let alpha_orig = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        let child_depth = if !quiescing && moves.len() == 1 && self.config.single_reply_extension {
            depth
        } else {
            depth.saturating_sub(1)
        };
        let child_qply = if quiescing { qply + 1 } else { 0 };
        let reducing = self.config.lmr && !quiescing && depth >= LMR_MIN_DEPTH;
        let mut deferral = Deferral::new(self.config.abdada && depth >= ABDADA_MIN_DEPTH);
        let mut searched = 0;
        while let Some((i, second_pass)) = deferral.next(&mut order) {
            let mv = moves[i];
            if futile_at.is_some()
                && searched > 0
                && game.move_order_hint(mv) <= 0
                && Some(i) != tt_move
            {
                continue;
            }
            let child = game.play_unchecked(mv);
            let Some(busy_key) =
                self.enter_move(&mut deferral, i, second_pass, &child, searched > 0)
            else {
                continue;
            };
            let same_side = child.side_to_move() == game.side_to_move();
            let search = |this: &mut Self, d: u32, a: Score, b: Score| -> Score {
                if same_side {
                    this.node(&child, d, ply + 1, a, b, child_qply)
                } else {
                    -this.node(&child, d, ply + 1, -b, -a, child_qply)
                }
            };
            let v = if searched == 0 {
                search(self, child_depth, alpha, beta)
            } else {
                // Late move reductions: a quiet move late in the order is first
                // searched shallower, and again at full depth only if it beats alpha.
                let reduction = if reducing
                    && searched >= LMR_FULL_MOVES
                    && game.move_order_hint(mv) <= 0
                    && Some(i) != tt_move
                {
                    1 + u32::from(searched >= LMR_DEEPER_AFTER && depth >= 5)
                } else {
                    0
                };
                let mut v = search(self, child_depth - reduction, alpha, alpha + 1);
                if reduction > 0 && v > alpha && !self.aborted {
                    v = search(self, child_depth, alpha, alpha + 1);
                }
                if v > alpha && v < beta && !self.aborted {
                    search(self, child_depth, alpha, beta)
                } else {
                    v
                }
            };
            if let Some(k) = busy_key {
                self.tt.leave(k);
            }
            searched += 1;
            if self.aborted {
                return 0;
            }
            if v > best {
                best = v;
                best_move = Some(i);
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        self.heuristics.reward(
                            self.config.killers_and_history,
                            game,
                            mv,
                            depth,
                            ply as usize,
                        );
                        break;
                    }
                }
            }
        }

        if !quiescing {
            let bound = if best <= alpha_orig {
                Bound::Upper
            } else if best >= beta {
                Bound::Lower
            } else {
                Bound::Exact
            };
            self.tt
                .store(key, ply, Stored::new(best, depth, bound, best_move));
        }
        best
    }

    fn fill_pv(&mut self, game: &G, report: &mut SearchReport<G::Move>) {
        report.pv.clear();
        let Some(first) = report.best_move else {
            return;
        };
        let _ = report.pv.push(first);
        let mut pos = game.play_unchecked(first);
        while report.pv.len() < MAX_PV && (report.pv.len() as u32) < report.depth.max(1) {
            let Some(e) = self.tt.probe(self.key(&pos), 0) else {
                break;
            };
            let moves = pos.legal_moves();
            let Some(&mv) = e.move_index.and_then(|i| moves.get(i)) else {
                break;
            };
            let _ = report.pv.push(mv);
            pos = pos.play_unchecked(mv);
        }
    }
}

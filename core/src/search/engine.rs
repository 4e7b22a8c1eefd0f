//! The engine: alpha-beta as real programs run it.
//!
//! * iterative deepening, one iteration per ply, under a [`Limits`] budget of depth,
//!   nodes and time (the hard limit is checked every 1024 nodes; an iteration is not
//!   started once half the time is gone, since it would not finish);
//! * a [`TranspositionTable`] in caller-provided memory: hash move, bound cutoffs;
//! * move ordering: hash move, then the game's hint (captures, extra turns), killer
//!   moves (two per ply), and the history heuristic;
//! * principal variation search (null windows after the first move);
//! * quiescence: at the horizon a non-quiet position ([`Game::is_quiet`]) is
//!   searched on until it is quiet, so a pending capture is never mis-evaluated;
//! * the principal variation, read back from the table.
//!
//! Nothing allocates: the killer and history tables live in the [`Engine`] value.

use core::cmp::Reverse;
use core::hash::{Hash, Hasher};

use crate::game::Game;
use crate::search::tt::{Bound, TranspositionTable, TtEntry};
use crate::search::{Clock, Evaluator, Limits, Score, INFINITY, MAX_PLY};

/// Slots of the history table per side (move hashes are folded into them).
pub const HISTORY_SLOTS: usize = 512;

/// Move lists up to this long are ordered with keys computed once per move (a
/// small stack array); longer ones (Halma) sort with keys computed per comparison.
const SCORED_MOVES: usize = 64;

/// Longest principal variation reported.
pub const MAX_PV: usize = 32;

/// When a transposition-table entry may end the search of a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum TtCutoff {
    /// An entry searched at least as deep as needed (the usual, strongest choice;
    /// a deeper result can differ from what a fixed-depth search would return).
    AtLeastDepth,
    /// Only an entry searched exactly as deep: the result equals fixed-depth
    /// alpha-beta, which the equal-value tests rely on.
    SameDepth,
    /// Never: the table only orders moves.
    Never,
}

/// Switches for the engine's parts (all on by default).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct EngineConfig {
    /// Search non-quiet horizon positions on (see [`Game::is_quiet`]).
    pub quiescence: bool,
    /// At most this many plies of quiescence below the horizon.
    pub max_quiescence_plies: u32,
    /// When table entries cut the search off.
    pub tt_cutoff: TtCutoff,
    /// Killer moves and the history heuristic.
    pub killers_and_history: bool,
}

impl Default for EngineConfig {
    fn default() -> Self {
        EngineConfig {
            quiescence: true,
            max_quiescence_plies: 32,
            tt_cutoff: TtCutoff::AtLeastDepth,
            killers_and_history: true,
        }
    }
}

impl EngineConfig {
    /// The configuration whose root value equals fixed-depth alpha-beta and minimax:
    /// no quiescence, table cutoffs only at equal depth.
    pub fn exact() -> Self {
        EngineConfig {
            quiescence: false,
            tt_cutoff: TtCutoff::SameDepth,
            ..Self::default()
        }
    }
}

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
    /// True if the budget ran out inside an iteration.
    pub aborted: bool,
    /// Milliseconds by the clock when the report was made.
    pub elapsed_ms: u64,
}

/// An iterative-deepening alpha-beta engine over a caller-provided table.
pub struct Engine<'t, G: Game, E, C> {
    tt: TranspositionTable<'t, G::Move>,
    eval: E,
    clock: C,
    config: EngineConfig,
    killers: [[Option<G::Move>; 2]; MAX_PLY],
    history: [[u32; HISTORY_SLOTS]; 2],
    nodes: u64,
    limits: Limits,
    aborted: bool,
}

impl<'t, G: Game, E: Evaluator<G>, C: Clock> Engine<'t, G, E, C> {
    /// An engine using `tt_slots` as its transposition table (cleared), `eval` for
    /// positions at the horizon and `clock` for time limits.
    pub fn new(
        tt_slots: &'t mut [TtEntry<G::Move>],
        eval: E,
        clock: C,
        config: EngineConfig,
    ) -> Self {
        Engine {
            tt: TranspositionTable::new(tt_slots),
            eval,
            clock,
            config,
            killers: [[None; 2]; MAX_PLY],
            history: [[0; HISTORY_SLOTS]; 2],
            nodes: 0,
            limits: Limits::depth(1),
            aborted: false,
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

    /// The transposition table (for fill statistics).
    pub fn table(&self) -> &TranspositionTable<'t, G::Move> {
        &self.tt
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
        self.killers = [[None; 2]; MAX_PLY];
        for side in self.history.iter_mut() {
            for h in side.iter_mut() {
                *h /= 8;
            }
        }
        let mut report = SearchReport {
            best_move: None,
            value: 0,
            depth: 0,
            nodes: 0,
            pv: heapless::Vec::new(),
            aborted: false,
            elapsed_ms: 0,
        };
        let mut root_moves = game.legal_moves();
        if root_moves.is_empty() {
            let outcome = game.outcome();
            report.value = if outcome.is_over() {
                self.eval.terminal(game, outcome, 0)
            } else {
                self.eval.evaluate(game)
            };
            return report;
        }
        report.best_move = Some(root_moves[0]);
        let max_depth = limits.depth.clamp(1, MAX_PLY as u32 - 1);
        for depth in 1..=max_depth {
            if depth > 1 {
                if let Some(t) = limits.time_ms {
                    if self.clock.elapsed_ms() * 2 >= t {
                        break;
                    }
                }
            }
            let prev_best = report.best_move;
            let (value, best, completed) = self.root(game, &mut root_moves, depth, prev_best);
            if self.aborted {
                // A move that beat the previous best in the unfinished iteration
                // (searched after it, with a full search) is a genuine improvement.
                if completed > 0 && best.is_some() && depth > 1 {
                    if best != prev_best {
                        report.best_move = best;
                        report.value = value;
                    }
                } else if depth == 1 && best.is_some() {
                    report.best_move = best;
                    report.value = value;
                }
                report.aborted = true;
                break;
            }
            report.best_move = best;
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

    /// One root iteration. Returns the value, the best move and how many root moves
    /// were searched to completion.
    fn root(
        &mut self,
        game: &G,
        moves: &mut G::MoveList,
        depth: u32,
        prev_best: Option<G::Move>,
    ) -> (Score, Option<G::Move>, usize) {
        self.nodes += 1;
        self.order(game, moves, prev_best, 0);
        let mut alpha = -INFINITY;
        let beta = INFINITY;
        let mut best = None;
        let mut completed = 0;
        for i in 0..moves.len() {
            let mv = moves[i];
            let child = game.play_unchecked(mv);
            let v = if i == 0 {
                self.child(game, &child, depth - 1, 1, alpha, beta)
            } else {
                let v = self.child(game, &child, depth - 1, 1, alpha, alpha + 1);
                if v > alpha && !self.aborted {
                    self.child(game, &child, depth - 1, 1, alpha, beta)
                } else {
                    v
                }
            };
            if self.aborted {
                break;
            }
            completed += 1;
            if v > alpha {
                alpha = v;
                best = Some(mv);
            }
        }
        if !self.aborted {
            self.tt
                .store(game.search_key(), 0, depth, alpha, Bound::Exact, best);
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
        if parent.side_to_move() == child.side_to_move() {
            self.node(child, depth, ply, alpha, beta, 0)
        } else {
            -self.node(child, depth, ply, -beta, -alpha, 0)
        }
    }

    fn leaf(&mut self, game: &G, ply: u32) -> Score {
        let outcome = game.outcome();
        if outcome.is_over() {
            self.eval.terminal(game, outcome, ply)
        } else {
            self.eval.evaluate(game)
        }
    }

    fn out_of_budget(&mut self) -> bool {
        if self.nodes & 1023 == 0 {
            if let Some(n) = self.limits.nodes {
                if self.nodes >= n {
                    self.aborted = true;
                }
            }
            if let Some(t) = self.limits.time_ms {
                if self.clock.elapsed_ms() >= t {
                    self.aborted = true;
                }
            }
        }
        self.aborted
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
        let quiescing = depth == 0;
        if quiescing
            && (!self.config.quiescence
                || qply >= self.config.max_quiescence_plies
                || game.is_quiet()
                || game.outcome().is_over())
        {
            return self.leaf(game, ply);
        }

        let key = game.search_key();
        let mut tt_move = None;
        if !quiescing {
            if let Some(e) = self.tt.probe(key, ply) {
                tt_move = e.mv;
                let usable = match self.config.tt_cutoff {
                    TtCutoff::AtLeastDepth => u32::from(e.depth) >= depth,
                    TtCutoff::SameDepth => u32::from(e.depth) == depth,
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

        let mut moves = game.legal_moves();
        if moves.is_empty() {
            return self.leaf(game, ply);
        }
        self.order(game, &mut moves, tt_move, ply as usize);

        let alpha_orig = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        let child_depth = depth.saturating_sub(1);
        let child_qply = if quiescing { qply + 1 } else { 0 };
        for (i, &mv) in moves.iter().enumerate() {
            let child = game.play_unchecked(mv);
            let same_side = child.side_to_move() == game.side_to_move();
            let search = |this: &mut Self, a: Score, b: Score| -> Score {
                if same_side {
                    this.node(&child, child_depth, ply + 1, a, b, child_qply)
                } else {
                    -this.node(&child, child_depth, ply + 1, -b, -a, child_qply)
                }
            };
            let v = if i == 0 {
                search(self, alpha, beta)
            } else {
                let v = search(self, alpha, alpha + 1);
                if v > alpha && v < beta && !self.aborted {
                    search(self, alpha, beta)
                } else {
                    v
                }
            };
            if self.aborted {
                return 0;
            }
            if v > best {
                best = v;
                best_move = Some(mv);
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        self.reward(game, mv, depth, ply as usize);
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
            self.tt.store(key, ply, depth, best, bound, best_move);
        }
        best
    }

    /// A move that caused a beta cutoff becomes a killer at its ply and gains
    /// history in proportion to the depth it refuted.
    fn reward(&mut self, game: &G, mv: G::Move, depth: u32, ply: usize) {
        if !self.config.killers_and_history || ply >= MAX_PLY {
            return;
        }
        let k = &mut self.killers[ply];
        if k[0] != Some(mv) {
            k[1] = k[0];
            k[0] = Some(mv);
        }
        let slot = &mut self.history[game.side_to_move().index()][history_slot(&mv)];
        *slot = slot.saturating_add(depth * depth).min(1 << 20);
    }

    /// Puts the hash move first and sorts the rest by hint, killer and history.
    fn order(&self, game: &G, moves: &mut [G::Move], tt_move: Option<G::Move>, ply: usize) {
        let mut start = 0;
        if let Some(t) = tt_move {
            if let Some(i) = moves.iter().position(|&m| m == t) {
                moves.swap(0, i);
                start = 1;
            }
        }
        let rest = &mut moves[start..];
        if rest.len() < 2 {
            return;
        }
        let killers = if self.config.killers_and_history && ply < MAX_PLY {
            self.killers[ply]
        } else {
            [None, None]
        };
        let history = &self.history[game.side_to_move().index()];
        let use_history = self.config.killers_and_history;
        let key = |m: G::Move| -> i64 {
            let hint = i64::from(game.move_order_hint(m));
            let killer = if killers[0] == Some(m) {
                2
            } else if killers[1] == Some(m) {
                1
            } else {
                0
            };
            let hist = if use_history {
                i64::from(history[history_slot(&m)])
            } else {
                0
            };
            (hint << 32) | (killer << 24) | hist
        };
        if rest.len() <= SCORED_MOVES {
            // Score each move once, then a stable insertion sort (best first): the
            // key is not recomputed per comparison, and ties keep generation order.
            let mut keys = [0i64; SCORED_MOVES];
            for (k, &m) in keys.iter_mut().zip(rest.iter()) {
                *k = key(m);
            }
            for i in 1..rest.len() {
                let (k, m) = (keys[i], rest[i]);
                let mut j = i;
                while j > 0 && keys[j - 1] < k {
                    keys[j] = keys[j - 1];
                    rest[j] = rest[j - 1];
                    j -= 1;
                }
                keys[j] = k;
                rest[j] = m;
            }
        } else {
            rest.sort_unstable_by_key(|&m| Reverse(key(m)));
        }
    }

    fn fill_pv(&mut self, game: &G, report: &mut SearchReport<G::Move>) {
        report.pv.clear();
        let Some(first) = report.best_move else {
            return;
        };
        let _ = report.pv.push(first);
        let mut pos = game.play_unchecked(first);
        while report.pv.len() < MAX_PV && (report.pv.len() as u32) < report.depth.max(1) {
            let Some(e) = self.tt.probe(pos.search_key(), 0) else {
                break;
            };
            let Some(mv) = e.mv else {
                break;
            };
            if !pos.legal_moves().contains(&mv) {
                break;
            }
            let _ = report.pv.push(mv);
            pos = pos.play_unchecked(mv);
        }
    }
}

/// Folds a move into a history slot with FxHash-style mixing of its `Hash` bytes
/// (shared with the host's parallel searches, so both order moves alike).
pub fn history_slot<M: Hash>(mv: &M) -> usize {
    struct Fx(u64);
    impl Hasher for Fx {
        fn finish(&self) -> u64 {
            self.0
        }
        fn write(&mut self, bytes: &[u8]) {
            for &b in bytes {
                self.0 =
                    (self.0.rotate_left(5) ^ u64::from(b)).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
            }
        }
    }
    let mut h = Fx(0);
    mv.hash(&mut h);
    (crate::zobrist::mix64(h.0) as usize) % HISTORY_SLOTS
}

//! The engine's switches ([`EngineConfig`]): quiescence, table cutoffs
//! ([`TtCutoff`]), killers and history, ABDADA, the helper number of Lazy SMP, and
//! endgame-table probes.

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
    /// Search non-quiet horizon positions on (see [`Game::is_quiet`](crate::Game::is_quiet)).
    pub quiescence: bool,
    /// At most this many plies of quiescence below the horizon.
    pub max_quiescence_plies: u32,
    /// When table entries cut the search off.
    pub tt_cutoff: TtCutoff,
    /// Killer moves and the history heuristic.
    pub killers_and_history: bool,
    /// ABDADA: at the root and at nodes with at least
    /// [`ABDADA_MIN_DEPTH`](crate::search::engine::ABDADA_MIN_DEPTH) plies left, a
    /// younger move whose position another engine on the same table is searching is
    /// put off until the node's other moves are done. Needs a table shared by several
    /// engines; on a private table nothing is ever busy.
    pub abdada: bool,
    /// The engine's number among engines sharing a table (0: the main one). Helper
    /// `h` tries the root moves after the first in an order rotated by `h`, so the
    /// engines fill the table with different subtrees (Lazy SMP).
    pub helper: u32,
    /// Ask the evaluation for exact values ([`Evaluator::exact`](crate::search::Evaluator::exact):
    /// endgame tables) at every node below the root, and search no further where it
    /// knows one.
    pub probes: bool,
    /// Late move reductions: at nodes with at least [`LMR_MIN_DEPTH`] plies left, a
    /// move tried after the first [`LMR_FULL_MOVES`] that the game gives no ordering
    /// hint (not a capture, a crowning, an extra turn …) is searched a ply shallower
    /// (two plies from the [`LMR_DEEPER_AFTER`]-th move at nodes with five plies or
    /// more) with a null window, and searched again at full depth if it beats alpha.
    pub lmr: bool,
    /// Aspiration windows at the root: from the fourth iteration, the root is
    /// searched in a window of this half-width around the previous iteration's value,
    /// widened fourfold on each failure; 0: the full window.
    pub aspiration: crate::search::Score,
    /// A node with a single legal move is searched to the same depth as its parent
    /// (the forced move costs no ply).
    pub single_reply_extension: bool,
    /// Futility pruning: at a null-window node with at most [`PRUNE_MAX_DEPTH`] plies
    /// left in a quiet position, a quiet move after the first (no ordering hint, not
    /// the table's move) is skipped when the static evaluation plus this margin times
    /// the plies left is at most alpha; 0: off.
    pub futility: crate::search::Score,
    /// Reverse futility pruning: at a null-window node with at most
    /// [`PRUNE_MAX_DEPTH`] plies left in a quiet position, the node returns its static
    /// evaluation when that, less this margin times the plies left, is at least
    /// beta; 0: off.
    pub reverse_futility: crate::search::Score,
}

/// [`EngineConfig::futility`] and [`EngineConfig::reverse_futility`] prune only at
/// nodes with at most this many plies left.
pub const PRUNE_MAX_DEPTH: u32 = 3;

/// [`EngineConfig::lmr`] reduces only at nodes with at least this many plies left.
pub const LMR_MIN_DEPTH: u32 = 3;
/// [`EngineConfig::lmr`] searches this many moves of a node at full depth first.
pub const LMR_FULL_MOVES: u32 = 3;
/// [`EngineConfig::lmr`] reduces by two plies from this move on (at depth 5 or more).
pub const LMR_DEEPER_AFTER: u32 = 8;

impl Default for EngineConfig {
    fn default() -> Self {
        EngineConfig {
            quiescence: true,
            max_quiescence_plies: 32,
            tt_cutoff: TtCutoff::AtLeastDepth,
            killers_and_history: true,
            abdada: false,
            helper: 0,
            probes: true,
            lmr: false,
            aspiration: 0,
            single_reply_extension: false,
            futility: 0,
            reverse_futility: 0,
        }
    }
}

impl EngineConfig {
    /// The configuration whose root value equals fixed-depth alpha-beta and minimax:
    /// no quiescence, table cutoffs only at equal depth (also when several engines
    /// share the table: every stored bound is a true bound of that depth's value),
    /// no endgame-table probes, no reductions, extensions or aspiration windows.
    pub fn exact() -> Self {
        EngineConfig {
            quiescence: false,
            tt_cutoff: TtCutoff::SameDepth,
            probes: false,
            lmr: false,
            aspiration: 0,
            single_reply_extension: false,
            ..Self::default()
        }
    }
}

//! The solvers' [`SolveControl`]: progress lines to the caller, the bounds exact passes
//! prove into [`Proved`], the stop flag, the node limit and each pass's budget.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::Instant;

use ply_core::games::kalah::solver::{SolveControl, SolveProgress, DEFAULT_POLL_SHIFT};

use super::passes::{Board, PassWatch};
use super::proved::Proved;

/// The nodes between two calls of [`SolveControl::should_stop`]: the solvers of a
/// `ply solve` poll at the default interval (`SolverConfig::poll_shift`).
const POLL_NODES: u64 = 1 << DEFAULT_POLL_SHIFT;

/// What every reporter of a job shares.
#[derive(Clone, Copy)]
pub(super) struct Shared<'a> {
    /// Set to stop every solver.
    pub(super) stop: &'a AtomicBool,
    /// Nodes counted by [`SolveControl::should_stop`] calls (each [`POLL_NODES`]).
    pub(super) counted: &'a AtomicU64,
}

/// Progress lines to the caller (at most one a second), the bounds the task's
/// passes prove (into [`Proved`]), and the stop flag.
pub(super) struct Reporter<'a> {
    pub(super) label: String,
    pub(super) start: Instant,
    pub(super) last: f64,
    pub(super) out: mpsc::Sender<String>,
    pub(super) shared: Shared<'a>,
    /// The task whose bounds the exact passes prove, if any.
    pub(super) task: Option<Conversion>,
    /// The pass under way, if any: stopped once its `beta` is decided or its
    /// budget spent.
    pub(super) pass: Option<PassWatch>,
    pub(super) proved: &'a Proved,
    pub(super) stop_nodes: Option<u64>,
    pub(super) stopped_at_nodes: &'a AtomicBool,
}

impl SolveControl for Reporter<'_> {
    fn progress(&mut self, p: &SolveProgress) {
        if let (None, Some(c)) = (p.depth, self.task) {
            // The bounds of an exact pass are proved.
            self.proved.narrow(c.item, c.bounds(p.lower, p.upper));
        }
        let t = self.start.elapsed().as_secs_f64();
        if t - self.last < 1.0 {
            return;
        }
        self.last = t;
        let depth = match p.depth {
            Some(d) => format!("depth {}", d),
            None => "exact".to_string(),
        };
        let line = format!(
            "{:>7.1} s {}: {} future margin {}..{}, nodes {}, table hits {}, tt fill {}%",
            t,
            self.label,
            depth,
            p.lower,
            p.upper,
            p.nodes,
            p.table_hits,
            p.tt_fill_permille / 10
        );
        let _ = self.out.send(line);
    }

    fn should_stop(&mut self) -> bool {
        if let Some(limit) = self.stop_nodes {
            let n = self.shared.counted.fetch_add(POLL_NODES, Ordering::Relaxed) + POLL_NODES;
            if n >= limit {
                self.stopped_at_nodes.store(true, Ordering::Relaxed);
                self.shared.stop.store(true, Ordering::Relaxed);
            }
        }
        if self.shared.stop.load(Ordering::Relaxed) {
            return true;
        }
        if let (Some(w), Some(c)) = (&mut self.pass, self.task) {
            w.nodes += POLL_NODES;
            if w.nodes >= w.budget {
                w.over_budget = true;
                return true;
            }
            // Stop a pass whose test the other passes have decided.
            let state = self.proved.snapshot();
            let (lo, hi) = Board::bounds(&state, c.item);
            if state[c.item].done || w.beta <= lo || w.beta > hi {
                return true;
            }
        }
        false
    }
}

/// How a task's future margins (what the solver's progress reports) become values
/// for the root's side to move: add the position's stores' margin, and negate when
/// the position's side to move is the root's opponent.
#[derive(Clone, Copy)]
pub(super) struct Conversion {
    pub(super) item: usize,
    pub(super) stores: i32,
    pub(super) flip: bool,
}

impl Conversion {
    /// `lo..=hi` of the task's own margins as bounds for the root's side to move.
    pub(super) fn bounds(&self, lo: i32, hi: i32) -> (i32, i32) {
        let (lo, hi) = (self.stores + lo, self.stores + hi);
        if self.flip {
            (-hi, -lo)
        } else {
            (lo, hi)
        }
    }
}

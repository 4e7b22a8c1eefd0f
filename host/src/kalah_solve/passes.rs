//! Which pass of which task each solver of `ply solve kalah` takes next
//! ([`Board`]): the tasks' MTD(f) sequences of null-window passes, and more passes
//! at other `beta`s of a task under way for the solvers that have no task of their
//! own. Every value is the root's side to move's final margin.
//!
//! A task's own sequence is MTD(f)'s, each pass testing the last fail-soft bound
//! ([`ply_core::games::kalah::solver::next_beta`], as
//! [`ply_core::games::kalah::solver::KalahSolver::solve_bounded`] does).
//! A helper tests the other half of the pair `c`, `c + 2` around the task's center
//! `c` (with the owner's pass, the pair that proves a center that is right, in the
//! time of one pass instead of two); when both are under way or proved it starts
//! another task rather than test further out. Every final margin has the parity of the seeds on the board, so
//! "at least `b`" and "at least `b + 1`" are one test when `b` has the other parity
//! ([`Board::canonical`]).

use std::sync::{Condvar, Mutex};
use std::time::Duration;

use super::checkpoint::TaskState;
use super::proved::Proved;
use ply_core::games::kalah::solver::next_beta;

/// The MTD(f) state of one task: where its value probably is, and the passes under
/// way.
#[derive(Clone, Debug)]
struct Slot {
    /// The last fail-soft value found (at first the first guess).
    center: i32,
    /// The `beta`s being tested now (canonical, see [`Board::canonical`]).
    inflight: Vec<i32>,
    /// Passes finished.
    passes: u32,
    /// Nodes spent after the first finished pass (against `--move-nodes`).
    after_first: u64,
}

impl Slot {
    fn new(center: i32) -> Self {
        Slot {
            center,
            inflight: Vec::new(),
            passes: 0,
            after_first: 0,
        }
    }
}

/// One pass given to a solver.
pub(super) struct Assignment {
    pub(super) item: usize,
    /// The bounds the task's value is known to lie in (a move's below the root's
    /// value once that is known).
    pub(super) bounds: (i32, i32),
    pub(super) beta: i32,
    /// Nodes the pass may spend (the rest of the task's budget).
    pub(super) budget: u64,
}

pub(super) enum Pick {
    Pass(Assignment),
    /// Nothing to do now; more may come when a pass ends.
    Wait,
    /// Every task is done.
    Done,
}

/// The passes of a job: which task and `beta` each solver takes next.
pub(super) struct Board {
    slots: Mutex<Vec<Slot>>,
    wake: Condvar,
    /// The parity of every value (final margins).
    parity: i32,
    /// The tasks' items in the order they are taken.
    order: Vec<usize>,
}

impl Board {
    /// The passes of the tasks `order` (items, in the order they are taken), each
    /// starting from its first guess (`centers`, by item), every value of parity
    /// `parity`.
    pub(super) fn new(centers: Vec<i32>, parity: i32, order: Vec<usize>) -> Self {
        Board {
            slots: Mutex::new(centers.into_iter().map(Slot::new).collect()),
            wake: Condvar::new(),
            parity,
            order,
        }
    }

    /// Wakes the solvers waiting for a pass (the job is stopping).
    pub(super) fn wake_all(&self) {
        self.wake.notify_all();
    }

    /// The test "at least `beta`" as the test of a value of the right parity: "at
    /// least `beta`" and "at least `beta + 1`" are one test when no value has
    /// `beta`'s parity.
    pub(super) fn canonical(&self, beta: i32) -> i32 {
        if (beta - self.parity).rem_euclid(2) == 1 {
            beta + 1
        } else {
            beta
        }
    }

    /// The bounds task `item` is known to lie in.
    pub(super) fn bounds(state: &[TaskState], item: usize) -> (i32, i32) {
        let t = state[item];
        let root = &state[0];
        if item > 0 && root.lo == root.hi {
            (t.lo, t.hi.min(root.lo))
        } else {
            (t.lo, t.hi)
        }
    }

    /// The next `beta` of the task's own MTD(f) sequence.
    fn own_beta(slot: &Slot, bounds: (i32, i32)) -> i32 {
        next_beta(slot.center, bounds)
    }

    /// A `beta` another solver can test beside the ones under way: of the pair
    /// `c`, `c + 2` around the task's center `c` (what proves the value if the
    /// center is right), one that no pass tests and that is still open. When a
    /// pass has proved the center a bound (`c` = the lower bound: the value is
    /// `c` or more), half the pair is decided and the next test out on that side
    /// (`c + 4`; `c - 2` below an upper bound) is what the value needs if the
    /// center is not the value. Tests further out pay only when the center is
    /// wrong: a solver does better to start another task.
    fn helper_beta(&self, slot: &Slot, (lo, hi): (i32, i32)) -> Option<i32> {
        let c = self.canonical(slot.center.clamp(lo, hi));
        let beyond = if c <= lo {
            Some(c + 4)
        } else if c >= hi {
            Some(c - 2)
        } else {
            None
        };
        [c + 2, c]
            .into_iter()
            .chain(beyond)
            .find(|&b| lo < b && b <= hi && !slot.inflight.contains(&b))
    }

    /// The next pass for a solver, or why there is none.
    pub(super) fn pick(&self, proved: &Proved, move_nodes: u64) -> Pick {
        let mut slots = self.slots.lock().unwrap_or_else(|e| e.into_inner());
        let state = proved.snapshot();
        let open: Vec<usize> = self
            .order
            .iter()
            .copied()
            .filter(|&i| !state[i].done)
            .collect();
        if open.is_empty() {
            return Pick::Done;
        }
        let assign = |slots: &mut Vec<Slot>, item: usize, beta: i32| {
            let slot = &mut slots[item];
            slot.inflight.push(self.canonical(beta));
            let budget = if item == 0 || slot.passes == 0 {
                u64::MAX
            } else {
                move_nodes.saturating_sub(slot.after_first)
            };
            Pick::Pass(Assignment {
                item,
                bounds: Self::bounds(&state, item),
                beta,
                budget,
            })
        };
        let root_open = open[0] == 0;
        // The root first; then, with the root's own pass taken, help it.
        if root_open && slots[0].inflight.is_empty() {
            let beta = Self::own_beta(&slots[0], Self::bounds(&state, 0));
            return assign(&mut slots, 0, beta);
        }
        if root_open {
            if let Some(beta) = self.helper_beta(&slots[0], Self::bounds(&state, 0)) {
                return assign(&mut slots, 0, beta);
            }
        }
        for &i in &open {
            if slots[i].inflight.is_empty() {
                let beta = Self::own_beta(&slots[i], Self::bounds(&state, i));
                return assign(&mut slots, i, beta);
            }
        }
        for &i in &open {
            if let Some(beta) = self.helper_beta(&slots[i], Self::bounds(&state, i)) {
                return assign(&mut slots, i, beta);
            }
        }
        // Every open task's useful passes are under way: wait for one to end.
        drop(
            self.wake
                .wait_timeout(slots, Duration::from_millis(100))
                .unwrap_or_else(|e| e.into_inner()),
        );
        Pick::Wait
    }

    /// A pass stopped with the job: its nodes are counted, nothing else changes.
    pub(super) fn abandon(&self, a: &Assignment, proved: &Proved, spent: u64) {
        let mut slots = self.slots.lock().unwrap_or_else(|e| e.into_inner());
        remove_one(&mut slots[a.item].inflight, self.canonical(a.beta));
        proved.spent(a.item, spent);
        self.wake.notify_all();
    }

    /// A pass ended: with the bounds `found`, or stopped (`None`: its `beta` was
    /// decided by other passes, or the task's node budget ran out). Updates the
    /// task; when that finishes it, its bounds and nodes.
    pub(super) fn finish(
        &self,
        a: &Assignment,
        found: Option<(i32, i32)>,
        over_budget: bool,
        spent: u64,
        proved: &Proved,
        move_nodes: u64,
    ) -> Option<(i32, i32, u64)> {
        let mut slots = self.slots.lock().unwrap_or_else(|e| e.into_inner());
        let slot = &mut slots[a.item];
        remove_one(&mut slot.inflight, self.canonical(a.beta));
        if slot.passes > 0 {
            slot.after_first = slot.after_first.saturating_add(spent);
        }
        proved.spent(a.item, spent);
        if let Some((lo, hi)) = found {
            slot.passes += 1;
            proved.narrow(a.item, (lo, hi));
            // The fail-soft value: the new bound.
            slot.center = if lo >= a.beta { lo } else { hi };
        }
        let state = proved.snapshot();
        let (lo, hi) = Self::bounds(&state, a.item);
        // A move's budget counts after its first pass.
        let budget_spent =
            a.item > 0 && slot.passes > 0 && (over_budget || slot.after_first >= move_nodes);
        let result = if !state[a.item].done && (lo >= hi || budget_spent) {
            proved.finish(a.item, (lo, hi), 0);
            Some((lo, hi, state[a.item].nodes))
        } else {
            None
        };
        self.wake.notify_all();
        result
    }
}

fn remove_one(v: &mut Vec<i32>, x: i32) {
    if let Some(k) = v.iter().position(|&y| y == x) {
        v.swap_remove(k);
    }
}

/// What a solver's [`Reporter`] watches during one pass: whether its `beta` still
/// matters, and its node budget.
pub(super) struct PassWatch {
    /// The pass's test, canonical ([`Board::canonical`]).
    pub(super) beta: i32,
    /// Nodes the pass may spend.
    pub(super) budget: u64,
    /// Nodes spent so far (counted a poll's nodes at a time, 2^16).
    pub(super) nodes: u64,
    /// The pass stopped at its budget.
    pub(super) over_budget: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pass(p: Pick) -> Assignment {
        match p {
            Pick::Pass(a) => a,
            Pick::Wait => panic!("wait"),
            Pick::Done => panic!("done"),
        }
    }

    #[test]
    fn the_root_gets_two_passes_then_the_moves_then_helpers() {
        // Root (item 0) guessed 8, two moves guessed -12 and 6; even values.
        let proved = Proved::new(3, None);
        let board = Board::new(vec![8, -12, 6], 0, vec![0, 1, 2]);
        assert_eq!(board.canonical(9), 10);
        assert_eq!(board.canonical(-3), -2);
        assert_eq!(board.canonical(8), 8);
        // The root's own pass tests "at least 8", a helper "at least 10".
        let a = pass(board.pick(&proved, u64::MAX));
        assert_eq!((a.item, a.beta), (0, 8));
        let b = pass(board.pick(&proved, u64::MAX));
        assert_eq!((b.item, b.beta), (0, 10));
        // With the pair taken, a third solver starts the first move.
        let c = pass(board.pick(&proved, u64::MAX));
        assert_eq!((c.item, c.beta), (1, -12));
        // The root proved at least 8 (fail-soft 8): "at least 10" decides
        // whether the value is 8, and if it is more, "at least 12" is next. Its
        // solver tests that beside "at least 10" rather than start a move.
        assert_eq!(
            board.finish(&a, Some((8, 1000)), false, 5, &proved, u64::MAX),
            None
        );
        let up = pass(board.pick(&proved, u64::MAX));
        assert_eq!((up.item, up.beta, up.bounds), (0, 12, (8, 1000)));
        // With both under way, the next solver takes the second move.
        let d = pass(board.pick(&proved, u64::MAX));
        assert_eq!((d.item, d.beta), (2, 6));
        // "At least 10" fails with 8: the root is exact; the moves are now below 8.
        // The pass of "at least 12" is decided: it stops, its nodes counted.
        let (lo, hi, nodes) = board
            .finish(&b, Some((-1000, 8)), false, 7, &proved, u64::MAX)
            .unwrap();
        assert_eq!((lo, hi, nodes), (8, 8, 12));
        assert_eq!(board.finish(&up, None, false, 2, &proved, u64::MAX), None);
        assert_eq!(Board::bounds(&proved.snapshot(), 2), (-1000, 8));
        // Move 2 proved at least 6: its own next pass tests "at least 7", which is
        // "at least 8" (no value is odd); with 6 proved, no helper is left for it.
        assert_eq!(
            board.finish(&d, Some((6, 1000)), false, 1, &proved, u64::MAX),
            None
        );
        let e = pass(board.pick(&proved, u64::MAX));
        assert_eq!((e.item, e.beta, e.bounds), (2, 7, (6, 8)));
        let f = pass(board.pick(&proved, u64::MAX));
        assert_eq!((f.item, f.beta), (1, -10), "a helper of move 1");
        // Nothing left to start: a fourth solver waits.
        assert!(matches!(board.pick(&proved, u64::MAX), Pick::Wait));
    }

    #[test]
    fn a_helper_tests_the_next_bound_out_once_the_center_is_proved_a_bound() {
        // Root guessed 0: "at least 0" and "at least 2" run.
        let proved = Proved::new(1, None);
        let board = Board::new(vec![0], 0, vec![0]);
        let a = pass(board.pick(&proved, u64::MAX));
        let b = pass(board.pick(&proved, u64::MAX));
        assert_eq!((a.beta, b.beta), (0, 2));
        // "At least 0" fails with -4: the value is -4 or less. "At least -4" is
        // the root's own next pass; a helper tests "at least -6", the next one
        // down should -4 fail too.
        assert_eq!(
            board.finish(&a, Some((-1000, -4)), false, 1, &proved, u64::MAX),
            None
        );
        assert_eq!(board.finish(&b, None, false, 1, &proved, u64::MAX), None);
        let own = pass(board.pick(&proved, u64::MAX));
        assert_eq!((board.canonical(own.beta), own.bounds), (-4, (-1000, -4)));
        let helper = pass(board.pick(&proved, u64::MAX));
        assert_eq!(helper.beta, -6);
    }

    #[test]
    fn each_own_pass_tests_the_last_fail_soft_bound() {
        // A run of passes failing low never tests past the bound the last one
        // found: a step that doubled would test "at least -12" after the third
        // (value -10 missed, and a second expensive pass needed to come back).
        let proved = Proved::new(1, None);
        let board = Board::new(vec![0], 0, vec![0]);
        for (beta, fail_soft) in [(0, -4), (-4, -8), (-8, -10)] {
            let a = pass(board.pick(&proved, u64::MAX));
            assert_eq!(board.canonical(a.beta), beta);
            assert_eq!(
                board.finish(&a, Some((-1000, fail_soft)), false, 1, &proved, u64::MAX),
                None
            );
        }
        let a = pass(board.pick(&proved, u64::MAX));
        assert_eq!((board.canonical(a.beta), a.bounds), (-10, (-1000, -10)));
    }

    #[test]
    fn a_moves_budget_counts_after_its_first_pass() {
        let proved = Proved::new(2, None);
        let board = Board::new(vec![0, -10], 0, vec![1]);
        let a = pass(board.pick(&proved, 0));
        assert_eq!(a.budget, u64::MAX, "the first pass always completes");
        // The first pass proves at most -10; with no budget after it, the move is
        // done with that bound.
        let done = board.finish(&a, Some((-1000, -10)), false, 100, &proved, 0);
        assert_eq!(done, Some((-1000, -10, 100)));
        assert!(matches!(board.pick(&proved, 0), Pick::Done));
    }
}

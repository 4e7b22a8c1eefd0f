//! What the threaded solve has proved so far ([`Proved`]): bounds on every task's
//! value and which tasks are done, shared by the solvers, the progress lines and the
//! checkpoint.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use super::checkpoint::TaskState;
pub(super) use super::checkpoint::UNKNOWN;

/// What the solve has proved so far, every value for the root's side to move: item 0
/// is the root, item `k` the `k`-th legal move in generation order.
pub(super) struct Proved {
    tasks: Mutex<Vec<TaskState>>,
    changed: AtomicBool,
}

impl Proved {
    /// Nothing proved about `items` tasks, or what `resume` says.
    pub(super) fn new(items: usize, resume: Option<Vec<Option<TaskState>>>) -> Self {
        let none = TaskState {
            lo: UNKNOWN.0,
            hi: UNKNOWN.1,
            done: false,
            nodes: 0,
        };
        let tasks = match resume {
            Some(r) => r.into_iter().map(|t| t.unwrap_or(none)).collect(),
            None => vec![none; items],
        };
        Proved {
            tasks: Mutex::new(tasks),
            changed: AtomicBool::new(false),
        }
    }

    /// Every task's state.
    pub(super) fn snapshot(&self) -> Vec<TaskState> {
        self.tasks.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// The checkpoint's records: a task with nothing proved and no nodes has none.
    pub(super) fn records(&self) -> Vec<Option<TaskState>> {
        self.snapshot()
            .into_iter()
            .map(|t| (t.done || (t.lo, t.hi) != UNKNOWN || t.nodes > 0).then_some(t))
            .collect()
    }

    /// Task `i`'s value is proved to lie in `lo..=hi` as well. The root's value is
    /// the best move's: bounds on the moves bound it too (it is at least every
    /// move's lower bound and at most the largest upper bound), and it is done once
    /// that makes it exact; and no move is worth more than the root's upper bound.
    pub(super) fn narrow(&self, i: usize, (lo, hi): (i32, i32)) {
        let mut tasks = self.tasks.lock().unwrap_or_else(|e| e.into_inner());
        let tighten = |t: &mut TaskState, lo: i32, hi: i32| {
            let (nlo, nhi) = (t.lo.max(lo), t.hi.min(hi));
            if (nlo, nhi) != (t.lo, t.hi) && nlo <= nhi {
                t.lo = nlo;
                t.hi = nhi;
                self.changed.store(true, Ordering::Relaxed);
            }
        };
        tighten(&mut tasks[i], lo, hi);
        if i > 0 {
            let lo = tasks[1..].iter().map(|t| t.lo).max().unwrap_or(UNKNOWN.0);
            let hi = tasks[1..].iter().map(|t| t.hi).max().unwrap_or(UNKNOWN.1);
            tighten(&mut tasks[0], lo, hi);
            if tasks[0].lo == tasks[0].hi {
                tasks[0].done = true;
            }
        }
        let root_hi = tasks[0].hi;
        if root_hi < UNKNOWN.1 {
            for t in &mut tasks[1..] {
                tighten(t, UNKNOWN.0, root_hi);
            }
        }
    }

    /// Task `i` is finished with the bounds `b`, having searched `nodes` more.
    pub(super) fn finish(&self, i: usize, b: (i32, i32), nodes: u64) {
        self.narrow(i, b);
        let mut tasks = self.tasks.lock().unwrap_or_else(|e| e.into_inner());
        tasks[i].done = true;
        tasks[i].nodes += nodes;
        self.changed.store(true, Ordering::Relaxed);
    }

    /// Task `i` searched `nodes` more without finishing.
    pub(super) fn spent(&self, i: usize, nodes: u64) {
        let mut tasks = self.tasks.lock().unwrap_or_else(|e| e.into_inner());
        tasks[i].nodes += nodes;
        self.changed.store(true, Ordering::Relaxed);
    }

    /// Whether anything changed since the last call.
    pub(super) fn take_changed(&self) -> bool {
        self.changed.swap(false, Ordering::Relaxed)
    }

    /// The root's value, once it is exact.
    pub(super) fn root_value(&self) -> Option<i32> {
        let t = self.tasks.lock().unwrap_or_else(|e| e.into_inner())[0];
        (t.lo == t.hi).then_some(t.lo)
    }

    /// What is proved, as a progress line: `root 8..=12, pit 1 <= -6, pit 3 = 8, ...`.
    pub(super) fn line(&self, names: &[String]) -> String {
        let show = |t: &TaskState| match (t.lo, t.hi) {
            (lo, hi) if lo == hi => format!("= {}", lo),
            (lo, hi) if lo <= UNKNOWN.0 && hi >= UNKNOWN.1 => "?".to_string(),
            (lo, hi) if lo <= UNKNOWN.0 => format!("<= {}", hi),
            (lo, hi) if hi >= UNKNOWN.1 => format!(">= {}", lo),
            (lo, hi) => format!("{}..={}", lo, hi),
        };
        let tasks = self.snapshot();
        std::iter::once(format!("root {}", show(&tasks[0])))
            .chain(
                tasks[1..]
                    .iter()
                    .zip(names)
                    .map(|(t, n)| format!("pit {} {}", n, show(t))),
            )
            .collect::<Vec<_>>()
            .join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_moves_bound_the_root_and_the_root_bounds_the_moves() {
        let proved = Proved::new(3, None);
        let names = ["1".to_string(), "2".to_string()];
        assert_eq!(proved.line(&names), "root ?, pit 1 ?, pit 2 ?");
        // A pass on the root proves it at most 10: no move is worth more.
        proved.narrow(0, (UNKNOWN.0, 10));
        assert_eq!(proved.line(&names), "root <= 10, pit 1 <= 10, pit 2 <= 10");
        // A move proved at least 4 makes the root at least 4.
        proved.narrow(2, (4, UNKNOWN.1));
        assert_eq!(
            proved.line(&names),
            "root 4..=10, pit 1 <= 10, pit 2 4..=10"
        );
        // Both moves at most 6: the root too, and then 6 bounds them both again.
        proved.narrow(1, (UNKNOWN.0, 6));
        proved.narrow(2, (UNKNOWN.0, 6));
        assert_eq!(proved.line(&names), "root 4..=6, pit 1 <= 6, pit 2 4..=6");
        assert!(proved.root_value().is_none());
        proved.narrow(2, (6, 6));
        assert_eq!(proved.root_value(), Some(6));
        assert_eq!(proved.line(&names), "root = 6, pit 1 <= 6, pit 2 = 6");
    }
}

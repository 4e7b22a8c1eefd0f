//! The threaded solve behind `ply solve kalah`: the root value and every first move's
//! value, as tasks shared out among one solver per thread over one lock-free
//! transposition table (what one solver proves, the others find).
//!
//! 1. First guesses: a shallow search of each first move ([`KalahSolver::estimate`],
//!    `--guess-depth` plies; the moves shared out among the threads) gives its
//!    task a first guess and orders the moves worst first: those cost most.
//! 2. Tasks: the root first, then the moves, each solved by MTD(f) null-window
//!    passes ([`KalahSolver::test`]) that the solvers take one at a time
//!    (`passes.rs`): a solver takes the next pass of the first task nobody works on,
//!    and where there is none (and, while the root is unsolved, before that) a pass
//!    at another `beta` of a task under way, so every core works on the root until
//!    it is solved and on the last moves at the end. Once the root value `V` is
//!    known, each move is searched below `V` (a best move's first pass proves it
//!    equal to `V`); after its first pass a move may spend `--move-nodes`
//!    nodes on its exact value, else only the bounds proved so far are kept.
//! 3. Settling: a move whose budget ran out before `V` was known may not be proved
//!    below `V` yet: one pass against `V` decides.
//!
//! What is proved so far ([`Proved`]: bounds on every task's value from the passes
//! that finished, and which tasks are done) is shared by the solvers, the progress
//! lines and the checkpoint; a job given such bounds (resumed from a checkpoint)
//! starts each task inside them and skips the finished ones.
//!
//! Every value here is the root's side to move's final margin. The solver values a
//! first move's position for its own side to move; [`FirstMove`] turns those values
//! into the root mover's, the one place that converts.
//!
//! Here: the job and its threads; what is proved in `proved.rs`, the tasks and the
//! conversion in `tasks.rs`, the solvers' progress and stop control in `reporter.rs`.

use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use ply_core::games::kalah::solver::{
    EndgameTables, Interrupted, KalahSolver, SharedSolverTable, SolverConfig,
};
use ply_core::games::kalah::{Kalah, Pit};
use ply_core::{Game, Player};

use super::passes::{Board, PassWatch, Pick};
use super::proved::Proved;
use super::reporter::{Reporter, Shared};
use super::tasks::{FirstMove, Task};

/// A solve to share out: the root position, the memory every solver shares, and the
/// settings.
pub(super) struct Job<'a> {
    /// The position to solve.
    pub(super) root: &'a Kalah,
    /// The transposition table every solver uses.
    pub(super) table: SharedSolverTable<'a>,
    /// The endgame tables.
    pub(super) tables: EndgameTables<'a>,
    /// The configuration of every solver.
    pub(super) config: SolverConfig,
    /// Solver threads.
    pub(super) threads: usize,
    /// Plies of the first guesses (`--guess-depth`).
    pub(super) guess_depth: u32,
    /// Nodes a move may spend after its first pass (`--move-nodes`).
    pub(super) move_nodes: u64,
    /// The clock of the progress lines.
    pub(super) start: Instant,
    /// What is proved so far (and, resuming, what was proved before).
    pub(super) proved: &'a Proved,
    /// Called when something more is proved (at most once a second) and at the end:
    /// saves the checkpoint (an error is shown as a progress line).
    pub(super) save: &'a (dyn Fn() -> Result<(), String> + Sync),
    /// Stop once the solvers have searched about this many nodes in all, as Ctrl-C
    /// would (`PLY_KALAH_STOP_NODES`, a test hook of builds with debug assertions).
    pub(super) stop_nodes: Option<u64>,
    /// Set when the job stopped at `stop_nodes`.
    pub(super) stopped_at_nodes: &'a AtomicBool,
}

/// What a job found, every value for the root's side to move.
pub(super) struct Solved {
    /// The root's value.
    pub(super) value: i32,
    /// Bounds on each legal move's value, in generation order (equal: exact).
    pub(super) moves: Vec<(Pit, (i32, i32))>,
    /// Nodes searched by all the solvers.
    pub(super) nodes: u64,
}

impl<'a> Job<'a> {
    /// Runs the job on `threads` threads, passing progress lines to `progress`.
    pub(super) fn run(&self, progress: &mut dyn FnMut(&str)) -> Result<Solved, String> {
        let stop = AtomicBool::new(false);
        let counted = AtomicU64::new(0);
        let me = self.root.side_to_move();
        let moves: Vec<FirstMove> = self
            .root
            .legal_moves()
            .iter()
            .map(|&mv| FirstMove {
                mv,
                child: self.root.play_unchecked(mv),
                me,
            })
            .collect();
        let shared = Shared {
            stop: &stop,
            counted: &counted,
        };
        let (tx, rx) = mpsc::channel::<String>();
        let (estimates, estimate_nodes) = self.first_guesses(&moves, tx.clone(), shared)?;
        let mut order: Vec<usize> = (0..moves.len()).collect();
        order.sort_by_key(|&i| estimates[i]);
        let _ = tx.send(format!(
            "{:>7.1} s first guesses ({} plies, {} nodes): {}",
            self.start.elapsed().as_secs_f64(),
            self.guess_depth,
            estimate_nodes,
            order
                .iter()
                .map(|&i| format!(
                    "pit {} {}",
                    self.root.display_move(moves[i].mv),
                    estimates[i]
                ))
                .collect::<Vec<_>>()
                .join(", ")
        ));
        let done = self.proved.snapshot();
        let tasks: Vec<Task> = std::iter::once(Task::Root)
            .chain(order.iter().map(|&i| Task::Move(i)))
            .filter(|t| !done[t.item()].done)
            .collect();
        let mut solved = self.run_tasks(&moves, &estimates, &tasks, (tx, rx), progress, shared)?;
        solved.nodes += estimate_nodes;
        solved.nodes += self.settle(&moves, &mut solved, shared)?;
        Ok(solved)
    }

    /// A solver over the shared table with the job's configuration.
    fn solver(&self) -> Result<KalahSolver<'a, SharedSolverTable<'a>>, String> {
        let mut solver = KalahSolver::with_table(self.root.rules(), self.table, self.tables)
            .map_err(|e| e.to_string())?;
        solver.set_config(self.config);
        Ok(solver)
    }

    /// A reporter of progress lines to `out` for the task `task`, if any.
    fn reporter<'r>(
        &'r self,
        label: String,
        out: mpsc::Sender<String>,
        shared: Shared<'r>,
    ) -> Reporter<'r> {
        Reporter {
            label,
            start: self.start,
            last: 0.0,
            out,
            shared,
            task: None,
            pass: None,
            proved: self.proved,
            stop_nodes: self.stop_nodes,
            stopped_at_nodes: self.stopped_at_nodes,
        }
    }

    /// Each move's first guess, and the nodes they took: the moves shared out among
    /// the job's threads, one solver each over the shared table. On a big board
    /// the guesses' time is mostly the kernel clearing the transposition table's
    /// pages on their first touch (Kalah(6,5) with an 8 GiB table: 19.5 s for 11 M
    /// nodes on one thread), which each thread does for the pages it touches.
    fn first_guesses(
        &self,
        moves: &[FirstMove],
        tx: mpsc::Sender<String>,
        shared: Shared<'_>,
    ) -> Result<(Vec<i32>, u64), String> {
        let next = AtomicUsize::new(0);
        let estimates: Vec<AtomicI32> = moves.iter().map(|_| AtomicI32::new(0)).collect();
        let nodes = AtomicU64::new(0);
        let guess = |tx: mpsc::Sender<String>| -> Result<(), String> {
            let mut solver = self.solver()?;
            let mut rep = self.reporter("first guesses".to_string(), tx, shared);
            let result = loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(m) = moves.get(i) else {
                    break Ok(());
                };
                match m.estimate(&mut solver, self.guess_depth, &mut rep) {
                    Ok(e) => estimates[i].store(e, Ordering::Relaxed),
                    Err(e) => {
                        // Stop the others too.
                        shared.stop.store(true, Ordering::Relaxed);
                        break Err(e.to_string());
                    }
                }
            };
            nodes.fetch_add(solver.nodes(), Ordering::Relaxed);
            result
        };
        let threads = self.threads.clamp(1, moves.len().max(1));
        std::thread::scope(|s| {
            let handles: Vec<_> = (0..threads)
                .map(|_| {
                    let tx = tx.clone();
                    s.spawn(move || guess(tx))
                })
                .collect();
            join_all(handles)
        })?;
        Ok((
            estimates
                .iter()
                .map(|e| e.load(Ordering::Relaxed))
                .collect(),
            nodes.load(Ordering::Relaxed),
        ))
    }

    /// The root value, bounds on every move's value, and the nodes searched: the
    /// tasks (`tasks`, in order) done by up to `threads` solvers as null-window
    /// passes ([`KalahSolver::test`]). A solver takes the first task no solver works
    /// on, with the next `beta` of its MTD(f) sequence; when there is none (and,
    /// while the root is unsolved, before that) it helps a task under way with
    /// another `beta` near its value, so no core idles while the root or the last
    /// moves are being solved. A pass whose `beta` the others' passes have decided
    /// meanwhile is stopped. The lines the solvers send are passed to `progress` as
    /// they come, with a line of what is proved (and the checkpoint saved) when that
    /// changes, at most once a second.
    fn run_tasks(
        &self,
        moves: &[FirstMove],
        estimates: &[i32],
        tasks: &[Task],
        (tx, rx): (mpsc::Sender<String>, mpsc::Receiver<String>),
        progress: &mut dyn FnMut(&str),
        shared: Shared<'_>,
    ) -> Result<Solved, String> {
        let root_guess = estimates.iter().copied().max().unwrap_or(0);
        let total_nodes = AtomicU64::new(0);
        let elapsed = || self.start.elapsed().as_secs_f64();
        let names: Vec<String> = moves
            .iter()
            .map(|m| self.root.display_move(m.mv).to_string())
            .collect();
        // Every final margin has the parity of the seeds on the board.
        let seeds = self.root.seeds_in_play()
            + self.root.store(Player::First)
            + self.root.store(Player::Second);
        let board = Board::new(
            std::iter::once(root_guess)
                .chain(estimates.iter().copied())
                .collect(),
            (seeds & 1) as i32,
            tasks.iter().map(|t| t.item()).collect(),
        );
        let solvers = self.threads.max(1);
        let worker = |tx: mpsc::Sender<String>| -> Result<(), String> {
            let mut solver = self.solver()?;
            let mut rep = self.reporter(String::new(), tx.clone(), shared);
            let result = (|| -> Result<(), String> {
                loop {
                    let a = match board.pick(self.proved, self.move_nodes) {
                        Pick::Done => return Ok(()),
                        Pick::Wait => {
                            if shared.stop.load(Ordering::Relaxed) {
                                return Err(Interrupted.to_string());
                            }
                            continue;
                        }
                        Pick::Pass(a) => a,
                    };
                    let task = if a.item == 0 {
                        Task::Root
                    } else {
                        Task::Move(a.item - 1)
                    };
                    rep.label = match task {
                        Task::Root => "root".to_string(),
                        Task::Move(i) => format!("pit {}", names[i]),
                    };
                    rep.task = Some(task.conversion(self.root, moves));
                    rep.pass = Some(PassWatch {
                        beta: board.canonical(a.beta),
                        budget: a.budget,
                        nodes: 0,
                        over_budget: false,
                    });
                    let before = solver.nodes();
                    let found = match task {
                        Task::Root => {
                            solver.test(self.root, a.bounds.0, a.bounds.1, a.beta, &mut rep)
                        }
                        Task::Move(i) => moves[i].test(&mut solver, a.bounds, a.beta, &mut rep),
                    };
                    let watch = rep.pass.take().expect("set above");
                    rep.task = None;
                    let spent = solver.nodes() - before;
                    let global_stop =
                        found.is_err() && !watch.over_budget && shared.stop.load(Ordering::Relaxed);
                    if global_stop {
                        board.abandon(&a, self.proved, spent);
                        return Err(Interrupted.to_string());
                    }
                    if let Some((lo, hi, nodes)) = board.finish(
                        &a,
                        found.ok(),
                        watch.over_budget,
                        spent,
                        self.proved,
                        self.move_nodes,
                    ) {
                        let what = match task {
                            Task::Root => format!("root: value {}", lo),
                            Task::Move(i) if lo == hi => {
                                format!("pit {}: value {}", names[i], lo)
                            }
                            Task::Move(i) => format!(
                                "pit {}: value {}..={} (node budget spent)",
                                names[i], lo, hi
                            ),
                        };
                        let _ = tx.send(format!("{:>7.1} s {} ({} nodes)", elapsed(), what, nodes));
                    }
                }
            })();
            total_nodes.fetch_add(solver.nodes(), Ordering::Relaxed);
            if result.is_err() {
                // Stop the others too.
                shared.stop.store(true, Ordering::Relaxed);
            }
            board.wake_all();
            result
        };
        let solved: Result<(), String> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..solvers)
                .map(|_| {
                    let tx = tx.clone();
                    s.spawn(move || worker(tx))
                })
                .collect();
            drop(tx);
            let mut last_save = Instant::now();
            let report = |progress: &mut dyn FnMut(&str)| {
                if self.proved.take_changed() {
                    if let Err(e) = (self.save)() {
                        progress(&e);
                    }
                    progress(&format!(
                        "{:>7.1} s proved: {}",
                        elapsed(),
                        self.proved.line(&names)
                    ));
                }
            };
            loop {
                match rx.recv_timeout(Duration::from_millis(200)) {
                    Ok(line) => progress(&line),
                    Err(mpsc::RecvTimeoutError::Timeout) => {}
                    Err(mpsc::RecvTimeoutError::Disconnected) => break,
                }
                if last_save.elapsed() >= Duration::from_secs(1) {
                    last_save = Instant::now();
                    report(progress);
                }
            }
            let result = join_all(handles);
            report(progress);
            result
        });
        solved?;
        let state = self.proved.snapshot();
        let value = self.proved.root_value().ok_or("the root was not solved")?;
        let nodes = total_nodes.load(Ordering::Relaxed);
        if let Some(i) = state[1..].iter().position(|t| !t.done) {
            return Err(format!("pit {} was not solved", names[i]));
        }
        Ok(Solved {
            value,
            moves: moves
                .iter()
                .zip(&state[1..])
                .map(|(m, t)| (m.mv, (t.lo, t.hi.min(value))))
                .collect(),
            nodes,
        })
    }

    /// Step 3: one pass against the root value for each move whose bounds do not
    /// yet put it below the root; the nodes it took.
    fn settle(
        &self,
        moves: &[FirstMove],
        solved: &mut Solved,
        shared: Shared<'_>,
    ) -> Result<u64, String> {
        let root = solved.value;
        let mut solver = self.solver()?;
        for (i, (m, (_, b))) in moves.iter().zip(solved.moves.iter_mut()).enumerate() {
            let (lo, hi) = *b;
            if lo < hi && hi >= root {
                let (quiet, _) = mpsc::channel();
                let label = format!("pit {}", self.root.display_move(m.mv));
                let mut rep = self.reporter(label, quiet, shared);
                let before = solver.nodes();
                *b = m
                    .solve_bounded(&mut solver, (lo, root), root, 0, &mut rep)
                    .map_err(|e| e.to_string())?;
                self.proved.finish(i + 1, *b, solver.nodes() - before);
            }
        }
        if self.proved.take_changed() {
            (self.save)()?;
        }
        Ok(solver.nodes())
    }
}

/// Waits for every solving thread; the first error among them (a panic is one).
fn join_all(
    handles: Vec<std::thread::ScopedJoinHandle<'_, Result<(), String>>>,
) -> Result<(), String> {
    let mut result = Ok(());
    for h in handles {
        let r = h
            .join()
            .unwrap_or_else(|_| Err("a solving thread panicked".to_string()));
        if result.is_ok() {
            result = r;
        }
    }
    result
}

//! The threaded solve behind `ply solve kalah`: the root value and every first move's
//! value, as tasks shared out among one solver per thread over one lock-free
//! transposition table (what one solver proves, the others find).
//!
//! 1. First guesses: a shallow search of each first move ([`KalahSolver::estimate`],
//!    `PLY_GUESS_DEPTH` plies) gives its task a first guess and orders the moves
//!    worst first: those cost most.
//! 2. Tasks: the root first, then the moves. Once the root value `V` is known, each
//!    move is searched below `V` (a best move's first pass proves it equal to `V`);
//!    after its first pass a move may spend `PLY_KALAH_MOVE_NODES` nodes on its
//!    exact value, else only the bounds proved so far are kept.
//! 3. Settling: a move whose budget ran out before `V` was known may not be proved
//!    below `V` yet: one pass against `V` decides.
//!
//! Every value here is the root's side to move's final margin. The solver values a
//! first move's position for its own side to move; [`FirstMove`] turns those values
//! into the root mover's, the one place that converts.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{mpsc, Mutex};
use std::time::Instant;

use ply_core::games::kalah::solver::{
    bounds_for_player, EndgameTables, Interrupted, KalahSolver, SharedSolverTable, SolveControl,
    SolveProgress, SolverConfig,
};
use ply_core::games::kalah::{Kalah, Pit};
use ply_core::search::for_player;
use ply_core::{Game, Player};

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
    /// Plies of the first guesses (`PLY_GUESS_DEPTH`).
    pub(super) guess_depth: u32,
    /// Nodes a move may spend after its first pass (`PLY_KALAH_MOVE_NODES`).
    pub(super) move_nodes: u64,
    /// The clock of the progress lines.
    pub(super) start: Instant,
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

/// One of the root's moves, and the conversion of its values between its own
/// side to move and the root's.
struct FirstMove {
    mv: Pit,
    child: Kalah,
    /// The root's side to move.
    me: Player,
}

impl FirstMove {
    /// The first guess for the move: a `depth`-ply estimate.
    fn estimate(
        &self,
        solver: &mut KalahSolver<'_, SharedSolverTable<'_>>,
        depth: u32,
        rep: &mut Reporter<'_>,
    ) -> Result<i32, Interrupted> {
        let e = solver.estimate(&self.child, depth, 0, rep)?;
        Ok(for_player(&self.child, self.me, e))
    }

    /// Bounds on the move's value, known to lie in `bounds`, searched from `guess`
    /// and within `max_nodes` after the first pass ([`KalahSolver::solve_bounded`]).
    fn solve_bounded(
        &self,
        solver: &mut KalahSolver<'_, SharedSolverTable<'_>>,
        bounds: (i32, i32),
        guess: i32,
        max_nodes: u64,
        rep: &mut Reporter<'_>,
    ) -> Result<(i32, i32), Interrupted> {
        let (lower, upper) = bounds_for_player(&self.child, self.me, bounds);
        let guess = for_player(&self.child, self.me, guess);
        let found = solver.solve_bounded(&self.child, lower, upper, guess, max_nodes, rep)?;
        Ok(bounds_for_player(&self.child, self.me, found))
    }
}

/// A task for a solver thread.
#[derive(Clone, Copy)]
enum Task {
    Root,
    /// The first move of this index (generation order).
    Move(usize),
}

impl<'a> Job<'a> {
    /// Runs the job on `threads` threads, passing progress lines to `progress`.
    pub(super) fn run(&self, progress: &mut dyn FnMut(&str)) -> Result<Solved, String> {
        let stop = AtomicBool::new(false);
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
        let (tx, rx) = mpsc::channel::<String>();
        let (estimates, estimate_nodes) = self.first_guesses(&moves, tx.clone(), &stop)?;
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
        let tasks: Vec<Task> = std::iter::once(Task::Root)
            .chain(order.iter().map(|&i| Task::Move(i)))
            .collect();
        let mut solved = self.run_tasks(&moves, &estimates, &tasks, (tx, rx), progress, &stop)?;
        solved.nodes += estimate_nodes + self.settle(&moves, &mut solved, &stop)?;
        Ok(solved)
    }

    /// A solver over the shared table with the job's configuration.
    fn solver(&self) -> Result<KalahSolver<'a, SharedSolverTable<'a>>, String> {
        let mut solver = KalahSolver::with_table(self.root.rules(), self.table, self.tables)
            .map_err(|e| e.to_string())?;
        solver.set_config(self.config);
        Ok(solver)
    }

    /// Each move's first guess, and the nodes they took.
    fn first_guesses(
        &self,
        moves: &[FirstMove],
        tx: mpsc::Sender<String>,
        stop: &AtomicBool,
    ) -> Result<(Vec<i32>, u64), String> {
        let mut solver = self.solver()?;
        let mut rep = Reporter::new("first guesses".to_string(), self.start, tx, stop);
        let mut estimates = Vec::new();
        for m in moves {
            estimates.push(
                m.estimate(&mut solver, self.guess_depth, &mut rep)
                    .map_err(|e| e.to_string())?,
            );
        }
        Ok((estimates, solver.nodes()))
    }

    /// The root value, bounds on every move's value, and the nodes searched: the
    /// tasks done by up to `threads` solvers, each taking the next task when done
    /// with one. The lines they send are passed to `progress` as they come.
    fn run_tasks(
        &self,
        moves: &[FirstMove],
        estimates: &[i32],
        tasks: &[Task],
        (tx, rx): (mpsc::Sender<String>, mpsc::Receiver<String>),
        progress: &mut dyn FnMut(&str),
        stop: &AtomicBool,
    ) -> Result<Solved, String> {
        let root_guess = estimates.iter().copied().max().unwrap_or(0);
        let next = AtomicUsize::new(0);
        let root_value: Mutex<Option<i32>> = Mutex::new(None);
        let bounds: Mutex<Vec<Option<(i32, i32)>>> = Mutex::new(vec![None; moves.len()]);
        let total_nodes = AtomicU64::new(0);
        let solvers = self.threads.min(tasks.len()).max(1);
        let elapsed = || self.start.elapsed().as_secs_f64();
        let worker = |tx: mpsc::Sender<String>| -> Result<(), String> {
            let mut solver = self.solver()?;
            let mut rep = Reporter::new(String::new(), self.start, tx.clone(), stop);
            let result = (|| -> Result<(), String> {
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&task) = tasks.get(k) else {
                        return Ok(());
                    };
                    let before = solver.nodes();
                    match task {
                        Task::Root => {
                            rep.label = "root".to_string();
                            let (v, _) = solver
                                .solve_bounded(
                                    self.root,
                                    -1000,
                                    1000,
                                    root_guess,
                                    u64::MAX,
                                    &mut rep,
                                )
                                .map_err(|e| e.to_string())?;
                            *root_value.lock().unwrap() = Some(v);
                            let _ = tx.send(format!(
                                "{:>7.1} s root: value {} ({} nodes)",
                                elapsed(),
                                v,
                                solver.nodes() - before
                            ));
                        }
                        Task::Move(i) => {
                            let name = self.root.display_move(moves[i].mv);
                            rep.label = format!("pit {}", name);
                            let est = estimates[i];
                            // Every move's value is at most the root's.
                            let (lower, upper, guess) = match *root_value.lock().unwrap() {
                                Some(v) => (-1000, v, est.min(v)),
                                None => (-1000, 1000, est),
                            };
                            let (lo, hi) = moves[i]
                                .solve_bounded(
                                    &mut solver,
                                    (lower, upper),
                                    guess,
                                    self.move_nodes,
                                    &mut rep,
                                )
                                .map_err(|e| e.to_string())?;
                            bounds.lock().unwrap()[i] = Some((lo, hi));
                            let what = if lo == hi {
                                format!("value {}", lo)
                            } else {
                                format!("value {}..={} (node budget spent)", lo, hi)
                            };
                            let _ = tx.send(format!(
                                "{:>7.1} s pit {}: {} ({} nodes)",
                                elapsed(),
                                name,
                                what,
                                solver.nodes() - before
                            ));
                        }
                    }
                }
            })();
            total_nodes.fetch_add(solver.nodes(), Ordering::Relaxed);
            if result.is_err() {
                // Stop the others too.
                stop.store(true, Ordering::Relaxed);
            }
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
            for line in rx {
                progress(&line);
            }
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
        });
        solved?;
        let value = root_value
            .into_inner()
            .unwrap()
            .ok_or("the root was not solved")?;
        let bounds: Vec<(i32, i32)> = bounds
            .into_inner()
            .unwrap()
            .into_iter()
            .map(|b| b.ok_or("a move was not solved"))
            .collect::<Result<_, _>>()?;
        Ok(Solved {
            value,
            moves: moves.iter().map(|m| m.mv).zip(bounds).collect(),
            nodes: total_nodes.load(Ordering::Relaxed),
        })
    }

    /// Step 3: one pass against the root value for each move whose bounds do not
    /// yet put it below the root; the nodes it took.
    fn settle(
        &self,
        moves: &[FirstMove],
        solved: &mut Solved,
        stop: &AtomicBool,
    ) -> Result<u64, String> {
        let root = solved.value;
        let mut solver = self.solver()?;
        for (m, (_, b)) in moves.iter().zip(solved.moves.iter_mut()) {
            let (lo, hi) = *b;
            if lo < hi && hi >= root {
                let (quiet, _) = mpsc::channel();
                let label = format!("pit {}", self.root.display_move(m.mv));
                let mut rep = Reporter::new(label, self.start, quiet, stop);
                *b = m
                    .solve_bounded(&mut solver, (-1000, root), root, 0, &mut rep)
                    .map_err(|e| e.to_string())?;
            }
        }
        Ok(solver.nodes())
    }
}

/// Progress lines to the caller (at most one a second), and the stop flag.
struct Reporter<'a> {
    label: String,
    start: Instant,
    last: f64,
    out: mpsc::Sender<String>,
    stop: &'a AtomicBool,
}

impl<'a> Reporter<'a> {
    fn new(label: String, start: Instant, out: mpsc::Sender<String>, stop: &'a AtomicBool) -> Self {
        Reporter {
            label,
            start,
            last: 0.0,
            out,
            stop,
        }
    }
}

impl SolveControl for Reporter<'_> {
    fn progress(&mut self, p: &SolveProgress) {
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
        self.stop.load(Ordering::Relaxed)
    }
}

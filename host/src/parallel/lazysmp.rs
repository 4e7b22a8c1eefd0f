//! Lazy SMP and ABDADA: N copies of the core engine ([`Engine`]) over one
//! [`SharedTable`]. Every thread runs the same iterative-deepening search from the
//! root; they share nothing but the table (and a stop flag). The threads drift apart
//! (helpers try the root moves in a rotated order, and timing does the rest), and
//! what one stores saves the others work. With ABDADA ([`EngineConfig::abdada`]) a
//! thread also puts off the moves another thread is searching, so the threads spread
//! over the tree instead of following each other.
//!
//! Stopping: the first thread to complete the last iteration (the requested depth,
//! or a forced result) stops the others; the clock (time budget) or a stop flag ends
//! it otherwise. The answer is the deepest iteration any thread completed (the first
//! to complete it, on a tie). In the engine's exact mode ([`EngineConfig::exact`]:
//! table cutoffs only at equal depth, no quiescence) every stored bound is a bound of
//! the same fixed-depth value whichever thread stored it, so the value at a fixed
//! depth is exactly that of sequential alpha-beta.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use ply_core::search::{Engine, EngineConfig, Evaluator, Limits, SearchReport};

use super::{ParallelError, SharedGame, SharedTable};
use crate::clock::{StopClock, WallClock};

/// What the engines of one search tell the thread that waits for them.
pub(super) struct State<M> {
    /// The deepest iteration any engine completed (the first to complete it).
    deepest: Option<SearchReport<M>>,
    /// Engines whose search is over.
    finished: usize,
    /// True once an engine completed its last iteration.
    completed: bool,
    /// Nodes of the engines, counted at each completed iteration and at the end.
    nodes: Vec<u64>,
    /// The first finished engine's own report (its partial iteration included).
    first_report: Option<SearchReport<M>>,
}

/// What the engines of one search share besides the table: the state the waiting
/// thread reads ([`wait`]), here and in [`super::watched`].
pub(super) struct Shared<M> {
    /// Set once the search must end: every engine stops at its next check.
    pub(super) stop: AtomicBool,
    state: Mutex<State<M>>,
    changed: Condvar,
}

impl<M: Clone> Shared<M> {
    /// The state of a search by `engines` engines, none started.
    pub(super) fn new(engines: usize) -> Self {
        Shared {
            stop: AtomicBool::new(false),
            state: Mutex::new(State {
                deepest: None,
                finished: 0,
                completed: false,
                nodes: vec![0; engines],
                first_report: None,
            }),
            changed: Condvar::new(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, State<M>> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Engine `id` completed an iteration.
    pub(super) fn record(&self, id: usize, r: &SearchReport<M>) {
        let mut st = self.lock();
        st.nodes[id] = r.nodes;
        if st.deepest.as_ref().is_none_or(|b| r.depth > b.depth) {
            st.deepest = Some(r.clone());
            self.changed.notify_all();
        }
    }

    /// Engine `id`'s search is over.
    pub(super) fn finish(&self, id: usize, r: SearchReport<M>) {
        let mut st = self.lock();
        st.nodes[id] = r.nodes;
        st.finished += 1;
        if !r.aborted {
            // This engine completed its last iteration: the search is over.
            st.completed = true;
            self.stop.store(true, Ordering::Relaxed);
        }
        if st.first_report.is_none() {
            st.first_report = Some(r);
        }
        self.changed.notify_all();
    }

    /// Engine `id` ended without an answer (it panicked; the panic hook reported it).
    pub(super) fn lose(&self, id: usize) {
        let _ = id;
        self.lock().finished += 1;
        self.changed.notify_all();
    }

    /// Runs engine `id`'s search, `search`, reporting its end: its answer, or that it
    /// had none if it panicked (the panic then goes on, ending the engine's thread).
    pub(super) fn run_engine(&self, id: usize, search: impl FnOnce() -> SearchReport<M>) {
        match std::panic::catch_unwind(std::panic::AssertUnwindSafe(search)) {
            Ok(report) => self.finish(id, report),
            Err(panic) => {
                self.lose(id);
                std::panic::resume_unwind(panic);
            }
        }
    }
}

/// The waiting thread's part of a search whose `engines` engines run on threads of
/// their own and report to `shared`: calls `progress` with each deeper iteration
/// (the engines' nodes summed), and returns when an engine completed the last
/// iteration, when every engine's search is over, or at `deadline` (if any), without
/// waiting for the engines then (it sets [`Shared::stop`]). The answer: the deepest
/// iteration any engine completed; a lone engine's own report when its search is
/// over (a move that beat the previous best in its unfinished iteration counts);
/// past the deadline with no iteration complete, the first engine to stop gives its
/// partial answer. Whether the answer was cut short is in `aborted`. `None` when every
/// engine ended without an answer (they panicked).
pub(super) fn wait<M: Clone>(
    shared: &Shared<M>,
    engines: usize,
    deadline: Option<Instant>,
    clock: &WallClock,
    progress: &mut dyn FnMut(&SearchReport<M>),
) -> Option<SearchReport<M>> {
    let mut shown = 0;
    let mut st = shared.lock();
    loop {
        if let Some(d) = st.deepest.as_ref().filter(|d| d.depth > shown) {
            shown = d.depth;
            let mut d = d.clone();
            d.nodes = st.nodes.iter().sum();
            drop(st);
            progress(&d);
            st = shared.lock();
            continue;
        }
        if st.completed || st.finished == engines {
            break;
        }
        match deadline {
            Some(at) => {
                let now = Instant::now();
                if now >= at {
                    break;
                }
                st = shared
                    .changed
                    .wait_timeout(st, at - now)
                    .unwrap_or_else(|e| e.into_inner())
                    .0;
            }
            None => st = shared.changed.wait(st).unwrap_or_else(|e| e.into_inner()),
        }
    }
    shared.stop.store(true, Ordering::Relaxed);
    if engines == 1 {
        if let Some(own) = st.first_report.clone() {
            // A lone engine that answered: its own report, as on the calling thread.
            return Some(own);
        }
    }
    // Past the limit with no iteration complete (a budget shorter than one ply):
    // the first engine to stop gives its partial answer.
    while st.deepest.is_none() && st.first_report.is_none() {
        if st.finished == engines {
            return None;
        }
        st = shared.changed.wait(st).unwrap_or_else(|e| e.into_inner());
    }
    let mut best = st
        .deepest
        .clone()
        .or_else(|| st.first_report.clone())
        .expect("an iteration or a finished engine");
    best.nodes = st.nodes.iter().sum();
    best.aborted = !st.completed;
    best.elapsed_ms = ply_core::search::Clock::elapsed_ms(clock);
    Some(best)
}

/// Searches `game` under `limits` with `threads` engines of configuration `config`
/// over `table`, each on a thread of its own (engine `h` a Lazy SMP helper rotating
/// its root moves by `h`). `clock` started when the move's time did.
///
/// The calling thread only waits: it wakes when an engine completes an iteration (and
/// calls `progress` with the deepest one so far), when an engine completes the last
/// iteration, or at the time limit. At the time limit it asks the engines to stop and
/// returns at once, without waiting for them: a sleeping thread is woken promptly even
/// when other processes keep the cores busy, so a move is not late because an engine
/// was put aside; the engines stop within a millisecond of running again, and the
/// nodes they searched after their last completed iteration are not counted. A search
/// without a time limit waits for every engine.
#[allow(clippy::too_many_arguments)]
pub fn search<G, E>(
    game: &G,
    limits: Limits,
    eval: &E,
    config: EngineConfig,
    threads: usize,
    table: &Arc<SharedTable>,
    clock: WallClock,
    progress: &mut dyn FnMut(&SearchReport<G::Move>),
) -> Result<SearchReport<G::Move>, ParallelError>
where
    G: SharedGame + 'static,
    E: Evaluator<G> + Clone + Send + Sync + 'static,
{
    if threads == 0 {
        return Err(ParallelError::NoThreads);
    }
    let shared = Arc::new(Shared::new(threads));
    // Once for all the engines: the entries of earlier searches are replaced first.
    table.new_search();
    // A node budget is the engines' total.
    let limits = Limits {
        nodes: limits.nodes.map(|n| (n / threads as u64).max(1)),
        ..limits
    };
    let mut engines = Vec::with_capacity(threads);
    for id in 0..threads {
        let (mine, table, eval, game) = (shared.clone(), table.clone(), eval.clone(), *game);
        let spawned = std::thread::Builder::new()
            .name(format!("ply-search-{id}"))
            .spawn(move || {
                let mut engine = Engine::with_table(
                    &*table,
                    eval,
                    StopClock {
                        clock,
                        stop: &mine.stop,
                    },
                    EngineConfig {
                        helper: id as u32,
                        ..config
                    },
                );
                mine.run_engine(id, || {
                    engine.search_with_progress(&game, limits, |r| mine.record(id, r))
                });
            });
        match spawned {
            Ok(handle) => engines.push(handle),
            Err(e) => {
                shared.stop.store(true, Ordering::Relaxed);
                return Err(ParallelError::Spawn(e));
            }
        }
    }
    let deadline = limits
        .time_ms
        .map(|ms| clock.started() + Duration::from_millis(ms));
    let mut best =
        wait(&shared, threads, deadline, &clock, progress).ok_or(ParallelError::NoAnswer)?;
    if deadline.is_none() {
        for h in engines {
            // An engine that panicked has already been reported by the panic hook;
            // its share of the work is simply missing.
            let _ = h.join();
        }
        // Every engine's nodes, the last ones counted at its end.
        best.nodes = shared.lock().nodes.iter().sum();
    }
    Ok(best)
}

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

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use ply_core::search::{Engine, EngineConfig, Evaluator, Limits, SearchReport};
use ply_core::Game;

use super::{ParallelError, SharedTable};
use crate::clock::{StopClock, WallClock};

/// What the engines of one search share besides the table.
struct Shared<M> {
    /// Set once the search must end.
    stop: AtomicBool,
    /// Set when some engine completed its last iteration.
    completed: AtomicBool,
    /// The deepest completed iteration so far.
    deepest: Mutex<Option<SearchReport<M>>>,
    /// Nodes of the engines that have finished.
    nodes: AtomicU64,
}

impl<M: Clone> Shared<M> {
    /// Records a completed iteration if it is deeper than any known.
    fn record(&self, r: &SearchReport<M>) {
        let mut d = self.deepest.lock().unwrap_or_else(|e| e.into_inner());
        if d.as_ref().is_none_or(|b| r.depth > b.depth) {
            *d = Some(r.clone());
        }
    }

    /// An engine's search is over.
    fn finish(&self, r: &SearchReport<M>) {
        self.nodes.fetch_add(r.nodes, Ordering::Relaxed);
        if !r.aborted {
            // This engine completed its last iteration: the search is over.
            self.completed.store(true, Ordering::Relaxed);
        }
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// Searches `game` under `limits` with `threads` engines of configuration `config`
/// over `table`. `clock` started when the move's time started; `progress` is called
/// on the calling thread (which runs engine 0) after each of its iterations, with
/// the deepest iteration completed by any thread so far.
///
/// The helpers run on threads of their own. A search with a time limit does not wait
/// for them at the end: it asks them to stop and returns at once, so a helper the
/// operating system has put aside (another process busy on the cores) cannot make the
/// move late; the helper stops within a millisecond of running again, and its share
/// of the nodes is then not counted. A search without a time limit waits for all.
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
    G: Game + Send + Sync + 'static,
    G::Move: Send + Sync,
    E: Evaluator<G> + Clone + Send + Sync + 'static,
{
    if threads == 0 {
        return Err(ParallelError::NoThreads);
    }
    let shared = Arc::new(Shared {
        stop: AtomicBool::new(false),
        completed: AtomicBool::new(false),
        deepest: Mutex::new(None),
        nodes: AtomicU64::new(0),
    });
    // A node budget is the threads' total.
    let limits = Limits {
        nodes: limits.nodes.map(|n| (n / threads as u64).max(1)),
        ..limits
    };
    let mut helpers = Vec::with_capacity(threads - 1);
    for h in 1..threads {
        let (mine, table, eval, game) = (shared.clone(), table.clone(), eval.clone(), *game);
        let spawned = std::thread::Builder::new()
            .name(format!("ply-search-{h}"))
            .spawn(move || {
                let mut engine = Engine::with_table(
                    &*table,
                    eval,
                    StopClock {
                        clock,
                        stop: &mine.stop,
                    },
                    EngineConfig {
                        helper: h as u32,
                        ..config
                    },
                );
                let report = engine.search_with_progress(&game, limits, |r| mine.record(r));
                mine.finish(&report);
            });
        match spawned {
            Ok(handle) => helpers.push(handle),
            Err(e) => {
                shared.stop.store(true, Ordering::Relaxed);
                return Err(ParallelError::Spawn(e));
            }
        }
    }
    // Engine 0 runs here, reporting progress as the deepest iteration grows.
    let mut shown = 0;
    let mut engine = Engine::with_table(
        &**table,
        eval,
        StopClock {
            clock,
            stop: &shared.stop,
        },
        config,
    );
    let own = engine.search_with_progress(game, limits, |r| {
        shared.record(r);
        let d = shared
            .deepest
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        if let Some(mut d) = d {
            if d.depth > shown {
                shown = d.depth;
                d.nodes = shared.nodes.load(Ordering::Relaxed) + r.nodes;
                progress(&d);
            }
        }
    });
    shared.finish(&own);
    if limits.time_ms.is_none() {
        for h in helpers {
            // A helper that panicked has already been reported by the panic hook;
            // its share of the work is simply missing.
            let _ = h.join();
        }
    }
    let deepest = shared
        .deepest
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .take();
    let mut best = deepest.unwrap_or(own);
    best.nodes = shared.nodes.load(Ordering::Relaxed);
    best.aborted = !shared.completed.load(Ordering::Relaxed);
    best.elapsed_ms = ply_core::search::Clock::elapsed_ms(&clock);
    Ok(best)
}

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
use std::sync::Mutex;

use ply_core::search::{Engine, EngineConfig, Evaluator, Limits, SearchReport};
use ply_core::Game;

use super::{ParallelError, SharedTable};
use crate::clock::{StopClock, WallClock};

/// Searches `game` under `limits` with `threads` engines of configuration `config`
/// over `table`. `clock` started when the move's time started; `progress` is called
/// on the calling thread (which runs engine 0) after each of its iterations, with
/// the deepest iteration completed by any thread so far.
#[allow(clippy::too_many_arguments)]
pub fn search<G, E>(
    game: &G,
    limits: Limits,
    eval: &E,
    config: EngineConfig,
    threads: usize,
    table: &SharedTable,
    clock: WallClock,
    progress: &mut dyn FnMut(&SearchReport<G::Move>),
) -> Result<SearchReport<G::Move>, ParallelError>
where
    G: Game + Send + Sync,
    G::Move: Send + Sync,
    E: Evaluator<G> + Sync,
{
    if threads == 0 {
        return Err(ParallelError::NoThreads);
    }
    let stop = AtomicBool::new(false);
    let completed = AtomicBool::new(false);
    let deepest: Mutex<Option<SearchReport<G::Move>>> = Mutex::new(None);
    let nodes = AtomicU64::new(0);
    // A node budget is the threads' total.
    let limits = Limits {
        nodes: limits.nodes.map(|n| (n / threads as u64).max(1)),
        ..limits
    };
    // Records a completed iteration if it is deeper than any known.
    let record = |r: &SearchReport<G::Move>| {
        let mut d = deepest.lock().unwrap_or_else(|e| e.into_inner());
        if d.as_ref().is_none_or(|b| r.depth > b.depth) {
            *d = Some(r.clone());
        }
    };
    let run = |helper: usize| -> SearchReport<G::Move> {
        let mut engine = Engine::with_table(
            table,
            eval,
            StopClock { clock, stop: &stop },
            EngineConfig {
                helper: helper as u32,
                ..config
            },
        );
        let report = engine.search_with_progress(game, limits, |r| record(r));
        nodes.fetch_add(report.nodes, Ordering::Relaxed);
        if !report.aborted {
            // This thread completed its last iteration: the search is over.
            completed.store(true, Ordering::Relaxed);
            stop.store(true, Ordering::Relaxed);
        }
        report
    };
    let own = std::thread::scope(|s| {
        let spawned: Result<Vec<_>, _> = (1..threads)
            .map(|h| {
                std::thread::Builder::new()
                    .name(format!("ply-search-{h}"))
                    .spawn_scoped(s, move || run(h))
            })
            .collect();
        let handles = match spawned {
            Ok(h) => h,
            Err(e) => {
                stop.store(true, Ordering::Relaxed);
                return Err(ParallelError::Spawn(e));
            }
        };
        // Engine 0 runs here, reporting progress as the deepest iteration grows.
        let mut shown = 0;
        let mut engine = Engine::with_table(table, eval, StopClock { clock, stop: &stop }, config);
        let report = engine.search_with_progress(game, limits, |r| {
            record(r);
            let d = deepest.lock().unwrap_or_else(|e| e.into_inner()).clone();
            if let Some(mut d) = d {
                if d.depth > shown {
                    shown = d.depth;
                    d.nodes = nodes.load(Ordering::Relaxed) + r.nodes;
                    progress(&d);
                }
            }
        });
        nodes.fetch_add(report.nodes, Ordering::Relaxed);
        if !report.aborted {
            completed.store(true, Ordering::Relaxed);
        }
        stop.store(true, Ordering::Relaxed);
        for h in handles {
            // A helper that panicked has already been reported by the panic hook;
            // its share of the work is simply missing.
            let _ = h.join();
        }
        Ok(report)
    })?;
    let mut best = deepest
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .unwrap_or(own);
    best.nodes = nodes.into_inner();
    best.aborted = !completed.into_inner();
    best.elapsed_ms = ply_core::search::Clock::elapsed_ms(&clock);
    Ok(best)
}

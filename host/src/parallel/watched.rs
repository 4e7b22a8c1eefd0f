//! The `engine` strategy on one thread under a time limit: the engine runs on a
//! thread of its own over the player's private table, and the calling thread waits
//! for it, as the calling thread of a Lazy SMP search does (`lazysmp::wait`).
//!
//! Why: a move is late when the thread that must answer is not running at its
//! deadline. An engine searching on the calling thread reads the clock about every
//! millisecond ([`ply_core::search::Engine`]), but beside another busy process the
//! scheduler may put that thread aside for several milliseconds just before its limit
//! (it has used its share of the core), and the move is late by as much. A thread
//! that sleeps until the deadline is owed time when it wakes, and is run promptly.
//!
//! So the engine searches as it would on the calling thread — the same engine, the
//! same table, the same clock and limits — and in the ordinary case stops itself at
//! its limit and its own report is the answer (a move that beat the previous best in
//! the unfinished iteration included), exactly as before. Only if it has not answered
//! [`LATE_GRACE`] past its limit does the waiting thread answer without it, with the
//! deepest iteration it completed. The engine then stops at its next look at the clock
//! and hands the table back; the next search takes it back first
//! ([`super::Tables`]), waiting for that if it must.
//!
//! Searches under depth or node limits (repeatable on one thread) stay on the calling
//! thread.

use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use ply_core::search::{
    Engine, EngineConfig, Evaluator, Limits, SearchReport, TranspositionTable, TtEntry,
};

use super::lazysmp::{self, Shared};
use super::{ParallelError, SharedGame};
use crate::clock::WallClock;

/// How long past its time limit the waiting thread gives the engine to answer itself:
/// the engine reads the clock about every millisecond.
pub const LATE_GRACE: Duration = Duration::from_millis(1);

/// The private table of a one-thread engine.
pub(super) type LocalTable = TranspositionTable<Box<[TtEntry]>>;

/// The table after a search: back, or still with an engine that outlived its search
/// (and where it will put it back).
pub(super) type TableBack = Result<LocalTable, Arc<Lent>>;

/// Where an engine that outlived its search puts the table back.
pub(super) struct Lent {
    table: Mutex<Option<LocalTable>>,
    back: Condvar,
}

impl Lent {
    /// The table, once the engine has put it back (waiting for that).
    pub(super) fn reclaim(&self) -> LocalTable {
        let mut t = self.table.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if let Some(table) = t.take() {
                return table;
            }
            t = self.back.wait(t).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// The table, if the engine has put it back.
    pub(super) fn try_reclaim(&self) -> Option<LocalTable> {
        self.table.lock().unwrap_or_else(|e| e.into_inner()).take()
    }

    fn put_back(&self, table: LocalTable) {
        *self.table.lock().unwrap_or_else(|e| e.into_inner()) = Some(table);
        self.back.notify_all();
    }
}

/// Searches `game` under `limits` (a time limit) with one engine of configuration
/// `config` over `table`, on a thread of its own, the calling thread waiting
/// (see the module's documentation). Returns the answer and, when the engine is
/// still running, where it will put the table back.
#[allow(clippy::too_many_arguments)]
pub(super) fn search<G, E>(
    game: &G,
    limits: Limits,
    eval: &E,
    config: EngineConfig,
    table: LocalTable,
    clock: WallClock,
    progress: &mut dyn FnMut(&SearchReport<G::Move>),
) -> (Result<SearchReport<G::Move>, ParallelError>, TableBack)
where
    G: SharedGame + 'static,
    E: Evaluator<G> + Clone + Send + Sync + 'static,
{
    let shared = Arc::new(Shared::new(1));
    let lent = Arc::new(Lent {
        table: Mutex::new(None),
        back: Condvar::new(),
    });
    // The table goes to the engine's thread, and comes back through `lent` when the
    // search is over, when the engine panics, or when the thread cannot be started.
    struct Holder(Option<LocalTable>, Arc<Lent>);
    impl Drop for Holder {
        fn drop(&mut self) {
            if let Some(t) = self.0.take() {
                self.1.put_back(t);
            }
        }
    }
    let holder = Holder(Some(table), lent.clone());
    let (mine, eval, game) = (shared.clone(), eval.clone(), *game);
    let spawned =
        std::thread::Builder::new()
            .name("ply-search-0".into())
            .spawn(move || {
                let mut holder = holder;
                mine.run_engine(0, || {
                    let table = holder.0.as_mut().expect("the table");
                    let report = Engine::with_table(table, eval, clock, config)
                        .search_with_progress(&game, limits, |r| mine.record(0, r));
                    // The table first: once the report is seen, the table is back.
                    drop(holder);
                    report
                });
            });
    if let Err(e) = spawned {
        return (Err(ParallelError::Spawn(e)), Ok(lent.reclaim()));
    }
    let deadline = limits
        .time_ms
        .map(|ms| clock.started() + Duration::from_millis(ms) + LATE_GRACE);
    let best = lazysmp::wait(&shared, 1, deadline, &clock, progress);
    let table = lent.try_reclaim().ok_or(lent);
    (best.ok_or(ParallelError::NoAnswer), table)
}

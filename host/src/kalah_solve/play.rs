//! Exact play: the endgame tables and the exact solver for the AI players that
//! `search`, `play`, `tournament`, `bench` and every other command move through
//! ([`crate::commands::player::Ai`], by way of the Kalah adapter's
//! [`HostGame::ready_eval`](crate::HostGame::ready_eval) and
//! [`HostGame::solved_move`](crate::HostGame::solved_move)).
//!
//! * **Tables**: one set per number of pits and capture rule, loaded once a process
//!   on a thread of its own and kept to its end ([`tables_for`]): the file on disk
//!   mapped (`PLY_TABLES_DIR`; every layer it holds, up to the board's seeds; more
//!   than the default only where half the free memory holds them), else, when no
//!   file holds any, the most seeds up to the default whose tables build in about a
//!   second (at most `tables::CHEAP_ENTRIES`, 2^24 entries: 14 seeds for 6 pits),
//!   saved for the next run; lines on standard error say which, and how to get the
//!   default ones when these are fewer. `PLY_KALAH_TABLE_SEEDS=K` asks for `K`
//!   seeds (built and saved if the file holds fewer), `0` for none.
//! * **The solver at the root** ([`PlayTables::solve_move`]): the exact solver of
//!   `ply solve` on one thread, over the tables and a transposition table kept for
//!   the process (its bounds hold for every later position of any game on the
//!   board), stopped at a deadline; its move is played when it proves one best in
//!   time.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Condvar, Mutex, OnceLock};
use std::time::Instant;

use ply_core::games::kalah::solver::{
    EndgameTables, Interrupted, KalahSolver, SharedSolverTable, SolveControl, SolverConfig,
};
use ply_core::games::kalah::{Kalah, KalahRules, Pit, TablesEval};
use ply_core::Game;

use super::tables;

/// MiB of the exact solver's transposition table for play (one per board kind and
/// process; pages the solver never reaches cost nothing).
const SOLVER_TABLE_MB: usize = 64;

/// The solver at the root reads the clock every 2^this many nodes (64: tens of
/// microseconds of search, more where the pages it probes are not mapped yet; a
/// reading costs a small part of one node).
const SOLVER_POLL_SHIFT: u32 = 6;

/// The endgame tables of one board kind, loaded for the AI players, and the exact
/// solver's transposition table over them.
pub struct PlayTables {
    rules: KalahRules,
    eval: TablesEval<'static>,
    seeds: u32,
    /// The solver's transposition table: [`SharedSolverTable`] words, shared by
    /// every player of the process (its entries are exact bounds, true for good).
    words: Vec<AtomicU64>,
}

impl std::fmt::Debug for PlayTables {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "PlayTables({} pits, {} seeds in play)",
            self.rules.pits, self.seeds
        )
    }
}

impl PlayTables {
    /// ply's evaluation with these tables' exact values.
    pub fn eval(&self) -> TablesEval<'static> {
        self.eval
    }

    /// The seeds in play the tables cover.
    pub fn seeds(&self) -> u32 {
        self.seeds
    }

    /// The endgame tables.
    pub fn tables(&self) -> EndgameTables<'static> {
        *self.eval.tables()
    }

    /// A best move of `game` proved by the exact solver before `deadline` and
    /// before `stop` says so, with the final margin it leads to for the side to move
    /// and the nodes searched; `None` when the game is over or the solver did not
    /// finish in time (both are read every 64 nodes).
    pub fn solve_move(
        &self,
        game: &Kalah,
        deadline: Instant,
        stop: &dyn Fn() -> bool,
    ) -> Option<(Pit, i32, u64)> {
        let skip =
            (self.words.as_ptr() as usize).next_multiple_of(64) - self.words.as_ptr() as usize;
        let table = SharedSolverTable::new(&self.words[skip / 8..], self.rules.pits);
        let mut solver = KalahSolver::with_table(game.rules(), table, self.tables()).ok()?;
        solver.set_config(SolverConfig {
            // As `ply solve` (kalah_solve/mod.rs): no children's lookups near the tables.
            etc_from_seeds: self.seeds + 6,
            poll_shift: SOLVER_POLL_SHIFT,
            ..SolverConfig::default()
        });
        let found = solver.best_move(game, &mut Deadline(deadline, stop));
        match found {
            Ok(Some((mv, margin))) => Some((mv, margin, solver.nodes())),
            Ok(None) | Err(Interrupted) => None,
        }
    }
}

/// Stops a solve at a moment, or when a function says so.
struct Deadline<'a>(Instant, &'a dyn Fn() -> bool);

impl SolveControl for Deadline<'_> {
    fn should_stop(&mut self) -> bool {
        (self.1)() || Instant::now() >= self.0
    }
}

/// How far a board kind's load has come.
#[derive(Clone, Copy)]
enum LoadState {
    /// Under way.
    Loading,
    /// Done: the tables, or `None` when there are none.
    Done(Option<&'static PlayTables>),
}

/// A board kind's tables, loaded once on a thread of their own.
struct Slot {
    state: Mutex<LoadState>,
    changed: Condvar,
}

/// The endgame tables of `rules`' board kind (pits and capture rule) for the AI
/// players, loaded the first time they are asked for (on a thread of their own) and
/// kept for the rest of the process (a load that a limited wait starts gives way to
/// the searches); `None` when there are none
/// (`PLY_KALAH_TABLE_SEEDS=0`, or the load failed: a line on standard error says
/// why), or when the load is still going on at
/// `wait_until` (`None`: wait for it however long it takes). A load not finished in
/// time goes on, and a later call gets its tables.
pub fn tables_for(rules: KalahRules, wait_until: Option<Instant>) -> Option<&'static PlayTables> {
    let slot = slot(rules, wait_until.is_some());
    let mut state = slot.state.lock().unwrap_or_else(|e| e.into_inner());
    loop {
        match (*state, wait_until) {
            (LoadState::Done(t), _) => return t,
            (LoadState::Loading, None) => {
                state = slot.changed.wait(state).unwrap_or_else(|e| e.into_inner())
            }
            (LoadState::Loading, Some(at)) => {
                let left = at.saturating_duration_since(Instant::now());
                if left.is_zero() {
                    return None;
                }
                state = slot
                    .changed
                    .wait_timeout(state, left)
                    .unwrap_or_else(|e| e.into_inner())
                    .0;
            }
        }
    }
}

/// Every board kind's slot, by pits and capture rule.
type Slots = Vec<((u8, bool), &'static Slot)>;

/// The slot of `rules`' board kind, its load started if it is new (in the
/// `background`, [`load_into`], when the caller will not wait for it).
fn slot(rules: KalahRules, background: bool) -> &'static Slot {
    static SLOTS: OnceLock<Mutex<Slots>> = OnceLock::new();
    let key = (rules.pits, rules.empty_capture);
    let mut slots = SLOTS
        .get_or_init(|| Mutex::new(Vec::new()))
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    if let Some((_, s)) = slots.iter().find(|(k, _)| *k == key) {
        return s;
    }
    let s: &'static Slot = Box::leak(Box::new(Slot {
        state: Mutex::new(LoadState::Loading),
        changed: Condvar::new(),
    }));
    slots.push((key, s));
    drop(slots);
    // A thread the system refuses: the load runs here instead.
    if std::thread::Builder::new()
        .name("kalah-tables".into())
        .spawn(move || load_into(rules, s, background))
        .is_err()
    {
        load_into(rules, s, false);
    }
    s
}

/// Loads the tables of `rules`' board kind into `s` and wakes its waiters. A
/// `background` load (nobody waits for it: it runs beside `ply play`'s first
/// moves) gives way to the searches.
fn load_into(rules: KalahRules, s: &'static Slot, background: bool) {
    if background {
        lower_priority();
    }
    let loaded = load(rules, background).unwrap_or_else(|e| {
        crate::errln!("endgame tables: {e}; searching without them");
        None
    });
    *s.state.lock().unwrap_or_else(|e| e.into_inner()) = LoadState::Done(loaded);
    s.changed.notify_all();
}

/// Lowers the calling thread's priority as far as it goes (Linux: nice 19; a
/// failure changes nothing), so that it takes only the time the searches leave.
fn lower_priority() {
    #[cfg(target_os = "linux")]
    // SAFETY: `gettid` and `setpriority` take and return plain integers and touch
    // no memory of the process.
    unsafe {
        libc::setpriority(libc::PRIO_PROCESS, libc::gettid() as libc::id_t, 19);
    }
}

/// Loads (or builds) the tables of `rules`' board kind as the settings say, and
/// leaks them: they serve the rest of the process. A `background` load maps a file
/// that holds them quietly ([`map_quietly`]); one that is waited for maps it in one
/// go, checked on every core, as `ply solve` does.
fn load(rules: KalahRules, background: bool) -> Result<Option<&'static PlayTables>, String> {
    let env = crate::settings::environment()?;
    let (pits, ec) = (rules.pits, rules.empty_capture);
    let total = rules.total_seeds();
    // Built once, on every core (as `ply solve` builds them by default).
    let threads = crate::distributed::default_threads();
    let mut say = |line: &str| crate::errln!("{line}");
    tables::upgrade_format_2(pits, ec, threads, env.tables_dir.clone(), &mut say)?;
    let seeds = match env.table_seeds {
        Some(k) => k.min(total),
        None => tables::play_seeds(pits, ec, total, env.tables_dir.clone()),
    };
    if seeds == 0 {
        return Ok(None);
    }
    let quiet = match background {
        true => map_quietly(pits, ec, seeds, env.tables_dir.clone())?,
        false => None,
    };
    let memory = match quiet {
        Some(m) => m,
        None => {
            tables::load_or_build_tables(
                pits,
                ec,
                seeds,
                true,
                threads,
                env.tables_dir.clone(),
                &mut say,
            )?
            .0
        }
    };
    let default = tables::default_table_seeds(pits).min(total);
    if env.table_seeds.is_none() && seeds < default {
        crate::errln!(
            "endgame tables: {seeds} seeds in play; PLY_KALAH_TABLE_SEEDS={default} builds the \
             default tables for {pits} pits ({}, {} MB) once, and every later search uses them",
            rule_name(ec),
            tables::memory_of(pits, default).div_ceil(1_000_000)
        );
    }
    let memory: &'static tables::TableMemory = Box::leak(Box::new(memory));
    let t = memory.tables(pits, ec, seeds)?;
    let eval = TablesEval::new(rules, t).map_err(str::to_string)?;
    // On huge pages: on ordinary ones the solver's random probes miss the TLB, and
    // solves of 30-60 k nodes took up to four times as long.
    let words = crate::memory::zeroed_atomic_words(
        SOLVER_TABLE_MB * (1 << 20) / 8 + SharedSolverTable::BUCKET_WORDS,
        &format!("the Kalah solver's table of {SOLVER_TABLE_MB} MiB"),
    )?;
    // Every page faulted in now, with the load, rather than by the solver inside a
    // move's time (a fresh table's page faults had cost the solves about a third of
    // their time: docs/games/kalah/play.md). A store: a read first would map the zero
    // page, and the write after it left ordinary pages (the solves took half as
    // long again).
    for w in words.iter().step_by(512) {
        w.store(0, Ordering::Relaxed);
    }
    Ok(Some(Box::leak(Box::new(PlayTables {
        rules,
        eval,
        seeds,
        words,
    }))))
}

/// The tables of `0..=seeds` seeds in play for `pits` and the rule mapped from
/// their file, if it holds them all and they check out, on one thread and page by
/// page: a load beside `ply play`'s first move leaves the search a core, and does
/// not hold up its threads' memory (mapping the 26-seed file, 1.69 GB, in one go
/// and on every core had made that move take 0.27–0.30 s of its 0.1). The
/// searches probe such a mapping a little slower (a 54 k-node solve: 15 against
/// 10 ms), so a load that is waited for maps in one go.
fn map_quietly(
    pits: u8,
    ec: bool,
    seeds: u32,
    dir: Option<std::path::PathBuf>,
) -> Result<Option<tables::TableMemory>, String> {
    #[cfg(unix)]
    {
        let path = tables::tables_dir(dir).join(super::table_file::file_name(pits, ec));
        if let Some(m) = super::table_file::map(&path, pits, ec, seeds, 1, false)? {
            crate::errln!(
                "endgame tables: mapped {seeds} seeds in play (checksums checked) from {}",
                path.display()
            );
            return Ok(Some(tables::TableMemory::Mapped(m)));
        }
        Ok(None)
    }
    #[cfg(not(unix))]
    {
        let _ = (pits, ec, seeds, dir);
        Ok(None)
    }
}

/// The capture rule as the table files name it.
fn rule_name(empty_capture: bool) -> &'static str {
    if empty_capture {
        "empty capture"
    } else {
        "seed rules"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::kalah::{KalahEvalChoice, MAX_SOLVER_GAP};
    use crate::HostGame;
    use ply_core::games::kalah::solver::{build_tables, table_len, UNKNOWN};
    use std::sync::atomic::AtomicI8;
    use std::time::Duration;

    /// Tables of `seeds` seeds in play for `rules`' board, built in memory, with a
    /// small solver table.
    fn play_tables(rules: KalahRules, seeds: u32) -> &'static PlayTables {
        let len = table_len(rules.pits, seeds).unwrap();
        let values: &'static [AtomicI8] =
            Vec::leak((0..len).map(|_| AtomicI8::new(UNKNOWN)).collect());
        build_tables(rules.pits, rules.empty_capture, seeds, 0, values, |_| {}).unwrap();
        let t = EndgameTables::new(rules.pits, rules.empty_capture, seeds, values).unwrap();
        Box::leak(Box::new(PlayTables {
            rules,
            eval: TablesEval::new(rules, t).unwrap(),
            seeds,
            words: (0..1 << 14).map(|_| AtomicU64::new(0)).collect(),
        }))
    }

    #[test]
    fn the_solver_runs_within_its_gap_of_the_tables_and_proves_best_moves() {
        let rules = KalahRules::new(4, 3).unwrap();
        let start = Kalah::new(rules);
        // 24 seeds in play: tables of 24 - MAX_SOLVER_GAP seeds bring the solver in,
        // one seed fewer does not; other evaluations never do.
        let near = play_tables(rules, 24 - MAX_SOLVER_GAP);
        let far = play_tables(rules, 24 - MAX_SOLVER_GAP - 1);
        assert!(start.has_solver(&KalahEvalChoice::Tables(Some(near))));
        assert!(!start.has_solver(&KalahEvalChoice::Tables(Some(far))));
        for other in [
            KalahEvalChoice::Tables(None),
            KalahEvalChoice::Ply,
            KalahEvalChoice::Store,
        ] {
            assert!(!start.has_solver(&other));
        }
        let over = Kalah::parse_position(rules, "0 0 0 0 [14] / 0 0 0 0 [10] / first").unwrap();
        assert!(!over.has_solver(&KalahEvalChoice::Tables(Some(near))));
        // Its move is a best one, valued as the proved margin (Kalah(4,3): +6).
        let eval = KalahEvalChoice::Tables(Some(near));
        let later = Instant::now() + Duration::from_secs(600);
        let r = start.solved_move(&eval, later, &|| false).unwrap();
        assert_eq!(r.value, ply_core::games::kalah::KalahEval::margin_value(6));
        assert_eq!(r.pv.len(), 1);
        // The only best first move (docs/games/kalah/solve.md: moves -6 6 2 -2).
        assert_eq!(start.display_move(r.best_move.unwrap()).to_string(), "2");
        // A stop already asked for, or a deadline already past: nothing proved.
        let fresh = play_tables(rules, 24 - MAX_SOLVER_GAP);
        let eval = KalahEvalChoice::Tables(Some(fresh));
        assert!(start.solved_move(&eval, later, &|| true).is_none());
        assert!(start
            .solved_move(&eval, Instant::now(), &|| false)
            .is_none());
    }

    /// An AI player's stop flag (`ply engine`'s `stop`) ends the exact solver at the
    /// root as it ends the search: with it set before the move, neither proves
    /// anything, on one thread (the solver first) and on two (beside the search);
    /// without it the solver proves Kalah(4,3)'s only best first move.
    #[test]
    fn a_stop_ends_the_solver_at_the_root_too() {
        use crate::clock::WallClock;
        use crate::commands::player::{Ai, AiConfig, Budget};
        static STOP: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(true);
        let rules = KalahRules::new(4, 3).unwrap();
        let start = Kalah::new(rules);
        for threads in [1, 2] {
            // Fresh tables each time: a solver table that holds the answer proves it
            // in fewer nodes than the stop is polled at.
            let eval = KalahEvalChoice::Tables(Some(play_tables(rules, 12)));
            let config = AiConfig::<Kalah>::engine(eval, Budget::Time(600.0), threads, 1);
            let mut ai = Ai::new(config.clone());
            let began = Instant::now();
            let clock = WallClock::start().with_stop(&STOP);
            let r = ai.choose_on(&start, clock, &mut |_| {}).unwrap();
            assert!(r.depth < 95, "{threads} threads: proved while stopped");
            assert!(
                began.elapsed() < Duration::from_secs(60),
                "{threads} threads: {:?}",
                began.elapsed()
            );
            let r = Ai::new(config)
                .choose_on(&start, WallClock::start(), &mut |_| {})
                .unwrap();
            assert_eq!(r.depth, 95, "{threads} threads");
            assert_eq!(start.display_move(r.best_move.unwrap()).to_string(), "2");
        }
    }
}

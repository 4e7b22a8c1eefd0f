//! An AI player: an evaluation, a strategy, a budget, threads and the tables it keeps
//! from move to move. `search`, `play`, `tournament` and `bench` all choose their
//! moves through it, and it searches through the one entry point,
//! [`crate::parallel::run`].

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use ply_core::search::{Clock, Limits, SearchReport};

use crate::clock::WallClock;
use crate::games::HostGame;
pub use crate::parallel::Algo;
use crate::parallel::{Options, Switches, Tables};

/// How far an AI searches.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Budget {
    /// A fixed depth in plies.
    Depth(u32),
    /// Seconds per move (iterative deepening).
    Time(f64),
    /// Nodes per move (iterative deepening).
    Nodes(u64),
    /// A game clock's share for this move, in seconds: no new iteration after `soft`
    /// while the best move is stable, never past `hard`
    /// ([`Limits::clock_ms`]).
    Clock {
        /// The soft limit.
        soft: f64,
        /// The hard limit.
        hard: f64,
    },
}

impl Budget {
    /// The budget from the `--depth` / `--time` / `--nodes` options (at most one),
    /// or `default` when none is given. Checks ranges.
    pub fn from_options(
        depth: Option<u32>,
        time: Option<f64>,
        nodes: Option<u64>,
        default: Budget,
    ) -> Result<Budget, String> {
        let given = depth.is_some() as u8 + time.is_some() as u8 + nodes.is_some() as u8;
        if given > 1 {
            return Err("give at most one of --depth, --time and --nodes".into());
        }
        if let Some(d) = depth {
            if d == 0 || d >= ply_core::search::MAX_PLY as u32 {
                return Err(format!(
                    "--depth {} is out of range: expected 1 to {}",
                    d,
                    ply_core::search::MAX_PLY - 1
                ));
            }
            return Ok(Budget::Depth(d));
        }
        if let Some(t) = time {
            if !(t.is_finite() && t > 0.0 && t <= 86_400.0) {
                return Err(format!(
                    "--time {} is out of range: expected seconds above 0, at most 86400",
                    t
                ));
            }
            return Ok(Budget::Time(t));
        }
        if let Some(n) = nodes {
            if n == 0 {
                return Err("--nodes must be at least 1".into());
            }
            return Ok(Budget::Nodes(n));
        }
        Ok(default)
    }

    /// The core's limits for this budget. A time budget is a hard limit per move:
    /// the engine's limit keeps [`Budget::reserve_ms`] in hand for what follows its
    /// last clock check (at most 2 ms, or two nodes; or the waiting thread answers
    /// without it [`crate::parallel::watched::LATE_GRACE`] past the limit) — waking the
    /// waiting thread, unwinding the search, reading the principal variation, playing
    /// and printing the move — so that a move never takes longer than the time given,
    /// measured from outside the process (`scripts/time-budget.sh`; the Calgary
    /// checkers assignment's tournament forfeits a program that takes over 10 s).
    pub fn limits(self) -> Limits {
        match self {
            Budget::Depth(d) => Limits::depth(d),
            Budget::Time(s) => {
                let ms = (s * 1000.0) as u64;
                Limits::time_ms(ms.saturating_sub(Budget::reserve_ms(ms)).max(1))
            }
            Budget::Nodes(n) => Limits::nodes(n),
            Budget::Clock { soft, hard } => {
                let hard_ms = (hard * 1000.0) as u64;
                let hard_ms = hard_ms.saturating_sub(Budget::reserve_ms(hard_ms)).max(1);
                Limits::clock_ms(((soft * 1000.0) as u64).clamp(1, hard_ms), hard_ms)
            }
        }
    }
}

impl Budget {
    /// The milliseconds of a `ms` time budget kept in reserve: 2% of it, at least
    /// 10 ms (the engine's overshoot, a thread's wake-up on a busy machine — 8.6 ms
    /// was seen beside a busy process — and for a first move the process start
    /// before `main`, which [`crate::clock::process_start`] can count only in part),
    /// at most half of it (the engine's time use stays at half or more).
    pub fn reserve_ms(ms: u64) -> u64 {
        (ms / 50).max(10).min(ms / 2)
    }
}

/// An AI player's settings.
#[derive(Clone, Debug)]
pub struct AiConfig<G: HostGame> {
    /// The evaluation.
    pub eval: G::Eval,
    /// The strategy.
    pub algo: Algo,
    /// The budget.
    pub budget: Budget,
    /// Transposition-table size in MiB (the engine-based strategies).
    pub hash_mb: usize,
    /// Threads.
    pub threads: usize,
    /// YBWC: split at nodes with at least this many plies left (`None`: default).
    pub parallel_depth: Option<u32>,
    /// The engine's search switches set by the user, over the game's
    /// ([`HostGame::engine_switches`]).
    pub switches: Switches,
}

impl<G: HostGame> AiConfig<G> {
    /// The engine on `threads` threads with `budget`, `eval` and a table of
    /// `hash_mb` MiB.
    pub fn engine(eval: G::Eval, budget: Budget, threads: usize, hash_mb: usize) -> Self {
        AiConfig {
            eval,
            algo: Algo::Engine,
            budget,
            hash_mb,
            threads,
            parallel_depth: None,
            switches: Switches::default(),
        }
    }
}

/// An AI player. Its transposition table (allocated on its first search, and only
/// by strategies that use one) is kept from move to move: entries of earlier moves
/// stay usable, and are replaced first. The engine's other ordering hints — killer
/// moves and the history counters — belong to one search and start afresh each move
/// (they are indexed by the ply from the root, which moves on with the game).
pub struct Ai<G: HostGame> {
    config: AiConfig<G>,
    tables: Tables,
    /// What stops the search and the exact solver run beside each other
    /// ([`Ai::choose_from`]).
    stops: Option<&'static [AtomicBool; 2]>,
    /// The thread of the last exact solver run beside the search, joined before the
    /// next one starts (it may outlive its move by a look at the clock).
    solver: Option<std::thread::JoinHandle<()>>,
}

impl<G: HostGame> Ai<G> {
    /// A player (allocates nothing yet).
    pub fn new(config: AiConfig<G>) -> Self {
        Ai {
            config,
            tables: Tables::new(),
            stops: None,
            solver: None,
        }
    }

    /// The settings.
    pub fn config(&self) -> &AiConfig<G> {
        &self.config
    }

    /// Searches with `budget` from the next move on; the tables are kept.
    pub fn set_budget(&mut self, budget: Budget) {
        self.config.budget = budget;
    }

    /// Forgets what earlier searches stored: the next search starts with empty
    /// tables, as a fresh player's would (`ply engine`'s `ucinewgame`).
    pub fn clear_tables(&mut self) {
        self.tables = Tables::new();
    }

    /// Loads what the evaluation needs for `game`'s board (Kalah's endgame tables,
    /// [`HostGame::ready_eval`]; once a process), waiting for it. [`Ai::choose`] does
    /// this first; a caller that times the move itself can call it before.
    pub fn prepare(&self, game: &G) {
        G::ready_eval(&self.config.eval, game, None);
    }

    /// Chooses a move in `game`, calling `progress` after each iteration (the
    /// engine-based strategies). The time budget counts from when the evaluation is
    /// ready ([`Ai::prepare`]: on the first move on a board, its load is waited for
    /// first).
    pub fn choose(
        &mut self,
        game: &G,
        progress: &mut dyn FnMut(&SearchReport<G::Move>),
    ) -> Result<SearchReport<G::Move>, String> {
        self.prepare(game);
        self.choose_from(game, Instant::now(), progress)
    }

    /// Like [`Ai::choose`], with the time budget counted from `turn_start`: the
    /// moment the turn began, so that what happened since (printing the board,
    /// starting the process) is part of the move's time.
    pub fn choose_from(
        &mut self,
        game: &G,
        turn_start: Instant,
        progress: &mut dyn FnMut(&SearchReport<G::Move>),
    ) -> Result<SearchReport<G::Move>, String> {
        self.choose_on(game, WallClock::started_at(turn_start), progress)
    }

    /// Like [`Ai::choose`], on `clock`: the time budget counts from its start, and a
    /// stop flag it carries ([`WallClock::with_stop`]) ends the search, and the
    /// exact solver, early with the best move found so far (`ply engine`'s `stop`).
    ///
    /// Under a time budget a load of the evaluation's (its first move on a board) is
    /// waited for a quarter of the move's time at most, the move searched without it
    /// if it is not done by then. Then, where the game has an exact solver for the
    /// position ([`HostGame::has_solver`]: Kalah's `tables`), its move is played if
    /// it proves one best in time ([`HostGame::solved_move`]): on two threads or
    /// more the solver runs on one of them beside the search, for the move's time
    /// (a game clock's: its soft limit), and stops the search when it succeeds; on
    /// one thread it runs first, for up to [`SOLVER_SHARE`] of the move's time, and
    /// the search gets what is left, on a clock started where the solver stopped.
    /// Under a depth or node budget the evaluation's load is waited for, and the
    /// search alone chooses.
    pub fn choose_on(
        &mut self,
        game: &G,
        clock: WallClock,
        progress: &mut dyn FnMut(&SearchReport<G::Move>),
    ) -> Result<SearchReport<G::Move>, String> {
        let turn_start = clock.started();
        let limits = self.config.budget.limits();
        let wait_until = limits
            .time_ms
            .map(|ms| turn_start + Duration::from_millis(ms / 4));
        let eval = G::ready_eval(&self.config.eval, game, wait_until);
        let threads = self.config.threads;
        let Some(ms) = limits.time_ms.filter(|_| game.has_solver(&eval)) else {
            return self.search(game, limits, &eval, clock, threads, progress);
        };
        // The move's time as the solver sees it: a game clock's soft limit.
        let move_ms = limits.soft_ms.unwrap_or(ms).min(ms);
        // A solver of an earlier move may still be stopping (it was put aside past
        // its deadline, and stops at its next look at the clock): it is waited for
        // before the flags it may set become this move's.
        if let Some(earlier) = self.solver.take() {
            let _ = earlier.join();
        }
        let [search_stop, solver_stop] = self.stops();
        search_stop.store(false, Ordering::Relaxed);
        solver_stop.store(false, Ordering::Relaxed);
        let solved = |mut r: SearchReport<G::Move>, progress: &mut dyn FnMut(&_)| {
            r.elapsed_ms = turn_start.elapsed().as_millis() as u64;
            progress(&r);
            Ok(r)
        };
        if threads >= 2 {
            let deadline = turn_start + Duration::from_millis(move_ms);
            let (eval_there, game_there) = (eval.clone(), *game);
            let (send, answer) = std::sync::mpsc::sync_channel(1);
            let spawned = std::thread::Builder::new()
                .name("ply-solver".into())
                .spawn(move || {
                    let stopped = || solver_stop.load(Ordering::Relaxed) || clock.stop_requested();
                    let r = game_there.solved_move(&eval_there, deadline, &stopped);
                    if r.is_some() {
                        search_stop.store(true, Ordering::Relaxed);
                    }
                    let _ = send.send(r);
                });
            // No thread for the solver: it runs first, as on one thread.
            if let Ok(solver) = spawned {
                self.solver = Some(solver);
                let clock = clock.with_stop(search_stop);
                let searched = self.search(game, limits, &eval, clock, threads - 1, progress);
                if searched.is_err() {
                    solver_stop.store(true, Ordering::Relaxed);
                }
                // The solver's answer, if it comes by its deadline; a solver late
                // past it (put aside by the scheduler) is not waited for: it stops
                // at its next look at the clock. A solver that panicked (reported by
                // the panic hook) proved nothing.
                let wait = deadline.saturating_duration_since(Instant::now());
                let proved = answer.recv_timeout(wait).ok().flatten();
                solver_stop.store(true, Ordering::Relaxed);
                return match proved {
                    Some(r) => solved(r, progress),
                    None => searched,
                };
            }
        }
        let solver_start = Instant::now();
        let deadline = turn_start + Duration::from_secs_f64(move_ms as f64 / 1000.0 * SOLVER_SHARE);
        if let Some(r) = game.solved_move(&eval, deadline, &|| clock.stop_requested()) {
            return solved(r, progress);
        }
        let solver = solver_start.elapsed();
        // Rounded up: the search's clock starts `solver` later, so that its limit
        // ends within the move's.
        let solver_ms = solver.as_micros().div_ceil(1000) as u64;
        let time_ms = ms.saturating_sub(solver_ms).max(1);
        let limits = Limits {
            time_ms: Some(time_ms),
            soft_ms: limits
                .soft_ms
                .map(|soft| soft.saturating_sub(solver_ms).clamp(1, time_ms)),
            ..limits
        };
        let mut r = self.search(
            game,
            limits,
            &eval,
            clock.delayed(solver),
            threads,
            progress,
        )?;
        // The move's time, the solver's included.
        r.elapsed_ms = turn_start.elapsed().as_millis() as u64;
        Ok(r)
    }

    /// The search of `game` by the strategy under `limits` on `threads` threads.
    fn search(
        &mut self,
        game: &G,
        limits: Limits,
        eval: &G::Eval,
        clock: WallClock,
        threads: usize,
        progress: &mut dyn FnMut(&SearchReport<G::Move>),
    ) -> Result<SearchReport<G::Move>, String> {
        let options = Options {
            threads,
            parallel_depth: self.config.parallel_depth,
            hash_mb: self.config.hash_mb,
            table_slots: None,
            switches: G::engine_switches().overlaid(&self.config.switches),
        };
        crate::parallel::run(
            self.config.algo,
            game,
            limits,
            eval,
            &options,
            &mut self.tables,
            clock,
            progress,
        )
        .map_err(|e| e.to_string())
    }

    /// The flags that stop this player's search and its exact solver (made once a
    /// player, kept for the process: a search's clock holds them).
    fn stops(&mut self) -> &'static [AtomicBool; 2] {
        self.stops.get_or_insert_with(|| {
            Box::leak(Box::new([AtomicBool::new(false), AtomicBool::new(false)]))
        })
    }
}

/// The most of a move's time (under a time budget) an exact solver may take before
/// the search on one thread ([`Ai::choose_on`]).
pub const SOLVER_SHARE: f64 = 0.5;

#[cfg(test)]
mod tests {
    use super::{Ai, AiConfig, Budget};
    use crate::games::HostGame;
    use ply_core::games::tictactoe::TicTacToe;
    use ply_core::Game;

    /// The table an `Ai` keeps holds what its earlier searches found: the same search
    /// again is answered from it with a fraction of the nodes, and with the same value.
    #[test]
    fn an_ai_keeps_its_table_from_move_to_move() {
        let eval = TicTacToe::evaluator(None).unwrap();
        let mut ai = Ai::new(AiConfig::<TicTacToe>::engine(eval, Budget::Depth(9), 1, 1));
        let start = TicTacToe::start(());
        let first = ai.choose(&start, &mut |_| {}).unwrap();
        let again = ai.choose(&start, &mut |_| {}).unwrap();
        assert_eq!(first.value, again.value);
        assert!(
            again.nodes * 10 < first.nodes,
            "a kept table answers the repeated search: {} nodes, then {}",
            first.nodes,
            again.nodes
        );
        let mut fresh = Ai::new(ai.config().clone());
        assert_eq!(
            fresh.choose(&start, &mut |_| {}).unwrap().nodes,
            first.nodes
        );
    }

    /// A stop flag on the clock ends a deep search at once, with a move (one thread
    /// and several alike).
    #[test]
    fn a_stop_flag_ends_the_search_with_a_move() {
        use ply_core::games::Draughts;
        static STOP: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(true);
        let start = Draughts::start(Default::default());
        for threads in [1, 2] {
            let eval = Draughts::evaluator(None).unwrap();
            let mut ai = Ai::new(AiConfig::<Draughts>::engine(
                eval,
                Budget::Depth(60),
                threads,
                1,
            ));
            let clock = crate::clock::WallClock::start().with_stop(&STOP);
            let r = ai.choose_on(&start, clock, &mut |_| {}).unwrap();
            assert!(r.aborted, "{threads} threads: not stopped");
            assert!(r.depth <= 1, "{threads} threads: depth {}", r.depth);
            assert!(r.best_move.is_some(), "{threads} threads: no move");
        }
    }

    #[test]
    fn time_budget_keeps_a_reserve() {
        assert_eq!(Budget::Time(10.0).limits().time_ms, Some(9800));
        assert_eq!(Budget::Time(0.5).limits().time_ms, Some(490));
        assert_eq!(Budget::Time(0.05).limits().time_ms, Some(40));
        assert_eq!(Budget::Time(0.01).limits().time_ms, Some(5));
        assert_eq!(Budget::Time(0.001).limits().time_ms, Some(1));
        let clock = Budget::Clock {
            soft: 2.0,
            hard: 6.0,
        }
        .limits();
        assert_eq!((clock.soft_ms, clock.time_ms), (Some(2000), Some(5880)));
        let tight = Budget::Clock {
            soft: 0.05,
            hard: 0.05,
        }
        .limits();
        assert_eq!((tight.soft_ms, tight.time_ms), (Some(40), Some(40)));
    }
}

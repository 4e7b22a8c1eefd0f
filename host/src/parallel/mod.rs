//! Search on the host: one entry point, [`run`], for every strategy on any number of
//! threads, called by `ply search`, `play`, `tournament` and `bench` alike.
//!
//! All strategies are generic over [`Game`] and [`Evaluator`] and return, at a fixed
//! depth, exactly the value of sequential alpha-beta
//! ([`ply_core::search::alphabeta()`]) with one of the tied best moves:
//!
//! * [`Algo::Minimax`], [`Algo::AlphaBeta`]: the core's plain references;
//! * [`Algo::Engine`]: the core engine ([`ply_core::search::Engine`], full strength:
//!   quiescence, deeper table cutoffs) on one thread over a table in host memory, or
//!   on N threads over one [`SharedTable`] (Lazy SMP with ABDADA's deferral,
//!   [`lazysmp`]); depth, time or node budgets;
//! * [`Algo::LazySmp`], [`Algo::Abdada`]: the same engine in its exact mode on N
//!   threads over one shared table, ABDADA adding the deferral of moves another
//!   thread is searching; any budget, and exactly alpha-beta's value at a fixed depth;
//! * [`toplevel`]: every root move searched in parallel, each with sequential
//!   alpha-beta below (the Haskell Halma report, §4.1);
//! * [`chunked`]: the root moves in chunks of about moves/threads, each chunk in
//!   parallel, alpha raised between chunks (the Haskell Halma report, §4.2);
//! * [`ybwc`]: Young Brothers Wait — the eldest child first, its bound handed to the
//!   younger siblings searched in parallel, sequential below a parallel depth
//!   (the Mancala parallelization report), with work stealing at every split point through rayon.
//!
//! [`perft`] counts leaves in parallel.

pub mod chunked;
pub mod lazysmp;
pub mod perft;
pub mod perft_table;
pub mod table;
pub mod toplevel;
pub mod watched;
pub mod ybwc;

use core::fmt;
use core::str::FromStr;
use std::sync::Arc;

use ply_core::search::{
    alphabeta, leaf_value, minimax, Engine, EngineConfig, Evaluator, Limits, Score, SearchReport,
    SearchResult, TranspositionTable, TtEntry,
};
use ply_core::Game;

use crate::clock::WallClock;
pub use perft_table::SharedPerftTable;
pub use table::SharedTable;

/// A game that the threads of a parallel search share: positions and moves cross
/// threads. Every [`Game`] whose position and move are `Send + Sync` is one.
pub trait SharedGame: Game<Move: Send + Sync> + Send + Sync {}

impl<G> SharedGame for G
where
    G: Game + Send + Sync,
    G::Move: Send + Sync,
{
}

/// What a fixed-depth search returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParallelResult<M> {
    /// The value of the root for the side to move.
    pub value: Score,
    /// A move reaching `value` (one of the tied best moves); `None` if the game is
    /// over at the root.
    pub best_move: Option<M>,
    /// Nodes visited by all threads together (the root and the leaves included).
    pub nodes: u64,
}

impl<M> ParallelResult<M> {
    /// The result of a root the strategies do not search: depth 0, or no `moves`
    /// (the game is over): the position's own value. `None` otherwise.
    pub fn leaf<G, E>(game: &G, depth: u32, eval: &E, moves: &[M]) -> Option<Self>
    where
        G: Game<Move = M>,
        E: Evaluator<G>,
    {
        (depth == 0 || moves.is_empty()).then(|| ParallelResult {
            value: leaf_value(eval, game, game.side_to_move(), 0),
            best_move: None,
            nodes: 1,
        })
    }
}

/// A search strategy, by its command-line name: the one list every command uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Algo {
    /// Sequential plain minimax (the reference; one thread).
    Minimax,
    /// Sequential alpha-beta in generation order (the baseline; one thread).
    AlphaBeta,
    /// The core engine at full strength, on one thread or as Lazy SMP on several.
    Engine,
    /// Top-level parallelism (the Haskell Halma report §4.1).
    TopLevel,
    /// Chunked parallelism with alpha updated between chunks (the Haskell Halma report §4.2).
    Chunked,
    /// Young Brothers Wait with a parallel-depth switch (the Mancala parallelization report).
    Ybwc,
    /// Lazy SMP: the engine in exact mode on N threads over a shared table.
    LazySmp,
    /// Lazy SMP with ABDADA's deferral of moves another thread is searching.
    Abdada,
}

impl Algo {
    /// Every strategy, in the order the tables list them.
    pub const ALL: [Algo; 8] = [
        Algo::Minimax,
        Algo::AlphaBeta,
        Algo::Engine,
        Algo::TopLevel,
        Algo::Chunked,
        Algo::Ybwc,
        Algo::LazySmp,
        Algo::Abdada,
    ];

    /// The command-line name.
    pub const fn name(self) -> &'static str {
        match self {
            Algo::Minimax => "minimax",
            Algo::AlphaBeta => "alphabeta",
            Algo::Engine => "engine",
            Algo::TopLevel => "toplevel",
            Algo::Chunked => "chunked",
            Algo::Ybwc => "ybwc",
            Algo::LazySmp => "lazysmp",
            Algo::Abdada => "abdada",
        }
    }

    /// True for the strategies that can use more than one thread.
    pub const fn is_parallel(self) -> bool {
        !matches!(self, Algo::Minimax | Algo::AlphaBeta)
    }

    /// True for the strategies that search one fixed depth (no time or node budget).
    pub const fn fixed_depth_only(self) -> bool {
        matches!(
            self,
            Algo::Minimax | Algo::AlphaBeta | Algo::TopLevel | Algo::Chunked | Algo::Ybwc
        )
    }

    /// True for the strategies that use a transposition table.
    pub const fn uses_table(self) -> bool {
        matches!(self, Algo::Engine | Algo::LazySmp | Algo::Abdada)
    }

    /// The names, comma-separated, for messages.
    pub fn names() -> String {
        Algo::ALL.map(Algo::name).join(", ")
    }
}

impl fmt::Display for Algo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Algo {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = match s {
            "alpha-beta" => "alphabeta",
            "id" => "engine",
            other => other,
        };
        Algo::ALL
            .iter()
            .copied()
            .find(|a| a.name() == s)
            .ok_or_else(|| {
                format!(
                    "unknown search algorithm {s:?} (expected one of: {})",
                    Algo::names()
                )
            })
    }
}

/// Settings shared by the strategies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Threads (at least 1; may exceed the number of cores).
    pub threads: usize,
    /// YBWC: nodes with at least this many plies left split their young brothers
    /// over the threads; below it the search is sequential. `None`: the default,
    /// [`ybwc::default_parallel_depth`].
    pub parallel_depth: Option<u32>,
    /// Transposition-table size in MiB (the engine-based strategies).
    pub hash_mb: usize,
    /// An exact number of table slots instead of `hash_mb` (tests use tiny tables).
    pub table_slots: Option<usize>,
    /// The engine's search switches, over its defaults (the `engine` strategy only).
    pub switches: Switches,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            threads: 1,
            parallel_depth: None,
            hash_mb: 16,
            table_slots: None,
            switches: Switches::default(),
        }
    }
}

/// Search switches of the engine set over its defaults ([`EngineConfig`]): by a game
/// ([`crate::games::HostGame::engine_switches`], from the core's
/// [`Recommended::engine_config`](ply_core::search::Recommended::engine_config)) and by
/// the user (a tournament
/// configuration's `lmr=`, `aspiration=`, `extend=`). `None` keeps the default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Switches {
    /// [`EngineConfig::lmr`].
    pub lmr: Option<bool>,
    /// [`EngineConfig::aspiration`].
    pub aspiration: Option<ply_core::search::Score>,
    /// [`EngineConfig::single_reply_extension`].
    pub single_reply_extension: Option<bool>,
    /// [`EngineConfig::futility`].
    pub futility: Option<ply_core::search::Score>,
    /// [`EngineConfig::reverse_futility`].
    pub reverse_futility: Option<ply_core::search::Score>,
}

impl Switches {
    /// The switches in which `config` differs from [`EngineConfig::default()`] (a
    /// game's [`Recommended::engine_config`](ply_core::search::Recommended::engine_config)
    /// as switches over the engine's defaults); the parts of `config` that are no
    /// switch here are left out.
    pub fn from_config(config: &EngineConfig) -> Switches {
        fn differs<T: PartialEq>(value: T, default: T) -> Option<T> {
            (value != default).then_some(value)
        }
        let default = EngineConfig::default();
        Switches {
            lmr: differs(config.lmr, default.lmr),
            aspiration: differs(config.aspiration, default.aspiration),
            single_reply_extension: differs(
                config.single_reply_extension,
                default.single_reply_extension,
            ),
            futility: differs(config.futility, default.futility),
            reverse_futility: differs(config.reverse_futility, default.reverse_futility),
        }
    }

    /// `config` with the switches that are set.
    pub fn apply(&self, config: EngineConfig) -> EngineConfig {
        EngineConfig {
            lmr: self.lmr.unwrap_or(config.lmr),
            aspiration: self.aspiration.unwrap_or(config.aspiration),
            single_reply_extension: self
                .single_reply_extension
                .unwrap_or(config.single_reply_extension),
            futility: self.futility.unwrap_or(config.futility),
            reverse_futility: self.reverse_futility.unwrap_or(config.reverse_futility),
            ..config
        }
    }

    /// The names [`Switches::set`] takes.
    pub const NAMES: &'static str = "lmr, extend, aspiration, futility, rfp";

    /// Sets the switch `key` (`lmr=on|off`, `extend=on|off`, `aspiration=N` with
    /// `N` from 0, off, to 100000) from its text; `Ok(false)` if `key` names no switch.
    pub fn set(&mut self, key: &str, value: &str) -> Result<bool, String> {
        let on_off = || match value {
            "on" => Ok(true),
            "off" => Ok(false),
            _ => Err(format!(
                "{key}={}: expected on or off",
                crate::quote::quote(value)
            )),
        };
        let margin = || {
            value
                .parse::<i32>()
                .ok()
                .filter(|d| (0..=100_000).contains(d))
                .ok_or_else(|| {
                    format!(
                        "{key}={}: expected 0 (off) to 100000",
                        crate::quote::quote(value)
                    )
                })
        };
        match key {
            "lmr" => self.lmr = Some(on_off()?),
            "extend" => self.single_reply_extension = Some(on_off()?),
            "aspiration" => self.aspiration = Some(margin()?),
            "futility" => self.futility = Some(margin()?),
            "rfp" => self.reverse_futility = Some(margin()?),
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// Switches from a comma-separated list of `key=value` items ([`Switches::set`]).
    pub fn parse(list: &str) -> Result<Switches, String> {
        let mut s = Switches::default();
        for item in list.split(',').map(str::trim).filter(|i| !i.is_empty()) {
            let (k, v) = item.split_once('=').ok_or_else(|| {
                format!(
                    "search switch {}: expected key=value",
                    crate::quote::quote(item)
                )
            })?;
            if !s.set(k, v)? {
                return Err(format!(
                    "unknown search switch {}: expected {}",
                    crate::quote::quote(k),
                    Switches::NAMES
                ));
            }
        }
        Ok(s)
    }

    /// These switches, then `over`'s where it sets them.
    pub fn overlaid(&self, over: &Switches) -> Switches {
        Switches {
            lmr: over.lmr.or(self.lmr),
            aspiration: over.aspiration.or(self.aspiration),
            single_reply_extension: over.single_reply_extension.or(self.single_reply_extension),
            futility: over.futility.or(self.futility),
            reverse_futility: over.reverse_futility.or(self.reverse_futility),
        }
    }
}

impl Options {
    /// The defaults with `threads` worker threads.
    pub fn threads(threads: usize) -> Self {
        Options {
            threads,
            ..Self::default()
        }
    }
}

/// The tables a searcher keeps from one search to the next (allocated on first use,
/// and only by the strategies that use one).
#[derive(Default)]
pub struct Tables {
    local: Option<TranspositionTable<Box<[TtEntry]>>>,
    /// Where the private table comes back from an engine that outlived its search
    /// ([`watched`]); `local` is `None` meanwhile.
    lent: Option<Arc<watched::Lent>>,
    /// Bytes of the private table (kept while it is lent).
    local_bytes: usize,
    shared: Option<Arc<SharedTable>>,
}

impl Tables {
    /// No tables yet.
    pub fn new() -> Self {
        Tables::default()
    }

    /// Bytes of the tables allocated so far (0 until an engine-based strategy ran:
    /// `minimax` and `alphabeta` never allocate one).
    pub fn allocated_bytes(&self) -> usize {
        self.local_bytes
            + self
                .shared
                .as_ref()
                .map_or(0, |t| t.capacity() * table::SLOT_BYTES)
    }

    fn local(
        &mut self,
        options: &Options,
    ) -> Result<&mut TranspositionTable<Box<[TtEntry]>>, ParallelError> {
        if let Some(lent) = self.lent.take() {
            // An engine of the last search is still stopping: it stops at its next
            // look at the clock, its time being up.
            self.local = Some(lent.reclaim());
        }
        if self.local.is_none() {
            let slots = options.table_slots.unwrap_or(
                options.hash_mb.saturating_mul(1 << 20) / std::mem::size_of::<TtEntry>(),
            );
            let entries = crate::memory::zeroed_tt_entries(slots, "the transposition table")
                .map_err(ParallelError::Memory)?;
            self.local_bytes = entries.len() * std::mem::size_of::<TtEntry>();
            self.local = Some(TranspositionTable::keep(entries.into_boxed_slice()));
        }
        Ok(self.local.as_mut().expect("just made"))
    }

    fn shared(&mut self, options: &Options) -> Result<&Arc<SharedTable>, ParallelError> {
        if self.shared.is_none() {
            let table = match options.table_slots {
                Some(n) => SharedTable::new(n),
                None => SharedTable::with_mb(options.hash_mb),
            };
            self.shared = Some(Arc::new(table.map_err(ParallelError::Memory)?));
        }
        Ok(self.shared.as_ref().expect("just made"))
    }
}

/// The one entry point: searches `game` with `algo` under `limits` (a fixed depth for
/// the strategies that need one), valuing positions with `eval` for `game`'s side to
/// move, on `options.threads` threads, with the tables in `tables`. `clock` started
/// when the move's time did; `progress` follows the iterations of the engine-based
/// strategies.
#[allow(clippy::too_many_arguments)]
pub fn run<G, E>(
    algo: Algo,
    game: &G,
    limits: Limits,
    eval: &E,
    options: &Options,
    tables: &mut Tables,
    clock: WallClock,
    progress: &mut dyn FnMut(&SearchReport<G::Move>),
) -> Result<SearchReport<G::Move>, ParallelError>
where
    G: SharedGame + 'static,
    E: Evaluator<G> + Clone + Send + Sync + 'static,
{
    if options.threads == 0 {
        return Err(ParallelError::NoThreads);
    }
    if algo.fixed_depth_only() && (limits.time_ms.is_some() || limits.nodes.is_some()) {
        return Err(ParallelError::NeedsDepth(algo));
    }
    if limits.depth == 0 {
        // Depth 0: the position's own value, for every strategy alike.
        return Ok(SearchReport {
            best_move: None,
            value: leaf_value(eval, game, game.side_to_move(), 0),
            depth: 0,
            nodes: 1,
            pv: heapless::Vec::new(),
            aborted: false,
            elapsed_ms: 0,
        });
    }
    let depth = limits.depth;
    let fixed = |r: ParallelResult<G::Move>| {
        let mut pv = heapless::Vec::new();
        if let Some(m) = r.best_move {
            let _ = pv.push(m);
        }
        SearchReport {
            best_move: r.best_move,
            value: r.value,
            depth,
            nodes: r.nodes,
            pv,
            aborted: false,
            elapsed_ms: ply_core::search::Clock::elapsed_ms(&clock),
        }
    };
    let from_result = |r: SearchResult<G::Move>| ParallelResult {
        value: r.value,
        best_move: r.best_move,
        nodes: r.nodes,
    };
    let config = match algo {
        // On several threads the engine defers moves another engine is searching
        // (ABDADA): measured faster to depth than plain Lazy SMP on every workload of
        // docs/engine.md.
        Algo::Engine => options.switches.apply(EngineConfig {
            abdada: options.threads > 1,
            ..EngineConfig::default()
        }),
        Algo::Abdada => EngineConfig {
            abdada: true,
            ..EngineConfig::exact()
        },
        _ => EngineConfig::exact(),
    };
    Ok(match algo {
        Algo::Minimax => fixed(from_result(minimax(game, depth, eval))),
        Algo::AlphaBeta => fixed(from_result(alphabeta(game, depth, eval))),
        Algo::TopLevel | Algo::Chunked | Algo::Ybwc => {
            let threads = options.threads;
            let parallel_depth = options
                .parallel_depth
                .unwrap_or_else(|| ybwc::default_parallel_depth(depth));
            fixed(pool(threads)?.install(|| match algo {
                Algo::TopLevel => toplevel::search(game, depth, eval),
                Algo::Chunked => chunked::search(game, depth, eval, threads),
                _ => ybwc::search(game, depth, eval, parallel_depth),
            }))
        }
        // Under a time limit the engine searches on a thread of its own, the calling
        // thread answering at the limit if the engine is late ([`watched`]).
        Algo::Engine if options.threads == 1 && limits.time_ms.is_some() => {
            tables.local(options)?;
            let table = tables.local.take().expect("just made");
            let (answer, table) =
                watched::search(game, limits, eval, config, table, clock, progress);
            match table {
                Ok(t) => tables.local = Some(t),
                Err(lent) => tables.lent = Some(lent),
            }
            answer?
        }
        Algo::Engine if options.threads == 1 => {
            let mut engine = Engine::with_table(tables.local(options)?, eval, clock, config);
            engine.search_with_progress(game, limits, |r| progress(r))
        }
        Algo::Engine | Algo::LazySmp | Algo::Abdada => lazysmp::search(
            game,
            limits,
            eval,
            config,
            options.threads,
            tables.shared(options)?,
            clock,
            progress,
        )?,
    })
}

/// Searches `game` to `depth` plies with `algo` (fresh tables) and returns the root
/// value, a best move and the nodes visited.
pub fn search<G, E>(
    algo: Algo,
    game: &G,
    depth: u32,
    eval: &E,
    options: &Options,
) -> Result<ParallelResult<G::Move>, ParallelError>
where
    G: SharedGame + 'static,
    E: Evaluator<G> + Clone + Send + Sync + 'static,
{
    let r = run(
        algo,
        game,
        Limits::depth(depth),
        eval,
        options,
        &mut Tables::new(),
        WallClock::start(),
        &mut |_| {},
    )?;
    Ok(ParallelResult {
        value: r.value,
        best_move: r.best_move,
        nodes: r.nodes,
    })
}

/// Why a parallel search could not run.
#[derive(Debug)]
pub enum ParallelError {
    /// `threads` was 0.
    NoThreads,
    /// The operating system refused the thread pool.
    Pool(rayon::ThreadPoolBuildError),
    /// The operating system refused a thread.
    Spawn(std::io::Error),
    /// The strategy searches a fixed depth but was given a time or node budget.
    NeedsDepth(Algo),
    /// A table's memory could not be had (the message names the table and size).
    Memory(String),
    /// Every engine of the search ended without an answer (a panic, which the panic
    /// hook reported).
    NoAnswer,
}

impl fmt::Display for ParallelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParallelError::NoThreads => f.write_str("--threads must be at least 1"),
            ParallelError::Pool(e) => write!(f, "cannot start the thread pool: {e}"),
            ParallelError::Spawn(e) => write!(f, "cannot start a search thread: {e}"),
            ParallelError::Memory(m) => f.write_str(m),
            ParallelError::NoAnswer => {
                f.write_str("the search ended without an answer: its threads panicked")
            }
            ParallelError::NeedsDepth(a) => {
                write!(f, "--algo {a} searches a fixed depth: give --depth")
            }
        }
    }
}

impl std::error::Error for ParallelError {}

/// The number of cores this machine offers the process (at least 1): the default
/// thread count of `play` and `tournament`.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Runs `threads` threads at once, each calling `step` with 200,000 pseudo-random
/// words (xorshift, seeded by the thread's number): the lock-free tables' tests of
/// concurrent stores and probes.
#[cfg(test)]
fn hammer(threads: u64, step: impl Fn(u64) + Sync) {
    std::thread::scope(|s| {
        for th in 0..threads {
            let step = &step;
            s.spawn(move || {
                let mut x = th.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
                for _ in 0..200_000 {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    step(x);
                }
            });
        }
    });
}

/// Builds the explicit pool of `threads` workers a call runs on.
pub fn pool(threads: usize) -> Result<rayon::ThreadPool, ParallelError> {
    if threads == 0 {
        return Err(ParallelError::NoThreads);
    }
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("ply-search-{i}"))
        .build()
        .map_err(ParallelError::Pool)
}

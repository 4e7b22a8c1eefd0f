//! Multi-core search on the host: every strategy of the seeds and one beyond them.
//!
//! All strategies are generic over [`Game`] and [`Evaluator`], run on an explicit
//! rayon thread pool built for the call (`threads` may exceed the number of cores),
//! and return, at a fixed depth, exactly the value of sequential alpha-beta
//! ([`ply_core::search::alphabeta()`]) with one of the tied best moves:
//!
//! * [`toplevel`]: every root move searched in parallel, each with sequential
//!   alpha-beta below (seed 000, §4.1);
//! * [`chunked`]: the root moves in chunks of about moves/threads, each chunk in
//!   parallel, alpha raised between chunks (seed 000, §4.2);
//! * [`ybwc`]: Young Brothers Wait — the eldest child first, its bound handed to the
//!   younger siblings searched in parallel, sequential below a parallel depth
//!   (seed 001), with work stealing at every split point through rayon;
//! * [`lazysmp`]: Lazy SMP — every thread runs its own iterative-deepening
//!   principal-variation search over one lock-free shared transposition table whose
//!   entries are verified (key XOR data), so no torn entry is ever used; `abdada`
//!   is the same with ABDADA's deferral of moves another thread is searching.
//!
//! [`perft`] counts leaves in parallel.

pub mod chunked;
pub mod lazysmp;
pub mod perft;
pub mod toplevel;
pub mod ybwc;

use core::fmt;
use core::str::FromStr;

use ply_core::search::{alphabeta, minimax, Evaluator, Score};
use ply_core::Game;

pub use lazysmp::SharedTable;

/// What a parallel search returns.
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

/// A search strategy, by its command-line name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Algo {
    /// Sequential plain minimax (the reference; ignores `threads`).
    Minimax,
    /// Sequential alpha-beta (the baseline speedups are measured against).
    AlphaBeta,
    /// Top-level parallelism (seed 000 §4.1).
    TopLevel,
    /// Chunked parallelism with alpha updated between chunks (seed 000 §4.2).
    Chunked,
    /// Young Brothers Wait with a parallel-depth switch (seed 001).
    Ybwc,
    /// Lazy SMP over a shared lock-free table, with iterative deepening.
    LazySmp,
    /// Lazy SMP with ABDADA's deferral of moves another thread is searching.
    Abdada,
}

impl Algo {
    /// Every strategy, in the order the tables list them.
    pub const ALL: [Algo; 7] = [
        Algo::Minimax,
        Algo::AlphaBeta,
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
            Algo::TopLevel => "toplevel",
            Algo::Chunked => "chunked",
            Algo::Ybwc => "ybwc",
            Algo::LazySmp => "lazysmp",
            Algo::Abdada => "abdada",
        }
    }

    /// True for the strategies that use more than one thread.
    pub const fn is_parallel(self) -> bool {
        !matches!(self, Algo::Minimax | Algo::AlphaBeta)
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
        Algo::ALL
            .iter()
            .copied()
            .find(|a| a.name() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = Algo::ALL.iter().map(|a| a.name()).collect();
                format!(
                    "unknown search algorithm {s:?} (expected one of: {})",
                    names.join(", ")
                )
            })
    }
}

/// Settings shared by the strategies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Worker threads in the pool built for the call (at least 1; may exceed the
    /// number of cores).
    pub threads: usize,
    /// YBWC: nodes with at least this many plies left split their young brothers
    /// over the threads; below it the search is sequential. `None`: the default,
    /// [`ybwc::default_parallel_depth`].
    pub parallel_depth: Option<u32>,
    /// Lazy SMP: slots of the shared transposition table (16 bytes each).
    pub table_slots: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            threads: 1,
            parallel_depth: None,
            table_slots: 1 << 20,
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

/// Why a parallel search could not run.
#[derive(Debug)]
pub enum ParallelError {
    /// `threads` was 0.
    NoThreads,
    /// The operating system refused the thread pool.
    Pool(rayon::ThreadPoolBuildError),
}

impl fmt::Display for ParallelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParallelError::NoThreads => f.write_str("--threads must be at least 1"),
            ParallelError::Pool(e) => write!(f, "cannot start the thread pool: {e}"),
        }
    }
}

impl std::error::Error for ParallelError {}

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

/// Searches `game` to `depth` plies with `algo` and returns the root value, a best
/// move and the nodes visited.
pub fn search<G, E>(
    algo: Algo,
    game: &G,
    depth: u32,
    eval: &E,
    options: &Options,
) -> Result<ParallelResult<G::Move>, ParallelError>
where
    G: Game + Send + Sync,
    G::Move: Send + Sync,
    E: Evaluator<G> + Sync,
{
    Ok(match algo {
        Algo::Minimax => {
            let r = minimax(game, depth, eval);
            ParallelResult {
                value: r.value,
                best_move: r.best_move,
                nodes: r.nodes,
            }
        }
        Algo::AlphaBeta => {
            let r = alphabeta(game, depth, eval);
            ParallelResult {
                value: r.value,
                best_move: r.best_move,
                nodes: r.nodes,
            }
        }
        Algo::TopLevel => toplevel::search(game, depth, eval, options.threads)?,
        Algo::Chunked => chunked::search(game, depth, eval, options.threads)?,
        Algo::Ybwc => ybwc::search(
            game,
            depth,
            eval,
            options.threads,
            options
                .parallel_depth
                .unwrap_or_else(|| ybwc::default_parallel_depth(depth)),
        )?,
        Algo::LazySmp => lazysmp::search(game, depth, eval, options.threads, options.table_slots)?,
        Algo::Abdada => {
            lazysmp::search_abdada(game, depth, eval, options.threads, options.table_slots)?
        }
    })
}

/// The value of a position where search stops: the evaluation, or the game's result
/// for a finished game (`ply` plies below the root, for win distances).
#[inline]
pub(crate) fn leaf<G: Game, E: Evaluator<G>>(game: &G, ply: u32, eval: &E) -> Score {
    let outcome = game.outcome();
    if outcome.is_over() {
        eval.terminal(game, outcome, ply)
    } else {
        eval.evaluate(game)
    }
}

/// Searches `child` of `parent` with sequential alpha-beta
/// ([`ply_core::search::alphabeta::search`]) in the parent's window and returns its
/// value from the parent's side (a child with the same side to move, such as an
/// extra turn, is not negated).
#[allow(clippy::too_many_arguments)]
#[inline]
pub(crate) fn alphabeta_child<G: Game, E: Evaluator<G>>(
    parent: &G,
    child: &G,
    depth: u32,
    ply: u32,
    alpha: Score,
    beta: Score,
    eval: &E,
    nodes: &mut u64,
) -> Score {
    if parent.side_to_move() == child.side_to_move() {
        alphabeta::search(child, depth, ply, alpha, beta, eval, nodes)
    } else {
        -alphabeta::search(child, depth, ply, -beta, -alpha, eval, nodes)
    }
}

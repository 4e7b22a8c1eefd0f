//! The command line of `ply` as clap parses it: the subcommands and their flags (the
//! text of `ply --help`). Checked in [`super::checks`], run in
//! [`super::run`](mod@super::run).

use clap::{Parser, Subcommand};

/// Two-player board games: tic-tac-toe, Kalah, English draughts, Halma.
///
/// GAME is a name with optional parameters after a colon, e.g. `tictactoe`.
#[derive(Parser, Debug)]
#[command(
    name = "ply",
    version,
    about,
    long_about = None,
    after_help = "Every command that can use threads or a table takes --threads and \
--hash-mb; PLY_THREADS and PLY_HASH_MB give them when the command line does not. \
Long work (perft, solve, play, tournament) runs on every core by default, search and \
engine on one (their results then repeat exactly).\n\n\
Environment: PLY_TABLES_DIR, the directory of Kalah's endgame tables (default \
$XDG_CACHE_HOME/ply, else $HOME/.cache/ply); PLY_KALAH_TABLE_SEEDS, the seeds in \
play those tables cover for every command that loads them (ply solve --table-seeds)."
)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(clap::Args, Debug, Clone, Default)]
pub(crate) struct PositionArgs {
    /// Start from this position (the game's position text) instead of the start.
    #[arg(long)]
    pub(crate) position: Option<String>,
    /// Play these moves first, each one validated; the list ends at the next option
    /// (put a command's number, such as perft's DEPTH, before --after).
    #[arg(long, num_args = 1.., value_name = "MOVE")]
    pub(crate) after: Vec<String>,
}

/// Long jobs: a checkpoint to resume from (and, under `mpirun` or `srun` with the
/// `mpi` feature, the work dealt out to the ranks: docs/mpi.md).
#[derive(clap::Args, Debug, Clone)]
pub(crate) struct CheckpointArgs {
    /// Keep the finished work items in this file (written atomically, at most once a
    /// second and when the run ends or is stopped); it must not exist unless --resume.
    #[arg(long, value_name = "FILE")]
    pub(crate) checkpoint: Option<std::path::PathBuf>,
    /// Go on from the --checkpoint file of the same command, computing only the items
    /// it lacks (a missing file starts afresh).
    #[arg(long, requires = "checkpoint")]
    pub(crate) resume: bool,
    #[command(flatten)]
    pub(crate) ranks: RankArgs,
}

/// The settings of a job dealt out to the ranks of an MPI run.
#[derive(clap::Args, Debug, Clone, Default)]
pub(crate) struct RankArgs {
    /// Under mpirun or srun: seconds (1 to 86400) rank 0 waits for a word from a rank
    /// that holds work before it ends the run naming that rank (every rank speaks
    /// once a second). Default: 120.
    #[arg(long, env = "PLY_RANK_TIMEOUT", value_name = "SECONDS")]
    pub(crate) rank_timeout: Option<u64>,
}

/// Under MPI, how far the one table across the ranks routes positions to their
/// owners (docs/mpi.md); every rank must be given the same.
#[derive(clap::Args, Debug, Clone, Default)]
pub(crate) struct RouteArgs {
    /// Under mpirun or srun: plies (1 to 30) left below the deepest position sent to
    /// its owner rank; nearer the leaves each rank counts through its own table (3,
    /// the last depth a table holds, routes every lookup: more messages). Default: 4.
    #[arg(long, env = "PLY_ROUTE_REST", value_name = "PLIES")]
    pub(crate) route_rest: Option<u64>,
    /// Under mpirun or srun: the most positions of one ply on one rank (1 to 2^30)
    /// for that ply to be routed further (bounds each rank's memory, about 100 bytes
    /// a position). Default: 1048576.
    #[arg(long, env = "PLY_ROUTE_NODES", value_name = "POSITIONS")]
    pub(crate) route_nodes: Option<u64>,
    /// Under mpirun or srun: work items (1 to 2^20) a rank counts in one batch with
    /// the others. Default: 64.
    #[arg(long, env = "PLY_ROUTE_BATCH", value_name = "ITEMS")]
    pub(crate) route_batch: Option<u64>,
}

impl RouteArgs {
    /// The routing, after [`super::checks`].
    pub(crate) fn routing(&self) -> ply_host::distributed::routed::Routing {
        ply_host::distributed::routed::Routing::new(
            self.route_rest,
            self.route_nodes,
            self.route_batch,
        )
    }
}

/// `ply match`: the game, the two engines and how they play.
#[derive(clap::Args, Debug, Clone)]
pub(crate) struct MatchArgs {
    /// The game spec (sent to the engines with `ucinewgame`).
    pub(crate) game: String,
    /// Engine A's command line, split as a shell splits words, e.g.
    /// "target/release/ply engine checkers".
    #[arg(long, allow_hyphen_values = true)]
    pub(crate) a: String,
    /// Engine B's command line.
    #[arg(long, allow_hyphen_values = true)]
    pub(crate) b: String,
    /// Seconds a move (`go movetime`).
    #[arg(long, default_value_t = 0.1)]
    pub(crate) time: f64,
    /// Nodes a move instead of a time (`go nodes N`): a match of evaluations or
    /// searches that the machine's load does not sway; a move is forfeited after
    /// --grace seconds.
    #[arg(long, conflicts_with = "time")]
    pub(crate) nodes: Option<u64>,
    /// Games to play (default: every opening of the deck twice, or 20 with
    /// random openings).
    #[arg(long)]
    pub(crate) games: Option<u32>,
    /// ballots (the ACF three-move ballots of English draughts, the default for
    /// checkers), random:PLIES (the default elsewhere: random:2), or a file of
    /// openings, one a line.
    #[arg(long)]
    pub(crate) openings: Option<String>,
    /// Stop when the SPRT decides: elo0=E0,elo1=E1[,alpha=A,beta=B] (alpha and
    /// beta 0.05 unless given).
    #[arg(long)]
    pub(crate) sprt: Option<String>,
    /// Write the games as PDN to this file (checked writable before the games,
    /// rewritten whole after each one).
    #[arg(long)]
    pub(crate) pdn: Option<std::path::PathBuf>,
    /// Games played at once (each with its own two engine processes).
    #[arg(long, default_value_t = 1)]
    pub(crate) concurrency: usize,
    /// Seconds a move may take beyond --time (with --nodes: in all) before it is
    /// forfeited.
    #[arg(long, default_value_t = 1.0)]
    pub(crate) grace: f64,
    /// Seconds an engine has to answer uci and isready.
    #[arg(long, default_value_t = 5.0)]
    pub(crate) startup: f64,
    /// Adjudicate a draw after this many plies after the opening (at least 1:
    /// a match between outside engines always has a limit).
    #[arg(long, default_value_t = 1000)]
    pub(crate) max_plies: u32,
    /// Seed of random openings.
    #[arg(long, default_value_t = 1)]
    pub(crate) seed: u64,
}

/// The settings of `ply solve` beyond the position.
#[derive(clap::Args, Debug, Clone)]
pub(crate) struct SolveArgs {
    /// Save what the solve has proved to this file as it goes (whenever that
    /// changes, at most once a second, on Ctrl-C and at the end); it must not
    /// exist unless --resume (kalah only).
    #[arg(long)]
    pub(crate) checkpoint: Option<std::path::PathBuf>,
    /// Go on from the --checkpoint file of the same solve.
    #[arg(long, requires = "checkpoint")]
    pub(crate) resume: bool,
    /// Threads building endgame tables and solving (1 to 64 per core, at most
    /// 1024). Default: every core (shared among the ranks an MPI launcher started
    /// on this machine).
    #[arg(long, env = "PLY_THREADS", value_name = "N")]
    pub(crate) threads: Option<usize>,
    /// The solver's transposition table in MiB (1 to 1048576, within the
    /// machine's memory). Default by board: 512 up to 48 seeds in play, 1024
    /// beyond, 8 when the endgame tables cover all but 12 seeds (kalah only).
    #[arg(long, env = "PLY_HASH_MB", value_name = "MB")]
    pub(crate) hash_mb: Option<usize>,
    /// Seeds in play the endgame tables cover (0 to 126; 0: none), built once
    /// and kept in PLY_TABLES_DIR. Default by board, or more if the file on disk
    /// holds more and fits in half the free memory (kalah only).
    #[arg(long, env = "PLY_KALAH_TABLE_SEEDS", value_name = "SEEDS")]
    pub(crate) table_seeds: Option<u32>,
    /// Tuning: plies (0 to 64) of the shallow searches that give each part of the
    /// solve its first guess and order the moves. Default: 12 up to 48 seeds in
    /// play, a ply more for every two seeds beyond, at most 20 (kalah only).
    #[arg(long, env = "PLY_GUESS_DEPTH", value_name = "PLIES")]
    pub(crate) guess_depth: Option<u32>,
    /// Nodes (or max) a first move may spend on its exact value after its first
    /// pass; over it the solve prints the upper bound proved so far. Default: max,
    /// every value exact (kalah in one process only).
    #[arg(long, env = "PLY_KALAH_MOVE_NODES", value_name = "NODES")]
    pub(crate) move_nodes: Option<String>,
    /// Under mpirun or srun: the plies (1 to 4) down to which each position's most
    /// promising reply is split into items. Default: 2 up to 3 ranks × threads, 3
    /// from 4, 4 from 16 (kalah only).
    #[arg(long, env = "PLY_KALAH_SPLIT_PLIES", value_name = "PLIES")]
    pub(crate) split_plies: Option<usize>,
    /// Under mpirun or srun: the ranks share every exact table entry whose search
    /// took at least 2^N nodes (0 to 64; 64: none). Default: 10 (kalah only).
    #[arg(long, env = "PLY_KALAH_SHARE_WORK", value_name = "N")]
    pub(crate) share_work: Option<u32>,
    #[command(flatten)]
    pub(crate) ranks: RankArgs,
}

impl SolveArgs {
    /// The solver's options, after [`super::checks`]; `stop_nodes` is the test hook
    /// of `--resume` (never on the command line).
    pub(crate) fn options(
        self,
        stop_nodes: Option<u64>,
    ) -> Result<ply_host::solving::SolveOptions, String> {
        let move_nodes = match &self.move_nodes {
            Some(text) => Some(ply_host::settings::nodes_or_max(text, "--move-nodes")?),
            None => None,
        };
        Ok(ply_host::solving::SolveOptions {
            checkpoint: self.checkpoint,
            resume: self.resume,
            threads: Some(
                self.threads
                    .unwrap_or_else(ply_host::distributed::default_threads),
            ),
            hash_mb: self.hash_mb.map(|mb| mb as u64),
            tables_dir: ply_host::settings::environment()?.tables_dir,
            table_seeds: self.table_seeds,
            guess_depth: self.guess_depth,
            move_nodes,
            split_plies: self.split_plies,
            share_work: self.share_work,
            rank_timeout: self.ranks.rank_timeout,
            stop_nodes,
        })
    }
}

impl CheckpointArgs {
    /// The runner's options; `command` names what the results depend on.
    pub(crate) fn options(self, command: String) -> ply_host::distributed::Options {
        ply_host::distributed::Options {
            checkpoint: self.checkpoint,
            resume: self.resume,
            command,
            rank_timeout: self.ranks.rank_timeout,
        }
    }
}

#[derive(clap::Args, Debug, Clone)]
pub(crate) struct BudgetArgs {
    /// Search to this depth in plies.
    #[arg(long)]
    pub(crate) depth: Option<u32>,
    /// Seconds per move: a hard limit, measured from when the turn begins (a move
    /// never takes longer, printing it included).
    #[arg(long)]
    pub(crate) time: Option<f64>,
    /// Search this many nodes per move.
    #[arg(long)]
    pub(crate) nodes: Option<u64>,
}

#[derive(Subcommand, Debug)]
pub(crate) enum Command {
    /// Count the move paths of exactly DEPTH plies.
    Perft {
        /// The game spec.
        game: String,
        /// Plies.
        depth: u32,
        #[command(flatten)]
        pos: PositionArgs,
        /// One line per root move.
        #[arg(long)]
        divide: bool,
        /// Count on this many threads (1 to 64 per core, at most 1024). Default: every
        /// core (shared among the ranks an MPI launcher started on this machine).
        #[arg(long, env = "PLY_THREADS", value_name = "N")]
        threads: Option<usize>,
        /// Count capture paths with the same origin, destination and captured
        /// pieces once (checkers).
        #[arg(long)]
        unique: bool,
        /// The table of exact counts in MiB (1 to 1048576, within the free memory;
        /// rounded down to a power of two). Default: a size from the depth and the
        /// free memory, for depth 6 or more of a game with a perft key (Kalah, which
        /// rarely transposes, counts without one).
        #[arg(long, env = "PLY_HASH_MB", value_name = "MB")]
        hash_mb: Option<usize>,
        /// Count without a table: every move path generated, as the plain move
        /// generator counts (its speed, the peers' way of measuring perft).
        #[arg(long, conflicts_with = "hash_mb")]
        no_table: bool,
        /// Under MPI: each rank counts its own run of neighbouring subtrees through
        /// its own table (what one rank stored, another counts again), instead of the
        /// default, one table across the ranks (each position near the top counted by
        /// the rank that owns it, docs/mpi.md).
        #[arg(long, conflicts_with = "no_table")]
        private_tables: bool,
        #[command(flatten)]
        route: RouteArgs,
        #[command(flatten)]
        checkpoint: CheckpointArgs,
    },
    /// List the legal moves, one per line.
    Moves {
        /// The game spec.
        game: String,
        #[command(flatten)]
        pos: PositionArgs,
        /// Print the moves in this notation (checkers: pdn or calgary).
        #[arg(long)]
        notation: Option<String>,
    },
    /// Search a position: best move, value, principal variation, nodes, time.
    Search {
        /// The game spec.
        game: String,
        #[command(flatten)]
        pos: PositionArgs,
        #[command(flatten)]
        budget: BudgetArgs,
        /// minimax, alphabeta, engine (iterative deepening with a table), or a
        /// parallel strategy: toplevel, chunked, ybwc, lazysmp, abdada.
        #[arg(long, default_value = "engine")]
        algo: String,
        /// Threads for the engine and the parallel strategies (1 to 64 per core, at
        /// most 1024). Default: 1, the single-thread engine, whose results repeat
        /// exactly.
        #[arg(long, env = "PLY_THREADS", value_name = "N")]
        threads: Option<usize>,
        /// ybwc: split at nodes with at least this many plies left (default: depth - 3, at least 2).
        #[arg(long)]
        parallel_depth: Option<u32>,
        /// The evaluation (game-specific names; Halma also takes weights such as
        /// -2.5,1,1,1).
        #[arg(long, allow_hyphen_values = true)]
        eval: Option<String>,
        /// Transposition table size in MiB (1 to 1048576, within the free memory).
        /// Default: 64.
        #[arg(long, env = "PLY_HASH_MB", value_name = "MB")]
        hash_mb: Option<usize>,
        /// Print the moves in this notation (checkers: pdn or calgary).
        #[arg(long)]
        notation: Option<String>,
    },
    /// Endgame databases: `ply db build checkers --pieces N`.
    Db {
        #[command(subcommand)]
        action: DbAction,
    },
    /// The exact value of a position under perfect play, and of each move.
    Solve {
        /// The game spec.
        game: String,
        #[command(flatten)]
        pos: PositionArgs,
        #[command(flatten)]
        solve: SolveArgs,
    },
    /// Play a game: human or AI on each side.
    Play {
        /// The game spec.
        game: String,
        /// Who moves first: human or ai.
        #[arg(long, default_value = "human")]
        first: String,
        /// Who moves second: human or ai.
        #[arg(long, default_value = "ai")]
        second: String,
        /// Start from this position instead of the start.
        #[arg(long)]
        position: Option<String>,
        #[command(flatten)]
        budget: BudgetArgs,
        /// The AI's evaluation (game-specific names; Halma also takes weights such
        /// as -2.5,1,1,1).
        #[arg(long, allow_hyphen_values = true)]
        eval: Option<String>,
        /// Adjudicate a draw after this many plies (0: never, as in `ply
        /// tournament`; the game's own rules end it).
        #[arg(long, default_value_t = 0)]
        max_plies: u32,
        /// The AI's search threads (1 to 64 per core, at most 1024; 1 is the
        /// single-thread, reproducible engine). Default: every core.
        #[arg(long, env = "PLY_THREADS", value_name = "N")]
        threads: Option<usize>,
        /// The AI's transposition table in MiB (1 to 1048576, within the free
        /// memory). Default: 32.
        #[arg(long, env = "PLY_HASH_MB", value_name = "MB")]
        hash_mb: Option<usize>,
    },
    /// Time the parallel strategies against sequential alpha-beta at a fixed depth.
    Bench {
        /// The game spec.
        game: String,
        #[command(flatten)]
        pos: PositionArgs,
        /// Search depth in plies.
        #[arg(long)]
        depth: u32,
        /// Strategies, comma-separated: minimax, alphabeta, engine, toplevel, chunked, ybwc,
        /// lazysmp, abdada.
        #[arg(long, default_value = "alphabeta,toplevel,chunked,ybwc,lazysmp,abdada")]
        algo: String,
        /// Thread counts, comma-separated, each 1 to 64 per core, at most 1024.
        #[arg(long, default_value = "1,2")]
        threads: String,
        /// The strategy, at 1 thread, that speedups are measured and values checked
        /// against.
        #[arg(long, default_value = "alphabeta")]
        baseline: String,
        /// Runs per configuration (the table shows the median and the spread).
        #[arg(long, default_value_t = 5)]
        runs: usize,
        /// The evaluation (game-specific names; Halma also takes weights such as
        /// -2.5,1,1,1).
        #[arg(long, allow_hyphen_values = true)]
        eval: Option<String>,
        /// ybwc: split at nodes with at least this many plies left.
        #[arg(long)]
        parallel_depth: Option<u32>,
        /// The table size of the strategies that keep one, in MiB (1 to 1048576,
        /// within the free memory). Default: 16.
        #[arg(long, env = "PLY_HASH_MB", value_name = "MB")]
        hash_mb: Option<usize>,
        /// Draw speedup against threads into this SVG file (checked writable before
        /// the bench runs, written whole at the end).
        #[arg(long)]
        plot: Option<std::path::PathBuf>,
    },
    /// Speak the engine protocol (docs/protocol.md) on standard input and output.
    Engine {
        /// The game spec (the game of a `ucinewgame` without one).
        game: String,
        /// The evaluation (game-specific names; Halma also takes weights such as
        /// -2.5,1,1,1); `setoption name Eval` changes it.
        #[arg(long, allow_hyphen_values = true)]
        eval: Option<String>,
        /// Search threads (1 to 64 per core, at most 1024); `setoption name Threads`
        /// changes them. Default: 1, the single-thread engine, whose results repeat
        /// exactly.
        #[arg(long, env = "PLY_THREADS", value_name = "N")]
        threads: Option<usize>,
        /// Transposition table size in MiB (1 to 1048576, within the free memory).
        /// Default: 16.
        #[arg(long, env = "PLY_HASH_MB", value_name = "MB")]
        hash_mb: Option<usize>,
        /// The engine's search switches over the game's defaults, comma-separated:
        /// lmr=on|off (late move reductions), extend=on|off (a forced move costs no
        /// ply), aspiration=N (the root window's half-width, 0: none), futility=N and
        /// rfp=N (futility and reverse futility margins near the horizon, 0: none);
        /// `setoption name lmr value on` and so on change them.
        #[arg(long, default_value = "")]
        search: String,
    },
    /// Two engine programs play each other, refereed by ply (docs/match.md).
    Match(MatchArgs),
    /// Check another program's move generator through the engine protocol: legal
    /// moves and perft divides against ply's, walking down to the first position
    /// that differs. Exit status 0: agree; 1: a difference; 2: bad input or a
    /// protocol failure.
    Verify {
        /// The game spec.
        game: String,
        /// The program's command line, split as a shell splits words.
        #[arg(allow_hyphen_values = true)]
        command: String,
        /// Perft depth at each position (0: the legal moves only).
        #[arg(long, default_value_t = 3)]
        depth: u32,
        /// Random positions besides the start.
        #[arg(long, default_value_t = 10)]
        positions: u32,
        /// Seed of the random positions.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Two AI configurations play each other with colours swapped; or, with
    /// --strategies (Halma), the round robin of evaluations of the C++ Halma README
    /// (docs/references.md).
    Tournament {
        /// The game spec.
        game: String,
        /// Configuration A, e.g. `depth=4,eval=lines`.
        #[arg(long, required_unless_present = "strategies")]
        a: Option<String>,
        /// Configuration B.
        #[arg(long, required_unless_present = "strategies")]
        b: Option<String>,
        /// Halma round robin: evaluations (s1..s8, racer, manhattan) separated by
        /// commas, or by ';' when explicit weights m1,m2,m3,m4 are among them; every
        /// pair plays --games-per-pair games, colours alternating.
        #[arg(long, conflicts_with_all = ["a", "b"], allow_hyphen_values = true)]
        strategies: Option<String>,
        /// Round robin: search depth (plain alpha-beta, as the C++ Halma README).
        #[arg(long, default_value_t = 2, requires = "strategies")]
        depth: u32,
        /// Round robin: games per pair (the C++ Halma README: 2).
        #[arg(long, default_value_t = 2, requires = "strategies")]
        games_per_pair: u32,
        /// Search threads of each AI (a config's `threads=N` overrides it); round
        /// robin: games played in parallel. 1 to 64 per core, at most 1024. Default:
        /// every core (shared among the ranks an MPI launcher started on this
        /// machine).
        #[arg(long, env = "PLY_THREADS", value_name = "N")]
        threads: Option<usize>,
        /// The transposition table of each AI in MiB (1 to 1048576, within the free
        /// memory). Default: 16.
        #[arg(long, env = "PLY_HASH_MB", value_name = "MB")]
        hash_mb: Option<usize>,
        /// Round robin: write one CSV line per game to this file (checked writable
        /// before the games, written whole at the end).
        #[arg(long, requires = "strategies")]
        results: Option<String>,
        /// Round robin: search with plain minimax instead of alpha-beta.
        #[arg(long, requires = "strategies")]
        minimax: bool,
        /// Number of games.
        #[arg(long, default_value_t = 10)]
        games: u32,
        /// Pseudo-random plies that make each opening.
        #[arg(long, default_value_t = 2)]
        random_plies: u32,
        /// Seed of the openings.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Adjudicate a draw after this many plies (0: never, as in `ply play`;
        /// the game's own rules end it).
        #[arg(long, default_value_t = 1000)]
        max_plies: u32,
        #[command(flatten)]
        checkpoint: CheckpointArgs,
    },
}

/// What `ply db` does.
#[derive(Subcommand, Debug)]
pub(crate) enum DbAction {
    /// Build the endgame databases of every position with up to --pieces pieces (or
    /// complete them from the files already there), into checkers-db/ of the tables
    /// directory (PLY_TABLES_DIR): a file a slice, so a stopped build goes on.
    Build {
        /// The game spec (checkers, English rules).
        game: String,
        /// Every position with up to this many pieces (1 to 8).
        #[arg(long)]
        pieces: u32,
        /// Threads building the databases (1 to 64 per core, at most 1024).
        /// Default: every core.
        #[arg(long, env = "PLY_THREADS", value_name = "N")]
        threads: Option<usize>,
        /// Then check every position's value against its children's (one process:
        /// not under mpirun).
        #[arg(long)]
        verify: bool,
        /// Under mpirun, or with --checkpoint: the build as a job of pairs of slices
        /// (docs/games/draughts-databases.md).
        #[command(flatten)]
        checkpoint: CheckpointArgs,
    },
}

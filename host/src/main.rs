//! `ply`: play, perft, search, solve and compare AIs on two-player board games.

use clap::{Parser, Subcommand};
use std::process::ExitCode;

use ply_host::commands::{bench, moves, perft, play, search, solve, tournament};
use ply_host::spec::with_game;

/// Two-player board games: tic-tac-toe, Kalah, English draughts, Halma.
///
/// GAME is a name with optional parameters after a colon, e.g. `tictactoe`.
#[derive(Parser, Debug)]
#[command(name = "ply", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Args, Debug, Clone)]
struct PositionArgs {
    /// Start from this position (the game's position text) instead of the start.
    #[arg(long)]
    position: Option<String>,
    /// Play these moves first, each one validated.
    #[arg(long, num_args = 1.., value_name = "MOVE", allow_hyphen_values = true)]
    after: Vec<String>,
}

/// Long jobs: a checkpoint to resume from (and, under `mpirun` or `srun` with the
/// `mpi` feature, the work dealt out to the ranks: docs/mpi.md).
#[derive(clap::Args, Debug, Clone)]
struct CheckpointArgs {
    /// Keep the finished work items in this file (written atomically, at most once a
    /// second and when the run ends or is stopped); it must not exist unless --resume.
    #[arg(long, value_name = "FILE")]
    checkpoint: Option<std::path::PathBuf>,
    /// Go on from the --checkpoint file of the same command, computing only the items
    /// it lacks (a missing file starts afresh).
    #[arg(long, requires = "checkpoint")]
    resume: bool,
}

impl CheckpointArgs {
    /// The runner's options; `command` names what the results depend on.
    fn options(self, command: String) -> ply_host::distributed::Options {
        ply_host::distributed::Options {
            checkpoint: self.checkpoint,
            resume: self.resume,
            command,
        }
    }
}

#[derive(clap::Args, Debug, Clone)]
struct BudgetArgs {
    /// Search to this depth in plies.
    #[arg(long)]
    depth: Option<u32>,
    /// Seconds per move: a hard limit, measured from when the turn begins (a move
    /// never takes longer, printing it included).
    #[arg(long)]
    time: Option<f64>,
    /// Search this many nodes per move.
    #[arg(long)]
    nodes: Option<u64>,
}

#[derive(Subcommand, Debug)]
enum Command {
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
        /// Count on this many threads (1 to 64 per core, at most 1024).
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Count capture paths with the same origin, destination and captured
        /// pieces once (checkers).
        #[arg(long)]
        unique: bool,
        /// The table of exact counts in MiB (1 to 65536, within the free memory;
        /// rounded down to a power of two). Default: a size from the depth and the
        /// free memory, for depth 6 or more of a game with a perft key (Kalah, which
        /// rarely transposes, counts without one).
        #[arg(long)]
        hash_mb: Option<usize>,
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
        /// most 1024).
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// ybwc: split at nodes with at least this many plies left (default: depth - 3, at least 2).
        #[arg(long)]
        parallel_depth: Option<u32>,
        /// The evaluation (game-specific names; Halma also takes weights such as
        /// -2.5,1,1,1).
        #[arg(long, allow_hyphen_values = true)]
        eval: Option<String>,
        /// Transposition table size in MiB (1 to 65536, within the free memory).
        #[arg(long, default_value_t = 64)]
        hash_mb: usize,
        /// Print the moves in this notation (checkers: pdn or calgary).
        #[arg(long)]
        notation: Option<String>,
    },
    /// The exact value of a position under perfect play, and of each move.
    Solve {
        /// The game spec.
        game: String,
        #[command(flatten)]
        pos: PositionArgs,
        /// Save what the solve has proved to this file as it goes (whenever that
        /// changes, at most once a second, on Ctrl-C and at the end); it must not
        /// exist unless --resume (kalah only).
        #[arg(long)]
        checkpoint: Option<std::path::PathBuf>,
        /// Go on from the --checkpoint file of the same solve.
        #[arg(long, requires = "checkpoint")]
        resume: bool,
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
        /// Adjudicate a draw after this many plies (0: never).
        #[arg(long, default_value_t = 0)]
        max_plies: u32,
        /// The AI's search threads (default: every core; 1 is the single-thread,
        /// reproducible engine).
        #[arg(long)]
        threads: Option<usize>,
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
        /// Lazy SMP shared table size in MiB (1 to 65536, within the free memory).
        #[arg(long, default_value_t = 16)]
        hash_mb: usize,
        /// Draw speedup against threads into this SVG file (checked writable before
        /// the bench runs, written whole at the end).
        #[arg(long)]
        plot: Option<std::path::PathBuf>,
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
        /// Search threads of each AI (default: every core; a config's `threads=N`
        /// overrides it); round robin: games played in parallel (default: all cores).
        /// At most 64 per core and 1024.
        #[arg(long)]
        threads: Option<usize>,
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
        /// Adjudicate a draw after this many plies.
        #[arg(long, default_value_t = 1000)]
        max_plies: u32,
        #[command(flatten)]
        checkpoint: CheckpointArgs,
    },
}

const MAX_PERFT_DEPTH: u32 = 64;

/// Checks every setting of the command line and the environment before any work:
/// sizes and thread counts in range and affordable, output files writable
/// ([`ply_host::settings`]).
fn check_settings(command: &Command) -> Result<(), String> {
    use ply_host::settings;
    settings::environment()?;
    match command {
        Command::Perft {
            threads,
            hash_mb,
            checkpoint,
            ..
        } => {
            settings::threads(*threads, "--threads")?;
            if let Some(mb) = hash_mb {
                settings::hash_mb(*mb, "--hash-mb")?;
            }
            if let Some(path) = &checkpoint.checkpoint {
                settings::checkpoint(path, checkpoint.resume)?;
            }
        }
        Command::Search {
            threads,
            hash_mb,
            budget,
            ..
        } => {
            settings::threads(*threads, "--threads")?;
            settings::hash_mb(*hash_mb, "--hash-mb")?;
            if let Some(t) = budget.time {
                settings::seconds(t, "--time")?;
            }
        }
        Command::Play {
            budget, threads, ..
        } => {
            if let Some(t) = budget.time {
                settings::seconds(t, "--time")?;
            }
            if let Some(n) = threads {
                settings::threads(*n, "--threads")?;
            }
        }
        Command::Bench { hash_mb, plot, .. } => {
            settings::hash_mb(*hash_mb, "--hash-mb")?;
            if let Some(path) = plot {
                settings::output_file(path, "--plot")?;
            }
        }
        Command::Tournament {
            threads,
            results,
            checkpoint,
            ..
        } => {
            if let Some(n) = threads {
                settings::threads(*n, "--threads")?;
            }
            if let Some(path) = &checkpoint.checkpoint {
                settings::checkpoint(path, checkpoint.resume)?;
            }
            // Only rank 0 of an MPI run writes the results.
            if let (Some(path), false) = (results, ply_host::distributed::other_rank()) {
                settings::output_file(std::path::Path::new(path), "--results")?;
            }
        }
        Command::Solve {
            checkpoint, resume, ..
        } => {
            if let Some(path) = checkpoint {
                settings::checkpoint(path, *resume)?;
            }
        }
        Command::Moves { .. } => {}
    }
    // Commands not yet dealt out to the ranks of an MPI run.
    match command {
        Command::Moves { .. } => ply_host::distributed::one_process_only("moves"),
        Command::Search { .. } => ply_host::distributed::one_process_only("search"),
        Command::Solve { .. } => ply_host::distributed::one_process_only("solve"),
        Command::Play { .. } => ply_host::distributed::one_process_only("play"),
        Command::Bench { .. } => ply_host::distributed::one_process_only("bench"),
        Command::Perft { .. } | Command::Tournament { .. } => Ok(()),
    }
}

fn run(cli: Cli) -> Result<(), String> {
    check_settings(&cli.command)?;
    match cli.command {
        Command::Perft {
            game,
            depth,
            pos,
            divide,
            threads,
            unique,
            hash_mb,
            checkpoint,
        } => {
            if depth > MAX_PERFT_DEPTH {
                return Err(format!(
                    "perft depth {} is out of range: expected 0 to {}",
                    depth, MAX_PERFT_DEPTH
                ));
            }
            // What the count depends on (not --threads, --divide or the ranks).
            let command = command_line(
                &["perft", &game, &depth.to_string()],
                &pos,
                &[("--unique", unique.then(String::new))],
            );
            with_game(
                &game,
                perft::Perft {
                    depth,
                    position: pos.position,
                    after: pos.after,
                    divide,
                    threads,
                    unique,
                    hash_mb,
                    distributed: checkpoint.options(command),
                },
            )
            .map(drop)
        }
        Command::Moves {
            game,
            pos,
            notation,
        } => with_game(
            &game,
            moves::Moves {
                position: pos.position,
                after: pos.after,
                notation,
            },
        )
        .map(drop),
        Command::Search {
            game,
            pos,
            budget,
            algo,
            eval,
            hash_mb,
            threads,
            parallel_depth,
            notation,
        } => with_game(
            &game,
            search::Search {
                position: pos.position,
                after: pos.after,
                depth: budget.depth,
                time: budget.time,
                nodes: budget.nodes,
                algo,
                eval,
                hash_mb,
                threads,
                parallel_depth,
                notation,
            },
        )
        .map(drop),
        Command::Bench {
            game,
            pos,
            depth,
            algo,
            threads,
            baseline,
            runs,
            eval,
            parallel_depth,
            hash_mb,
            plot,
        } => with_game(
            &game,
            bench::Bench {
                position: pos.position,
                after: pos.after,
                depth,
                baseline: baseline
                    .parse::<ply_host::parallel::Algo>()
                    .map_err(|e| format!("--baseline: {e}"))?,
                algos: bench::parse_algos(&algo)?,
                threads: bench::parse_threads(&threads)?,
                runs,
                eval,
                parallel_depth,
                hash_mb,
                plot,
            },
        )
        .map(drop),
        Command::Solve {
            game,
            pos,
            checkpoint,
            resume,
        } => with_game(
            &game,
            solve::Solve {
                position: pos.position,
                after: pos.after,
                options: ply_host::games::SolveOptions { checkpoint, resume },
            },
        )
        .map(drop),
        Command::Play {
            game,
            first,
            second,
            position,
            budget,
            eval,
            max_plies,
            threads,
        } => with_game(
            &game,
            play::Play {
                first: play::Controller::parse(&first)?,
                second: play::Controller::parse(&second)?,
                position,
                depth: budget.depth,
                time: budget.time,
                nodes: budget.nodes,
                eval,
                max_plies,
                threads: threads.unwrap_or_else(ply_host::parallel::cores),
            },
        )
        .map(drop),
        Command::Tournament {
            strategies: Some(list),
            game,
            depth,
            games_per_pair,
            threads,
            results,
            minimax,
            seed,
            checkpoint,
            ..
        } => {
            // What the games depend on (not --threads, the games played at once).
            let command = command_line(
                &["tournament", &game],
                &PositionArgs {
                    position: None,
                    after: Vec::new(),
                },
                &[
                    ("--strategies", Some(list.clone())),
                    ("--depth", Some(depth.to_string())),
                    ("--games-per-pair", Some(games_per_pair.to_string())),
                    ("--minimax", minimax.then(String::new)),
                    ("--seed", Some(seed.to_string())),
                ],
            );
            let cfg = tournament::round_robin::RoundRobin {
                // Explicit weights contain commas: then the list is split on ';'.
                strategies: list
                    .split(if list.contains(';') { ';' } else { ',' })
                    .map(|s| s.trim().to_string())
                    .collect(),
                depth,
                games_per_pair,
                threads: threads.unwrap_or_else(ply_host::parallel::cores),
                results,
                minimax,
                seed,
                progress: true,
                distributed: checkpoint.options(command),
            };
            tournament::round_robin::run_round_robin(&game, &cfg).map(drop)
        }
        Command::Tournament {
            game,
            a,
            b,
            games,
            random_plies,
            seed,
            max_plies,
            threads,
            checkpoint,
            ..
        } => {
            let a = a.ok_or("--a is required")?;
            let b = b.ok_or("--b is required")?;
            // What the games depend on (--threads as given: its default is each
            // machine's cores).
            let command = command_line(
                &["tournament", &game],
                &PositionArgs {
                    position: None,
                    after: Vec::new(),
                },
                &[
                    ("--a", Some(a.clone())),
                    ("--b", Some(b.clone())),
                    ("--games", Some(games.to_string())),
                    ("--random-plies", Some(random_plies.to_string())),
                    ("--seed", Some(seed.to_string())),
                    ("--max-plies", Some(max_plies.to_string())),
                    ("--threads", threads.map(|n| n.to_string())),
                ],
            );
            with_game(
                &game,
                tournament::Tournament {
                    a,
                    b,
                    games,
                    random_plies,
                    seed,
                    max_plies,
                    threads: threads.unwrap_or_else(ply_host::parallel::cores),
                    distributed: checkpoint.options(command),
                },
            )
            .map(drop)
        }
    }
}

/// The arguments a job's results depend on as a command line (`ply perft checkers 11
/// --unique`): the fingerprint a checkpoint keeps. `options` without a value are
/// flags; `None` leaves an option out.
fn command_line(words: &[&str], pos: &PositionArgs, options: &[(&str, Option<String>)]) -> String {
    let mut line = format!("ply {}", words.join(" "));
    if let Some(p) = &pos.position {
        line += &format!(" --position {:?}", p);
    }
    if !pos.after.is_empty() {
        line += &format!(" --after {}", pos.after.join(" "));
    }
    for (name, value) in options {
        match value.as_deref() {
            None => {}
            Some("") => line += &format!(" {}", name),
            Some(v) => line += &format!(" {} {}", name, v),
        }
    }
    line
}

/// An error line: one line ([`ply_host::interrupt::one_line`]) of at most
/// [`ply_host::quote::MAX_LINE_CHARS`] characters, written to standard error (a
/// failure to write it is ignored: there is nowhere left to report it).
fn error_line(text: &str) {
    let line = ply_host::quote::cap_line(&ply_host::interrupt::one_line(text));
    ply_host::errln!("{}", ply_host::distributed::error_line(&line));
}

fn main() -> ExitCode {
    // `ply play` counts its first move's time from here.
    ply_host::clock::process_start();
    restore_sigpipe();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind;
            let help = matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion);
            if help || e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
                // Help asked for goes to standard output: a failed write is an error.
                if let Err(io) = e.print() {
                    error_line(&format!("error: cannot write output: {}", io));
                    return ExitCode::FAILURE;
                }
                return if help {
                    ExitCode::SUCCESS
                } else {
                    ExitCode::from(2)
                };
            }
            // One line: clap's first paragraph names the problem (and, for missing
            // arguments, lists them on the lines after the first).
            let text = e.render().to_string();
            let first: Vec<&str> = text
                .lines()
                .map(str::trim)
                .skip_while(|l| l.is_empty())
                .take_while(|l| !l.is_empty())
                .collect();
            if first.is_empty() {
                error_line("error: bad arguments");
            } else {
                // clap quotes a bad value whole: shorten it like ply's own errors.
                error_line(&ply_host::quote::shorten_quoted(&first.join(" ")));
            }
            return ExitCode::from(2);
        }
    };
    // Ctrl-C: remove result files being written, then exit with status 130.
    if let Err(msg) = ply_host::interrupt::install() {
        error_line(&format!("error: {}", msg));
        return ExitCode::FAILURE;
    }
    // Every line of output went through ply_host::output: a failed write is one error
    // line, whether the command saw it or not.
    match run(cli).and_then(|()| ply_host::output::finish()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            error_line(&format!("error: {}", msg));
            ExitCode::FAILURE
        }
    }
}

/// Rust ignores SIGPIPE, so printing into a closed pipe (`ply perft … | head -1`)
/// would panic; restore the default so `ply` ends quietly like any Unix tool.
fn restore_sigpipe() {
    #[cfg(unix)]
    // SAFETY: called first thing in main, before any other thread exists; setting
    // a signal's disposition to its default has no other effect.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

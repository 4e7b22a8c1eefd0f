//! A parsed command run: each subcommand's flags become its command's settings, handed
//! to the game the spec names ([`with_game`]); long jobs get the fingerprint their
//! checkpoint keeps ([`command_line`]).

use ply_host::commands::{
    bench, db, engine, moves, perft, play, r#match, search, solve, tournament, verify,
};
use ply_host::spec::{canonical, with_game};

use super::args::{Cli, Command, DbAction, PositionArgs};
use super::checks::check_settings;

const MAX_PERFT_DEPTH: u32 = 64;

/// `ply search`'s table when `--hash-mb` does not say, in MiB.
const SEARCH_HASH_MB: usize = 64;

/// `ply engine`'s and `ply bench`'s table when `--hash-mb` does not say, in MiB.
const ENGINE_HASH_MB: usize = 16;

/// The threads of the long jobs (perft, solve, play, tournament) when `--threads`
/// does not say: every core ([`ply_host::distributed::default_threads`]).
fn long_work_threads(threads: Option<usize>) -> usize {
    threads.unwrap_or_else(ply_host::distributed::default_threads)
}

/// The node count at which `ply solve kalah` stops as on Ctrl-C: the test hook of
/// `--resume`, read from `PLY_KALAH_STOP_NODES` in builds with debug assertions
/// only (every `cargo test` build: the test profile keeps them), never in a release
/// build and never on the command line.
#[cfg(debug_assertions)]
fn stop_nodes_hook() -> Result<Option<u64>, String> {
    let Some(v) = std::env::var_os("PLY_KALAH_STOP_NODES") else {
        return Ok(None);
    };
    let text = v.to_string_lossy();
    match text.parse::<u64>() {
        Ok(n) if n >= 1 => Ok(Some(n)),
        _ => Err(format!(
            "PLY_KALAH_STOP_NODES={} is not a whole number 1 to {}",
            ply_host::quote::quote(&text),
            u64::MAX
        )),
    }
}

/// Release builds have no test hook.
#[cfg(not(debug_assertions))]
fn stop_nodes_hook() -> Result<Option<u64>, String> {
    Ok(None)
}

/// Runs the command; `Ok` holds the exit status (0, or 1 when `ply verify` found a
/// difference).
/// `given` names the options given on the command line ([`super::given_options`]).
pub(crate) fn run(cli: Cli, given: &[String]) -> Result<u8, String> {
    // The checkpoints' locks, held until the command ends.
    let _locks = check_settings(&cli.command, given)?;
    if let Command::Verify {
        game,
        command,
        depth,
        positions,
        seed,
    } = cli.command
    {
        let verdict = with_game(
            &game,
            verify::Verify {
                spec: game.clone(),
                command,
                depth,
                positions,
                seed,
            },
        )?;
        return Ok(u8::from(verdict != verify::Verdict::Agree));
    }
    run_command(cli.command).map(|()| 0)
}

/// The exit status of an error of `cli`'s command: 2 for `ply verify` (its 1 means a
/// difference found), 1 for the others.
pub(crate) fn error_status(cli: &Cli) -> u8 {
    match cli.command {
        Command::Verify { .. } => 2,
        _ => 1,
    }
}

fn run_command(command: Command) -> Result<(), String> {
    match command {
        Command::Verify { .. } => unreachable!("run handles verify"),
        Command::Engine {
            game,
            eval,
            threads,
            hash_mb,
            search,
        } => with_game(
            &game,
            engine::EngineCommand {
                spec: game.clone(),
                eval,
                threads: threads.unwrap_or(1),
                hash_mb: hash_mb.unwrap_or(ENGINE_HASH_MB),
                switches: ply_host::parallel::Switches::parse(&search)?,
            },
        ),
        Command::Match(m) => with_game(
            &m.game,
            r#match::Match {
                spec: m.game.clone(),
                a: m.a,
                b: m.b,
                time: m.time,
                nodes: m.nodes,
                games: m.games,
                openings: m.openings,
                sprt: m.sprt,
                pdn: m.pdn,
                concurrency: m.concurrency,
                grace: m.grace,
                startup: m.startup,
                max_plies: m.max_plies,
                seed: m.seed,
            },
        )
        .map(drop),
        Command::Perft {
            game,
            depth,
            pos,
            divide,
            threads,
            unique,
            hash_mb,
            no_table,
            private_tables,
            route,
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
                &["perft", &canonical(&game), &depth.to_string()],
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
                    threads: long_work_threads(threads),
                    unique,
                    hash_mb,
                    no_table,
                    private_tables,
                    routing: route.routing(),
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
                hash_mb: hash_mb.unwrap_or(SEARCH_HASH_MB),
                threads: threads.unwrap_or(1),
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
                hash_mb: hash_mb.unwrap_or(ENGINE_HASH_MB),
                plot,
            },
        )
        .map(drop),
        Command::Db {
            action:
                DbAction::Build {
                    game,
                    pieces,
                    threads,
                    verify,
                    checkpoint,
                },
        } => {
            // What the files depend on (not --threads, --verify or the ranks).
            let command = format!("ply db build {} --pieces {}", canonical(&game), pieces);
            with_game(
                &game,
                db::DbBuild {
                    pieces,
                    threads: long_work_threads(threads),
                    verify,
                    job: checkpoint.options(command),
                },
            )
        }
        Command::Solve { game, pos, solve } => with_game(
            &game,
            solve::Solve {
                position: pos.position,
                after: pos.after,
                options: solve.options(stop_nodes_hook()?)?,
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
            hash_mb,
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
                threads: long_work_threads(threads),
                hash_mb: hash_mb.unwrap_or(play::DEFAULT_HASH_MB),
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
                &["tournament", &canonical(&game)],
                &PositionArgs::default(),
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
                threads: long_work_threads(threads),
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
            hash_mb,
            checkpoint,
            ..
        } => {
            let a = a.ok_or("--a is required")?;
            let b = b.ok_or("--b is required")?;
            // What the games depend on (--threads as given: its default is each
            // machine's cores).
            let command = command_line(
                &["tournament", &canonical(&game)],
                &PositionArgs::default(),
                &[
                    ("--a", Some(a.clone())),
                    ("--b", Some(b.clone())),
                    ("--games", Some(games.to_string())),
                    ("--random-plies", Some(random_plies.to_string())),
                    ("--seed", Some(seed.to_string())),
                    ("--max-plies", Some(max_plies.to_string())),
                    ("--threads", threads.map(|n| n.to_string())),
                    ("--hash-mb", hash_mb.map(|n| n.to_string())),
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
                    threads: long_work_threads(threads),
                    hash_mb: hash_mb.unwrap_or(tournament::DEFAULT_HASH_MB),
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

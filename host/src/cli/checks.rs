//! Every setting of a command checked before any work: numbers in range and affordable,
//! output files writable, and the commands an MPI run cannot deal out refused.

use super::args::Command;

/// Checks every setting of the command line and the environment before any work:
/// sizes and thread counts in range and affordable, output files writable and each
/// its own file ([`ply_host::settings`], [`ply_host::files`]). Returns the locks of
/// the command's checkpoints ([`ply_host::files::Lock`]), to hold while it runs.
pub(super) fn check_settings(command: &Command) -> Result<Vec<ply_host::files::Lock>, String> {
    use ply_host::settings;
    settings::environment()?;
    check_outputs_distinct(command)?;
    let mut locks = Vec::new();
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
                locks.extend(settings::checkpoint(path, checkpoint.resume)?);
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
            strategies,
            games,
            ..
        } => {
            // The games are laid out before the first is played: a count past the
            // round robin's limit would take its memory first.
            if strategies.is_none() {
                settings::games(u64::from(*games), "--games")?;
            }
            if let Some(n) = threads {
                settings::threads(*n, "--threads")?;
            }
            if let Some(path) = &checkpoint.checkpoint {
                locks.extend(settings::checkpoint(path, checkpoint.resume)?);
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
                locks.extend(settings::checkpoint(path, *resume)?);
            }
        }
        Command::Engine {
            threads, hash_mb, ..
        } => {
            settings::threads(*threads, "--threads")?;
            settings::hash_mb(*hash_mb, "--hash-mb")?;
        }
        Command::Match {
            time,
            grace,
            startup,
            concurrency,
            pdn,
            ..
        } => {
            settings::seconds(*time, "--time")?;
            settings::seconds(*grace, "--grace")?;
            settings::seconds(*startup, "--startup")?;
            settings::threads(*concurrency, "--concurrency")?;
            if let Some(path) = pdn {
                settings::output_file(path, "--pdn")?;
            }
        }
        Command::Moves { .. } | Command::Verify { .. } => {}
    }
    // Commands not yet dealt out to the ranks of an MPI run.
    let one_process = match command {
        Command::Moves { .. } => ply_host::distributed::one_process_only("moves"),
        Command::Search { .. } => ply_host::distributed::one_process_only("search"),
        Command::Solve { game, .. } => {
            if ply_host::spec::with_game(game, SolvesOnRanks)? {
                Ok(())
            } else {
                ply_host::distributed::one_process_only("solve")
            }
        }
        Command::Play { .. } => ply_host::distributed::one_process_only("play"),
        Command::Bench { .. } => ply_host::distributed::one_process_only("bench"),
        Command::Engine { .. } => ply_host::distributed::one_process_only("engine"),
        Command::Match { .. } => ply_host::distributed::one_process_only("match"),
        Command::Verify { .. } => ply_host::distributed::one_process_only("verify"),
        Command::Perft { .. } | Command::Tournament { .. } => Ok(()),
    };
    one_process.map(|()| locks)
}

/// Refuses one file given for two of the command's outputs
/// ([`ply_host::files::check_distinct`]).
fn check_outputs_distinct(command: &Command) -> Result<(), String> {
    use std::path::Path;
    let mut outputs: Vec<(&str, &Path)> = Vec::new();
    if let Command::Tournament {
        results,
        checkpoint,
        ..
    } = command
    {
        if let Some(r) = results {
            outputs.push(("--results", Path::new(r)));
        }
        if let Some(c) = &checkpoint.checkpoint {
            outputs.push(("--checkpoint", c));
        }
    }
    ply_host::files::check_distinct(&outputs)
}

/// Whether the game's solve deals its work out to the ranks of an MPI run
/// ([`ply_host::games::HostGame::SOLVES_ON_RANKS`]).
struct SolvesOnRanks;

impl ply_host::spec::GameCommand for SolvesOnRanks {
    type Output = bool;
    fn run<G: ply_host::games::HostGame>(self, _rules: G::Rules) -> Result<bool, String> {
        Ok(G::SOLVES_ON_RANKS)
    }
}

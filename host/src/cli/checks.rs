//! Every setting of a command checked before any work: numbers in range and affordable,
//! output files writable, and the commands an MPI run cannot deal out refused.

use super::args::{CheckpointArgs, Command, DbAction, RankArgs, SolveArgs};

/// A form of a command whose options differ from its other forms'.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Form {
    /// `ply tournament GAME --a A --b B`.
    TwoConfigs,
    /// `ply tournament halma --strategies LIST`.
    RoundRobin,
}

impl Form {
    /// The form of `command` (`None`: a command of one form).
    fn of(command: &Command) -> Option<Form> {
        match command {
            Command::Tournament {
                strategies: Some(_),
                ..
            } => Some(Form::RoundRobin),
            Command::Tournament { .. } => Some(Form::TwoConfigs),
            _ => None,
        }
    }

    /// The form in an error line.
    fn name(self) -> &'static str {
        match self {
            Form::TwoConfigs => "a tournament of --a and --b",
            Form::RoundRobin => "the round robin (--strategies)",
        }
    }
}

/// The options that apply to one form of their command only: each option (as clap
/// names it, its field's name) and the form it applies to. Given in another form,
/// an option is refused rather than ignored. (`--parallel-depth`, which applies to
/// `ply search --algo ybwc` only, is refused by the search itself.)
const FORM_ONLY: &[(&str, Form)] = &[
    ("depth", Form::RoundRobin),
    ("games_per_pair", Form::RoundRobin),
    ("results", Form::RoundRobin),
    ("minimax", Form::RoundRobin),
    ("games", Form::TwoConfigs),
    ("random_plies", Form::TwoConfigs),
    ("max_plies", Form::TwoConfigs),
    ("hash_mb", Form::TwoConfigs),
];

/// The options of the subcommand in `matches` given on the command line (not
/// defaults), by clap's names: what [`check_form`] looks at.
pub(crate) fn given_options(matches: &clap::ArgMatches) -> Vec<String> {
    let Some((_, sub)) = matches.subcommand() else {
        return Vec::new();
    };
    FORM_ONLY
        .iter()
        .map(|(name, _)| *name)
        .filter(|name| sub.ids().any(|id| id.as_str() == *name))
        .filter(|name| sub.value_source(name) == Some(clap::parser::ValueSource::CommandLine))
        .map(str::to_string)
        .collect()
}

/// Refuses an option `given` that does not apply to the form of `command`
/// ([`FORM_ONLY`]).
fn check_form(command: &Command, given: &[String]) -> Result<(), String> {
    let Some(form) = Form::of(command) else {
        return Ok(());
    };
    for (name, applies) in FORM_ONLY {
        if *applies != form && given.iter().any(|g| g == name) {
            return Err(format!(
                "--{} applies to {}, not to {}",
                name.replace('_', "-"),
                applies.name(),
                form.name()
            ));
        }
    }
    Ok(())
}

/// Checks every setting of the command line and the environment before any work:
/// sizes and thread counts in range and affordable, output files writable and each
/// its own file ([`ply_host::settings`], [`ply_host::files`]). Returns the locks of
/// the command's checkpoints ([`ply_host::files::Lock`]), to hold while it runs.
pub(super) fn check_settings(
    command: &Command,
    given: &[String],
) -> Result<Vec<ply_host::files::Lock>, String> {
    use ply_host::settings;
    check_form(command, given)?;
    settings::environment()?;
    check_outputs_distinct(command)?;
    let mut locks = Vec::new();
    match command {
        Command::Perft {
            threads,
            hash_mb,
            route,
            checkpoint,
            ..
        } => {
            check_threads_and_table(*threads, *hash_mb)?;
            for (value, max, flag, words) in [
                (
                    route.route_rest,
                    settings::MAX_ROUTE_REST,
                    "--route-rest",
                    " (plies)",
                ),
                (
                    route.route_nodes,
                    settings::MAX_ROUTE_NODES,
                    "--route-nodes",
                    " (positions)",
                ),
                (
                    route.route_batch,
                    settings::MAX_ROUTE_BATCH,
                    "--route-batch",
                    " (items)",
                ),
            ] {
                if let Some(v) = value {
                    settings::in_range(v, 1, max, flag, words)?;
                }
            }
            locks.extend(check_job(checkpoint)?);
        }
        Command::Search {
            threads,
            hash_mb,
            budget,
            ..
        } => {
            check_threads_and_table(*threads, *hash_mb)?;
            if let Some(t) = budget.time {
                settings::seconds(t, "--time")?;
            }
        }
        Command::Play {
            budget,
            threads,
            hash_mb,
            ..
        } => {
            if let Some(t) = budget.time {
                settings::seconds(t, "--time")?;
            }
            check_threads_and_table(*threads, *hash_mb)?;
        }
        Command::Bench { hash_mb, plot, .. } => {
            check_threads_and_table(None, *hash_mb)?;
            if let Some(path) = plot {
                settings::output_file(path, "--plot")?;
            }
        }
        Command::Tournament {
            threads,
            hash_mb,
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
            check_threads_and_table(*threads, *hash_mb)?;
            locks.extend(check_job(checkpoint)?);
            // Only rank 0 of an MPI run writes the results.
            if let (Some(path), false) = (results, ply_host::distributed::other_rank()) {
                settings::output_file(std::path::Path::new(path), "--results")?;
            }
        }
        Command::Solve { solve, .. } => locks.extend(check_solve(solve)?),
        Command::Engine {
            threads, hash_mb, ..
        } => {
            check_threads_and_table(*threads, *hash_mb)?;
        }
        Command::Match(m) => {
            settings::seconds(m.time, "--time")?;
            if m.nodes == Some(0) {
                return Err("--nodes must be at least 1".into());
            }
            settings::seconds(m.grace, "--grace")?;
            settings::seconds(m.startup, "--startup")?;
            settings::threads(m.concurrency, "--concurrency")?;
            if let Some(path) = &m.pdn {
                settings::output_file(path, "--pdn")?;
            }
        }
        Command::Db {
            action:
                DbAction::Build {
                    threads,
                    checkpoint,
                    ..
                },
        } => {
            if let Some(n) = threads {
                settings::threads(*n, "--threads")?;
            }
            locks.extend(check_job(checkpoint)?);
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
        Command::Match(_) => ply_host::distributed::one_process_only("match"),
        Command::Verify { .. } => ply_host::distributed::one_process_only("verify"),
        Command::Perft { .. } | Command::Tournament { .. } | Command::Db { .. } => Ok(()),
    };
    one_process.map(|()| locks)
}

/// Checks `--threads` and `--hash-mb` as given (on the command line or through
/// `PLY_THREADS` and `PLY_HASH_MB`, which [`ply_host::settings::environment`] has
/// checked first with lines that name them): in range, and the table within the
/// memory free now.
fn check_threads_and_table(threads: Option<usize>, hash_mb: Option<usize>) -> Result<(), String> {
    if let Some(n) = threads {
        ply_host::settings::threads(n, "--threads")?;
    }
    if let Some(mb) = hash_mb {
        ply_host::settings::hash_mb(mb, "--hash-mb")?;
    }
    Ok(())
}

/// Checks `ply solve`'s settings and takes its checkpoint's lock.
fn check_solve(solve: &SolveArgs) -> Result<Option<ply_host::files::Lock>, String> {
    use ply_host::settings::{self, in_range};
    check_threads_and_table(solve.threads, None)?;
    if let Some(mb) = solve.hash_mb {
        // The solver's table is touched as the solve goes: bounded by the machine's
        // memory, not the memory free now.
        in_range(
            mb as u64,
            1,
            settings::MAX_HASH_MB as u64,
            "--hash-mb",
            " (MiB)",
        )?;
        ply_host::memory::check_total((mb as u64) << 20, &format!("--hash-mb {}", mb))?;
    }
    if let Some(k) = solve.table_seeds {
        let max = u64::from(ply_core::games::kalah::solver::MAX_TABLE_SEEDS);
        in_range(u64::from(k), 0, max, "--table-seeds", "")?;
    }
    if let Some(d) = solve.guess_depth {
        let max = u64::from(settings::MAX_GUESS_DEPTH);
        in_range(u64::from(d), 0, max, "--guess-depth", " (plies)")?;
    }
    if let Some(n) = &solve.move_nodes {
        settings::nodes_or_max(n, "--move-nodes")?;
    }
    if let Some(p) = solve.split_plies {
        let max = settings::MAX_SPLIT_PLIES as u64;
        in_range(p as u64, 1, max, "--split-plies", " (plies)")?;
    }
    if let Some(n) = solve.share_work {
        let max = u64::from(settings::NO_SHARING);
        in_range(
            u64::from(n),
            0,
            max,
            "--share-work",
            " (log2 of nodes; 64: none)",
        )?;
    }
    check_ranks(&solve.ranks)?;
    match &solve.checkpoint {
        Some(path) => ply_host::distributed::checkpoint::claim(path, solve.resume),
        None => Ok(None),
    }
}

/// Checks the options of a job that deals its items out to the ranks of an MPI run.
fn check_ranks(ranks: &RankArgs) -> Result<(), String> {
    if let Some(t) = ranks.rank_timeout {
        let max = ply_host::settings::MAX_RANK_TIMEOUT;
        ply_host::settings::in_range(t, 1, max, "--rank-timeout", " (seconds)")?;
    }
    Ok(())
}

/// Checks a long job's options and takes its checkpoint's lock
/// ([`ply_host::distributed::checkpoint::claim`]).
fn check_job(job: &CheckpointArgs) -> Result<Option<ply_host::files::Lock>, String> {
    check_ranks(&job.ranks)?;
    match &job.checkpoint {
        Some(path) => ply_host::distributed::checkpoint::claim(path, job.resume),
        None => Ok(None),
    }
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

//! What clap cannot say about the settings a user gives `ply`: the ranges that
//! depend on the machine (threads per core, free memory), the `PLY_*` environment
//! values checked with lines that name the variable, and the files a command will
//! write. The flags themselves, their defaults and their environment fallbacks
//! (`--threads` / `PLY_THREADS`, `--hash-mb` / `PLY_HASH_MB`, ...) are declared once,
//! in the binary's clap parser (`ply CMD --help` shows them). `main` runs
//! [`environment`] and the checks for the command's options before any work starts,
//! so a bad setting costs nothing but its error line: one line naming the setting and
//! what it accepts. Numbers out of range are refused, never clamped or wrapped.
//!
//! | variable | accepted |
//! |---|---|
//! | `PLY_TABLES_DIR` | a directory, or a path where one can be made (not empty: unset it for the default) |
//! | `PLY_KALAH_TABLE_SEEDS` | 0 to 126 ([`MAX_TABLE_SEEDS`]; `ply solve --table-seeds`) |
//! | `PLY_HASH_MB` | 1 to 1048576, and no more than the machine's memory (`--hash-mb`) |
//! | `PLY_THREADS` | 1 to [`max_threads`] (`--threads`) |
//! | `PLY_GUESS_DEPTH` | 0 to [`MAX_GUESS_DEPTH`] (`ply solve --guess-depth`) |
//! | `PLY_KALAH_MOVE_NODES` | 0 to 18446744073709551615, or `max` (`ply solve --move-nodes`) |
//! | `PLY_RANK_TIMEOUT` | 1 to 86400 seconds (`--rank-timeout`) |
//! | `PLY_KALAH_SPLIT_PLIES` | 1 to [`MAX_SPLIT_PLIES`] (`ply solve --split-plies`) |
//! | `PLY_KALAH_SHARE_WORK` | 0 to [`NO_SHARING`] (`ply solve --share-work`) |
//! | `PLY_ROUTE_REST` | 1 to [`MAX_ROUTE_REST`] (`ply perft --route-rest`) |
//! | `PLY_ROUTE_NODES` | 1 to [`MAX_ROUTE_NODES`] (`ply perft --route-nodes`) |
//! | `PLY_ROUTE_BATCH` | 1 to [`MAX_ROUTE_BATCH`] (`ply perft --route-batch`) |
//!
//! Thread counts (`--threads`, `PLY_THREADS`) are bounded by [`max_threads`]: at most
//! [`THREADS_PER_CORE`] per core of the machine and at most [`MAX_THREADS`]. More
//! cannot make a search faster, and a count far past the machine's (100000) would
//! spend a minute starting threads before failing.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use ply_core::games::kalah::solver::MAX_TABLE_SEEDS;

use crate::quote::quote;

/// The most threads any command starts, whatever the machine.
pub const MAX_THREADS: usize = 1024;

/// The most threads per core of the machine a command starts.
pub const THREADS_PER_CORE: usize = 64;

/// The largest `--hash-mb` (`PLY_HASH_MB`), in MiB.
pub const MAX_HASH_MB: usize = 1 << 20;

/// The deepest `--guess-depth` (`PLY_GUESS_DEPTH`): the shallow searches that order the Kalah solver's
/// moves gain nothing deeper, and each further ply multiplies their time.
pub const MAX_GUESS_DEPTH: u32 = 64;

/// The default `--share-work` (`PLY_KALAH_SHARE_WORK`): the ranks of a Kalah
/// solve share the exact table entries whose search took at least 2^10 nodes
/// (measured in docs/log/2026-11-29-kalah-ranks.md).
pub const DEFAULT_SHARE_WORK: u32 = 10;

/// The `--share-work` that shares nothing: no entry's search takes 2^64 nodes.
pub const NO_SHARING: u32 = 64;

/// The deepest `--split-plies` (`PLY_KALAH_SPLIT_PLIES`): a Kalah solve on MPI ranks splits at most
/// this many plies below the root into items.
pub const MAX_SPLIT_PLIES: usize = 4;

/// The most plies `--route-rest` (`PLY_ROUTE_REST`) leaves below the routed ones.
pub const MAX_ROUTE_REST: u64 = 30;

/// The largest `--route-nodes` (`PLY_ROUTE_NODES`): positions of one ply on one rank.
pub const MAX_ROUTE_NODES: u64 = 1 << 30;

/// The largest `--route-batch` (`PLY_ROUTE_BATCH`): work items a rank counts together.
pub const MAX_ROUTE_BATCH: u64 = 1 << 20;

/// The longest `--rank-timeout` (`PLY_RANK_TIMEOUT`), in seconds: a day.
pub const MAX_RANK_TIMEOUT: u64 = 86_400;

/// `n` if it is from `min` to `max`; otherwise an error naming `setting` (`--guess-depth`)
/// and the range, with `unit` after it (` (plies)`).
pub fn in_range(n: u64, min: u64, max: u64, setting: &str, unit: &str) -> Result<u64, String> {
    if (min..=max).contains(&n) {
        Ok(n)
    } else {
        Err(format!(
            "{} {} is out of range: expected {} to {}{}",
            setting, n, min, max, unit
        ))
    }
}

/// A node budget as `--move-nodes` takes it: a whole number, or `max`
/// (`u64::MAX`, no limit); otherwise an error naming `setting`.
pub fn nodes_or_max(text: &str, setting: &str) -> Result<u64, String> {
    let t = text.strip_prefix('+').unwrap_or(text);
    if text == "max" {
        return Ok(u64::MAX);
    }
    if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "{} {} is not a number: expected a whole number 0 to {}, or max",
            setting,
            quote(text),
            u64::MAX
        ));
    }
    t.parse::<u64>().map_err(|_| {
        format!(
            "{} {} is out of range: expected a whole number 0 to {}, or max",
            setting,
            quote(t),
            u64::MAX
        )
    })
}

/// The largest thread count accepted on this machine: [`THREADS_PER_CORE`] per core,
/// at most [`MAX_THREADS`].
pub fn max_threads() -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    cores.saturating_mul(THREADS_PER_CORE).min(MAX_THREADS)
}

/// `n` if it is a thread count from 1 to [`max_threads`]; otherwise an error naming
/// `setting` (`--threads`).
pub fn threads(n: usize, setting: &str) -> Result<usize, String> {
    let max = max_threads();
    if n == 0 {
        Err(format!("{} must be at least 1", setting))
    } else if n <= max {
        Ok(n)
    } else {
        Err(format!(
            "{} {} is out of range: expected at least 1 and at most {} ({} per core of \
             this machine, at most {})",
            setting, n, max, THREADS_PER_CORE, MAX_THREADS
        ))
    }
}

/// The most games a tournament plays (every game is laid out before the first is
/// played: `--games`, and a round robin's pairs times `--games-per-pair`).
pub const MAX_GAMES: u64 = 1_000_000;

/// `n` if it is a number of games from 1 to [`MAX_GAMES`]; otherwise an error
/// naming `setting` (`--games`).
pub fn games(n: u64, setting: &str) -> Result<u64, String> {
    if n == 0 {
        Err(format!("{} must be at least 1", setting))
    } else if n <= MAX_GAMES {
        Ok(n)
    } else {
        Err(format!(
            "{} {} is out of range: expected 1 to {}",
            setting, n, MAX_GAMES
        ))
    }
}

/// The longest time budget, in seconds (`--time`, a tournament's `time=`).
pub const MAX_SECONDS: f64 = 86_400.0;

/// `t` if it is a time budget above 0 and at most [`MAX_SECONDS`]; otherwise an
/// error naming `setting` (`--time`), the number written short (`1e308`, never its
/// 309 digits).
pub fn seconds(t: f64, setting: &str) -> Result<f64, String> {
    if t.is_finite() && t > 0.0 && t <= MAX_SECONDS {
        return Ok(t);
    }
    let plain = format!("{}", t);
    let shown = if plain.len() > 20 {
        format!("{:e}", t)
    } else {
        plain
    };
    Err(format!(
        "{} {} is out of range: expected seconds above 0, at most {}",
        setting, shown, MAX_SECONDS
    ))
}

/// `mb` if it is a table size from 1 to [`MAX_HASH_MB`] MiB that this machine has
/// the free memory for; otherwise an error naming `setting` (`--hash-mb`). The
/// tables `--hash-mb` sizes are filled when they are made, so a size past the free
/// memory would fail (or be killed) right away.
pub fn hash_mb(mb: usize, setting: &str) -> Result<usize, String> {
    if !(1..=MAX_HASH_MB).contains(&mb) {
        return Err(format!(
            "{} {} is out of range: expected 1 to {} (MiB)",
            setting, mb, MAX_HASH_MB
        ));
    }
    crate::memory::check_available((mb as u64) << 20, &format!("{} {}", setting, mb))?;
    Ok(mb)
}

/// `ply perft --hash-mb`: refused for a game (named `game`) whose positions have no
/// exact perft key (`key_bits` 0, [`ply_core::perft::PerftKey`]), which perft
/// counts without a table.
pub fn perft_hash_mb(key_bits: u32, game: &str) -> Result<(), String> {
    if key_bits == 0 {
        Err(format!(
            "--hash-mb is not available for {}: its positions have no exact perft key \
             (perft counts it without a table)",
            game
        ))
    } else {
        Ok(())
    }
}

/// Checks, before any work, that `path` (given as `setting`, e.g. `--plot`) can be
/// written: [`crate::files::check_output`] (a regular file or none yet, symbolic
/// links followed, in a directory that exists, where a file can be created). Nothing
/// is left behind, and the result itself is written whole at the end or not at all.
pub fn output_file(path: &Path, setting: &str) -> Result<(), String> {
    crate::files::check_output(path, setting)
}

/// The settings of the environment that no flag carries ([`environment`]): where the
/// Kalah endgame tables live and how many seeds they cover, shared by every command
/// that loads them (`ply solve` also takes the seeds as `--table-seeds`). `None`:
/// the variable is unset (the default applies).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Environment {
    /// `PLY_TABLES_DIR`: where the Kalah endgame tables live.
    pub tables_dir: Option<PathBuf>,
    /// `PLY_KALAH_TABLE_SEEDS`: seeds in play the endgame tables cover (0: none).
    pub table_seeds: Option<u32>,
}

/// The names of the variables [`environment`] checks. All but `PLY_TABLES_DIR` are
/// also the fallbacks of flags (clap reads them there; this check names the variable
/// in its error line, clap's would name the flag).
pub const VARIABLES: &[&str] = &[
    "PLY_TABLES_DIR",
    "PLY_KALAH_TABLE_SEEDS",
    "PLY_HASH_MB",
    "PLY_THREADS",
    "PLY_GUESS_DEPTH",
    "PLY_KALAH_MOVE_NODES",
    "PLY_RANK_TIMEOUT",
    "PLY_KALAH_SPLIT_PLIES",
    "PLY_KALAH_SHARE_WORK",
    "PLY_ROUTE_REST",
    "PLY_ROUTE_NODES",
    "PLY_ROUTE_BATCH",
];

/// Reads and checks every `PLY_*` variable ply uses; the first bad one is an error
/// naming it and what it accepts.
pub fn environment() -> Result<Environment, String> {
    environment_from(|name| std::env::var_os(name))
}

/// [`environment`] with the variables read through `get` (for tests).
pub fn environment_from(get: impl Fn(&str) -> Option<OsString>) -> Result<Environment, String> {
    let text = |name: &str| -> Result<Option<String>, String> {
        match get(name) {
            None => Ok(None),
            Some(v) => v
                .into_string()
                .map(Some)
                .map_err(|_| format!("{} is not valid UTF-8 text", name)),
        }
    };
    let number = |name: &str, min: u64, max: u64, words: &str| -> Result<Option<u64>, String> {
        let accepted = format!("expected a whole number {} to {}{}", min, max, words);
        let Some(v) = text(name)? else {
            return Ok(None);
        };
        let t = v.as_str();
        if t.is_empty() {
            return Err(format!(
                "{} is empty: {} (or unset it for the default)",
                name, accepted
            ));
        }
        if name == "PLY_KALAH_MOVE_NODES" && t == "max" {
            return Ok(Some(u64::MAX));
        }
        // One leading `+`, as every number ply reads (the command line's included).
        let t = t.strip_prefix('+').unwrap_or(t);
        if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
            return Err(format!(
                "{}={} is not a number: {}",
                name,
                quote(&v),
                accepted
            ));
        }
        // All digits: too many of them is out of range, never wrapped.
        match t.parse::<u64>() {
            Ok(n) if (min..=max).contains(&n) => Ok(Some(n)),
            _ => Err(format!(
                "{}={} is out of range: {}",
                name,
                quote(t),
                accepted
            )),
        }
    };

    let tables_dir = match get("PLY_TABLES_DIR") {
        None => None,
        Some(d) if d.is_empty() => {
            return Err(
                "PLY_TABLES_DIR is empty: expected a directory for the endgame tables \
                 (or unset it for the default)"
                    .into(),
            )
        }
        Some(d) => {
            let dir = PathBuf::from(d);
            // A link to nothing cannot be made a directory (it "exists"). Asked of the
            // link itself, once: a directory another process makes meanwhile (the ranks
            // of one MPI run share the directory) is no link.
            let link = dir
                .symlink_metadata()
                .is_ok_and(|m| m.file_type().is_symlink());
            if link && !dir.exists() {
                let to = crate::files::destination(&dir).unwrap_or_else(|_| dir.clone());
                return Err(format!(
                    "PLY_TABLES_DIR={} is a symbolic link to {}, which does not exist: make \
                     that directory, or give another",
                    quote(&dir.to_string_lossy()),
                    quote(&to.to_string_lossy())
                ));
            }
            // Missing is fine (it is made when tables are saved); a file is not.
            if dir.exists() && !dir.is_dir() {
                return Err(format!(
                    "PLY_TABLES_DIR={} is not a directory: expected a directory for the \
                     endgame tables",
                    quote(&dir.to_string_lossy())
                ));
            }
            Some(dir)
        }
    };
    let table_seeds =
        number("PLY_KALAH_TABLE_SEEDS", 0, u64::from(MAX_TABLE_SEEDS), "")?.map(|n| n as u32);
    if let Some(mb) = number("PLY_HASH_MB", 1, MAX_HASH_MB as u64, " (MiB)")? {
        crate::memory::check_total(mb << 20, &format!("PLY_HASH_MB={}", mb))?;
    }
    number(
        "PLY_THREADS",
        1,
        max_threads() as u64,
        &format!(
            " ({} per core of this machine, at most {})",
            THREADS_PER_CORE, MAX_THREADS
        ),
    )?;
    number("PLY_GUESS_DEPTH", 0, u64::from(MAX_GUESS_DEPTH), " (plies)")?;
    number("PLY_KALAH_MOVE_NODES", 0, u64::MAX, ", or max")?;
    number("PLY_RANK_TIMEOUT", 1, MAX_RANK_TIMEOUT, " (seconds)")?;
    number(
        "PLY_KALAH_SPLIT_PLIES",
        1,
        MAX_SPLIT_PLIES as u64,
        " (plies)",
    )?;
    number(
        "PLY_KALAH_SHARE_WORK",
        0,
        u64::from(NO_SHARING),
        " (log2 of nodes; 64: none)",
    )?;
    number("PLY_ROUTE_REST", 1, MAX_ROUTE_REST, " (plies)")?;
    number("PLY_ROUTE_NODES", 1, MAX_ROUTE_NODES, " (positions)")?;
    number("PLY_ROUTE_BATCH", 1, MAX_ROUTE_BATCH, " (items)")?;
    Ok(Environment {
        tables_dir,
        table_seeds,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &[(&str, &str)]) -> Result<Environment, String> {
        let pairs: Vec<(String, String)> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        environment_from(|name| {
            pairs
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| OsString::from(v))
        })
    }

    #[test]
    fn unset_variables_are_none() {
        assert_eq!(env(&[]).unwrap(), Environment::default());
    }

    #[test]
    fn good_values_parse() {
        // A directory of this test's own: a fixed path such as /tmp/t may be anything
        // on the machine that runs the tests (it was a program once).
        let dir = std::env::temp_dir().join(format!("ply-settings-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let text = dir.to_str().expect("a temporary path in UTF-8").to_string();
        let e = env(&[
            ("PLY_TABLES_DIR", text.as_str()),
            ("PLY_KALAH_TABLE_SEEDS", "0"),
            ("PLY_HASH_MB", "8"),
            ("PLY_THREADS", "+1"),
            ("PLY_GUESS_DEPTH", "64"),
            ("PLY_KALAH_MOVE_NODES", "max"),
            ("PLY_RANK_TIMEOUT", "5"),
            ("PLY_KALAH_SPLIT_PLIES", "4"),
        ])
        .unwrap();
        assert_eq!(e.tables_dir, Some(dir.clone()));
        assert_eq!(e.table_seeds, Some(0));
        assert!(env(&[("PLY_KALAH_MOVE_NODES", "18446744073709551615")]).is_ok());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn flag_numbers_are_checked_like_the_variables() {
        assert_eq!(in_range(4, 1, 4, "--split-plies", " (plies)"), Ok(4));
        assert_eq!(
            in_range(5, 1, 4, "--split-plies", " (plies)"),
            Err("--split-plies 5 is out of range: expected 1 to 4 (plies)".to_string())
        );
        assert_eq!(nodes_or_max("max", "--move-nodes"), Ok(u64::MAX));
        assert_eq!(nodes_or_max("+7", "--move-nodes"), Ok(7));
        let e = nodes_or_max("-1", "--move-nodes").unwrap_err();
        assert!(e.starts_with("--move-nodes '-1' is not a number"), "{}", e);
        let e = nodes_or_max("99999999999999999999", "--move-nodes").unwrap_err();
        assert!(e.contains("is out of range"), "{}", e);
    }

    #[test]
    fn bad_values_name_the_variable_and_the_range() {
        for (name, value, needle) in [
            (
                "PLY_HASH_MB",
                "abc",
                "PLY_HASH_MB='abc' is not a number: expected a whole number 1 to 1048576",
            ),
            ("PLY_HASH_MB", "-5", "PLY_HASH_MB='-5' is not a number"),
            (
                "PLY_HASH_MB",
                "0",
                "PLY_HASH_MB='0' is out of range: expected a whole number 1 to",
            ),
            ("PLY_HASH_MB", "", "PLY_HASH_MB is empty"),
            ("PLY_HASH_MB", " 8 ", "PLY_HASH_MB=' 8 ' is not a number"),
            (
                "PLY_KALAH_MOVE_NODES",
                "-1",
                "PLY_KALAH_MOVE_NODES='-1' is not a number",
            ),
            (
                "PLY_KALAH_MOVE_NODES",
                "99999999999999999999",
                "out of range",
            ),
            (
                "PLY_GUESS_DEPTH",
                "1000000",
                "PLY_GUESS_DEPTH='1000000' is out of range: expected a whole number 0 to 64",
            ),
            (
                "PLY_GUESS_DEPTH",
                "4294967297",
                "PLY_GUESS_DEPTH='4294967297' is out of range",
            ),
            ("PLY_THREADS", "0", "PLY_THREADS='0' is out of range"),
            (
                "PLY_RANK_TIMEOUT",
                "0",
                "PLY_RANK_TIMEOUT='0' is out of range: expected a whole number 1 to 86400 (seconds)",
            ),
            (
                "PLY_RANK_TIMEOUT",
                "1.5",
                "PLY_RANK_TIMEOUT='1.5' is not a number",
            ),
            (
                "PLY_THREADS",
                "100000",
                "PLY_THREADS='100000' is out of range",
            ),
            (
                "PLY_KALAH_TABLE_SEEDS",
                "127",
                "expected a whole number 0 to 126",
            ),
            ("PLY_TABLES_DIR", "", "PLY_TABLES_DIR is empty"),
            (
                "PLY_TABLES_DIR",
                "Cargo.toml",
                "PLY_TABLES_DIR='Cargo.toml' is not a directory",
            ),
        ] {
            let e = env(&[(name, value)]).unwrap_err();
            assert!(e.contains(needle), "{}={:?}: {}", name, value, e);
        }
    }

    #[test]
    fn thread_counts_are_bounded() {
        assert_eq!(threads(1, "--threads"), Ok(1));
        assert!(threads(0, "--threads").unwrap_err().contains("at least 1"));
        let e = threads(100_000, "--threads").unwrap_err();
        assert!(e.starts_with("--threads 100000 is out of range"), "{}", e);
        assert!(max_threads() <= MAX_THREADS);
    }

    #[test]
    fn time_budgets_are_bounded_and_shown_short() {
        assert_eq!(seconds(1.5, "--time"), Ok(1.5));
        for bad in [0.0, -1.0, f64::NAN, f64::INFINITY, 1e308, 86_401.0] {
            let e = seconds(bad, "--time").unwrap_err();
            assert!(e.starts_with("--time ") && e.len() < 100, "{}", e);
        }
        assert!(seconds(1e308, "--time").unwrap_err().contains("1e308"));
    }

    #[test]
    fn hash_sizes_are_bounded() {
        assert_eq!(hash_mb(16, "--hash-mb"), Ok(16));
        assert!(hash_mb(0, "--hash-mb")
            .unwrap_err()
            .contains("expected 1 to 1048576"));
        assert!(hash_mb((1 << 20) + 1, "--hash-mb")
            .unwrap_err()
            .contains("out of range"));
    }

    #[test]
    fn perft_tables_need_a_key() {
        assert_eq!(perft_hash_mb(97, "checkers"), Ok(()));
        let e = perft_hash_mb(0, "halma").unwrap_err();
        assert!(
            e.starts_with("--hash-mb is not available for halma"),
            "{}",
            e
        );
    }

    #[test]
    fn output_files_are_checked_and_nothing_is_left() {
        let dir = std::env::temp_dir().join(format!("ply-settings-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        output_file(&dir.join("x.svg"), "--plot").unwrap();
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
        let e = output_file(&dir.join("no/x.svg"), "--plot").unwrap_err();
        assert!(e.contains("does not exist"), "{}", e);
        let e = output_file(Path::new("Cargo.toml/x.svg"), "--plot").unwrap_err();
        assert!(e.contains("'Cargo.toml' is not a directory"), "{}", e);
        let e = output_file(&dir, "--plot").unwrap_err();
        assert!(e.contains("is a directory"), "{}", e);
        assert!(output_file(Path::new(""), "--plot")
            .unwrap_err()
            .contains("empty"));
        let _ = std::fs::remove_dir_all(dir);
    }
}

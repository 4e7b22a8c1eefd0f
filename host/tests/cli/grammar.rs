//! Issue 50: one command-line grammar. Every command that can use threads or a table
//! takes `--threads` and `--hash-mb`, with `PLY_THREADS` and `PLY_HASH_MB` as their
//! fallbacks and the defaults `--help` states; a flag given wins over its variable;
//! every `--help` fits 100 columns.

use crate::common::{scratch, stderr, stdout};
use std::process::{Command, Output, Stdio};

/// Runs `ply` with `args` and the environment `env` (no `PLY_THREADS` or
/// `PLY_HASH_MB` from the test's own), `input` on standard input.
fn run(args: &[&str], env: &[(&str, &str)], input: &str) -> Output {
    use std::io::Write;
    let mut c = Command::new(env!("CARGO_BIN_EXE_ply"));
    c.args(args)
        .env_remove("PLY_THREADS")
        .env_remove("PLY_HASH_MB")
        .env_remove("COLUMNS")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        c.env(k, v);
    }
    let mut child = c.spawn().expect("run ply");
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    child.wait_with_output().unwrap()
}

/// The commands that can use threads or a table, each as a short run that takes
/// `--threads 1 --hash-mb 1`, and the default of `--threads` its help states.
fn commands() -> Vec<(Vec<String>, &'static str)> {
    let words = |s: &str| s.split(' ').map(str::to_string).collect::<Vec<_>>();
    vec![
        (words("perft checkers 4"), "Default: every core"),
        (words("search tictactoe --depth 2"), "Default: 1"),
        (
            words("solve kalah:3x2 --table-seeds 0"),
            "Default: every core",
        ),
        (
            words("play tictactoe --first ai --second ai --depth 1"),
            "Default: every core",
        ),
        (
            words("tournament tictactoe --a depth=1 --b depth=1 --games 2"),
            "Default: every core",
        ),
        (words("engine tictactoe"), "Default: 1"),
        (
            words("bench tictactoe --depth 1 --runs 1 --algo alphabeta --baseline alphabeta"),
            "",
        ),
    ]
}

/// Every command that can use threads or a table takes `--threads` and `--hash-mb`
/// and runs with them; its help names the environment fallbacks and the default.
#[test]
fn every_command_takes_threads_and_hash_mb() {
    for (mut args, default) in commands() {
        let help = run(&[args[0].as_str(), "--help"], &[], "");
        // Words as they read, whatever the wrapping.
        let text = stdout(&help)
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        assert!(help.status.success(), "{}", stderr(&help));
        for needle in ["--threads", "--hash-mb", "[env: PLY_HASH_MB="] {
            assert!(
                text.contains(needle),
                "{}: no {}:\n{}",
                args[0],
                needle,
                text
            );
        }
        if args[0] != "bench" {
            // bench's --threads is a list of counts to compare, not one setting.
            assert!(text.contains("[env: PLY_THREADS="), "{}", text);
        }
        assert!(
            text.contains(default),
            "{}: no {:?}:\n{}",
            args[0],
            default,
            text
        );
        let d = scratch("grammar", &args[0]);
        let dir = d.to_string_lossy().into_owned();
        args.extend(["--threads", "1", "--hash-mb", "1"].map(String::from));
        let argv: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = run(&argv, &[("PLY_TABLES_DIR", &dir)], "quit\n");
        assert!(o.status.success(), "{:?}: {}", argv, stderr(&o));
    }
}

/// `PLY_THREADS` and `PLY_HASH_MB` give the settings a command line leaves out; a
/// flag given wins; a bad value is one line that names the variable.
#[test]
fn the_environment_is_the_fallback_of_the_flags() {
    let o = run(&["search", "checkers", "--depth", "2"], &[], "");
    assert!(stdout(&o).contains("threads: 1"), "{}", stdout(&o));
    let o = run(
        &["search", "checkers", "--depth", "2"],
        &[("PLY_THREADS", "2")],
        "",
    );
    assert!(stdout(&o).contains("threads: 2"), "{}", stdout(&o));
    let o = run(
        &["search", "checkers", "--depth", "2", "--threads", "1"],
        &[("PLY_THREADS", "2")],
        "",
    );
    assert!(stdout(&o).contains("threads: 1"), "{}", stdout(&o));
    let o = run(&["perft", "checkers", "6"], &[("PLY_HASH_MB", "2")], "");
    assert!(stdout(&o).contains("table: 2 MiB"), "{}", stdout(&o));
    let o = run(
        &["perft", "checkers", "6", "--hash-mb", "4"],
        &[("PLY_HASH_MB", "2")],
        "",
    );
    assert!(stdout(&o).contains("table: 4 MiB"), "{}", stdout(&o));
    // The solver's tuning knobs: a flag first, the old variable still read.
    let d = scratch("grammar", "knobs");
    let dir = d.to_string_lossy().into_owned();
    let base = ["solve", "kalah:3x2", "--threads", "1"];
    let o = run(
        &base,
        &[("PLY_TABLES_DIR", &dir), ("PLY_GUESS_DEPTH", "3")],
        "",
    );
    assert!(
        stderr(&o).contains("first guesses (3 plies"),
        "{}",
        stderr(&o)
    );
    let mut flag = base.to_vec();
    flag.extend(["--guess-depth", "5"]);
    let o = run(
        &flag,
        &[("PLY_TABLES_DIR", &dir), ("PLY_GUESS_DEPTH", "3")],
        "",
    );
    assert!(
        stderr(&o).contains("first guesses (5 plies"),
        "{}",
        stderr(&o)
    );
    for (var, value, needle) in [
        ("PLY_THREADS", "two", "PLY_THREADS='two' is not a number"),
        ("PLY_HASH_MB", "0", "PLY_HASH_MB='0' is out of range"),
    ] {
        for cmd in [
            &["search", "tictactoe", "--depth", "1"][..],
            &["perft", "tictactoe", "1"],
        ] {
            let o = run(cmd, &[(var, value)], "");
            let err = stderr(&o);
            assert_eq!(
                o.status.code(),
                Some(1),
                "{:?} {}={}: {}",
                cmd,
                var,
                value,
                err
            );
            assert_eq!(err.lines().count(), 1, "{}", err);
            assert!(err.contains(needle), "{}", err);
        }
    }
    // A bad value on the command line is clap's, naming the flag.
    let o = run(
        &["solve", "kalah:3x2", "--guess-depth", "65"],
        &[("PLY_TABLES_DIR", &dir)],
        "",
    );
    assert!(
        stderr(&o).contains("--guess-depth 65 is out of range: expected 0 to 64"),
        "{}",
        stderr(&o)
    );
    // The routing of perft's one table across MPI ranks: flags with their variables,
    // each checked before any work.
    for (args, env, needle) in [
        (
            &["perft", "checkers", "5", "--route-rest", "31"][..],
            &[][..],
            "--route-rest 31 is out of range: expected 1 to 30",
        ),
        (
            &["perft", "checkers", "5", "--route-batch", "0"],
            &[],
            "--route-batch 0 is out of range: expected 1 to 1048576",
        ),
        (
            &["perft", "checkers", "5"],
            &[("PLY_ROUTE_NODES", "0")],
            "PLY_ROUTE_NODES='0' is out of range",
        ),
    ] {
        let o = run(args, env, "");
        assert_eq!(o.status.code(), Some(1), "{:?}: {}", args, stderr(&o));
        assert!(stderr(&o).contains(needle), "{}", stderr(&o));
        assert!(stdout(&o).is_empty());
    }
    let o = run(&["perft", "checkers", "5", "--route-rest", "3"], &[], "");
    assert_eq!(stdout(&o).lines().next(), Some("7361"), "{}", stderr(&o));
    let o = run(&["solve", "tictactoe", "--move-nodes", "5"], &[], "");
    assert!(
        stderr(&o).contains("--move-nodes is not available for solving tictactoe"),
        "{}",
        stderr(&o)
    );
}

/// `ply --help` and every command's fit 100 columns where the terminal does not say.
#[test]
fn every_help_fits_100_columns() {
    let names: Vec<&str> = " perft moves search solve play bench engine match verify tournament"
        .split(' ')
        .collect();
    let top = stdout(&run(&["--help"], &[], ""));
    for name in &names[1..] {
        assert!(top.contains(&format!("  {} ", name)), "{}: {}", name, top);
    }
    for name in names {
        let mut args: Vec<&str> = Vec::new();
        if !name.is_empty() {
            args.push(name);
        }
        args.push("--help");
        let o = run(&args, &[], "");
        assert!(o.status.success(), "{}", stderr(&o));
        let widest = stdout(&o).lines().map(|l| l.chars().count()).max().unwrap();
        assert!(widest <= 100, "ply {} --help: {} columns", name, widest);
    }
}

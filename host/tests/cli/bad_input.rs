//! Failure behaviour through the real binary: every command, every game, a table of
//! malformed inputs (bad GAME spec, bad position, illegal move, negative or huge
//! depth, unknown flag). Each must print exactly one line on standard error, nothing
//! on standard output, exit non-zero and never panic. Ctrl-C during long work exits
//! with status 130, shows progress first and leaves no result file behind.

use std::process::{Command, Output, Stdio};

use crate::common::ply_stdin;

fn ply(args: &[String]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ply"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run ply")
}

/// A game's spec and inputs for the table: a position text that does not parse, a
/// move text that does not parse, and a sequence whose last move parses but is
/// illegal.
struct GameCase {
    spec: &'static str,
    /// Whether `ply solve` works for the game (others refuse with one line).
    solvable: bool,
    bad_position: &'static str,
    bad_move: &'static str,
    illegal_after: &'static [&'static str],
}

/// Every game of the `ply` registry (`ply_host::spec::GAMES`); the test below fails if
/// a game is registered without a row here.
const GAMES: &[GameCase] = &[
    GameCase {
        spec: "tictactoe",
        solvable: true,
        bad_position: "xx?......",
        bad_move: "0",
        illegal_after: &["5", "5"],
    },
    GameCase {
        // A small board, so that `solve` and the AIs finish at once.
        spec: "kalah:3x2",
        solvable: true,
        bad_position: "2 2 2 [0] / 2 2 2 [0] / nobody",
        bad_move: "pit",
        // Pit 2 of 3x2 ends in the store (an extra turn); pit 2 is then empty.
        illegal_after: &["2", "2"],
    },
    GameCase {
        spec: "checkers",
        solvable: false,
        bad_position: "B:W21,22,40:B1",
        bad_move: "11-",
        // Black moves first; 11-15 twice is a move of a piece that has gone.
        illegal_after: &["11-15", "11-15"],
    },
    GameCase {
        spec: "halma",
        solvable: false,
        bad_position: "xxxx..../xxx...../xx....../x......./.......o/......oo/.....ooo/....oooq x",
        bad_move: "c1-",
        // d1-e1 steps onto an empty square; a1-e1 is not a move of the piece on a1.
        illegal_after: &["d1-e1", "a1-h8"],
    },
];

/// The commands and how each takes a game and a depth. `None`: the command has no
/// such option.
struct CommandCase {
    name: &'static str,
    /// Arguments after the game spec that make a valid, quick run.
    ok_args: &'static [&'static str],
    /// Whether the command takes `--position` and `--after`.
    positions: bool,
    /// How a depth is given: `Some(true)` positional, `Some(false)` `--depth`.
    depth: Option<bool>,
}

const COMMANDS: &[CommandCase] = &[
    CommandCase {
        name: "perft",
        ok_args: &["1"],
        positions: true,
        depth: Some(true),
    },
    CommandCase {
        name: "moves",
        ok_args: &[],
        positions: true,
        depth: None,
    },
    CommandCase {
        name: "search",
        ok_args: &["--depth", "1"],
        positions: true,
        depth: Some(false),
    },
    CommandCase {
        name: "solve",
        ok_args: &[],
        positions: true,
        depth: None,
    },
    CommandCase {
        name: "play",
        ok_args: &["--first", "ai", "--second", "ai", "--depth", "1"],
        positions: false,
        depth: Some(false),
    },
    CommandCase {
        name: "tournament",
        ok_args: &["--a", "depth=1", "--b", "depth=1", "--games", "1"],
        positions: false,
        depth: None,
    },
    CommandCase {
        name: "bench",
        ok_args: &["--depth", "1", "--runs", "1", "--algo", "alphabeta"],
        positions: true,
        depth: Some(false),
    },
];

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

/// The arguments of `cmd` on `spec` with its depth replaced by `depth`.
fn with_depth(cmd: &CommandCase, spec: &str, depth: &str) -> Vec<String> {
    let mut args = strings(&[cmd.name, spec]);
    let ok = strings(cmd.ok_args);
    match cmd.depth {
        Some(true) => {
            args.push(depth.to_string());
            args.extend(ok.into_iter().skip(1));
        }
        Some(false) => {
            let mut it = ok.into_iter();
            while let Some(a) = it.next() {
                if a == "--depth" {
                    it.next();
                } else {
                    args.push(a);
                }
            }
            args.push(format!("--depth={}", depth));
        }
        None => unreachable!(),
    }
    args
}

/// Every malformed invocation: (what it is, the arguments).
fn table() -> Vec<(String, Vec<String>)> {
    let mut rows = Vec::new();
    for cmd in COMMANDS {
        for bad_spec in [
            "nosuchgame",
            "",
            ":",
            "tictactoe:3x3",
            "kalah:9x4",
            "kalah:6x0",
        ] {
            let mut a = strings(&[cmd.name, bad_spec]);
            a.extend(strings(cmd.ok_args));
            rows.push((format!("{} with game spec {:?}", cmd.name, bad_spec), a));
        }
        // A spec with a line break in it must still give one line.
        let mut a = strings(&[cmd.name, "tic\ntac"]);
        a.extend(strings(cmd.ok_args));
        rows.push((format!("{} with a line break in the spec", cmd.name), a));
        for game in GAMES {
            let base = || {
                let mut a = strings(&[cmd.name, game.spec]);
                a.extend(strings(cmd.ok_args));
                a
            };
            let mut a = base();
            a.push("--frobnicate".into());
            rows.push((
                format!("{} {} with an unknown flag", cmd.name, game.spec),
                a,
            ));
            if cmd.positions || cmd.name == "play" {
                let mut a = base();
                a.extend(strings(&["--position", game.bad_position]));
                rows.push((format!("{} {} with a bad position", cmd.name, game.spec), a));
            }
            if cmd.positions {
                let mut a = base();
                a.extend(strings(&["--after", game.bad_move]));
                rows.push((format!("{} {} with a bad move", cmd.name, game.spec), a));
                let mut a = base();
                a.push("--after".into());
                a.extend(strings(game.illegal_after));
                rows.push((
                    format!("{} {} with an illegal move", cmd.name, game.spec),
                    a,
                ));
            }
            if cmd.depth.is_some() {
                for d in ["-1", "99999999999", "100000", "x"] {
                    rows.push((
                        format!("{} {} with depth {}", cmd.name, game.spec, d),
                        with_depth(cmd, game.spec, d),
                    ));
                }
            }
        }
    }
    for (what, args) in [
        ("tournament with a bad config", vec!["--a", "depth=zero"]),
        (
            "tournament with an unknown config key",
            vec!["--a", "speed=3"],
        ),
        ("tournament with no games", vec!["--games", "0"]),
    ] {
        let mut a = strings(&["tournament", "tictactoe", "--b", "depth=1"]);
        if !args.contains(&"--a") {
            a.extend(strings(&["--a", "depth=1"]));
        }
        a.extend(strings(&args));
        rows.push((what.to_string(), a));
    }
    for (what, args) in [
        (
            "search with an unknown algorithm",
            &["search", "tictactoe", "--algo", "magic"][..],
        ),
        (
            "search with an unknown evaluation",
            &["search", "tictactoe", "--eval", "magic"],
        ),
        (
            "search with two budgets",
            &["search", "tictactoe", "--depth", "2", "--nodes", "9"],
        ),
        (
            "search with a negative time",
            &["search", "tictactoe", "--time=-1"],
        ),
        (
            "play with an unknown player",
            &["play", "tictactoe", "--first", "robot"],
        ),
        (
            "bench with no thread counts",
            &["bench", "tictactoe", "--depth", "1", "--threads", ""],
        ),
        ("an unknown command", &["frobnicate", "tictactoe"]),
        ("a missing game", &["perft"]),
    ] {
        rows.push((what.to_string(), strings(args)));
    }
    rows
}

#[test]
fn every_registered_game_has_a_row() {
    for entry in ply_host::spec::GAMES {
        let name = entry.split([':', '[']).next().unwrap();
        assert!(
            GAMES.iter().any(|g| g.spec.split(':').next() == Some(name)),
            "game {} has no row in GAMES",
            name
        );
    }
}

#[test]
fn the_valid_runs_succeed() {
    // The table's rows differ from these in one input only, so each failure below is
    // caused by that input.
    for cmd in COMMANDS {
        for game in GAMES {
            let mut a = strings(&[cmd.name, game.spec]);
            a.extend(strings(cmd.ok_args));
            let o = ply(&a);
            if cmd.name == "solve" && !game.solvable {
                let err = String::from_utf8_lossy(&o.stderr);
                assert!(!o.status.success() && err.lines().count() == 1, "{}", err);
                continue;
            }
            assert!(
                o.status.success(),
                "{:?} failed: {}",
                a,
                String::from_utf8_lossy(&o.stderr)
            );
        }
    }
}

#[test]
fn malformed_input_gives_one_line_and_a_failure_status() {
    let rows = table();
    let mut failures = Vec::new();
    for (what, args) in &rows {
        let o = ply(args);
        let err = String::from_utf8_lossy(&o.stderr);
        let out = String::from_utf8_lossy(&o.stdout);
        let lines: Vec<&str> = err.lines().collect();
        let problem = if o.status.success() {
            Some("exit status 0".to_string())
        } else if o.status.code().is_none() {
            Some(format!("killed: {:?}", o.status))
        } else if err.contains("panicked") {
            Some("panicked".to_string())
        } else if lines.len() != 1 || lines[0].trim().is_empty() {
            Some(format!("{} lines on stderr", lines.len()))
        } else if !out.is_empty() {
            Some("output on stdout".to_string())
        } else {
            None
        };
        if let Some(p) = problem {
            failures.push(format!(
                "{} ({:?}): {}\n  stderr: {:?}\n  stdout: {:?}",
                what, args, p, err, out
            ));
        }
    }
    println!("{} malformed invocations checked", rows.len());
    assert!(
        failures.is_empty(),
        "{} of {} rows:\n{}",
        failures.len(),
        rows.len(),
        failures.join("\n")
    );
}

#[test]
fn an_illegal_move_in_play_is_refused_and_asked_again() {
    let o = ply_stdin(
        &["play", "tictactoe", "--first", "human", "--second", "human"],
        "1\n1\n0\n4\n2\n5\n3\n",
    );
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("the square is already taken"), "{}", out);
    assert!(out.contains("not a move"), "{}", out);
    assert!(out.contains("result: X wins"), "{}", out);
    assert!(o.status.success());
}

/// Sends SIGINT to a long `ply` run after `after` seconds and returns its output.
#[cfg(unix)]
fn interrupted(args: &[&str], after: f64) -> Output {
    let child = Command::new(env!("CARGO_BIN_EXE_ply"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_secs_f64(after));
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    child.wait_with_output().unwrap()
}

#[cfg(unix)]
#[test]
fn ctrl_c_stops_a_long_perft_after_showing_progress() {
    // Kalah 6x4 perft 16 runs for minutes.
    ctrl_c_after_progress(&["perft", "kalah", "16"], &["subtrees"]);
    // Perft 30 of draughts with its table on two threads would run for days.
    ctrl_c_after_progress(
        &[
            "perft",
            "checkers",
            "30",
            "--hash-mb",
            "64",
            "--threads",
            "2",
        ],
        &["subtrees", "% hits"],
    );
}

/// Runs `ply args`, waits for the first progress line (at most a minute, however
/// busy the machine), which must hold `needles`, then presses Ctrl-C: the exit
/// status is 130, the last line on stderr `interrupted`, and nothing is printed.
#[cfg(unix)]
fn ctrl_c_after_progress(args: &[&str], needles: &[&str]) {
    use std::io::{BufRead, BufReader, Read};
    let mut child = crate::common::spawn_ply(args);
    let (tx, rx) = std::sync::mpsc::channel();
    let stderr = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut lines = Vec::new();
        for line in BufReader::new(stderr).lines() {
            let line = line.unwrap();
            let _ = tx.send(line.clone());
            lines.push(line);
        }
        lines
    });
    let first = rx
        .recv_timeout(std::time::Duration::from_secs(60))
        .expect("a progress line within a minute");
    assert!(
        first.starts_with("perft: ") && needles.iter().all(|n| first.contains(n)),
        "{}",
        first
    );
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let status = child.wait().unwrap();
    let lines = reader.join().unwrap();
    let mut out = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    assert_eq!(status.code(), Some(130), "{:?}", lines);
    assert_eq!(
        lines.last().map(String::as_str),
        Some("interrupted"),
        "{:?}",
        lines
    );
    assert!(out.is_empty(), "{}", out);
}

#[cfg(unix)]
#[test]
fn ctrl_c_during_a_bench_leaves_no_plot() {
    let dir = std::env::temp_dir().join(format!("ply-bad-input-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let plot = dir.join("speedup.svg");
    let o = interrupted(
        &[
            "bench",
            "kalah",
            "--depth",
            "30",
            "--runs",
            "1",
            "--plot",
            plot.to_str().unwrap(),
        ],
        2.0,
    );
    assert_eq!(o.status.code(), Some(130));
    let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert!(left.is_empty(), "files left behind: {:?}", left);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_finished_bench_writes_its_plot_whole() {
    let dir = std::env::temp_dir().join(format!("ply-bench-plot-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let plot = dir.join("speedup.svg");
    let o = ply(&strings(&[
        "bench",
        "tictactoe",
        "--depth",
        "2",
        "--runs",
        "1",
        "--algo",
        "alphabeta,toplevel",
        "--plot",
        plot.to_str().unwrap(),
    ]));
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let svg = std::fs::read_to_string(&plot).unwrap();
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, vec!["speedup.svg"]);
    let _ = std::fs::remove_dir_all(dir);
}

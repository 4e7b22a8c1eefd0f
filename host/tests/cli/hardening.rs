//! Issue 17: every failure found by probing the CLI, kept as a test through the real
//! binary. Each test is named after the numbered case it checks; each failed on the
//! code before the fix (a panic, an abort, work done before an error, an input
//! accepted or an error worded as described in the issue).

use crate::common::{ply, ply_stdin, stderr, stdout};

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Runs `ply` with `args` and the environment `env`, standard input empty and
/// standard output into `out` (`None`: collected).
fn ply_with(args: &[&str], env: &[(&str, &str)], out: Option<std::fs::File>) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_ply"));
    cmd.args(args).stdin(Stdio::null());
    for (k, v) in env {
        cmd.env(k, v);
    }
    if let Some(f) = out {
        cmd.stdout(f);
    }
    cmd.output().expect("run ply")
}

/// A fresh, empty scratch directory.
fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("ply-hardening-{}-{}", name, std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn entries(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// Asserts `o` failed with exit status 1 and exactly one line on standard error,
/// `error: ...`, that contains every one of `needles`; returns that line.
fn one_error(o: &Output, what: &str, needles: &[&str]) -> String {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(1), "{}: {:?} {}", what, o.status, err);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 1, "{}: {:?}", what, err);
    assert!(lines[0].starts_with("error: "), "{}: {}", what, err);
    for n in needles {
        assert!(
            lines[0].contains(n),
            "{}: {:?} lacks {:?}",
            what,
            lines[0],
            n
        );
    }
    lines[0].to_string()
}

/// Case 1: a failed write to standard output is one error line and exit status 1,
/// never a panic (exit 101), for every command that prints.
#[cfg(target_os = "linux")]
#[test]
fn case_01_a_failed_write_to_stdout_is_one_error_line() {
    let runs: &[&[&str]] = &[
        &["perft", "checkers", "5"],
        &["perft", "tictactoe", "3", "--divide"],
        &["perft", "tictactoe", "3", "--divide", "--threads", "2"],
        &["moves", "tictactoe"],
        &["search", "tictactoe", "--depth", "2"],
        &["search", "tictactoe", "--nodes", "500"],
        &[
            "search",
            "tictactoe",
            "--depth",
            "2",
            "--algo",
            "ybwc",
            "--threads",
            "2",
        ],
        &["solve", "tictactoe"],
        &[
            "bench",
            "tictactoe",
            "--depth",
            "1",
            "--runs",
            "1",
            "--algo",
            "alphabeta",
        ],
        &[
            "play",
            "tictactoe",
            "--first",
            "ai",
            "--second",
            "ai",
            "--depth",
            "1",
        ],
        &["--help"],
        &["--version"],
    ];
    for args in runs {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let o = ply_with(args, &[], Some(full));
        one_error(
            &o,
            &format!("{:?}", args),
            &["error: cannot write output: "],
        );
    }
    // A tournament reports each game on standard error as it goes; the error line
    // is still the one and last line that says error.
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let o = ply_with(
        &[
            "tournament",
            "tictactoe",
            "--a",
            "depth=1",
            "--b",
            "depth=1",
            "--games",
            "1",
        ],
        &[],
        Some(full),
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(!err.contains("panicked"), "{}", err);
    let errors: Vec<&str> = err.lines().filter(|l| l.starts_with("error")).collect();
    assert_eq!(errors.len(), 1, "{}", err);
    assert_eq!(err.lines().last(), Some(errors[0]));
    assert!(
        errors[0].starts_with("error: cannot write output: "),
        "{}",
        err
    );
}

/// The free memory in MiB (Linux's MemAvailable).
fn free_mib() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024)
}

/// Case 2: a table bigger than the machine's free memory is refused with one line
/// naming the setting, before any work (it used to abort with SIGABRT, `bench`
/// after printing a row).
#[test]
fn case_02_hash_tables_beyond_the_memory_are_refused_by_name() {
    let started = Instant::now();
    match free_mib() {
        Some(free) if free < 65_536 => {
            let mb = (free + 1).to_string();
            let o = ply_with(
                &["search", "checkers", "--depth", "8", "--hash-mb", &mb],
                &[],
                None,
            );
            one_error(&o, "search", &["--hash-mb", &mb, "memory"]);
            assert!(stdout(&o).is_empty());
            let o = ply_with(
                &[
                    "bench",
                    "checkers",
                    "--depth",
                    "3",
                    "--runs",
                    "1",
                    "--hash-mb",
                    &mb,
                ],
                &[],
                None,
            );
            one_error(&o, "bench", &["--hash-mb", &mb, "memory"]);
            assert!(stdout(&o).is_empty(), "no row before the error");
        }
        // A machine with more: the largest size is still bounded.
        _ => {}
    }
    for (args, needle) in [
        (
            &["search", "tictactoe", "--hash-mb", "65537"][..],
            "expected 1 to 65536",
        ),
        (
            &["search", "tictactoe", "--hash-mb", "0"],
            "expected 1 to 65536",
        ),
        (
            &["bench", "tictactoe", "--depth", "1", "--hash-mb", "65537"],
            "expected 1 to 65536",
        ),
    ] {
        one_error(&ply(args), &format!("{:?}", args), &["--hash-mb", needle]);
    }
    assert!(started.elapsed() < Duration::from_secs(20));
}

/// Case 3: a thread count far past the machine's is refused at once, naming the
/// bound (it used to spend a minute starting threads).
#[test]
fn case_03_thread_counts_far_past_the_machine_are_refused_at_once() {
    let d = scratch("threads");
    type Case<'a> = (&'a [&'a str], &'a [(&'a str, &'a str)], &'a str);
    let cases: &[Case] = &[
        (
            &[
                "search",
                "kalah",
                "--depth",
                "10",
                "--algo",
                "lazysmp",
                "--threads",
                "100000",
            ],
            &[],
            "--threads 100000 is out of range: expected at least 1 and at most",
        ),
        (
            &["perft", "checkers", "9", "--threads", "100000"],
            &[],
            "--threads 100000 is out of range",
        ),
        (
            &["bench", "kalah", "--depth", "10", "--threads", "1,100000"],
            &[],
            "bad thread count '100000' in --threads",
        ),
        (
            &[
                "tournament",
                "halma",
                "--strategies",
                "s1,s2",
                "--threads",
                "100000",
            ],
            &[],
            "--threads 100000 is out of range",
        ),
        (
            &["solve", "kalah"],
            &[("PLY_THREADS", "100000")],
            "PLY_THREADS='100000' is out of range",
        ),
    ];
    for (args, env, needle) in cases {
        let started = Instant::now();
        let mut env = env.to_vec();
        let dir = d.to_string_lossy().into_owned();
        env.push(("PLY_TABLES_DIR", &dir));
        let o = ply_with(args, &env, None);
        one_error(&o, &format!("{:?}", args), &[needle, "per core"]);
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "{:?} took {:?}",
            args,
            started.elapsed()
        );
    }
    assert!(entries(&d).is_empty());
    let _ = std::fs::remove_dir_all(d);
}

/// Case 4: output files are checked before the work: nothing is printed, nothing
/// is played, and nothing is left behind.
#[test]
fn case_04_output_paths_are_checked_before_the_work() {
    let d = scratch("paths");
    let missing = d.join("no/such/dir/x.svg");
    let missing = missing.to_str().unwrap();
    let o = ply(&[
        "bench",
        "kalah",
        "--depth",
        "4",
        "--runs",
        "1",
        "--algo",
        "alphabeta",
        "--plot",
        missing,
    ]);
    one_error(&o, "bench --plot", &["--plot", "does not exist"]);
    assert!(stdout(&o).is_empty(), "the bench ran first: {}", stdout(&o));
    let o = ply(&[
        "bench",
        "tictactoe",
        "--depth",
        "1",
        "--plot",
        d.to_str().unwrap(),
    ]);
    one_error(&o, "bench --plot DIR", &["--plot", "is a directory"]);
    let csv = d.join("no/such/dir/r.csv");
    let o = ply(&[
        "tournament",
        "halma",
        "--strategies",
        "s1,s2",
        "--games-per-pair",
        "2",
        "--results",
        csv.to_str().unwrap(),
    ]);
    one_error(&o, "tournament --results", &["--results", "does not exist"]);
    assert!(stdout(&o).is_empty(), "the games were played first");
    assert!(entries(&d).is_empty(), "{:?}", entries(&d));
    // A writable path still works, and holds the whole file.
    let plot = d.join("s.svg");
    let o = ply(&[
        "bench",
        "tictactoe",
        "--depth",
        "1",
        "--runs",
        "1",
        "--algo",
        "alphabeta,toplevel",
        "--plot",
        plot.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(entries(&d), vec!["s.svg"]);
    let _ = std::fs::remove_dir_all(d);
}

/// Case 5: bad settings in the environment are refused before any work (it used to
/// build endgame tables for 19 s first).
#[test]
fn case_05_environment_settings_are_checked_before_any_work() {
    let d = scratch("env");
    let dir = d.to_string_lossy().into_owned();
    for (var, value, needle) in [
        ("PLY_HASH_MB", "abc", "PLY_HASH_MB='abc' is not a number: expected a whole number 1 to 1048576"),
        ("PLY_HASH_MB", "-5", "PLY_HASH_MB='-5' is not a number"),
        ("PLY_HASH_MB", "", "PLY_HASH_MB is empty"),
        ("PLY_KALAH_MOVE_NODES", "-1", "PLY_KALAH_MOVE_NODES='-1' is not a number: expected a whole number 0 to 18446744073709551615, or max"),
        ("PLY_KALAH_TABLE_SEEDS", "x", "PLY_KALAH_TABLE_SEEDS='x' is not a number: expected a whole number 0 to 126"),
        ("PLY_THREADS", "two", "PLY_THREADS='two' is not a number"),
    ] {
        let started = Instant::now();
        let o = ply_with(
            &["solve", "kalah"],
            &[("PLY_TABLES_DIR", &dir), (var, value)],
            None,
        );
        one_error(&o, &format!("{}={:?}", var, value), &[needle]);
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "{}={:?} took {:?}",
            var,
            value,
            started.elapsed()
        );
        assert!(entries(&d).is_empty(), "tables written before the error");
    }
    // A value that is not text at all.
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let o = Command::new(env!("CARGO_BIN_EXE_ply"))
            .args(["solve", "kalah"])
            .env("PLY_TABLES_DIR", &d)
            .env("PLY_HASH_MB", std::ffi::OsStr::from_bytes(b"\xff8"))
            .stdin(Stdio::null())
            .output()
            .unwrap();
        one_error(
            &o,
            "PLY_HASH_MB=\\xff8",
            &["PLY_HASH_MB is not valid UTF-8 text"],
        );
        assert!(entries(&d).is_empty());
    }
    let _ = std::fs::remove_dir_all(d);
}

/// Case 6: numbers out of range are refused, never wrapped or run.
#[test]
fn case_06_numbers_out_of_range_are_refused_not_wrapped() {
    let d = scratch("range");
    let dir = d.to_string_lossy().into_owned();
    for (var, value) in [
        ("PLY_GUESS_DEPTH", "1000000"),
        ("PLY_GUESS_DEPTH", "4294967297"),
        ("PLY_GUESS_DEPTH", "18446744073709551617"),
        ("PLY_KALAH_TABLE_SEEDS", "4294967296"),
        ("PLY_HASH_MB", "0"),
        ("PLY_THREADS", "0"),
    ] {
        let started = Instant::now();
        let o = ply_with(
            &["solve", "kalah:3x2"],
            &[("PLY_TABLES_DIR", &dir), (var, value)],
            None,
        );
        let needle = format!(
            "{}='{}' is out of range: expected a whole number",
            var, value
        );
        one_error(&o, var, &[&needle]);
        assert!(started.elapsed() < Duration::from_secs(5));
    }
    let o = ply_with(
        &["solve", "kalah:3x2"],
        &[("PLY_TABLES_DIR", &dir), ("PLY_GUESS_DEPTH", "4294967297")],
        None,
    );
    one_error(
        &o,
        "guess depth",
        &["expected a whole number 0 to 64 (plies)"],
    );
    // A time budget out of range is written short, not as 309 digits.
    for args in [
        &["search", "tictactoe", "--time", "1e308"][..],
        &[
            "tournament",
            "tictactoe",
            "--a",
            "time=1e308",
            "--b",
            "depth=1",
        ],
    ] {
        let line = one_error(&ply(args), "time", &["1e308 is out of range"]);
        assert!(line.len() < 120, "{}", line);
    }
    assert!(entries(&d).is_empty());
    let _ = std::fs::remove_dir_all(d);
}

/// Case 7: a tournament configuration with a key twice, or with nothing in it, is
/// an error (the last value used to win; empty meant the default AI).
#[test]
fn case_07_duplicate_and_empty_tournament_settings_are_errors() {
    for (a, b, needle) in [
        (
            "depth=1,depth=2",
            "depth=1",
            "--a: key 'depth' given twice in config 'depth=1,depth=2'",
        ),
        (
            "depth=1",
            "eval=lines,depth=1,eval=zero",
            "--b: key 'eval' given twice",
        ),
        ("", "depth=1", "--a: empty config ''"),
        ("depth=1", " , ", "--b: empty config"),
    ] {
        let o = ply(&[
            "tournament",
            "tictactoe",
            "--a",
            a,
            "--b",
            b,
            "--games",
            "1",
        ]);
        one_error(&o, &format!("--a {:?} --b {:?}", a, b), &[needle]);
        assert!(stdout(&o).is_empty());
    }
    // The same strategy twice in a Halma round robin.
    let o = ply(&["tournament", "halma", "--strategies", "s1,s1"]);
    one_error(
        &o,
        "s1,s1",
        &["strategy 's1' is listed twice in --strategies"],
    );
    // More games than a round robin lays out.
    let o = ply(&[
        "tournament",
        "halma",
        "--strategies",
        "s1,s2",
        "--games-per-pair",
        "4000000000",
    ]);
    one_error(
        &o,
        "games per pair",
        &["make 4000000000 games: at most 1000000"],
    );
}

/// Case 8: a huge input is quoted as a short excerpt with its length, whatever
/// option it came in.
#[test]
fn case_08_error_lines_quote_at_most_an_excerpt() {
    let big = "x".repeat(131_000);
    let excerpt = format!("'{}…' (131000 characters)", "x".repeat(60));
    let strategies = format!("{},s1", big);
    let cases: Vec<Vec<&str>> = vec![
        vec!["moves", "tictactoe", "--position", &big],
        vec!["moves", "tictactoe", "--after", &big],
        vec!["moves", &big],
        vec!["moves", "kalah:3x2", "--notation", &big],
        vec!["search", "tictactoe", "--eval", &big],
        vec!["search", "tictactoe", "--algo", &big],
        vec!["play", "tictactoe", "--first", &big],
        vec!["bench", "tictactoe", "--depth", "1", "--algo", &big],
        vec!["bench", "tictactoe", "--depth", "1", "--threads", &big],
        vec!["tournament", "tictactoe", "--a", &big, "--b", "depth=1"],
        vec!["tournament", "halma", "--strategies", &strategies],
    ];
    for args in &cases {
        let what = format!("{:?}", &args[..2]);
        let line = one_error(&ply(args), &what, &[]);
        assert!(
            line.chars().count() <= 400,
            "{}: {} characters",
            what,
            line.len()
        );
        assert!(line.contains(&excerpt), "{}: {}", what, line);
    }
    // Options that clap checks, and a list of many inputs, are capped too.
    let depth = "9".repeat(131_000);
    for args in [
        vec!["perft", "tictactoe", &depth],
        vec!["search", "tictactoe", "--frobnicate", &big],
        vec![
            "tournament",
            "tictactoe",
            "--a",
            &format!("depth={}", big),
            "--b",
            "depth=1",
        ],
    ] {
        let line = one_error_status(&ply(&args), &format!("{:?}", &args[..2]));
        assert!(
            line.chars().count() <= 400,
            "{:?}: {} characters",
            &args[..2],
            line.len()
        );
    }
    // The argument parser's own message quotes the value as an excerpt too.
    let line = one_error_status(&ply(&["perft", "tictactoe", &depth]), "perft");
    assert!(
        line.starts_with(&format!(
            "error: invalid value '{}…' (131000 characters) for '<DEPTH>'",
            "9".repeat(60)
        )),
        "{}",
        line
    );
}

/// Like [`one_error`], for any failure status (clap's usage errors exit with 2).
fn one_error_status(o: &Output, what: &str) -> String {
    let err = stderr(o);
    assert!(
        matches!(o.status.code(), Some(1 | 2)),
        "{}: {:?} {}",
        what,
        o.status,
        err
    );
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(
        lines.len(),
        1,
        "{}: {:?}",
        what,
        err.chars().take(500).collect::<String>()
    );
    assert!(lines[0].starts_with("error: "), "{}", what);
    lines[0].to_string()
}

/// The same class as case 8: a usage error names what is wrong on its one line
/// (missing arguments used to be cut to "were not provided:").
#[test]
fn case_08_usage_errors_name_the_missing_arguments_on_one_line() {
    let o = ply(&["search"]);
    let line = one_error_status(&o, "search");
    assert_eq!(
        line,
        "error: the following required arguments were not provided: <GAME>"
    );
    let o = ply(&["tournament", "tictactoe", "--a", "depth=1"]);
    let line = one_error_status(&o, "tournament");
    assert!(line.ends_with("were not provided: --b <B>"), "{}", line);
}

/// Case 9: negative Halma weights work as a separate argument, as documented.
#[test]
fn case_09_negative_weights_are_accepted_as_a_separate_argument() {
    let o = ply(&["search", "halma", "--eval", "-2.5,1,1,1", "--depth", "1"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("best move: "));
    let o = ply(&[
        "play",
        "halma",
        "--first",
        "ai",
        "--second",
        "ai",
        "--depth",
        "1",
        "--eval",
        "-2.5,1,1,1",
        "--max-plies",
        "2",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = ply(&[
        "bench",
        "halma",
        "--depth",
        "1",
        "--runs",
        "1",
        "--algo",
        "alphabeta",
        "--eval",
        "-2.5,1,1,1",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = ply(&[
        "tournament",
        "halma",
        "--strategies",
        "-1,1,1,1;s1",
        "--games-per-pair",
        "1",
        "--depth",
        "1",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
}

/// Case 10: `PLY_TABLES_DIR=` (empty) is an error; it used to write the tables into
/// the current directory.
#[test]
fn case_10_an_empty_tables_dir_is_an_error() {
    let cwd = scratch("cwd");
    let o = Command::new(env!("CARGO_BIN_EXE_ply"))
        .args(["solve", "kalah:3x2"])
        .env("PLY_TABLES_DIR", "")
        .current_dir(&cwd)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    one_error(
        &o,
        "PLY_TABLES_DIR=",
        &["PLY_TABLES_DIR is empty: expected a directory for the endgame tables (or unset it for the default)"],
    );
    assert!(entries(&cwd).is_empty(), "{:?}", entries(&cwd));
    let _ = std::fs::remove_dir_all(cwd);
}

/// Case 11a: a line that is not UTF-8 is refused and the prompt asked again.
#[test]
fn case_11a_a_non_utf8_line_in_play_is_refused_and_asked_again() {
    let o = ply_stdin(
        &["play", "tictactoe", "--first", "human", "--second", "human"],
        b"\xff\xfe5\n1\n4\n2\n7\n3\n",
    );
    let out = stdout(&o);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        out.contains("not a move: the line is not UTF-8 text"),
        "{}",
        out
    );
    assert!(out.contains("result: X wins"), "{}", out);
}

/// Case 11a, the same class: a line far longer than any move is refused without
/// being kept in memory, and the game goes on.
#[test]
fn case_11a_an_endless_line_in_play_is_refused_and_asked_again() {
    let mut input = "7".repeat(3 << 20);
    input.push_str("\n1\n4\n2\n5\n3\n");
    let o = ply_stdin(
        &["play", "tictactoe", "--first", "human", "--second", "human"],
        &input,
    );
    let out = stdout(&o);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        out.contains("not a move: the line is longer than 4096 bytes"),
        "{}",
        out
    );
    assert_eq!(out.matches("longer than").count(), 1);
    assert!(out.contains("result: X wins"), "{}", out);
}

/// Case 11b: `help` and `?` explain how to move instead of being taken as moves.
#[test]
fn case_11b_help_and_question_mark_explain_how_to_move() {
    for word in ["help", "?"] {
        let o = ply_stdin(
            &["play", "tictactoe", "--first", "human", "--second", "human"],
            format!("{}\n1\n4\n2\n5\n3\n", word),
        );
        let out = stdout(&o);
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(
            out.contains("legal moves: 1 2 3 4 5 6 7 8 9\ntype one of them as shown (e.g. 1)"),
            "{}",
            out
        );
        assert!(!out.contains("not a move"), "{}", out);
        assert!(out.contains("result: X wins"), "{}", out);
    }
}

/// Case 11c: `quit`, `exit` and the end of input (Ctrl-D) say goodbye and exit 0.
#[test]
fn case_11c_quit_exit_and_end_of_input_say_goodbye() {
    for input in ["quit\n", "exit\n", "Quit\n", "5\n", ""] {
        let o = ply_stdin(
            &["play", "tictactoe", "--first", "human", "--second", "human"],
            input,
        );
        assert_eq!(o.status.code(), Some(0), "{:?}: {}", input, stderr(&o));
        assert!(stderr(&o).is_empty(), "{:?}: {}", input, stderr(&o));
        assert!(
            stdout(&o)
                .trim_end()
                .ends_with("goodbye: the game is left unfinished"),
            "{:?}: {}",
            input,
            stdout(&o)
        );
    }
}

/// Case 11d: the board labels Kalah's stores, and names checkers' colours as the
/// position line writes them.
#[test]
fn case_11d_boards_label_stores_and_colours() {
    let o = ply_stdin(&["play", "kalah:3x2", "--first", "human"], "quit\n");
    let out = stdout(&o);
    assert!(out.contains("|store|  2  2  2 |     |"), "{}", out);
    assert!(out.contains("|     |  2  2  2 |store|"), "{}", out);
    assert!(
        out.contains("(Player 2's pits), its store on the left"),
        "{}",
        out
    );
    assert!(
        out.contains("(Player 1's pits), its store on the right"),
        "{}",
        out
    );
    let o = ply_stdin(&["play", "checkers:calgary", "--first", "human"], "quit\n");
    let out = stdout(&o);
    assert!(out.contains("Red to move"), "{}", out);
    assert!(out.contains("position: W:"), "{}", out);
    assert!(
        out.contains("in the position line, W is Red and B is Black"),
        "{}",
        out
    );
}

/// Case 12: tic-tac-toe names the first bad character of a move.
#[test]
fn case_12_tictactoe_names_the_first_bad_character() {
    for (mv, found) in [("b2", "'b'"), ("help", "'h'"), ("0", "'0'")] {
        let o = ply(&["moves", "tictactoe", "--after", mv]);
        one_error(
            &o,
            mv,
            &[&format!(
                "a move is a square number from 1 to 9: found {} at offset 0",
                found
            )],
        );
    }
    let o = ply(&["moves", "tictactoe", "--after", "55"]);
    one_error(
        &o,
        "55",
        &["a move is a single digit 1 to 9: found '5' at offset 1"],
    );
    // In play, too.
    let o = ply_stdin(
        &["play", "tictactoe", "--first", "human", "--second", "human"],
        "b2\nquit\n",
    );
    assert!(
        stdout(&o)
            .contains("not a move: a move is a square number from 1 to 9: found 'b' at offset 0"),
        "{}",
        stdout(&o)
    );
}

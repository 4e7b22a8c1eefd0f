//! Cases 6 to 10: numbers out of range, duplicate and empty settings, quoted excerpts in
//! error lines, usage errors, negative weights and an empty tables directory.

use super::*;

/// Case 6: numbers out of range are refused, never wrapped or run.
#[test]
fn case_06_numbers_out_of_range_are_refused_not_wrapped() {
    let d = scratch("hardening", "range");
    let dir = d.to_string_lossy().into_owned();
    for (var, value) in [
        ("PLY_GUESS_DEPTH", "1000000"),
        ("PLY_GUESS_DEPTH", "4294967297"),
        ("PLY_GUESS_DEPTH", "18446744073709551617"),
        ("PLY_KALAH_TABLE_SEEDS", "4294967296"),
        ("PLY_HASH_MB", "0"),
        ("PLY_THREADS", "0"),
        ("PLY_KALAH_SPLIT_PLIES", "0"),
        ("PLY_KALAH_SPLIT_PLIES", "5"),
        ("PLY_KALAH_SHARE_WORK", "65"),
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
    let o = ply(&with(ROUND_ROBIN, &["--games-per-pair", "4000000000"]));
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
    let rest = ["--depth", "1", "--eval", "-2.5,1,1,1", "--max-plies", "2"];
    let o = ply(&with(&play_ai("halma"), &rest));
    assert!(o.status.success(), "{}", stderr(&o));
    let o = ply(&with(&bench("halma"), &["--eval", "-2.5,1,1,1"]));
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
    let cwd = scratch("hardening", "cwd");
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

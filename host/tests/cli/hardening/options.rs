//! Issue 49, the second round: options and the command forms they apply to. Each
//! test is named after the numbered case it checks and failed on the code
//! before the fix.

use super::*;

/// `ply tournament` of two configurations with `rest` after them.
fn two_configs(rest: &[&str]) -> Output {
    ply(&with(&with(TWO_CONFIGS, &["--threads", "1"]), rest))
}

/// `ply tournament halma --strategies s1,s2` with `rest` after it.
fn round_robin(rest: &[&str]) -> Output {
    let base = with(ROUND_ROBIN, &["--games-per-pair", "1", "--threads", "1"]);
    ply(&with(&base, rest))
}

/// Case 9: an option of the other form of `ply tournament` is refused with one
/// line, not ignored (no CSV written, no game played).
#[test]
fn case49_09_options_of_the_other_form_are_refused() {
    let d = scratch("issue49", "forms");
    let csv = d.join("x.csv");
    let csv = csv.to_str().unwrap();
    for (rest, option) in [
        (vec!["--results", csv], "--results"),
        (vec!["--minimax"], "--minimax"),
        (vec!["--depth", "2"], "--depth"),
        (vec!["--games-per-pair", "2"], "--games-per-pair"),
    ] {
        let o = two_configs(&rest);
        one_error(&o, option, &[option, "applies to the round robin"]);
        assert!(stdout(&o).is_empty(), "{}: games were played", option);
    }
    for (rest, option) in [
        (vec!["--games", "5"], "--games"),
        (vec!["--random-plies", "3"], "--random-plies"),
        (vec!["--max-plies", "10"], "--max-plies"),
    ] {
        let o = round_robin(&rest);
        one_error(
            &o,
            option,
            &[option, "applies to a tournament of --a and --b"],
        );
        assert!(stdout(&o).is_empty(), "{}: games were played", option);
    }
    assert_eq!(entries(&d), Vec::<String>::new());
    // Each form still takes its own options.
    let o = two_configs(&["--games", "2", "--random-plies", "1", "--max-plies", "50"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = round_robin(&["--results", csv, "--depth", "1"]);
    assert!(o.status.success(), "{}", stderr(&o));
}

/// Case 10: `--max-plies 0` means "never" in `ply tournament` as in `ply play` (it
/// adjudicated every game a draw at once).
#[test]
fn case49_10_max_plies_zero_means_no_limit() {
    let o = two_configs(&["--games", "2", "--max-plies", "0", "--random-plies", "0"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    // Depth 1 against depth 1 from the start: the first player wins, both ways.
    assert!(
        out.contains("A wins 1, draws 0, losses 1 (of 2 games)"),
        "{}",
        out
    );
}

/// Case 11: the moves of `--after` end at the next option.
#[test]
fn case49_11_after_ends_at_the_next_option() {
    let o = ply(&["search", "checkers", "--after", "11-15", "--depth", "3"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("depth: 3"), "{}", stdout(&o));
    let o = ply(&["perft", "checkers", "2", "--after", "11-15", "--divide"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).lines().count() > 2, "{}", stdout(&o));
    let o = ply(&["moves", "checkers", "--after", "11-15", "-h"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("Usage: ply moves"), "{}", stdout(&o));
    // A positional argument after the moves is one of them: the error says so.
    let o = ply(&["perft", "checkers", "--after", "11-15", "3"]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{}", err);
    assert_eq!(err.lines().count(), 1, "{}", err);
    assert!(
        err.contains("<DEPTH>") && err.contains("before --after"),
        "{}",
        err
    );
}

/// Case 12: a checkpoint refused as another command's shows where the two
/// commands differ (both were cut at 60 characters, and looked the same).
#[test]
fn case49_12_a_refused_checkpoint_shows_what_differs() {
    let d = scratch("issue49", "differs");
    let (_, c) = d.file("s.ckpt");
    let after = [
        "11-15", "23-19", "8-11", "22-17", "9-13", "17-14", "10x17", "21x14",
    ];
    let mut first = vec!["perft", "checkers", "4", "--checkpoint", &c, "--after"];
    first.extend_from_slice(&after);
    let o = ply(&first);
    assert!(o.status.success(), "{}", stderr(&o));
    let mut second = vec![
        "perft",
        "checkers",
        "4",
        "--checkpoint",
        &c,
        "--resume",
        "--after",
    ];
    second.extend_from_slice(&after[..7]);
    let o = ply(&second);
    let line = one_error(&o, "other command", &["belongs to another command"]);
    assert!(line.contains("'…10x17 21x14;"), "{}", line);
    assert!(line.contains("this one is '…10x17;"), "{}", line);
}

/// The smaller cases of game specs and numbers: a spec's parameters are read in
/// any case, each at most once, for every game alike; a range is stated; a leading
/// `+` is taken by every number, the environment's and Kalah's spec included.
#[test]
fn case49_specs_and_numbers_follow_one_rule() {
    let o = ply(&["perft", "checkers:LIMIT=5", "1"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o).lines().next(), Some("7"));
    for spec in [
        "checkers:unique:unique",
        "checkers:limit=5:limit=6",
        "halma:8:8",
    ] {
        let o = ply(&["perft", spec, "1"]);
        one_error(&o, spec, &["given twice"]);
    }
    let o = ply(&["perft", "checkers:repeat=256", "1"]);
    one_error(&o, "repeat=256", &["2 to 255, or 0 for never"]);
    // A leading + everywhere: the command line, a config, the environment, a spec.
    let o = ply_with(
        &["perft", "kalah:+6x+4", "+1"],
        &[("PLY_THREADS", "+1")],
        None,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o).lines().next(), Some("6"));
    let o = two_configs(&["--games", "+2"]);
    assert!(o.status.success(), "{}", stderr(&o));
}

/// A checkpoint of `ply perft kalah 5` resumes for `KALAH:6x4` and `mancala:6X4`
/// (the same game and rules: it was refused as another command's), and still
/// refuses other rules.
#[test]
fn case49_a_spec_in_another_spelling_is_the_same_checkpoint() {
    let d = scratch("issue49", "spelling");
    let (_, c) = d.file("c.ckpt");
    let o = ply(&["perft", "kalah", "5", "--checkpoint", &c]);
    assert!(o.status.success(), "{}", stderr(&o));
    for spec in ["KALAH:6x4", "mancala:6X4"] {
        let o = ply(&["perft", spec, "5", "--checkpoint", &c, "--resume"]);
        assert!(o.status.success(), "{}: {}", spec, stderr(&o));
        assert!(
            stderr(&o).contains("resuming: 942 of 942"),
            "{}",
            stderr(&o)
        );
        assert_eq!(stdout(&o).lines().next(), Some("4690"));
    }
    let o = ply(&["perft", "kalah:6x5", "5", "--checkpoint", &c, "--resume"]);
    one_error(&o, "kalah:6x5", &["belongs to another command"]);
}

/// `--help` is wrapped to the terminal (here `COLUMNS`, standard output not being
/// one), each continuation under its line's indent; it had lines of 283
/// characters.
#[test]
fn case49_help_is_wrapped_to_the_terminal() {
    for (columns, widest) in [("60", 60), ("", 100)] {
        let o = ply_with(&["tournament", "--help"], &[("COLUMNS", columns)], None);
        assert!(o.status.success(), "{}", stderr(&o));
        let out = stdout(&o);
        let longest = out.lines().map(|l| l.chars().count()).max().unwrap();
        assert!(longest <= widest, "{} > {}:\n{}", longest, widest, out);
        assert!(out.contains("Usage: ply tournament"), "{}", out);
    }
}

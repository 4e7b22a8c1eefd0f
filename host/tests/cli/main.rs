//! The `ply` binary end to end: outputs the issues promise, and one clear line plus a
//! non-zero exit for every kind of bad input.

#[path = "../common/mod.rs"]
mod common;

// The command line, one file a subject in cli/.
mod bad_input;
mod checkpoint;
mod draughts;
mod draughts_db;
mod fuzz;
mod grammar;
mod halma;
mod hardening;
mod kalah;
mod matches;
mod parallel;
mod perft_table;
mod protocol;
use common::{ply, ply_stdin, stderr, stdout};
use std::process::{Command, Stdio};

#[test]
fn perft_prints_the_count_as_a_plain_integer_first() {
    let o = ply(&["perft", "tictactoe", "9"]);
    assert!(o.status.success());
    let out = stdout(&o);
    assert_eq!(out.lines().next(), Some("127872"));
    assert!(out.contains("leaves/s: "));
}

#[test]
fn perft_divide_lists_each_root_move() {
    let o = ply(&["perft", "tictactoe", "2", "--divide", "--after", "5"]);
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        &lines[..9],
        &["1: 7", "2: 7", "3: 7", "4: 7", "6: 7", "7: 7", "8: 7", "9: 7", "56"]
    );
}

#[test]
fn solve_prints_value_zero_for_the_empty_board() {
    let o = ply(&["solve", "tictactoe"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert_eq!(out.lines().next(), Some("value: 0"));
    assert!(out.contains("best moves: 1 2 3 4 5 6 7 8 9"));
}

#[test]
fn solve_finds_the_win_and_the_only_winning_moves() {
    // X: 1 and 2, O: 4 and 5; X to move wins at once on 3.
    let o = ply(&["solve", "tictactoe", "--position", "xx.oo...."]);
    let out = stdout(&o);
    assert!(out.starts_with("value: 1\n"), "{}", out);
    assert!(out.contains("best moves: 3\n"), "{}", out);
    assert!(out.contains("move 6: 0\n"), "{}", out);
    assert!(out.contains("move 7: -1\n"), "{}", out);
}

#[test]
fn moves_after_lists_the_empty_squares() {
    let o = ply(&["moves", "tictactoe", "--after", "5", "1"]);
    assert_eq!(stdout(&o), "2\n3\n4\n6\n7\n8\n9\n");
}

#[test]
fn search_reports_move_value_pv_nodes_and_time() {
    for algo in ["minimax", "alphabeta", "engine"] {
        let o = ply(&["search", "tictactoe", "--depth", "9", "--algo", algo]);
        assert!(o.status.success(), "{}: {}", algo, stderr(&o));
        let out = stdout(&o);
        for key in ["best move: ", "value: 0", "pv: ", "nodes: ", "time: "] {
            assert!(
                out.contains(key),
                "{} output lacks {:?}:\n{}",
                algo,
                key,
                out
            );
        }
    }
}

#[test]
fn search_blocks_a_threat() {
    // O threatens 4-5-6; X must take 6.
    let o = ply(&[
        "search",
        "tictactoe",
        "--position",
        "x.xoo...x",
        "--depth",
        "4",
    ]);
    let out = stdout(&o);
    assert!(
        out.contains("best move: 2\n") || out.contains("best move: 6\n"),
        "{}",
        out
    );
}

#[test]
fn play_ai_against_ai_ends_in_a_draw() {
    let o = ply(&common::with(
        &common::play_ai("tictactoe"),
        &["--depth", "9"],
    ));
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("result: draw"));
}

#[test]
fn play_human_gets_reasons_for_bad_input_and_is_asked_again() {
    let o = ply_stdin(
        &["play", "tictactoe", "--first", "human", "--second", "human"],
        "5\n5\nz\n1\n2\n3\n8\n",
    );
    let out = stdout(&o);
    assert!(out.contains("the square is already taken"), "{}", out);
    assert!(out.contains("not a move"), "{}", out);
    assert!(out.contains("result: X wins"), "{}", out);
    assert!(o.status.success());
}

#[test]
fn play_human_against_ai_and_ai_against_human_finish() {
    // The human plays squares in order; whatever is taken is refused and skipped.
    let input = "1\n2\n3\n4\n5\n6\n7\n8\n9\n".repeat(3);
    for (first, second) in [("human", "ai"), ("ai", "human")] {
        let o = ply_stdin(
            &[
                "play",
                "tictactoe",
                "--first",
                first,
                "--second",
                second,
                "--depth",
                "9",
            ],
            &input,
        );
        assert!(o.status.success(), "{} v {}: {}", first, second, stderr(&o));
        let out = stdout(&o);
        // Perfect play never loses.
        assert!(
            out.contains("result: draw")
                || out.contains("result: X wins") && first == "ai"
                || out.contains("result: O wins") && second == "ai",
            "{}",
            out
        );
    }
}

#[test]
fn tournament_reports_wins_draws_losses() {
    let o = ply(&[
        "tournament",
        "tictactoe",
        "--a",
        "depth=9",
        "--b",
        "depth=1,eval=zero",
        "--games",
        "4",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("losses 0"), "{}", out);
}

/// Every malformed input: one line on stderr, non-zero exit, no panic.
#[test]
fn bad_input_gives_one_line_and_a_failing_status() {
    let cases: &[(&[&str], &str)] = &[
        (&["perft", "chess", "2"], "unknown game 'chess'"),
        (&["perft", "tictactoe:3x3", "2"], "bad parameters"),
        (&["perft", "tictactoe", "-1"], "-1"),
        (&["perft", "tictactoe", "99999999999"], "99999999999"),
        (&["perft", "tictactoe", "65"], "out of range"),
        (
            &["perft", "tictactoe", "2", "--position", "xxq......"],
            "'q'",
        ),
        (
            &["perft", "tictactoe", "2", "--position", "xxxxx...."],
            "impossible mark counts",
        ),
        (
            &["moves", "tictactoe", "--after", "5", "5"],
            "already taken",
        ),
        (&["moves", "tictactoe", "--after", "10"], "single digit"),
        (&["moves", "tictactoe", "--after", "0"], "square number"),
        (&["search", "tictactoe", "--depth", "0"], "out of range"),
        (&["search", "tictactoe", "--depth", "1000"], "out of range"),
        (&["search", "tictactoe", "--time", "-1"], "-1"),
        (&["search", "tictactoe", "--time", "nan"], "out of range"),
        (
            &["search", "tictactoe", "--depth", "2", "--time", "1"],
            "at most one",
        ),
        (
            &["search", "tictactoe", "--algo", "magic"],
            "unknown algorithm",
        ),
        (
            &["search", "tictactoe", "--eval", "magic"],
            "unknown evaluation",
        ),
        (
            &["search", "tictactoe", "--algo", "minimax", "--time", "1"],
            "fixed depth",
        ),
        (&["play", "tictactoe", "--first", "robot"], "unknown player"),
        (
            &[
                "tournament",
                "tictactoe",
                "--a",
                "depth=x",
                "--b",
                "depth=1",
            ],
            "bad depth",
        ),
        (
            &[
                "tournament",
                "tictactoe",
                "--a",
                "speed=1",
                "--b",
                "depth=1",
            ],
            "unknown config key",
        ),
        (
            &[
                "tournament",
                "checkers",
                "--a",
                "depth=2,lmr=sometimes",
                "--b",
                "depth=1",
            ],
            "lmr='sometimes': expected on or off in config",
        ),
        (
            &[
                "tournament",
                "checkers",
                "--a",
                "depth=2,aspiration=-5",
                "--b",
                "depth=1",
            ],
            "aspiration='-5': expected 0 (off) to 100000",
        ),
        (&["perft", "tictactoe", "2", "--frobnicate"], "--frobnicate"),
        (&["frobnicate"], "frobnicate"),
    ];
    for (args, needle) in cases {
        let o = ply(args);
        let err = stderr(&o);
        assert!(!o.status.success(), "{:?} succeeded", args);
        assert_eq!(
            err.trim_end().lines().count(),
            1,
            "{:?} printed more than one line:\n{}",
            args,
            err
        );
        assert!(
            err.contains(needle),
            "{:?}: {:?} lacks {:?}",
            args,
            err,
            needle
        );
        assert!(!err.contains("panicked"), "{:?} panicked", args);
    }
}

/// The end of input (Ctrl-D) is a normal way to leave a game (issue 17): goodbye,
/// status 0, no error and no panic. It used to be an error.
#[test]
fn human_input_ending_early_says_goodbye_not_a_panic() {
    let o = ply_stdin(
        &["play", "tictactoe", "--first", "human", "--second", "human"],
        "5\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).is_empty(), "{}", stderr(&o));
    assert!(stdout(&o).contains("goodbye: the game is left unfinished"));
}

#[test]
fn output_into_a_closed_pipe_ends_quietly() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ply"))
        .args(["perft", "tictactoe", "9", "--divide"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run ply");
    // Close the read end at once: every line ply prints goes into a closed pipe.
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let err = stderr(&out);
    assert!(!err.contains("panicked"), "{}", err);
}

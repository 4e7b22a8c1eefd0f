//! Cases 11 and 12: the interactive `ply play` prompt (bad lines, help, quitting, the
//! boards) and tic-tac-toe's position errors.

use super::*;

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

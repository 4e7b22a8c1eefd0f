//! `ply` on Halma end to end: perft, search with minimax and alpha-beta, all four
//! play modes on both boards, the C++ Halma README's tournament (docs/references.md),
//! and bad input.

use std::process::Output;

use crate::common::{ply, ply_stdin, stderr as err, stdout as out};

fn field(text: &str, key: &str) -> String {
    text.lines()
        .find_map(|l| l.strip_prefix(key))
        .unwrap_or_else(|| panic!("no '{}' in {}", key, text))
        .trim()
        .to_string()
}

/// x is one step (d8-e8) from filling o's camp.
const NEAR_WIN: &str = "....o..o/......../......../......../.......x/......xx/.....xxx/...x.xxx";

#[test]
fn perft_on_both_boards() {
    let o = ply(&["perft", "halma", "3"]);
    assert_eq!(out(&o).lines().next(), Some("20050"), "{}", err(&o));
    let o = ply(&["perft", "halma:16", "2"]);
    assert_eq!(out(&o).lines().next(), Some("1600"), "{}", err(&o));
}

#[test]
fn search_minimax_and_alphabeta_agree_with_fewer_nodes() {
    let middle = include_str!("../../../benches/data/halma8_middle.txt").trim();
    for (spec, pos, eval) in [
        ("halma:16", None, "s7"),
        ("halma", Some(middle), "manhattan"),
    ] {
        let mut base = vec!["search", spec, "--depth", "2", "--eval", eval];
        if let Some(p) = pos {
            base.extend(["--position", p]);
        }
        let run = |algo: &str| {
            let mut args = base.clone();
            args.extend(["--algo", algo]);
            let o = ply(&args);
            assert!(o.status.success(), "{}", err(&o));
            out(&o)
        };
        let (mm, ab) = (run("minimax"), run("alphabeta"));
        assert_eq!(field(&mm, "best move:"), field(&ab, "best move:"));
        assert_eq!(field(&mm, "value:"), field(&ab, "value:"));
        let n = |s: &str| field(s, "nodes:").parse::<u64>().unwrap();
        assert!(n(&ab) * 3 < n(&mm), "{} vs {}", n(&ab), n(&mm));
    }
}

#[test]
fn play_ai_against_ai_finishes_on_both_boards() {
    for spec in ["halma", "halma:16", "halma:parlett:no-leave"] {
        let o = ply(&[
            "play", spec, "--first", "ai", "--second", "ai", "--depth", "1",
        ]);
        assert!(o.status.success(), "{}: {}", spec, err(&o));
        let text = out(&o);
        assert!(
            text.contains("result: x wins") || text.contains("result: o wins"),
            "{}",
            text
        );
    }
}

/// `ply play halma` from `position` with `first` and `second` (`human` or `ai`, the
/// AI at depth 1), typing `input`.
fn play_halma(first: &str, second: &str, position: &str, input: &str) -> Output {
    let mut args = vec!["play", "halma", "--first", first, "--second", second];
    if first == "ai" || second == "ai" {
        args.extend(["--depth", "1"]);
    }
    args.extend(["--position", position]);
    ply_stdin(&args, input)
}

#[test]
fn play_human_modes_accept_moves_refuse_bad_ones_and_finish() {
    let x_to_move = format!("{} x", NEAR_WIN);
    let o_to_move = format!("{} o", NEAR_WIN);
    // human (x) against ai: a bad move is refused with its reason, then the win.
    let o = play_halma("human", "ai", &x_to_move, "d8-d9\ne1-e2\nd8-e8\n");
    let text = out(&o);
    assert!(o.status.success(), "{}", err(&o));
    assert!(
        text.contains("not a move: a row number is 1 to 8"),
        "{}",
        text
    );
    assert!(
        text.contains("the piece on the from square is not yours"),
        "{}",
        text
    );
    assert!(text.contains("result: x wins"), "{}", text);
    // human against human: o steps, then x wins.
    let o = play_halma("human", "human", &o_to_move, "e1-e2\nd8-e8\n");
    assert!(out(&o).contains("result: x wins"), "{}{}", out(&o), err(&o));
    // ai (x) against human: the AI finds the winning step itself.
    let o = play_halma("ai", "human", &x_to_move, "");
    let text = out(&o);
    assert!(text.contains("x plays d8-e8"), "{}", text);
    assert!(text.contains("result: x wins"), "{}", text);
    // ai (o) moves, then the human (x) wins; 16×16 human input works too.
    let o = play_halma("human", "ai", &o_to_move, "d8-e8\n");
    assert!(out(&o).contains("result: x wins"), "{}{}", out(&o), err(&o));
    let o = ply_stdin(
        &[
            "play", "halma:16", "--first", "human", "--second", "ai", "--depth", "1",
        ],
        "e1-f2\nquit\n",
    );
    let text = out(&o);
    assert!(text.contains("o plays"), "{}", text);
    assert!(
        text.contains(" p "),
        "16 columns a to p in the diagram: {}",
        text
    );
}

#[test]
fn tournament_prints_seed_003_table_and_writes_results() {
    let dir = std::env::temp_dir().join(format!("ply-halma-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("results.csv");
    let rest = ["--threads", "2", "--results", file.to_str().unwrap()];
    let o = ply(&crate::common::with(
        crate::common::HALMA_ROUND_ROBIN,
        &rest,
    ));
    assert!(o.status.success(), "{}", err(&o));
    let text = out(&o);
    assert!(text.contains("| strategy | wins | draws | losses | avg. number of visited nodes"));
    for name in ["| s1 |", "| s7 |", "| racer |"] {
        assert!(text.contains(name), "{}", text);
    }
    assert!(err(&o).contains("6/6 games"), "progress bar: {}", err(&o));
    let csv = std::fs::read_to_string(&file).unwrap();
    assert_eq!(csv.lines().count(), 1 + 6);
    // Explicit weights, separated by ';'.
    let o = ply(&[
        "tournament",
        "halma",
        "--strategies",
        "1,0,0,0;s7",
        "--depth",
        "1",
        "--games-per-pair",
        "4",
    ]);
    assert!(o.status.success(), "{}", err(&o));
    assert!(out(&o).contains("| 1,0,0,0 |"));
    assert!(out(&o).contains("4 games"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_halma_input_gives_one_line_and_fails() {
    for args in [
        vec!["perft", "halma:12", "1"],
        vec!["perft", "halma:16:fast", "1"],
        vec!["search", "halma", "--eval", "s9"],
        vec!["moves", "halma", "--position", "xxxx"],
        vec!["moves", "halma", "--after", "a1-a9"],
        vec!["tournament", "halma", "--strategies", "s1,s99"],
        vec!["tournament", "halma", "--strategies", "s1"],
        vec!["tournament", "tictactoe", "--strategies", "s1,s2"],
        vec![
            "tournament",
            "halma",
            "--strategies",
            "s1,s2",
            "--threads",
            "0",
        ],
    ] {
        let o = ply(&args);
        assert!(!o.status.success(), "{:?} should fail", args);
        let e = err(&o);
        assert_eq!(e.trim().lines().count(), 1, "{:?}: {}", args, e);
        assert!(!e.contains("panicked"), "{:?}: {}", args, e);
    }
}

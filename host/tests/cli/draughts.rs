//! `ply` on English draughts, end to end: perft in both conventions, the Calgary
//! notation, a game replayed with its history so the no-repetition rule applies,
//! search, the four play modes and a tournament.

use crate::common::{ply, ply_stdin, stderr, stdout};

#[test]
fn perft_counts_in_both_variants_and_conventions() {
    for (args, n) in [
        (&["perft", "checkers", "7"][..], "179740"),
        (
            &["perft", "checkers:english", "7", "--unique"][..],
            "179740",
        ),
        (&["perft", "checkers:calgary", "9"][..], "3963629"),
        (&["perft", "draughts", "9"][..], "3963680"),
    ] {
        let o = ply(args);
        assert!(o.status.success(), "{:?}: {}", args, stderr(&o));
        assert_eq!(stdout(&o).lines().next(), Some(n), "{:?}", args);
        assert!(stdout(&o).contains("leaves/s: "));
    }
    // The two conventions differ on a king's two paths round the same four pieces.
    let fen = "W:WK1:B6,7,8,15,16";
    let paths = ply(&["perft", "checkers", "1", "--position", fen]);
    let unique = ply(&["perft", "checkers", "1", "--position", fen, "--unique"]);
    assert_eq!(stdout(&paths).lines().next(), Some("2"));
    assert_eq!(stdout(&unique).lines().next(), Some("1"));
}

#[test]
fn moves_in_calgary_notation() {
    let o = ply(&["moves", "checkers:calgary", "--notation", "calgary"]);
    assert!(o.status.success());
    let out = stdout(&o);
    assert_eq!(out.lines().count(), 7);
    assert!(out.lines().any(|l| l == "[P (0,5),P (1,4)]"));
    // A move typed in the Calgary notation is read too.
    let o = ply(&[
        "moves",
        "checkers:calgary",
        "--notation",
        "calgary",
        "--after",
        "[P (0,5),P (1,4)]",
    ]);
    assert!(stdout(&o).lines().any(|l| l == "[P (1,2),P (0,3)]"));
    let crown = ply(&[
        "moves",
        "checkers:calgary",
        "--position",
        "B:W17,26,27:B13",
        "--notation",
        "calgary",
    ]);
    assert_eq!(stdout(&crown), "[P (0,3),P (2,5),K (4,7),K (6,5)]\n");
}

#[test]
fn replayed_history_makes_the_repetition_rule_apply() {
    let base = [
        "moves",
        "checkers:calgary",
        "--position",
        "B:WK14,K15:BK4",
        "--after",
        "4-8",
        "14-10",
        "8-4",
        "15-18",
        "4-8",
        "10-15",
        "8-4",
    ];
    let o = ply(&base);
    assert!(o.status.success(), "{}", stderr(&o));
    let moves: Vec<String> = stdout(&o).lines().map(String::from).collect();
    assert_eq!(moves.len(), 4, "{:?}", moves);
    assert!(!moves.iter().any(|m| m == "18-14" || m == "15-10"));
    let mut refused = base.to_vec();
    refused.push("18-14");
    let o = ply(&refused);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("would repeat an earlier position"),
        "{}",
        stderr(&o)
    );
    // Standard rules allow it.
    let mut english = refused.clone();
    english[1] = "checkers";
    assert!(ply(&english).status.success());
}

#[test]
fn search_finds_a_legal_move_within_its_time() {
    let o = ply(&["search", "checkers:calgary", "--time", "0.3"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let best = out
        .lines()
        .find_map(|l| l.strip_prefix("best move: "))
        .unwrap();
    let legal = stdout(&ply(&["moves", "checkers:calgary"]));
    assert!(legal.lines().any(|l| l == best), "{}", best);
    let o = ply(&[
        "search",
        "checkers",
        "--depth",
        "4",
        "--notation",
        "calgary",
    ]);
    assert!(stdout(&o).contains("best move: [P "), "{}", stdout(&o));
}

#[test]
fn play_in_all_four_modes() {
    // AI against AI from the start: a whole game, ended by the rules.
    for spec in ["checkers", "checkers:calgary"] {
        let o = ply(&[
            "play", spec, "--first", "ai", "--second", "ai", "--depth", "3",
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(stdout(&o).contains("result: "), "{}", stdout(&o));
    }
    // Human against human: Black leaves Red only a repeating move; an illegal
    // input is refused with its reason first.
    let o = ply_stdin(
        &[
            "play",
            "checkers:calgary",
            "--position",
            "B:WK4:BK29,3,11,12,15",
            "--first",
            "human",
            "--second",
            "human",
        ],
        "29-22\n29-25\n4-8\n25-29\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("illegal move 29x22: a jump must go over an opponent's piece"),
        "{}",
        out
    );
    assert!(out.contains("result: Black wins"), "{}", out);
    // Human (Red) against the AI: Red takes a piece, Black's one move (5-9) puts its
    // last piece in Red's way, and Red takes it.
    let o = ply_stdin(
        &[
            "play",
            "checkers:calgary",
            "--position",
            "W:W23:B18,5",
            "--first",
            "human",
            "--second",
            "ai",
            "--depth",
            "2",
        ],
        "23x14\n14x5\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("result: Red wins"), "{}", stdout(&o));
    // The AI (Red) against a human: the AI's capture ends the game.
    let o = ply_stdin(
        &[
            "play",
            "checkers:calgary",
            "--position",
            "W:W22:B18",
            "--first",
            "ai",
            "--second",
            "human",
            "--depth",
            "2",
        ],
        "",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("result: Red wins"), "{}", stdout(&o));
}

#[test]
fn tournament_reports_the_totals() {
    let o = ply(&[
        "tournament",
        "checkers",
        "--a",
        "depth=3",
        "--b",
        "depth=1,eval=material",
        "--games",
        "2",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("of 2 games"), "{}", out);
    assert!(out.contains("nodes: A "), "{}", out);
}

#[test]
fn bad_checkers_input_is_one_clear_line() {
    for (args, expect) in [
        (&["perft", "checkers:polish", "2"][..], "unknown variant"),
        (
            &["perft", "checkers", "2", "--position", "B:W1:B2"][..],
            "would be a king",
        ),
        (
            &["moves", "checkers", "--after", "11-17"][..],
            "neither a diagonal step",
        ),
        (
            &["moves", "checkers", "--after", "22-18"][..],
            "belongs to the opponent",
        ),
        (
            &["moves", "checkers", "--notation", "fen"][..],
            "unknown notation",
        ),
        (
            &["search", "checkers", "--eval", "magic"][..],
            "unknown evaluation",
        ),
        (
            &["search", "checkers", "--eval", "network:/nonexistent/n.bin"][..],
            "cannot read it",
        ),
        (
            &["search", "checkers", "--eval", "network:Cargo.toml"][..],
            "a draughts network file has 37528 bytes",
        ),
    ] {
        let o = ply(args);
        assert!(!o.status.success(), "{:?}", args);
        let err = stderr(&o);
        assert_eq!(err.lines().count(), 1, "{:?}: {}", args, err);
        assert!(err.contains(expect), "{:?}: {}", args, err);
    }
}

#[test]
fn a_network_file_plays_as_the_shipped_network_does() {
    // The shipped network written to a file and read back by `--eval network:FILE`
    // searches exactly as `--eval network`: the same value, move and nodes.
    let dir = std::env::temp_dir().join(format!("ply-network-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("n.bin");
    let mut bytes = vec![0u8; ply_core::games::draughts::network::NETWORK_BYTES];
    ply_core::games::draughts::Network::SHIPPED
        .write_bytes(&mut bytes)
        .unwrap();
    std::fs::write(&path, &bytes).unwrap();
    let file = format!("network:{}", path.display());
    let search = |eval: &str| {
        let o = ply(&[
            "search",
            "checkers",
            "--depth",
            "7",
            "--threads",
            "1",
            "--eval",
            eval,
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        stdout(&o)
            .lines()
            .filter(|l| {
                !l.starts_with("time") && !l.starts_with("nodes/s") && !l.contains(" time ")
            })
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    let shipped = search("network");
    assert_eq!(search(&file), shipped);
    // Another network plays otherwise: the learned linear evaluation's search differs.
    assert_ne!(search("learned"), shipped);
    std::fs::remove_dir_all(&dir).unwrap();
}

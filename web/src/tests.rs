//! The session API natively: every game the page offers, the errors a user can meet,
//! the engine under a time limit. The page itself is tested in a browser by
//! scripts/test-web.sh.

use super::*;

/// Plays `plies` moves, each the `k`-th legal move for a varying `k`, checking the
/// moves' cells against the board on the way; returns the moves played.
fn walk(s: &mut Session, plies: usize) -> Vec<String> {
    let mut played = Vec::new();
    for ply in 0..plies {
        let moves = s.legal_moves();
        if moves.is_empty() {
            assert_ne!(s.outcome(), "ongoing");
            break;
        }
        let cells = cell_count(&s.board_json());
        let json = s.moves_json();
        for m in &moves {
            assert!(json.contains(&format!("\"text\":\"{m}\"")), "{m} in {json}");
        }
        for n in numbers_after(&json, "\"to\":") {
            assert!(n < cells, "cell {n} of {cells} in {json}");
        }
        let mv = moves[(ply * 7 + 3) % moves.len()].clone();
        s.play(&mv).unwrap();
        played.push(mv);
    }
    played
}

fn cell_count(board: &str) -> usize {
    board.matches("\"r\":").count()
}

fn numbers_after(json: &str, key: &str) -> Vec<usize> {
    json.match_indices(key)
        .filter_map(|(i, _)| {
            let rest = &json[i + key.len()..];
            let end = rest
                .find(|c: char| !c.is_ascii_digit())
                .unwrap_or(rest.len());
            rest[..end].parse().ok()
        })
        .collect()
}

#[test]
fn every_offered_game_starts_plays_and_replays() {
    for spec in GAMES {
        let mut s = Session::new(spec).unwrap();
        let start = s.position();
        let played = walk(&mut s, 12);
        assert_eq!(s.moves_played(), played, "{spec}");
        assert_eq!(s.base_position(), start);
        // The Worker's way of following the page: base position and moves.
        let mut copy = Session::new(spec).unwrap();
        copy.set_position(&s.base_position()).unwrap();
        for m in s.moves_played() {
            copy.play(&m).unwrap();
        }
        assert_eq!(copy.position(), s.position(), "{spec}");
        assert_eq!(copy.legal_moves(), s.legal_moves(), "{spec}");
        // Position text out and back in.
        let text = s.position();
        copy.set_position(&text).unwrap();
        assert_eq!(copy.position(), text, "{spec}");
        assert!(copy.moves_played().is_empty());
    }
}

#[test]
fn boards_have_the_games_shapes() {
    let cells = |spec: &str| cell_count(&Session::new(spec).unwrap().board_json());
    assert_eq!(cells("tictactoe"), 9);
    assert_eq!(cells("kalah:6x4"), 14);
    assert_eq!(cells("kalah:4x3"), 10);
    assert_eq!(cells("checkers"), 64);
    assert_eq!(cells("halma:8"), 64);
    assert_eq!(cells("halma:16"), 256);
    let k = Session::new("kalah:6x4").unwrap().board_json();
    assert!(k.starts_with("{\"rows\":2,\"cols\":8,"), "{k}");
    assert_eq!(k.matches("\"t\":\"4\"").count(), 12);
    let c = Session::new("checkers:calgary").unwrap().board_json();
    assert_eq!(c.matches("\"p\":\"red\"").count(), 12);
    assert_eq!(c.matches("\"p\":\"black\"").count(), 12);
    assert_eq!(c.matches("\"s\":\"dark\"").count(), 32);
    let h = Session::new("halma:16").unwrap().board_json();
    assert_eq!(h.matches("\"p\":\"x\"").count(), 19);
    assert_eq!(h.matches("\"s\":\"camp-o\"").count(), 19);
}

#[test]
fn moves_name_their_cells() {
    let s = Session::new("checkers").unwrap();
    // 11-15: square 11 is (row 2, column 5), square 15 is (row 3, column 4).
    assert!(s
        .moves_json()
        .contains("{\"text\":\"11-15\",\"from\":21,\"to\":28,\"path\":[21,28]}"));
    let mut k = Session::new("kalah:6x4").unwrap();
    assert!(k
        .moves_json()
        .contains("{\"text\":\"3\",\"from\":null,\"to\":2,"));
    k.play("1").unwrap();
    // Player 2's pit 1 is cell 6 + 0.
    assert!(k
        .moves_json()
        .contains("{\"text\":\"1\",\"from\":null,\"to\":6,"));
    let t = Session::new("tictactoe").unwrap();
    assert!(t
        .moves_json()
        .contains("{\"text\":\"5\",\"from\":null,\"to\":4,"));
    let h = Session::new("halma:8").unwrap();
    // a4 (row 3, col 0) steps to a5 (row 4).
    assert!(h
        .moves_json()
        .contains("{\"text\":\"a4-a5\",\"from\":24,\"to\":32,"));
}

#[test]
fn a_jump_chain_is_highlighted_along_its_path() {
    // Black's man on 14 jumps 18 and then 26: one move, three squares.
    let mut s = Session::new("checkers").unwrap();
    s.set_position("B:W18,26,31:B14,1").unwrap();
    let moves = s.legal_moves();
    assert_eq!(moves.len(), 1, "{moves:?}");
    let squares: Vec<u8> = moves[0].split('x').map(|n| n.parse().unwrap()).collect();
    assert_eq!(squares.len(), 3, "{moves:?}");
    let cells: Vec<String> = squares
        .iter()
        .map(|&n| draughts_cell_of(n - 1).to_string())
        .collect();
    let expected = format!("\"path\":[{}]", cells.join(","));
    let json = s.moves_json();
    assert!(json.contains(&expected), "{json} lacks {expected}");
}

fn draughts_cell_of(sq: u8) -> usize {
    use ply_core::games::draughts::{square_x, square_y};
    square_y(sq) as usize * 8 + square_x(sq) as usize
}

#[test]
fn errors_say_what_is_wrong_and_change_nothing() {
    assert!(Session::new("chess")
        .err()
        .unwrap()
        .contains("unknown game \"chess\""));
    assert!(Session::new("kalah:9x4")
        .err()
        .unwrap()
        .contains("pits per row must be 1 to 8"));
    let mut s = Session::new("tictactoe").unwrap();
    let e = s.set_position("xx?......").unwrap_err();
    assert!(e.starts_with("bad position: unknown square"), "{e}");
    assert_eq!(s.position(), ".........");
    let e = s.play("0").unwrap_err();
    assert!(e.starts_with("bad move \"0\""), "{e}");
    s.play("5").unwrap();
    let e = s.play("5").unwrap_err();
    assert!(e.starts_with("illegal move 5"), "{e}");
    assert_eq!(s.moves_played(), vec!["5"]);
    s.set_position("xxx.oo...").unwrap();
    assert_eq!(s.outcome(), "first");
    assert_eq!(s.status(), "X wins");
    assert!(s.legal_moves().is_empty());
    assert_eq!(s.engine_move(10).unwrap_err(), "the game is over");
    assert!(s.play("4").unwrap_err().contains("the game is over"));
}

#[test]
fn undo_and_reset_go_back() {
    let mut s = Session::new("kalah:4x3").unwrap();
    let start = s.position();
    s.play("2").unwrap();
    let after = s.position();
    s.play("1").unwrap();
    assert!(s.undo());
    assert_eq!(s.position(), after);
    assert!(s.undo());
    assert_eq!(s.position(), start);
    assert!(!s.undo());
    s.play("1").unwrap();
    s.reset();
    assert_eq!(s.position(), start);
    assert!(s.moves_played().is_empty());
}

#[test]
fn players_and_status_use_the_games_names() {
    let s = Session::new("checkers:calgary").unwrap();
    assert_eq!(s.status(), "Red to move");
    assert_eq!(s.player_name(false), "Black");
    assert_eq!(Session::new("checkers").unwrap().status(), "Black to move");
    assert_eq!(Session::new("kalah").unwrap().status(), "Player 1 to move");
    assert_eq!(Session::new("halma:16").unwrap().status(), "x to move");
    assert_eq!(Session::new("tictactoe").unwrap().side_to_move(), "first");
}

#[test]
fn the_engine_answers_with_a_legal_move_within_its_time() {
    for spec in GAMES {
        let mut s = Session::new(spec).unwrap();
        let started = std::time::Instant::now();
        let report = s.engine_move(40).unwrap();
        let took = started.elapsed().as_millis();
        // The engine returns within a few ms of its limit; allow a loaded machine.
        assert!(took < 1000, "{spec}: {took} ms for a 40 ms move");
        let mv = report
            .strip_prefix("{\"move\":\"")
            .and_then(|r| r.split('"').next())
            .unwrap()
            .to_string();
        assert!(s.legal_moves().contains(&mv), "{spec}: {report}");
        assert!(report.contains("\"depth\":"), "{report}");
        s.play(&mv).unwrap();
    }
    // Tic-tac-toe is solved within the limit: the engine takes a win in one.
    let mut t = Session::new("tictactoe").unwrap();
    t.set_position("xx.oo....").unwrap();
    assert!(t.engine_move(200).unwrap().starts_with("{\"move\":\"3\""));
}

/// The page's engine plays English endings of up to 3 pieces from the databases
/// compiled in: its value is the database's, counted as `ply --eval network-db`
/// counts it. `ply solve checkers` (the host's files) gives the expected values:
/// White to move in `W:WK14,K19:BK32` wins, 14-10 and 14-18 leaving Black lost
/// with the next conversion 18 plies away (every other move 22); Black to move in
/// `B:WK10,K19:BK32` loses, conversion in 18. Without the databases the values
/// would be the evaluation's, far below these.
#[test]
fn the_engine_plays_three_piece_endings_from_the_databases() {
    use ply_core::games::draughts::db::eval::DB_WIN;
    // Three kings: progress still to make 3 × 25.
    let still = 1024 * 75;
    let mut s = Session::new("checkers").unwrap();
    s.set_position("W:WK14,K19:BK32").unwrap();
    let report = s.engine_move(200).unwrap();
    let best = ["14-10", "14-18"];
    assert!(
        best.iter()
            .any(|m| report.starts_with(&format!("{{\"move\":\"{m}\""))),
        "{report}"
    );
    // The win 19 plies away: one searched, 18 in the database.
    assert!(
        report.contains(&format!("\"value\":{},", DB_WIN - still - 18 - 1)),
        "{report}"
    );
    s.set_position("B:WK10,K19:BK32").unwrap();
    let report = s.engine_move(200).unwrap();
    assert!(
        report.contains(&format!("\"value\":{},", -(DB_WIN - still - 18))),
        "{report}"
    );
    // Under the Calgary rules the databases are not used.
    let mut c = Session::new("checkers:calgary").unwrap();
    c.set_position("W:WK14,K19:BK32").unwrap();
    let report = c.engine_move(50).unwrap();
    assert!(
        !report.contains(&format!("\"value\":{},", DB_WIN - still - 18 - 1)),
        "{report}"
    );
}

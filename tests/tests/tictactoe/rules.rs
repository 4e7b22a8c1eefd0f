//! Tic-tac-toe: move lists and positions as snapshots, text round-trips, capacity.

use ply_core::games::tictactoe::{Square, TicTacToeMoves};
use ply_core::games::TicTacToe;
use ply_core::{Game, Outcome, Player};

fn listing(g: &TicTacToe) -> String {
    let mut out = format!(
        "position {} ({:?} to move, {:?})\n",
        g,
        g.side_to_move(),
        g.outcome()
    );
    for &m in g.legal_moves().iter() {
        out.push_str(&format!(
            "{} -> {}\n",
            g.display_move(m),
            g.play_unchecked(m)
        ));
    }
    out
}

#[test]
fn snapshot_start_moves() {
    insta::assert_snapshot!(listing(&TicTacToe::new()));
}

#[test]
fn snapshot_midgame_and_finished_positions() {
    let mid = TicTacToe::parse_position((), "xo..x..o.").unwrap();
    let won = TicTacToe::parse_position((), "xxxoo....").unwrap();
    let drawn = TicTacToe::parse_position((), "xoxxoooxx").unwrap();
    insta::assert_snapshot!(format!(
        "{}{}{}",
        listing(&mid),
        listing(&won),
        listing(&drawn)
    ));
}

#[test]
fn outcomes() {
    assert_eq!(
        TicTacToe::parse_position((), "xxxoo....")
            .unwrap()
            .outcome(),
        Outcome::Win(Player::First)
    );
    assert_eq!(
        TicTacToe::parse_position((), "xx.ooo.x.")
            .unwrap()
            .outcome(),
        Outcome::Win(Player::Second)
    );
    assert_eq!(
        TicTacToe::parse_position((), "xoxxoooxx")
            .unwrap()
            .outcome(),
        Outcome::Draw
    );
    assert_eq!(TicTacToe::new().outcome(), Outcome::Ongoing);
}

#[test]
fn every_reachable_position_round_trips_and_fits_the_move_list() {
    // Walk the whole game tree (5478 positions) and check the laws of the contract.
    fn walk(g: TicTacToe, seen: &mut std::collections::HashSet<TicTacToe>) {
        if !seen.insert(g) {
            return;
        }
        let text = g.to_string();
        let back = TicTacToe::parse_position((), &text).unwrap();
        assert_eq!(back, g);
        assert_eq!(back.hash(), g.hash());
        let moves = g.legal_moves();
        assert!(moves.len() <= TicTacToeMoves::CAPACITY);
        assert_eq!(moves.is_empty(), g.outcome().is_over());
        assert_eq!(g.count_moves(), moves.len() as u64);
        for &m in moves.iter() {
            assert_eq!(g.play(m).unwrap(), g.play_unchecked(m));
            let t = g.display_move(m).to_string();
            assert_eq!(g.parse_move(&t).unwrap(), m);
            walk(g.play_unchecked(m), seen);
        }
    }
    let mut seen = std::collections::HashSet::new();
    walk(TicTacToe::new(), &mut seen);
    assert_eq!(seen.len(), 5478);
    // The worst case fills the list exactly.
    assert_eq!(
        TicTacToe::new().legal_moves().len(),
        TicTacToeMoves::CAPACITY
    );
}

#[test]
fn illegal_moves_are_refused_with_a_reason_and_the_position_unchanged() {
    let g = TicTacToe::parse_position((), "x........").unwrap();
    let e = g.play(Square(0)).unwrap_err();
    assert_eq!(e.position, g);
    assert_eq!(e.reason, "the square is already taken");
    assert_eq!(e.to_string(), "illegal move 1: the square is already taken");
    assert_eq!(
        g.play(Square(9)).unwrap_err().reason,
        "no such square: squares are 1 to 9"
    );
    let won = TicTacToe::parse_position((), "xxxoo....").unwrap();
    assert_eq!(won.play(Square(8)).unwrap_err().reason, "the game is over");
}

#[test]
fn parse_errors_name_the_offending_character() {
    let e = TicTacToe::parse_position((), "xo.?.....").unwrap_err();
    assert_eq!((e.offset, e.found), (3, Some('?')));
    let e = TicTacToe::parse_position((), "xo........").unwrap_err();
    assert_eq!(e.offset, 9);
    let e = TicTacToe::new().parse_move("a").unwrap_err();
    assert_eq!(e.found, Some('a'));
    assert!(TicTacToe::parse_rules("4x4").is_err());
}

#[test]
fn move_is_small() {
    assert_eq!(std::mem::size_of::<Square>(), 1);
    assert!(std::mem::size_of::<TicTacToe>() <= 16);
}

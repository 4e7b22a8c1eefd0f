//! Tic-tac-toe against OpenSpiel's `tic_tac_toe`: the same positions reachable in one
//! move from every position of the fixture, and the same results at the end
//! (fixtures: `tests/fixtures/tictactoe.txt`, see `tests/fixtures/README.md`).

use ply_core::games::TicTacToe;
use ply_core::{Game, Player};
use ply_tests::differential::{
    assert_matches_fixture, check_result, compare, load, Adapter, End, Pos,
};

struct TicTacToeAdapter;

impl Adapter for TicTacToeAdapter {
    type G = TicTacToe;

    fn to_ply(&self, pos: &Pos) -> TicTacToe {
        // The fixture board: x, o, '.' row by row; ply's text names squares the same
        // way, but is only used as a constructor here: the comparison reads the
        // result back through `marks`.
        let text: String = pos
            .board
            .chars()
            .map(|c| match c {
                'x' => 'x',
                'o' => 'o',
                '.' => '.',
                other => panic!("unknown fixture cell {:?}", other),
            })
            .collect();
        let g = TicTacToe::parse_position((), &text).expect("fixture position parses");
        let side = match pos.side.as_str() {
            "x" => Player::First,
            "o" => Player::Second,
            other => panic!("unknown side {:?}", other),
        };
        assert_eq!(g.side_to_move(), side, "side to move of {}", pos);
        g
    }

    fn position_of(&self, g: &TicTacToe) -> Pos {
        let (x, o) = (g.marks(Player::First), g.marks(Player::Second));
        let board: String = (0..9)
            .map(|sq| {
                if x & (1 << sq) != 0 {
                    'x'
                } else if o & (1 << sq) != 0 {
                    'o'
                } else {
                    '.'
                }
            })
            .collect();
        let side = match (g.outcome().is_over(), g.side_to_move()) {
            (true, _) => "-",
            (false, Player::First) => "x",
            (false, Player::Second) => "o",
        };
        Pos::new(board, side)
    }

    fn check_end(&self, end: &End) -> Result<(), String> {
        let g = TicTacToe::parse_position((), &end.position.board).map_err(|e| e.to_string())?;
        check_result(&g, &end.result, ["x", "o"])
    }
}

#[test]
fn successor_sets_and_results_match_openspiel() {
    // The fixture covers every move of the first two plies and most of the game tree.
    assert_matches_fixture(&TicTacToeAdapter, "tictactoe.txt", "tic-tac-toe", 1500, 300);
}

#[test]
fn a_changed_rule_would_be_caught() {
    // The comparison is not vacuous: dropping one successor from a record fails it.
    let mut fx = load("tictactoe.txt");
    let first = fx.records[0].successors.iter().next().unwrap().clone();
    fx.records[0].successors.remove(&first);
    let err = compare(&TicTacToeAdapter, &fx).unwrap_err();
    assert!(err.contains("OpenSpiel does not"), "{}", err);
}

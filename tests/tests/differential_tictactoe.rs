//! Tic-tac-toe against OpenSpiel's `tic_tac_toe`: the same positions reachable in one
//! move from every position of the fixture, and the same results at the end
//! (fixtures: `tests/fixtures/tictactoe.txt`, see `tests/fixtures/README.md`).

use ply_core::games::TicTacToe;
use ply_core::{Game, Outcome, Player};
use ply_tests::differential::{compare, load, Adapter, End, Pos};

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
        let expected = match end.result.as_str() {
            "x" => Outcome::Win(Player::First),
            "o" => Outcome::Win(Player::Second),
            "draw" => Outcome::Draw,
            other => return Err(format!("unknown result {:?}", other)),
        };
        if g.outcome() != expected {
            return Err(format!("ply says {:?}", g.outcome()));
        }
        if !g.legal_moves().is_empty() {
            return Err("ply still has legal moves in a finished game".into());
        }
        Ok(())
    }
}

#[test]
fn successor_sets_and_results_match_openspiel() {
    let fx = load("tictactoe.txt");
    let n = compare(&TicTacToeAdapter, &fx).unwrap_or_else(|e| panic!("{}", e));
    println!(
        "tic-tac-toe vs OpenSpiel: {} positions, {} successors, {} final positions compared",
        n.positions, n.successors, n.ends
    );
    // The fixture covers every move of the first two plies and most of the game tree.
    assert!(n.positions >= 1500 && n.ends >= 300, "{:?}", n);
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

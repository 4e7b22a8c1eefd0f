//! Property tests on random tic-tac-toe playouts: the laws of `ply_tests::laws`, with
//! a slow legality check written here from the rules.

use ply_core::games::tictactoe::{Square, TicTacToeMoves};
use ply_core::games::TicTacToe;
use ply_core::{Game, Player};
use ply_tests::laws::{check_playout, equal, Laws};
use proptest::prelude::*;

/// The eight lines, from coordinates (not from the game's table).
fn lines() -> Vec<[usize; 3]> {
    let mut out = Vec::new();
    for i in 0..3 {
        out.push([3 * i, 3 * i + 1, 3 * i + 2]);
        out.push([i, i + 3, i + 6]);
    }
    out.push([0, 4, 8]);
    out.push([2, 4, 6]);
    out
}

fn cells(g: &TicTacToe) -> [Option<Player>; 9] {
    let mut c = [None; 9];
    for (sq, cell) in c.iter_mut().enumerate() {
        for p in [Player::First, Player::Second] {
            if g.marks(p) & (1 << sq) != 0 {
                *cell = Some(p);
            }
        }
    }
    c
}

fn slow_legal(g: &TicTacToe, mv: Square) -> bool {
    let c = cells(g);
    let won = lines()
        .iter()
        .any(|l| c[l[0]].is_some() && c[l[0]] == c[l[1]] && c[l[1]] == c[l[2]]);
    let full = c.iter().all(Option::is_some);
    (mv.0 as usize) < 9 && c[mv.0 as usize].is_none() && !won && !full
}

fn conserved(before: &TicTacToe, mv: Square, after: &TicTacToe) -> Result<(), String> {
    let me = before.side_to_move();
    let bit = 1u16 << mv.0;
    if after.marks(me) != before.marks(me) | bit || before.marks(me) & bit != 0 {
        return Err("the mover's marks are not the old ones plus the square".into());
    }
    if after.marks(me.opponent()) != before.marks(me.opponent()) {
        return Err("the opponent's marks changed".into());
    }
    if after.side_to_move() != me.opponent() {
        return Err("the turn did not pass".into());
    }
    Ok(())
}

fn laws() -> Laws<TicTacToe> {
    Laws {
        capacity: TicTacToeMoves::CAPACITY,
        candidates: |_| (0..16).map(Square).collect(),
        slow_legal,
        conserved,
        same_position: equal,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn random_playouts_keep_every_law(choices in prop::collection::vec(0usize..1000, 0..10)) {
        let r = check_playout(TicTacToe::new(), &choices, &laws());
        prop_assert!(r.is_ok(), "{}", r.unwrap_err());
    }
}

#[test]
fn the_laws_catch_a_wrong_slow_check() {
    // Not vacuous: a slow check that forbids the centre disagrees with the generator.
    let mut l = laws();
    l.slow_legal = |g, mv| mv.0 != 4 && slow_legal(g, mv);
    assert!(check_playout(TicTacToe::new(), &[], &l).is_err());
}

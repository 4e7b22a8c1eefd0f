//! Property tests on random Kalah playouts under every board size and both capture
//! rules: the laws of `ply_tests::laws`, seed conservation, and each move checked
//! against the seed-by-seed sowing of `ply_tests::kalah`, written from the rules.

use ply_core::games::kalah::{Kalah, KalahMoves, KalahRules, Pit};
use ply_core::playout::SplitMix64;
use ply_core::{Game, Outcome, Player};
use ply_tests::kalah::{board, from_board, rows_empty, slow_play};
use ply_tests::laws::{check_playout, equal, Laws};
use proptest::prelude::*;

fn slow_legal(g: &Kalah, mv: Pit) -> bool {
    let p = g.rules().pits as usize;
    let b = board(g);
    let (a, z) = rows_empty(&b, p);
    let side = g.side_to_move().index();
    (mv.0 as usize) < p && !a && !z && b[side * (p + 1) + mv.0 as usize] > 0
}

fn conserved(before: &Kalah, mv: Pit, after: &Kalah) -> Result<(), String> {
    let total: u32 = board(after).iter().sum();
    if total != before.rules().total_seeds() {
        return Err(format!(
            "{} seeds on the board, the game has {}",
            total,
            before.rules().total_seeds()
        ));
    }
    for p in [Player::First, Player::Second] {
        if after.store(p) < before.store(p) {
            return Err("a store lost seeds".into());
        }
    }
    let slow = slow_play(before, mv);
    let (b, next) = (slow.board, (!slow.over).then_some(slow.next));
    if board(after) != b {
        return Err(format!(
            "the slow sowing gives {:?}, ply {:?}",
            b,
            board(after)
        ));
    }
    match next {
        Some(side) if after.outcome() == Outcome::Ongoing && after.side_to_move() == side => Ok(()),
        None if after.outcome().is_over() => Ok(()),
        _ => Err(format!(
            "the slow rules say {:?} moves next, ply says {:?} to move, {:?}",
            next,
            after.side_to_move(),
            after.outcome()
        )),
    }
}

fn laws() -> Laws<Kalah> {
    Laws {
        capacity: KalahMoves::CAPACITY,
        candidates: |_| (0..10).map(Pit).collect(),
        slow_legal,
        conserved,
        same_position: equal,
    }
}

fn rules() -> impl Strategy<Value = KalahRules> {
    (1u8..=8, 1u8..=15, any::<bool>()).prop_map(|(pits, seeds, empty)| {
        let seeds = seeds.min((255 / (2 * u32::from(pits))) as u8);
        KalahRules::new(pits, seeds)
            .expect("a size within the limit")
            .with_empty_capture(empty)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn random_playouts_keep_every_law(
        rules in rules(),
        choices in prop::collection::vec(0usize..1000, 0..400),
    ) {
        let r = check_playout(Kalah::new(rules), &choices, &laws());
        prop_assert!(r.is_ok(), "{}", r.unwrap_err());
    }
}

#[test]
fn the_slow_sowing_is_not_vacuous() {
    // The first player's pit 1 (one seed) sows into its empty pit 2, opposite the
    // second player's empty pit 5: no capture under the default rule, the lone seed
    // captured under the empty-capture rule. The slow model follows each rule, and
    // refuses the other rule's result.
    let text = "1 0 4 4 4 4 [4] / 5 5 5 5 0 4 [3] / first";
    let strict = Kalah::parse_position(KalahRules::default(), text).unwrap();
    let loose =
        Kalah::parse_position(KalahRules::default().with_empty_capture(true), text).unwrap();
    let (a, b) = (strict.play(Pit(0)).unwrap(), loose.play(Pit(0)).unwrap());
    assert_ne!(board(&a), board(&b));
    assert!(conserved(&strict, Pit(0), &a).is_ok());
    assert!(conserved(&loose, Pit(0), &b).is_ok());
    assert!(conserved(&strict, Pit(0), &b).is_err());
    assert!(conserved(&loose, Pit(0), &a).is_err());
}

/// Full random games on boards from 1 pit to 8 and 1 seed a pit to 21, under both
/// capture rules: every move gives the position the seed-by-seed model gives, the
/// side to move of a finished game included.
#[test]
fn packed_sowing_matches_seed_by_seed_model_on_random_games() {
    let mut rng = SplitMix64::new(12345);
    for &(p, s) in &[
        (1u8, 1u8),
        (1, 9),
        (2, 5),
        (3, 3),
        (4, 4),
        (6, 4),
        (6, 21),
        (8, 15),
        (5, 1),
    ] {
        for ec in [false, true] {
            let rules = KalahRules::new(p, s).unwrap().with_empty_capture(ec);
            for _ in 0..200 {
                let mut g = Kalah::new(rules);
                while !g.outcome().is_over() {
                    let moves = g.legal_moves();
                    let mv = moves[rng.below(moves.len())];
                    let a = g.play_unchecked(mv);
                    let slow = slow_play(&g, mv);
                    let want = from_board(rules, &slow.board, slow.next).unwrap();
                    assert_eq!(a, want, "{:?} pit {}", g, mv.0 + 1);
                    g = a;
                }
            }
        }
    }
}

//! Property tests on random Kalah playouts under every board size and both capture
//! rules: the laws of `ply_tests::laws`, seed conservation, and each move checked
//! against a slow sowing written here from the rules.

use ply_core::games::kalah::{Kalah, KalahMoves, KalahRules, Pit};
use ply_core::{Game, Outcome, Player};
use ply_tests::laws::{check_playout, equal, Laws};
use proptest::prelude::*;

/// The board as one array in sowing order: the first player's pits, its store, the
/// second player's pits, its store.
fn board(g: &Kalah) -> Vec<u32> {
    let p = g.rules().pits as usize;
    let mut b = vec![0; 2 * p + 2];
    for i in 0..p {
        b[i] = g.pit(Player::First, i);
        b[p + 1 + i] = g.pit(Player::Second, i);
    }
    b[p] = g.store(Player::First);
    b[2 * p + 1] = g.store(Player::Second);
    b
}

fn rows_empty(b: &[u32], p: usize) -> (bool, bool) {
    (
        b[..p].iter().all(|&s| s == 0),
        b[p + 1..2 * p + 1].iter().all(|&s| s == 0),
    )
}

fn slow_legal(g: &Kalah, mv: Pit) -> bool {
    let p = g.rules().pits as usize;
    let b = board(g);
    let (a, z) = rows_empty(&b, p);
    let side = g.side_to_move().index();
    (mv.0 as usize) < p && !a && !z && b[side * (p + 1) + mv.0 as usize] > 0
}

/// One move by the rules, seed by seed, on the array: the board after it and the
/// player to move next (None once the game is over).
fn slow_sow(g: &Kalah, mv: Pit) -> (Vec<u32>, Option<Player>) {
    let rules = g.rules();
    let p = rules.pits as usize;
    let n = 2 * p + 2;
    let me = g.side_to_move();
    let base = me.index() * (p + 1);
    let own_store = base + p;
    let opp_store = (own_store + p + 1) % n;
    let mut b = board(g);
    let mut at = base + mv.0 as usize;
    let mut seeds = b[at];
    b[at] = 0;
    while seeds > 0 {
        at = (at + 1) % n;
        if at == opp_store {
            continue;
        }
        b[at] += 1;
        seeds -= 1;
    }
    let mut next = Some(me.opponent());
    if at == own_store {
        next = Some(me);
    } else if at >= base && at < base + p && b[at] == 1 {
        let opposite = 2 * p - at;
        if b[opposite] > 0 || rules.empty_capture {
            b[own_store] += 1 + b[opposite];
            b[at] = 0;
            b[opposite] = 0;
        }
    }
    let (a, z) = rows_empty(&b, p);
    if a || z {
        for i in 0..p {
            b[p] += std::mem::take(&mut b[i]);
            b[2 * p + 1] += std::mem::take(&mut b[p + 1 + i]);
        }
        next = None;
    }
    (b, next)
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
    let (b, next) = slow_sow(before, mv);
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
    // second player's empty pit 5: no capture under the seed's rule, the lone seed
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

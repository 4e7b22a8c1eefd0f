//! Kalah against OpenSpiel's `mancala` (6 pits, 4 seeds, capture only when the
//! opposite pit holds seeds): the same positions reachable in one move from every
//! position of the fixture, and the same results at the end (fixtures:
//! `tests/fixtures/kalah.txt`, see `tests/fixtures/README.md`).

use ply_core::games::kalah::{Kalah, KalahRules};
use ply_core::{Game, Player};
use ply_tests::differential::{
    assert_matches_fixture, check_result, compare, load, Adapter, End, Pos,
};
use ply_tests::kalah::{board, from_board};

const PITS: usize = 6;

/// The fourteen counts of a fixture board.
fn counts(board: &str) -> [u32; 14] {
    let v: Vec<u32> = board
        .split(',')
        .map(|c| c.parse().expect("a seed count"))
        .collect();
    v.try_into().expect("fourteen counts")
}

/// OpenSpiel leaves the seeds of a finished game in the pits; ply's last move sweeps
/// each row into its owner's store. The fixture board as ply shows it.
fn swept(c: [u32; 14]) -> [u32; 14] {
    let first: u32 = c[0..PITS].iter().sum();
    let second: u32 = c[PITS + 1..2 * PITS + 1].iter().sum();
    if first != 0 && second != 0 {
        return c;
    }
    let mut out = [0u32; 14];
    out[PITS] = c[PITS] + first;
    out[2 * PITS + 1] = c[2 * PITS + 1] + second;
    out
}

fn board_text(c: &[u32]) -> String {
    c.iter().map(u32::to_string).collect::<Vec<_>>().join(",")
}

fn build(c: [u32; 14], side: Player) -> Kalah {
    from_board(KalahRules::default(), &c, side)
        .unwrap_or_else(|e| panic!("fixture board {:?}: {}", c, e))
}

struct KalahAdapter;

impl Adapter for KalahAdapter {
    type G = Kalah;

    fn to_ply(&self, pos: &Pos) -> Kalah {
        let side = match pos.side.as_str() {
            "first" => Player::First,
            "second" => Player::Second,
            other => panic!(
                "a position at the start of a turn has a side, not {:?}",
                other
            ),
        };
        build(counts(&pos.board), side)
    }

    fn position_of(&self, g: &Kalah) -> Pos {
        let side = match (g.outcome().is_over(), g.side_to_move()) {
            (true, _) => "-",
            (false, Player::First) => "first",
            (false, Player::Second) => "second",
        };
        Pos::new(board_text(&board(g)), side)
    }

    fn normalise_successor(&self, pos: &Pos) -> Pos {
        Pos::new(board_text(&swept(counts(&pos.board))), pos.side.clone())
    }

    fn check_end(&self, end: &End) -> Result<(), String> {
        if end.position.side != "-" {
            return Err("a final position has no side to move".into());
        }
        let g = build(swept(counts(&end.position.board)), Player::First);
        check_result(&g, &end.result, ["first", "second"])
    }
}

#[test]
fn successor_sets_and_results_match_openspiel() {
    assert_matches_fixture(&KalahAdapter, "kalah.txt", "Kalah (mancala)", 5000, 100);
}

#[test]
fn the_fixture_exercises_captures_extra_turns_and_sweeps() {
    // Not vacuous: the random games contain every rule that can go wrong.
    let fx = load("kalah.txt");
    let (mut extra, mut sweeps, mut captures) = (0, 0, 0);
    for rec in &fx.records {
        let before = counts(&rec.position.board);
        for s in &rec.successors {
            let after = counts(&s.board);
            if s.side == rec.position.side {
                extra += 1;
            }
            if s.side == "-" {
                sweeps += 1;
            }
            // A capture moves more than one seed into the mover's store in one move
            // while emptying an opposite pit: the opponent's row loses seeds.
            let (own_store, opp_row) = if rec.position.side == "first" {
                (PITS, PITS + 1..2 * PITS + 1)
            } else {
                (2 * PITS + 1, 0..PITS)
            };
            let opp_before: u32 = before[opp_row.clone()].iter().sum();
            let opp_after: u32 = after[opp_row].iter().sum();
            if opp_after < opp_before && after[own_store] > before[own_store] + 1 {
                captures += 1;
            }
        }
    }
    assert!(
        extra > 1000 && sweeps > 100 && captures > 500,
        "{} {} {}",
        extra,
        sweeps,
        captures
    );
}

#[test]
fn a_changed_rule_would_be_caught() {
    // Under the empty-capture rule some successors differ from OpenSpiel's.
    struct EmptyCapture;
    impl Adapter for EmptyCapture {
        type G = Kalah;
        fn to_ply(&self, pos: &Pos) -> Kalah {
            let g = KalahAdapter.to_ply(pos);
            let text = g.to_string();
            Kalah::parse_position(KalahRules::default().with_empty_capture(true), &text).unwrap()
        }
        fn position_of(&self, g: &Kalah) -> Pos {
            KalahAdapter.position_of(g)
        }
        fn normalise_successor(&self, pos: &Pos) -> Pos {
            KalahAdapter.normalise_successor(pos)
        }
        fn check_end(&self, end: &End) -> Result<(), String> {
            KalahAdapter.check_end(end)
        }
    }
    let err = compare(&EmptyCapture, &load("kalah.txt")).unwrap_err();
    assert!(err.contains("OpenSpiel does not"), "{}", err);
}

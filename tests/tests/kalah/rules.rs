//! Kalah: snapshots of move lists and resulting positions for the cases the rules
//! turn on, seed conservation in random playouts, and the evaluation match.

use std::fmt::Write;

use ply_core::games::kalah::{Kalah, KalahEval, KalahRules, StoreDifference};
use ply_core::search::{Engine, EngineConfig, Evaluator, Limits, NoClock, TtEntry};
use ply_core::{Game, Player};
use proptest::prelude::*;

fn pos(rules: &str, text: &str) -> Kalah {
    let r = Kalah::parse_rules(rules).unwrap();
    Kalah::parse_position(r, text).unwrap()
}

/// The position, then every legal move with what it does and the position after.
fn moves_and_results(g: &Kalah) -> String {
    let mut out = String::new();
    writeln!(out, "position: {}", g).unwrap();
    for &mv in g.legal_moves().iter() {
        let s = g.sowing(mv);
        let next = g.play_unchecked(mv);
        let mut notes = Vec::new();
        if s.extra_turn && !s.game_over {
            notes.push("extra turn".to_string());
        }
        if s.captured > 0 {
            notes.push(format!("captures {}", s.captured));
        }
        if s.game_over {
            notes.push(format!("game over: {:?}", next.outcome()));
        }
        writeln!(
            out,
            "pit {} -> {}{}",
            g.display_move(mv),
            next,
            if notes.is_empty() {
                String::new()
            } else {
                format!("  ({})", notes.join(", "))
            }
        )
        .unwrap();
    }
    out
}

#[test]
fn snapshot_start() {
    insta::assert_snapshot!("start", moves_and_results(&Kalah::default()));
}

#[test]
fn snapshot_extra_turn_chain() {
    // Pits 6, 5 and 4 hold 1, 2 and 3 seeds: each reaches the store exactly.
    let mut g = pos("6x4", "0 0 0 3 2 1 [20] / 4 4 4 4 4 2 [0] / first");
    let mut out = String::new();
    for pit in ["6", "5", "4"] {
        out += &moves_and_results(&g);
        g = g.play(g.parse_move(pit).unwrap()).unwrap();
        writeln!(out, "plays pit {}; {:?} to move\n", pit, g.side_to_move()).unwrap();
    }
    out += &moves_and_results(&g);
    insta::assert_snapshot!("extra_turn_chain", out);
}

#[test]
fn snapshot_capture() {
    // Pit 1's seed lands in the empty pit 2, opposite the second player's pit 5 (3).
    let g = pos("6x4", "1 0 4 4 4 4 [5] / 4 4 4 4 3 4 [3] / first");
    insta::assert_snapshot!("capture", moves_and_results(&g));
}

#[test]
fn snapshot_lap_into_origin() {
    // Pit 2 holds 13 seeds: one lap of the 13 sowable holes ends in its own emptied
    // pit, which then holds the one seed: a capture of the opposite pit.
    let g = pos("6x4", "2 13 0 1 1 1 [3] / 2 2 2 2 2 2 [15] / first");
    insta::assert_snapshot!("lap_into_origin", moves_and_results(&g));
}

#[test]
fn snapshot_capture_with_empty_opposite_pit_under_both_rules() {
    // Pit 1's seed lands in the empty pit 2; the opposite pit (second's pit 5) is empty.
    let text = "1 0 4 4 4 4 [6] / 4 4 4 4 0 4 [5] / first";
    let mut out = String::from("seed rules (kalah:6x4):\n");
    out += &moves_and_results(&pos("6x4", text));
    out += "\nempty-capture (kalah:6x4:empty-capture):\n";
    out += &moves_and_results(&pos("6x4:empty-capture", text));
    insta::assert_snapshot!("capture_empty_opposite", out);
}

#[test]
fn snapshot_game_ending_sweep() {
    // The first player's last seeds: pit 6 reaches the store and empties the row, so
    // the game ends and the second player's pits go to the second player's store.
    let g = pos("6x4", "0 0 0 0 1 1 [22] / 3 0 5 0 2 1 [13] / first");
    let mut out = moves_and_results(&g);
    let next = g.play(g.parse_move("6").unwrap()).unwrap();
    writeln!(out, "plays pit 6\n").unwrap();
    out += &moves_and_results(&next);
    insta::assert_snapshot!("game_ending_sweep", out);
}

#[test]
fn all_sizes_start_and_play_to_the_end() {
    for p in 1..=8u8 {
        for s in 1..=6u8 {
            for ec in [false, true] {
                let r = KalahRules::new(p, s).unwrap().with_empty_capture(ec);
                let mut g = Kalah::new(r);
                assert_eq!(g.legal_moves().len(), p as usize);
                let mut plies = 0;
                while !g.outcome().is_over() {
                    let moves = g.legal_moves();
                    g = g.play(moves[plies % moves.len()]).unwrap();
                    plies += 1;
                }
                assert_eq!(
                    g.store(Player::First) + g.store(Player::Second),
                    r.total_seeds()
                );
            }
        }
    }
}

fn sizes() -> impl Strategy<Value = KalahRules> {
    (1u8..=8, 1u8..=15, any::<bool>()).prop_map(|(p, s, ec)| {
        let s = s.min((255 / (2 * u32::from(p))) as u8);
        KalahRules::new(p, s).unwrap().with_empty_capture(ec)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Every move of every random playout keeps the seed total, keeps the text
    /// round trip and hash, and ends with both rows empty.
    #[test]
    fn seeds_are_conserved_in_random_playouts(rules in sizes(), choices in proptest::collection::vec(any::<u8>(), 400)) {
        let mut g = Kalah::new(rules);
        for c in choices {
            if g.outcome().is_over() {
                break;
            }
            let moves = g.legal_moves();
            prop_assert!(!moves.is_empty());
            let mv = moves[c as usize % moves.len()];
            let next = g.play(mv).unwrap();
            prop_assert_eq!(next.seeds_in_play() + next.store(Player::First) + next.store(Player::Second), rules.total_seeds());
            prop_assert!(next.store(g.side_to_move()) >= g.store(g.side_to_move()));
            let back = Kalah::parse_position(rules, &next.to_string()).unwrap();
            prop_assert_eq!(back, next);
            prop_assert_eq!(back.hash(), next.hash());
            g = next;
        }
        if g.outcome().is_over() {
            prop_assert_eq!(g.seeds_in_play(), 0);
        }
    }
}

/// One game between two evaluations at the same depth; returns the first player's
/// final margin.
fn play_game<A: Evaluator<Kalah> + Copy, B: Evaluator<Kalah> + Copy>(
    start: Kalah,
    first: A,
    second: B,
    depth: u32,
) -> i32 {
    let mut slots_a = vec![TtEntry::EMPTY; 1 << 16];
    let mut slots_b = vec![TtEntry::EMPTY; 1 << 16];
    let mut ea = Engine::new(&mut slots_a, first, NoClock, EngineConfig::default());
    let mut eb = Engine::new(&mut slots_b, second, NoClock, EngineConfig::default());
    let mut g = start;
    while !g.outcome().is_over() {
        let r = match g.side_to_move() {
            Player::First => ea.search(&g, Limits::depth(depth)),
            Player::Second => eb.search(&g, Limits::depth(depth)),
        };
        g = g.play(r.best_move.unwrap()).unwrap();
    }
    g.store(Player::First) as i32 - g.store(Player::Second) as i32
}

/// ply's evaluation against the store difference of the Mancala parallelization
/// report (docs/references.md) at equal depth, over every two-ply opening
/// of kalah:6x4, each played with both colours: it must score more points.
#[test]
fn own_evaluation_beats_the_seeds_at_equal_depth() {
    let start = Kalah::default();
    let mut openings = Vec::new();
    for &a in start.legal_moves().iter() {
        let g = start.play_unchecked(a);
        for &b in g.legal_moves().iter() {
            openings.push(g.play_unchecked(b));
        }
    }
    let (mut ours, mut theirs) = (0.0, 0.0);
    for &o in &openings {
        for (mine_first, margin) in [
            (true, play_game(o, KalahEval, StoreDifference, 4)),
            (false, play_game(o, StoreDifference, KalahEval, 4)),
        ] {
            let mine = if mine_first { margin } else { -margin };
            match mine.signum() {
                1 => ours += 1.0,
                -1 => theirs += 1.0,
                _ => {
                    ours += 0.5;
                    theirs += 0.5
                }
            }
        }
    }
    eprintln!(
        "ply eval {} : seed eval {} over {} games",
        ours,
        theirs,
        2 * openings.len()
    );
    assert!(ours > theirs, "ply eval {} vs seed eval {}", ours, theirs);
}

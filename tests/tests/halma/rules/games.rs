//! Whole games under every rule option, minimax against alpha-beta at three stages of a
//! 16×16 game, and the recorded 8×8 middle-game position of the depth-3 benchmark.

use super::*;

fn play_out<B: HalmaBoard, E1: Evaluator<Halma<B>>, E2: Evaluator<Halma<B>>>(
    mut g: Halma<B>,
    depth: u32,
    first: &E1,
    second: &E2,
) -> Halma<B> {
    while !g.outcome().is_over() {
        let r = if g.side_to_move() == Player::First {
            alphabeta(&g, depth, first)
        } else {
            alphabeta(&g, depth, second)
        };
        g = g.play(r.best_move.unwrap()).unwrap();
    }
    g
}

#[test]
fn complete_games_end_under_every_rule_option() {
    for params in [
        "8",
        "8:parlett",
        "8:no-leave",
        "8:plies=40",
        "8:parlett:no-leave",
    ] {
        let g = Halma8::start(Halma8::parse_rules(params).unwrap());
        let end = play_out(g, 1, &Manhattan, &Manhattan);
        assert!(end.outcome().is_over(), "{}", params);
        assert!(end.plies() <= end.rules().max_plies);
        if params == "8:plies=40" {
            assert_eq!((end.outcome(), end.plies()), (Outcome::Draw, 40));
        } else {
            assert!(
                matches!(end.outcome(), Outcome::Win(_)),
                "{} {}",
                params,
                end
            );
        }
    }
    for params in ["16", "16:parlett:no-leave"] {
        let g = Halma16::start(Halma16::parse_rules(params).unwrap());
        let end = play_out(g, 1, &Racer::DEFAULT, &Manhattan);
        assert!(end.outcome().is_over(), "{}", params);
    }
}

// ---------------------------------------------------------------------------
// Minimax and alpha-beta at three stages (the C++ Halma README's experiment,
// docs/references.md)

/// Opening, middle and ending positions of a 16×16 game of s7 against s5 at depth 1.
fn three_stages() -> [Halma16; 3] {
    let s7 = Weights::parse("s7").unwrap();
    let s5 = Weights::parse("s5").unwrap();
    let mut g = Halma16::default();
    let mut stages = [g; 3];
    let mut found_middle = false;
    while !g.outcome().is_over() {
        let in_target = |g: &Halma16| {
            (g.pieces(Player::First) & Halma16::target(Player::First)).count()
                + (g.pieces(Player::Second) & Halma16::target(Player::Second)).count()
        };
        if g.plies() == 6 {
            stages[0] = g;
        }
        if !found_middle && in_target(&g) >= 2 {
            stages[1] = g;
            found_middle = true;
        }
        if in_target(&g) >= 28 {
            stages[2] = g;
            break;
        }
        let w = if g.side_to_move() == Player::First {
            s7
        } else {
            s5
        };
        g = g.play_unchecked(alphabeta(&g, 1, &w).best_move.unwrap());
    }
    assert!(found_middle && stages[2] != stages[1]);
    stages
}

#[test]
fn minimax_and_alphabeta_agree_at_opening_middle_and_ending() {
    for (i, p) in three_stages().iter().enumerate() {
        for name in ["s1", "s7", "s8"] {
            let eval = Weights::parse(name).unwrap();
            let mm = minimax(p, 2, &eval);
            let ab = alphabeta(p, 2, &eval);
            assert_eq!(mm.best_move, ab.best_move, "stage {} {}", i, name);
            assert_eq!(mm.value, ab.value);
            // Far fewer nodes: at most a third of minimax's at depth 2.
            assert!(
                ab.nodes * 3 < mm.nodes,
                "stage {} {}: {} vs {}",
                i,
                name,
                ab.nodes,
                mm.nodes
            );
        }
    }
}

// ---------------------------------------------------------------------------
// The recorded 8×8 middle-game position of the depth-3 benchmark

const MIDDLE: &str = include_str!("../../../../benches/data/halma8_middle.txt");

#[test]
fn recorded_middle_game_position_has_many_moves() {
    let g = pos8(MIDDLE.trim());
    assert_eq!(g.outcome(), Outcome::Ongoing);
    let n = g.legal_moves().len();
    assert_eq!(n, 146);
    // Neither side has a piece in its target camp yet: a middle game.
    for p in [Player::First, Player::Second] {
        assert!((g.pieces(p) & Halma8::target(p)).is_empty());
    }
    check_generator_against_reference(&g);
}

/// Rebuilds the middle-game position: the position with the most legal moves among
/// those met in 20,000 playouts of 40 plies from the start (plies 16 to 40, no piece
/// in a target camp yet), each move picked at random among the moves that do not go
/// backwards (SplitMix64 seed 1), and checks that it is the recorded one
/// (`--nocapture` prints it).
#[test]
fn regenerate_middle_game_position() {
    let mut s = 1u64;
    let mut next = || {
        let (ns, r) = ply_core::zobrist::splitmix64(s);
        s = ns;
        r
    };
    let mut best = (0, Halma8::default());
    for _ in 0..20_000 {
        let mut g = Halma8::default();
        for ply in 0..40 {
            let moves: Vec<HalmaMove> = g
                .legal_moves()
                .iter()
                .copied()
                .filter(|&m| g.move_order_hint(m) >= 0)
                .collect();
            if moves.is_empty() {
                break;
            }
            g = g.play_unchecked(moves[next() as usize % moves.len()]);
            let clean = [Player::First, Player::Second]
                .iter()
                .all(|&p| (g.pieces(p) & Halma8::target(p)).is_empty());
            if ply >= 15 && clean {
                let n = g.legal_moves().len();
                if n > best.0 {
                    best = (n, g);
                }
            }
        }
    }
    println!("{} moves: {}", best.0, best.1);
    assert_eq!(best.1.to_string(), MIDDLE.trim());
}

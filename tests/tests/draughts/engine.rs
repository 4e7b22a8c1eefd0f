//! The search family on draughts: every algorithm returns the minimax value,
//! quiescence resolves pending captures, the engine finds a win made by the Calgary
//! no-repetition rule, and engine-versus-engine games end in both variants.

use ply_core::games::draughts::{Draughts, DraughtsEval, Rules};
use ply_core::search::{
    alphabeta, minimax, Engine, EngineConfig, Evaluator, Limits, NoClock, RandomEval, TtEntry, WIN,
};
use ply_core::{Game, Outcome};

fn next(state: &mut u64) -> u64 {
    let (s, v) = ply_core::zobrist::splitmix64(*state);
    *state = s;
    v
}

fn positions(rules: Rules, count: usize, seed: u64) -> Vec<Draughts> {
    let mut state = seed;
    let mut out = Vec::new();
    while out.len() < count {
        let mut g = Draughts::start(rules);
        let plies = next(&mut state) % 60;
        for _ in 0..plies {
            let moves = g.legal_moves();
            if moves.is_empty() {
                break;
            }
            g = g.play_unchecked(moves[(next(&mut state) as usize) % moves.len()]);
        }
        out.push(g);
    }
    out
}

fn pos(spec: &str, fen: &str) -> Draughts {
    Draughts::parse_position(Draughts::parse_rules(spec).unwrap(), fen).unwrap()
}

fn agree<E: Evaluator<Draughts> + Clone>(ps: &[Draughts], depth: u32, eval: E) {
    let mut slots = vec![TtEntry::EMPTY; 1 << 12];
    for p in ps {
        let mm = minimax(p, depth, &eval);
        let ab = alphabeta(p, depth, &eval);
        assert_eq!(mm.value, ab.value, "alpha-beta at {:?} depth {}", p, depth);
        let mut engine = Engine::new(&mut slots, eval.clone(), NoClock, EngineConfig::exact());
        let r = engine.search(p, Limits::depth(depth));
        assert_eq!(r.value, mm.value, "engine at {:?} depth {}", p, depth);
    }
}

#[test]
fn all_algorithms_agree_on_draughts() {
    for rules in [Rules::english(), Rules::calgary()] {
        let ps = positions(rules, 40, 9);
        for depth in 1..=4 {
            agree(&ps, depth, RandomEval { seed: 3 });
            agree(&ps, depth, DraughtsEval::STANDARD);
        }
    }
}

#[test]
fn quiescence_sees_the_capture_behind_the_horizon() {
    // 21-17 loses the man to 14x21; 24-19 and 24-20 are safe.
    let g = pos("english", "W:W21,24:B14,1");
    let hang = g.parse_move("21-17").unwrap();
    let mut slots = vec![TtEntry::EMPTY; 1 << 10];
    let mut engine = Engine::new(
        &mut slots,
        DraughtsEval::STANDARD,
        NoClock,
        EngineConfig::default(),
    );
    let r = engine.search(&g, Limits::depth(1));
    assert_ne!(r.best_move, Some(hang));
    assert!(r.value > -50, "value {}", r.value);
    // A position with a capture pending is not quiet.
    let after = g.play(hang).unwrap();
    assert!(!after.is_quiet());
    assert!(g.is_quiet());
}

#[test]
fn engine_wins_by_leaving_red_only_a_repeating_move() {
    // Black to move: 25-29 leaves Red's king only 8-4, which would repeat.
    let g = pos("calgary", "B:WK4:BK29,3,11,12,15");
    let g = g.play(g.parse_move("29-25").unwrap()).unwrap();
    let g = g.play(g.parse_move("4-8").unwrap()).unwrap();
    let mut slots = vec![TtEntry::EMPTY; 1 << 12];
    let mut engine = Engine::new(
        &mut slots,
        DraughtsEval::STANDARD,
        NoClock,
        EngineConfig::default(),
    );
    let r = engine.search(&g, Limits::depth(4));
    assert_eq!(r.best_move, Some(g.parse_move("25-29").unwrap()));
    assert_eq!(r.value, WIN - 1);
}

#[test]
fn engine_games_end_in_both_variants() {
    for rules in [Rules::english(), Rules::calgary()] {
        let mut slots = vec![TtEntry::EMPTY; 1 << 14];
        let mut engine = Engine::new(
            &mut slots,
            DraughtsEval::STANDARD,
            NoClock,
            EngineConfig::default(),
        );
        let mut g = Draughts::start(rules);
        let mut plies = 0;
        while !g.outcome().is_over() && plies < 1000 {
            let r = engine.search(&g, Limits::nodes(3000));
            let mv = r.best_move.expect("a move in an unfinished game");
            g = g.play(mv).expect("the engine plays legal moves");
            plies += 1;
        }
        assert!(g.outcome().is_over(), "{:?} after {} plies", g, plies);
        if let Outcome::Win(_) = g.outcome() {
            assert!(g.legal_moves().is_empty());
        }
    }
}

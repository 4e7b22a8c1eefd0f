//! Exact play (docs/games/kalah/play.md): [`TablesEval`], ply's evaluation
//! with the exact values of endgame tables, against the solver without tables; the
//! engine over it playing only optimal moves where the tables cover the board; the
//! solver's proved best move ([`KalahSolver::best_move`]); and its stop polls.

use std::sync::atomic::AtomicI8;

use ply_core::games::kalah::solver::{
    build_tables, table_len, EndgameTables, KalahSolver, Quiet, SolveControl, SolverConfig,
    SolverEntry, UNKNOWN,
};
use ply_core::games::kalah::{Kalah, KalahEval, KalahRules, Pit, TablesEval, DECIDED_BONUS};
use ply_core::search::{Engine, EngineConfig, Evaluator, Limits, NoClock, TtEntry};
use ply_core::Game;

/// Endgame tables of `0..=seeds` seeds in play for the pits and rule of `rules`.
fn tables(rules: KalahRules, seeds: u32) -> Vec<AtomicI8> {
    let len = table_len(rules.pits, seeds).unwrap();
    let values: Vec<AtomicI8> = (0..len).map(|_| AtomicI8::new(UNKNOWN)).collect();
    build_tables(rules.pits, rules.empty_capture, seeds, 0, &values, |_| {}).unwrap();
    values
}

/// Unfinished positions of `rules` reached by seeded pseudo-random playouts, up to
/// `count` of them, every ply of each playout.
fn positions(rules: KalahRules, count: usize, seed: u64) -> Vec<Kalah> {
    let mut out = Vec::new();
    let mut s = seed;
    while out.len() < count {
        let mut g = Kalah::new(rules);
        while !g.outcome().is_over() && out.len() < count {
            out.push(g);
            let moves = g.legal_moves();
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            g = g.play_unchecked(moves[(s >> 33) as usize % moves.len()]);
        }
    }
    out
}

/// The final margin of `g`'s side to move by the solver alone (no tables): the
/// reference the tables are held to.
fn solved(g: &Kalah, tt: &mut [SolverEntry]) -> i32 {
    let r = g.rules();
    let mut s = KalahSolver::new(r, tt, EndgameTables::none(r.pits, r.empty_capture)).unwrap();
    s.solve(g, &mut Quiet).unwrap()
}

/// Each move's final margin for `g`'s mover, by the solver alone.
fn move_values(g: &Kalah, tt: &mut [SolverEntry]) -> Vec<(Pit, i32)> {
    let r = g.rules();
    let mut s = KalahSolver::new(r, tt, EndgameTables::none(r.pits, r.empty_capture)).unwrap();
    let mut out = Vec::new();
    s.solve_moves(g, &mut Quiet, |m, v| out.push((m, v)))
        .unwrap();
    out
}

fn small_boards() -> Vec<KalahRules> {
    let mut out = Vec::new();
    for (p, s) in [(3, 3), (4, 3)] {
        for ec in [false, true] {
            out.push(KalahRules::new(p, s).unwrap().with_empty_capture(ec));
        }
    }
    out
}

#[test]
fn the_exact_value_is_the_solvers_on_small_boards_with_full_tables() {
    let mut tt = vec![SolverEntry::EMPTY; 1 << 16];
    for rules in small_boards() {
        let total = rules.total_seeds();
        let values = tables(rules, total);
        let t = EndgameTables::new(rules.pits, rules.empty_capture, total, &values).unwrap();
        let eval = TablesEval::new(rules, t).unwrap();
        for g in positions(rules, 300, 7) {
            let want = solved(&g, &mut tt);
            assert_eq!(eval.final_margin(&g), Some(want), "{g}");
            assert_eq!(
                eval.exact(&g, 3),
                Some(KalahEval::margin_value(want)),
                "{g}"
            );
            // The heuristic parts are KalahEval's.
            for me in [ply_core::Player::First, ply_core::Player::Second] {
                assert_eq!(eval.evaluate(&g, me), KalahEval.evaluate(&g, me));
            }
        }
    }
}

#[test]
fn positions_beyond_the_tables_have_no_exact_value() {
    let rules = KalahRules::new(4, 3).unwrap();
    let values = tables(rules, 10);
    let t = EndgameTables::new(4, false, 10, &values).unwrap();
    let eval = TablesEval::new(rules, t).unwrap();
    let mut tt = vec![SolverEntry::EMPTY; 1 << 16];
    let (mut known, mut unknown) = (0, 0);
    for g in positions(rules, 300, 11) {
        match eval.final_margin(&g) {
            Some(m) => {
                assert!(g.seeds_in_play() <= 10, "{g}");
                assert_eq!(m, solved(&g, &mut tt), "{g}");
                known += 1;
            }
            None => {
                assert!(g.seeds_in_play() > 10, "{g}");
                unknown += 1;
            }
        }
    }
    assert!(known > 20 && unknown > 20, "{known} known, {unknown} not");
    // Tables of another board kind are refused.
    let other = KalahRules::new(4, 3).unwrap().with_empty_capture(true);
    assert!(TablesEval::new(other, t).is_err());
    assert!(TablesEval::new(KalahRules::new(5, 3).unwrap(), t).is_err());
}

#[test]
fn exact_values_order_by_margin_around_the_heuristic() {
    // A proved win beats every undecided heuristic value and a bigger one beats a
    // smaller one; a draw is 0; a proved loss is below every undecided value.
    for m in 1..60 {
        assert!(KalahEval::margin_value(m + 1) > KalahEval::margin_value(m));
        assert_eq!(KalahEval::margin_value(-m), -KalahEval::margin_value(m));
        assert!(KalahEval::margin_value(m) > DECIDED_BONUS);
    }
    assert_eq!(KalahEval::margin_value(0), 0);
    // Undecided positions of every board up to Kalah(6,6) stay inside the band
    // between proved losses and proved wins.
    for (p, s) in [(4, 3), (6, 4), (6, 6)] {
        let rules = KalahRules::new(p, s).unwrap();
        for g in positions(rules, 2000, 3) {
            let total = rules.total_seeds();
            let decided = [ply_core::Player::First, ply_core::Player::Second]
                .iter()
                .any(|&pl| 2 * g.store(pl) > total);
            let v = KalahEval.for_mover(&g);
            if !decided {
                assert!(v.abs() < KalahEval::margin_value(1), "{g}: {v}");
            }
        }
    }
}

#[test]
fn the_engine_with_full_tables_plays_only_optimal_moves() {
    let mut tt = vec![SolverEntry::EMPTY; 1 << 16];
    let mut slots = vec![TtEntry::default(); 1 << 12];
    for rules in small_boards() {
        let total = rules.total_seeds();
        let values = tables(rules, total);
        let t = EndgameTables::new(rules.pits, rules.empty_capture, total, &values).unwrap();
        let eval = TablesEval::new(rules, t).unwrap();
        for g in positions(rules, 120, 5) {
            let values = move_values(&g, &mut tt);
            let best = values.iter().map(|&(_, v)| v).max().unwrap();
            for depth in [1, 4] {
                let mut engine = Engine::new(&mut slots, eval, NoClock, EngineConfig::default());
                let r = engine.search(&g, Limits::depth(depth));
                let mv = r.best_move.unwrap();
                let v = values.iter().find(|&&(m, _)| m == mv).unwrap().1;
                assert_eq!(v, best, "{g}: depth {depth} played {mv:?}, {values:?}");
                assert_eq!(r.value, KalahEval::margin_value(best), "{g}");
            }
        }
    }
}

#[test]
fn best_move_is_a_move_of_the_solved_value() {
    let mut tt = vec![SolverEntry::EMPTY; 1 << 16];
    let mut own_tt = vec![SolverEntry::EMPTY; 1 << 14];
    for rules in small_boards() {
        // Tables covering part of the board, so the solver searches.
        let values = tables(rules, 8);
        let t = EndgameTables::new(rules.pits, rules.empty_capture, 8, &values).unwrap();
        for g in positions(rules, 80, 9) {
            let values = move_values(&g, &mut tt);
            let best = values.iter().map(|&(_, v)| v).max().unwrap();
            let mut s = KalahSolver::new(rules, &mut own_tt, t).unwrap();
            let (mv, v) = s.best_move(&g, &mut Quiet).unwrap().unwrap();
            assert_eq!(v, best, "{g}");
            let got = values.iter().find(|&&(m, _)| m == mv).unwrap().1;
            assert_eq!(got, best, "{g}: {mv:?} of {values:?}");
        }
    }
    // A finished game has none.
    let rules = KalahRules::new(3, 3).unwrap();
    let over = Kalah::parse_position(rules, "0 0 0 [10] / 0 0 0 [8] / first").unwrap();
    let mut s = KalahSolver::new(rules, &mut own_tt, EndgameTables::none(3, false)).unwrap();
    assert_eq!(s.best_move(&over, &mut Quiet).unwrap(), None);
}

/// Counts the solver's stop polls.
struct Polls(u64);

impl SolveControl for Polls {
    fn should_stop(&mut self) -> bool {
        self.0 += 1;
        false
    }
}

#[test]
fn the_solver_polls_its_control_at_the_configured_interval() {
    let rules = KalahRules::new(4, 3).unwrap();
    let g = Kalah::new(rules);
    let mut tt = vec![SolverEntry::EMPTY; 1 << 14];
    for shift in [4, 10, 16] {
        let mut s = KalahSolver::new(rules, &mut tt, EndgameTables::none(4, false)).unwrap();
        s.set_config(SolverConfig {
            poll_shift: shift,
            ..SolverConfig::default()
        });
        let mut polls = Polls(0);
        assert_eq!(s.solve(&g, &mut polls).unwrap(), 6);
        assert_eq!(polls.0, s.nodes() >> shift, "shift {shift}");
    }
    // And stopping at a poll interrupts the solve.
    struct StopAt(u64);
    impl SolveControl for StopAt {
        fn should_stop(&mut self) -> bool {
            self.0 = self.0.saturating_sub(1);
            self.0 == 0
        }
    }
    let mut s = KalahSolver::new(rules, &mut tt, EndgameTables::none(4, false)).unwrap();
    s.set_config(SolverConfig {
        poll_shift: 4,
        ..SolverConfig::default()
    });
    assert!(s.best_move(&g, &mut StopAt(3)).is_err());
    assert!(s.nodes() < 3 * 16 + 16, "{} nodes", s.nodes());
}

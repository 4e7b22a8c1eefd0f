//! Every search algorithm returns the same root value as plain minimax, on many
//! positions, under the game's own evaluation and under pseudo-random ones (which
//! have no structure that could hide an ordering or pruning bug).

use ply_core::games::TicTacToe;
use ply_core::search::{
    alphabeta, minimax, Clock, Engine, EngineConfig, Evaluator, FnEval, Limits, NoClock,
    RandomEval, SearchReport, TtEntry,
};
use ply_core::solve::Solver;
use ply_core::{Game, Outcome, Player};

/// `count` positions: the start, then those reached by pseudo-random playouts of at
/// most `max_plies` plies.
fn positions<G: Game>(start: G, count: usize, max_plies: usize, seed: u64) -> Vec<G> {
    ply_core::playout::positions(start, max_plies, seed)
        .take(count)
        .collect()
}

fn check_agreement<G: Game, E: Evaluator<G> + Clone>(positions: &[G], depth: u32, eval: E) {
    let mut slots = vec![TtEntry::EMPTY; 1 << 12];
    for p in positions {
        let mm = minimax(p, depth, &eval);
        let ab = alphabeta(p, depth, &eval);
        assert_eq!(
            mm.value, ab.value,
            "alpha-beta value differs at {} depth {}",
            p, depth
        );
        assert_eq!(
            mm.best_move, ab.best_move,
            "alpha-beta move differs at {}",
            p
        );
        assert!(ab.nodes <= mm.nodes);
        let mut engine = Engine::new(&mut slots, eval.clone(), NoClock, EngineConfig::exact());
        let r = engine.search(p, Limits::depth(depth));
        assert_eq!(
            r.value, mm.value,
            "engine value differs at {} depth {}",
            p, depth
        );
        if let Some(m) = r.best_move {
            let v = ply_core::search::alphabeta::move_value(p, m, depth, &eval);
            assert_eq!(
                v, mm.value,
                "engine move {:?} is not a best move at {}",
                m, p
            );
        }
    }
}

#[test]
fn tictactoe_all_algorithms_agree_under_random_evaluations() {
    let ps = positions(TicTacToe::new(), 200, 6, 1);
    for seed in 0..4 {
        for depth in 1..=4 {
            check_agreement(&ps, depth, RandomEval { seed });
        }
    }
}

#[test]
fn tictactoe_all_algorithms_agree_on_material_like_evaluation() {
    // Counts open lines: a real, structured heuristic.
    let eval = FnEval(|g: &TicTacToe| {
        let me = g.marks(g.side_to_move());
        let them = g.marks(g.side_to_move().opponent());
        let open = |a: u16, b: u16| {
            ply_core::games::tictactoe::LINES
                .iter()
                .filter(|&&l| l & b == 0 && l & a != 0)
                .count() as i32
        };
        open(me, them) - open(them, me)
    });
    let ps = positions(TicTacToe::new(), 100, 5, 7);
    for depth in 1..=5 {
        check_agreement(&ps, depth, eval);
    }
}

#[test]
fn engine_finds_the_same_values_with_default_config_on_tictactoe() {
    // Tic-tac-toe positions recur only at the same ply, so even deeper-entry
    // cutoffs cannot change a fixed-depth value here.
    let ps = positions(TicTacToe::new(), 100, 6, 3);
    let mut slots = vec![TtEntry::EMPTY; 1 << 10];
    for p in &ps {
        let eval = RandomEval { seed: 11 };
        let mm = minimax(p, 3, &eval);
        let mut engine = Engine::new(&mut slots, eval, NoClock, EngineConfig::default());
        assert_eq!(engine.search(p, Limits::depth(3)).value, mm.value);
    }
}

#[test]
fn solver_agrees_with_full_depth_minimax_on_tictactoe() {
    let ps = positions(TicTacToe::new(), 150, 7, 5);
    let mut slots = vec![TtEntry::EMPTY; 1 << 12];
    for p in &ps {
        let sign = FnEval(|_: &TicTacToe| 0);
        let full = minimax(p, 9, &sign);
        let mut solver = Solver::new(&mut slots);
        let s = solver.solve(p).unwrap();
        assert_eq!(s.value, full.value.signum(), "solver differs at {}", p);
    }
    let mut solver = Solver::new(&mut slots);
    assert_eq!(solver.solve(&TicTacToe::new()).unwrap().value, 0);
}

/// The engine's search of tic-tac-toe's start under `limits`, with a random
/// evaluation of `seed`, `clock` and `config`, over a table of `slots` entries.
fn search_start<C: Clock>(
    slots: usize,
    seed: u64,
    clock: C,
    config: EngineConfig,
    limits: Limits,
) -> SearchReport<<TicTacToe as Game>::Move> {
    let mut slots = vec![TtEntry::EMPTY; slots];
    let mut engine = Engine::new(&mut slots, RandomEval { seed }, clock, config);
    engine.search(&TicTacToe::new(), limits)
}

#[test]
fn node_budget_stops_search_and_still_returns_a_legal_move() {
    let r = search_start(64, 1, NoClock, EngineConfig::default(), Limits::nodes(2000));
    let start = TicTacToe::new();
    assert!(r.nodes <= 2000 + 1024, "nodes {}", r.nodes);
    assert!(start.legal_moves().contains(&r.best_move.unwrap()));
    assert!(r.depth >= 1);
}

#[test]
fn engine_plays_perfect_tictactoe_against_itself() {
    let mut slots = vec![TtEntry::EMPTY; 1 << 12];
    let mut engine = Engine::new(
        &mut slots,
        FnEval(|_: &TicTacToe| 0),
        NoClock,
        EngineConfig::default(),
    );
    let mut g = TicTacToe::new();
    while !g.outcome().is_over() {
        let r = engine.search(&g, Limits::depth(9));
        g = g.play(r.best_move.unwrap()).unwrap();
    }
    assert_eq!(g.outcome(), Outcome::Draw);
}

#[test]
fn principal_variation_is_legal_and_starts_with_best_move() {
    let r = search_start(
        1 << 12,
        4,
        NoClock,
        EngineConfig::default(),
        Limits::depth(5),
    );
    let g = TicTacToe::new();
    assert_eq!(r.pv.first(), r.best_move.as_ref());
    assert!(r.pv.len() >= 2);
    let mut p = g;
    for &m in &r.pv {
        p = p.play(m).expect("pv move legal");
    }
}

/// A clock that advances one millisecond each time it is read: deterministic time.
struct TickClock(std::cell::Cell<u64>);

impl ply_core::search::Clock for TickClock {
    fn elapsed_ms(&self) -> u64 {
        let t = self.0.get() + 1;
        self.0.set(t);
        t
    }
}

#[test]
fn time_budget_stops_iterating_once_half_the_time_is_gone() {
    let clock = TickClock(std::cell::Cell::new(0));
    // Depth 9 with no table help needs tens of thousands of nodes: 40 clock reads
    // (one per 1024 nodes plus one per iteration) cannot cover it.
    let limits = Limits {
        depth: 9,
        ..Limits::time_ms(40)
    };
    let r = search_start(1 << 10, 9, clock, EngineConfig::default(), limits);
    let start = TicTacToe::new();
    assert!(r.depth < 9, "completed depth {}", r.depth);
    assert!(start.legal_moves().contains(&r.best_move.unwrap()));
}

/// A clock that reads 0 for its first `n` reads, then an hour.
struct JumpClock(std::cell::Cell<u64>, u64);

impl ply_core::search::Clock for JumpClock {
    fn elapsed_ms(&self) -> u64 {
        let reads = self.0.get() + 1;
        self.0.set(reads);
        if reads > self.1 {
            3_600_000
        } else {
            0
        }
    }
}

#[test]
fn hard_time_limit_aborts_inside_an_iteration_and_keeps_the_last_result() {
    let clock = JumpClock(std::cell::Cell::new(0), 6);
    let limits = Limits {
        depth: 9,
        ..Limits::time_ms(1000)
    };
    let r = search_start(16, 9, clock, EngineConfig::exact(), limits);
    let start = TicTacToe::new();
    assert!(r.aborted);
    assert!(r.depth >= 1 && r.depth < 9, "depth {}", r.depth);
    assert!(start.legal_moves().contains(&r.best_move.unwrap()));
}

/// A reference written in max/min form, every value seen by `me` (the root's side to
/// move): maximise where `me` moves, minimise elsewhere, and ask the evaluation for
/// `me`'s view at every leaf. Independent of negamax's sign flips.
fn maxmin<G: Game, E: Evaluator<G>>(g: &G, depth: u32, ply: u32, eval: &E, me: Player) -> i32 {
    let moves = g.legal_moves();
    if g.outcome().is_over() || moves.is_empty() {
        let t = eval.terminal(g, g.outcome(), ply);
        return if g.side_to_move() == me { t } else { -t };
    }
    if depth == 0 {
        return eval.evaluate(g, me);
    }
    let values = moves
        .iter()
        .map(|&m| maxmin(&g.play_unchecked(m), depth - 1, ply + 1, eval, me));
    if g.side_to_move() == me {
        values.max().unwrap()
    } else {
        values.min().unwrap()
    }
}

/// The perspective is the search's, never the caller's: under evaluations whose two
/// players' views are unrelated (so a search that asked for the wrong player's view
/// anywhere would return another number), minimax, alpha-beta and the engine equal the
/// max/min reference at odd and even depths, in a game with extra turns too.
#[test]
fn every_search_values_positions_for_the_root_player() {
    use ply_core::games::kalah::Kalah;
    fn check<G: Game>(positions: &[G], depths: std::ops::RangeInclusive<u32>) {
        let mut slots = vec![TtEntry::EMPTY; 1 << 12];
        for seed in 0..3 {
            let eval = RandomEval { seed };
            for depth in depths.clone() {
                for p in positions {
                    let expected = maxmin(p, depth, 0, &eval, p.side_to_move());
                    assert_eq!(minimax(p, depth, &eval).value, expected, "minimax {p}");
                    assert_eq!(alphabeta(p, depth, &eval).value, expected, "alphabeta {p}");
                    let mut engine = Engine::new(&mut slots, eval, NoClock, EngineConfig::exact());
                    let r = engine.search(p, Limits::depth(depth));
                    assert_eq!(r.value, expected, "engine at depth {depth} on {p}");
                }
            }
        }
    }
    check(&positions(TicTacToe::new(), 30, 5, 41), 1..=4);
    let kalah = Kalah::start(Kalah::parse_rules("4x3").unwrap());
    check(&positions(kalah, 20, 8, 43), 1..=5);
}

/// The engine's fixed memory sized for a small part (`Engine::new_sized`): killers
/// for fewer plies and fewer history slots. The value stays plain alpha-beta's
/// whatever the sizes (only the order of the moves changes); with killers for every
/// ply the search reaches and the default 512 history slots the search is exactly
/// the default engine's, move for move and node for node; and a smaller history
/// table does change the order (the parameter is used).
#[test]
fn engine_with_tables_sized_for_a_small_part() {
    use ply_core::games::draughts::{Draughts, Rules};
    use ply_core::search::engine::HISTORY_SLOTS;
    use ply_core::search::{Recommended, SearchReport, SliceEngine};

    fn run<const KILLERS: usize, const HISTORY: usize>(
        p: &Draughts,
        depth: u32,
        config: EngineConfig,
    ) -> SearchReport<<Draughts as Game>::Move> {
        let mut slots = vec![TtEntry::EMPTY; 1 << 10];
        let mut engine: SliceEngine<'_, Draughts, _, NoClock, KILLERS, HISTORY> =
            Engine::new_sized(&mut slots, Draughts::evaluation(), NoClock, config);
        engine.search(p, Limits::depth(depth))
    }

    let ps = positions(Draughts::new(Rules::english()), 12, 30, 5);
    let eval = Draughts::evaluation();
    let depth = 5;
    // Quiescence off: no node is deeper than `depth` plies.
    let config = EngineConfig {
        quiescence: false,
        ..Draughts::engine_config()
    };
    let mut history_changed_the_order = false;
    for p in &ps {
        let ab = alphabeta(p, depth, &eval).value;
        let mut slots = vec![TtEntry::EMPTY; 1 << 10];
        let default =
            Engine::new(&mut slots, eval, NoClock, config).search(p, Limits::depth(depth));
        // Killers for the plies searched (1 to depth - 1 below the root, which
        // has none): the default engine exactly.
        assert_eq!(run::<5, HISTORY_SLOTS>(p, depth, config), default, "{p}");
        for exact in [
            run::<0, 7>(p, depth, EngineConfig::exact()),
            run::<2, 64>(p, depth, EngineConfig::exact()),
        ] {
            assert_eq!(exact.value, ab, "{p}");
        }
        history_changed_the_order |= run::<5, 7>(p, depth, config).nodes != default.nodes;
    }
    assert!(history_changed_the_order);
}

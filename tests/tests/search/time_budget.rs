//! The engine's time limit is hard at any node rate: with a test clock whose time
//! advances only as the search visits nodes (a game wrapper charges a fixed number of
//! microseconds whenever the search keys a node, an evaluation the same: from a
//! microsecond to several milliseconds a node), every search returns within the limit
//! plus the documented overshoot — at most 2 ms or two nodes' cost, whichever is
//! larger — whatever the cost. No wall clock is read, so the test cannot be flaky;
//! the wall-clock measurement of whole moves is `scripts/time-budget.sh`.

use std::cell::Cell;
use std::fmt;

use ply_core::games::draughts::{Draughts, DraughtsEval, Rules};
use ply_core::games::kalah::{Kalah, KalahEval};
use ply_core::search::{Clock, Engine, EngineConfig, Evaluator, Limits, Score, TtEntry};
use ply_core::{Game, Outcome, Player};

thread_local! {
    /// Simulated time in microseconds.
    static NOW: Cell<u64> = const { Cell::new(0) };
    /// What a node costs, in microseconds.
    static COST: Cell<u64> = const { Cell::new(0) };
}

fn charge() {
    NOW.with(|n| n.set(n.get() + COST.with(Cell::get)));
}

/// The simulated time.
struct TestClock;

impl Clock for TestClock {
    fn elapsed_ms(&self) -> u64 {
        NOW.with(Cell::get) / 1000
    }
    fn elapsed_us(&self) -> u64 {
        NOW.with(Cell::get)
    }
}

/// A game whose nodes cost simulated time: every key the search asks for (once per
/// searched node) is charged.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Timed<G>(G);

impl<G: Game> fmt::Display for Timed<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl<G: Game> Game for Timed<G> {
    type Move = G::Move;
    type MoveList = G::MoveList;
    type Rules = G::Rules;
    fn start(rules: G::Rules) -> Self {
        Timed(G::start(rules))
    }
    fn parse_rules(params: &str) -> Result<G::Rules, ply_core::ParseError> {
        G::parse_rules(params)
    }
    fn rules(&self) -> G::Rules {
        self.0.rules()
    }
    fn parse_position(rules: G::Rules, text: &str) -> Result<Self, ply_core::ParseError> {
        G::parse_position(rules, text).map(Timed)
    }
    fn side_to_move(&self) -> Player {
        self.0.side_to_move()
    }
    fn outcome(&self) -> Outcome {
        self.0.outcome()
    }
    fn hash(&self) -> u64 {
        self.0.hash()
    }
    fn search_key(&self) -> u64 {
        charge();
        self.0.search_key()
    }
    fn generate_moves(&self, moves: &mut G::MoveList) {
        self.0.generate_moves(moves)
    }
    fn play_unchecked(&self, mv: G::Move) -> Self {
        Timed(self.0.play_unchecked(mv))
    }
    fn parse_move(&self, text: &str) -> Result<G::Move, ply_core::ParseError> {
        self.0.parse_move(text)
    }
    fn write_move(&self, mv: G::Move, out: &mut dyn fmt::Write) -> fmt::Result {
        self.0.write_move(mv, out)
    }
    fn is_quiet(&self) -> bool {
        self.0.is_quiet()
    }
    fn move_order_hint(&self, mv: G::Move) -> i32 {
        self.0.move_order_hint(mv)
    }
}

/// An evaluation of `Timed` games that costs as much as a node.
#[derive(Clone, Copy)]
struct Costly<E>(E);

impl<G: Game, E: Evaluator<G>> Evaluator<Timed<G>> for Costly<E> {
    fn evaluate(&self, game: &Timed<G>, me: Player) -> Score {
        charge();
        self.0.evaluate(&game.0, me)
    }
    fn terminal(&self, game: &Timed<G>, outcome: Outcome, ply: u32) -> Score {
        charge();
        self.0.terminal(&game.0, outcome, ply)
    }
}

/// Searches `game` under several time limits at every node cost, checking that each
/// search returns within the allowance past its limit.
fn check<G: Game, E: Evaluator<G> + Copy>(game: G, eval: E) {
    let game = Timed(game);
    let mut slots = vec![TtEntry::EMPTY; 1 << 14];
    for us in [1, 7, 50, 300, 999, 1000, 1500, 4000, 12_000] {
        for limit_ms in [5, 50, 200] {
            NOW.with(|n| n.set(0));
            COST.with(|c| c.set(us));
            let mut engine =
                Engine::new(&mut slots, Costly(eval), TestClock, EngineConfig::default());
            let r = engine.search(&game, Limits::time_ms(limit_ms));
            let spent = NOW.with(Cell::get);
            let allowed = limit_ms * 1000 + (2 * us).max(2000);
            assert!(
                spent <= allowed,
                "{us} µs per evaluation, limit {limit_ms} ms: returned after {spent} µs"
            );
            assert!(r.best_move.is_some(), "{us} µs, {limit_ms} ms: no move");
            // A fixed time a move is spent whole: every iteration starts while time
            // is left, so only the limit ends the search.
            assert!(
                spent >= limit_ms * 1000,
                "{us} µs, {limit_ms} ms: stopped after {spent} µs"
            );
        }
    }
}

/// A search under a game clock: each completed iteration's depth, best move and the
/// simulated time it ended (µs); the time the search returned; whether the hard limit
/// cut it short.
type ClockRun<M> = (Vec<(u32, M, u64)>, u64, bool);

/// One search under a game clock's soft limit: each completed iteration's depth, best
/// move and the simulated time it ended (µs), and the time the search returned.
fn clock_search<G: Game, E: Evaluator<G> + Copy>(
    game: G,
    eval: E,
    soft_ms: u64,
    hard_ms: u64,
) -> ClockRun<G::Move> {
    let game = Timed(game);
    let mut slots = vec![TtEntry::EMPTY; 1 << 14];
    NOW.with(|n| n.set(0));
    COST.with(|c| c.set(5));
    let mut engine = Engine::new(&mut slots, Costly(eval), TestClock, EngineConfig::default());
    let mut done = Vec::new();
    let r = engine.search_with_progress(&game, Limits::clock_ms(soft_ms, hard_ms), |r| {
        done.push((r.depth, r.best_move.unwrap(), NOW.with(Cell::get)));
    });
    (done, NOW.with(Cell::get), r.aborted)
}

/// The cutoff (µs) for starting the iteration after `done`: the soft limit, stretched
/// when the best move changed in one of the last two completed iterations.
fn cutoff<M: PartialEq>(done: &[(u32, M, u64)], soft_ms: u64) -> u64 {
    let n = done.len();
    let changed = |k: usize| k >= 1 && k < n && done[k].1 != done[k - 1].1;
    let stretch = changed(n - 1) || (n >= 2 && changed(n - 2));
    if stretch {
        soft_ms * 1000 * ply_core::search::clock::SOFT_STRETCH_PERCENT / 100
    } else {
        soft_ms * 1000
    }
}

/// Counts of the two rules seen: iterations started in a stretched cutoff, and
/// searches that stopped at their plain soft limit where a stretched one would have
/// gone on.
#[derive(Default)]
struct Seen {
    stretched: u32,
    stopped_stable: u32,
}

/// Checks one search under a game clock against the rule of [`Limits::soft_ms`].
fn check_clock<M: PartialEq>(
    case: &str,
    (done, spent, aborted): ClockRun<M>,
    soft: u64,
    hard: u64,
    seen: &mut Seen,
) {
    assert!(spent <= hard * 1000 + 2000, "{case}: {spent} µs");
    // Every iteration after the first started before its cutoff.
    for k in 1..done.len() {
        let started = done[k - 1].2;
        assert!(
            started < cutoff(&done[..k], soft),
            "{case}: iteration {} started at {started} µs",
            done[k].0
        );
        if started >= soft * 1000 {
            seen.stretched += 1;
        }
    }
    // The search ended for its cutoff, not before: either the next iteration was cut
    // short by the hard limit, or it was not started because the cutoff had passed.
    if !aborted {
        let last = done.last().unwrap().2;
        assert!(last >= cutoff(&done, soft), "{case}: stopped at {last} µs");
        let stretched_cutoff = soft * 1000 * ply_core::search::clock::SOFT_STRETCH_PERCENT / 100;
        if last < stretched_cutoff && cutoff(&done, soft) == soft * 1000 {
            seen.stopped_stable += 1;
        }
    }
}

#[test]
fn a_game_clock_stops_at_the_soft_limit_and_stretches_it_when_the_best_move_changes() {
    let hard = 1000;
    let mut seen = Seen::default();
    let g = Draughts::new(Rules::english());
    for soft in [4, 7, 10, 15, 20, 30] {
        // A random evaluation changes its mind often; the real one seldom.
        for seed in 0..12 {
            let eval = ply_core::search::RandomEval { seed };
            let r = clock_search(g, eval, soft, hard);
            check_clock(
                &format!("seed {seed}, soft {soft}"),
                r,
                soft,
                hard,
                &mut seen,
            );
        }
        let r = clock_search(g, DraughtsEval::STANDARD, soft, hard);
        check_clock(&format!("standard, soft {soft}"), r, soft, hard, &mut seen);
        let k = Kalah::start(Kalah::parse_rules("6x4").unwrap());
        let r = clock_search(k, KalahEval, soft, hard);
        check_clock(&format!("kalah, soft {soft}"), r, soft, hard, &mut seen);
    }
    // Both rules were exercised.
    assert!(
        seen.stretched > 0,
        "no iteration started in a stretched cutoff"
    );
    assert!(
        seen.stopped_stable > 0,
        "no search stopped at its plain soft limit"
    );
}

#[test]
fn the_time_limit_holds_at_any_node_rate_in_kalah() {
    let g = Kalah::start(Kalah::parse_rules("6x4").unwrap());
    check(g, KalahEval);
}

#[test]
fn the_time_limit_holds_at_any_node_rate_in_draughts() {
    let g = Draughts::new(Rules::english());
    check(g, DraughtsEval::STANDARD);
}

#[test]
fn a_stop_request_ends_the_search_at_once() {
    // The clock asks to stop after a number of reads: the search ends at the next
    // check, with the best move of the deepest completed iteration.
    struct StopAfter(Cell<u32>);
    impl Clock for StopAfter {
        fn elapsed_ms(&self) -> u64 {
            0
        }
        fn stop_requested(&self) -> bool {
            let n = self.0.get();
            self.0.set(n + 1);
            n >= 40
        }
    }
    let mut slots = vec![TtEntry::EMPTY; 1 << 12];
    let g = Draughts::new(Rules::english());
    let mut engine = Engine::new(
        &mut slots,
        DraughtsEval::STANDARD,
        StopAfter(Cell::new(0)),
        EngineConfig::default(),
    );
    let r = engine.search(&g, Limits::depth(30));
    assert!(r.aborted);
    assert!(r.depth < 30);
    assert!(g.legal_moves().contains(&r.best_move.unwrap()));
}

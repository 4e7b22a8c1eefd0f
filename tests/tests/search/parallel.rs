//! Every strategy returns, at a fixed depth, exactly the value of sequential
//! alpha-beta (and of minimax where that is affordable) and a move that reaches it,
//! at odd and even depths, at 1, 2, 3 and 8 threads (more threads than this machine
//! has cores), under every evaluation a user can name for each game (the evaluations
//! that are not antisymmetric, Halma's, included) and under deterministic
//! pseudo-random ones — through one shared helper, [`check_all`]. The core engine in
//! its exact mode, over its caller-memory table, is checked by the same helper.

use ply_core::games::draughts::DraughtsEval;
use ply_core::games::halma::eval::{Manhattan, Racer};
use ply_core::games::kalah::{KalahEval, StoreDifference};
use ply_core::games::{Draughts, Halma16, Halma8, Kalah, TicTacToe};
use ply_core::search::alphabeta::move_value;
use ply_core::search::{
    alphabeta, minimax, Engine, EngineConfig, Evaluator, FnEval, Limits, NoClock, RandomEval,
    TtEntry,
};
use ply_core::Game;
use ply_host::parallel::{self, Algo, Options, ParallelError};
use ply_host::HostGame;

const THREADS: [usize; 4] = [1, 2, 3, 8];
/// The strategies that return alpha-beta's value exactly at a fixed depth.
const EXACT: [Algo; 5] = [
    Algo::TopLevel,
    Algo::Chunked,
    Algo::Ybwc,
    Algo::LazySmp,
    Algo::Abdada,
];
/// Those and the full-strength engine (whose move is only checked to be legal).
const PARALLEL: [Algo; 6] = [
    Algo::Engine,
    Algo::TopLevel,
    Algo::Chunked,
    Algo::Ybwc,
    Algo::LazySmp,
    Algo::Abdada,
];

/// `count` positions: the start, then those reached by pseudo-random playouts of at
/// most `max_plies` plies.
fn positions<G: Game>(start: G, count: usize, max_plies: usize, seed: u64) -> Vec<G> {
    ply_core::playout::positions(start, max_plies, seed)
        .take(count)
        .collect()
}

/// Checks one strategy's result against sequential alpha-beta's, `expected`.
fn check_against<G, E>(
    expected: &ply_core::search::SearchResult<G::Move>,
    game: &G,
    depth: u32,
    eval: &E,
    algo: Algo,
    options: &Options,
) where
    G: Game + Send + Sync + 'static,
    G::Move: Send + Sync,
    E: Evaluator<G> + Clone + Send + Sync + 'static,
{
    let r = parallel::search(algo, game, depth, eval, options).unwrap();
    if algo == Algo::Engine {
        // The full-strength engine (quiescence, deeper cutoffs) searches another
        // tree: its move must be legal, its value is its own.
        if let Some(mv) = r.best_move {
            assert!(game.legal_moves().contains(&mv), "engine: illegal {mv:?}");
        }
        return;
    }
    assert_eq!(
        r.value, expected.value,
        "{algo} with {options:?} disagrees with alpha-beta at depth {depth} on\n{game}"
    );
    match (expected.best_move, r.best_move) {
        (None, None) => {}
        (Some(_), Some(mv)) => assert_eq!(
            move_value(game, mv, depth, eval),
            expected.value,
            "{algo} with {options:?} chose {mv:?}, not a best move, at depth {depth} on\n{game}"
        ),
        (e, got) => panic!("{algo}: best move {got:?} where alpha-beta has {e:?} on\n{game}"),
    }
    assert!(r.nodes >= 1);
}

/// The core engine in its exact mode over a caller-memory table: alpha-beta's value
/// and a best move.
fn check_engine<G: Game, E: Evaluator<G>>(game: &G, depth: u32, eval: &E, slots: usize) {
    let expected = alphabeta(game, depth, eval);
    let mut table = vec![TtEntry::EMPTY; slots];
    let mut engine = Engine::new(&mut table, eval, NoClock, EngineConfig::exact());
    let r = engine.search(game, Limits::depth(depth));
    assert_eq!(
        r.value, expected.value,
        "the exact engine ({slots} slots) disagrees with alpha-beta at depth {depth} on\n{game}"
    );
    if let Some(mv) = r.best_move {
        assert_eq!(move_value(game, mv, depth, eval), expected.value);
    }
}

/// The one helper every agreement test goes through: every strategy at every thread
/// count (YBWC at every parallel depth, the shared table also tiny), and the core
/// engine in exact mode, on every position, at each of `depths`.
fn check_all<G, E>(positions: &[G], depths: &[u32], eval: &E)
where
    G: Game + Send + Sync + 'static,
    G::Move: Send + Sync,
    E: Evaluator<G> + Clone + Send + Sync + 'static,
{
    for &depth in depths {
        for game in positions {
            check_depth(game, depth, eval);
        }
    }
}

fn check_depth<G, E>(game: &G, depth: u32, eval: &E)
where
    G: Game + Send + Sync + 'static,
    G::Move: Send + Sync,
    E: Evaluator<G> + Clone + Send + Sync + 'static,
{
    let expected = alphabeta(game, depth, eval);
    let check = |algo: Algo, options: &Options| {
        check_against(&expected, game, depth, eval, algo, options);
    };
    check_engine(game, depth, eval, 1 << 12);
    check_engine(game, depth, eval, 3);
    for &threads in &THREADS {
        for algo in PARALLEL {
            check(algo, &Options::threads(threads));
        }
        for pd in 1..=depth + 1 {
            let options = Options {
                parallel_depth: Some(pd),
                ..Options::threads(threads)
            };
            check(Algo::Ybwc, &options);
        }
        // A tiny shared table: constant collisions and replacements.
        let options = Options {
            table_slots: Some(7),
            ..Options::threads(threads)
        };
        check(Algo::LazySmp, &options);
        check(Algo::Abdada, &options);
    }
}

/// Every evaluation a user can name for `G` with `--eval`, explicit Halma weights
/// (negative and fractional ones) standing for the `m1,m2,m3,m4` form.
fn named_evaluations<G: HostGame>() -> Vec<(&'static str, G::Eval)> {
    G::evaluator_names()
        .iter()
        .map(|&n| {
            if n == "m1,m2,m3,m4" {
                "1,-2.5,0.5,1"
            } else {
                n
            }
        })
        .map(|n| (n, G::evaluator(Some(n)).unwrap()))
        .collect()
}

/// Every named evaluation of `G` through [`check_all`], at odd and even depths.
fn check_named<G: HostGame>(positions: &[G], depths: &[u32]) {
    let names = named_evaluations::<G>();
    assert!(!names.is_empty());
    for (name, eval) in names {
        eprintln!("{}: {name}", G::NAME);
        check_all(positions, depths, &eval);
    }
}

#[test]
fn tictactoe_named_evaluations_at_odd_and_even_depths() {
    check_named(&positions(TicTacToe::new(), 6, 4, 3), &[1, 2, 3, 4]);
}

#[test]
fn kalah_named_evaluations_at_odd_and_even_depths() {
    for spec in ["6x4", "6x4:empty-capture"] {
        check_named(&positions(kalah(spec), 3, 10, 5), &[3, 4]);
    }
}

#[test]
fn draughts_named_evaluations_at_odd_and_even_depths() {
    for spec in ["english", "calgary"] {
        check_named(&positions(draughts(spec), 3, 16, 9), &[3, 4]);
    }
}

#[test]
fn halma8_named_evaluations_at_odd_and_even_depths() {
    // The evaluations that are not antisymmetric (racer, s1..s8, explicit weights)
    // gave the parallel strategies another value than alpha-beta at odd depths
    // before the search, not its caller, fixed the perspective.
    check_named(
        &positions(Halma8::new(Default::default()), 2, 12, 5),
        &[1, 2, 3],
    );
}

#[test]
fn halma16_named_evaluations_at_odd_and_even_depths() {
    check_named(
        &positions(Halma16::new(Default::default()), 2, 12, 7),
        &[1, 2],
    );
}

#[test]
fn tictactoe_all_strategies_equal_minimax() {
    // Centre and corners are worth more: weighted marks of the side to move minus
    // the opponent's.
    let eval = FnEval(|g: &TicTacToe| {
        let worth = |bb: u16| -> i32 {
            (0..9)
                .filter(|sq| bb & (1 << sq) != 0)
                .map(|sq| [3, 2, 3, 2, 4, 2, 3, 2, 3][sq])
                .sum()
        };
        let me = g.side_to_move();
        worth(g.marks(me)) - worth(g.marks(me.opponent()))
    });
    let positions = positions(TicTacToe::new(), 12, 6, 1);
    for p in &positions {
        let depth = 9;
        let mm = minimax(p, depth, &eval);
        for algo in EXACT {
            for &threads in &THREADS {
                let r =
                    parallel::search(algo, p, depth, &eval, &Options::threads(threads)).unwrap();
                assert_eq!(r.value, mm.value, "{algo} at {threads} threads on\n{p}");
            }
        }
    }
    check_all(&positions, &[4], &eval);
    check_all(&positions[..4], &[9], &eval);
}

#[test]
fn tictactoe_random_evaluations() {
    let positions = positions(TicTacToe::new(), 10, 5, 7);
    for seed in 0..4 {
        let eval = RandomEval { seed };
        for depth in [1, 2, 3, 5] {
            check_all(&positions, &[depth], &eval);
        }
    }
}

#[test]
fn sequential_algorithms_through_the_dispatcher() {
    let eval = RandomEval { seed: 3 };
    let g = TicTacToe::new();
    let ab = alphabeta(&g, 5, &eval);
    let mm = minimax(&g, 5, &eval);
    let r = parallel::search(Algo::AlphaBeta, &g, 5, &eval, &Options::threads(4)).unwrap();
    assert_eq!(
        (r.value, r.best_move, r.nodes),
        (ab.value, ab.best_move, ab.nodes)
    );
    let r = parallel::search(Algo::Minimax, &g, 5, &eval, &Options::threads(4)).unwrap();
    assert_eq!(
        (r.value, r.best_move, r.nodes),
        (mm.value, mm.best_move, mm.nodes)
    );
}

#[test]
fn toplevel_and_chunked_return_alphabetas_first_best_move() {
    // Both give every root move an exact value or a bound below the best so far, so
    // they pick the same (first in generation order) best move as alpha-beta.
    for seed in 0..6 {
        let eval = RandomEval { seed };
        for p in positions(TicTacToe::new(), 8, 4, seed + 100) {
            let ab = alphabeta(&p, 4, &eval);
            for algo in [Algo::TopLevel, Algo::Chunked] {
                for threads in THREADS {
                    let r =
                        parallel::search(algo, &p, 4, &eval, &Options::threads(threads)).unwrap();
                    assert_eq!(r.best_move, ab.best_move, "{algo} at {threads} threads");
                }
            }
        }
    }
}

#[test]
fn finished_game_and_depth_zero() {
    let eval = RandomEval { seed: 9 };
    let won = TicTacToe::parse_position((), "xxxoo....").unwrap();
    assert!(won.outcome().is_over());
    for algo in Algo::ALL {
        for (g, depth) in [(won, 3), (TicTacToe::new(), 0)] {
            let r = parallel::search(algo, &g, depth, &eval, &Options::threads(2)).unwrap();
            let ab = alphabeta(&g, depth, &eval);
            assert_eq!((r.value, r.best_move), (ab.value, None), "{algo}");
        }
    }
}

#[test]
fn zero_threads_is_an_error_not_a_panic() {
    let g = TicTacToe::new();
    for algo in EXACT {
        let e = parallel::search(algo, &g, 3, &RandomEval { seed: 1 }, &Options::threads(0));
        assert!(matches!(e, Err(ParallelError::NoThreads)), "{algo}");
    }
    assert!(matches!(
        parallel::perft::perft(&g, 3, 0),
        Err(ParallelError::NoThreads)
    ));
    assert_eq!(
        ParallelError::NoThreads.to_string(),
        "--threads must be at least 1"
    );
}

#[test]
fn algorithm_names_round_trip_and_reject_unknown() {
    for algo in Algo::ALL {
        assert_eq!(algo.name().parse::<Algo>(), Ok(algo));
    }
    let e = "ybwcc".parse::<Algo>().unwrap_err();
    assert!(e.contains("ybwcc") && e.contains("lazysmp"), "{e}");
}

#[test]
fn parallel_perft_equals_sequential() {
    for g in positions(TicTacToe::new(), 6, 3, 5) {
        for depth in 0..=7 {
            let expected = ply_core::perft::perft(&g, depth);
            for threads in THREADS {
                assert_eq!(
                    parallel::perft::perft(&g, depth, threads).unwrap(),
                    expected
                );
                let divide = parallel::perft::perft_divide(&g, depth, threads).unwrap();
                let mut seq = Vec::new();
                ply_core::perft::perft_divide(&g, depth, |m, n| seq.push((m, n)));
                assert_eq!(divide, seq);
            }
        }
    }
}

#[test]
fn chunk_size_follows_seed_000() {
    use parallel::chunked::chunk_size;
    assert_eq!(chunk_size(440, 12), 37);
    assert_eq!(chunk_size(9, 2), 5);
    assert_eq!(chunk_size(3, 8), 1);
    assert_eq!(chunk_size(0, 2), 1);
    assert_eq!(chunk_size(5, 0), 5);
}

fn kalah(spec: &str) -> Kalah {
    Kalah::start(Kalah::parse_rules(spec).unwrap())
}

#[test]
fn kalah_all_strategies_equal_alphabeta() {
    // Extra turns: children with the same side to move, window passed unchanged.
    for spec in ["6x4", "4x3", "6x4:empty-capture"] {
        let positions = positions(kalah(spec), 5, 12, 11);
        check_all(&positions, &[5], &KalahEval);
        check_all(&positions, &[4], &StoreDifference);
        check_all(&positions[..2], &[4], &RandomEval { seed: 5 });
    }
}

#[test]
fn kalah_deeper_with_minimax() {
    let g = kalah("4x3");
    let eval = RandomEval { seed: 21 };
    let mm = minimax(&g, 6, &eval);
    for algo in EXACT {
        for threads in THREADS {
            let r = parallel::search(algo, &g, 6, &eval, &Options::threads(threads)).unwrap();
            assert_eq!(r.value, mm.value, "{algo} at {threads} threads");
        }
    }
    // Deep enough that parallel subtrees are cut off while running.
    check_all(&[kalah("6x4")], &[8], &KalahEval);
}

#[test]
fn kalah_parallel_perft() {
    let g = kalah("6x4");
    let expected = ply_core::perft::perft(&g, 6);
    for threads in THREADS {
        assert_eq!(parallel::perft::perft(&g, 6, threads).unwrap(), expected);
    }
}

fn draughts(spec: &str) -> Draughts {
    Draughts::new(Draughts::parse_rules(spec).unwrap())
}

/// Draughts positions with kings on the board (both sides, either to move), where
/// the English repetition draw and the Calgary no-repetition rule can come into play.
const DRAUGHTS_KINGS: [&str; 3] = [
    "W:WK22,K18,25,30:BK5,K10,3,7",
    "B:WK14,21,26,K31:BK19,K23,2,6,9",
    "W:WK1,K32:BK16,K17",
];

// English draughts' repetition draw (third occurrence), its move limit and the
// Calgary rule against recreating an earlier position make a value depend on the
// history, which the position carries with it (copy-make), so every strategy sees the
// same history as alpha-beta along every line. The Lazy SMP / ABDADA shared table is
// keyed by `Game::search_key`, which for draughts folds that history in, so a result
// found under one history is never used under another: the king positions are
// searched deep enough for repetitions and forbidden king moves to occur inside the
// search (a forbidden Calgary recurrence needs 4 plies, an English third occurrence 8).

#[test]
fn draughts_all_strategies_equal_alphabeta() {
    for spec in ["english", "calgary"] {
        let eval = DraughtsEval::STANDARD;
        let positions = positions(draughts(spec), 4, 30, 17);
        check_all(&positions, &[6], &eval);
        check_all(&positions[..2], &[4], &RandomEval { seed: 8 });
        let kings: Vec<Draughts> = DRAUGHTS_KINGS
            .iter()
            .map(|fen| Draughts::parse_position(draughts(spec).rules(), fen).unwrap())
            .collect();
        // Deep enough for repetitions inside the search (see above).
        let depth = 9;
        check_all(&kings, &[depth], &eval);
        check_all(&kings, &[depth - 2], &RandomEval { seed: 2 });
    }
}

#[test]
fn draughts_with_minimax() {
    let eval = RandomEval { seed: 33 };
    for spec in ["english", "calgary"] {
        for g in positions(draughts(spec), 3, 20, 4) {
            let mm = minimax(&g, 6, &eval);
            for algo in EXACT {
                for threads in THREADS {
                    let r =
                        parallel::search(algo, &g, 6, &eval, &Options::threads(threads)).unwrap();
                    assert_eq!(r.value, mm.value, "{algo} at {threads} threads on\n{g}");
                }
            }
        }
    }
}

#[test]
fn draughts_parallel_perft() {
    for spec in ["english", "calgary"] {
        let g = draughts(spec);
        let expected = ply_core::perft::perft(&g, 7);
        for threads in THREADS {
            assert_eq!(parallel::perft::perft(&g, 7, threads).unwrap(), expected);
        }
    }
}

const HALMA8_MIDDLE: &str = include_str!("../../../benches/data/halma8_middle.txt");

#[test]
fn halma8_all_strategies_equal_alphabeta() {
    let middle = Halma8::parse_position(Default::default(), HALMA8_MIDDLE.trim()).unwrap();
    // The Haskell Halma report's workload (docs/references.md): depth 3 with the
    // Manhattan evaluation, against minimax too.
    let mm = minimax(&middle, 3, &Manhattan);
    for algo in EXACT {
        for threads in THREADS {
            let r =
                parallel::search(algo, &middle, 3, &Manhattan, &Options::threads(threads)).unwrap();
            assert_eq!(r.value, mm.value, "{algo} at {threads} threads");
        }
    }
    check_all(&[middle], &[3], &Manhattan);
    check_all(&[middle], &[3], &Racer::DEFAULT);
    check_all(&[middle], &[2], &RandomEval { seed: 4 });
    let positions = positions(Halma8::new(Default::default()), 4, 40, 23);
    check_all(&positions, &[3], &Manhattan);
    check_all(&positions, &[2], &RandomEval { seed: 6 });
}

#[test]
fn halma16_all_strategies_equal_alphabeta() {
    let positions = positions(Halma16::new(Default::default()), 3, 40, 29);
    check_all(&positions, &[2], &Manhattan);
    check_all(&positions, &[2], &Racer::DEFAULT);
    check_all(&positions[..2], &[2], &RandomEval { seed: 10 });
}

#[test]
fn halma_parallel_perft() {
    let middle = Halma8::parse_position(Default::default(), HALMA8_MIDDLE.trim()).unwrap();
    let big = Halma16::new(Default::default());
    let expected8 = ply_core::perft::perft(&middle, 3);
    let expected16 = ply_core::perft::perft(&big, 3);
    for threads in THREADS {
        assert_eq!(
            parallel::perft::perft(&middle, 3, threads).unwrap(),
            expected8
        );
        assert_eq!(
            parallel::perft::perft(&big, 3, threads).unwrap(),
            expected16
        );
    }
}

#[test]
fn ybwc_at_two_threads_searches_about_alphabetas_nodes() {
    // Young brothers start one at a time in generation order, each with the best
    // bound known then, so at 2 threads YBWC searches close to alpha-beta's tree.
    // Handing out the young brothers by halving their range instead (a parallel
    // iterator) gave 1.5x (root split only) and 1.6x (default) alpha-beta's nodes
    // here; the limit leaves room for timing, which decides who takes what.
    let g = kalah("6x4");
    let depth = 13;
    let ab = alphabeta(&g, depth, &StoreDifference);
    for parallel_depth in [Some(depth), None] {
        let options = Options {
            parallel_depth,
            ..Options::threads(2)
        };
        // Which thread takes which brother depends on timing (other tests run
        // beside this one), so a run may be unlucky: the best of three must be under
        // the limit. The old hand-out exceeded it on every run.
        let mut fewest = u64::MAX;
        for _ in 0..3 {
            let r = parallel::search(Algo::Ybwc, &g, depth, &StoreDifference, &options).unwrap();
            assert_eq!(r.value, ab.value);
            fewest = fewest.min(r.nodes);
            if (fewest as f64) < 1.3 * ab.nodes as f64 {
                break;
            }
        }
        assert!(
            (fewest as f64) < 1.3 * ab.nodes as f64,
            "ybwc {options:?}: at best {} nodes in three runs, alpha-beta {}",
            fewest,
            ab.nodes
        );
    }
}

#[test]
fn ybwc_searches_the_eldest_brother_before_any_young_brother() {
    use ply_core::Player;
    use std::sync::Mutex;
    // Depth 2 from the empty tic-tac-toe board: every leaf is one x and one o, so the
    // evaluation order shows which root move (the x) and which reply (the o) each
    // evaluation belongs to. Young brothers may not start before their eldest brother
    // has been searched: at the root (all of x's eldest move's leaves come first) and,
    // with `parallel_depth` 1, at every child too (each child's first evaluation is its
    // eldest reply), at thread counts that leave threads idle to steal.
    let start = TicTacToe::new();
    let children: Vec<TicTacToe> = start
        .legal_moves()
        .iter()
        .map(|&m| start.play_unchecked(m))
        .collect();
    let eldest_x = children[0].marks(Player::First);
    for threads in [2, 3, 8] {
        for parallel_depth in [1, 2] {
            for seed in 0..4 {
                let random = RandomEval { seed };
                let log = Mutex::new(Vec::new());
                let eval = FnEval(|g: &TicTacToe| {
                    log.lock()
                        .unwrap()
                        .push((g.marks(Player::First), g.marks(Player::Second)));
                    random.evaluate(g, g.side_to_move())
                });
                let options = Options {
                    parallel_depth: Some(parallel_depth),
                    ..Options::threads(threads)
                };
                let r = parallel::ybwc::search(&start, 2, &eval, threads, parallel_depth).unwrap();
                assert_eq!(r.value, alphabeta(&start, 2, &random).value);
                let log = log.into_inner().unwrap();
                let eldest = log.iter().take_while(|(x, _)| *x == eldest_x).count();
                assert!(
                    eldest > 0,
                    "{options:?}: the eldest brother was not searched first"
                );
                assert!(
                    log[eldest..].iter().all(|(x, _)| *x != eldest_x),
                    "{options:?}: a young brother started before the eldest finished: {log:?}"
                );
                if parallel_depth == 1 {
                    for child in &children {
                        let x = child.marks(Player::First);
                        let eldest_reply = child.play_unchecked(child.legal_moves()[0]);
                        if let Some(&(_, o)) = log.iter().find(|(lx, _)| *lx == x) {
                            assert_eq!(
                                o,
                                eldest_reply.marks(Player::Second),
                                "{options:?}: below {x:#b} a young brother came first"
                            );
                        }
                    }
                }
            }
        }
    }
}

/// `minimax` and `alphabeta` (and the seed strategies) never allocate a table; the
/// engine-based strategies allocate theirs once and keep it from search to search.
#[test]
fn only_the_engine_strategies_allocate_a_table() {
    use ply_core::search::Limits;
    use ply_host::clock::WallClock;
    let g = TicTacToe::new();
    let eval = RandomEval { seed: 1 };
    let mut tables = parallel::Tables::new();
    let run = |algo: Algo, threads: usize, tables: &mut parallel::Tables| {
        let options = Options {
            hash_mb: 1,
            ..Options::threads(threads)
        };
        let limits = Limits::depth(3);
        parallel::run(
            algo,
            &g,
            limits,
            &eval,
            &options,
            tables,
            WallClock::start(),
            &mut |_| {},
        )
        .unwrap();
        tables.allocated_bytes()
    };
    for algo in [
        Algo::Minimax,
        Algo::AlphaBeta,
        Algo::TopLevel,
        Algo::Chunked,
        Algo::Ybwc,
    ] {
        let threads = if algo.is_parallel() { 2 } else { 1 };
        assert_eq!(
            run(algo, threads, &mut tables),
            0,
            "{algo} allocated a table"
        );
    }
    let shared = run(Algo::LazySmp, 2, &mut tables);
    assert_eq!(shared, 1 << 20);
    assert_eq!(
        run(Algo::Abdada, 2, &mut tables),
        shared,
        "the shared table is kept"
    );
    assert_eq!(run(Algo::Engine, 1, &mut tables), shared + (1 << 20));
}

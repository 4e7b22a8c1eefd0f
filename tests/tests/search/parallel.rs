//! Every strategy returns, at a fixed depth, exactly the value of sequential
//! alpha-beta (and of minimax where that is affordable) and a move that reaches it,
//! at odd and even depths, at 1, 2, 3 and 8 threads (more threads than this machine
//! has cores), under every evaluation a user can name for each game (the evaluations
//! that are not antisymmetric, Halma's, included) and under deterministic
//! pseudo-random ones — through one shared helper, [`check_all`]. The core engine in
//! its exact mode, over its caller-memory table, is checked by the same helper.
//!
//! Here the helpers and every game under its named evaluations; each game's own
//! positions, random evaluations and parallel perft in `parallel/games.rs`; the
//! dispatcher and what is particular to a strategy in `parallel/dispatch.rs`.

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

mod dispatch;
mod games;

use games::{draughts, kalah};

const THREADS: [usize; 4] = [1, 2, 3, 8];
/// The strategies that return alpha-beta's value exactly at a fixed depth.
const EXACT: [Algo; 5] = [
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
        // Every strategy after the two sequential references (minimax, alpha-beta):
        // EXACT and the full-strength engine (whose move is only checked to be legal).
        for &algo in &Algo::ALL[2..] {
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
/// (negative and fractional ones) standing for the `m1,m2,m3,m4` form and a file
/// holding the shipped draughts network for `network:FILE`.
fn named_evaluations<G: HostGame>() -> Vec<(&'static str, G::Eval)> {
    G::evaluator_names()
        .iter()
        .map(|&n| match n {
            "m1,m2,m3,m4" => (n, G::evaluator(Some("1,-2.5,0.5,1")).unwrap()),
            "network:FILE" => (n, from_network_file::<G>()),
            _ => (n, G::evaluator(Some(n)).unwrap()),
        })
        .collect()
}

/// The evaluation `network:PATH` of `G` for a file holding the shipped draughts
/// network (read once: the file is removed at once).
fn from_network_file<G: HostGame>() -> G::Eval {
    use ply_core::games::draughts::{network::NETWORK_BYTES, Network};
    let path = std::env::temp_dir().join(format!("ply-parallel-{}.net", std::process::id()));
    let mut bytes = vec![0u8; NETWORK_BYTES];
    Network::SHIPPED.write_bytes(&mut bytes).unwrap();
    std::fs::write(&path, &bytes).unwrap();
    let eval = G::evaluator(Some(&format!("network:{}", path.display())));
    std::fs::remove_file(&path).unwrap();
    eval.unwrap()
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

//! The dispatcher and what is particular to a strategy: the sequential algorithms
//! through `parallel::run`, first-best-move ties, finished games and depth zero, thread
//! counts, algorithm names, chunk sizes, YBWC's order and nodes, and which strategies
//! allocate a table.

use super::*;
use ply_core::search::Stored;

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
fn chunk_size_follows_seed_000() {
    use parallel::chunked::chunk_size;
    assert_eq!(chunk_size(440, 12), 37);
    assert_eq!(chunk_size(9, 2), 5);
    assert_eq!(chunk_size(3, 8), 1);
    assert_eq!(chunk_size(0, 2), 1);
    assert_eq!(chunk_size(5, 0), 5);
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
                let pool = parallel::pool(threads).unwrap();
                let r = pool.install(|| parallel::ybwc::search(&start, 2, &eval, parallel_depth));
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

/// A table that reports one position as searched by another engine (ABDADA's busy
/// mark) and records every position the engine enters.
struct OneBusy<'t> {
    inner: ply_core::search::TranspositionTable<&'t mut [TtEntry]>,
    busy: u64,
    entered: Vec<u64>,
}

impl ply_core::search::Table for OneBusy<'_> {
    fn probe(&self, key: u64, ply: u32) -> Option<Stored> {
        self.inner.probe(key, ply)
    }
    fn store(&mut self, key: u64, ply: u32, entry: Stored) {
        self.inner.store(key, ply, entry)
    }
    fn is_busy(&self, key: u64) -> bool {
        key == self.busy
    }
    fn enter(&mut self, key: u64) {
        self.entered.push(key);
    }
}

#[test]
fn abdada_puts_off_a_root_move_another_engine_is_searching_and_still_searches_it() {
    // Each root move but the first, marked busy in turn: the engine (ABDADA, exact
    // mode) enters that move's position after every other root move's, and still
    // returns alpha-beta's value and a move that reaches it.
    let eval = StoreDifference;
    let g = Kalah::start(Default::default());
    let depth = 5;
    let expected = alphabeta(&g, depth, &eval);
    let moves = g.legal_moves();
    let children: Vec<u64> = moves
        .iter()
        .map(|&mv| g.play_unchecked(mv).search_key())
        .collect();
    let mut put_off = 0;
    for (i, &busy) in children.iter().enumerate() {
        let mut slots = vec![TtEntry::EMPTY; 1 << 12];
        let table = OneBusy {
            inner: ply_core::search::TranspositionTable::new(&mut slots[..]),
            busy,
            entered: Vec::new(),
        };
        let config = EngineConfig {
            abdada: true,
            ..EngineConfig::exact()
        };
        let mut engine = Engine::with_table(table, &eval, NoClock, config);
        let r = engine.search(&g, Limits::depth(depth));
        assert_eq!(r.value, expected.value, "root move {i} busy");
        assert_eq!(move_value(&g, r.best_move.unwrap(), depth, &eval), r.value);
        let entered = &engine.table().entered;
        // The root children entered in the last iteration, in order.
        let last_iteration: Vec<u64> = entered
            .iter()
            .rev()
            .filter(|k| children.contains(k))
            .take(children.len() - 1)
            .copied()
            .collect();
        if last_iteration.len() == children.len() - 1 && last_iteration[0] == busy {
            put_off += 1;
        }
    }
    // The first root move is never put off (it is searched at once by every engine);
    // every other one is, when busy.
    assert_eq!(put_off, children.len() - 1, "root moves put off");
}

/// The one-thread engine under a time limit searches on a thread of its own, the
/// calling thread waiting (`host/src/parallel/watched.rs`): when the limit is not
/// reached, the answer is exactly the engine's answer on the calling thread — value,
/// move, depth, nodes and principal variation — and the table is kept for the next
/// search as before.
#[test]
fn a_one_thread_engine_under_a_time_limit_answers_as_on_the_calling_thread() {
    use ply_core::search::Limits;
    use ply_host::clock::WallClock;
    let eval = RandomEval { seed: 5 };
    let options = Options {
        hash_mb: 1,
        ..Options::threads(1)
    };
    let run = |g: &Draughts, limits: Limits, tables: &mut parallel::Tables| {
        parallel::run(
            Algo::Engine,
            g,
            limits,
            &eval,
            &options,
            tables,
            WallClock::start(),
            &mut |_| {},
        )
        .unwrap()
    };
    let start = Draughts::start(Default::default());
    let next = start.play(start.legal_moves()[0]).unwrap();
    let (mut direct, mut watched) = (parallel::Tables::new(), parallel::Tables::new());
    for g in [start, next] {
        let a = run(&g, Limits::depth(6), &mut direct);
        let b = run(
            &g,
            Limits {
                time_ms: Some(3_600_000),
                ..Limits::depth(6)
            },
            &mut watched,
        );
        assert_eq!(
            (a.value, a.best_move, a.depth, a.nodes, &a.pv, a.aborted),
            (b.value, b.best_move, b.depth, b.nodes, &b.pv, b.aborted)
        );
    }
    assert_eq!(watched.allocated_bytes(), 1 << 20);
}

/// An evaluation that stops its thread once it has been called `after` times, until
/// the test lets it go: an engine the operating system has put aside.
#[derive(Clone, Copy)]
struct Stalls {
    after: u64,
}

static STALL_CALLS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
static STALLED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
static STALL_GATE: (std::sync::Mutex<bool>, std::sync::Condvar) =
    (std::sync::Mutex::new(false), std::sync::Condvar::new());

fn let_stalled_go() {
    *STALL_GATE.0.lock().unwrap() = true;
    STALL_GATE.1.notify_all();
}

impl<G: Game> Evaluator<G> for Stalls {
    fn evaluate(&self, game: &G, me: ply_core::Player) -> ply_core::search::Score {
        use std::sync::atomic::Ordering;
        if STALL_CALLS.fetch_add(1, Ordering::SeqCst) == self.after {
            STALLED.store(true, Ordering::SeqCst);
            let mut go = STALL_GATE.0.lock().unwrap();
            while !*go {
                go = STALL_GATE.1.wait(go).unwrap();
            }
        }
        RandomEval { seed: 2 }.evaluate(game, me)
    }
}

/// A one-thread engine that does not answer by its time limit (stalled inside its
/// second iteration) does not hold the answer up: the calling thread answers with the
/// iteration it completed, while the engine is still stalled; once the engine goes
/// on, it stops, and the next search takes its table back.
#[test]
fn a_stalled_one_thread_engine_does_not_hold_up_the_answer() {
    use ply_core::search::Limits;
    use ply_host::clock::WallClock;
    use std::sync::atomic::Ordering;
    let g = TicTacToe::new();
    let options = Options {
        hash_mb: 1,
        ..Options::threads(1)
    };
    let mut tables = parallel::Tables::new();
    // Should the answer wait for the engine (the mechanism broken), the engine is let
    // go after a minute and the assertions below fail instead of the test hanging.
    std::thread::spawn(|| {
        std::thread::sleep(std::time::Duration::from_secs(60));
        let_stalled_go();
    });
    // The first iteration evaluates the 9 replies; the stall comes in the second.
    let stalls = Stalls { after: 20 };
    let r = parallel::run(
        Algo::Engine,
        &g,
        Limits::time_ms(50),
        &stalls,
        &options,
        &mut tables,
        WallClock::start(),
        &mut |_| {},
    )
    .unwrap();
    let stalled_at_the_answer = STALLED.load(Ordering::SeqCst) && !*STALL_GATE.0.lock().unwrap();
    let_stalled_go();
    assert!(
        stalled_at_the_answer,
        "the answer waited for the stalled engine"
    );
    assert_eq!((r.depth, r.aborted), (1, true));
    assert!(r.best_move.is_some());
    // The next search takes the table back from the engine (which stops, its time
    // being up) and searches as usual.
    let again = parallel::run(
        Algo::Engine,
        &g,
        Limits::depth(4),
        &RandomEval { seed: 2 },
        &options,
        &mut tables,
        WallClock::start(),
        &mut |_| {},
    )
    .unwrap();
    assert_eq!((again.depth, again.aborted), (4, false));
    assert!(again.best_move.is_some());
    assert_eq!(tables.allocated_bytes(), 1 << 20);
}

/// An evaluation that panics.
#[derive(Clone, Copy)]
struct Panics;

impl<G: Game> Evaluator<G> for Panics {
    fn evaluate(&self, _: &G, _: ply_core::Player) -> ply_core::search::Score {
        panic!("an evaluation that panics (the test expects it)");
    }
}

/// A search whose engines all panic on their own threads (one under a time limit,
/// or several) ends with an error, not a wait without end; the one-thread engine's
/// table comes back for the next search.
#[test]
fn a_search_whose_engines_panic_is_an_error() {
    use ply_core::search::Limits;
    use ply_host::clock::WallClock;
    let g = TicTacToe::new();
    let mut tables = parallel::Tables::new();
    for threads in [1, 2] {
        let options = Options {
            hash_mb: 1,
            ..Options::threads(threads)
        };
        let r = parallel::run(
            Algo::Engine,
            &g,
            Limits::time_ms(3_600_000),
            &Panics,
            &options,
            &mut tables,
            WallClock::start(),
            &mut |_| {},
        );
        assert!(
            matches!(r, Err(ParallelError::NoAnswer)),
            "{threads} threads: {:?}",
            r.map(|r| r.best_move)
        );
    }
    let again = parallel::run(
        Algo::Engine,
        &g,
        Limits::depth(3),
        &RandomEval { seed: 1 },
        &Options {
            hash_mb: 1,
            ..Options::threads(1)
        },
        &mut tables,
        WallClock::start(),
        &mut |_| {},
    )
    .unwrap();
    assert_eq!(again.depth, 3);
    assert_eq!(tables.allocated_bytes(), 2 << 20);
}

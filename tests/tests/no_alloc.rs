//! The core never allocates: a counting global allocator watches move generation,
//! perft, every search algorithm and the solver, on this thread, and must see zero
//! allocations. (Tables are provided by the caller, allocated before counting.)

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicI8, AtomicU64};

use ply_core::games::draughts::DraughtsEval;
use ply_core::games::halma::eval::{Manhattan, Racer};
use ply_core::games::kalah::solver::{
    bounds_for_player, build_tables, pack_tables, packed_layers, table_len, EndgameTables,
    KalahSolver, Quiet, SharedSolverTable, SolverEntry, UNKNOWN,
};
use ply_core::games::kalah::{KalahEval, KalahRules, TablesEval};
use ply_core::games::{Draughts, Halma16, Halma8, Kalah, TicTacToe};
use ply_core::perft::{perft, perft_tabled, BucketTable, PerftBucket, PerftKey};
use ply_core::search::Evaluator;
use ply_core::search::{
    alphabeta, minimax, Engine, EngineConfig, Limits, NoClock, RandomEval, TtEntry,
};
use ply_core::solve::Solver;
use ply_core::Game;

struct Counting;

thread_local! {
    static ALLOCS: Cell<u64> = const { Cell::new(0) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCS.with(|c| c.set(c.get() + 1));
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCS.with(|c| c.set(c.get() + 1));
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Allocations made on this thread while `f` runs.
fn allocations<R>(f: impl FnOnce() -> R) -> (u64, R) {
    let before = ALLOCS.with(|c| c.get());
    let r = f();
    (ALLOCS.with(|c| c.get()) - before, r)
}

#[test]
fn the_counter_sees_allocations() {
    // Guards the guard: a Vec must be counted.
    let (n, v) = allocations(|| vec![1u8; 10]);
    assert!(n >= 1);
    drop(v);
}

#[test]
fn tictactoe_generation_perft_search_and_solve_allocate_nothing() {
    let mut slots = vec![TtEntry::EMPTY; 1 << 12];
    let mut solver_slots = vec![TtEntry::EMPTY; 1 << 12];
    let start = TicTacToe::new();
    let (n, total) = allocations(|| {
        let mut sum = 0u64;
        sum += start.legal_moves().len() as u64;
        sum += perft(&start, 9);
        let eval = RandomEval { seed: 3 };
        sum += minimax(&start, 5, &eval).nodes;
        sum += alphabeta(&start, 6, &eval).nodes;
        let mut engine = Engine::new(&mut slots, eval, NoClock, EngineConfig::default());
        sum += engine.search(&start, Limits::depth(9)).nodes;
        let mut solver = Solver::new(&mut solver_slots);
        sum += solver.solve(&start).unwrap().nodes;
        let p = start.parse_move("5").unwrap();
        sum += start.play(p).unwrap().hash() & 1;
        sum
    });
    assert!(total > 127_872);
    assert_eq!(n, 0, "the core allocated {} times", n);
}

/// Move generation, checked and unchecked play, perft, text round trips and every
/// search algorithm on one game, counted.
fn assert_no_allocation<G: Game, E: Evaluator<G> + Clone>(
    start: G,
    eval: E,
    perft_depth: u32,
    search_depth: u32,
) {
    let mut slots = vec![TtEntry::EMPTY; 1 << 12];
    let mut text = String::with_capacity(4096);
    let (n, total) = allocations(|| {
        let mut sum = perft(&start, perft_depth);
        let moves = start.legal_moves();
        for &m in moves.iter() {
            sum += start.play(m).unwrap().hash() & 1;
            use std::fmt::Write;
            text.clear();
            write!(text, "{}", start.display_move(m)).unwrap();
            sum += u64::from(start.parse_move(&text).unwrap() == m);
        }
        sum += minimax(&start, search_depth.min(2), &eval).nodes;
        sum += alphabeta(&start, search_depth, &eval).nodes;
        let mut engine = Engine::new(&mut slots, eval.clone(), NoClock, EngineConfig::default());
        sum += engine.search(&start, Limits::depth(search_depth)).nodes;
        sum
    });
    assert!(total > 0);
    assert_eq!(n, 0, "{}: the core allocated {} times", start, n);
}

#[test]
fn kalah_rules_search_and_solver_allocate_nothing() {
    let start = Kalah::start(KalahRules::default());
    assert_no_allocation(start, KalahEval, 6, 8);
    let rules = Kalah::parse_rules("3x3").unwrap();
    let small = Kalah::start(rules);
    let mut tt = vec![SolverEntry::EMPTY; 1 << 12];
    let (n, v) = allocations(|| {
        let mut solver = KalahSolver::new(rules, &mut tt, EndgameTables::none(3, false)).unwrap();
        solver.solve(&small, &mut Quiet).unwrap()
    });
    assert_eq!(v, 2);
    assert_eq!(n, 0, "the Kalah solver allocated {} times", n);
    // The same over the lock-free shared table, with a shallow estimate first
    // and a bounded solve of a first move, as `ply solve` runs them.
    let words: Vec<AtomicU64> = (0..(1 << 12)).map(|_| AtomicU64::new(0)).collect();
    let shared = SharedSolverTable::new(&words, 3);
    let child = small.play_unchecked(small.legal_moves()[0]);
    let (n, v) = allocations(|| {
        let mut solver =
            KalahSolver::with_table(rules, shared, EndgameTables::none(3, false)).unwrap();
        let guess = solver.estimate(&child, 6, 0, &mut Quiet).unwrap();
        let v = solver.solve(&small, &mut Quiet).unwrap();
        // The first move's value lies below the root's, for the root's mover.
        let (lower, upper) = bounds_for_player(&child, small.side_to_move(), (-100, v));
        let bounds = solver
            .solve_bounded(&child, lower, upper, guess, u64::MAX, &mut Quiet)
            .unwrap();
        (v, bounds.0 <= bounds.1)
    });
    assert_eq!(v, (2, true));
    assert_eq!(
        n, 0,
        "the Kalah solver on a shared table allocated {} times",
        n
    );
    // Endgame tables built, packed to five bits an entry and probed by a solve in
    // caller memory: no allocation either.
    let values: Vec<AtomicI8> = (0..table_len(3, 10).unwrap())
        .map(|_| AtomicI8::new(UNKNOWN))
        .collect();
    let mut packed = vec![0u8; packed_layers(3, 10).unwrap().len()];
    let (n, v) = allocations(|| {
        build_tables(3, false, 10, 0, &values, |_| {}).unwrap();
        pack_tables(3, 10, &values, &mut packed).unwrap();
        let tables = EndgameTables::packed(3, false, 10, &packed).unwrap();
        let mut solver = KalahSolver::new(rules, &mut tt, tables).unwrap();
        solver.solve(&small, &mut Quiet).unwrap()
    });
    assert_eq!(v, 2);
    assert_eq!(n, 0, "the Kalah endgame tables allocated {} times", n);
    // Exact play: the engine over ply's evaluation with the tables' exact values,
    // and the solver's proved best move over the shared table.
    let tables = EndgameTables::packed(3, false, 10, &packed).unwrap();
    let eval = TablesEval::new(rules, tables).unwrap();
    let mut slots = vec![TtEntry::default(); 1 << 10];
    let (n, v) = allocations(|| {
        let mut engine = Engine::new(&mut slots, eval, NoClock, EngineConfig::default());
        let r = engine.search(&small, Limits::depth(8));
        let shared = SharedSolverTable::new(&words, 3);
        let mut solver = KalahSolver::with_table(rules, shared, tables).unwrap();
        (r.best_move, solver.best_move(&small, &mut Quiet).unwrap())
    });
    assert!(v.0.is_some());
    assert_eq!(v.1.map(|(_, margin)| margin), Some(2));
    assert_eq!(n, 0, "exact play allocated {} times", n);
}

#[test]
fn draughts_both_variants_allocate_nothing() {
    for spec in ["english", "calgary"] {
        let start = Draughts::start(Draughts::parse_rules(spec).unwrap());
        assert_no_allocation(start, DraughtsEval::default(), 6, 6);
    }
}

#[test]
fn halma_both_boards_allocate_nothing() {
    assert_no_allocation(Halma8::start(Default::default()), Manhattan, 3, 3);
    assert_no_allocation(Halma16::start(Default::default()), Racer::default(), 2, 2);
}

/// Perft through a table in caller memory, once filling it and once answered from
/// it, allocates nothing.
fn assert_tabled_perft_allocates_nothing<G: PerftKey>(start: G, depth: u32) {
    let bits = G::perft_key_bits(start.rules()).max(1);
    let mut buckets = vec![PerftBucket::EMPTY; 1 << 10];
    let expected = perft(&start, depth);
    let (n, counts) = allocations(|| {
        let mut table = BucketTable::new(&mut buckets[..], bits);
        let first = perft_tabled(&start, depth, &mut table);
        (first, perft_tabled(&start, depth, &mut table))
    });
    assert_eq!(counts, (expected, expected));
    assert_eq!(n, 0, "{}: tabled perft allocated {} times", start, n);
}

#[test]
fn tabled_perft_allocates_nothing() {
    assert_tabled_perft_allocates_nothing(TicTacToe::new(), 9);
    assert_tabled_perft_allocates_nothing(Kalah::start(KalahRules::default()), 7);
    for spec in ["english", "calgary", "english:unique"] {
        let start = Draughts::start(Draughts::parse_rules(spec).unwrap());
        assert_tabled_perft_allocates_nothing(start, 8);
    }
    assert_tabled_perft_allocates_nothing(Halma8::start(Default::default()), 4);
    assert_tabled_perft_allocates_nothing(Halma16::start(Default::default()), 2);
}

/// A compressed draughts database slice (`db::packed`) read in the core: its block
/// index checked, every entry looked up (each lookup inflating its block on the
/// stack), and positions probed through a `Database` without a cache, allocate
/// nothing. (The slices are built and deflated by the host before counting.)
#[test]
fn compressed_draughts_database_lookups_allocate_nothing() {
    use ply_core::games::draughts::db::{keys_of, Database, Packed, Slice};
    use ply_core::games::draughts::Rules;
    use ply_host::draughts_db::{build_in_memory, file};
    let (db, _) = build_in_memory(2, 1).unwrap();
    let key = keys_of(2)
        .max_by_key(|k| db.slice(*k).unwrap().len())
        .unwrap();
    let Some(Slice::Plain(plain)) = db.slice(key) else {
        panic!("a slice built in memory is plain")
    };
    let (index, data) = file::pack(plain, file::LEVEL, 1);
    let mut packed = Database::new();
    let games: Vec<Draughts> = (0..plain.len() as u64)
        .step_by(97)
        .map(|i| ply_core::games::draughts::db::unrank(key, i).game_with(Rules::english()))
        .collect();
    let (n, same) = allocations(|| {
        let p = Packed::new(&index, &data, plain.len() as u64, plain.width()).unwrap();
        packed.set_slice(key, Slice::Packed(p)).unwrap();
        let entries = (0..plain.len()).all(|i| p.get(i as u64) == plain.get(i));
        let probes = games.iter().all(|g| packed.probe(g) == db.probe(g));
        entries && probes
    });
    assert!(same, "the compressed slice reads other values");
    assert_eq!(n, 0, "allocations reading a compressed slice");
}

//! The solver's tests through its interface: plain minimax on small games and
//! random positions in every configuration, bounded solves, the side-to-move
//! convention, interruption and refused tables.

use super::*;
use crate::playout::{random_playout, SplitMix64};
use core::sync::atomic::{AtomicI8, AtomicU64};

fn rules(p: u8, s: u8, ec: bool) -> KalahRules {
    KalahRules::new(p, s).unwrap().with_empty_capture(ec)
}

fn solve_plain(r: KalahRules) -> i32 {
    let mut tt = [SolverEntry::EMPTY; 1 << 12];
    let mut s = KalahSolver::new(r, &mut tt, EndgameTables::none(r.pits, r.empty_capture)).unwrap();
    s.solve(&Kalah::new(r), &mut Quiet).unwrap()
}

#[test]
fn solver_matches_minimax_on_small_games() {
    for ec in [false, true] {
        for &(p, s) in &[(1u8, 1u8), (1, 4), (2, 2), (2, 3), (3, 1), (3, 2), (4, 1)] {
            let r = rules(p, s, ec);
            let g = Kalah::new(r);
            let (own, opp) = g.rows_for_mover();
            let want = minimax_future_margin(own, opp, u32::from(p), ec);
            assert_eq!(solve_plain(r), want, "{}", r);
        }
    }
}

/// The bounded solve of each first move, given the root value: with no
/// budget it is exact; with none left after the first pass, best moves are
/// still exact and the others get a sound upper bound below the root value.
/// Mid-game positions with the second player to move are covered too.
#[test]
fn bounded_solves_bracket_the_exact_move_values() {
    for ec in [false, true] {
        for &(p, s, after) in &[
            (3u8, 3u8, 0usize),
            (4, 2, 0),
            (4, 3, 0),
            (3, 4, 1),
            (4, 3, 2),
        ] {
            let r = rules(p, s, ec);
            let mut g = Kalah::new(r);
            for _ in 0..after {
                g = g.play_unchecked(g.legal_moves()[0]);
            }
            let none = EndgameTables::none(p, ec);
            let mut tt = [SolverEntry::EMPTY; 1 << 12];
            let mut exact: heapless::Vec<(Pit, i32), 8> = heapless::Vec::new();
            KalahSolver::new(r, &mut tt, none)
                .unwrap()
                .solve_moves(&g, &mut Quiet, |m, v| exact.push((m, v)).unwrap())
                .unwrap();
            // The root value and the moves' values, all for g's side to move.
            let me = g.side_to_move();
            let root = exact.iter().map(|e| e.1).max().unwrap();
            for budget in [u64::MAX, 0, 50] {
                let mut tt = [SolverEntry::EMPTY; 1 << 12];
                let mut solver = KalahSolver::new(r, &mut tt, none).unwrap();
                for &(m, v) in &exact {
                    let child = g.play_unchecked(m);
                    // The bounds and the guess as the child's side to move sees them.
                    let (lower, upper) = bounds_for_player(&child, me, (-100, root));
                    let guess = for_player(&child, me, root);
                    let bounds = solver
                        .solve_bounded(&child, lower, upper, guess, budget, &mut Quiet)
                        .unwrap();
                    let (lo, hi) = bounds_for_player(&child, me, bounds);
                    assert!(lo <= v && v <= hi, "{} {:?} {} {}..{}", r, m, v, lo, hi);
                    if budget == u64::MAX || v == root {
                        assert_eq!((lo, hi), (v, v), "{} {:?} budget {}", r, m, budget);
                    } else {
                        assert!(hi < root, "{} {:?}", r, m);
                    }
                }
            }
        }
    }
}

/// Every value is the side to move's, whoever moves (the convention of every
/// search): with the second player to move, a solve is its own store margin
/// plus its future margin, the best of its moves' values, what a bounded solve
/// and a full-depth estimate give, and the value its parent's mover gave the
/// move with the sign turned.
#[test]
fn values_are_for_the_side_to_move() {
    for ec in [false, true] {
        let r = rules(3, 3, ec);
        let start = Kalah::new(r);
        let none = EndgameTables::none(3, ec);
        let mut tt = [SolverEntry::EMPTY; 1 << 12];
        let mut s = KalahSolver::new(r, &mut tt, none).unwrap();
        let mut first_moves: heapless::Vec<(Pit, i32), 8> = heapless::Vec::new();
        s.solve_moves(&start, &mut Quiet, |m, v| first_moves.push((m, v)).unwrap())
            .unwrap();
        let mut nonzero_with_second_to_move = 0;
        for &(m, v) in &first_moves {
            let child = start.play_unchecked(m);
            let cv = s.solve(&child, &mut Quiet).unwrap();
            let (own, opp) = child.rows_for_mover();
            let future = minimax_future_margin(own, opp, 3, ec);
            assert_eq!(cv, child.store_difference() + future, "{:?}", child);
            assert_eq!(for_player(&child, Player::First, cv), v, "{:?}", child);
            if child.side_to_move() != Player::Second {
                continue;
            }
            if cv != 0 && child.store_difference() != 0 {
                nonzero_with_second_to_move += 1;
            }
            let mut best = i32::MIN;
            s.solve_moves(&child, &mut Quiet, |_, w| best = best.max(w))
                .unwrap();
            assert_eq!(best, cv, "{:?}", child);
            let bounded = s.solve_bounded(&child, -100, 100, 0, u64::MAX, &mut Quiet);
            assert_eq!(bounded.unwrap(), (cv, cv), "{:?}", child);
            assert_eq!(s.estimate(&child, 60, 0, &mut Quiet).unwrap(), cv);
        }
        assert!(nonzero_with_second_to_move > 0);
    }
}

#[test]
fn published_small_values() {
    assert_eq!(solve_plain(rules(3, 3, false)), 2);
    assert_eq!(solve_plain(rules(4, 3, false)), 6);
}

/// Random positions of small boards under every configuration (deepening or
/// not, tables or not, a table of 2 slots that replaces all the time): the same
/// values as plain minimax.
#[test]
fn solver_matches_minimax_on_random_positions_in_every_configuration() {
    let mut rng = SplitMix64::new(99);
    for &(p, sd, ec) in &[
        (3u8, 2u8, false),
        (3, 2, true),
        (2, 3, false),
        (2, 3, true),
        (4, 1, false),
        (4, 1, true),
    ] {
        let r = rules(p, sd, ec);
        let k = 5;
        let len = table_len(p, k).unwrap();
        let all = [const { AtomicI8::new(UNKNOWN) }; 2048];
        let values = &all[..len];
        build_tables(p, ec, k, 0, values, |_| {}).unwrap();
        let mut packed = [0u8; 1400];
        pack_tables(p, k, values, &mut packed).unwrap();
        for _ in 0..40 {
            let plies = rng.below(6);
            let g = random_playout(Kalah::new(r), plies, &mut rng);
            let (own, opp) = g.rows_for_mover();
            let future = minimax_future_margin(own, opp, u32::from(p), ec);
            let want = g.store_difference() + future;
            for slots in [2usize, 1 << 10] {
                for deepening_to in [0u32, 6] {
                    // No tables, a byte an entry, five bits an entry.
                    for form in 0..3 {
                        let with_tables = form > 0;
                        let tables = match form {
                            0 => EndgameTables::none(p, ec),
                            1 => EndgameTables::new(p, ec, k, values).unwrap(),
                            _ => EndgameTables::packed(p, ec, k, &packed).unwrap(),
                        };
                        let config = SolverConfig {
                            deepening_to,
                            ordering: true,
                            etc_from_seeds: if with_tables { 8 } else { 0 },
                            ..SolverConfig::default()
                        };
                        let mut all_slots = [SolverEntry::EMPTY; 1 << 10];
                        let tt = &mut all_slots[..slots];
                        let mut s = KalahSolver::new(r, tt, tables).unwrap();
                        s.set_config(config);
                        assert_eq!(s.solve(&g, &mut Quiet).unwrap(), want, "{:?}", g);
                        // A shallow estimate first leaves depth-limited entries
                        // that must not change the exact value.
                        // Both layouts of the shared table (four entries a
                        // bucket for these pits, two as for 8 pits).
                        for layout in [p, 8] {
                            let words = [const { AtomicU64::new(0) }; 4 << 10];
                            let shared = SharedSolverTable::new(
                                &words[..slots / 2 * SharedSolverTable::BUCKET_WORDS],
                                layout,
                            );
                            let mut s = KalahSolver::with_table(r, shared, tables).unwrap();
                            s.set_config(config);
                            s.estimate(&g, 3, 0, &mut Quiet).unwrap();
                            assert_eq!(s.solve(&g, &mut Quiet).unwrap(), want, "{:?}", g);
                            // Searched to the end, the estimate is the exact value.
                            assert_eq!(s.estimate(&g, 60, 0, &mut Quiet).unwrap(), want);
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn interrupted_solve_says_so() {
    struct StopNow;
    impl SolveControl for StopNow {
        fn should_stop(&mut self) -> bool {
            true
        }
    }
    let r = rules(6, 4, false);
    let mut tt = [SolverEntry::EMPTY; 1 << 10];
    let mut s = KalahSolver::new(r, &mut tt, EndgameTables::none(6, false)).unwrap();
    assert_eq!(s.solve(&Kalah::new(r), &mut StopNow), Err(Interrupted));
}

#[test]
fn tables_for_another_board_are_refused() {
    let mut tt = [SolverEntry::EMPTY; 4];
    assert!(KalahSolver::new(rules(6, 4, true), &mut tt, EndgameTables::none(6, false)).is_err());
    assert!(KalahSolver::new(rules(5, 4, false), &mut tt, EndgameTables::none(6, false)).is_err());
}

/// Single passes at any `beta`s, in any order, narrow the bounds to the exact value:
/// bisection, and tests below and above the value from two solvers sharing one table
/// (as the host's threads test one position at two `beta`s).
#[test]
fn single_passes_at_any_beta_converge_on_the_value() {
    for ec in [false, true] {
        for &(p, s, after) in &[(3u8, 3u8, 0usize), (4, 3, 0), (4, 3, 1), (3, 4, 2)] {
            let r = rules(p, s, ec);
            let mut g = Kalah::new(r);
            for _ in 0..after {
                g = g.play_unchecked(g.legal_moves()[0]);
            }
            let want = {
                let mut tt = [SolverEntry::EMPTY; 1 << 12];
                KalahSolver::new(r, &mut tt, EndgameTables::none(p, ec))
                    .unwrap()
                    .solve(&g, &mut Quiet)
                    .unwrap()
            };
            // Bisection on one solver.
            let mut tt = [SolverEntry::EMPTY; 1 << 12];
            let mut solver = KalahSolver::new(r, &mut tt, EndgameTables::none(p, ec)).unwrap();
            let (mut lo, mut hi) = (-1000, 1000);
            let mut passes = 0;
            while lo < hi {
                let beta = lo + (hi - lo + 1) / 2;
                let (a, b) = solver.test(&g, lo, hi, beta, &mut Quiet).unwrap();
                assert!(
                    a <= want && want <= b,
                    "{} after {}: {}..={}",
                    r,
                    after,
                    a,
                    b
                );
                assert!((a, b) != (lo, hi), "a pass narrows the bounds");
                (lo, hi) = (a, b);
                passes += 1;
                assert!(passes < 40);
            }
            assert_eq!(lo, want, "{} after {}", r, after);
            // Two solvers over one shared table, testing far below and far above.
            let words = [const { AtomicU64::new(0) }; 1 << 12];
            let table = SharedSolverTable::new(&words, p);
            let none = EndgameTables::none(p, ec);
            let mut a = KalahSolver::with_table(r, table, none).unwrap();
            let mut b = KalahSolver::with_table(r, table, none).unwrap();
            let (l1, h1) = a.test(&g, -1000, 1000, want - 7, &mut Quiet).unwrap();
            let (l2, h2) = b.test(&g, -1000, 1000, want + 7, &mut Quiet).unwrap();
            assert!(l1 >= want - 7 && h1 >= want && l2 <= want && h2 < want + 7);
            let (mut lo, mut hi) = (l1.max(l2), h1.min(h2));
            while lo < hi {
                (lo, hi) = b.test(&g, lo, hi, lo + 1, &mut Quiet).unwrap();
            }
            assert_eq!(lo, want);
        }
    }
}

/// One exact pass of the start position of `r` at `beta` on a table far larger
/// than the positions searched (so no entry is replaced), after first guesses of
/// `guess_depth` plies (0: none): its bounds and its nodes.
#[inline(never)]
fn exact_pass(r: KalahRules, beta: i32, guess_depth: u32) -> ((i32, i32), u64) {
    let g = Kalah::new(r);
    let n = i32::from(r.pits) * i32::from(r.seeds) * 2;
    let mut tt = [SolverEntry::EMPTY; 1 << 14];
    let none = EndgameTables::none(r.pits, r.empty_capture);
    let mut s = KalahSolver::new(r, &mut tt, none).unwrap();
    if guess_depth > 0 {
        s.estimate(&g, guess_depth, 0, &mut Quiet).unwrap();
    }
    let before = s.nodes();
    let bounds = s.test(&g, -n, n, beta, &mut Quiet).unwrap();
    (bounds, s.nodes() - before)
}

/// The first guesses leave depth-limited entries in the table; an exact pass takes
/// neither their bounds nor their moves, so it searches exactly the tree it would
/// search without them. (Ordering an exact search by the guesses' moves more than
/// doubled the nodes of Kalah(6,4) with 26-seed tables: docs/log/2026-11-24-kalah-solver.md.)
#[test]
fn an_exact_pass_is_not_ordered_by_the_first_guesses() {
    for ec in [false, true] {
        for &(p, s) in &[(3u8, 3u8), (4, 2), (3, 4)] {
            let r = rules(p, s, ec);
            for beta in [-2, 0, 1, 3] {
                assert_eq!(
                    exact_pass(r, beta, 6),
                    exact_pass(r, beta, 0),
                    "{} beta {}: the guesses changed the exact pass",
                    r,
                    beta
                );
            }
        }
    }
}

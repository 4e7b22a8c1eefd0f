//! Each game in turn: every strategy against alpha-beta (and minimax where affordable)
//! at game-specific positions and depths, deterministic pseudo-random evaluations, and
//! parallel perft against sequential perft.

use super::*;

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

pub(super) fn kalah(spec: &str) -> Kalah {
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

pub(super) fn draughts(spec: &str) -> Draughts {
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

const HALMA8_MIDDLE: &str = include_str!("../../../../benches/data/halma8_middle.txt");

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

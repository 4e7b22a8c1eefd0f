//! The tests of the Kalah solve on ranks.

use super::*;
use crate::distributed::coordinator::run_local;
use crate::distributed::Record;
use ply_core::games::kalah::solver::{EndgameTables, KalahSolver, SolverEntry};
use ply_core::games::kalah::KalahRules;
use std::sync::atomic::AtomicU64;

/// Solver memory without endgame tables: a 1 MiB table, `threads` threads.
fn memory(threads: usize) -> Memory {
    Memory {
        values: super::super::tables::TableMemory::Owned(Vec::new()),
        seeds: 0,
        words: (0..(1 << 17) + 8).map(|_| AtomicU64::new(0)).collect(),
        threads,
        note: String::new(),
        table_secs: 0.0,
    }
}

#[test]
fn reply_bounds_round_trip_and_refuse_impossible_words() {
    for v in [
        ReplyBounds {
            lo: -14,
            hi: -14,
            nodes: 303_579,
        },
        ReplyBounds {
            lo: -255,
            hi: 255,
            nodes: 0,
        },
    ] {
        assert_eq!(ReplyBounds::decode(&v.encode()), Some(v));
    }
    assert_eq!(ReplyBounds::decode(&[256, 256, 1]), None);
    assert_eq!(ReplyBounds::decode(&[0, (-256i64) as u64, 1]), None);
    assert_eq!(ReplyBounds::decode(&[2, 1, 1]), None, "lo above hi");
    assert_eq!(ReplyBounds::decode(&[1, 1]), None);
    assert_eq!(ReplyBounds::decode(&[1, 2, 3, 4]), None);
}

#[test]
fn the_split_deepens_with_the_workers_and_the_setting_wins() {
    let depths: Vec<usize> = [1, 2, 3, 4, 8, 15, 16, 64]
        .iter()
        .map(|&w| default_split_plies(w))
        .collect();
    assert_eq!(depths, [2, 2, 2, 3, 3, 3, 4, 4]);
    let game = Kalah::new(KalahRules::new(4, 3).unwrap());
    let mem = memory(4);
    let env = crate::solving::SolveOptions::default();
    assert_eq!(Replies::new(&game, &mem, &env, 1).layout.depth, 3);
    assert_eq!(Replies::new(&game, &mem, &env, 4).layout.depth, 4);
    let set = crate::solving::SolveOptions {
        split_plies: Some(1),
        ..Default::default()
    };
    assert_eq!(Replies::new(&game, &mem, &set, 4).layout.depth, 1);
}

#[test]
fn every_item_has_one_number() {
    let l = Layout {
        pits: 3,
        span: 5,
        depth: 2,
    };
    assert_eq!(l.items(), 4usize.pow(2) * 23);
    let mut seen = 0;
    for i in 0..l.items() {
        if let Some(item) = l.item(i) {
            assert_eq!(l.index(item), i, "{:?}", item);
            seen += 1;
        }
    }
    // Every path of 1 or 2 moves, each with its 23 items: exact, and 11 bounds
    // of each kind of test.
    let paths: usize = (1..=2).map(|k| 3usize.pow(k)).sum();
    assert_eq!(seen, paths * 23);
    assert_eq!(l.item(l.items()), None);
    let p = Path::first(2).child(0).unwrap();
    for item in [Item::Above(p, -5), Item::Test(p, -5), Item::Test(p, 5)] {
        assert_eq!(l.item(l.index(item)), Some(item));
    }
    assert_ne!(l.index(Item::Above(p, 5)), l.index(Item::Test(p, -5)));
}

#[test]
fn replies_are_tested_against_the_best_exact_one_and_again_when_it_rises() {
    let game = Kalah::new(KalahRules::new(4, 3).unwrap());
    let mem = memory(1);
    let env = crate::solving::SolveOptions::default();
    let job = Replies::split(&game, &mem, &env, 2);
    let root = Path::first(0);
    // The reply to settle first: reply 1, estimated at 4.
    job.eldest.lock().unwrap().insert(root, (1, Some(4)));
    let mut results = vec![None; job.items()];
    let (_, at) = job.position(&root).unwrap();
    let replies = at.legal_moves().len();
    assert!(replies >= 3);
    let c = |r: usize| root.child(r).unwrap();
    let standing = |results: &[Option<ReplyBounds>]| {
        let mut spare = Vec::new();
        let s = job.standing(&root, results, &mut spare);
        (s, spare)
    };
    // Nothing known: the eldest reply, exactly; to spare, the others against its
    // estimate.
    let others: Vec<usize> = (0..replies).filter(|&r| r != 1).collect();
    assert_eq!(
        standing(&results),
        (
            Standing::Needs(vec![Item::Exact(c(1))]),
            others.iter().map(|&r| Item::Test(c(r), 4)).collect()
        )
    );
    // A spare test found at most 4 leaves that reply out of the spare ones.
    results[job.layout.index(Item::Test(c(others[0]), 4))] = Some(ReplyBounds {
        lo: -36,
        hi: 4,
        nodes: 1,
    });
    assert_eq!(standing(&results).1.len(), others.len() - 1);
    results[job.layout.index(Item::Test(c(others[0]), 4))] = None;
    // Reply 1 is worth 2: every other reply is tested against 2.
    results[job.layout.index(Item::Exact(c(1)))] = Some(ReplyBounds {
        lo: 2,
        hi: 2,
        nodes: 10,
    });
    assert_eq!(
        standing(&results),
        (
            Standing::Needs(others.iter().map(|&r| Item::Above(c(r), 2)).collect()),
            vec![]
        ),
        "needed now, and nothing spare"
    );
    // Reply 0 is at most 2; the next is worth 6: the ones still open are tested
    // against 6.
    let set = |results: &mut Vec<Option<ReplyBounds>>, item, lo, hi| {
        results[job.layout.index(item)] = Some(ReplyBounds { lo, hi, nodes: 1 });
    };
    set(&mut results, Item::Above(c(others[0]), 2), -36, 0);
    set(&mut results, Item::Above(c(others[1]), 2), 6, 6);
    let open: Vec<Item> = others[2..].iter().map(|&r| Item::Above(c(r), 6)).collect();
    assert_eq!(standing(&results).0, Standing::Needs(open.clone()));
    // A test against the old bound that finds "at most 2" settles its reply too.
    for (k, &r) in others[2..].iter().enumerate() {
        if k == 0 {
            set(&mut results, Item::Above(c(r), 2), -36, 2);
        } else {
            set(&mut results, Item::Above(c(r), 6), -36, 6);
        }
    }
    // Settled at 6 for the opponent, who moves after pit 1: -6 for the root.
    assert_eq!(standing(&results).0, Standing::Settled(-6));
    // Split one ply deeper, the eldest reply is settled through its own replies.
    let deeper = Replies::split(&game, &mem, &env, 3);
    deeper.eldest.lock().unwrap().insert(root, (1, None));
    deeper.eldest.lock().unwrap().insert(c(1), (0, Some(-2)));
    let none = vec![None; deeper.items()];
    let mut spare = Vec::new();
    assert_eq!(
        deeper.standing(&root, &none, &mut spare),
        Standing::Needs(vec![Item::Exact(c(1).child(0).unwrap())])
    );
    // Spare: the deeper position's other replies against its estimate; none at the
    // root, whose estimate is unknown.
    let (_, below) = deeper.position(&c(1)).unwrap();
    let want: Vec<Item> = (1..below.legal_moves().len())
        .map(|r| Item::Test(c(1).child(r).unwrap(), -2))
        .collect();
    assert!(!want.is_empty());
    assert_eq!(spare, want);
}

#[test]
fn the_replies_job_in_one_process_gives_every_moves_exact_value() {
    for (pits, seeds, ec) in [(4u8, 3u8, false), (3, 3, true), (6, 2, false), (6, 2, true)] {
        let rules = KalahRules::new(pits, seeds).unwrap().with_empty_capture(ec);
        let game = Kalah::new(rules);
        // Eight threads: more than the items needed at first, so spare ones run.
        for (threads, depth) in [(1, 1), (1, 2), (2, 3), (1, 4), (8, 2)] {
            let mem = memory(threads);
            let env = crate::solving::SolveOptions::default();
            let job = Replies::split(&game, &mem, &env, depth);
            let results = run_local(&job, &Options::default()).unwrap();
            let solved = assemble(&job, &results).unwrap();
            // Each move solved alone by a plain solver.
            let mut tt = vec![SolverEntry::EMPTY; 1 << 12];
            let mut s = KalahSolver::new(rules, &mut tt, EndgameTables::none(pits, ec)).unwrap();
            let me = game.side_to_move();
            for (k, &m) in game.legal_moves().iter().enumerate() {
                let child = game.play_unchecked(m);
                let want = if child.legal_moves().is_empty() {
                    for_player(&child, me, child.store_difference())
                } else {
                    for_player(&child, me, s.solve(&child, &mut Quiet).unwrap())
                };
                assert_eq!(
                    solved.moves[k],
                    (m, (want, want)),
                    "{:?} move {} depth {}",
                    rules,
                    k,
                    depth
                );
            }
            assert_eq!(
                solved.value,
                solved.moves.iter().map(|m| m.1 .0).max().unwrap()
            );
            assert!(solved.nodes > 0);
            let computed = results.iter().flatten().count();
            if depth == 1 {
                assert_eq!(computed, game.legal_moves().len(), "each first move whole");
            } else {
                assert!(computed > game.legal_moves().len());
            }
        }
    }
}

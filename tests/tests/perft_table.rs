//! Perft with a table of exact counts equals plain perft: every game and rule set,
//! many positions (random playouts, draughts kings with a history behind them, Halma
//! near its draw limit), every depth up to a few plies, over a roomy table, a table of
//! one bucket (every store replaces), and the host's shared table on three threads
//! (roomy, and one bucket that the threads fight over). And the perft keys are
//! exact: equal keys only for positions with the same future.

use ply_core::games::draughts::{Colour, Draughts};
use ply_core::games::halma::HalmaRules;
use ply_core::games::kalah::KalahRules;
use ply_core::games::{Halma16, Halma8, Kalah, TicTacToe};
use ply_core::perft::table::{deserves_an_entry, Layout, FEW_MOVES, MIN_TABLE_DEPTH};
use ply_core::perft::{perft, perft_tabled, BucketTable, PerftBucket, PerftKey, PerftTable, Slot};
use ply_core::playout::positions;
use ply_core::{Game, Player};
use ply_host::parallel::SharedPerftTable;
use ply_tests::kalah::{board, from_board};
use std::collections::{HashMap, HashSet};

/// Checks every way of counting with a table against `perft` for each position and
/// each depth up to `depth`.
fn agree<G: PerftKey + Send + Sync>(games: impl IntoIterator<Item = G>, depth: u32) -> usize {
    let mut checked = 0;
    for g in games {
        let bits = G::perft_key_bits(g.rules()).max(1);
        let mut roomy = vec![PerftBucket::EMPTY; 1 << 12];
        let mut roomy = BucketTable::new(&mut roomy[..], bits);
        let mut tiny = [PerftBucket::EMPTY; 1];
        let mut tiny = BucketTable::new(&mut tiny[..], bits);
        let shared = SharedPerftTable::new(1 << 18, bits).unwrap();
        let one_bucket = SharedPerftTable::new(64, bits).unwrap();
        for d in 0..=depth {
            let plain = perft(&g, d);
            let what = format!("{:?} depth {}", g, d);
            assert_eq!(perft_tabled(&g, d, &mut roomy), plain, "roomy, {}", what);
            assert_eq!(
                perft_tabled(&g, d, &mut tiny),
                plain,
                "one bucket, {}",
                what
            );
            for table in [&shared, &one_bucket] {
                let s = ply_host::parallel::perft::perft_tabled(&g, d, 3, table, &mut |_| {});
                assert_eq!(s.leaves, plain, "three threads, {}", what);
            }
            checked += 1;
        }
    }
    checked
}

#[test]
fn tictactoe() {
    let games = positions(TicTacToe::new(), 6, 1).take(8);
    assert_eq!(agree(games, 9), 80);
}

#[test]
fn kalah_sizes_and_capture_rules() {
    let mut n = 0;
    for spec in ["", "4x3", "6x4:empty-capture", "3x2", "8x7"] {
        let rules = Kalah::parse_rules(spec).unwrap();
        n += agree(positions(Kalah::start(rules), 30, 2).take(5), 6);
    }
    assert_eq!(n, 5 * 5 * 7);
}

#[test]
fn checkers_in_every_variant_and_convention() {
    let mut n = 0;
    for spec in ["english", "calgary", "english:unique", "calgary:unique"] {
        let rules = Draughts::parse_rules(spec).unwrap();
        // Deep playouts reach kings, king moves in the history, few pieces.
        n += agree(positions(Draughts::start(rules), 60, 3).take(12), 6);
    }
    assert_eq!(n, 4 * 12 * 7);
}

#[test]
fn checkers_kings_with_draw_rules_within_reach() {
    // Kings only: every move adds to the history. A move limit of two moves a side
    // and the repetition draw fall inside the counted depth; the Calgary rule forbids
    // repeating king moves.
    let mut n = 0;
    for spec in [
        "english:limit=2",
        "english:repeat=2",
        "english",
        "calgary",
        "calgary:limit=3",
    ] {
        let rules = Draughts::parse_rules(spec).unwrap();
        for fen in ["B:WK14,K15:BK4", "W:WK18,27:BK10,K1,5", "B:WK32:BK1"] {
            let g = Draughts::parse_position(rules, fen).unwrap();
            n += agree(positions(g, 6, 4).take(3), 8);
        }
    }
    assert_eq!(n, 5 * 3 * 3 * 9);
}

#[test]
fn halma_both_boards_and_the_draw_limit() {
    let mut n = agree(
        positions(Halma8::start(HalmaRules::default()), 40, 5).take(4),
        3,
    );
    // Near the limit: the plies left decide whether a subtree is cut short.
    let near = HalmaRules {
        max_plies: 6,
        ..HalmaRules::default()
    };
    n += agree(positions(Halma8::start(near), 4, 6).take(6), 4);
    n += agree(
        positions(Halma16::start(HalmaRules::default()), 20, 7).take(2),
        2,
    );
    assert_eq!(n, 4 * 4 + 6 * 5 + 2 * 3);
}

#[test]
fn nodes_with_more_children_than_the_table_handles_at_once() {
    // The table keeps the slots of a node's children in chunks of 32: positions with
    // more than two chunks of moves, counted through table nodes at depth 4.
    let wide: Vec<Halma8> = (0..40)
        .flat_map(|seed| positions(Halma8::start(HalmaRules::default()), 30, seed).take(20))
        .filter(|g| g.legal_moves().len() > 64)
        .take(2)
        .collect();
    assert_eq!(
        wide.len(),
        2,
        "no Halma position with more than 64 moves found"
    );
    assert_eq!(agree(wide, 4), 2 * 5);
}

/// A table that answers nothing and records the keys of the positions probed, with
/// their remaining depths.
struct Recorder {
    layout: Layout,
    keys: HashMap<Slot, u128>,
    probed: HashSet<(u128, u32)>,
}

impl PerftTable for Recorder {
    fn key_bits(&self) -> u32 {
        self.layout.key_bits()
    }
    fn slot(&self, key: u128) -> Slot {
        self.layout.slot(key)
    }
    fn probe(&mut self, slot: Slot, depth: u32) -> Option<u64> {
        let key = *self.keys.get(&slot).expect("a slot from a recorded key");
        self.probed.insert((key, depth));
        None
    }
    fn store(&mut self, _: Slot, _: u32, _: u64) {}
}

/// Every position `depth` plies deep or less below `g` with its remaining depth
/// and its key, for nodes at [`MIN_TABLE_DEPTH`] or more plies to go.
fn table_nodes<G: PerftKey>(g: &G, depth: u32, out: &mut Vec<(G, u32, u128)>) {
    if depth < MIN_TABLE_DEPTH {
        return;
    }
    if let Some(k) = g.perft_key() {
        out.push((*g, depth, k));
    }
    for &mv in g.legal_moves().iter() {
        table_nodes(&g.play_unchecked(mv), depth - 1, out);
    }
}

#[test]
fn forced_positions_and_few_moves_at_the_last_table_depth_are_not_looked_up() {
    let rules = Draughts::parse_rules("english").unwrap();
    let bits = Draughts::perft_key_bits(rules);
    let (mut skipped, mut looked_up) = (0, 0);
    for g in positions(Draughts::start(rules), 30, 7).take(6) {
        let depth = 6;
        let mut nodes = Vec::new();
        table_nodes(&g, depth, &mut nodes);
        let layout = Layout::new(bits, 1 << 10);
        let mut rec = Recorder {
            layout,
            keys: nodes.iter().map(|&(_, _, k)| (layout.slot(k), k)).collect(),
            probed: HashSet::new(),
        };
        assert_eq!(perft_tabled(&g, depth, &mut rec), perft(&g, depth));
        for (node, d, k) in &nodes {
            let moves = node.count_moves();
            let few = if *d == MIN_TABLE_DEPTH { FEW_MOVES } else { 1 };
            let probed = rec.probed.contains(&(*k, *d));
            if *d == depth {
                assert!(probed, "the root is looked up");
            } else if moves <= few {
                assert!(!deserves_an_entry(node, *d));
                assert!(
                    !probed,
                    "{:?} ({} moves, {} plies) was looked up",
                    node, moves, d
                );
                skipped += 1;
            } else {
                assert!(deserves_an_entry(node, *d));
                assert!(
                    probed,
                    "{:?} ({} moves, {} plies) was not looked up",
                    node, moves, d
                );
                looked_up += 1;
            }
        }
    }
    assert!(
        skipped > 0 && looked_up > 0,
        "{} skipped, {} looked up",
        skipped,
        looked_up
    );
}

/// Checks on many positions that a key is below `2^bits` and that two positions
/// with one key are the same position (`same`).
fn keys_are_exact<G: PerftKey>(games: impl Iterator<Item = G>, same: impl Fn(&G, &G) -> bool) {
    let mut seen: std::collections::HashMap<u128, G> = std::collections::HashMap::new();
    let mut keyed = 0;
    for g in games {
        let bits = G::perft_key_bits(g.rules());
        let Some(k) = g.perft_key() else { continue };
        keyed += 1;
        assert!(bits > 0 && (bits >= 128 || k >> bits == 0), "{:?}", g);
        if let Some(other) = seen.insert(k, g) {
            assert!(same(&other, &g), "one key for {:?} and {:?}", other, g);
        }
    }
    assert!(keyed > 100, "only {} positions had keys", keyed);
}

#[test]
fn keys_tell_positions_apart() {
    keys_are_exact(positions(TicTacToe::new(), 9, 8).take(3000), PartialEq::eq);
    // Each position also with the other side to move: the same pieces, another key.
    for spec in ["", "4x3:empty-capture", "6x6"] {
        let rules = Kalah::parse_rules(spec).unwrap();
        let both = positions(Kalah::start(rules), 60, 9)
            .take(3000)
            .flat_map(|g| {
                let other = from_board(rules, &board(&g), g.side_to_move().opponent());
                [Some(g), other.ok()]
            })
            .flatten();
        keys_are_exact(both, PartialEq::eq);
    }
    let rules = Draughts::parse_rules("english").unwrap();
    let both = positions(Draughts::start(rules), 80, 10)
        .take(3000)
        .flat_map(|g| {
            let (b, w) = (g.pieces(Colour::Black), g.pieces(Colour::White));
            let other =
                Draughts::from_bitboards(rules, b, w, g.kings(), g.colour_to_move().other());
            [Some(g), other.ok()]
        })
        .flatten();
    keys_are_exact(both, PartialEq::eq);
    let rules = HalmaRules {
        max_plies: 70,
        ..HalmaRules::default()
    };
    keys_are_exact(
        positions(Halma8::start(rules), 69, 11).take(3000),
        |a, b| {
            [Player::First, Player::Second]
                .iter()
                .all(|&p| a.pieces(p) == b.pieces(p))
                && a.side_to_move() == b.side_to_move()
                && a.plies_left().min(64) == b.plies_left().min(64)
        },
    );
}

#[test]
fn games_without_keys_say_so() {
    assert_eq!(Halma16::perft_key_bits(HalmaRules::default()), 0);
    assert_eq!(Halma16::start(HalmaRules::default()).perft_key(), None);
    // Kalah 8x7: (2 x 8 + 2) x 7 + 1 = 127 bits, wider than any table takes.
    let big = KalahRules::new(8, 7).unwrap();
    assert_eq!(Kalah::perft_key_bits(big), 0);
    assert_eq!(Kalah::start(big).perft_key(), None);
    // Draughts: a king's move leaves a history, and no key until a man moves.
    let g = Draughts::parse_position(Default::default(), "B:WK29,22:BK4,9").unwrap();
    assert!(g.perft_key().is_some());
    let after = g.play(g.parse_move("4-8").unwrap()).unwrap();
    assert_eq!(after.perft_key(), None);
    let man = after.play(after.parse_move("22-18").unwrap()).unwrap();
    assert!(man.perft_key().is_some());
}

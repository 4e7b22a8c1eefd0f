//! The engine's futility switches ([`EngineConfig::futility`],
//! [`EngineConfig::reverse_futility`]): off in the engine's defaults, on for draughts;
//! on, they search fewer nodes to the same depth and still answer a legal move.

use ply_core::games::draughts::{Draughts, Rules};
use ply_core::search::{Engine, EngineConfig, Limits, NoClock, Recommended, TtEntry};
use ply_core::Game;

fn positions() -> Vec<Draughts> {
    ply_core::playout::positions(Draughts::new(Rules::english()), 30, 5)
        .filter(|g| !g.outcome().is_over())
        .take(24)
        .collect()
}

/// Nodes and value of a depth-`depth` search of `g` with `config`, and its move.
fn search(g: &Draughts, depth: u32, config: EngineConfig) -> (u64, i32, Option<usize>) {
    let mut slots = vec![TtEntry::EMPTY; 1 << 14];
    let mut engine = Engine::new(&mut slots, Draughts::evaluation(), NoClock, config);
    let r = engine.search(g, Limits::depth(depth));
    let moves = g.legal_moves();
    let index = r.best_move.map(|m| {
        moves
            .iter()
            .position(|&x| x == m)
            .expect("the best move is legal")
    });
    (r.nodes, r.value, index)
}

#[test]
fn pruning_is_off_in_the_engine_and_on_for_draughts() {
    for config in [EngineConfig::default(), EngineConfig::exact()] {
        assert_eq!((config.futility, config.reverse_futility), (0, 0));
    }
    let draughts = Draughts::engine_config();
    assert!(draughts.futility > 0 && draughts.reverse_futility > 0);
}

#[test]
fn pruning_searches_fewer_nodes_and_answers_legal_moves() {
    let pruned = Draughts::engine_config();
    let plain = EngineConfig {
        futility: 0,
        reverse_futility: 0,
        ..pruned
    };
    for (name, config) in [
        ("both", pruned),
        (
            "futility",
            EngineConfig {
                reverse_futility: 0,
                ..pruned
            },
        ),
        (
            "reverse futility",
            EngineConfig {
                futility: 0,
                ..pruned
            },
        ),
    ] {
        let (mut with, mut without) = (0, 0);
        for g in positions() {
            let (n, _, mv) = search(&g, 8, config);
            let (m, _, _) = search(&g, 8, plain);
            assert!(mv.is_some(), "{name}: no move at {g}");
            with += n;
            without += m;
        }
        assert!(
            with < without,
            "{name}: {with} nodes against {without} without"
        );
    }
}

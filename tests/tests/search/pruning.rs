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

/// A skipped move is judged, not searched: the node it is skipped at must not claim
/// a lost game because its searched moves all lose, or the parent reads a proved win
/// the skipped defences may refute. Two White kings against a Black king, White to
/// move: no search may claim a win sooner than the endgame database's distance (the
/// capture of the last king is the conversion and the end). With futility pruning
/// the engine once answered "win in 13 plies" at depth 12 from `W:WK14,K19:BK32`,
/// where the quickest win takes 19.
#[test]
fn pruning_never_claims_a_win_sooner_than_the_quickest_one() {
    use ply_core::games::draughts::db::{small, Value};
    use ply_core::search::WIN;
    let config = Draughts::engine_config();
    assert!(config.futility > 0 && config.reverse_futility > 0);
    let check = |g: &Draughts, depth: u32| {
        let Some(Value::Win(quickest)) = small::DATABASE.probe(g) else {
            return false;
        };
        let (_, value, _) = search(
            g,
            depth,
            EngineConfig {
                probes: false,
                ..config
            },
        );
        assert!(
            value <= WIN - i32::from(quickest),
            "{g} at depth {depth}: value {value}, a win in {} plies, but the quickest \
             takes {quickest}",
            WIN - value
        );
        true
    };
    let g = Draughts::parse_position(Rules::english(), "W:WK14,K19:BK32").unwrap();
    for depth in 1..=13 {
        assert!(check(&g, depth));
    }
    let mut checked = 0;
    for (n, (a, b, c)) in (1..=32u32)
        .flat_map(|a| (a + 1..=32).flat_map(move |b| (1..=32).map(move |c| (a, b, c))))
        .filter(|&(a, b, c)| c != a && c != b)
        .enumerate()
    {
        if n % 61 != 0 {
            continue;
        }
        let text = format!("W:WK{a},K{b}:BK{c}");
        let g = Draughts::parse_position(Rules::english(), &text).unwrap();
        if check(&g, 11) {
            checked += 1;
        }
    }
    assert!(checked > 100, "{checked}");
}

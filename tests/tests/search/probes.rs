//! The engine's endgame-table hook: where the evaluation knows a position's exact value
//! ([`Evaluator::exact`]) the engine takes it and searches no further; with
//! [`EngineConfig::probes`] off (and in [`EngineConfig::exact`]) it never asks.

use ply_core::games::draughts::{Draughts, DraughtsEval, Rules};
use ply_core::search::{Engine, EngineConfig, Evaluator, Limits, NoClock, Score, TtEntry};
use ply_core::{Game, Player};

/// The standard evaluation, claiming to know every position with at most `pieces`
/// pieces exactly: worth `VALUE` to its side to move.
#[derive(Clone, Copy)]
struct Oracle {
    pieces: u32,
}

const VALUE: Score = 777;

impl Evaluator<Draughts> for Oracle {
    fn evaluate(&self, game: &Draughts, me: Player) -> Score {
        DraughtsEval::STANDARD.evaluate(game, me)
    }
    fn exact(&self, game: &Draughts, _ply: u32) -> Option<Score> {
        let pieces = (game.pieces(ply_core::games::draughts::Colour::White)
            | game.pieces(ply_core::games::draughts::Colour::Black))
        .count_ones();
        (pieces <= self.pieces).then_some(VALUE)
    }
}

fn search(game: &Draughts, config: EngineConfig, depth: u32) -> (Score, u64) {
    let mut slots = vec![TtEntry::default(); 1 << 12];
    let mut engine = Engine::new(&mut slots, Oracle { pieces: 32 }, NoClock, config);
    let r = engine.search(game, Limits::depth(depth));
    (r.value, r.nodes)
}

#[test]
fn an_exact_value_ends_the_search_below_the_root() {
    let start = Draughts::start(Rules::english());
    // Every child of the root is "known": worth VALUE to the opponent.
    for depth in [1, 4, 7] {
        let (value, nodes) = search(&start, EngineConfig::default(), depth);
        assert_eq!(value, -VALUE, "depth {}", depth);
        // The root and its seven children, once an iteration; nothing below them.
        assert_eq!(nodes, u64::from(depth) * 8, "depth {}", depth);
    }
}

#[test]
fn probes_off_and_the_exact_configuration_never_ask() {
    let start = Draughts::start(Rules::english());
    let off = EngineConfig {
        probes: false,
        ..EngineConfig::default()
    };
    for config in [off, EngineConfig::exact()] {
        assert!(!config.probes);
        let (value, nodes) = search(&start, config, 5);
        assert_ne!(value, -VALUE);
        assert!(nodes > 100, "{} nodes", nodes);
    }
}

#[test]
fn only_known_positions_are_cut() {
    // Two kings against one: every position below the root has three pieces, known.
    let g = Draughts::parse_position(Rules::english(), "W:WK14,K15:BK1").unwrap();
    let (value, _) = search(&g, EngineConfig::default(), 6);
    assert_eq!(value, -VALUE);
    // A fuller board: the oracle knows nothing with 24 pieces, so the value is the
    // evaluation's.
    let mut slots = vec![TtEntry::default(); 1 << 12];
    let mut engine = Engine::new(
        &mut slots,
        Oracle { pieces: 3 },
        NoClock,
        EngineConfig::default(),
    );
    let r = engine.search(&Draughts::start(Rules::english()), Limits::depth(4));
    assert_ne!(r.value, -VALUE);
    assert_ne!(r.value, VALUE);
}

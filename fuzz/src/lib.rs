//! The checks behind ply's fuzz targets, one function per target, so that the
//! libFuzzer binaries in `fuzz_targets/` are one line each and the committed corpus
//! can be replayed by a plain `cargo test` (tests/corpus.rs) without libFuzzer.
//!
//! Every check panics when ply misbehaves; a panic is what the fuzzer reports. What is
//! checked, for every game:
//! * parsers (positions, moves, rule parameters, game specs, CLI option values) never
//!   panic, and what they accept round-trips through its text;
//! * `play` on arbitrary moves in arbitrary reachable positions: a move is accepted
//!   exactly when it is in the legal move list, a refused move leaves the position
//!   unchanged (the error carries it back equal), an accepted one gives the same state
//!   as `play_unchecked`;
//! * nothing hangs: libFuzzer's `-timeout` (scripts/fuzz.sh) fails any input that takes
//!   longer than that.

use arbitrary::Unstructured;
use ply_core::Game;

pub mod targets;

/// Text from fuzz bytes: invalid UTF-8 is replaced, so every input reaches the parser.
pub fn text(data: &[u8]) -> String {
    String::from_utf8_lossy(data).into_owned()
}

/// The laws every position must satisfy: its text parses back to a position that
/// prints the same with an equal hash (the whole state is not compared: draughts keeps
/// a repetition record its text leaves out), and move generation and counting agree.
pub fn check_position<G: Game>(g: &G) {
    let shown = g.to_string();
    let back = G::parse_position(g.rules(), &shown)
        .unwrap_or_else(|e| panic!("{:?} prints as {:?}, which does not parse: {}", g, shown, e));
    assert_eq!(back.to_string(), shown, "text round trip of {:?}", shown);
    assert_eq!(
        back.hash(),
        g.hash(),
        "hash after a text round trip of {:?}",
        shown
    );
    let moves = g.legal_moves();
    assert_eq!(
        g.count_moves(),
        moves.len() as u64,
        "count_moves of {:?}",
        g
    );
    assert_eq!(
        moves.is_empty(),
        g.outcome().is_over(),
        "no moves exactly when the game is over: {:?}",
        g
    );
}

/// Tries `mv` in `g` with the checked `play` and checks the outcome against the legal
/// move list: accepted exactly when legal, a refusal carries the position back
/// unchanged, an acceptance equals `play_unchecked`. Returns the new state if legal.
pub fn check_play<G: Game>(g: &G, mv: G::Move) -> Option<G> {
    let legal = g.legal_moves().contains(&mv);
    let before = *g;
    match g.play(mv) {
        Ok(next) => {
            assert!(
                legal,
                "play accepted {:?}, not in the legal list of {:?}",
                mv, g
            );
            assert_eq!(next, g.play_unchecked(mv), "play and play_unchecked differ");
            assert_eq!(*g, before);
            Some(next)
        }
        Err(e) => {
            assert!(
                !legal,
                "play refused legal {:?} in {:?}: {}",
                mv, g, e.reason
            );
            assert_eq!(e.position, before, "a refusal changed the position");
            assert!(!e.reason.is_empty(), "a refusal without a reason");
            // The refusal's message is printable, whatever the move.
            let _ = e.to_string();
            None
        }
    }
}

/// A reachable position: from `start`, up to `max_plies` legal moves chosen by the
/// fuzz bytes (each position checked on the way).
pub fn reachable<G: Game>(start: G, u: &mut Unstructured<'_>, max_plies: u32) -> G {
    let mut g = start;
    let plies = u.int_in_range(0..=max_plies).unwrap_or(0);
    for _ in 0..plies {
        let moves = g.legal_moves();
        if moves.is_empty() {
            break;
        }
        let i = u.choose_index(moves.len()).unwrap_or(0);
        g = g.play_unchecked(moves[i]);
    }
    g
}

/// The move-text target: a reachable position, then the rest of the input as a move in
/// its notation. A parsed move is played with the checks of [`check_play`]; every
/// legal move's written form parses back to the same move.
pub fn move_text<G: Game>(rules: G::Rules, data: &[u8], max_plies: u32) {
    let mut u = Unstructured::new(data);
    let g = reachable(G::start(rules), &mut u, max_plies);
    let t = text(u.take_rest());
    if let Ok(mv) = g.parse_move(&t) {
        let _ = g.display_move(mv).to_string();
        check_play(&g, mv);
    }
    for &mv in g.legal_moves().iter() {
        let written = g.display_move(mv).to_string();
        let parsed = g
            .parse_move(&written)
            .unwrap_or_else(|e| panic!("{:?}: move {:?} does not parse back: {}", g, written, e));
        assert_eq!(parsed, mv, "{:?}: move text {:?} round trip", g, written);
    }
}

/// The position-text target: arbitrary text under `rules`; what parses must satisfy
/// [`check_position`] and survive a checked move of every legal kind.
pub fn position_text<G: Game>(rules: G::Rules, data: &[u8]) {
    let t = text(data);
    if let Ok(g) = G::parse_position(rules, &t) {
        check_position(&g);
        // A parsed position has no history: it equals its own re-parse.
        assert_eq!(G::parse_position(rules, &g.to_string()), Ok(g));
        for &mv in g.legal_moves().iter() {
            let next = check_play(&g, mv).expect("a generated move is legal");
            check_position(&next);
        }
    }
}

/// The rule-parameter target: what parses gives a start position that satisfies
/// [`check_position`].
pub fn rules_text<G: Game>(data: &[u8]) {
    let t = text(data);
    if let Ok(rules) = G::parse_rules(&t) {
        let g = G::start(rules);
        assert_eq!(g.rules(), rules);
        check_position(&g);
    }
}

/// The play target: a walk through reachable positions where each step either plays
/// a legal move or tries an arbitrary move: one made by `arbitrary_move` from raw bytes
/// (`None` if the bytes make no move), a legal move of some other reachable position,
/// or typed move text, which must be refused exactly
/// when it is not legal, leaving the position as it was.
pub fn play<G: Game>(
    rules: G::Rules,
    data: &[u8],
    max_steps: u32,
    arbitrary_move: impl Fn(&G, &mut Unstructured<'_>) -> arbitrary::Result<Option<G::Move>>,
) {
    let mut u = Unstructured::new(data);
    let mut g = G::start(rules);
    // A second game walked in parallel: its legal moves are plausible but often
    // illegal moves for the first.
    let mut other = G::start(rules);
    for _ in 0..max_steps {
        if u.is_empty() {
            break;
        }
        let Ok(kind) = u.int_in_range(0u8..=3) else {
            break;
        };
        match kind {
            0 => {
                let moves = g.legal_moves();
                if moves.is_empty() {
                    g = G::start(rules);
                    continue;
                }
                let i = u.choose_index(moves.len()).unwrap_or(0);
                g = check_play(&g, moves[i]).expect("a generated move is legal");
            }
            1 => {
                let Ok(mv) = arbitrary_move(&g, &mut u) else {
                    break;
                };
                if let Some(next) = mv.and_then(|mv| check_play(&g, mv)) {
                    g = next;
                }
            }
            2 => {
                let moves = other.legal_moves();
                if moves.is_empty() {
                    other = G::start(rules);
                    continue;
                }
                let i = u.choose_index(moves.len()).unwrap_or(0);
                if let Some(next) = check_play(&g, moves[i]) {
                    g = next;
                }
                other = other.play_unchecked(moves[i]);
            }
            _ => {
                // Move text typed by a user: arbitrary bytes, parsed against g.
                let len = u.int_in_range(0usize..=12).unwrap_or(0);
                let bytes = u.bytes(len).unwrap_or(&[]);
                if let Ok(mv) = g.parse_move(&text(bytes)) {
                    if let Some(next) = check_play(&g, mv) {
                        g = next;
                    }
                }
            }
        }
        check_position(&g);
    }
}

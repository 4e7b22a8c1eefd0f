//! The laws every game must keep along any playout, checked on random playouts by the
//! property tests `tests/tests/<game>/properties.rs`.
//!
//! [`check_playout`] walks a game from a start position, choosing each move from the
//! legal list with the given choice numbers, and at every position checks:
//! * the position text round-trips (`parse_position` of `Display` gives an equal
//!   state) and the hash equals the hash of the re-parsed position;
//! * the move list stays within the game's proven capacity, and is empty exactly when
//!   the game is over; `count_moves` agrees with it;
//! * every generated move is legal by the game's independent slow check (written in
//!   the test, from the rules, not from the game's code), and the slow check accepts
//!   no candidate move the generator left out;
//! * checked `play` accepts every generated move and gives the state `play_unchecked`
//!   gives; `count_moves_after` counts the moves after it, and `count_two_plies`
//!   is their sum; `count_two_plies_after` is the next position's
//!   `count_two_plies`; every move's text parses back to the move;
//! * the game's conservation law holds from each position to the next.

use std::collections::HashSet;
use std::fmt::Debug;

use ply_core::Game;

/// What a game's property test supplies: the parts that differ between games.
pub struct Laws<G: Game> {
    /// The capacity of `G::MoveList` (its `CAPACITY` constant).
    pub capacity: usize,
    /// Every move worth trying in `g`: a superset of the legal moves, built without
    /// the game's generator (all squares, all pits, …).
    pub candidates: fn(&G) -> Vec<G::Move>,
    /// The independent slow legality check.
    pub slow_legal: fn(&G, G::Move) -> bool,
    /// The conservation law from `before` to `after = before.play(mv)`: an error says
    /// what was not conserved.
    pub conserved: fn(&G, G::Move, &G) -> Result<(), String>,
    /// Whether a state and the state re-parsed from its text are the same position:
    /// `==` for most games; a game whose state carries history the text leaves out
    /// (draughts' repetition record) compares the position alone.
    pub same_position: fn(&G, &G) -> bool,
}

/// `same_position` for games whose text holds the whole state.
pub fn equal<G: Game>(a: &G, b: &G) -> bool {
    a == b
}

/// Counts of what [`check_playout`] looked at.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Checked {
    /// Positions checked.
    pub positions: usize,
    /// Moves checked (generated moves, each played checked and unchecked).
    pub moves: usize,
}

fn fail<T: Debug>(g: &T, what: String) -> String {
    format!("at {:?}: {}", g, what)
}

/// Checks every law at `g` and along the moves chosen by `choices` (each choice
/// modulo the number of legal moves), until the game ends or the choices run out.
pub fn check_playout<G: Game>(
    start: G,
    choices: &[usize],
    laws: &Laws<G>,
) -> Result<Checked, String> {
    let mut g = start;
    let mut checked = Checked::default();
    let mut i = 0;
    loop {
        check_position(&g, laws).map_err(|e| fail(&g, e))?;
        checked.positions += 1;
        let moves = g.legal_moves();
        checked.moves += moves.len();
        if moves.is_empty() || i >= choices.len() {
            return Ok(checked);
        }
        let mv = moves[choices[i] % moves.len()];
        i += 1;
        let next = g.play_unchecked(mv);
        (laws.conserved)(&g, mv, &next).map_err(|e| fail(&g, format!("{:?}: {}", mv, e)))?;
        g = next;
    }
}

/// The laws at one position (not the conservation, which needs a move).
pub fn check_position<G: Game>(g: &G, laws: &Laws<G>) -> Result<(), String> {
    let text = g.to_string();
    let back = G::parse_position(g.rules(), &text)
        .map_err(|e| format!("text {:?} does not parse back: {}", text, e))?;
    if !(laws.same_position)(&back, g) || back.to_string() != text {
        return Err(format!("text {:?} parses back as {:?}", text, back));
    }
    if back.hash() != g.hash() {
        return Err(format!(
            "hash {:#x} of the played position differs from the re-parsed position's {:#x}",
            g.hash(),
            back.hash()
        ));
    }
    let moves = g.legal_moves();
    if moves.len() > laws.capacity {
        return Err(format!(
            "{} moves in a list of capacity {}",
            moves.len(),
            laws.capacity
        ));
    }
    if moves.is_empty() != g.outcome().is_over() {
        return Err(format!(
            "{} moves but the outcome is {:?}",
            moves.len(),
            g.outcome()
        ));
    }
    if g.count_moves() != moves.len() as u64 {
        return Err(format!(
            "count_moves {} but {} moves generated",
            g.count_moves(),
            moves.len()
        ));
    }
    let generated: HashSet<G::Move> = moves.iter().copied().collect();
    if generated.len() != moves.len() {
        return Err(format!("a move generated twice: {:?}", &moves[..]));
    }
    let mut two_plies = 0;
    for &mv in moves.iter() {
        if !(laws.slow_legal)(g, mv) {
            return Err(format!("generated {:?}, illegal by the slow check", mv));
        }
        match g.play(mv) {
            Ok(next) if next == g.play_unchecked(mv) => {}
            Ok(next) => {
                return Err(format!(
                    "play gives {:?}, play_unchecked {:?} for {:?}",
                    next,
                    g.play_unchecked(mv),
                    mv
                ))
            }
            Err(e) => return Err(format!("play refuses generated {:?}: {}", mv, e.reason)),
        }
        let after = g.play_unchecked(mv).legal_moves().len() as u64;
        let counted = g.count_moves_after(mv);
        two_plies += after;
        let below = g.play_unchecked(mv).count_two_plies();
        if g.count_two_plies_after(mv) != below {
            return Err(format!(
                "count_two_plies_after {:?} is {} but the position after it has {}",
                mv,
                g.count_two_plies_after(mv),
                below
            ));
        }
        if counted != after {
            return Err(format!(
                "count_moves_after {:?} is {} but {} moves follow it",
                mv, counted, after
            ));
        }
        let written = g.display_move(mv).to_string();
        match g.parse_move(&written) {
            Ok(m) if m == mv => {}
            other => {
                return Err(format!(
                    "move {:?} writes as {:?}, which parses as {:?}",
                    mv, written, other
                ))
            }
        }
    }
    if g.count_two_plies() != two_plies {
        return Err(format!(
            "count_two_plies is {} but {} moves follow the moves",
            g.count_two_plies(),
            two_plies
        ));
    }
    let slow: HashSet<G::Move> = (laws.candidates)(g)
        .into_iter()
        .filter(|&m| (laws.slow_legal)(g, m))
        .collect();
    if slow != generated {
        return Err(format!(
            "the slow check allows {:?}, the generator gives {:?}",
            slow, generated
        ));
    }
    for m in (laws.candidates)(g) {
        if !generated.contains(&m) {
            match g.play(m) {
                Err(e) if e.position == *g => {}
                Err(_) => return Err(format!("refusing {:?} changed the position", m)),
                Ok(_) => return Err(format!("play accepts {:?}, which is not generated", m)),
            }
        }
    }
    Ok(())
}

//! Setting up the position a command works on: `--position P` and `--after M...`.

use ply_core::Game;

use crate::quote::quote;

/// The start position under `rules`, or `position` parsed, then each move of
/// `after` validated and played. Errors name the offending input.
pub fn setup<G: Game>(
    rules: G::Rules,
    position: Option<&str>,
    after: &[String],
) -> Result<G, String> {
    let mut game = match position {
        Some(text) => G::parse_position(rules, text)
            .map_err(|e| format!("bad position {}: {}", quote(text), e))?,
        None => G::start(rules),
    };
    for (i, text) in after.iter().enumerate() {
        game = play_text(&game, text)
            .map_err(|e| format!("--after move {} {}: {}", i + 1, quote(text), e))?;
    }
    Ok(game)
}

/// Parses `text` as a move in `game` and plays it if legal.
pub fn play_text<G: Game>(game: &G, text: &str) -> Result<G, String> {
    let mv = game.parse_move(text).map_err(|e| e.to_string())?;
    game.play(mv).map_err(|e| e.to_string())
}

/// The legal moves of `game` in its notation.
pub fn move_texts<G: Game>(game: &G) -> Vec<String> {
    game.legal_moves()
        .iter()
        .map(|&m| game.display_move(m).to_string())
        .collect()
}
